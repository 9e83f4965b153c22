// gaeval play: a batch of matches between two players of a game, colours alternating.
#include <algorithm>
#include <cstdio>
#include <iostream>
#include <limits>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "host/backend/backend.hpp"
#include "host/cli/commands.hpp"
#include "host/cli/common.hpp"
#include "host/cli/game_options.hpp"
#include "host/core/clock.hpp"
#include "host/core/error.hpp"
#include "host/core/interrupt.hpp"
#include "host/core/progress.hpp"
#include "host/games/play.hpp"
#include "host/games/player_file.hpp"
#include "host/risk/engine.hpp"

namespace gaeval::cli {

namespace {

// A batch in which a Risk player file plays with the host engine, on the host's threads.
std::vector<GameRecord> play_with_engine(const games::GameSession& session,
                                         const games::PlayRequest& r, const risk::EngineSide* sides,
                                         int threads) {
    const auto& typed = dynamic_cast<const games::TypedSession<risk::Game>&>(session);
    risk::EngineSide a = sides[0], b = sides[1];
    for (auto [side, data] : {std::pair{&a, &r.a}, std::pair{&b, &r.b}}) {
        side->player.kind = data->kind;
        side->player.policy = static_cast<uint8_t>(data->policy);
        side->player.depth = static_cast<uint8_t>(data->depth);
        for (std::size_t i = 0; i < data->weights.size() && i < risk::kFeatureCount; ++i)
            side->player.weights[i] = data->weights[i];
    }
    return risk::play_engine_games(typed.game(), typed.start(), a, b, r.first, r.games, r.seed,
                                   r.max_plies, std::max(1, threads));
}

}  // namespace

int run_play(int argc, char** argv) {
    const games::GameEntry& game = game_from_args(argc, argv);
    const games::GameInfo& info = game.info();
    std::string names = "random";
    for (const std::string& p : info.policy_names) names += " | " + p;
    if (!info.weight_names.empty()) names += " | player file";
    cxxopts::Options options("gaeval play",
                             "Play a batch of games between players A and B (A takes seat "
                             "i mod seats in game i) and report A's results");
    add_common_options(options);
    add_game_options(options, game);
    // clang-format off
    options.add_options("Play")
        ("a,player-a", "player A (also --a): " + names, cxxopts::value<std::string>())
        ("b,player-b", "player B (also --b): " + names, cxxopts::value<std::string>())
        ("depth-a", "plies player A (a player file) searches: 1 one ply, 2 to 8 alpha-beta; Gomoku: 2+ "
                    "weighted-search "
                    "(default: the file's depth)", cxxopts::value<std::string>())
        ("depth-b", "the same for player B", cxxopts::value<std::string>())
        ("engine-a", "Risk: player A (a player file) plays with the host engine: rollouts:N, "
                     "ms:N, depth:N, nodes:N, agent:N (docs/risk.md)", cxxopts::value<std::string>())
        ("engine-b", "the same for player B", cxxopts::value<std::string>())
        ("depth", "plies both players search (those that are player files), as in learn and "
                  "uai; --depth-a/--depth-b override it per player", cxxopts::value<std::string>())
        ("games", "games to play", cxxopts::value<std::string>()->default_value("100"))
        ("max-plies", "plies after which a game is scored as it stands",
         cxxopts::value<std::string>()->default_value("10000"));
    // clang-format on
    // `--a` / `--b` as the docs spell them are respelled --player-a / --player-b for cxxopts.
    std::vector<std::string> args = respell_player_flags(argc, argv);
    std::vector<char*> arg_pointers;
    for (std::string& a : args) arg_pointers.push_back(a.data());
    const auto result = parse(options, static_cast<int>(arg_pointers.size()), arg_pointers.data());
    if (result.count("help")) {
        std::cout << options.help({"", "Common", "Game", "Play"}) << '\n';
        return ExitOk;
    }
    const CommonOptions common = read_common(result);
    const std::unique_ptr<games::GameSession> session = open_game(result, game);
    for (const char* flag : {"a", "b"})
        if (!result.count(flag))
            throw InputError(std::string("--") + flag + ": required (" + names + ")");
    const std::string a_name = result["a"].as<std::string>();
    const std::string b_name = result["b"].as<std::string>();
    games::PlayRequest request;
    request.a = games::parse_player(a_name, "--a", info);
    request.b = games::parse_player(b_name, "--b", info);
    // --depth: every searching player; --depth-a / --depth-b below override it per player.
    if (result.count("depth")) {
        const int depth = static_cast<int>(read_integer_flag(result, "depth", 1, 8));
        if (request.a.kind != PlayerKind::Weighted && request.b.kind != PlayerKind::Weighted)
            throw InputError(
                "--depth: neither player is a player file (only weighted players "
                "search)");
        for (games::PlayerData* p : {&request.a, &request.b})
            if (p->kind == PlayerKind::Weighted) p->depth = depth;
    }
    for (const char* flag : {"depth-a", "depth-b"}) {
        if (!result.count(flag)) continue;
        games::PlayerData& p = flag[6] == 'a' ? request.a : request.b;
        if (p.kind != PlayerKind::Weighted)
            throw InputError(std::string("--") + flag + ": " + p.label +
                             " is not a player file (only weighted players search)");
        p.depth = static_cast<int>(read_integer_flag(result, flag, 1, 8));
    }
    // --engine-a / --engine-b: Risk's host engine (host/risk/engine.hpp) plays that player file.
    risk::EngineSide engine_sides[2];
    for (int side = 0; side < 2; ++side) {
        const std::string flag = side == 0 ? "engine-a" : "engine-b";
        if (!result.count(flag)) continue;
        const games::PlayerData& p = side == 0 ? request.a : request.b;
        if (info.name != "risk") throw InputError("--" + flag + ": only for --game risk");
        if (p.kind != PlayerKind::Weighted)
            throw InputError("--" + flag + ": " + p.label +
                             " is not a player file (the engine plays a player file's weights)");
        engine_sides[side].engine = true;
        engine_sides[side].limits =
            risk::parse_engine_limits(result[flag].as<std::string>(), "--" + flag);
    }
    const bool engine = engine_sides[0].engine || engine_sides[1].engine;
    const int64_t games =
        read_integer_flag(result, "games", 1, std::numeric_limits<uint32_t>::max());
    const int64_t max_plies = read_integer_flag(result, "max-plies", 1, 1000000);
    request.games = static_cast<uint64_t>(games);
    request.seed = common.seed;
    request.max_plies = static_cast<uint32_t>(max_plies);
    const BackendChoice backend = start_backend(common, "play");
    // In pieces of about a tenth of a second: progress on stderr and Ctrl-C between pieces; the
    // totals are those of the whole batch (games are addressed by index). On CUDA a piece
    // starts at 2^16 games: a GPU plays one game per thread, and a piece of 1024 searching games
    // (depth 3) took 9.4 s on an H200 (109 games/s, 2026-11-26) with under one warp per
    // multiprocessor, so the time did not fall below the doubling threshold and never grew.
    games::PlaySummary s;
    Progress progress("gaeval play", static_cast<double>(request.games), "games",
                      request.games > 1);
    const double seconds = time_seconds([&] {
        uint64_t piece = backend.kind == BackendKind::Cuda ? uint64_t{1} << 16 : 1024;
        while (s.games < request.games) {
            games::PlayRequest part = request;
            part.first = s.games;
            part.games = std::min<uint64_t>(piece, request.games - s.games);
            const double t = time_seconds([&] {
                s += games::summarize(
                    engine ? play_with_engine(*session, part, engine_sides, backend.threads)
                           : games::play(*session, part, backend));
            });
            if (t < 0.1 && piece < (uint64_t{1} << 24)) piece *= 2;
            progress.update(static_cast<double>(s.games), s.games == request.games);
            throw_if_interrupted(std::to_string(s.games) + " of " + std::to_string(request.games) +
                                 " games played");
        }
    });
    double low = 0, high = 0;
    s.score_interval(&low, &high);
    const double games_per_s = seconds > 0 ? s.games / seconds : 0.0;
    const double plies_per_s = seconds > 0 ? s.plies / seconds : 0.0;

    std::printf("%s (A) vs %s (B): %llu games %s, seed %llu (%s: %s)\n", a_name.c_str(),
                b_name.c_str(), static_cast<unsigned long long>(s.games),
                session->description().c_str(), static_cast<unsigned long long>(request.seed),
                backend.name.c_str(), backend.device.c_str());
    std::printf("A: %llu wins, %llu draws, %llu losses; score %.4f (95%% CI %.4f - %.4f)\n",
                static_cast<unsigned long long>(s.wins), static_cast<unsigned long long>(s.draws),
                static_cast<unsigned long long>(s.losses), s.score(), low, high);
    const std::string stopped =
        s.stopped ? ", " + std::to_string(s.stopped) + " stopped at --max-plies" : "";
    std::printf("mean plies %.1f%s; %.4f s, %.1f games/s, %.3g plies/s\n", s.mean_plies(),
                stopped.c_str(), seconds, games_per_s, plies_per_s);
    if (common.json) {
        nlohmann::json out = game_result_json("play", *session, backend);
        out["a"] = a_name;
        out["b"] = b_name;
        out["seed"] = request.seed;
        out["games"] = s.games;
        out["wins"] = s.wins;
        out["draws"] = s.draws;
        out["losses"] = s.losses;
        out["score"] = s.score();
        out["score_ci95"] = {low, high};
        out["stopped"] = s.stopped;
        out["mean_plies"] = s.mean_plies();
        out["seconds"] = seconds;
        out["games_per_s"] = games_per_s;
        out["plies_per_s"] = plies_per_s;
        std::cout << out.dump() << std::endl;
    }
    return ExitOk;
}

}  // namespace gaeval::cli
