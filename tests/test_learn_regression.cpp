// Learning must learn: a CI-sized `modern` run on 7x7 Ataxx from a fixed seed, whose best member
// must then beat `capture` (never seen in training) by a margin that the same run with
// selection switched off (LearnConfig::blind_selection: every game's result a fair coin, so
// that parents and elites are chosen without regard to play) does not reach. The second run is the
// proof that the check can fail.
//
// The guard over several seeds starts every member at zero weights (a player that cannot tell
// moves apart), so that everything it learns comes from variation kept by selection: a no-op
// mutation leaves the best member at zero (it then loses every game to capture), and blind
// selection is a random walk. From a random population, as above, selection alone already finds
// a decent member (a no-op mutation cost only 0.07 of score there).
#include <gtest/gtest.h>

#include <vector>

#include "host/backend/backend.hpp"
#include "host/games/play.hpp"
#include "host/games/player_file.hpp"
#include "host/games/registry.hpp"
#include "host/learn/learn.hpp"
#include "learn_test_support.hpp"

namespace gaeval::learn {
namespace {

struct Outcome {
    double score_vs_capture = 0;
    std::vector<float> weights;
};

enum class Variant { Full, Blind, NoMutation };

Outcome learn_and_verify(Variant variant, uint64_t verify_games, uint64_t seed = 1,
                         bool zero_start = false) {
    const auto session = games::find_game("ataxx").open({});
    LearnConfig c = default_config("modern", session->info().weight_names.size());
    c.population = 16;
    c.elites = 2;
    c.generations = 16;
    c.seed = seed;
    c.max_plies = 100;  // training games only: short games keep the blind run fast
    c.tournament = parse_tournament("round-robin:2");
    c.blind_selection = variant == Variant::Blind;
    if (variant == Variant::NoMutation) c.gene_mutation = 0;
    if (zero_start) c.init_low = c.init_high = 0;
    const testing::LearnedAgainst r =
        testing::learn_then_play(*session, c, "capture", verify_games, 77, 400);
    return Outcome{r.summary.score(), r.state.best_weights};
}

TEST(LearnRegression, ModernLearnsToBeatCaptureAndBlindSelectionDoesNot) {
    // 16 members, 16 generations (3,840 games), then games against capture. Measured when the
    // test was written, on raw-count features (seeds 1 to 5 of this configuration): learned
    // 0.850, 0.873, 0.880, 0.897, 0.833; blind 0.015, 0.000, 0.235, 0.003, 0.287. With the
    // features in [0, 1] (issue 14), seed 1: learned 0.868, blind 0.315 (blind: members ranked
    // by index); since blind selection is a coin per game result (any scheme), blind 0.000.
    // This test runs seed 1.
    const Outcome learned = learn_and_verify(Variant::Full, 400);
    const Outcome blind = learn_and_verify(Variant::Blind, 200);
    RecordProperty("learned_score", std::to_string(learned.score_vs_capture));
    RecordProperty("blind_score", std::to_string(blind.score_vs_capture));
    EXPECT_GE(learned.score_vs_capture, 0.70) << "learning no longer beats capture";
    EXPECT_LT(blind.score_vs_capture, 0.70) << "the check cannot tell a broken learner";
}

TEST(LearnRegression, FromZeroWeightsOnlyMutationKeptBySelectionLearnsOnEverySeed) {
    // Measured when the test was written (16 members, 16 generations from zero weights, 200
    // games against capture), seeds 1 to 5: learned 0.835, 0.740, 0.810, 0.845, 0.810; blind
    // selection 0.265, 0.055, 0.525, 0.095, 0.355 (members ranked by index; with a coin per
    // game result, the blind control of every scheme since, 0.000 on seeds 1 to 3); without
    // mutation 0.000 on every seed. The test runs seeds 1 to 3 and a no-mutation control on
    // seed 1.
    double learned_sum = 0, blind_sum = 0;
    const uint64_t seeds[] = {1, 2, 3};
    for (const uint64_t seed : seeds) {
        const Outcome learned = learn_and_verify(Variant::Full, 200, seed, true);
        const Outcome blind = learn_and_verify(Variant::Blind, 100, seed, true);
        RecordProperty("learned_seed_" + std::to_string(seed),
                       std::to_string(learned.score_vs_capture));
        RecordProperty("blind_seed_" + std::to_string(seed),
                       std::to_string(blind.score_vs_capture));
        EXPECT_GE(learned.score_vs_capture, 0.6) << "seed " << seed << ": learning failed";
        EXPECT_GT(learned.score_vs_capture, blind.score_vs_capture) << "seed " << seed;
        learned_sum += learned.score_vs_capture;
        blind_sum += blind.score_vs_capture;
    }
    EXPECT_GE(learned_sum / 3 - blind_sum / 3, 0.25)
        << "selection adds too little over a random walk: learned mean " << learned_sum / 3
        << ", blind mean " << blind_sum / 3;
    // Without mutation nothing can move away from zero (crossover of equal parents is a copy):
    // the control that shows the scores above come from variation.
    const Outcome frozen = learn_and_verify(Variant::NoMutation, 40, 1, true);
    for (const float w : frozen.weights) EXPECT_EQ(w, 0.0f);
    EXPECT_LT(frozen.score_vs_capture, 0.2);
}

}  // namespace
}  // namespace gaeval::learn
