// Gomoku's playouts in per-thread scratch (games/gomoku/cell_codes.hpp, game.hpp PlayoutScratch):
// - the cell codes, kept incrementally along playouts, give every empty cell the levels of the
//   whole-board form (threats.hpp both_levels) for both seats, and the candidates of
//   candidate_cells, on 5x5, 9x9, 15x15 and 20x20 boards under both rule sets;
// - the scratch playouts (games/core/match.hpp: play_match_in_scratch) against the plain match
//   loop (play_match_seated: a copy of the position a move, the whole-board reward table),
//   record for record and move hash for move hash, random and seed-table players in both seats,
//   both rule sets and both opening sets, the scratch filled with garbage first; the same for
//   one-ply weighted players (the reward table with the player's weights: the seed's, all 0,
//   ties, random) among them (PlayerSet::Weighted);
// - the five on the four lines through a new stone (make_in_place) against the whole board's
//   (make), the word-by-word empty-cell reads against the bitboard's, and no match start with a
//   five (make_in_place's precondition), from start() and each of its children;
// - threat-search is a searching policy (its batches run the searching kernels, not these), and
//   the batch layer's playout tournaments on the cpu are the plain loop's games.
// The GPU tests (skipped without a device) play the same batches on the device against the cpu.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "games/core/match.hpp"
#include "games/core/scratch.hpp"
#include "games/gomoku/game.hpp"
#include "gpu_test_support.hpp"
#include "host/backend/executor.hpp"
#include "host/batch/batch.hpp"
#include "scratch_test_support.hpp"

