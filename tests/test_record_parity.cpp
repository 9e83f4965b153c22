// Game records carry a hash of their move sequence (games/core/match.hpp), so that parity tests
// (CPU against CUDA, thread counts, lane-group search against the serial one) that compare
// records compare the moves, not only the outcome. Here: the hash equals an independent
// implementation over the moves replayed by the test, games with the same outcome but other
// moves hash apart, and the batch layer's records carry it on every thread count.
#include <gtest/gtest.h>

#include <cstring>
#include <map>
#include <tuple>
#include <vector>

#include "ataxx_test_support.hpp"
#include "games/core/match.hpp"
#include "games/core/players.hpp"
#include "games/gomoku/game.hpp"
#include "games/risk/game.hpp"
#include "games/tictactoe/tictactoe.hpp"
#include "host/backend/backend.hpp"
#include "host/batch/batch.hpp"

namespace {

using namespace gaeval;

// The hash as its comment specifies it, written again: each move's bytes, little-endian, in
// 8-byte words; per word h ^= w, rotate left 27, multiply by 0x100000001b3.
uint64_t reference_hash(const std::vector<std::vector<unsigned char>>& moves) {
    uint64_t h = 0xcbf29ce484222325ull;
    for (const auto& bytes : moves)
        for (std::size_t at = 0; at < bytes.size(); at += 8) {
            uint64_t word = 0;
            for (std::size_t k = 0; k < 8 && at + k < bytes.size(); ++k)
                word |= uint64_t(bytes[at + k]) << (8 * k);
            h ^= word;
            h = (h << 27) | (h >> 37);
            h *= 0x100000001b3ull;
        }
    return h;
}

template <class Move>
std::vector<unsigned char> bytes_of(const Move& m) {
    std::vector<unsigned char> b(sizeof m);
    std::memcpy(b.data(), &m, sizeof m);
    return b;
}

// The moves of match `index` as the test replays it (the loop of play_match_seated, written
// here with a list of moves instead of a hash).
template <class G>
std::vector<typename G::Move> replay(const G& game, const typename G::Pos& start,
                                     const Player<G>& a, const Player<G>& b, int a_seat,
                                     uint64_t seed, uint32_t index, uint32_t max_plies) {
    std::vector<typename G::Move> moves;
    typename G::Pos p = start;
    for (uint32_t ply = 0; !game.is_over(p) && ply < max_plies; ++ply) {
        const Player<G>& mover = game.to_move(p) == a_seat ? a : b;
        moves.push_back(choose_move(game, p, mover, DrawAddress{seed, index, ply}));
        p = game.make(p, moves.back());
    }
    return moves;
}

TEST(RecordParity, TicTacToeMoveHashIsTheHashOfTheMovesPlayed) {
    const tictactoe::Game game{};
    const tictactoe::Pos start = game.start();
    const Player<tictactoe::Game> random{};
    // Outcome (plies, winner, A's seat) -> the move lists that ended so, and their hashes.
    std::map<std::tuple<uint32_t, int, int>, std::map<std::vector<int>, uint64_t>> by_outcome;
    for (uint32_t i = 0; i < 3000; ++i) {
        const GameRecord r = play_match(game, start, random, random, 11, i, 100);
        const auto moves = replay(game, start, random, random, int(i % 2), 11, i, 100);
        ASSERT_EQ(moves.size(), r.plies);
        std::vector<std::vector<unsigned char>> bytes;
        std::vector<int> cells;
        for (const auto& m : moves) {
            bytes.push_back(bytes_of(m));
            cells.push_back(m.cell);
        }
        ASSERT_EQ(r.move_hash, reference_hash(bytes)) << "game " << i;
        auto& seen = by_outcome[{r.plies, r.winner, r.a_seat}];
        const auto it = seen.find(cells);
        if (it != seen.end()) {
            EXPECT_EQ(it->second, r.move_hash) << "same moves, game " << i;
        }
        seen[cells] = r.move_hash;
    }
    // Games with the same outcome and different moves never share a hash (and there are many).
    std::size_t pairs = 0;
    for (const auto& [outcome, lists] : by_outcome) {
        std::map<uint64_t, int> hashes;
        for (const auto& [cells, hash] : lists) ++hashes[hash];
        EXPECT_EQ(hashes.size(), lists.size()) << "a move hash shared by two move lists";
        pairs += lists.size() * (lists.size() - 1) / 2;
    }
    EXPECT_GT(pairs, 10000u);
}

TEST(RecordParity, OneChangedMoveChangesTheHash) {
    const tictactoe::Game game{};
    uint64_t base = kMoveHashStart, changed = kMoveHashStart;
    const int cells[] = {4, 0, 8, 2, 6};
    for (int k = 0; k < 5; ++k) {
        base = move_hash_step(game, base, tictactoe::Move{int8_t(cells[k])});
        changed = move_hash_step(game, changed, tictactoe::Move{int8_t(k == 2 ? 1 : cells[k])});
    }
    EXPECT_NE(base, changed);
    // Order matters too: the same moves swapped.
    uint64_t swapped = kMoveHashStart;
    for (int k : {0, 4, 8, 2, 6})
        swapped = move_hash_step(game, swapped, tictactoe::Move{int8_t(k)});
    EXPECT_NE(base, swapped);
}

TEST(RecordParity, RiskMovesHashTheirFieldsNotTheirPadding) {
    static_assert(!std::has_unique_object_representations_v<risk::Move>,
                  "risk::Move has a padding byte: the game's move_code is what is hashed");
    const risk::Game game{};
    risk::Move a, b;
    std::memset(static_cast<void*>(&a), 0x00, sizeof a);
    std::memset(static_cast<void*>(&b), 0xff, sizeof b);  // other padding, same fields
    for (risk::Move* m : {&a, &b}) {
        m->act = risk::Act::Attack;
        m->from = 3;
        m->to = 7;
        m->count = 2;
    }
    EXPECT_EQ(move_hash_step(game, kMoveHashStart, a), move_hash_step(game, kMoveHashStart, b));
    b.count = 3;
    EXPECT_NE(move_hash_step(game, kMoveHashStart, a), move_hash_step(game, kMoveHashStart, b));
}

TEST(RecordParity, AtaxxBatchRecordsCarryTheMoveHashOnEveryThreadCount) {
    using G = ataxx::Square7Game;
    const ataxx::testing::Square7Fixture f(ataxx::testing::fen_setup("x5o/7/7/7/7/7/o5x x 0 1"));
    const G& game = f.game;
    const G::Pos start = f.pos;
    Player<G> weighted;
    weighted.kind = PlayerKind::Weighted;
    weighted.depth = 2;
    for (int i = 0; i < G::kWeightCount; ++i) weighted.weights[i] = 0.25f * float(i % 5) - 0.5f;
    const Player<G> random{};
    const auto one =
        batch::play(game, start, weighted, random, 0, 64, 5, 200, resolve_backend("cpu", 1));
    const auto two =
        batch::play(game, start, weighted, random, 0, 64, 5, 200, resolve_backend("cpu", 2));
    ASSERT_EQ(one.size(), 64u);
    ASSERT_EQ(std::memcmp(one.data(), two.data(), one.size() * sizeof(GameRecord)), 0);
    for (uint32_t i = 0; i < 8; ++i) {
        std::vector<std::vector<unsigned char>> bytes;
        for (const auto& m : replay(game, start, weighted, random, int(i % 2), 5, i, 200))
            bytes.push_back(bytes_of(m));
        EXPECT_EQ(one[i].move_hash, reference_hash(bytes)) << "game " << i;
    }
}

// The smaller player sets' instantiations (what the GPU's playout and one-ply kernels run: no
// search, or neither features nor search, compiled) play the very games of the searching one
// for the players they hold, move for move, on the Ataxx fast path and a table board.
template <class G>
int compare_player_sets(const G& game, const typename G::Pos& start) {
    Player<G> one_ply;
    one_ply.kind = PlayerKind::Weighted;
    for (int i = 0; i < G::kWeightCount; ++i) one_ply.weights[i] = 0.5f - 0.125f * float(i % 7);
    const std::vector<Player<G>> players = {Player<G>{}, ataxx::testing::player_of_kind(1),
                                            ataxx::testing::player_of_kind(2), one_ply};
    int games = 0;
    for (std::size_t a = 0; a < players.size(); ++a)
        for (std::size_t b = 0; b < players.size(); ++b) {
            const Player<G> pair[2] = {players[a], players[b]};
            const PlayerSet set = batch::detail::batch_player_set<G>(pair, 2);
            EXPECT_EQ(set, a == 3 || b == 3 ? PlayerSet::Weighted : PlayerSet::Playout);
            for (uint32_t i = 0; i < 6; ++i, ++games) {
                const GameRecord searching = play_match<G, PlayerSet::Search>(
                    game, start, players[a], players[b], 9, i, 300);
                const GameRecord weighted = play_match<G, PlayerSet::Weighted>(
                    game, start, players[a], players[b], 9, i, 300);
                EXPECT_EQ(std::memcmp(&weighted, &searching, sizeof(GameRecord)), 0)
                    << "players " << a << " and " << b << ", game " << i;
                if (set == PlayerSet::Playout) {
                    const GameRecord playout = play_match<G, PlayerSet::Playout>(
                        game, start, players[a], players[b], 9, i, 300);
                    EXPECT_EQ(std::memcmp(&playout, &searching, sizeof(GameRecord)), 0)
                        << "players " << a << " and " << b << ", game " << i;
                }
            }
        }
    return games;
}

TEST(RecordParity, SmallerPlayerSetsPlayTheSameGames) {
    const ataxx::testing::Square7Fixture f(ataxx::testing::fen_setup("x5o/7/7/7/7/7/o5x x 0 1"));
    EXPECT_EQ(compare_player_sets(f.game, f.pos), 96);
    const ataxx::testing::TableFixture<1, 2> t(
        ataxx::testing::fen_setup("startpos", "hex:3", "ataxx", 2));
    EXPECT_EQ(compare_player_sets(t.game, t.pos), 96);
}

TEST(RecordParity, WhoSearches) {
    Player<ataxx::Square7Game> ataxx_player;
    ataxx_player.kind = PlayerKind::Weighted;
    EXPECT_FALSE(player_searches<ataxx::Square7Game>(ataxx_player));
    EXPECT_EQ(player_set<ataxx::Square7Game>(ataxx_player), PlayerSet::Weighted);
    ataxx_player.depth = 2;
    EXPECT_TRUE(player_searches<ataxx::Square7Game>(ataxx_player));
    EXPECT_EQ(player_set<ataxx::Square7Game>(ataxx_player), PlayerSet::Search);
    ataxx_player.kind = PlayerKind::Policy;
    EXPECT_FALSE(player_searches<ataxx::Square7Game>(ataxx_player));
    EXPECT_EQ(player_set<ataxx::Square7Game>(ataxx_player), PlayerSet::Playout);
    Player<gomoku::Game15> gomoku_player;
    gomoku_player.kind = PlayerKind::Weighted;
    EXPECT_FALSE(player_searches<gomoku::Game15>(gomoku_player));  // the reward table: one ply
    gomoku_player.depth = 3;
    EXPECT_TRUE(player_searches<gomoku::Game15>(gomoku_player));  // weighted-search
    Player<risk::Game> risk_player;
    risk_player.kind = PlayerKind::Weighted;
    EXPECT_TRUE(player_searches<risk::Game>(risk_player));  // the agent searches at every depth
    risk_player.kind = PlayerKind::Random;
    EXPECT_FALSE(player_searches<risk::Game>(risk_player));
}

}  // namespace
