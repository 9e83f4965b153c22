// gaeval perft: leaf counts of a game's move tree (bulk counting at the last ply).
#include <cstdio>
#include <iostream>

#include <nlohmann/json.hpp>

#include "host/backend/backend.hpp"
#include "host/cli/commands.hpp"
#include "host/cli/common.hpp"
#include "host/cli/game_options.hpp"
#include "host/cli/perft_args.hpp"
#include "host/core/clock.hpp"
#include "host/core/error.hpp"
#include "host/core/interrupt.hpp"
#include "host/core/progress.hpp"

namespace gaeval::cli {

namespace {
constexpr int kMaxDepth = 20;
constexpr int kProgressDepth = 8;  // from this depth on: root move by root move
}

PerftArgs parse_perft_args(int argc, char** argv) {
    PerftArgs args;
    const games::GameEntry& game = game_from_args(argc, argv);
    cxxopts::Options options("gaeval perft",
                             "Count the leaves of a game's move tree to a depth (a forced pass "
                             "counts as a move; the last ply is counted in bulk)");
    add_common_options(options);
    add_game_options(options, game);
    // clang-format off
    options.add_options("Perft")
        ("depth", "plies to count, 0 to 20", cxxopts::value<std::string>());
    // clang-format on
    const auto result = parse(options, argc, argv);
    if (result.count("help")) {
        args.help = true;
        args.help_text = options.help({"", "Common", "Game", "Perft"});
        return args;
    }
    args.common = read_common(result);
    if (!game.info().perft) throw InputError("perft: " + game.info().name + " has no perft");
    args.session = open_game(result, game);
    args.depth = static_cast<int>(read_integer_flag(result, "depth", 0, kMaxDepth));
    return args;
}

int run_perft(int argc, char** argv) {
    const PerftArgs args = parse_perft_args(argc, argv);
    if (args.help) {
        std::cout << args.help_text << '\n';
        return ExitOk;
    }
    const games::GameSession& session = *args.session;
    const BackendChoice backend = start_backend(args.common, "perft");
    // Deep counts go root move by root move (the sum is the same count): progress on stderr and
    // Ctrl-C between subtrees.
    uint64_t nodes = 0;
    const double seconds = time_seconds([&] {
        if (args.depth < kProgressDepth) {
            nodes = session.perft(args.depth, backend);
            return;
        }
        const auto children = session.children();
        Progress progress("gaeval perft", static_cast<double>(children.size()), "root moves",
                          true);
        for (std::size_t k = 0; k < children.size(); ++k) {
            nodes += children[k]->perft(args.depth - 1, backend);
            progress.update(static_cast<double>(k + 1), k + 1 == children.size());
            throw_if_interrupted(std::to_string(k + 1) + " of " +
                                 std::to_string(children.size()) + " root moves counted, " +
                                 std::to_string(nodes) + " nodes so far");
        }
    });
    const double nps = seconds > 0 ? nodes / seconds : 0.0;

    std::printf("perft(%d) = %llu nodes in %.4f s, %.1f M nodes/s (%s: %s; %s)\n", args.depth,
                static_cast<unsigned long long>(nodes), seconds, nps / 1e6, backend.name.c_str(),
                backend.device.c_str(), session.engine().c_str());
    if (args.common.json) {
        nlohmann::json out = game_result_json("perft", session, backend);
        out["depth"] = args.depth;
        out["nodes"] = nodes;
        out["seconds"] = seconds;
        out["nps"] = nps;
        std::cout << out.dump() << std::endl;
    }
    return ExitOk;
}

}  // namespace gaeval::cli
