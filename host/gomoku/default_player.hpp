// The best shipped Gomoku player: what `gaeval gomocup` plays when started with no arguments
// (Gomocup managers start brains that way). Its numbers are those of
// data/gomoku/default-player.json (a test checks that they agree), which records the command
// that learned them.
#pragma once

#include "host/games/session.hpp"

namespace gaeval::gomoku {

// The weighted player of data/gomoku/default-player.json (label "default-player").
games::PlayerData default_player();

}  // namespace gaeval::gomoku
