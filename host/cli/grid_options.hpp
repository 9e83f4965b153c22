// Flags shared by the grid-game subcommands (perft, play): --game, --board, --rules, --players,
// --fen, turned into a validated grid::GameSetup (bad input: InputError), and --generic (in the
// "Hidden" group, left out of --help: the per-cell tables even where the 7x7 fast path applies).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <cxxopts.hpp>
#include <nlohmann/json.hpp>

#include "games/grid/setup.hpp"
#include "host/backend/backend.hpp"
#include "host/cli/common.hpp"
#include "host/grid/grid.hpp"

namespace gaeval::cli {

void add_grid_options(cxxopts::Options& options);

struct GridOptions {
    std::string game, board, rules, fen;
    int players = 2;
    grid::GameSetup setup;
};

GridOptions read_grid_options(const cxxopts::ParseResult& result);

// The engine (--generic) and the resolved backend of a grid run; the backend's note goes to
// stderr as "gaeval <command>: <note>". Call after every input is validated.
struct GridRun {
    grid::EngineChoice engine;
    BackendChoice backend;
};
GridRun start_grid_run(const cxxopts::ParseResult& result, const CommonOptions& common,
                       const std::string& command);
GridRun start_grid_run(grid::EngineChoice engine, const CommonOptions& common,
                       const std::string& command);

// The fields every grid result's JSON carries: command, game, board, rules, players, fen,
// backend, threads, device, engine.
nlohmann::json grid_result_json(const std::string& command, const GridOptions& game,
                                const GridRun& run);

// The value of string flag `name` as an integer in [min, max]; InputError naming the flag when
// it is missing (and required), not an integer, or out of range.
int64_t read_integer_flag(const cxxopts::ParseResult& result, const std::string& name, int64_t min,
                          int64_t max);

// Arguments with the one-letter long flags `--a X` / `--a=X` (and b) respelled `--player-a`
// (cxxopts needs two letters after "--"); argv[0] unchanged.
std::vector<std::string> respell_player_flags(int argc, char** argv);

}  // namespace gaeval::cli
