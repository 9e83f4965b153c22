// Players: policies that pick a move for the side to move. Every random choice is an addressed
// Philox draw keyed by the seed with counter (game, ply, draw index), so a game's moves do not
// depend on which thread, core or device plays it.
//   random       uniform over the legal moves
//   capture      most captures; ties to the most own pieces after the move, then random
//   most-pieces  most own pieces after the move; ties random
//   weighted     one ply: score = sum_i weights[i] * features[i] of the position after the move
//                (seen by the mover); best wins, ties random
// Bit-identical across backends: the weighted score sums float products in index order with
// only * and + (no contraction on either side); the other scores are integers.
#pragma once

#include <cstdint>
#include <type_traits>

#include "games/core/hd.hpp"
#include "games/core/rng.hpp"
#include "games/grid/features.hpp"
#include "games/grid/rules.hpp"

namespace gaeval::grid {

// Values are part of saved results: append, never renumber.
enum class PlayerKind : uint8_t { Random = 0, Capture = 1, MostPieces = 2, Weighted = 3 };

// A player; weights matter only for Weighted. Trivially copyable (passed to kernels by value).
struct Player {
    PlayerKind kind = PlayerKind::Random;
    float weights[kFeatureCount] = {};
};

static_assert(std::is_trivially_copyable_v<Player>, "players are kernel arguments");

// Where a player's draws come from: key = seed, counter = (game, ply, draw, 0).
struct DrawAddress {
    uint64_t seed = 0;
    uint32_t game = 0;
    uint32_t ply = 0;
};

// Bit-identical across backends: float * and + in a fixed order, no contraction.
// Weighted score of a feature vector: sum of weights[i] * features[i] in index order.
GAEVAL_HD_INLINE float weighted_score(const float* weights, const int* feature_values) {
    float total = 0.0f;
    for (int i = 0; i < kFeatureCount; ++i) {
        const float term = weights[i] * static_cast<float>(feature_values[i]);
        total = total + term;
    }
    return total;
}

// Bit-identical across backends: moves in the shared order, draws addressed by move index.
// The move with the highest score(move) (Score: int or float, compared with < and ==), ties
// broken uniformly at random by reservoir sampling: the t-th move tying the best replaces it
// when draw(move index) mod t hits 0. Requires at least one legal move.
template <class G, class ScoreFn>
GAEVAL_HD_INLINE Move best_move(const G& game, const typename G::Pos& p, const DrawAddress& at,
                                ScoreFn&& score) {
    Move best = Move::pass();
    decltype(score(best)) best_score{};
    uint32_t ties = 0, index = 0;
    game.for_each_move(p, [&](Move m) {
        const auto s = score(m);
        if (ties == 0 || best_score < s) {
            best = m;
            best_score = s;
            ties = 1;
        } else if (s == best_score) {
            ++ties;
            const uint32_t r =
                philox(at.seed, Purpose::PlayerTieBreak, at.game, at.ply, index, 0).v[0];
            if (below(r, ties) == 0) best = m;
        }
        ++index;
    });
    return best;
}

// Bit-identical across backends: a pure function of its arguments (addressed draws only).
// The move `player` chooses in p (a game that is not over): a pass when the side to move has no
// grow or jump, else the policy's choice.
template <class G>
GAEVAL_HD Move choose_move(const G& game, const typename G::Pos& p, const Player& player,
                           const DrawAddress& at) {
    const int moves = game.count_moves(p);
    if (moves == 0) return Move::pass();
    const int us = p.side;
    switch (player.kind) {
        case PlayerKind::Random: {
            const uint32_t r =
                philox(at.seed, Purpose::PlayerRandomMove, at.game, at.ply, 0, 0).v[0];
            return game.nth_move(p, static_cast<int>(below(r, static_cast<uint32_t>(moves))));
        }
        case PlayerKind::Capture: {
            const int own = p.pieces[us].count();
            return best_move(game, p, at, [&](Move m) {
                const int captures = game.captured_by(p, m).count();
                const int pieces_after = own + captures + (m.is_grow() ? 1 : 0);
                return captures * (4 * kMaxCells) + pieces_after;
            });
        }
        case PlayerKind::MostPieces: {
            const int own = p.pieces[us].count();
            return best_move(game, p, at, [&](Move m) {
                return own + game.captured_by(p, m).count() + (m.is_grow() ? 1 : 0);
            });
        }
        case PlayerKind::Weighted:
        default: {
            return best_move(game, p, at, [&](Move m) {
                int values[kFeatureCount];
                features(game, game.make(p, m), us, values);
                return weighted_score(player.weights, values);
            });
        }
    }
}

}  // namespace gaeval::grid
