// Learning must learn: a CI-sized `modern` run on 7x7 Ataxx from a fixed seed, whose best member
// must then beat `capture` (never seen in training) by a margin that the same run with
// selection switched off (LearnConfig::blind_selection: parents and elites ignore fitness)
// does not reach. The second run is the proof that the check can fail.
#include <gtest/gtest.h>

#include <vector>

#include "host/backend/backend.hpp"
#include "host/games/play.hpp"
#include "host/games/player_file.hpp"
#include "host/games/registry.hpp"
#include "host/learn/learn.hpp"

namespace gaeval::learn {
namespace {

struct Outcome {
    double score_vs_capture = 0;
    std::vector<float> weights;
};

Outcome learn_and_verify(bool blind, uint64_t verify_games) {
    const auto session = games::find_game("ataxx").open({});
    LearnConfig c = default_config("modern", session->info().weight_names.size());
    c.population = 16;
    c.elites = 2;
    c.generations = 16;
    c.seed = 1;
    c.max_plies = 100;  // training games only: short games keep the blind run fast
    c.tournament = parse_tournament("round-robin:2");
    c.blind_selection = blind;
    validate(c);
    const BackendChoice backend = resolve_backend("cpu", 0);
    const PlayFn play = [&](const std::vector<games::PlayerData>& players,
                            const std::vector<Pairing>& pairings, uint64_t seed) {
        return session->play_pairings(players, pairings, seed, c.max_plies, backend);
    };
    LearnState state = initial_state(c);
    for (uint32_t g = 0; g < c.generations; ++g) step(c, state, play);
    games::PlayRequest request;
    request.a = player_of(c, state.best_weights.data());
    games::builtin_player("capture", session->info(), &request.b);
    request.games = verify_games;
    request.seed = 77;
    request.max_plies = 400;
    const games::PlaySummary s = games::summarize(games::play(*session, request, backend));
    return Outcome{s.score(), state.best_weights};
}

TEST(LearnRegression, ModernLearnsToBeatCaptureAndBlindSelectionDoesNot) {
    // 16 members, 16 generations (3,840 games), then games against capture. Measured when the
    // test was written, on raw-count features (seeds 1 to 5 of this configuration): learned
    // 0.850, 0.873, 0.880, 0.897, 0.833; blind 0.015, 0.000, 0.235, 0.003, 0.287. With the
    // features in [0, 1] (issue 14), seed 1: learned 0.868, blind 0.315. This test runs seed 1.
    const Outcome learned = learn_and_verify(false, 400);
    const Outcome blind = learn_and_verify(true, 200);
    RecordProperty("learned_score", std::to_string(learned.score_vs_capture));
    RecordProperty("blind_score", std::to_string(blind.score_vs_capture));
    EXPECT_GE(learned.score_vs_capture, 0.70) << "learning no longer beats capture";
    EXPECT_LT(blind.score_vs_capture, 0.70) << "the check cannot tell a broken learner";
}

}  // namespace
}  // namespace gaeval::learn
