// gaeval uai: an Ataxx engine for UAI tournament managers (host/ataxx/uai.hpp; docs/uai.md),
// playing a built-in player or a player file, searching to --depth.
#include <iostream>
#include <string>

#include "host/ataxx/uai.hpp"
#include "host/cli/commands.hpp"
#include "host/cli/common.hpp"
#include "host/core/error.hpp"
#include "host/games/player_file.hpp"
#include "host/games/registry.hpp"

namespace gaeval::cli {

int run_uai(int argc, char** argv) {
    const games::GameInfo& info = games::find_game("ataxx").info();
    std::string names = "random";
    for (const std::string& p : info.policy_names) names += " | " + p;
    names += " | an ataxx player file";
    cxxopts::Options options(
        "gaeval uai",
        "An Ataxx engine speaking UAI on stdin/stdout (uai, isready, uainewgame, position,\n"
        "go, stop, quit; docs/uai.md). Install it in a manager as the command\n"
        "`gaeval uai --player FILE --depth D`");
    // clang-format off
    options.add_options()
        ("player", "who plays: " + names, cxxopts::value<std::string>())
        ("depth", "search depth when `go` gives no limit (1 to " +
                  std::to_string(ataxx::kUaiMaxDepth) + "; default: the player file's)",
         cxxopts::value<std::string>())
        ("seed", "key of the player's tie-break draws",
         cxxopts::value<uint64_t>()->default_value("1"))
        ("h,help", "print this help");
    // clang-format on
    const auto result = parse(options, argc, argv);
    if (result.count("help")) {
        std::cout << options.help() << '\n';
        return ExitOk;
    }
    if (!result.count("player")) throw InputError("--player: required (" + names + ")");
    ataxx::UaiConfig config;
    config.player = games::parse_player(result["player"].as<std::string>(), "--player", info);
    if (result.count("depth")) {
        config.depth = static_cast<int>(read_integer_flag(result, "depth", 1, ataxx::kUaiMaxDepth));
        if (config.player.kind != PlayerKind::Weighted)
            throw InputError("--depth: only a player file searches (" +
                             result["player"].as<std::string>() + " is a built-in player)");
    }
    config.seed = result["seed"].as<uint64_t>();
    std::ios::sync_with_stdio(false);
    ataxx::run_uai(std::cin, std::cout, config);
    return ExitOk;
}

}  // namespace gaeval::cli
