#include "host/cli/game_options.hpp"

#include "host/backend/cost_model.hpp"

#include <iostream>

#include "host/core/error.hpp"

namespace gaeval::cli {

const games::GameEntry& game_from_args(int argc, char** argv) {
    std::string name = games::default_game().info().name;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--") break;
        if (a == "--game" && i + 1 < argc) name = argv[i + 1];
        if (a.rfind("--game=", 0) == 0) name = a.substr(7);
    }
    return games::find_game(name);
}

void add_game_options(cxxopts::Options& options, const games::GameEntry& game) {
    options.add_options("Game")(
        "game", "game: " + games::game_names() + " (gaeval games)",
        cxxopts::value<std::string>()->default_value(games::default_game().info().name));
    for (const games::GameOption& o : game.info().options) {
        const std::string group = o.hidden ? "Hidden" : "Game";
        if (o.is_switch)
            options.add_options(group)(o.name, o.help);
        else
            options.add_options(group)(
                o.name, o.help, cxxopts::value<std::string>()->default_value(o.default_value));
    }
}

std::unique_ptr<games::GameSession> open_game(const cxxopts::ParseResult& result,
                                              const games::GameEntry& game) {
    std::map<std::string, std::string> values;
    for (const games::GameOption& o : game.info().options) {
        if (o.is_switch) {
            if (result.count(o.name)) values[o.name] = "true";
        } else {
            try {
                values[o.name] = result[o.name].as<std::string>();
            } catch (const cxxopts::exceptions::exception& e) {
                throw InputError(e.what());
            }
        }
    }
    return game.open(values);
}

BackendChoice start_backend(const CommonOptions& common, const std::string& command) {
    BackendChoice backend = resolve_backend(common.backend, common.threads);
    // Said only where --backend auto made a choice: a build without the CUDA backend has none
    // to make (gaeval --help and gaeval games say so once), and a named backend is what was
    // asked for.
    if (common.backend == "auto" && GAEVAL_HAVE_CUDA)
        std::cerr << "gaeval " << command << ": " << backend.note << '\n';
    return backend;
}

BackendChoice start_backend_for_games(const CommonOptions& common, const std::string& command,
                                      const std::string& game, uint64_t games, bool one_ply,
                                      bool quiet) {
    BackendChoice backend =
        resolve_backend_for_games(common.backend, common.threads, game, games, one_ply);
    if (!quiet && common.backend == "auto" && GAEVAL_HAVE_CUDA)
        std::cerr << "gaeval " << command << ": " << backend.note << '\n';
    return backend;
}

nlohmann::json game_result_json(const std::string& command, const games::GameSession& session,
                                const BackendChoice& backend) {
    nlohmann::json out = session.setup();
    out["command"] = command;
    out["backend"] = backend.name;
    out["threads"] = backend.kind == BackendKind::Cpu ? backend.threads : 0;
    out["device"] = backend.device;
    out["engine"] = session.engine();
    return out;
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
