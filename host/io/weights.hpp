// Weights files for the weighted grid player (written by `gaeval learn`, read by `gaeval play`):
//
//   {
//     "format": "gaeval-grid-weights", "version": 1,
//     "game": "ataxx", "board": "square8:7x7", "rules": "ataxx",
//     "features": ["own_pieces", "opponent_pieces", ...],
//     "weights":  [1.0, -1.0, ...]
//   }
//
// `features` names the entries of `weights` one to one (any subset of the feature names, each
// at most once, any order; a feature not listed has weight 0). `board` and `rules` say what the
// weights were learned on; the features mean the same on every board, so a player may use them
// on another. Errors name the file and the field.
#pragma once

#include <array>
#include <string>

#include "games/grid/features.hpp"
#include "games/grid/players.hpp"

namespace gaeval::io {

struct GridWeights {
    std::string game = "ataxx";
    std::string board = "square8:7x7";
    std::string rules = "ataxx";
    std::array<float, grid::kFeatureCount> weights{};  // by grid::Feature index
};

// The file-format name of feature i ("own_pieces", ...); i in [0, kFeatureCount).
const char* feature_name(int i);
// Index of a feature name, or -1.
int feature_index(const std::string& name);

GridWeights read_grid_weights(const std::string& path);
// Writes every feature in index order. Throws InputError when the file cannot be written.
void write_grid_weights(const std::string& path, const GridWeights& weights);
std::string grid_weights_json(const GridWeights& weights);

// A player from a command-line name: random | capture | most-pieces | a weights file path.
grid::Player parse_grid_player(const std::string& spec, const std::string& flag);

}  // namespace gaeval::io
