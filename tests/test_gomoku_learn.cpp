// Learning Gomoku players: a short run from random reward tables learns to play (it beats the
// seed-table player far more often than the tables it started from: fails when selection or
// variation breaks), so does a short run of the weighted-search player (the table at depth 2:
// its tables beat seed-table far more often than the random tables they came from), the
// default scheme starts from the seed's table as the issue states, and the learned weights are
// the same on one and two threads.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli_util.hpp"
#include "games/gomoku/players.hpp"
#include "host/games/play.hpp"
#include "host/games/player_file.hpp"
#include "host/games/registry.hpp"
#include "host/learn/learn_run.hpp"

namespace gaeval::gomoku {
namespace {

using gaeval::testing::read_text;
using gaeval::testing::run_cli;

std::shared_ptr<const games::GameSession> session15() {
    return games::find_game("gomoku").open({});
}

games::PlayerData seed_table_player() {
    games::PlayerData p;
    games::builtin_player("seed-table", games::find_game("gomoku").info(), &p);
    return p;
}

// Wins of `a` against seed-table over `games` games (both colours of every opening).
double win_rate_against_seed_table(const games::GameSession& session, const games::PlayerData& a,
                                   uint64_t games, uint64_t seed) {
    games::PlayRequest r;
    r.a = a;
    r.b = seed_table_player();
    r.games = games;
    r.seed = seed;
    const auto s = games::summarize(games::play(session, r, resolve_backend("cpu", 0)));
    return double(s.wins) / double(s.games);
}

learn::LearnJob modern_job(uint32_t generations) {
    learn::LearnJob job;
    job.session = session15();
    job.config = learn::default_config("modern", kWeightCount);
    job.config.population = 16;
    job.config.generations = generations;
    job.config.tournament = learn::parse_tournament("round-robin:2");
    job.config.seed = 3;
    job.verify_games = 0;
    job.quiet = true;
    job.backend = resolve_backend("cpu", 0);
    return job;
}

TEST(GomokuLearn, AShortRunFromRandomTablesLearnsToPlay) {
    const learn::LearnJob job = modern_job(20);
    const learn::LearnResult result = learn::run_learn(job);
    ASSERT_EQ(result.state.generation, job.config.generations);
    const auto& session = *job.session;
    const double learned = win_rate_against_seed_table(
        session, learn::player_of(job.config, result.state.best_weights.data()), 400, 17);
    // The tables it started from: the first four members of generation 0.
    const learn::LearnState start = learn::initial_state(job.config);
    double before = 0;
    for (uint32_t m = 0; m < 4; ++m)
        before += win_rate_against_seed_table(
                      session, learn::player_of(job.config, &start.weights[m * job.config.dims()]),
                      100, 17) /
                  4;
    // Measured: 0.435 after 20 generations, 0.34 after one (the best of random tables), random
    // tables 0.08: the bound needs generations of selection and variation.
    EXPECT_GT(learned, 0.38) << "the learned table wins " << learned;
    EXPECT_GT(learned, before + 0.25) << "learned " << learned << ", random tables " << before;
}

// Wins of `a` (depth 2: the table inside the search) against seed-table.
double search_win_rate(const games::GameSession& session, const float* weights, uint64_t games) {
    games::PlayerData a;
    a.kind = PlayerKind::Weighted;
    a.depth = 2;
    a.weights.assign(weights, weights + kWeightCount);
    return win_rate_against_seed_table(session, a, games, 17);
}

TEST(GomokuLearn, TheSearchPlayersTableIsLearnedFromRandomTables) {
    learn::LearnJob job = modern_job(5);
    job.config.depth = 2;
    job.config.population = 8;
    const learn::LearnResult result = learn::run_learn(job);
    ASSERT_EQ(result.state.generation, job.config.generations);
    const auto& session = *job.session;
    const double learned = search_win_rate(session, result.state.best_weights.data(), 200);
    const learn::LearnState start = learn::initial_state(job.config);
    double before = 0;
    for (uint32_t m = 0; m < 4; ++m)
        before += search_win_rate(session, &start.weights[m * job.config.dims()], 50) / 4;
    // Measured: 0.905 after 5 generations (0.775 after 2: an 8-member tournament is noisy),
    // random tables 0.73 (the search alone makes a random table strong; the tournaments find a
    // much better one): the bounds fail when selection or the best member's bookkeeping breaks.
    EXPECT_GT(learned, 0.85) << "the learned table wins " << learned;
    EXPECT_GT(learned, before + 0.10) << "learned " << learned << ", random tables " << before;
}

TEST(GomokuLearn, LearnedWeightsAreTheSameOnOneAndTwoThreads) {
    for (uint32_t depth : {1u, 2u}) {  // the seed's player and weighted-search
        learn::LearnJob job = modern_job(depth == 1 ? 2 : 1);
        job.config.depth = depth;
        if (depth == 2) job.config.population = 8;
        job.backend = resolve_backend("cpu", 1);
        const auto one = learn::run_learn(job);
        job.backend = resolve_backend("cpu", 2);
        const auto two = learn::run_learn(job);
        ASSERT_EQ(one.state.weights.size(), two.state.weights.size());
        EXPECT_EQ(std::memcmp(one.state.weights.data(), two.state.weights.data(),
                              one.state.weights.size() * sizeof(float)),
                  0)
            << "depth " << depth;
        EXPECT_EQ(one.state.games, two.state.games);
        EXPECT_EQ(one.state.plies, two.state.plies) << "depth " << depth;
    }
}

TEST(GomokuLearn, TheDefaultIsTheSeedsSchemeFromTheSeedTable) {
    const std::string dir = ::testing::TempDir() + "/gomoku_learn_" + std::to_string(getpid());
    std::filesystem::remove_all(dir);
    auto r = run_cli(
        "learn --game gomoku --generations 2 --population 10 --verify-games 100 "
        "--backend cpu --quiet --json --out " +
        dir);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const nlohmann::json run = nlohmann::json::parse(read_text(dir + "/run.json"));
    const nlohmann::json& c = run["config"];
    EXPECT_EQ(c["scheme"], "paired-blend");
    EXPECT_EQ(c["init"], "game");
    EXPECT_EQ(c["rounds"], 10);
    EXPECT_EQ(c["depth"], 2) << "the default learns weighted-search (docs/gomoku.md)";
    ASSERT_EQ(c["start_weights"].size(), size_t(kWeightCount));
    for (int i = 0; i < kRanks; ++i) EXPECT_EQ(c["start_weights"][i].get<float>(), seed_reward(i));
    EXPECT_GT(c["start_weights"][kAcceptance].get<float>(), 0.0f) << "K must be able to move";
    // The learned weights stay near the table (2 generations of +-m mutations and blends).
    const games::PlayerFile file =
        games::read_player_file(dir + "/weights.json", games::find_game("gomoku").info());
    const double m = c["mutation"].get<double>();
    for (int i = 0; i < kRanks; ++i) {
        EXPECT_GT(file.weights[i], seed_reward(i) * (1 - 3 * m)) << i;
        EXPECT_LT(file.weights[i], seed_reward(i) * (1 + 3 * m)) << i;
    }
    // Verification names the three opponents; a learned table keeps beating random.
    const std::string verify = read_text(dir + "/verification.csv");
    for (const char* o : {"random", "seed-table", "threat-search"})
        EXPECT_NE(verify.find(std::string(",") + o + ","), std::string::npos) << o;
    EXPECT_NE(verify.find("2,random,100,100,"), std::string::npos) << verify;
    // Resume extends the run; flags of another scheme are refused.
    r = run_cli("learn --resume " + dir + " --generations 3 --quiet --backend cpu");
    EXPECT_EQ(r.exit_code, 0) << r.err;
    r = run_cli("learn --game gomoku --init game --scheme modern --out " + dir + "_x");
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_EQ(r.err_lines(), 1) << r.err;
    r = run_cli("learn --game gomoku --init table --out " + dir + "_x");
    EXPECT_EQ(r.exit_code, 2);
    r = run_cli("learn --game tictactoe --scheme paired-blend --init game --out " + dir + "_x");
    EXPECT_EQ(r.exit_code, 2) << "tic-tac-toe has no start weights";
    EXPECT_NE(r.err.find("no start weights"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace gaeval::gomoku
