// The 7x7 fast path (shift-based, stride-8 word) against the table geometry on square8:7x7:
// masks per cell, and on random positions moves, make-move, game over, outcome, features,
// player choices, perft and whole playouts, all mapped cell for cell.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "ataxx_test_support.hpp"

namespace {

using namespace gaeval;
using namespace gaeval::ataxx;
using namespace gaeval::ataxx::testing;

using Fast = Square7Geometry;

Bitboard<1> to_fast(const Bitboard<1>& compact) {
    Bitboard<1> out = Bitboard<1>::none();
    for_each_cell(compact, [&](int c) { out.set(Fast::from_compact(c)); });
    return out;
}

Move to_fast(Move m) {
    if (m.is_pass()) return m;
    return Move::jump(Fast::from_compact(m.from), Fast::from_compact(m.to));
}

TEST(AtaxxFastPath, CellMasksMatchTheTable) {
    TableFixture<1, 2> table(start_setup(Shape{}, RuleSet::Ataxx, 2));
    const Fast fast;
    EXPECT_EQ(fast.playable().w[0], to_fast(table.board->playable).w[0]);
    for (int c = 0; c < 49; ++c) {
        const int b = Fast::from_compact(c);
        EXPECT_EQ(Fast::to_compact(b), c);
        EXPECT_EQ(fast.grow_of(b).w[0], to_fast(table.board->grow[c]).w[0]) << "cell " << c;
        EXPECT_EQ(fast.jump_of(b).w[0], to_fast(table.board->jump[c]).w[0]) << "cell " << c;
    }
    // Corner and centre sizes as libataxx states them.
    EXPECT_EQ(fast.grow_of(0).count(), 3);
    EXPECT_EQ(fast.jump_of(0).count(), 5);
    EXPECT_EQ(fast.grow_of(27).count(), 8);
    EXPECT_EQ(fast.jump_of(27).count(), 16);
}

// The host's 64-entry jump table against the computed rings it was filled from (the device's
// path), on every bit of the word, and both against the jump ranges that build_board derives
// from neighbours for square8:7x7, with and without gaps (the only shape the fast path takes).
TEST(AtaxxFastPath, JumpTableAgreesWithTheComputedRing) {
    for (int b = 0; b < 64; ++b) {
        EXPECT_EQ(kSquare7JumpRings.ring[b], Fast::jump_ring_computed(b)) << "bit " << b;
        EXPECT_EQ(Fast::jump_ring(b), Fast::jump_ring_computed(b)) << "bit " << b;
        EXPECT_EQ(Fast::jump_ring(b) & ~Fast::kAll, 0u) << "bit " << b;
    }
    TableFixture<1, 2> table(start_setup(Shape{}, RuleSet::Ataxx, 2));
    for (int c = 0; c < 49; ++c) {
        const int b = Fast::from_compact(c);
        EXPECT_EQ(Fast::jump_ring_computed(b), to_fast(table.board->jump[c]).w[0]) << "cell " << c;
    }
    // With gaps: jumps cross anything, the rings stay those of the full board, and both
    // geometries count the same jumps onto the empty playable cells.
    std::mt19937 rng(7);
    for (int trial = 0; trial < 50; ++trial) {
        GameSetup s = random_setup(rng, Shape{}, RuleSet::Ataxx, 2, 40,
                                   static_cast<int>(rng() % 12));
        TableFixture<1, 2> t(s);
        Square7Fixture f(s);
        EXPECT_EQ(f.game.geo.jump_count(f.pos.pieces[0], f.game.empty_cells(f.pos)),
                  t.game.geo.jump_count(t.pos.pieces[0], t.game.empty_cells(t.pos)))
            << write_fen(s);
    }
}

TEST(AtaxxFastPath, RandomPositionsAgreeOnEverything) {
    std::mt19937 rng(2024);
    int positions = 0, over = 0, passes = 0;
    for (int trial = 0; trial < 400; ++trial) {
        const int density = 5 + static_cast<int>(rng() % 85);
        GameSetup s = random_setup(rng, Shape{}, trial % 2 ? RuleSet::Ataxx : RuleSet::GeneticGame,
                                   2, density, static_cast<int>(rng() % 15));
        if (trial % 7 == 0) s.halfmove = static_cast<uint16_t>(95 + rng() % 10);
        if (trial % 5 == 0) {
            // The side to move walled in on rank 1 behind two opponent ranks: it must pass
            // unless a gap or an empty cell above lets it (or nobody) move.
            for (int c = 0; c < 21; ++c) s.cell[c] = c < 7 ? s.side : 1 - s.side;
        }
        TableFixture<1, 2> table(s);
        Square7Fixture fast(s);
        ++positions;
        ASSERT_EQ(fast.game.is_over(fast.pos), table.game.is_over(table.pos)) << write_fen(s);
        over += table.game.is_over(table.pos);
        ASSERT_EQ(fast.game.count_moves(fast.pos), table.game.count_moves(table.pos));
        passes += child_count(table.game, table.pos) == 1 &&
                  table.game.count_grows_and_jumps(table.pos) == 0;
        std::vector<Move> table_moves, fast_moves;
        table.game.for_each_move(table.pos, [&](Move m) { table_moves.push_back(to_fast(m)); });
        fast.game.for_each_move(fast.pos, [&](Move m) { fast_moves.push_back(m); });
        ASSERT_EQ(fast_moves.size(), table_moves.size());
        for (std::size_t i = 0; i < fast_moves.size(); ++i) {
            ASSERT_EQ(fast_moves[i], table_moves[i]) << write_fen(s) << " move " << i;
            EXPECT_EQ(fast.game.nth_move(fast.pos, static_cast<int>(i)), fast_moves[i]);
        }
        // Children (after each move, or the pass) map to the same setups.
        std::vector<GameSetup> table_children, fast_children;
        for_each_child(table.game, table.pos, [&](const Position<1, 2>& c) {
            table_children.push_back(position_setup(*table.board, s.rules, c));
        });
        for_each_child(fast.game, fast.pos, [&](const Position<1, 2>& c) {
            fast_children.push_back(square7_setup(fast.game.geo, s.rules, c));
        });
        ASSERT_EQ(fast_children.size(), table_children.size());
        for (std::size_t i = 0; i < fast_children.size(); ++i)
            ASSERT_EQ(write_fen(fast_children[i]), write_fen(table_children[i]));
        const auto fo = fast.game.outcome(fast.pos), to = table.game.outcome(table.pos);
        EXPECT_EQ(fo.winner, to.winner);
        EXPECT_EQ(fo.rule_draw, to.rule_draw);
        EXPECT_EQ(fo.score[0], to.score[0]);
        EXPECT_EQ(fo.score[1], to.score[1]);
        for (int player = 0; player < 2; ++player) {
            int ff[kFeatureCount], tf[kFeatureCount];
            features(fast.game, fast.pos, player, ff);
            features(table.game, table.pos, player, tf);
            for (int i = 0; i < kFeatureCount; ++i) EXPECT_EQ(ff[i], tf[i]) << "feature " << i;
        }
        if (!table.game.is_over(table.pos)) {
            for (int kind = 0; kind < 4; ++kind) {
                auto player = player_of_kind(kind);
                for (int i = 0; i < kFeatureCount; ++i) player.weights[i] = float(i % 3) - 0.75f;
                const DrawAddress at{77, static_cast<uint32_t>(trial), 3};
                EXPECT_EQ(choose_move(fast.game, fast.pos, player, at),
                          to_fast(choose_move(table.game, table.pos, player, at)))
                    << "player kind " << kind;
            }
        }
        EXPECT_EQ(perft(fast.game, fast.pos, 3), perft(table.game, table.pos, 3));
    }
    // The random positions cover the interesting cases.
    EXPECT_GT(over, 20);
    EXPECT_GT(passes, 3);
    EXPECT_EQ(positions, 400);
}

TEST(AtaxxFastPath, WholePlayoutsAreIdentical) {
    const GameSetup start = fen_setup("x5o/7/2-1-2/7/2-1-2/7/o5x x 0 1");
    games::PlayRequest request;
    request.games = 60;
    request.seed = 9;
    request.a = player_data(1);
    request.b = player_data(0);
    const auto fast = play_batch(start, request, cpu_backend(2));
    const auto table = play_batch(start, request, cpu_backend(2), true);
    ASSERT_EQ(fast.size(), table.size());
    for (std::size_t i = 0; i < fast.size(); ++i) {
        EXPECT_EQ(fast[i].plies, table[i].plies) << "game " << i;
        EXPECT_EQ(fast[i].a_result, table[i].a_result) << "game " << i;
        EXPECT_EQ(fast[i].winner, table[i].winner) << "game " << i;
    }
}

}  // namespace
