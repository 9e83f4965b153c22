// The one-ply weighted player over a lane group (games/core/lanes.hpp): the lanes score disjoint
// subsets of the legal moves (move k to lane k mod L) and the group picks the very move of the
// serial player (one_ply_weighted_move over best_move, games/core/players.hpp), whatever L.
// best_move breaks ties by reservoir sampling: the t-th move that ties the best so far replaces
// it when its draw mod t is 0, so whether a move wins depends on how many tying moves came
// before it, not on its own value and draw alone; a best_of over (value, draw, index) would pick
// another move. So the lanes score one round of L consecutive moves at a time (each lane its
// own, all at once: lane j takes move base + j by nth_move), and then every lane replays
// best_move's steps over that round's L scores in move order, reading lane j's score with a
// shuffle: the same comparisons on the same values in the same order as the serial loop (NaN scores
// included), the same draws (counter = the move's natural index). The scoring (make and features)
// is split over the lanes; the replay (one shuffle and one comparison a move) is every lane's.
#pragma once

#include <cstdint>

#include "games/core/game.hpp"
#include "games/core/hd.hpp"
#include "games/core/lanes.hpp"
#include "games/core/players.hpp"
#include "games/core/rng.hpp"

namespace gaeval {

// best_move over a lane group: the move with the highest score(move) (a float or an int),
// ties broken as best_move breaks them, the same move in every lane. Requires at least one
// legal move; every lane of the group must call it with the same position.
template <class G, int L, class ScoreFn>
GAEVAL_HD typename G::Move lane_best_move(const Lanes<L>& lanes, const G& game,
                                          const typename G::Pos& p, const DrawAddress& at,
                                          ScoreFn&& score) {
    using Move = typename G::Move;
    using Score = decltype(score(game.nth_move(p, 0)));
    LaneArray<Score, L> scores{};
    int best_index = 0;
    Score best_score{};
    uint32_t ties = 0;
    // best_move's step for moves base .. base + n - 1, whose scores are in lanes 0 .. n - 1.
    const auto replay = [&](int base, int n) {
        for (int j = 0; j < n; ++j) {
            const Score s = lanes.read(scores, j);
            const uint32_t index = static_cast<uint32_t>(base + j);
            if (ties == 0 || best_score < s) {
                best_index = base + j;
                best_score = s;
                ties = 1;
            } else if (s == best_score) {
                ++ties;
                const uint32_t r =
                    philox(at.seed, Purpose::PlayerTieBreak, at.game, at.ply, index, 0).v[0];
                if (below(r, ties) == 0) best_index = base + j;
            }
        }
    };
    // Round of moves base .. base + n - 1 (n <= L), move base + j kept by lane j: every lane
    // scores its own at once (on the device side by side in the warp), then the replay.
    LaneArray<Move, L> moves{};
    const auto round = [&](int base, int n) {
        lanes.each([&](int own) {
            if (own < n) lanes.at(scores, own) = score(lanes.at(moves, own));
        });
        replay(base, n);
    };
    // The moves by index (nth_move), not inside for_each_move's callback: there the round, and
    // the search in it, was compiled once per call site of the callback (the lane search's
    // stack doubled to 8.7 KB).
    const int total = game.count_moves(p);
    for (int base = 0; base < total; base += L) {
        const int n = total - base < L ? total - base : L;
        lanes.each([&](int own) {
            if (own < n) lanes.at(moves, own) = game.nth_move(p, base + own);
        });
        round(base, n);
    }
    return game.nth_move(p, best_index);
}

// one_ply_weighted_move over a lane group: the same move, in every lane.
template <class G, int L>
GAEVAL_HD typename G::Move lane_one_ply_weighted_move(const Lanes<L>& lanes, const G& game,
                                                      const typename G::Pos& p,
                                                      const float* weights, const DrawAddress& at) {
    const int us = game.to_move(p);
    return lane_best_move(lanes, game, p, at, [&](const typename G::Move& m) {
        float values[G::kFeatureCount];
        game.features(game.make(p, m), us, values);
        return weighted_score<G::kFeatureCount>(weights, values);
    });
}

// Whether G's weighted player is the default one-ply argmax over children, which the lane group
// can split (the Ataxx family, tic-tac-toe). Not Gomoku: its one-ply player is the reward table
// (a rank drawn from threat levels of the whole board, no score per child); not Risk: its
// weighted player is always the agent's alpha-beta over attacks.
template <class G>
constexpr bool lane_one_ply_v = has_features_v<G> && !has_weighted_move_v<G>;

// Threads each multiprocessor should get before a batch of one-ply games is split over lanes:
// 8 warps, the fewest that hide the latency of the dependent bitboard and float arithmetic of
// make and features (the one-game-a-thread one-ply kernel, 108 registers on the 7x7 fast path,
// holds 2 blocks of 256 on a multiprocessor, so this is half of what fits).
constexpr uint64_t kOnePlyFillThreadsPerMultiprocessor = 256;

// Lanes a one-ply game gets on a device of `multiprocessors`: the fewest of 1, 4, 8 and 32 with
// which `games` games give every multiprocessor kOnePlyFillThreadsPerMultiprocessor threads, and
// 32 (a warp a game) when even that falls short. Fewest, because lanes add work: every lane
// enumerates every move and replays every score, and only make and features are split. On an
// H100 (132 multiprocessors, 33792 threads): a 24-member round-robin:2 tournament (552 games)
// gets 32 lanes, 16 islands of it (8832 games) 4, a 256-member one (65280 games) 1, the
// one-game-a-thread kernel. The records do not depend on the choice (lane_best_move).
constexpr int one_ply_lanes(uint64_t games, int multiprocessors) {
    const uint64_t fill = static_cast<uint64_t>(multiprocessors > 0 ? multiprocessors : 1) *
                          kOnePlyFillThreadsPerMultiprocessor;
    const int counts[3] = {1, 4, 8};
    for (int lanes : counts)
        if (games * static_cast<uint64_t>(lanes) >= fill) return lanes;
    return 32;
}

}  // namespace gaeval
