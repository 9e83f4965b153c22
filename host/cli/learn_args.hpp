// The flags of `gaeval learn`, parsed into a job; shared by the subcommand and by
// `gaeval compare learn ...`.
#pragma once

#include <string>

#include "host/cli/common.hpp"
#include "host/islands/islands.hpp"
#include "host/learn/learn_run.hpp"

namespace gaeval::cli {

struct LearnArgs {
    learn::LearnJob job;  // backend not yet resolved (see common.backend / threads)
    CommonOptions common;
    islands::IslandConfig islands;  // count 1: no islands (the plain run)
    bool use_islands = false;       // --islands 2 or more, or a resumed island run
    bool out_given = false;         // --out or --resume named the folder
    bool help = false;
    std::string help_text;
};

// Parses and validates argv (argv[0] = "learn"); InputError on bad input.
LearnArgs parse_learn_args(int argc, char** argv);

}  // namespace gaeval::cli
