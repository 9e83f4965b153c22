// The best shipped Gomoku player: what `gaeval gomocup` plays when started with no arguments
// (Gomocup managers start brains that way). Its numbers are those of
// data/gomoku/default-player.json (a test checks that they agree), which records the command
// that learned them.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "host/games/session.hpp"

namespace gaeval::gomoku {

// The weighted player of data/gomoku/default-player.json (label "default-player").
games::PlayerData default_player();

// The line-shape weights the shipped player plays with (data/gomoku/default-player.json's
// "shape_weights"; empty when it has none).
std::vector<float> default_shape_weights();

// A player file's optional "shape_weights": kShapeWeightCount numbers (patterns.hpp), or
// empty when the field is absent (old files: no shape term). InputError naming `path` when
// the field is not an array of that many numbers.
std::vector<float> read_shape_weights(const nlohmann::json& doc, const std::string& path);

}  // namespace gaeval::gomoku
