// One backend call a generation for all islands (host/learn/gathered_play.hpp, issue 30 item 3):
// the keyed batch plays each game as its own batch would, with playout and weighted players
// (against play_pairings per batch and the sessions' default of one call per batch); steps that
// play different numbers of batches are gathered round by round and each gets its own records;
// a step's error ends only that step; 64 islands of 24 members make one backend call a
// generation (counted by the batch layer, batch::game_batch_calls); the gathered islands run
// gives the bits of the per-island path (one call per island and batch), for every scheme, with
// migration; on a GPU the keyed batch and a gathered islands run equal the CPU's.
#include <gtest/gtest.h>

#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "ataxx_test_support.hpp"
#include "gpu_test_support.hpp"
#include "host/batch/batch.hpp"
#include "host/games/registry.hpp"
#include "host/islands/learn_islands.hpp"
#include "host/islands/transport.hpp"
#include "host/learn/gathered_play.hpp"
#include "host/learn/learn_run.hpp"

namespace {

using namespace gaeval;
using gaeval::ataxx::testing::cpu_backend;

std::vector<uint32_t> bits_of(const std::vector<float>& v) {
    std::vector<uint32_t> b(v.size());
    if (!v.empty()) std::memcpy(b.data(), v.data(), v.size() * sizeof(float));
    return b;
}

uint64_t bits_of(double d) {
    uint64_t b;
    std::memcpy(&b, &d, sizeof b);
    return b;
}

bool same_records(const GameRecord& a, const GameRecord& b) {
    return a.plies == b.plies && a.winner == b.winner && a.a_result == b.a_result &&
           a.a_seat == b.a_seat && a.stopped == b.stopped && a.move_hash == b.move_hash;
}

std::vector<games::PlayerData> weighted_players(const games::GameSession& s, uint32_t count,
                                                int depth, uint32_t salt) {
    std::vector<games::PlayerData> players(count);
    const size_t w = s.info().weight_names.size();
    for (uint32_t i = 0; i < count; ++i) {
        players[i].kind = PlayerKind::Weighted;
        players[i].depth = depth;
        for (size_t j = 0; j < w; ++j)
            players[i].weights.push_back(float((i * 7 + j * 3 + salt) % 11) / 10.0f - 0.3f);
    }
    return players;
}

// Playout players (the kernels of PlayerSet::Playout): random and the game's built-in policies
// in turn.
std::vector<games::PlayerData> playout_players(const games::GameSession& s, uint32_t count,
                                               uint32_t salt) {
    std::vector<games::PlayerData> players(count);
    const uint32_t policies = static_cast<uint32_t>(s.info().policy_names.size());
    for (uint32_t i = 0; i < count; ++i) {
        const uint32_t pick = (i + salt) % (policies + 1);
        players[i].kind = pick == 0 ? PlayerKind::Random : PlayerKind::Policy;
        players[i].policy = static_cast<int>(pick);
    }
    return players;
}

// Three tournaments with their own seeds, as one keyed batch (players appended, pairings moved).
struct Gathered {
    std::vector<std::vector<games::PlayerData>> players;
    std::vector<std::vector<Pairing>> pairings;
    std::vector<uint64_t> seeds;
    std::vector<games::PlayerData> all_players;
    std::vector<Pairing> all_pairings;
    std::vector<GameKey> keys;
};

// depth 0: playout players (random and policies), else weighted players of that depth.
Gathered three_tournaments(const games::GameSession& s, int depth) {
    Gathered g;
    for (uint32_t t = 0; t < 3; ++t) {
        const uint32_t n = 4 + t;
        g.players.push_back(depth == 0 ? playout_players(s, n, t)
                                       : weighted_players(s, n, depth, t));
        std::vector<Pairing> pairs;
        for (uint32_t i = 0; i < n; ++i)
            for (uint32_t j = 0; j < n; ++j)
                if (i != j) pairs.push_back({i, j, uint8_t((i + j + t) % 2)});
        g.pairings.push_back(pairs);
        g.seeds.push_back(1000 + 17 * t);
        const uint32_t base = static_cast<uint32_t>(g.all_players.size());
        g.all_players.insert(g.all_players.end(), g.players[t].begin(), g.players[t].end());
        for (size_t i = 0; i < pairs.size(); ++i) {
            g.all_pairings.push_back({pairs[i].a + base, pairs[i].b + base, pairs[i].a_seat});
            g.keys.push_back({g.seeds[t], static_cast<uint32_t>(i)});
        }
    }
    return g;
}

// Every tournament's own play_pairings records, in gathered order.
std::vector<GameRecord> one_call_each(const games::GameSession& s, const Gathered& g,
                                      uint32_t max_plies, const BackendChoice& backend) {
    std::vector<GameRecord> out;
    for (size_t t = 0; t < g.players.size(); ++t)
        for (const GameRecord& r :
             s.play_pairings(g.players[t], g.pairings[t], g.seeds[t], max_plies, backend))
            out.push_back(r);
    return out;
}

void expect_same(const std::vector<GameRecord>& want, const std::vector<GameRecord>& got) {
    ASSERT_EQ(want.size(), got.size());
    for (size_t i = 0; i < want.size(); ++i)
        ASSERT_TRUE(same_records(want[i], got[i])) << "first difference at game " << i;
}

// Plies a game of the keyed-batch tests may last (tic-tac-toe ends sooner; Ataxx at depth 2
// stays quick).
constexpr uint32_t kPlies = 24;

TEST(GatheredPlay, KeyedBatchPlaysEachGameAsItsOwnBatch) {
    for (const char* game : {"tictactoe", "ataxx"}) {
        SCOPED_TRACE(game);
        const auto session = games::find_game(game).open({});
        for (int depth : {0, 1, 2}) {
            const Gathered g = three_tournaments(*session, depth);
            const auto want = one_call_each(*session, g, kPlies, cpu_backend(2));
            const uint64_t calls = batch::game_batch_calls();
            const auto got = session->play_keyed_pairings(g.all_players, g.all_pairings, g.keys,
                                                          kPlies, cpu_backend(2));
            EXPECT_EQ(batch::game_batch_calls() - calls, 1u);
            expect_same(want, got);
            // The sessions' default (one play_pairings call per run of keys) agrees.
            expect_same(want, session->games::GameSession::play_keyed_pairings(
                                  g.all_players, g.all_pairings, g.keys, kPlies, cpu_backend(1)));
            // The keys matter: all games under the first seed differ somewhere.
            std::vector<GameKey> one_seed = g.keys;
            for (GameKey& k : one_seed) k.seed = g.seeds[0];
            const auto other = session->play_keyed_pairings(g.all_players, g.all_pairings, one_seed,
                                                            kPlies, cpu_backend(1));
            bool differs = false;
            for (size_t i = 0; i < other.size(); ++i)
                differs = differs || !same_records(other[i], got[i]);
            EXPECT_TRUE(differs);
        }
    }
}

TEST(GatheredPlay, KeyedBatchRefusesBadKeysAndPairings) {
    const auto session = games::find_game("tictactoe").open({});
    const auto players = weighted_players(*session, 2, 1, 0);
    EXPECT_THROW(session->play_keyed_pairings(players, {{0, 1, 0}}, {}, 50, cpu_backend(1)),
                 std::invalid_argument);
    EXPECT_THROW(session->play_keyed_pairings(players, {{0, 2, 0}}, {{1, 0}}, 50, cpu_backend(1)),
                 std::invalid_argument);
    EXPECT_THROW(session->games::GameSession::play_keyed_pairings(players, {{0, 1, 0}}, {{1, 3}},
                                                                  50, cpu_backend(1)),
                 std::invalid_argument);
}

// Step k plays k + 1 batches of its own tournament; rounds hold whoever still plays.
TEST(GatheredPlay, StepsWithDifferentBatchCountsGetTheirOwnRecords) {
    const auto session = games::find_game("tictactoe").open({});
    const uint32_t steps = 5;
    std::vector<std::vector<games::PlayerData>> players;
    std::vector<std::vector<Pairing>> pairings;
    for (uint32_t k = 0; k < steps; ++k) {
        players.push_back(weighted_players(*session, 3 + k % 3, 1, k));
        std::vector<Pairing> pairs;
        for (uint32_t i = 0; i < 2 + k; ++i)
            pairs.push_back({i % uint32_t(players[k].size()), (i + 1) % uint32_t(players[k].size()),
                             uint8_t(i % 2)});
        pairings.push_back(pairs);
    }
    const BackendChoice cpu = cpu_backend(2);
    const learn::PlayFn play = [&](const std::vector<games::PlayerData>& p,
                                   const std::vector<Pairing>& q, uint64_t seed) {
        return session->play_pairings(p, q, seed, 50, cpu);
    };
    std::vector<size_t> round_sizes;
    const learn::KeyedPlayFn keyed = [&](const std::vector<games::PlayerData>& p,
                                         const std::vector<Pairing>& q,
                                         const std::vector<GameKey>& k) {
        round_sizes.push_back(q.size());
        return session->play_keyed_pairings(p, q, k, 50, cpu);
    };
    std::vector<std::vector<std::vector<GameRecord>>> got(steps);
    learn::play_steps_together(
        steps,
        [&](uint32_t k, const learn::PlayFn& p) {
            for (uint32_t b = 0; b <= k; ++b)
                got[k].push_back(p(players[k], pairings[k], 77 + 100 * k + b));
        },
        play, keyed);
    ASSERT_EQ(round_sizes.size(), steps);  // the longest step's batches
    for (uint32_t r = 0; r < steps; ++r) {
        size_t games = 0;
        for (uint32_t k = r; k < steps; ++k) games += pairings[k].size();
        EXPECT_EQ(round_sizes[r], games) << "round " << r;
    }
    for (uint32_t k = 0; k < steps; ++k) {
        ASSERT_EQ(got[k].size(), k + 1);
        for (uint32_t b = 0; b <= k; ++b)
            expect_same(session->play_pairings(players[k], pairings[k], 77 + 100 * k + b, 50, cpu),
                        got[k][b]);
    }
}

TEST(GatheredPlay, AStepsErrorEndsThatStepAndIsRethrown) {
    const auto session = games::find_game("tictactoe").open({});
    const auto players = weighted_players(*session, 2, 1, 0);
    const std::vector<Pairing> pairs{{0, 1, 0}, {1, 0, 1}};
    const learn::PlayFn play = [&](const std::vector<games::PlayerData>& p,
                                   const std::vector<Pairing>& q, uint64_t seed) {
        return session->play_pairings(p, q, seed, 50, cpu_backend(1));
    };
    const learn::KeyedPlayFn keyed = [&](const std::vector<games::PlayerData>& p,
                                         const std::vector<Pairing>& q,
                                         const std::vector<GameKey>& k) {
        return session->play_keyed_pairings(p, q, k, 50, cpu_backend(1));
    };
    std::vector<int> finished(4, 0);
    EXPECT_THROW(learn::play_steps_together(
                     4,
                     [&](uint32_t k, const learn::PlayFn& p) {
                         p(players, pairs, k);
                         if (k == 2) throw std::runtime_error("step 2");
                         p(players, pairs, k + 10);
                         finished[k] = 1;
                     },
                     play, keyed),
                 std::runtime_error);
    EXPECT_EQ(finished, (std::vector<int>{1, 1, 0, 1}));
    // The call's error reaches every step of its round.
    const learn::KeyedPlayFn failing = [](const std::vector<games::PlayerData>&,
                                          const std::vector<Pairing>&,
                                          const std::vector<GameKey>&) -> std::vector<GameRecord> {
        throw std::invalid_argument("no device");
    };
    int caught = 0;
    EXPECT_THROW(learn::play_steps_together(
                     3,
                     [&](uint32_t, const learn::PlayFn& p) {
                         try {
                             p(players, pairs, 1);
                         } catch (const std::invalid_argument&) {
                             ++caught;
                             throw;
                         }
                     },
                     play, failing),
                 std::invalid_argument);
    EXPECT_EQ(caught, 3);
}

// ---- islands --------------------------------------------------------------------------------

learn::LearnJob islands_job(const std::string& game, const std::string& scheme, uint32_t population,
                            uint32_t generations, const BackendChoice& b) {
    learn::LearnJob job;
    job.session = games::find_game(game).open({});
    job.config = learn::default_config(
        scheme, static_cast<uint32_t>(job.session->info().weight_names.size()));
    learn::LearnConfig& c = job.config;
    c.population = population;
    c.generations = generations;
    c.seed = 11;
    c.max_plies = 60;
    c.rounds = 3;
    c.elites = 2;
    job.backend = b;
    job.verify_games = 0;
    job.panel_games = 0;
    job.quiet = true;
    return job;
}

TEST(GatheredPlay, SixtyFourIslandsOfTwentyFourAreOneCallAGeneration) {
    // modern, round-robin:2: 552 games an island, 35328 a generation.
    learn::LearnJob job = islands_job("tictactoe", "modern", 24, 2, cpu_backend(2));
    job.config.tournament = learn::parse_tournament("round-robin:2");
    islands::IslandConfig cfg;
    cfg.count = 64;
    cfg.migrate_every = 1;
    islands::LocalTransport t;
    const uint64_t calls = batch::game_batch_calls();
    const auto r = islands::run_learn_islands(job, cfg, t);
    EXPECT_EQ(batch::game_batch_calls() - calls, 2u);  // one a generation
    EXPECT_EQ(r.games, 2u * 64 * 552);
    EXPECT_EQ(islands::learn_islands_games_per_call(job.config, cfg, 1), 64u * 552);
    EXPECT_EQ(islands::learn_islands_games_per_call(job.config, cfg, 3), 22u * 552);
}

TEST(GatheredPlay, PairedBlendIsTwoCallsAGenerationOnceItHasAGlobalBest) {
    const learn::LearnJob job = islands_job("tictactoe", "paired-blend", 8, 3, cpu_backend(2));
    islands::IslandConfig cfg;
    cfg.count = 8;
    islands::LocalTransport t;
    const uint64_t calls = batch::game_batch_calls();
    islands::run_learn_islands(job, cfg, t);
    EXPECT_EQ(batch::game_batch_calls() - calls, 1u + 2u + 2u);
}

// Independent truth: the per-island path steps the islands one after another, each batch its
// own call with its own seed; the gathered run must give the same bits, migration included.
void expect_gathered_equals_per_island(const learn::LearnJob& job, uint32_t islands_count) {
    islands::IslandConfig cfg;
    cfg.count = islands_count;
    cfg.migrate_every = 1;
    cfg.migrants = 2;
    islands::LocalTransport t1, t2;
    const uint64_t c0 = batch::game_batch_calls();
    const auto apart = islands::run_learn_islands(job, cfg, t1, islands::IslandPlay::PerIsland);
    const uint64_t c1 = batch::game_batch_calls();
    const auto together = islands::run_learn_islands(job, cfg, t2);
    const uint64_t c2 = batch::game_batch_calls();
    EXPECT_GT(c1 - c0, c2 - c1);  // the two paths did play differently
    EXPECT_EQ(bits_of(together.best_weights), bits_of(apart.best_weights));
    EXPECT_EQ(together.archipelago.best.from, apart.archipelago.best.from);
    EXPECT_EQ(together.games, apart.games);
    ASSERT_EQ(together.archipelago.rows.size(), apart.archipelago.rows.size());
    for (size_t i = 0; i < apart.archipelago.rows.size(); ++i) {
        EXPECT_EQ(bits_of(together.archipelago.rows[i].best),
                  bits_of(apart.archipelago.rows[i].best))
            << "row " << i;
        EXPECT_EQ(bits_of(together.archipelago.rows[i].mean),
                  bits_of(apart.archipelago.rows[i].mean))
            << "row " << i;
    }
    ASSERT_EQ(together.archipelago.migrations.size(), apart.archipelago.migrations.size());
    for (size_t i = 0; i < apart.archipelago.migrations.size(); ++i)
        EXPECT_EQ(together.archipelago.migrations[i].slot, apart.archipelago.migrations[i].slot);
}

TEST(GatheredPlay, IslandsEqualThePerIslandPathForEveryScheme) {
    for (std::string scheme :
         {"genetic-game", "paired-blend", "ten-tournaments", "modern", "truncation-es"}) {
        SCOPED_TRACE(scheme);
        const uint32_t population = scheme == "ten-tournaments" ? 12 : 8;
        expect_gathered_equals_per_island(
            islands_job("tictactoe", scheme, population, 3, cpu_backend(2)), 4);
    }
    SCOPED_TRACE("ataxx");
    expect_gathered_equals_per_island(islands_job("ataxx", "modern", 6, 2, cpu_backend(2)), 3);
}

// ---- on a GPU: the keyed kernels and a gathered run against the CPU ---------------------------

TEST(GatheredPlayGpu, KeyedBatchAndGatheredIslandsEqualTheCpu) {
    GAEVAL_REQUIRE_DEVICE_OR_SKIP();
    const BackendChoice cuda = resolve_backend("cuda", 1);
    for (const char* game : {"tictactoe", "ataxx"}) {
        SCOPED_TRACE(game);
        const auto session = games::find_game(game).open({});
        for (int depth : {0, 1, 2}) {
            const Gathered g = three_tournaments(*session, depth);
            expect_same(
                one_call_each(*session, g, kPlies, cpu_backend(2)),
                session->play_keyed_pairings(g.all_players, g.all_pairings, g.keys, kPlies, cuda));
        }
    }
    learn::LearnJob job = islands_job("ataxx", "modern", 8, 2, cpu_backend(2));
    islands::IslandConfig cfg;
    cfg.count = 6;
    cfg.migrate_every = 1;
    islands::LocalTransport t1, t2;
    const auto cpu_run = islands::run_learn_islands(job, cfg, t1);
    job.backend = cuda;
    const auto gpu_run = islands::run_learn_islands(job, cfg, t2);
    EXPECT_EQ(bits_of(gpu_run.best_weights), bits_of(cpu_run.best_weights));
}

}  // namespace
