// gaeval gomocup: a Gomoku brain for Gomocup managers (Piskvork "pbrain" protocol on stdin and
// stdout; host/gomoku/gomocup.hpp), playing a built-in player or a player file.
#include <cstdio>
#include <iostream>
#include <string>

#include "host/cli/commands.hpp"
#include "host/cli/common.hpp"
#include "host/core/error.hpp"
#include "host/games/player_file.hpp"
#include "host/games/registry.hpp"
#include "host/gomoku/gomocup.hpp"

namespace gaeval::cli {

int run_gomocup(int argc, char** argv) {
    const games::GameInfo& info = games::find_game("gomoku").info();
    std::string names = "random";
    for (const std::string& p : info.policy_names) names += " | " + p;
    names += " | a gomoku player file";
    cxxopts::Options options(
        "gaeval gomocup",
        "A Gomoku brain for Gomocup managers (Piskvork pbrain protocol on stdin/stdout: START,\n"
        "BEGIN, TURN, BOARD, INFO, END, ...; docs/gomoku.md). Install it in a manager as the\n"
        "command `gaeval gomocup --player FILE`, or through a pbrain-*.sh wrapper");
    // clang-format off
    options.add_options()
        ("player", "who plays: " + names, cxxopts::value<std::string>())
        ("seed", "key of the player's random choices",
         cxxopts::value<uint64_t>()->default_value("1"))
        ("h,help", "print this help");
    // clang-format on
    const auto result = parse(options, argc, argv);
    if (result.count("help")) {
        std::cout << options.help() << '\n';
        return ExitOk;
    }
    if (!result.count("player")) throw InputError("--player: required (" + names + ")");
    gomoku::BrainConfig config;
    config.player = games::parse_player(result["player"].as<std::string>(), "--player", info);
    config.seed = result["seed"].as<uint64_t>();
    std::ios::sync_with_stdio(false);
    gomoku::run_brain(std::cin, std::cout, config);
    return ExitOk;
}

}  // namespace gaeval::cli
