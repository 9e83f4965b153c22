// Risk's alpha-beta agent over a lane group (games/risk/lane_agent.hpp) against the serial agent
// (games/risk/agent.hpp: search): the same edge and value bits at every attack decision of real
// games, depths 1 to 4, with 1, 2, 4, 8, 16 and 32 lanes; whole tournaments played with the lanes
// give the serial records, move hashes included, with 1, 4, 8 and 32 lanes (every move seen).
// The CPU runs the lanes as a loop: the code the GPU's lane groups run. The CUDA test plays
// tournaments of the sizes that get each lane count on the device against the CPU backend.
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "games/core/lane_search.hpp"
#include "games/core/match.hpp"
#include "games/risk/lane_agent.hpp"
#include "gpu_test_support.hpp"
#include "host/batch/batch.hpp"
#include "kernels/batch_ops.hpp"
#include "risk_test_support.hpp"
#if GAEVAL_HAVE_CUDA
#include "kernels/cuda_api.hpp"
#endif

namespace gaeval::risk {
namespace {

using testing::Fixture;

// What the comparisons covered.
struct Coverage {
    int decisions = 0;    // attack decisions compared (each at every lane count and depth)
    int many_rounds = 0;  // of those, with more tasks than 4 lanes take in one round
    int certain = 0;      // with an attack that cannot fail (one task, no failure)
    int attacks = 0;      // where the search chose an attack
    int ties = 0;         // where another edge had the best value too (the first must win)
};

std::vector<float> random_weights(std::mt19937& rng, bool coarse) {
    std::vector<float> w(kFeatureCount);
    for (float& x : w)
        x = coarse ? static_cast<float>(static_cast<int>(rng() % 3))
                   : std::uniform_real_distribution<float>(-2.0f, 10.0f)(rng);
    return w;
}

template <int L>
void compare_search(const Config& c, const Pos& p, const float* weights, int depth,
                    const std::string& what) {
    const SearchResult serial = search(c, p, weights, depth);
    const SearchResult lanes = lane_search<L>(Lanes<L>{}, c, p, weights, depth);
    EXPECT_EQ(std::memcmp(&serial.value, &lanes.value, sizeof(float)), 0)
        << what << ", " << L << " lanes: " << serial.value << " vs " << lanes.value;
    EXPECT_EQ(serial.edge, lanes.edge) << what << ", " << L << " lanes";
}

// Whether a root edge other than the chosen one has the root's value (each root edge searched
// alone, as the serial search sees it).
bool best_value_is_tied(const Config& c, const Pos& p, const float* weights, int depth) {
    const SearchResult r = search(c, p, weights, depth);
    Edge edges[kMaxAttackEdges];
    const int count = 1 + attack_edges(c, p, edges);
    for (int k = 0; k < count; ++k) {
        if (k == r.edge) continue;
        float value = root_outcome_value(c, p, edges, k, true, depth, weights, p.mover);
        if (k > 0 && edges[k - 1].win < 1.0f)
            value =
                chance_value(edges[k - 1].win, value,
                             root_outcome_value(c, p, edges, k, false, depth, weights, p.mover));
        if (value == r.value) return true;
    }
    return false;
}

// Plays `games` games of the serial agent (depth 1 or 2, fresh weights each game) against the
// drafter from the deal of `seats` seats, and compares every attack decision of the agent's
// seat at depths 1 .. max_depth and every lane count.
void compare_along_games(const Fixture& f, int seats, int games, int max_depth, bool coarse,
                         std::mt19937& rng, const std::string& what, Coverage* seen) {
    const Game& game = f.game;
    for (int g = 0; g < games; ++g) {
        Player<Game> agent, drafter;
        agent.kind = PlayerKind::Weighted;
        agent.depth = static_cast<uint8_t>(1 + g % 2);
        const std::vector<float> w = random_weights(rng, coarse);
        for (int k = 0; k < kFeatureCount; ++k) agent.weights[k] = w[k];
        drafter.kind = PlayerKind::Policy;
        drafter.policy = kDrafter;
        Pos p = game.start_match(game.start(seats), 100 + g, uint32_t(g));
        for (uint32_t ply = 0; ply < 300 && !game.is_over(p); ++ply) {
            const bool ours = p.mover == g % seats;
            if (ours && p.phase == Phase::Attack && ply % 2 == 0) {
                Edge edges[kMaxAttackEdges];
                const int count = 1 + attack_edges(game.config, p, edges);
                for (int depth = 1; depth <= max_depth; ++depth) {
                    const std::string at = what + ", game " + std::to_string(g) + " ply " +
                                           std::to_string(ply) + " depth " + std::to_string(depth);
                    compare_search<1>(game.config, p, agent.weights, depth, at);
                    compare_search<2>(game.config, p, agent.weights, depth, at);
                    compare_search<4>(game.config, p, agent.weights, depth, at);
                    compare_search<8>(game.config, p, agent.weights, depth, at);
                    compare_search<16>(game.config, p, agent.weights, depth, at);
                    compare_search<32>(game.config, p, agent.weights, depth, at);
                    if (::testing::Test::HasFailure()) return;
                }
                ++seen->decisions;
                seen->many_rounds += root_tasks(edges, count) > 4;
                for (int k = 1; k < count; ++k)
                    if (!(edges[k - 1].win < 1.0f)) {
                        ++seen->certain;
                        break;
                    }
                seen->attacks += search(game.config, p, agent.weights, 2).edge > 0;
                seen->ties += best_value_is_tied(game.config, p, agent.weights, 2);
            }
            const Player<Game>& mover = ours ? agent : drafter;
            p = game.make(p, choose_move(game, p, mover, DrawAddress{7, uint32_t(g), ply}));
        }
    }
}

TEST(RiskLanes, SameEdgeAndValueAsTheSerialSearch) {
    std::mt19937 rng(51);
    Coverage seen;
    const Fixture classic(false, 0.3f);
    compare_along_games(classic, 2, 2, 3, false, rng, "classic 2 seats", &seen);
    compare_along_games(classic, 3, 2, 2, false, rng, "classic 3 seats", &seen);
    // Coarse weights (0, 1, 2): equal values are common and the first edge must win them.
    compare_along_games(classic, 2, 2, 2, true, rng, "classic coarse", &seen);
    const Fixture small(true, 0.3f);
    compare_along_games(small, 2, 4, 4, false, rng, "small map", &seen);
    compare_along_games(small, 3, 3, 4, true, rng, "small map 3 seats", &seen);
    EXPECT_GT(seen.decisions, 100);
    EXPECT_GT(seen.many_rounds, 60);
    EXPECT_GT(seen.certain, 8);
    EXPECT_GT(seen.attacks, 60);
    EXPECT_GT(seen.ties, 10);
}

// The comparison can fail: taking the best edge by arrival order (the last of equal values, as
// lanes that finish in another order would) or without the chance combination gives other
// edges in positions the test above meets.
TEST(RiskLanes, TheComparisonSeesOtherChoices) {
    const Fixture f(true, 0.3f);
    std::mt19937 rng(52);
    int compared = 0, differ_last_tie = 0, differ_no_chance = 0;
    for (int trial = 0; trial < 200; ++trial) {
        const int seats = 2;
        Pos p = testing::blank(seats, trial);
        for (int t = 0; t < 8; ++t)
            testing::put(p, t, t < seats ? t : int(rng() % seats), 1 + int(rng() % 12));
        const std::vector<float> w = random_weights(rng, trial % 2 == 0);
        const int depth = 1 + trial % 3;
        const SearchResult serial = search(f.game.config, p, w.data(), depth);
        Edge edges[kMaxAttackEdges];
        const int count = 1 + attack_edges(f.game.config, p, edges);
        int last_tie = 0, no_chance = 0;
        float best_tie = -kSearchInfinity, best_conquest = -kSearchInfinity;
        for (int k = 0; k < count; ++k) {
            const float conquest =
                root_outcome_value(f.game.config, p, edges, k, true, depth, w.data(), p.mover);
            float value = conquest;
            if (k > 0 && edges[k - 1].win < 1.0f)
                value = chance_value(edges[k - 1].win, conquest,
                                     root_outcome_value(f.game.config, p, edges, k, false, depth,
                                                        w.data(), p.mover));
            if (value >= best_tie) {
                best_tie = value;
                last_tie = k;
            }
            if (conquest > best_conquest) {
                best_conquest = conquest;
                no_chance = k;
            }
        }
        ++compared;
        differ_last_tie += last_tie != serial.edge;
        differ_no_chance += no_chance != serial.edge;
    }
    EXPECT_EQ(compared, 200);
    EXPECT_GT(differ_last_tie, 8);
    EXPECT_GT(differ_no_chance, 10);
}

// A round-robin of `members` players (each pair twice, both seats) as a tournament's schedule.
std::vector<Pairing> round_robin(uint32_t members, int seats) {
    std::vector<Pairing> pairings;
    for (uint32_t a = 0; a < members; ++a)
        for (uint32_t b = 0; b < members; ++b)
            if (a != b) pairings.push_back(Pairing{a, b, uint8_t((a + b) % seats)});
    return pairings;
}

// Alpha-beta agents of depths 1 to 3 with random weights, and a drafter and an aggressive
// policy player.
std::vector<Player<Game>> members(std::mt19937& rng, uint32_t n) {
    std::vector<Player<Game>> players(n);
    for (uint32_t i = 0; i < n; ++i) {
        players[i].kind = PlayerKind::Weighted;
        players[i].depth = static_cast<uint8_t>(1 + i % 3);
        const std::vector<float> w = random_weights(rng, i % 4 == 3);
        for (int k = 0; k < kFeatureCount; ++k) players[i].weights[k] = w[k];
    }
    players[n - 1].kind = PlayerKind::Policy;
    players[n - 1].policy = kDrafter;
    players[n - 2].kind = PlayerKind::Policy;
    players[n - 2].policy = kAggressive;
    return players;
}

// The tournament with L lanes a game against the serial records (PlayerSet::Search, what the CPU
// backend plays); returns the games compared.
template <int L>
int compare_tournament(const Game& game, const Pos& start, const std::vector<Player<Game>>& players,
                       const std::vector<Pairing>& pairings, uint32_t max_plies,
                       const std::string& what) {
    for (uint32_t i = 0; i < pairings.size(); ++i) {
        const Pairing& pr = pairings[i];
        const GameRecord serial = play_pairing<Game, PlayerSet::Search>(game, start, players.data(),
                                                                        pr, 61, i, max_plies);
        const GameRecord lanes = play_match_lanes<Game, L, PlayerSet::Search>(
            Lanes<L>{}, game, start, players[pr.a], players[pr.b], pr.a_seat, 61, i, max_plies);
        EXPECT_EQ(std::memcmp(&serial, &lanes, sizeof serial), 0)
            << what << ", " << L << " lanes, game " << i << ": plies " << serial.plies << " vs "
            << lanes.plies << ", move hash " << serial.move_hash << " vs " << lanes.move_hash;
        if (::testing::Test::HasFailure()) return int(i);
    }
    return int(pairings.size());
}

int compare_tournament_all_lane_counts(const Fixture& f, int seats, std::mt19937& rng, uint32_t n,
                                       uint32_t max_plies, const std::string& what) {
    const std::vector<Player<Game>> players = members(rng, n);
    const std::vector<Pairing> pairings = round_robin(n, seats);
    const Pos start = f.game.start(seats);
    int games = 0;
    games += compare_tournament<1>(f.game, start, players, pairings, max_plies, what);
    games += compare_tournament<4>(f.game, start, players, pairings, max_plies, what);
    games += compare_tournament<8>(f.game, start, players, pairings, max_plies, what);
    games += compare_tournament<32>(f.game, start, players, pairings, max_plies, what);
    return games;
}

TEST(RiskLanes, TournamentRecordsEqualTheSerialOnes) {
    std::mt19937 rng(53);
    const Fixture classic(false, 0.5f, 60);
    EXPECT_EQ(compare_tournament_all_lane_counts(classic, 2, rng, 4, 3000, "classic"), 48);
    const Fixture small(true, 0.3f, 40);
    EXPECT_EQ(compare_tournament_all_lane_counts(small, 3, rng, 5, 3000, "small map 3 seats"), 80);
    // A ply cap inside the games: the stopped records too.
    EXPECT_EQ(compare_tournament_all_lane_counts(classic, 2, rng, 3, 150, "capped"), 24);
}

// The rule of the lane count: a Risk batch of searching players gets the one-ply lanes' counts
// (1, 4, 8, 32 by how many threads fill the device); the other player sets keep one thread.
TEST(RiskLanes, LaneCountByBatchSize) {
    using batch_ops::play_lanes;
    static_assert(has_lane_weighted_move_v<Game>);
    EXPECT_EQ((play_lanes<Game, PlayerSet::Search>(552, 132)), 32);   // 24 members on an H100
    EXPECT_EQ((play_lanes<Game, PlayerSet::Search>(8832, 132)), 4);   // 16 islands of 24
    EXPECT_EQ((play_lanes<Game, PlayerSet::Search>(65280, 132)), 1);  // 256 members
    EXPECT_EQ((play_lanes<Game, PlayerSet::Search>(552, 0)), 1);      // the cpu
    EXPECT_EQ((play_lanes<Game, PlayerSet::Weighted>(552, 132)), 1);
    EXPECT_EQ((play_lanes<Game, PlayerSet::Playout>(552, 132)), 1);
    for (uint64_t games = 1; games < 100000; games += 97)
        EXPECT_EQ((play_lanes<Game, PlayerSet::Search>(games, 132)), one_ply_lanes(games, 132));
}

// On the device: tournaments of the sizes that get 32, 8, 4 and 1 lanes a game on this GPU give
// the CPU backend's records.
TEST(RiskLanes, CudaTournamentsMatchCpu) {
    GAEVAL_REQUIRE_DEVICE_OR_SKIP();
#if GAEVAL_HAVE_CUDA
    const BackendChoice gpu = resolve_backend("cuda", 0);
    const BackendChoice cpu = resolve_backend("cpu", 0);
    const int multiprocessors = cuda::query_device().multiprocessors;
    const uint64_t fill = uint64_t(multiprocessors) * kOnePlyFillThreadsPerMultiprocessor;
    std::mt19937 rng(54);
    const Fixture f(false, 0.5f, 100);
    const Pos start = f.game.start(2);
    const std::vector<Player<Game>> players = members(rng, 24);
    const std::vector<Pairing> all = round_robin(24, 2);  // 552 games
    std::vector<uint64_t> sizes = {all.size(), (fill + 7) / 8, (fill + 3) / 4, fill};
    if (gaeval::testing::gpu_tests_reduced()) sizes = {64};
    for (uint64_t n : sizes) {
        std::vector<Pairing> pairings(n);
        for (uint64_t i = 0; i < n; ++i) pairings[i] = all[i % all.size()];
        const uint32_t max_plies = 3000;
        const auto on_cpu =
            batch::play_pairings(f.game, start, players, pairings, 5, max_plies, cpu);
        const auto on_gpu =
            batch::play_pairings(f.game, start, players, pairings, 5, max_plies, gpu);
        ASSERT_EQ(on_cpu.size(), on_gpu.size());
        std::size_t first = n;
        for (std::size_t i = 0; i < n && first == n; ++i)
            if (std::memcmp(&on_cpu[i], &on_gpu[i], sizeof(GameRecord)) != 0) first = i;
        EXPECT_EQ(first, n) << n << " games (" << one_ply_lanes(n, multiprocessors)
                            << " lanes): first difference in game " << first;
    }
#endif
}

}  // namespace
}  // namespace gaeval::risk
