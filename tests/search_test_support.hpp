// Plain minimax, written for the tests of the searching player (no pruning, no ordering, no
// stack): the independent truth alpha-beta is checked against.
#pragma once

#include "games/core/game.hpp"
#include "games/core/search.hpp"

namespace gaeval::testing {

// Value of p for `seat` by plain minimax to `depth` plies: the seat maximises, every other seat
// minimises; a finished game scores +-(kAlphaBetaWin - ply) or 0, a leaf the weighted features.
template <class G>
float minimax(const G& game, const typename G::Pos& p, const float* weights, int seat, int depth,
              int ply) {
    if (game.is_over(p)) {
        const SeatResult r = game.seat_result(p, seat);
        const float win = kAlphaBetaWin - static_cast<float>(ply);
        return r == SeatResult::Win ? win : r == SeatResult::Loss ? -win : 0.0f;
    }
    if (depth == 0) {
        float f[G::kFeatureCount];
        game.features(p, seat, f);
        float total = 0.0f;
        for (int i = 0; i < G::kFeatureCount; ++i) total = total + weights[i] * f[i];
        return total;
    }
    const bool maximise = game.to_move(p) == seat;
    float best = maximise ? -kAlphaBetaInfinity : kAlphaBetaInfinity;
    game.for_each_move(p, [&](const typename G::Move& m) {
        const float v = minimax(game, game.make(p, m), weights, seat, depth - 1, ply + 1);
        if (maximise ? best < v : v < best) best = v;
    });
    return best;
}

}  // namespace gaeval::testing
