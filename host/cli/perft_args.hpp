// The flags of `gaeval perft`, parsed into one struct; shared by the subcommand and by
// `gaeval compare perft ...`.
#pragma once

#include <string>

#include "host/cli/common.hpp"
#include "host/cli/grid_options.hpp"

namespace gaeval::cli {

struct PerftArgs {
    GridOptions game;
    int depth = 0;
    grid::EngineChoice engine;
    CommonOptions common;
    bool help = false;
    std::string help_text;
};

// Parses and validates argv (argv[0] = "perft"); InputError on bad input.
PerftArgs parse_perft_args(int argc, char** argv);

}  // namespace gaeval::cli
