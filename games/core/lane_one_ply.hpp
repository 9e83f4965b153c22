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
// In the Ataxx family the device's lane groups play in scratch (lane_one_ply_in_scratch_v): the
// match's position in each lane's copy of the one-thread form's scratch, read where it is used,
// the policies there (as the one-thread kernel plays them), the score fused with the features
// (the 7x7 fast path's child_score; a table board's child_score_in, the features' words in the
// scratch too), so that the kernels fit the playouts' 64 registers without a stack
// (bench/results/kernel-resources.md).
#pragma once

#include <cstdint>
#include <type_traits>
#include <utility>

#include "games/core/game.hpp"
#include "games/core/hd.hpp"
#include "games/core/lanes.hpp"
#include "games/core/players.hpp"
#include "games/core/rng.hpp"

namespace gaeval {

// The index of best_move's choice among `total` (>= 1) moves, nth(k) the k-th and score(move)
// its score (a float or an int), ties drawn at `at` as best_move draws them; the same index in
// every lane. Every lane of the group must call it with the same moves.
template <int L, class Nth, class ScoreFn>
GAEVAL_HD_INLINE int lane_best_index(const Lanes<L>& lanes, int total, const DrawAddress& at,
                                     Nth&& nth, ScoreFn&& score) {
    using Move = decltype(nth(0));
    using Score = decltype(score(nth(0)));
    LaneArray<Move, L> moves{};
    LaneArray<Score, L> scores{};
    int best_index = 0;
    Score best_score{};
    uint32_t ties = 0;
    // Rounds of moves base .. base + n - 1 (n <= L), move base + j kept by lane j: the moves by
    // index (nth, not inside for_each_move's callback: there the round, and the search in it,
    // was compiled once per call site of the callback; the lane search's stack doubled to
    // 8.7 KB), every lane scores its own at once (on the device side by side in the warp), then
    // every lane replays best_move's steps over the round's scores in move order.
    for (int base = 0; base < total; base += L) {
        const int n = total - base < L ? total - base : L;
        lanes.each([&](int own) {
            if (own < n) lanes.at(moves, own) = nth(base + own);
        });
        lanes.each([&](int own) {
            if (own < n) lanes.at(scores, own) = score(lanes.at(moves, own));
        });
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
    }
    return best_index;
}

// best_move over a lane group: the move with the highest score(move) (a float or an int),
// ties broken as best_move breaks them, the same move in every lane. Requires at least one
// legal move; every lane of the group must call it with the same position.
template <class G, int L, class ScoreFn>
GAEVAL_HD typename G::Move lane_best_move(const Lanes<L>& lanes, const G& game,
                                          const typename G::Pos& p, const DrawAddress& at,
                                          ScoreFn&& score) {
    const int index = lane_best_index(
        lanes, game.count_moves(p), at, [&](int k) { return game.nth_move(p, k); }, score);
    return game.nth_move(p, index);
}

namespace detail {
template <class G, class = void>
struct has_child_score : std::false_type {};
template <class G>
struct has_child_score<
    G, void_t<decltype(std::declval<const G&>().child_score(
           std::declval<const typename G::Pos&>(), std::declval<const typename G::Move&>(), 0,
           std::declval<const float*>()))>> : std::true_type {};
template <class G, class = void>
struct has_read_pos : std::false_type {};
template <class G>
struct has_read_pos<G, void_t<decltype(G::read_pos(std::declval<const typename G::Pos&>()))>>
    : std::true_type {};
}  // namespace detail

// The one-ply weighted player's score of move m in p for `seat`: sum_i weights[i] * features_i
// of the position after m (weighted_score over features), or the game's child_score where it
// has one (the same float, fused: 7x7 Ataxx's unit_score).
template <class G>
GAEVAL_HD_FORCEINLINE float child_score(const G& game, const typename G::Pos& p,
                                        const typename G::Move& m, int seat, const float* weights) {
    if constexpr (detail::has_child_score<G>::value) {
        return game.child_score(p, m, seat, weights);
    } else {
        float values[G::kFeatureCount];
        game.features(game.make(p, m), seat, values);
        return weighted_score<G::kFeatureCount>(weights, values);
    }
}

// one_ply_weighted_move over a lane group: the same move, in every lane.
template <class G, int L>
GAEVAL_HD typename G::Move lane_one_ply_weighted_move(const Lanes<L>& lanes, const G& game,
                                                      const typename G::Pos& p,
                                                      const float* weights, const DrawAddress& at) {
    const int us = game.to_move(p);
    return lane_best_move(lanes, game, p, at, [&](const typename G::Move& m) {
        return child_score(game, p, m, us, weights);
    });
}

namespace detail {
template <class G, class = void>
struct has_child_score_in : std::false_type {};
template <class G>
struct has_child_score_in<
    G, void_t<decltype(std::declval<const G&>().child_score_in(
           std::declval<const typename G::Pos&>(), std::declval<const typename G::Move&>(),
           std::declval<const float*>(), std::declval<weighted_scratch_t<G>&>()))>>
    : std::true_type {};
}  // namespace detail

// Whether G's lane groups play one-ply weighted matches in scratch, one weighted_scratch_t<G>
// a lane (play_match_lanes_in_scratch, games/core/lane_search.hpp): G's weighted player plays in
// scratch (has_scratch_weighted_move_v; its policies do too), and G either reads a position
// there field by field where it is used (static Pos read_pos(const Pos&)) and gives a fused
// child_score (7x7 Ataxx), or enumerates its moves in the scratch (count_moves_in, nth_move_in)
// and scores the mover's child there, `float child_score_in(const Pos& p, const Move& m, const
// float* weights, Scratch& s) const` with p the scratch's position (the Ataxx table boards).
template <class G>
constexpr bool lane_one_ply_in_scratch_v =
    has_scratch_weighted_move_v<G> &&
    ((detail::has_read_pos<G>::value && detail::has_child_score<G>::value) ||
     (detail::has_scratch_moves<G>::value && detail::has_child_score_in<G>::value));

// The legal moves of the position p in the scratch s, its k-th, and the mover's score of its move
// m: in s where G enumerates and scores there, else from G::read_pos(p) (on the device no copy of
// the position is held across the rounds).
template <class G, class Scratch>
GAEVAL_HD_FORCEINLINE int count_moves_in_scratch(const G& game, const typename G::Pos& p,
                                                 Scratch& s) {
    if constexpr (detail::has_child_score_in<G>::value) {
        return game.count_moves_in(p, s);
    } else {
        return game.count_moves(G::read_pos(p));
    }
}
template <class G, class Scratch>
GAEVAL_HD_FORCEINLINE typename G::Move nth_move_in_scratch(const G& game, const typename G::Pos& p,
                                                           int k, Scratch& s) {
    if constexpr (detail::has_child_score_in<G>::value) {
        return game.nth_move_in(p, k, s);
    } else {
        return game.nth_move(G::read_pos(p), k);
    }
}
template <class G, class Scratch>
GAEVAL_HD_FORCEINLINE float mover_child_score_in_scratch(const G& game, const typename G::Pos& p,
                                                         const typename G::Move& m, int us,
                                                         const float* weights, Scratch& s) {
    if constexpr (detail::has_child_score_in<G>::value) {
        return game.child_score_in(p, m, weights, s);
    } else {
        return child_score(game, G::read_pos(p), m, us, weights);
    }
}

// lane_one_ply_weighted_move for the position p in the lane's scratch s
// (lane_one_ply_in_scratch_v), read where it is used. The same move, in every lane.
template <class G, int L, class Scratch>
GAEVAL_HD typename G::Move lane_one_ply_weighted_move_in_scratch(
    const Lanes<L>& lanes, const G& game, const typename G::Pos& p, const float* weights,
    const DrawAddress& at, Scratch& s) {
    // The mover (the 7x7 form's seat of child_score; a table board's score is the mover's).
    const int us = [&] {
        if constexpr (detail::has_child_score_in<G>::value) {
            return 0;
        } else {
            return game.to_move(G::read_pos(p));
        }
    }();
    const int index = lane_best_index(
        lanes, count_moves_in_scratch(game, p, s), at,
        [&](int k) { return nth_move_in_scratch(game, p, k, s); },
        [&](const typename G::Move& m) {
            return mover_child_score_in_scratch(game, p, m, us, weights, s);
        });
    return nth_move_in_scratch(game, p, index, s);
}

// Whether G's weighted player is the default one-ply argmax over children, which the lane group
// can split (the Ataxx family, tic-tac-toe). Not Gomoku: its one-ply player is the reward table
// (a rank drawn from threat levels of the whole board, no score per child); not Risk: its
// weighted player is always the agent's alpha-beta over attacks.
template <class G>
constexpr bool lane_one_ply_v = has_features_v<G> && !has_weighted_move_v<G>;

// Threads each multiprocessor should get before a batch of one-ply games is split over lanes:
// 8 warps, the fewest that hide the latency of the dependent bitboard and float arithmetic of
// make and features (chosen when the one-game-a-thread one-ply kernel, 108 registers on the 7x7
// fast path, held 2 blocks of 256 on a multiprocessor; in scratch it holds 4, 61-63 registers:
// whether a larger fill pays is not measured on a GPU yet).
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
