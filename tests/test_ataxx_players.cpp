// Player policies: capture never misses a capture, most-pieces maximises material, weighted
// with material only plays as most-pieces, random and tie-breaks are uniform and addressed.
#include <gtest/gtest.h>

#include <map>
#include <random>
#include <vector>

#include "ataxx_test_support.hpp"

namespace {

using namespace gaeval;
using namespace gaeval::ataxx;
using namespace gaeval::ataxx::testing;

using Player = gaeval::Player<Square7Game>;
enum OldKind { Random = 0, Capture = 1, MostPieces = 2, Weighted = 3 };

Player make_player(OldKind kind) { return player_of_kind(kind); }

// Positions met in random games from the start, on the fast path.
std::vector<Position<1, 2>> visited_positions(const Square7Game& game, const Position<1, 2>& start,
                                              int games) {
    std::vector<Position<1, 2>> out;
    const Player random = make_player(Random);
    for (int g = 0; g < games; ++g) {
        Position<1, 2> p = start;
        for (uint32_t ply = 0; !game.is_over(p) && ply < 400; ++ply) {
            out.push_back(p);
            p = game.make(p, choose_move(game, p, random, DrawAddress{123, uint32_t(g), ply}));
        }
    }
    return out;
}

TEST(AtaxxPlayers, CaptureNeverMissesACapture) {
    Square7Fixture f(fen_setup("startpos"));
    const Player capture = make_player(Capture);
    int with_captures = 0;
    for (const auto& p : visited_positions(f.game, f.pos, 20)) {
        int best_captures = -1, best_pieces = -1;
        f.game.for_each_move(p, [&](Move m) {
            if (m.is_pass()) return;  // captured_by is for grows and jumps
            const int captures = f.game.captured_by(p, m).count();
            const int pieces = f.game.make(p, m).pieces[p.side].count();
            if (captures > best_captures) best_pieces = -1;
            if (captures >= best_captures) {
                best_captures = captures;
                best_pieces = std::max(best_pieces, pieces);
            }
        });
        if (best_captures < 0 || f.game.count_grows_and_jumps(p) == 0) continue;  // a pass
        with_captures += best_captures > 0;
        const Move chosen = choose_move(f.game, p, capture, DrawAddress{5, 1, 2});
        EXPECT_EQ(f.game.captured_by(p, chosen).count(), best_captures);
        EXPECT_EQ(f.game.make(p, chosen).pieces[p.side].count(), best_pieces);
    }
    EXPECT_GT(with_captures, 500);
}

TEST(AtaxxPlayers, MostPiecesMaximisesMaterialAndWeightedMaterialPlaysTheSame) {
    Square7Fixture f(fen_setup("startpos"));
    const Player most = make_player(MostPieces);
    Player material = make_player(Weighted);
    material.weights[static_cast<int>(Feature::OwnPieces)] = 1.0f;
    for (const auto& p : visited_positions(f.game, f.pos, 10)) {
        if (f.game.count_grows_and_jumps(p) == 0) continue;
        int best = -1;
        f.game.for_each_move(
            p, [&](Move m) { best = std::max(best, f.game.make(p, m).pieces[p.side].count()); });
        const DrawAddress at{8, 3, 4};
        const Move chosen = choose_move(f.game, p, most, at);
        EXPECT_EQ(f.game.make(p, chosen).pieces[p.side].count(), best);
        // Same scores, same tie-break draws: the same move.
        EXPECT_EQ(choose_move(f.game, p, material, at), chosen);
    }
}

double chi_square(const std::map<int, int>& counts, int bins, int total) {
    const double expected = static_cast<double>(total) / bins;
    double chi2 = 0;
    for (int b = 0; b < bins; ++b) {
        const auto it = counts.find(b);
        const double n = it == counts.end() ? 0 : it->second;
        chi2 += (n - expected) * (n - expected) / expected;
    }
    return chi2;
}

TEST(AtaxxPlayers, RandomIsUniformOverLegalMoves) {
    Square7Fixture f(fen_setup("startpos"));
    const Player random = make_player(Random);
    std::vector<Move> moves;
    f.game.for_each_move(f.pos, [&](Move m) { moves.push_back(m); });
    ASSERT_EQ(moves.size(), 16u);
    std::map<int, int> counts;
    const int draws = 16000;
    for (uint32_t i = 0; i < draws; ++i) {
        const Move m = choose_move(f.game, f.pos, random, DrawAddress{3, i, 0});
        int index = -1;
        for (std::size_t k = 0; k < moves.size(); ++k)
            if (moves[k] == m) index = static_cast<int>(k);
        ASSERT_GE(index, 0);
        ++counts[index];
    }
    EXPECT_LT(chi_square(counts, 16, draws), 37.7);  // p = 0.001, 15 degrees of freedom
}

TEST(AtaxxPlayers, TiesAreBrokenUniformly) {
    // From the start, the capture player's best moves are the 6 grows (no capture, +1 piece).
    Square7Fixture f(fen_setup("startpos"));
    const Player capture = make_player(Capture);
    std::map<int, int> counts;
    const int draws = 6000;
    for (uint32_t i = 0; i < draws; ++i) {
        const Move m = choose_move(f.game, f.pos, capture, DrawAddress{11, i, 0});
        ASSERT_TRUE(m.is_grow());
        ++counts[m.to];
    }
    ASSERT_EQ(counts.size(), 6u);
    std::map<int, int> bins;
    int b = 0;
    for (const auto& [cell, n] : counts) bins[b++] = n;
    EXPECT_LT(chi_square(bins, 6, draws), 20.5);  // p = 0.001, 5 degrees of freedom
}

TEST(AtaxxPlayers, ChoicesAreAddressedNotStreamed) {
    Square7Fixture f(fen_setup("startpos"));
    const Player random = make_player(Random);
    int differs_by_seed = 0, differs_by_ply = 0;
    for (uint32_t i = 0; i < 64; ++i) {
        const Move m = choose_move(f.game, f.pos, random, DrawAddress{1, i, 0});
        EXPECT_EQ(choose_move(f.game, f.pos, random, DrawAddress{1, i, 0}), m);
        differs_by_seed += !(choose_move(f.game, f.pos, random, DrawAddress{2, i, 0}) == m);
        differs_by_ply += !(choose_move(f.game, f.pos, random, DrawAddress{1, i, 1}) == m);
    }
    EXPECT_GT(differs_by_seed, 40);
    EXPECT_GT(differs_by_ply, 40);
}

TEST(AtaxxPlayers, WeightedPrefersWhatItsWeightsReward) {
    // x on a1 can grow next to o or jump away; rewarding few opponent pieces (the complemented
    // opponent_pieces feature) makes the weighted player capture.
    Square7Fixture f(fen_setup("7/7/7/7/7/2o4/x6 x 0 1"));
    Player hunter = make_player(Weighted);
    hunter.weights[static_cast<int>(Feature::OpponentPieces)] = 10.0f;
    const Move m = choose_move(f.game, f.pos, hunter, DrawAddress{1, 0, 0});
    EXPECT_EQ(f.game.captured_by(f.pos, m).count(), 1);
}

}  // namespace
