// Batches of matches: one seed, one result on any thread count and on the GPU; the capture
// player beats the random one; colours alternate; the ply cap scores unfinished games.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "ataxx_test_support.hpp"
#include "gpu_test_support.hpp"

namespace {

using namespace gaeval;
using namespace gaeval::ataxx;
using namespace gaeval::ataxx::testing;

bool same_bits(const std::vector<GameRecord>& a, const std::vector<GameRecord>& b,
               std::size_t* first_difference) {
    for (std::size_t i = 0; i < a.size() && i < b.size(); ++i) {
        if (std::memcmp(&a[i], &b[i], sizeof(GameRecord)) != 0) {
            *first_difference = i;
            return false;
        }
    }
    *first_difference = a.size();
    return a.size() == b.size();
}

using games::PlayRequest;
using games::PlaySummary;
using games::summarize;
enum OldKind { Random = 0, Capture = 1, MostPieces = 2, Weighted = 3 };

games::PlayerData weighted_player() {
    games::PlayerData p = player_data(Weighted);
    for (int i = 0; i < kFeatureCount; ++i) p.weights[i] = 0.3f * static_cast<float>(i % 5) - 0.55f;
    p.weights[static_cast<int>(Feature::OwnPieces)] = 1.0f;
    return p;
}

struct Case {
    const char* board;
    const char* rules;
    int players;
    OldKind a, b;
    uint64_t games;
};

const Case kCases[] = {
    {"square8:7x7", "ataxx", 2, Capture, Random, 300},
    {"square8:7x7", "ataxx", 2, Weighted, MostPieces, 40},
    {"hex:3", "genetic-game", 3, Random, Capture, 200},
    {"square4:10x10", "ataxx", 2, Random, Random, 100},
    {"offset:16x15", "genetic-game", 4, MostPieces, Random, 30},
};

PlayRequest request_for(const Case& c, uint64_t seed) {
    PlayRequest r;
    r.a = player_data(c.a);
    r.b = player_data(c.b);
    if (c.a == Weighted) r.a = weighted_player();
    r.games = c.games;
    r.seed = seed;
    return r;
}

GameSetup setup_for(const Case& c) {
    return start_setup(parse_board_spec(c.board), parse_rule_set(c.rules), c.players);
}

TEST(AtaxxPlayout, SameBitsOnAnyThreadCount) {
    for (const Case& c : kCases) {
        const GameSetup start = setup_for(c);
        const PlayRequest request = request_for(c, 42);
        const auto one = play_batch(start, request, cpu_backend(1));
        for (int threads : {2, 5}) {
            std::size_t at = 0;
            EXPECT_TRUE(same_bits(one, play_batch(start, request, cpu_backend(threads)), &at))
                << c.board << " " << threads << " threads: first difference in game " << at;
        }
        // A's seat alternates; ataxx games end by the rules (the 50-move rule bounds them;
        // genetic-game has no such rule and capture players can cycle until the ply cap).
        for (std::size_t i = 0; i < one.size(); ++i) {
            EXPECT_EQ(one[i].a_seat, static_cast<int>(i % c.players));
            if (std::string(c.rules) == "ataxx") {
                EXPECT_EQ(one[i].stopped, 0);
            }
            EXPECT_GT(one[i].plies, 0u);
        }
    }
}

TEST(AtaxxPlayout, TheSeedMatters) {
    const Case& c = kCases[0];
    const auto a = play_batch(setup_for(c), request_for(c, 1), cpu_backend(0));
    const auto b = play_batch(setup_for(c), request_for(c, 2), cpu_backend(0));
    std::size_t at = 0;
    EXPECT_FALSE(same_bits(a, b, &at));
}

TEST(AtaxxPlayout, CaptureBeatsRandomInNinetyPercentOfGames) {
    PlayRequest request;
    request.a = player_data(Capture);
    request.b = player_data(Random);
    request.games = 1000;
    request.seed = 2024;
    const PlaySummary s =
        summarize(play_batch(start_setup(Shape{}, RuleSet::Ataxx, 2), request, cpu_backend(0)));
    EXPECT_EQ(s.games, 1000u);
    EXPECT_GE(s.wins, 900u) << "draws " << s.draws << " losses " << s.losses;
    double low = 0, high = 0;
    s.score_interval(&low, &high);
    EXPECT_LE(low, s.score());
    EXPECT_GE(high, s.score());
}

TEST(AtaxxPlayout, ThePlyCapScoresUnfinishedGames) {
    PlayRequest request;
    request.games = 10;
    request.max_plies = 5;
    const auto records =
        play_batch(start_setup(Shape{}, RuleSet::Ataxx, 2), request, cpu_backend(1));
    for (const auto& r : records) {
        EXPECT_EQ(r.plies, 5u);
        EXPECT_EQ(r.stopped, 1);
    }
    const PlaySummary s = summarize(records);
    EXPECT_EQ(s.wins + s.draws + s.losses, 10u);
    EXPECT_EQ(s.stopped, 10u);
}

TEST(AtaxxPlayout, CudaMatchesCpu) {
    GAEVAL_REQUIRE_DEVICE_OR_SKIP();
    const BackendChoice gpu = resolve_backend("cuda", 0);
    for (const Case& c : kCases) {
        const GameSetup start = setup_for(c);
        PlayRequest request = request_for(c, 7);
        request.games = gaeval::testing::gpu_test_size<uint64_t>(request.games, 4);
        for (bool generic : {false, true}) {
            std::size_t at = 0;
            EXPECT_TRUE(same_bits(play_batch(start, request, cpu_backend(0), generic),
                                  play_batch(start, request, gpu, generic), &at))
                << c.board << (generic ? " (table)" : "") << ": first difference in game " << at;
        }
    }
}

}  // namespace
