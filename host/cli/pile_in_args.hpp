// The flags of `gaeval pile-in`, parsed into a job; shared by the subcommand and by
// `gaeval compare pile-in ...`.
#pragma once

#include <string>

#include "host/cli/common.hpp"
#include "host/islands/islands.hpp"
#include "host/pile_in/run.hpp"

namespace gaeval::cli {

struct PileInArgs {
    pile_in::PileInJob job;  // backend not yet resolved (see common.backend / threads)
    CommonOptions common;
    islands::IslandConfig islands;  // count 1: no islands (the plain run)
    bool use_islands = false;       // --islands 2 or more, or a resumed island run
    bool out_given = false;         // --out or --resume named the folder
    std::string check;  // --check PLAN: judge that plan instead of running a solver
    bool help = false;
    std::string help_text;
};

// Parses and validates argv (argv[0] = "pile-in"); InputError on bad input.
PileInArgs parse_pile_in_args(int argc, char** argv);

}  // namespace gaeval::cli
