// gaeval uai: an Ataxx engine for UAI tournament managers (host/ataxx/uai.hpp; docs/uai.md),
// playing a built-in player or a player file (with none named: the shipped learned player,
// host/ataxx/default_player.hpp) with the clock search of host/ataxx/engine.hpp.
#include <iostream>
#include <string>

#include <nlohmann/json.hpp>

#include "host/ataxx/default_player.hpp"
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
        "go, stop, quit; docs/uai.md). Install it in a manager as the command `gaeval uai`\n"
        "(the shipped learned player, " +
            std::string(ataxx::kDefaultPlayerPath) + ") or `gaeval uai --player FILE`");
    // clang-format off
    options.add_options()
        ("player", "who plays: " + names + " (default: the shipped learned player)",
         cxxopts::value<std::string>())
        ("depth", "search depth when `go` gives no limit (1 to " +
                  std::to_string(ataxx::kUaiMaxDepth) + "; default: the player file's)",
         cxxopts::value<std::string>())
        ("clock", "wall | cpu: what go's times count (cpu: this process's CPU time, to match "
                  "engines that count clock() on a shared machine)",
         cxxopts::value<std::string>()->default_value("wall"))
        ("seed", "key of the player's tie-break draws",
         cxxopts::value<uint64_t>()->default_value("1"))
        ("h,help", "print this help");
    // clang-format on
    const auto result = parse(options, argc, argv);
    if (result.count("help")) {
        std::cout << options.help() << '\n';
        return ExitOk;
    }
    ataxx::UaiConfig config;
    if (result.count("player")) {
        config.player = games::parse_player(result["player"].as<std::string>(), "--player", info);
    } else {
        const games::PlayerFile file = games::parse_player_file(
            nlohmann::json::parse(ataxx::default_player_text()), ataxx::kDefaultPlayerPath, info);
        config.player.kind = PlayerKind::Weighted;
        config.player.depth = file.depth;
        config.player.weights = file.weights;
        config.player.label = ataxx::kDefaultPlayerPath;
    }
    if (result.count("depth")) {
        config.depth = static_cast<int>(read_integer_flag(result, "depth", 1, ataxx::kUaiMaxDepth));
        if (config.player.kind != PlayerKind::Weighted)
            throw InputError("--depth: only a player file searches (" + config.player.label +
                             " is a built-in player)");
    }
    config.seed = result["seed"].as<uint64_t>();
    const std::string clock = result["clock"].as<std::string>();
    if (clock != "wall" && clock != "cpu")
        throw InputError("--clock: expected wall or cpu, got '" + clock + "'");
    config.cpu_clock = clock == "cpu";
    std::ios::sync_with_stdio(false);
    ataxx::run_uai(std::cin, std::cout, config);
    return ExitOk;
}

}  // namespace gaeval::cli
