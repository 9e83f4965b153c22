// The seed's Risk agent and the built-in players: features, drafting, fortification and greedy
// attacks on hand-built positions; alpha-beta equal to plain expectiminimax on random small
// positions; the players' strength against random; the same bits on 1 and 2 threads; the GPU
// parity test (skipped without a GPU).
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "games/core/match.hpp"
#include "gpu_test_support.hpp"
#include "host/games/play.hpp"
#include "host/games/player_file.hpp"
#include "host/games/registry.hpp"
#include "risk_test_support.hpp"

namespace {

using namespace gaeval;
using namespace gaeval::risk;
using namespace gaeval::risk::testing;

// West (seat 0): W0 3, W1 4, W2 2, W3 5; North and South (seat 1): N0 6, N1 1, S0 2, S1 3.
Pos west_against_east() {
    Pos p = blank(2);
    put(p, W0, 0, 3);
    put(p, W1, 0, 4);
    put(p, W2, 0, 2);
    put(p, W3, 0, 5);
    put(p, N0, 1, 6);
    put(p, N1, 1, 1);
    put(p, S0, 1, 2);
    put(p, S1, 1, 3);
    return p;
}

TEST(RiskAgent, FeaturesOnAHandBuiltPosition) {
    Fixture f(true);
    const Pos p = west_against_east();
    float west[4], east[4];
    f.game.features(p, 0, west);
    f.game.features(p, 1, east);
    // Territories 4 of 8; armies 14 and 12 of 26; continents: West (bonus 3) whole against
    // North (2) and South (1) whole, of 6 bonus in all; border safety: W1 (4) faces N0's 6,
    // W3 (5) faces S0's 2 -> 9 / (9 + 8); N0 (6) faces W1's 4, S0 (2) faces W3's 5 -> 8 / 17.
    const float expected_west[4] = {0.5f, 14.0f / 26, 0.5f, 9.0f / 17};
    const float expected_east[4] = {0.5f, 12.0f / 26, 0.5f, 8.0f / 17};
    for (int i = 0; i < 4; ++i) {
        EXPECT_FLOAT_EQ(west[i], expected_west[i]) << Game::kWeightNames[i];
        EXPECT_FLOAT_EQ(east[i], expected_east[i]) << Game::kWeightNames[i];
    }
    // Half of each continent counts half its bonus; a seat without border has safety 1.
    Pos q = west_against_east();
    put(q, W0, 1, 3);
    float half[4];
    f.game.features(q, 1, half);
    EXPECT_FLOAT_EQ(half[0], 5.0f / 8);
    EXPECT_FLOAT_EQ(half[2], (3.0f * 1 / 4 + 2 + 1) / 6);
    Pos all = blank(2);
    for (int t = 0; t < 8; ++t) put(all, t, 0, 2);
    f.game.features(all, 0, half);
    EXPECT_FLOAT_EQ(half[3], 1.0f);
    f.game.features(all, 1, half);
    for (int i = 0; i < 4; ++i) EXPECT_FLOAT_EQ(half[i], 0.0f);
}

// Drafting's passes by hand: seat 0 holds W0 1, W1 2, W2 1, W3 1, N1 1, S1 4 against N0 8 and
// S0 2. BSR: N1 8 / 1 = 8, W1 8 / 2 = 4, W3 2 / 1 = 2, S1 2 / 4 = 0.5, W0 and W2 0.
TEST(RiskAgent, DraftingHalvesTheKeptTerritoriesUntilNoArmyIsLeft) {
    Fixture f(true);
    Pos p = blank(2);
    const int own[6][2] = {{W0, 1}, {W1, 2}, {W2, 1}, {W3, 1}, {N1, 1}, {S1, 4}};
    for (const auto& t : own) put(p, t[0], 0, t[1]);
    put(p, N0, 1, 8);
    put(p, S0, 1, 2);
    p.phase = Phase::Place;
    // 10 armies. Pass 1 keeps the upper half of the 6 territories (N1, W1, W3: sum 14):
    // N1 floor(80 / 14) = 5, W1 floor(40 / 14) = 2, W3 floor(20 / 14) = 1, 2 left. Pass 2
    // keeps N1 and W1 (sum 12): N1 floor(16 / 12) = 1, W1 floor(8 / 12) = 0, 1 left. Pass 3
    // keeps N1: the last army. N1 receives 5 + 1 + 1 = 7 (one share over the front, as read
    // before, would give it 5).
    Move m = drafting_move(f.map(), p, 10);
    EXPECT_EQ(m.act, Act::Place);
    EXPECT_EQ(m.to, N1);
    EXPECT_EQ(m.count, 7);
    // The next placement plans again with N1 at 8 (BSR 1): W1 4, W3 2, N1 1 (sum 7) give W1
    // floor(12 / 7) = 1, W3 0, N1 0; 2 left over W1 and W3 (sum 6): W1 floor(8 / 6) = 1;
    // the last to W1: 3 of 3.
    put(p, N1, 0, 8);
    m = drafting_move(f.map(), p, 3);
    EXPECT_EQ(m.to, W1);
    EXPECT_EQ(m.count, 3);
    // Nothing threatened: everything on the lowest territory.
    Pos quiet = blank(2);
    for (int t = W0; t <= S1; ++t) put(quiet, t, 0, 1);
    m = drafting_move(f.map(), quiet, 6);
    EXPECT_EQ(m.to, W0);
    EXPECT_EQ(m.count, 6);
}

TEST(RiskAgent, DraftingFortificationAndGreedyAttacksByHand) {
    Fixture f(true);
    Pos p = west_against_east();
    // BSR: W1 6 / 4 = 1.5, W3 2 / 5 = 0.4, W0 and W2 0; the upper half (2 of 4) sums 1.9:
    // W1 floor(5 * 1.5 / 1.9) = 3, W3 floor(5 * 0.4 / 1.9) = 1; the remaining army goes to
    // the upper half of those two, W1: 4 of 5.
    Move m = drafting_move(f.map(), p, 5);
    EXPECT_EQ(m.act, Act::Place);
    EXPECT_EQ(m.to, W1);
    EXPECT_EQ(m.count, 4);
    // With one army: both shares round to 0, the army goes to the top territory.
    m = drafting_move(f.map(), p, 1);
    EXPECT_EQ(m.to, W1);
    EXPECT_EQ(m.count, 1);
    // Then the armies are on the board: W1 7 -> 6 / 7, W3 0.4: W1 floor(2 * (6/7) / (6/7 +
    // 0.4)) = 1, W3 0; the remaining army to W1 as well.
    p.armies[W1] = 7;
    m = drafting_move(f.map(), p, 2);
    EXPECT_EQ(m.to, W1);
    EXPECT_EQ(m.count, 2);
    p.armies[W1] = 4;
    // Aggressive placement: W3 leads S0 by 3, W1 trails N0 by 2.
    m = concentrated_move(f.map(), p, 5);
    EXPECT_EQ(m.to, W3);
    EXPECT_EQ(m.count, 5);
    // Fortification: interior W0 (3) and W2 (2) -> the stronger, W0, to its threatened W1.
    m = fortify_move(f.map(), p);
    EXPECT_EQ(m.act, Act::Fortify);
    EXPECT_EQ(m.from, W0);
    EXPECT_EQ(m.to, W1);
    EXPECT_EQ(m.count, 2);
    // Greedy attacks: 4 against S0's 2 is the likeliest; at a threshold above its odds, none.
    m = greedy_attack(*f.tables, p, 0.5f, true);
    EXPECT_EQ(m.act, Act::Attack);
    EXPECT_EQ(m.from, W3);
    EXPECT_EQ(m.to, S0);
    EXPECT_EQ(m.count, 4);
    const float odds = f.tables->odds.win[4][2];
    EXPECT_EQ(greedy_attack(*f.tables, p, odds, false).act, Act::Attack);
    EXPECT_EQ(greedy_attack(*f.tables, p, odds, true).act, Act::Stop);
    // The search's edges: each attack at least at the threshold with all armies but one, and
    // with the fewest armies reaching the threshold; likeliest first.
    Edge edges[kMaxAttackEdges];
    int fewest = 1;
    while (f.tables->odds.win[fewest][2] < 0.5f) ++fewest;
    ASSERT_LT(fewest, 4);
    ASSERT_EQ(attack_edges(f.game.config, p, edges), 2);
    EXPECT_EQ(edges[0].from, W3);
    EXPECT_EQ(edges[0].to, S0);
    EXPECT_EQ(edges[0].count, 4);
    EXPECT_EQ(edges[1].count, fewest);
    EXPECT_EQ(edges[1].win, f.tables->odds.win[fewest][2]);
    f.game.config.threshold = 0.0f;  // every attack, W1 -> N0 too (with 3, and with 1)
    ASSERT_EQ(attack_edges(f.game.config, p, edges), 4);
    for (int i = 0; i < 4; ++i) {
        EXPECT_EQ(edges[i].win, f.tables->odds.win[edges[i].count][p.armies[edges[i].to]]);
        if (i > 0) {
            EXPECT_GE(edges[i - 1].win, edges[i].win);
        }
    }
    EXPECT_EQ(edges[3].from, W1);
    EXPECT_EQ(edges[3].count, 1);
}

// The alpha-beta agent's setup: each starting army on the attack base (the largest lead over
// the weakest enemy neighbour), not where drafting would put it; reinforcements are drafted.
TEST(RiskAgent, SetupArmiesGoOnTheAttackBaseAndReinforcementsAreDrafted) {
    Fixture f(true);
    Pos p = west_against_east();
    p.phase = Phase::Setup;
    p.setup_left[0] = 3;
    const float weights[4] = {1, 1, 1, 1};
    const DrawAddress at{1, 0, 0};
    // W3 (5) leads S0 (2) by 3; drafting would reinforce W1 (BSR 1.5, facing N0's 6).
    EXPECT_EQ(drafting_move(f.map(), p, 1).to, W1);
    Move m = f.game.weighted_move(p, weights, 2, at);
    EXPECT_EQ(m.act, Act::Place);
    EXPECT_EQ(m.to, W3);
    EXPECT_EQ(m.count, 1);
    // The same position in the placement phase: drafted (W1 gets 4 of 5, as above).
    p.phase = Phase::Place;
    p.pending = 5;
    m = f.game.weighted_move(p, weights, 2, at);
    EXPECT_EQ(m.to, W1);
    EXPECT_EQ(m.count, 4);
    // The drafter player keeps drafting its starting armies.
    p.phase = Phase::Setup;
    EXPECT_EQ(f.game.policy_move(p, kDrafter, at).to, W1);
}

// Plain expectiminimax over the search's tree (a second implementation: recursive, no bounds).
float expectiminimax(const Config& c, const Pos& p, const float* weights, int depth, int us,
                     int* best_edge) {
    Edge edges[kMaxAttackEdges];
    const int count = 1 + attack_edges(c, p, edges);
    const bool maximize = p.mover == us;
    float best = 0;
    for (int k = 0; k < count; ++k) {
        float outcome[2];
        const int outcomes = k == 0 || !(edges[k - 1].win < 1.0f) ? 1 : 2;
        for (int o = 0; o < outcomes; ++o) {
            Pos child;
            edge_child(c, p, edges, k, o == 0, &child, depth <= 1);
            int ignored = 0;
            outcome[o] = depth <= 1 || child.phase == Phase::Over
                             ? evaluate(c.tables->map, child, us, weights)
                             : expectiminimax(c, child, weights, depth - 1, us, &ignored);
        }
        const float v =
            k == 0 ? outcome[0] : chance_value(edges[k - 1].win, outcome[0], outcome[1]);
        if (k == 0 || (maximize ? v > best : v < best)) {
            best = v;
            *best_edge = k;
        }
    }
    return best;
}

TEST(RiskAgent, AlphaBetaReturnsWhatPlainMinimaxReturns) {
    Fixture f(true, 0.3f);
    std::mt19937 rng(12);
    int checked = 0, attacks_chosen = 0;
    for (int trial = 0; trial < 300; ++trial) {
        const int seats = 2 + trial % 2;
        Pos p = blank(seats, trial);
        for (int t = 0; t < 8; ++t)
            put(p, t, t < seats ? t : int(rng() % seats), 1 + int(rng() % 12));
        p.mover = static_cast<uint8_t>(rng() % seats);
        p.hand[p.mover] = rng() & 0xff & ~p.owned[p.mover];
        const int depth = 1 + trial % 4;
        float weights[4];
        for (float& w : weights) w = std::uniform_real_distribution<float>(-2, 10)(rng);
        int expected_edge = -1;
        const float expected =
            expectiminimax(f.game.config, p, weights, depth, p.mover, &expected_edge);
        const SearchResult r = search(f.game.config, p, weights, depth);
        ASSERT_EQ(r.value, expected) << "trial " << trial << ", depth " << depth;
        ASSERT_EQ(r.edge, expected_edge) << "trial " << trial << ", depth " << depth;
        ++checked;
        attacks_chosen += r.edge > 0;
        // The agent plays what the search chose.
        const Move m = f.game.weighted_move(p, weights, depth, DrawAddress{});
        EXPECT_EQ(m.act, r.edge > 0 ? Act::Attack : Act::Stop);
    }
    EXPECT_EQ(checked, 300);
    EXPECT_GT(attacks_chosen, 30);  // both kinds of decision are covered
    EXPECT_LT(attacks_chosen, 270);
}

games::PlayerData named(const games::GameInfo& info, const std::string& name) {
    games::PlayerData p;
    EXPECT_TRUE(games::builtin_player(name, info, &p)) << name;
    return p;
}

games::PlayerData alphabeta(int depth, std::vector<float> weights = {2, 4, 1, 1}) {
    games::PlayerData p;
    p.kind = PlayerKind::Weighted;
    p.depth = depth;
    p.weights = weights;
    p.label = "alphabeta";
    return p;
}

TEST(RiskPlayers, EveryPlayerButPassiveBeatsRandomAndThreadsGiveTheSameBits) {
    const games::GameEntry& entry = games::find_game("risk");
    const auto session = entry.open({});
    for (const games::PlayerData& a :
         {named(entry.info(), "aggressive"), named(entry.info(), "drafter"), alphabeta(2)}) {
        games::PlayRequest r;
        r.a = a;
        r.b = named(entry.info(), "random");
        r.games = 200;
        r.seed = 5;
        const auto one = games::play(*session, r, cpu(1));
        const auto two = games::play(*session, r, cpu(2));
        ASSERT_EQ(one.size(), two.size());
        EXPECT_EQ(std::memcmp(one.data(), two.data(), one.size() * sizeof(GameRecord)), 0)
            << a.label;
        const games::PlaySummary s = games::summarize(one);
        EXPECT_GE(s.wins, 180u) << a.label;
        EXPECT_EQ(s.stopped, 0u) << a.label;
    }
    // Passive never attacks: it cannot win against itself before the cap, and random beats it.
    games::PlayRequest r;
    r.a = named(entry.info(), "passive");
    r.b = named(entry.info(), "random");
    r.games = 100;
    EXPECT_LE(games::summarize(games::play(*session, r, cpu(2))).wins, 5u);
}

TEST(RiskPlayers, MultiPlayerGamesOnEveryThreadCount) {
    const games::GameEntry& entry = games::find_game("risk");
    for (int seats : {3, 6}) {
        const auto session = entry.open({{"players", std::to_string(seats)}});
        ASSERT_EQ(session->seats(), seats);
        games::PlayRequest r;
        r.a = alphabeta(1);
        r.b = named(entry.info(), "drafter");
        r.games = 2 * seats;
        r.seed = 9;
        const auto one = games::play(*session, r, cpu(1));
        const auto two = games::play(*session, r, cpu(2));
        EXPECT_EQ(std::memcmp(one.data(), two.data(), one.size() * sizeof(GameRecord)), 0);
        for (std::size_t i = 0; i < one.size(); ++i) EXPECT_EQ(one[i].a_seat, int(i % seats));
    }
}

TEST(RiskPlayers, CudaMatchesCpu) {
    GAEVAL_REQUIRE_DEVICE_OR_SKIP();
    const games::GameEntry& entry = games::find_game("risk");
    for (int seats : {2, 4}) {
        const auto session = entry.open({{"players", std::to_string(seats)}});
        games::PlayRequest r;
        r.a = alphabeta(2);
        r.b = named(entry.info(), "aggressive");
        r.games = gaeval::testing::gpu_test_size(2000, seats);  // reduced: one game a seat
        const auto gpu = games::play(*session, r, resolve_backend("cuda", 0));
        const auto cpu_records = games::play(*session, r, cpu(0));
        ASSERT_EQ(gpu.size(), cpu_records.size());
        EXPECT_EQ(std::memcmp(gpu.data(), cpu_records.data(), gpu.size() * sizeof(GameRecord)), 0);
        r.a = named(entry.info(), "random");
        r.b = named(entry.info(), "drafter");
        const auto gpu2 = games::play(*session, r, resolve_backend("cuda", 0));
        const auto cpu2 = games::play(*session, r, cpu(0));
        EXPECT_EQ(std::memcmp(gpu2.data(), cpu2.data(), gpu2.size() * sizeof(GameRecord)), 0);
    }
}

}  // namespace
