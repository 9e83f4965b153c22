// The Risk play engine (host/risk/engine.hpp): its agent tree returns agent.hpp's search on
// random positions and plays agent.hpp's games move for move; its turn tree returns what a
// plain expectimax written here returns; rollouts are deterministic for a seed and on any
// thread count; the --engine-a/--engine-b flags through the CLI.
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <string>

#include "cli_util.hpp"
#include "host/games/play.hpp"
#include "host/games/player_file.hpp"
#include "host/games/registry.hpp"
#include "host/risk/engine.hpp"
#include "risk_test_support.hpp"

namespace gaeval::risk {
namespace {

using testing::blank;
using testing::Fixture;
using testing::put;
using namespace testing;  // the small map's territory names

// A random small-map position: every territory owned, 1 to 12 armies, a hand for the mover.
Pos random_position(std::mt19937& rng, int seats, uint64_t key) {
    Pos p = blank(seats, key);
    for (int t = 0; t < 8; ++t) put(p, t, t < seats ? t : int(rng() % seats), 1 + int(rng() % 12));
    p.mover = static_cast<uint8_t>(rng() % seats);
    p.hand[p.mover] = rng() & 0xff & ~p.owned[p.mover];
    return p;
}

TEST(RiskEngine, AgentTreeReturnsTheAgentsSearch) {
    Fixture f(true, 0.3f);
    std::mt19937 rng(29);
    int attacks = 0;
    for (int trial = 0; trial < 200; ++trial) {
        const Pos p = random_position(rng, 2 + trial % 3, trial);
        float weights[4];
        for (float& w : weights) w = std::uniform_real_distribution<float>(-2, 10)(rng);
        const int depth = 1 + trial % 5;
        Engine engine(f.game.config, weights);
        EngineLimits limits;
        limits.tree = EngineTree::Agent;
        limits.depth = depth;
        const EngineResult r = engine.search(p, limits);
        const SearchResult expected = search(f.game.config, p, weights, depth);
        ASSERT_EQ(r.value, expected.value) << "trial " << trial;
        ASSERT_EQ(r.edge, expected.edge) << "trial " << trial;
        EXPECT_EQ(r.move.act, expected.move.act);
        EXPECT_EQ(r.move.from, expected.move.from);
        EXPECT_EQ(r.move.to, expected.move.to);
        EXPECT_EQ(r.move.count, expected.move.count);
        EXPECT_EQ(r.depth, depth);
        attacks += r.edge > 0;
    }
    EXPECT_GT(attacks, 20);
    EXPECT_LT(attacks, 180);
}

// The reply model written again: after the searcher stops, its fortification, then each other
// seat's cards, drafting, likeliest conquests at odds above 1/2 (expected survivors move in) and
// fortification; the features of `us` when its turn comes back.
float reply(const Config& c, Pos q, int us, const float* weights) {
    const Map& m = c.tables->map;
    q.phase = Phase::Fortify;
    apply(c, q, fortify_move(m, q), false);
    while (q.phase != Phase::Over && q.mover != us) {
        switch (q.phase) {
            case Phase::Trade:
                apply(c, q, act_move(Act::Trade), false);
                break;
            case Phase::Place:
                apply(c, q, drafting_move(m, q, q.pending), false);
                break;
            case Phase::Fortify:
                apply(c, q, fortify_move(m, q), false);
                break;
            default: {
                const Move mv = greedy_attack(*c.tables, q, 0.5f, true);
                if (mv.act == Act::Stop) {
                    q.phase = Phase::Fortify;
                } else {
                    const Battle b = battle_odds(c.tables->odds, mv.count, q.armies[mv.to]);
                    end_battle(m, q, mv.from, mv.to, mv.count, b.survivors, 0);
                }
            }
        }
    }
    return evaluate(m, q, us, weights);
}

// Plain expectimax over the searcher's own attack edges, `depth` deep, leaves by reply().
float turn_expectimax(const Config& c, const Pos& p, const float* weights, int depth, int* edge) {
    Edge edges[kMaxAttackEdges];
    const int count = 1 + attack_edges(c, p, edges);
    float best = reply(c, p, p.mover, weights);
    *edge = 0;
    for (int k = 1; k < count; ++k) {
        float outcome[2] = {0, 0};
        for (int o = 0; o < 2; ++o) {
            if (o == 1 && !(edges[k - 1].win < 1.0f)) break;
            Pos child;
            edge_child(c, p, edges, k, o == 0, &child);
            int ignored = 0;
            if (child.phase == Phase::Over)
                outcome[o] = evaluate(c.tables->map, child, p.mover, weights);
            else if (depth <= 1 || child.mover != p.mover || child.phase != Phase::Attack)
                outcome[o] = reply(c, child, p.mover, weights);
            else
                outcome[o] = turn_expectimax(c, child, weights, depth - 1, &ignored);
        }
        const float v = chance_value(edges[k - 1].win, outcome[0], outcome[1]);
        if (v > best) {
            best = v;
            *edge = k;
        }
    }
    return best;
}

TEST(RiskEngine, TurnTreeReturnsPlainExpectimaxAndDeepensUnderANodeBudget) {
    Fixture f(true, 0.3f);
    std::mt19937 rng(7);
    int attacks = 0;
    for (int trial = 0; trial < 200; ++trial) {
        const Pos p = random_position(rng, 2 + trial % 3, trial);
        float weights[4];
        for (float& w : weights) w = std::uniform_real_distribution<float>(-2, 10)(rng);
        const int depth = 1 + trial % 3;
        Engine engine(f.game.config, weights);
        EngineLimits limits;
        limits.depth = depth;
        const EngineResult r = engine.search(p, limits);
        int expected_edge = -1;
        const float expected = turn_expectimax(f.game.config, p, weights, depth, &expected_edge);
        ASSERT_EQ(r.value, expected) << "trial " << trial;
        ASSERT_EQ(r.edge, expected_edge) << "trial " << trial;
        attacks += r.edge > 0;
        // A node budget: the deepest iteration that completed within it, the same every time.
        EngineLimits budget;
        budget.nodes = 200;
        const EngineResult a = engine.search(p, budget), b = engine.search(p, budget);
        EXPECT_EQ(a.depth, b.depth);
        EXPECT_EQ(a.edge, b.edge);
        EXPECT_EQ(a.value, b.value);
        EXPECT_GE(a.depth, 1);
        limits.depth = a.depth;
        EXPECT_EQ(engine.search(p, limits).value, a.value) << "trial " << trial;
    }
    EXPECT_GT(attacks, 20);
    EXPECT_LT(attacks, 180);
}

TEST(RiskEngine, RolloutsOfAQuietPositionAreTheReplyModel) {
    // Seat 1 holds two territories of 1 or 2 armies against stacks of 20 or more, so no seat
    // attacks within a turn (no edge reaches the threshold above 1, and seat 1's best odds stay
    // below 1/2): a rollout rolls no dice and every sample is the reply model's value.
    Fixture f(true, 1.5f);
    std::mt19937 rng(3);
    for (int trial = 0; trial < 20; ++trial) {
        Pos p = blank(2, trial);
        for (int t = 0; t < 8; ++t) put(p, t, 0, 20 + int(rng() % 20));
        put(p, N1, 1, 1 + int(rng() % 2));
        put(p, trial % 2 ? S1 : W0, 1, 1 + int(rng() % 2));
        float weights[4];
        for (float& w : weights) w = std::uniform_real_distribution<float>(0, 10)(rng);
        Engine engine(f.game.config, weights);
        EngineLimits limits;
        limits.tree = EngineTree::Rollout;
        limits.depth = 2;
        const EngineResult r = engine.search(p, limits);
        EXPECT_EQ(r.edge, 0);
        EXPECT_EQ(r.value, reply(f.game.config, p, 0, weights)) << "trial " << trial;
        EXPECT_EQ(r.value, engine.reply_value(p, 0));
    }
}

// Plays p on with `choose` (the engine's or the agent's moves, the dice of p's key) until the
// game is over or seat `seat` has ended its turn; returns the position then.
template <class Choose>
Pos play_turn_out(const Game& game, Pos p, int seat, Choose&& choose) {
    while (p.phase != Phase::Over && p.mover == seat) p = game.make(p, choose(p));
    return p;
}

TEST(RiskEngine, EndGameFinishesASureWinTheSearchWouldStopShortOf) {
    // Seat 0 holds the West with 40 armies on each territory; seat 1 holds the other four
    // territories with 1 army each. Every conquest is sure (39 against 1: failing needs 37
    // lost rolls in a row), so the turn can take all four and win. The weights count only
    // territories, negatively: a search sees each conquest as a loss and stops (the agent at
    // depth 2 sees two of the four conquests), so the win comes from the end-game rule alone.
    Fixture f(true, 0.2f);
    const float weights[4] = {-10, 0, 0, 0};
    for (uint64_t key = 1; key <= 10; ++key) {
        Pos p = blank(2, key);
        for (int t : {W0, W1, W2, W3}) put(p, t, 0, 40);
        for (int t : {N0, N1, S0, S1}) put(p, t, 1, 1);
        ASSERT_EQ(search(f.game.config, p, weights, 2).edge, 0) << "the agent stops";
        const Pos agent = play_turn_out(f.game, p, 0, [&](const Pos& q) {
            return f.game.weighted_move(q, weights, 2, DrawAddress{});
        });
        EXPECT_NE(agent.phase, Phase::Over) << "the agent alone does not win this turn";
        Engine engine(f.game.config, weights);
        EXPECT_EQ(engine.finish_share(p), 1.0f);
        EngineLimits limits;
        limits.tree = EngineTree::Rollout;
        limits.depth = 4;
        const Move first = engine.choose(p, limits);
        EXPECT_EQ(first.act, Act::Attack) << "key " << key;
        const Pos end =
            play_turn_out(f.game, p, 0, [&](const Pos& q) { return engine.choose(q, limits); });
        EXPECT_EQ(end.phase, Phase::Over) << "key " << key;
        EXPECT_EQ(f.game.winner(end), 0) << "key " << key;
        EXPECT_EQ(end.owned[0], f.map().all) << "key " << key;
    }
}

TEST(RiskEngine, EndGameTakesTerritoriesInTheLastTurnBeforeTheTurnCap) {
    // The last turn of the game (turn cap 5, round 4, seat 1 moving last): both seats hold four
    // territories and seat 0 has more armies, so seat 0 leads (docs/risk.md: territories, then
    // armies). Seat 1's 40 armies on N1 take N0 (39 against 1: sure), and then it leads. The
    // West's 60-army stacks keep a win by conquest out of reach. The weights count territories
    // negatively, so the agent (and a search) would stop and lose at the cap.
    Fixture f(true, 0.2f, 5);
    const float weights[4] = {-10, 0, 0, 0};
    for (uint64_t key = 1; key <= 10; ++key) {
        Pos p = blank(2, key);
        p.round = 4;
        p.mover = 1;
        put(p, W0, 0, 60);
        put(p, W1, 0, 60);
        put(p, N0, 0, 1);
        put(p, S0, 0, 1);
        put(p, W2, 1, 1);
        put(p, W3, 1, 1);
        put(p, N1, 1, 40);
        put(p, S1, 1, 1);
        ASSERT_EQ(f.game.winner(p), 0) << "seat 0 leads before the turn";
        ASSERT_EQ(search(f.game.config, p, weights, 2).edge, 0) << "the agent stops";
        const Pos agent = play_turn_out(f.game, p, 1, [&](const Pos& q) {
            return f.game.weighted_move(q, weights, 2, DrawAddress{});
        });
        ASSERT_EQ(agent.phase, Phase::Over) << "the turn cap ends the game";
        EXPECT_EQ(f.game.winner(agent), 0) << "the agent alone loses at the cap";
        Engine engine(f.game.config, weights);
        EXPECT_LT(engine.finish_share(p), 0.5f) << "no win by conquest: the last-round rule";
        EngineLimits limits;
        limits.tree = EngineTree::Rollout;
        limits.depth = 4;
        const Pos end =
            play_turn_out(f.game, p, 1, [&](const Pos& q) { return engine.choose(q, limits); });
        ASSERT_EQ(end.phase, Phase::Over) << "key " << key;
        EXPECT_EQ(f.game.winner(end), 1) << "key " << key;
        EXPECT_GE(popcount64(end.owned[1]), 5) << "key " << key;
        // Not the last round: the same position a round earlier is the search's to decide.
        p.round = 3;
        Move endgame;
        EXPECT_FALSE(engine.endgame_move(p, &endgame)) << "key " << key;
    }
}

TEST(RiskEngine, ObserveCountsTurnsWithArmiesWhereTheReplyModelPutsNone) {
    // Seat 0 (the engine) holds the West; seat 1 the rest, where N1 and S1 are interior to it
    // (their neighbours are all seat 1's) and N0, S0 border the West. By hand, turn after turn:
    // armies on a bordering territory or the 2 of a traded set are what the reply model does;
    // an interior territory gaining more is not; a new match starts the count over.
    Fixture f(true, 0.2f);
    const float weights[4] = {1, 1, 1, 1};
    Engine engine(f.game.config, weights);
    Pos p = blank(2, 7);
    p.match = 3;
    p.round = 2;
    for (int t : {W0, W1, W2, W3}) put(p, t, 0, 5);
    for (int t : {N0, S0}) put(p, t, 1, 1);
    for (int t : {N1, S1}) put(p, t, 1, 2);
    engine.observe(p);
    EXPECT_EQ(engine.off_model(), 0);
    p.round = 3;
    p.armies[N0] = 9;  // drafting onto the front
    engine.observe(p);
    EXPECT_EQ(engine.off_model(), 0);
    p.round = 4;
    p.armies[N1] = 4;  // a traded set's 2 armies
    p.trades = 1;
    engine.observe(p);
    EXPECT_EQ(engine.off_model(), 0);
    p.armies[S1] = 9;  // the same turn again: not compared
    engine.observe(p);
    EXPECT_EQ(engine.off_model(), 0);
    p.round = 5;
    p.armies[N1] = 5;  // one more army inside, no trade
    engine.observe(p);
    EXPECT_EQ(engine.off_model(), 1);
    p.round = 6;
    p.armies[S1] = 10;
    engine.observe(p);
    EXPECT_EQ(engine.off_model(), 2);
    p.round = 7;  // S1 now borders the West: its armies count as the front's
    put(p, N1, 0, 3);
    p.armies[S1] = 12;
    engine.observe(p);
    EXPECT_EQ(engine.off_model(), 2);
    p.match = 4;  // the next game
    p.round = 8;
    p.armies[S0] = 20;
    engine.observe(p);
    EXPECT_EQ(engine.off_model(), 0);
}

games::PlayerData weighted(std::vector<float> weights, int depth) {
    games::PlayerData p;
    p.kind = PlayerKind::Weighted;
    p.depth = depth;
    p.weights = weights;
    p.label = "weighted";
    return p;
}

EngineSide side_of(const games::PlayerData& data) {
    EngineSide s;
    s.player.kind = data.kind;
    s.player.policy = static_cast<uint8_t>(data.policy);
    s.player.depth = static_cast<uint8_t>(data.depth);
    for (std::size_t i = 0; i < data.weights.size(); ++i) s.player.weights[i] = data.weights[i];
    return s;
}

TEST(RiskEngine, AgentTreeGamesAreTheAgentsGamesAndRolloutGamesAreReproducible) {
    const games::GameEntry& entry = games::find_game("risk");
    for (int seats : {2, 3}) {
        const auto session = entry.open({{"players", std::to_string(seats)}});
        const auto& typed = dynamic_cast<const games::TypedSession<Game>&>(*session);
        games::PlayRequest r;
        r.a = weighted({2, 4, 1, 1}, 2);
        games::builtin_player("aggressive", entry.info(), &r.b);
        r.games = 24;
        r.seed = 11;
        const auto expected = games::play(*session, r, testing::cpu(1));
        EngineSide a = side_of(r.a), b = side_of(r.b);
        a.engine = true;
        a.limits.tree = EngineTree::Agent;
        a.limits.depth = 2;
        const auto got = play_engine_games(typed.game(), typed.start(), a, b, 0, r.games, r.seed,
                                           r.max_plies, 2);
        ASSERT_EQ(got.size(), expected.size());
        EXPECT_EQ(std::memcmp(got.data(), expected.data(), got.size() * sizeof(GameRecord)), 0)
            << seats << " seats";
        // Rollouts: the same records on one and two threads, and on a second run.
        a.limits = EngineLimits{};
        a.limits.tree = EngineTree::Rollout;
        a.limits.depth = 2;
        const auto one = play_engine_games(typed.game(), typed.start(), a, b, 0, 8, 5, 100000, 1);
        const auto two = play_engine_games(typed.game(), typed.start(), a, b, 0, 8, 5, 100000, 2);
        EXPECT_EQ(std::memcmp(one.data(), two.data(), one.size() * sizeof(GameRecord)), 0);
        bool differs = false;  // the engine plays other games than the agent
        const auto agent =
            play_engine_games(typed.game(), typed.start(), side_of(r.a), b, 0, 8, 5, 100000, 1);
        for (std::size_t i = 0; i < one.size(); ++i)
            differs = differs || one[i].move_hash != agent[i].move_hash;
        EXPECT_TRUE(differs);
    }
}

TEST(RiskEngineCli, PlaysAndRefusesBadBudgetsWithOneLine) {
    using gaeval::testing::run_cli;
    using gaeval::testing::temp_file;
    const std::string player =
        temp_file("risk_engine_player.json",
                  R"({"format": "gaeval-player", "version": 2, "game": "risk", "depth": 2,
            "features": ["territory_share", "army_share", "continent_share", "border_safety"],
            "weights": [6.6, 4.5, 6.2, 3.4]})");
    auto r = run_cli("play --game risk --a " + player +
                     " --engine-a rollouts:2 --b random --games 4 --json");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("\"games\":4"), std::string::npos) << r.out;
    // agent:2 is the player file's own search: the same result line as without the engine.
    const auto engine = run_cli("play --game risk --a " + player +
                                " --engine-a agent:2 --b aggressive --games 6 --seed 3");
    const auto plain = run_cli("play --game risk --a " + player +
                               " --b aggressive --games 6 --seed 3 --backend cpu");
    ASSERT_EQ(engine.exit_code, 0) << engine.err;
    const auto score_line = [](const std::string& out) {
        const std::size_t at = out.find("A: ");
        return out.substr(at, out.find('\n', at) - at);
    };
    EXPECT_EQ(score_line(engine.out), score_line(plain.out));
    const std::pair<std::string, std::string> bad[] = {
        {"--a " + player + " --engine-a nodes:0", "--engine-a 'nodes:0': nodes:N takes N from 1"},
        {"--a " + player + " --engine-a ms:x", "--engine-a 'ms:x'"},
        {"--a " + player + " --engine-a fast", "expected rollouts:N, ms:N, depth:N"},
        {"--a " + player + " --engine-a depth:17", "depth:N takes N from 1 to 16"},
        {"--a " + player + " --engine-a agent:9", "agent:N takes N from 1 to 8"},
        {"--a " + player + " --engine-a rollouts:0", "rollouts:N takes N from 1"},
        {"--a drafter --engine-a nodes:10", "drafter is not a player file"},
        {"--a " + player + " --engine-b nodes:10", "random is not a player file"},
    };
    for (const auto& [flags, message] : bad) {
        r = run_cli("play --game risk " + flags + " --b random --games 2");
        EXPECT_EQ(r.exit_code, 2) << flags << ": " << r.err;
        EXPECT_EQ(r.err_lines(), 1) << flags << ": " << r.err;
        EXPECT_NE(r.err.find(message), std::string::npos) << flags << ": " << r.err;
    }
    r = run_cli("play --game ataxx --a random --b random --engine-a nodes:5 --games 2");
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_EQ(r.err_lines(), 1) << r.err;
    EXPECT_NE(r.err.find("only for --game risk"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace gaeval::risk