namespace gaeval::gomoku {
namespace {

template <int N>
Game<N> make_game(RuleSet rule, Opening opening) {
    Game<N> g;
    g.rule = rule;
    g.opening = opening;
    return g;
}

// The levels of the codes against the whole-board levels, for every empty cell and both seats,
// and the codes' candidates against candidate_cells. Returns the number of cells compared.
template <int N>
int compare_codes(const Game<N>& g, const Pos<N>& p, const CellCodes<N>& codes) {
    using Geo = Geometry<N>;
    using BB = typename Geo::BB;
    const BB empty = g.empty(p);
    Levels<BB> levels[2];
    both_levels<Geo>(p.stones, empty, g.exact(), levels);
    const BB all = p.stones[0] | p.stones[1];
    EXPECT_TRUE(coded_candidates(codes, all) == candidate_cells<Geo>(p.stones, empty, levels));
    int compared = 0;
    for (BB todo = empty; todo.any(); ++compared) {
        const int c = todo.lowest();
        todo.reset(c);
        for (int s = 0; s < 2; ++s) {
            int level = 4;
            for (int l = 0; l < 3; ++l)
                if (levels[s].level[l].test(c)) level = l + 1;
            const bool enemy_five = codes.five_points[s ^ 1] > 0;
            if (code_level(codes.code[s][c], enemy_five) != level) {
                ADD_FAILURE() << N << "x" << N << " seat " << s << " cell " << c << ": level "
                              << code_level(codes.code[s][c], enemy_five) << " vs " << level;
                return compared;
            }
        }
    }
    return compared;
}

// Random playouts from the opening, the codes synced every `every` plies and compared.
template <int N>
int codes_along_playouts(RuleSet rule, int games) {
    const Game<N> g = make_game<N>(rule, Opening::Centre);
    int compared = 0;
    for (int game = 0; game < games; ++game) {
        Pos<N> p = g.start_match(g.start(), 17, static_cast<uint32_t>(game));
        CellCodes<N> codes;
        codes.clear();
        const int every = 1 + game % 3;
        for (uint32_t ply = 0; !g.is_over(p); ++ply) {
            if (ply % every == 0) {
                codes.sync(p.stones, g.exact());
                compared += compare_codes(g, p, codes);
            }
            const uint32_t r = philox(5, Purpose::PlayerRandomMove, game, ply, 0, 0).v[0];
            p = g.make(p, g.nth_move(p, static_cast<int>(below(r, g.count_moves(p)))));
        }
    }
    return compared;
}

TEST(GomokuScratch, CellCodesGiveTheWholeBoardLevelsAndCandidates) {
    for (RuleSet rule : {RuleSet::Freestyle, RuleSet::Standard}) {
        EXPECT_GT(codes_along_playouts<15>(rule, 12), 5000);
        EXPECT_GT(codes_along_playouts<20>(rule, 4), 5000);
        EXPECT_GT(codes_along_playouts<9>(rule, 20), 2000);
        EXPECT_GT(codes_along_playouts<5>(rule, 20), 200);
    }
}

// Along random games (the whole-board make), the five on the lines through each new stone
// (five_through) against has_five on the whole board after the move, and the word-by-word
// empty-cell reads (nth_move, count_free, nth_free) against the bitboard's. Returns the fives.
template <int N>
int fives_along_games(RuleSet rule, int games) {
    using Geo = Geometry<N>;
    const Game<N> g = make_game<N>(rule, Opening::Centre);
    int fives = 0;
    for (int game = 0; game < games; ++game) {
        Pos<N> p = g.start_match(g.start(), 23, static_cast<uint32_t>(game));
        for (uint32_t ply = 0; !g.is_over(p); ++ply) {
            const auto empty = g.empty(p), square = g.centre_square() & empty;
            EXPECT_EQ(Game<N>::count_free(p, g.centre_square()), square.count());
            if (square.any()) {
                const int k = static_cast<int>(ply) % square.count();
                EXPECT_EQ(Game<N>::nth_free(p, g.centre_square(), k), square.nth(k));
            }
            const uint32_t r = philox(9, Purpose::PlayerRandomMove, game, ply, 0, 0).v[0];
            const int k = static_cast<int>(below(r, g.count_moves(p)));
            const Move m = g.nth_move(p, k);
            EXPECT_EQ(m.cell, empty.nth(k));
            const int side = p.side;
            p = g.make(p, m);
            const bool five = has_five<Geo>(p.stones[side], g.exact());
            if (five_through<Geo>(p.stones[side], m.cell, g.exact()) != five) {
                ADD_FAILURE() << N << "x" << N << " game " << game << " ply " << ply << " cell "
                              << m.cell << ": has_five " << five;
                return fives;
            }
            fives += five;
        }
    }
    return fives;
}

TEST(GomokuScratch, FiveThroughTheNewStoneIsTheWholeBoardsFive) {
    for (RuleSet rule : {RuleSet::Freestyle, RuleSet::Standard}) {
        EXPECT_GT(fives_along_games<15>(rule, 60), 50);
        EXPECT_GT(fives_along_games<20>(rule, 30), 25);
        EXPECT_GT(fives_along_games<9>(rule, 100), 50);
        EXPECT_GT(fives_along_games<5>(rule, 100), 20);
    }
}

// make_in_place looks for the five through the new stone only, so no match may start with a
// five on the board: the sessions' starts (start() and its children) with either opening set.
template <int N>
void expect_no_five_at_match_starts(RuleSet rule) {
    using Geo = Geometry<N>;
    for (Opening opening : {Opening::Centre, Opening::None}) {
        const Game<N> g = make_game<N>(rule, opening);
        std::vector<Pos<N>> starts{g.start()};
        g.for_each_move(g.start(), [&](const Move& m) { starts.push_back(g.make(g.start(), m)); });
        for (const Pos<N>& start : starts)
            for (uint32_t index = 0; index < 16; ++index) {
                const Pos<N> p = g.start_match(start, 31, index);
                ASSERT_FALSE(g.is_over(p));
                ASSERT_FALSE(has_five<Geo>(p.stones[0], g.exact()) ||
                             has_five<Geo>(p.stones[1], g.exact()));
            }
    }
}

TEST(GomokuScratch, NoMatchStartsWithAFive) {
    for (RuleSet rule : {RuleSet::Freestyle, RuleSet::Standard}) {
        expect_no_five_at_match_starts<15>(rule);
        expect_no_five_at_match_starts<20>(rule);
        expect_no_five_at_match_starts<5>(rule);
    }
}

template <int N>
std::vector<Player<Game<N>>> playout_players() {
    Player<Game<N>> random, table;
    table.kind = PlayerKind::Policy;
    table.policy = kSeedTable;
    return {random, table};
}

// Every pair of `players` in both seats, `games` games each: the scratch form of the set kSet
// against the plain loop of that set. Returns the number of plies compared.
template <PlayerSet kSet, int N>
uint64_t compare_games(const Game<N>& g, const std::vector<Player<Game<N>>>& players, int games,
                       uint64_t seed, const Pos<N>& start) {
    using G = Game<N>;
    uint64_t plies = 0;
    for (std::size_t ia = 0; ia < players.size(); ++ia)
        for (std::size_t ib = 0; ib < players.size(); ++ib)
            for (uint32_t index = 0; index < static_cast<uint32_t>(games); ++index) {
                const Player<G>&a = players[ia], &b = players[ib];
                const int seat = static_cast<int>(index % 2);
                const GameRecord plain =
                    play_match_seated<G, kSet>(g, start, a, b, seat, seed, index, 1000);
                HostScratch<sizeof(typename G::PlayoutScratch)> scratch;
                // Garbage in the slice first: the scratch form must write before it reads.
                std::memset(scratch.bytes, 0xA5, sizeof scratch.bytes);
                const GameRecord fast = play_match_in_scratch<G, kSet>(
                    g, start, a, b, seat, seed, index, 1000, scratch.slice());
                if (std::memcmp(&plain, &fast, sizeof plain) != 0) {
                    ADD_FAILURE() << N << "x" << N << " players " << ia << "/" << ib << ", game "
                                  << index << ": plies " << plain.plies << " vs " << fast.plies;
                    return 0;
                }
                plies += plain.plies;
            }
    return plies;
}

template <int N>
uint64_t compare_playouts(const Game<N>& g, int games, uint64_t seed, const Pos<N>& start) {
    return compare_games<PlayerSet::Playout>(g, playout_players<N>(), games, seed, start);
}

// Calls check(g15, g20, g9) with the games of both rule sets and both opening sets.
template <class Check>
void for_each_setup(Check&& check) {
    for (RuleSet rule : {RuleSet::Freestyle, RuleSet::Standard})
        for (Opening opening : {Opening::Centre, Opening::None})
            check(make_game<15>(rule, opening), make_game<20>(rule, opening),
                  make_game<9>(rule, opening));
}

TEST(GomokuScratch, PlayoutsInScratchAreThePlainLoopsGames) {
    for_each_setup([](const Game15& g15, const Game20& g20, const Game<9>& g9) {
        EXPECT_GT(compare_playouts(g15, 40, 3, g15.start()), 4000u);
        EXPECT_GT(compare_playouts(g20, 12, 4, g20.start()), 1500u);
        EXPECT_GT(compare_playouts(g9, 40, 5, g9.start()), 2000u);
    });
}

// From a session's other starts: the children of the empty board (a corner, an edge, the
// centre), where the scratch's first move finds stones it has not synced.
TEST(GomokuScratch, PlayoutsInScratchFromAChildStartAreThePlainLoopsGames) {
    for (RuleSet rule : {RuleSet::Freestyle, RuleSet::Standard})
        for (Opening opening : {Opening::Centre, Opening::None}) {
            const Game20 g = make_game<20>(rule, opening);
            for (int cell : {0, Geometry<20>::cell(19, 7), Geometry<20>::cell(10, 10)})
                EXPECT_GT(compare_playouts(g, 6, 8, g.make(g.start(), Move{int16_t(cell)})), 500u);
        }
}

// One-ply weighted players (the reward table with a player's weights) with the playout
// players: the seed's table with K = 0.5, every weight 0 (all ranks tie: every present rank is
// accepted), rewards with ties (pairs of ranks equal, K = 0) and random weights (signs mixed,
// K from -0.5 to 2), drawn from `seed`.
template <int N>
std::vector<Player<Game<N>>> weighted_players(uint64_t seed) {
    using G = Game<N>;
    std::vector<Player<G>> players = playout_players<N>();
    Player<G> w;
    w.kind = PlayerKind::Weighted;
    for (int r = 0; r < kWeightCount; ++r) w.weights[r] = seed_reward(r);
    w.weights[kAcceptance] = 0.5f;
    players.push_back(w);
    for (float& x : w.weights) x = 0.0f;
    players.push_back(w);
    for (int r = 0; r < kRanks; ++r) w.weights[r] = static_cast<float>(kRanks - r / 2);
    players.push_back(w);
    for (uint32_t k = 0; k < 3; ++k) {
        for (int r = 0; r < kWeightCount; ++r) {
            const uint32_t x = philox(seed, Purpose::PlayerTieBreak, k, r, 0, 0).v[0];
            w.weights[r] = static_cast<float>(static_cast<int>(x % 2001) - 1000) / 100.0f;
        }
        w.weights[kAcceptance] = static_cast<float>(k) * 1.25f - 0.5f;
        players.push_back(w);
    }
    return players;
}

TEST(GomokuScratch, WeightedGamesInScratchAreThePlainLoopsGames) {
    for_each_setup([](const Game15& g15, const Game20& g20, const Game<9>& g9) {
        EXPECT_GT(
            compare_games<PlayerSet::Weighted>(g15, weighted_players<15>(1), 4, 3, g15.start()),
            6000u);
        EXPECT_GT(
            compare_games<PlayerSet::Weighted>(g20, weighted_players<20>(2), 2, 4, g20.start()),
            6000u);
        EXPECT_GT(compare_games<PlayerSet::Weighted>(g9, weighted_players<9>(3), 4, 5, g9.start()),
                  3000u);
    });
    const Game20 g = make_game<20>(RuleSet::Freestyle, Opening::None);
    EXPECT_GT(compare_games<PlayerSet::Weighted>(g, weighted_players<20>(4), 1, 6,
                                                 g.make(g.start(), Move{0})),
              2000u);
}

TEST(GomokuScratch, WeightedPlayersPlayInScratch) {
    EXPECT_TRUE((plays_in_scratch_v<Game15, PlayerSet::Weighted>));
    EXPECT_TRUE((plays_in_scratch_v<Game20, PlayerSet::Weighted>));
    EXPECT_FALSE((plays_in_scratch_v<Game15, PlayerSet::Search>));
}

TEST(GomokuScratch, ThreatSearchIsASearchingPolicy) {
    Player<Game15> table, search;
    table.kind = search.kind = PlayerKind::Policy;
    table.policy = kSeedTable;
    search.policy = kThreatSearch;
    EXPECT_EQ(player_set<Game15>(table), PlayerSet::Playout);
    EXPECT_EQ(player_set<Game15>(search), PlayerSet::Search);
    EXPECT_EQ(player_set<Game20>(Player<Game20>{}), PlayerSet::Playout);
}

// The batch layer's tournament on the cpu (playouts and one-ply weighted players in scratch;
// with threat-search, the searching set's copy loop) against the plain loop of the searching
// set, game by game.
TEST(GomokuScratch, BatchTournamentsOnTheCpuAreThePlainLoopsGames) {
    const Game15 g = make_game<15>(RuleSet::Freestyle, Opening::Centre);
    std::vector<Player<Game15>> players = playout_players<15>();
    const std::vector<Player<Game15>> weighted = weighted_players<15>(6);
    players.push_back(weighted[2]);
    players.push_back(weighted[6]);
    for (bool with_search : {false, true}) {
        if (with_search)
            players.push_back(
                Player<Game15>{PlayerKind::Policy, static_cast<uint8_t>(kThreatSearch)});
        const std::vector<Pairing> pairings =
            testing::all_pairings(static_cast<int>(players.size()), 2);
        std::vector<GameRecord> plain;
        for (std::size_t i = 0; i < pairings.size() * 3; ++i)
            plain.push_back(play_pairing<Game15, PlayerSet::Search>(
                g, g.start(), players.data(), pairings[i % pairings.size()], 77,
                static_cast<uint32_t>(i), 1000));
        std::vector<Pairing> repeated;
        for (int copy = 0; copy < 3; ++copy)
            repeated.insert(repeated.end(), pairings.begin(), pairings.end());
        const std::vector<GameRecord> batch = batch::play_pairings(
            g, g.start(), players, repeated, 77, 1000, resolve_backend("cpu", 2));
        ASSERT_EQ(plain.size(), batch.size());
        for (std::size_t i = 0; i < plain.size(); ++i)
            ASSERT_EQ(std::memcmp(&plain[i], &batch[i], sizeof plain[i]), 0) << "game " << i;
    }
}

template <int N>
void expect_device_playouts_are_the_cpus() {
    const Game<N> g = make_game<N>(RuleSet::Standard, Opening::Centre);
    // 4096 games: many blocks.
    testing::expect_device_playouts_are_the_cpus(g, g.start(), playout_players<N>(), 2,
                                                 testing::gpu_test_size(512, 4), 1000, 1, 1);
}

TEST(GomokuScratchGpu, DevicePlayoutsInSharedScratchAreTheCpusGames) {
    GAEVAL_REQUIRE_DEVICE_OR_SKIP();
    expect_device_playouts_are_the_cpus<15>();
    expect_device_playouts_are_the_cpus<20>();
}

// The one-ply weighted players with the playout players (weighted_players: 8 players, 128
// pairings a copy): 32 copies, 4096 games.
template <int N>
void expect_device_weighted_games_are_the_cpus() {
    const Game<N> g = make_game<N>(RuleSet::Freestyle, Opening::Centre);
    testing::expect_device_playouts_are_the_cpus(g, g.start(), weighted_players<N>(8), 2,
                                                 testing::gpu_test_size(32, 1), 1000, 3, 6);
}

TEST(GomokuScratchGpu, DeviceWeightedGamesInSharedScratchAreTheCpusGames) {
    GAEVAL_REQUIRE_DEVICE_OR_SKIP();
    expect_device_weighted_games_are_the_cpus<15>();
    expect_device_weighted_games_are_the_cpus<20>();
}

}  // namespace
}  // namespace gaeval::gomoku
