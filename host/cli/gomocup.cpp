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
#include "host/gomoku/default_player.hpp"
#include "host/gomoku/gomocup.hpp"
#include "host/io/json_fields.hpp"

namespace gaeval::cli {

int run_gomocup(int argc, char** argv) {
    const games::GameInfo& info = games::find_game("gomoku").info();
    std::string names = "random";
    for (const std::string& p : info.policy_names) names += " | " + p;
    names += " | a gomoku player file";
    cxxopts::Options options(
        "gaeval gomocup",
        "A Gomoku brain for Gomocup managers (Piskvork pbrain protocol on stdin/stdout: START,\n"
        "BEGIN, TURN, BOARD, INFO, END, ...; docs/gomoku.md). With no --player it plays the\n"
        "best shipped player (data/gomoku/default-player.json) in the clocked search; install\n"
        "it in a manager as scripts/pbrain-gaeval or the command `gaeval gomocup`");
    // clang-format off
    options.add_options()
        ("player", "who plays: " + names + " (default: the shipped learned player)",
         cxxopts::value<std::string>())
        ("search", "a weighted player's search: clock (the engine, on the INFO time limits) | "
                   "fixed (the fixed-depth player that learning plays)",
         cxxopts::value<std::string>()->default_value("clock"))
        ("messages", "before each move of the engine, a MESSAGE line: depth-seldepth, nodes, "
                     "threat nodes, nps, time used / budget (ms), reason, score, PV")
        ("nodes", "the engine's main-search nodes a move (0: the clock alone; fixed-work games "
                  "for learning)", cxxopts::value<uint64_t>()->default_value("0"))
        ("seed", "key of the player's random choices",
         cxxopts::value<uint64_t>()->default_value("1"))
        ("h,help", "print this help");
    // clang-format on
    const auto result = parse(options, argc, argv);
    if (result.count("help")) {
        std::cout << options.help() << '\n';
        return ExitOk;
    }
    gomoku::BrainConfig config;
    const std::string search = result["search"].as<std::string>();
    if (search != "clock" && search != "fixed")
        throw InputError("--search '" + search + "': expected clock or fixed");
    config.clock = search == "clock";
    config.player = result.count("player")
                        ? games::parse_player(result["player"].as<std::string>(), "--player", info)
                        : gomoku::default_player();
    config.seed = result["seed"].as<uint64_t>();
    config.max_nodes = result["nodes"].as<uint64_t>();
    if (result.count("player")) {
        // A player file's optional "shape_weights" (the engine's line-shape terms).
        const std::string spec = result["player"].as<std::string>();
        games::PlayerData unused;
        if (!games::builtin_player(spec, info, &unused))
            config.shape_weights = gomoku::read_shape_weights(json_fields::read_file(spec), spec);
    } else {
        config.shape_weights = gomoku::default_shape_weights();
    }
    config.messages = result.count("messages") > 0;
    std::ios::sync_with_stdio(false);
    gomoku::run_brain(std::cin, std::cout, config);
    return ExitOk;
}

}  // namespace gaeval::cli
