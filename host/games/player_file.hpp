// Players named on the command line and player files (written by `gaeval learn`, read by
// `gaeval play` and the protocol front ends):
//
//   {
//     "format": "gaeval-player", "version": 1,
//     "game": "ataxx",
//     "learned_on": {"board": "square8:7x7", "rules": "ataxx", ...},
//     "depth": 1,
//     "features": ["own_pieces", "opponent_pieces", ...],
//     "weights":  [1.0, -1.0, ...]
//   }
//
// `features` names the entries of `weights` one to one: any subset of the game's weight names,
// each at most once, in any order; a name not listed weighs 0. A file is refused for another
// game. `learned_on` says what the weights were learned on (Ataxx's features mean the same on
// every board, so a player may play on another). Ataxx's earlier "gaeval-grid-weights" files
// (board and rules at the top level, no depth) are still read. Errors name the file and field.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "host/games/session.hpp"

namespace gaeval::games {

struct PlayerFile {
    std::string game;
    nlohmann::json learned_on = nlohmann::json::object();
    int depth = 1;
    std::vector<float> weights;  // one per weight name of the game, in the game's order
};

// Reads and checks a player file for `game`; InputError naming the file and field.
PlayerFile read_player_file(const std::string& path, const GameInfo& game);
// The same checks on a parsed document (a player compiled into gaeval); `path` names it in
// errors.
PlayerFile parse_player_file(const nlohmann::json& doc, const std::string& path,
                             const GameInfo& game);
// Every weight in the game's order; InputError when the file cannot be written.
void write_player_file(const std::string& path, const GameInfo& game, const PlayerFile& file);
std::string player_file_json(const GameInfo& game, const PlayerFile& file);

// A player from a command-line name: random | a built-in policy of the game | a player file.
PlayerData parse_player(const std::string& spec, const std::string& flag, const GameInfo& game);

// The player of a built-in name ("random" or a policy name), or false.
bool builtin_player(const std::string& name, const GameInfo& game, PlayerData* out);

// Index of a weight name of the game, or -1.
int weight_index(const GameInfo& game, const std::string& name);

}  // namespace gaeval::games
