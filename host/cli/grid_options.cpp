#include "host/cli/grid_options.hpp"

#include <iostream>

#include "host/io/error.hpp"
#include "host/io/fen.hpp"

namespace gaeval::cli {

void add_grid_options(cxxopts::Options& options) {
    // clang-format off
    options.add_options("Game")
        ("game", "game family (ataxx)", cxxopts::value<std::string>()->default_value("ataxx"))
        ("board", "square8:WxH | square4:WxH | offset:WxH | hex:R | tri:N (at most 256 cells)",
         cxxopts::value<std::string>()->default_value("square8:7x7"))
        ("rules", "ataxx | genetic-game", cxxopts::value<std::string>()->default_value("ataxx"))
        ("players", "players (ataxx: 2; genetic-game: 2 to 4)",
         cxxopts::value<int>()->default_value("2"))
        ("fen", "position (FEN; see docs/grid.md) or startpos",
         cxxopts::value<std::string>()->default_value("startpos"));
    options.add_options("Hidden")
        ("generic", "use the table geometry even where the 7x7 fast path applies");
    // clang-format on
}

GridOptions read_grid_options(const cxxopts::ParseResult& result) {
    GridOptions o;
    try {
        o.game = result["game"].as<std::string>();
        o.board = result["board"].as<std::string>();
        o.rules = result["rules"].as<std::string>();
        o.players = result["players"].as<int>();
        o.fen = result["fen"].as<std::string>();
    } catch (const cxxopts::exceptions::exception& e) {
        throw InputError(e.what());
    }
    if (o.game != "ataxx")
        throw InputError("--game '" + o.game + "': unknown game (expected ataxx)");
    const grid::Shape shape = io::parse_board_spec(o.board);
    const grid::RuleSet rules = io::parse_rule_set(o.rules);
    o.setup = io::parse_fen(o.fen, shape, rules, o.players);
    return o;
}

GridRun start_grid_run(const cxxopts::ParseResult& result, const CommonOptions& common,
                       const std::string& command) {
    grid::EngineChoice engine;
    engine.generic = result.count("generic") > 0;
    return start_grid_run(engine, common, command);
}

GridRun start_grid_run(grid::EngineChoice engine, const CommonOptions& common,
                       const std::string& command) {
    GridRun run;
    run.engine = engine;
    run.backend = resolve_backend(common.backend, common.threads);
    std::cerr << "gaeval " << command << ": " << run.backend.note << '\n';
    return run;
}

nlohmann::json grid_result_json(const std::string& command, const GridOptions& game,
                                const GridRun& run) {
    nlohmann::json out;
    out["command"] = command;
    out["game"] = game.game;
    out["board"] = io::board_spec(game.setup.shape);
    out["rules"] = io::rule_set_name(game.setup.rules);
    out["players"] = game.players;
    out["fen"] = io::write_fen(game.setup);
    out["backend"] = run.backend.name;
    out["threads"] = run.backend.kind == BackendKind::Cpu ? run.backend.threads : 0;
    out["device"] = run.backend.device;
    out["engine"] = grid::variant_name(game.setup, run.engine);
    return out;
}

int64_t read_integer_flag(const cxxopts::ParseResult& result, const std::string& name, int64_t min,
                          int64_t max) {
    const std::string range = "[" + std::to_string(min) + ", " + std::to_string(max) + "]";
    std::string text;
    try {
        text = result[name].as<std::string>();  // a default counts as a value
    } catch (const cxxopts::exceptions::exception&) {
        throw InputError("--" + name + ": required, an integer in " + range);
    }
    std::size_t used = 0;
    long long value = 0;
    try {
        value = std::stoll(text, &used);
    } catch (const std::exception&) {
        used = 0;
    }
    if (used == 0 || used != text.size())
        throw InputError("--" + name + " '" + text + "': expected an integer in " + range);
    if (value < min || value > max)
        throw InputError("--" + name + " " + text + ": must be in " + range);
    return value;
}

std::vector<std::string> respell_player_flags(int argc, char** argv) {
    std::vector<std::string> args(argv, argv + argc);
    for (std::size_t i = 1; i < args.size(); ++i) {
        std::string& a = args[i];
        if (a == "--") break;
        for (const char* letter : {"a", "b"}) {
            const std::string flag = std::string("--") + letter;
            if (a == flag || a.rfind(flag + "=", 0) == 0)
                a = std::string("--player-") + letter + a.substr(flag.size());
        }
    }
    return args;
}

}  // namespace gaeval::cli
