// gaeval games: the registered games and what each supports (players, weights, perft, flags).
#include <cstdio>
#include <iostream>

#include <nlohmann/json.hpp>

#include "host/cli/commands.hpp"
#include "host/cli/common.hpp"
#include "host/core/error.hpp"
#include "host/games/registry.hpp"

namespace gaeval::cli {

int run_games(int argc, char** argv) {
    cxxopts::Options options("gaeval games",
                             "List the registered games: seats, players (random, built-in "
                             "policies, the weighted player and its weights), perft, flags");
    options.add_options()("json", "print one JSON object")("h,help", "print this help");
    const auto result = parse(options, argc, argv);
    if (result.count("help")) {
        std::cout << options.help() << '\n';
        return ExitOk;
    }
    nlohmann::json list = nlohmann::json::array();
    for (const auto& entry : games::all_games()) {
        const games::GameInfo& g = entry->info();
        nlohmann::json flags = nlohmann::json::array();
        for (const games::GameOption& o : g.options)
            if (!o.hidden)
                flags.push_back({{"flag", "--" + o.name},
                                 {"help", o.help},
                                 {"default", o.is_switch ? nlohmann::json(false)
                                                         : nlohmann::json(o.default_value)}});
        std::vector<std::string> players{"random"};
        for (const std::string& p : g.policy_names) players.push_back(p);
        const games::BenchCases cases = entry->bench_cases();
        list.push_back(
            {{"name", g.name},
             {"summary", g.summary},
             {"seats", {g.min_seats, g.max_seats}},
             {"players", players},
             {"weighted_player",
              g.weight_names.empty() ? nlohmann::json(nullptr) : nlohmann::json(g.weighted_player)},
             {"weights", g.weight_names},
             {"perft", g.perft},
             {"learn", !g.weight_names.empty()},
             {"bench",
              {{"perft", cases.perft.size()},
               {"playout", cases.playouts.size()},
               {"tournament", !cases.tournament_setup.is_null()},
               {"in_default", cases.in_default}}},
             {"flags", flags}});
    }
    if (result.count("json")) {
        std::cout << nlohmann::json{{"games", list}}.dump() << std::endl;
        return ExitOk;
    }
    if (!GAEVAL_HAVE_CUDA)
        std::printf(
            "(this gaeval was built without the CUDA backend: every game runs on the "
            "cpu backend)\n");
    for (const auto& g : list) {
        std::printf("%s: %s\n", g["name"].get<std::string>().c_str(),
                    g["summary"].get<std::string>().c_str());
        const int lo = g["seats"][0], hi = g["seats"][1];
        std::string players;
        for (const auto& p : g["players"])
            players += (players.empty() ? "" : ", ") + p.get<std::string>();
        if (g["learn"].get<bool>()) players += ", a player file (weighted)";
        std::printf("  seats %d%s; players: %s\n", lo,
                    hi > lo ? (" to " + std::to_string(hi)).c_str() : "", players.c_str());
        if (g["learn"].get<bool>()) {
            std::string weights;
            for (const auto& w : g["weights"])
                weights += (weights.empty() ? "" : ", ") + w.get<std::string>();
            std::printf("  learn: %zu weights (%s): %s\n", g["weights"].size(),
                        g["weighted_player"].get<std::string>().c_str(), weights.c_str());
        }
        std::printf("  perft: %s; bench: %zu perft, %zu playout cases%s\n",
                    g["perft"].get<bool>() ? "yes" : "no", g["bench"]["perft"].get<std::size_t>(),
                    g["bench"]["playout"].get<std::size_t>(),
                    g["bench"]["in_default"].get<bool>() ? " (in the default bench)" : "");
        for (const auto& f : g["flags"])
            std::printf("  %-10s %s [%s]\n", f["flag"].get<std::string>().c_str(),
                        f["help"].get<std::string>().c_str(),
                        f["default"].is_string() ? f["default"].get<std::string>().c_str() : "off");
    }
    return ExitOk;
}

}  // namespace gaeval::cli
