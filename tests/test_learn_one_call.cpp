// A one-population learn run plays what follows a generation's step (the panel games against
// every built-in player and any verification due) as one backend call (issue 30): two calls a
// generation for a one-batch scheme, counted by the batch layer; the panel scores and
// verification rows equal those of the batches played one per opponent with games::play (the
// path it replaced: draws keyed by phases 32 + o and 16 + o).
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "ataxx_test_support.hpp"
#include "host/batch/batch.hpp"
#include "host/games/play.hpp"
#include "host/games/player_file.hpp"
#include "host/games/registry.hpp"
#include "host/learn/learn.hpp"
#include "host/learn/learn_run.hpp"

namespace gaeval::learn {
namespace {

using gaeval::ataxx::testing::cpu_backend;

uint64_t bits_of(double d) {
    uint64_t b;
    std::memcpy(&b, &d, sizeof b);
    return b;
}

LearnJob small_job(const std::string& game) {
    LearnJob job;
    job.session = games::find_game(game).open({});
    job.config = default_config("modern", uint32_t(job.session->info().weight_names.size()));
    job.config.population = 6;
    job.config.elites = 2;
    job.config.generations = 3;
    job.config.seed = 9;
    job.config.max_plies = 40;
    job.backend = cpu_backend(2);
    job.verify_every = 2;
    job.verify_games = 30;
    job.panel_games = 20;
    job.quiet = true;
    return job;
}

TEST(LearnOneCall, PanelAndVerificationAreOneCallAfterTheStep) {
    for (const char* game : {"tictactoe", "ataxx"}) {
        SCOPED_TRACE(game);
        const LearnJob job = small_job(game);
        const uint64_t calls = batch::game_batch_calls();
        const LearnResult r = run_learn(job);
        EXPECT_EQ(batch::game_batch_calls() - calls, 2u * job.config.generations);
        ASSERT_EQ(r.generations.size(), 3u);
        // Verification after generations 2 and 3 (the last), one row per opponent.
        const std::vector<std::string> opponents = verify_opponents(job);
        ASSERT_EQ(r.verification.size(), 2 * opponents.size());

        // The path it replaced: one games::play batch per opponent.
        size_t v = 0;
        for (const GenerationRow& row : r.generations) {
            SCOPED_TRACE(row.generation);
            LearnState best;
            best.generation = row.generation;
            best.best_weights = row.best_weights;
            double total = 0;
            for (size_t o = 0; o < opponents.size(); ++o) {
                games::PlayRequest request;
                request.a = player_of(job.config, row.best_weights.data());
                games::builtin_player(opponents[o], job.session->info(), &request.b);
                request.games = job.panel_games;
                request.seed = batch_seed(job.config.seed, row.generation, 32 + uint32_t(o));
                request.max_plies = job.config.max_plies;
                total +=
                    games::summarize(games::play(*job.session, request, cpu_backend(1))).score();
            }
            EXPECT_EQ(bits_of(row.panel_score), bits_of(total / double(opponents.size())));
            if (row.generation < 2) continue;
            for (size_t o = 0; o < opponents.size(); ++o, ++v) {
                const auto want = games::summarize(games::play(*verify_session(job, int(o)),
                                                               verify_request(job, best, int(o)),
                                                               cpu_backend(1)));
                const VerifyRow& got = r.verification.at(v);
                EXPECT_EQ(got.generation, row.generation);
                EXPECT_EQ(got.opponent, opponents[o]);
                EXPECT_EQ(got.games, want.games);
                EXPECT_EQ(got.wins, want.wins);
                EXPECT_EQ(got.draws, want.draws);
                EXPECT_EQ(got.losses, want.losses);
            }
        }
    }
}

TEST(LearnOneCall, NoPanelAndNoVerificationIsTheStepAlone) {
    LearnJob job = small_job("tictactoe");
    job.panel_games = 0;
    job.verify_games = 0;
    const uint64_t calls = batch::game_batch_calls();
    const LearnResult r = run_learn(job);
    EXPECT_EQ(batch::game_batch_calls() - calls, uint64_t{job.config.generations});
    for (const GenerationRow& row : r.generations) EXPECT_EQ(row.panel_score, -1);
    EXPECT_TRUE(r.verification.empty());
}

}  // namespace
}  // namespace gaeval::learn
