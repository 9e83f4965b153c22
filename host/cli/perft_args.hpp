// The flags of `gaeval perft`, parsed into one struct; shared by the subcommand and by
// `gaeval compare perft ...`.
#pragma once

#include <memory>
#include <string>

#include "host/cli/common.hpp"
#include "host/games/session.hpp"

namespace gaeval::cli {

struct PerftArgs {
    std::shared_ptr<const games::GameSession> session;
    int depth = 0;
    CommonOptions common;
    bool help = false;
    std::string help_text;
};

// Parses and validates argv (argv[0] = "perft"); InputError on bad input.
PerftArgs parse_perft_args(int argc, char** argv);

}  // namespace gaeval::cli
