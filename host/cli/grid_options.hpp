// Flags shared by the grid-game subcommands (perft, play): --game, --board, --rules, --players,
// --fen, turned into a validated grid::GameSetup (bad input: InputError).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <cxxopts.hpp>

#include "games/grid/setup.hpp"

namespace gaeval::cli {

void add_grid_options(cxxopts::Options& options);

struct GridOptions {
    std::string game, board, rules, fen;
    int players = 2;
    grid::GameSetup setup;
};

GridOptions read_grid_options(const cxxopts::ParseResult& result);

// The value of string flag `name` as an integer in [min, max]; InputError naming the flag when
// it is missing (and required), not an integer, or out of range.
int64_t read_integer_flag(const cxxopts::ParseResult& result, const std::string& name, int64_t min,
                          int64_t max);

// Arguments with the one-letter long flags `--a X` / `--a=X` (and b) respelled `--player-a`
// (cxxopts needs two letters after "--"); argv[0] unchanged.
std::vector<std::string> respell_player_flags(int argc, char** argv);

}  // namespace gaeval::cli
