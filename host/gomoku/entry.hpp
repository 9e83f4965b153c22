// The registry entry of Gomoku: flags --board (15 | 20), --rules (freestyle | standard) and
// --opening (centre | none), the compiled game type that serves a board size, the reward-table
// weight names of player files, the start weights of `gaeval learn` (the seed's table) and the
// bench cases.
#pragma once

#include <memory>
#include <string>

#include "games/gomoku/game.hpp"
#include "host/games/registry.hpp"

namespace gaeval::gomoku {

struct Setup {
    int size = 15;  // 15 or 20
    RuleSet rule = RuleSet::Freestyle;
    Opening opening = Opening::Centre;
};

// "15", "15x15", "20" or "20x20"; InputError naming --board otherwise.
int parse_board(const std::string& text);
// "freestyle" or "standard"; InputError naming --rules otherwise.
RuleSet parse_rules(const std::string& text);
const char* rules_name(RuleSet rule);
// "centre" or "none"; InputError naming --opening otherwise.
Opening parse_opening(const std::string& text);
const char* opening_name(Opening opening);

// The player-file name of weight i (the 11 ranks, then K); i in [0, kWeightCount).
const char* weight_name(int i);

std::unique_ptr<games::GameEntry> make_entry();
std::unique_ptr<games::GameSession> open_session(const Setup& setup);

}  // namespace gaeval::gomoku
