// gaeval perft: leaf counts of an Ataxx-family move tree (bulk counting at the last ply).
#include <cstdio>
#include <iostream>

#include <nlohmann/json.hpp>

#include "bench/bench.hpp"
#include "host/backend/backend.hpp"
#include "host/cli/commands.hpp"
#include "host/cli/common.hpp"
#include "host/cli/grid_options.hpp"
#include "host/cli/perft_args.hpp"
#include "host/grid/grid.hpp"
#include "host/io/error.hpp"

namespace gaeval::cli {

namespace {
constexpr int kMaxDepth = 20;
}

PerftArgs parse_perft_args(int argc, char** argv) {
    PerftArgs args;
    cxxopts::Options options("gaeval perft",
                             "Count the leaves of an Ataxx-family move tree to a depth "
                             "(passes count as moves; the last ply is counted in bulk)");
    add_common_options(options);
    add_grid_options(options);
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
    args.game = read_grid_options(result);
    args.depth = static_cast<int>(read_integer_flag(result, "depth", 0, kMaxDepth));
    args.engine.generic = result.count("generic") > 0;
    return args;
}

int run_perft(int argc, char** argv) {
    const PerftArgs args = parse_perft_args(argc, argv);
    if (args.help) {
        std::cout << args.help_text << '\n';
        return ExitOk;
    }
    const CommonOptions& common = args.common;
    const GridOptions& game = args.game;
    const int depth = args.depth;
    const GridRun run = start_grid_run(args.engine, common, "perft");
    uint64_t nodes = 0;
    const double seconds = bench::time_seconds(
        [&] { nodes = grid::perft(game.setup, depth, run.backend, run.engine); });
    const double nps = seconds > 0 ? nodes / seconds : 0.0;

    std::printf("perft(%d) = %llu nodes in %.4f s, %.1f M nodes/s (%s: %s; %s)\n", depth,
                static_cast<unsigned long long>(nodes), seconds, nps / 1e6,
                run.backend.name.c_str(), run.backend.device.c_str(),
                grid::variant_name(game.setup, run.engine).c_str());
    if (common.json) {
        nlohmann::json out = grid_result_json("perft", game, run);
        out["depth"] = depth;
        out["nodes"] = nodes;
        out["seconds"] = seconds;
        out["nps"] = nps;
        std::cout << out.dump() << std::endl;
    }
    return ExitOk;
}

}  // namespace gaeval::cli
