// gaeval perft: leaf counts of a game's move tree (bulk counting at the last ply).
#include <cstdio>
#include <functional>
#include <iostream>
#include <string>

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
constexpr int kProgressDepth = 8;  // from this depth on: progress root move by root move

// Largest tree (estimated leaves) counted in one backend call: about a tenth of a second on two
// CPU cores or on a GPU, so that one Ctrl-C is seen that soon at any depth.
constexpr double kCpuSliceLeaves = 5e7;
constexpr double kCudaSliceLeaves = 2e10;

// perft(node, depth) as a sum of backend calls on subtrees of at most `slice_leaves` estimated
// leaves (the node's branching to the power of the depth left): larger trees are split at their
// root's children, and a signal is seen between two calls (`so_far` says what was counted).
// The sum is the same count (a finished game has no children, a forced pass is one child).
uint64_t count_in_slices(const games::GameSession& node, int depth, const BackendChoice& backend,
                         double slice_leaves, const std::function<std::string()>& so_far) {
    if (depth <= 2) return node.perft(depth, backend);
    const auto children = node.children();
    const double branching = static_cast<double>(children.size());
    double leaves = 1;
    for (int ply = 0; ply < depth && leaves <= slice_leaves; ++ply) leaves *= branching;
    if (branching >= 2 && leaves <= slice_leaves) return node.perft(depth, backend);
    uint64_t nodes = 0;
    for (const auto& child : children) {
        if (interrupted()) throw Interrupted(so_far());
        nodes += count_in_slices(*child, depth - 1, backend, slice_leaves, so_far);
    }
    return nodes;
}
}  // namespace

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
    // Every count goes in slices (count_in_slices), so that one Ctrl-C is seen within a slice's
    // time; deep counts also report progress root move by root move (the sum is the same count).
    const double slice_leaves =
        backend.kind == BackendKind::Cuda ? kCudaSliceLeaves : kCpuSliceLeaves;
    uint64_t nodes = 0;
    const double seconds = time_seconds([&] {
        if (args.depth < kProgressDepth) {
            nodes = count_in_slices(session, args.depth, backend, slice_leaves,
                                    [] { return std::string("stopped before the count ended"); });
            return;
        }
        const auto children = session.children();
        Progress progress("gaeval perft", static_cast<double>(children.size()), "root moves", true);
        std::size_t counted = 0;
        const auto so_far = [&] {
            return std::to_string(counted) + " of " + std::to_string(children.size()) +
                   " root moves counted, " + std::to_string(nodes) + " nodes so far";
        };
        for (std::size_t k = 0; k < children.size(); ++k) {
            nodes += count_in_slices(*children[k], args.depth - 1, backend, slice_leaves, so_far);
            counted = k + 1;
            progress.update(static_cast<double>(k + 1), k + 1 == children.size());
            throw_if_interrupted(so_far());
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
