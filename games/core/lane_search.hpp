// The searching weighted player over a lane group (games/core/lanes.hpp): the root's moves are
// split over the lanes (move k to lane k mod L), each lane searches its moves with the serial
// search's negamax (games/core/search.hpp) and its own running bound, and best_of combines the
// lanes. Same move and value as alpha_beta at a fixed depth without a node budget:
//   - a root move is searched with the window (float_below(b), +inf), b the lane's best so far
//     (b <= the root's value B), so every move whose value is B comes back exact and every
//     other move comes back below B, whatever the lane count and order: the lanes agree on B
//     and on the set of moves that reach it;
//   - among those, the one with the lowest addressed draw wins (key = seed, counter = (game,
//     ply, natural move index)), and of two equal 32-bit draws the lower natural index, as in
//     the serial root;
//   - depth d alone gives the result of iterative deepening to d: alpha-beta's value does not
//     depend on move order, which is all that the earlier iterations change.
// The frames hold OrderCap moves each (a smaller cap orders fewer nodes and needs less stack;
// the move and value stay the same).
#pragma once

#include <cstdint>
#include <type_traits>
#include <utility>

#include "games/core/game.hpp"
#include "games/core/hd.hpp"
#include "games/core/lane_one_ply.hpp"
#include "games/core/lanes.hpp"
#include "games/core/match.hpp"
#include "games/core/players.hpp"
#include "games/core/rng.hpp"
#include "games/core/scratch.hpp"
#include "games/core/search.hpp"

namespace gaeval {

// Order cap of the lane search's frames: every move of the 7x7 Ataxx positions seen in play
// fits, and the stack is a quarter of the serial search's.
constexpr int kLaneSearchOrderCap = 64;

// Best move and its value for the side to move in p (not over, at least one legal move),
// `depth` plies deep (clamped to 1 .. MaxDepth), over the lanes of `lanes`; every lane returns
// the same move, value (for the searching seat, as AlphaBetaResult::value) and depth.
template <class G, int L, int MaxDepth = kPlayerMaxSearchDepth, int OrderCap = kLaneSearchOrderCap>
GAEVAL_HD AlphaBetaResult<G> lane_alpha_beta(const Lanes<L>& lanes, const G& game,
                                             const typename G::Pos& p, const float* weights,
                                             int depth, const DrawAddress& at) {
    using Move = typename G::Move;
    const int plies = clamp(depth, 1, MaxDepth);
    const int root_seat = game.to_move(p);
    // Each lane's best root move so far; the root's moves in rounds of L (move k kept by lane
    // k mod L), every lane searching its own at once (on the device side by side in the warp,
    // not one lane after the other).
    LaneArray<LaneCandidate, L> candidates{};
    LaneArray<Move, L> moves{};
    const auto round = [&](int base, int n) {
        lanes.each([&](int lane) {
            if (lane >= n) return;
            const int k = base + lane;
            LaneCandidate& best = lanes.at(candidates, lane);
            alpha_beta_detail::Context<G> c{&game, weights, root_seat, 0, 0, 1024, false};
            NeverStop stop;
            const typename G::Pos child = game.make(p, lanes.at(moves, lane));
            ++c.nodes;
            const float alpha = best.index < 0 ? -kAlphaBetaInfinity : float_below(best.value);
            // One call site of negamax (each is compiled with its own frames): the child's
            // window (alpha, +inf) for the searching seat, negated when the other seat moves.
            const bool ours = game.to_move(child) == root_seat;
            const float child_value = alpha_beta_detail::negamax<G, MaxDepth, NeverStop, OrderCap>(
                c, child, plies - 1, 1, ours ? alpha : -kAlphaBetaInfinity,
                ours ? kAlphaBetaInfinity : -alpha, stop);
            const float v = ours ? child_value : -child_value;
            LaneCandidate mine;
            mine.value = v;
            mine.draw = philox(at.seed, Purpose::PlayerTieBreak, at.game, at.ply,
                               static_cast<uint32_t>(k), 0)
                            .v[0];
            mine.index = k;
            if (lane_better(mine, best)) best = mine;
        });
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
    const LaneCandidate best = lanes.best_of(candidates);
    AlphaBetaResult<G> result;
    result.move = game.nth_move(p, best.index);
    result.value = best.value;
    result.depth = plies;  // nodes are not counted (each lane saw only its own)
    return result;
}

// Whether G's searching players are the default alpha-beta, which the lane group can share
// (games with their own searching weighted_move, Risk and Gomoku, search one game per thread).
template <class G>
constexpr bool lane_searchable_v = has_features_v<G> && !has_weighted_move_v<G>;

namespace detail {
template <class G, class = void>
struct has_lane_weighted_move : std::false_type {};
template <class G>
struct has_lane_weighted_move<
    G, void_t<decltype(std::declval<const G&>().lane_weighted_move(
           std::declval<const Lanes<1>&>(), std::declval<const typename G::Pos&>(),
           std::declval<const float*>(), 0, std::declval<const DrawAddress&>()))>>
    : std::true_type {};
}  // namespace detail

// Whether G's own searching weighted_move has a lane-group form, `template <int L> Move
// lane_weighted_move(const Lanes<L>&, const Pos&, const float* weights, int depth, const
// DrawAddress&) const`, the same move as weighted_move in every lane (Risk: games/risk/
// lane_agent.hpp).
template <class G>
constexpr bool has_lane_weighted_move_v = detail::has_lane_weighted_move<G>::value;

// play_match_seated<G, kSet> over a lane group: the same record (moves, outcome, move hash)
// with every searching move found by lane_alpha_beta (kSet Search) and every one-ply weighted
// move by lane_one_ply_weighted_move, or, for a game with its own lane_weighted_move, every
// weighted move by that; moves of the other players (random, policies) are chosen as the
// playout form chooses them (every lane the same). Every lane returns the record.
template <class G, int L, PlayerSet kSet = PlayerSet::Search>
GAEVAL_HD GameRecord play_match_lanes(const Lanes<L>& lanes, const G& game,
                                      const typename G::Pos& start, const Player<G>& a,
                                      const Player<G>& b, int a_seat, uint64_t seed, uint32_t index,
                                      uint32_t max_plies) {
    static_assert(kSet != PlayerSet::Playout, "playouts have nothing to share");
    if constexpr (has_lane_weighted_move_v<G>) {
        static_assert(kSet == PlayerSet::Search, "the game's weighted player always searches");
        return play_match_by(
            game, start, a, b, a_seat, seed, index, max_plies,
            [&](const typename G::Pos& p, const Player<G>& mover, const DrawAddress& at) {
                if (mover.kind == PlayerKind::Weighted && game.count_moves(p) > 1)
                    return game.lane_weighted_move(lanes, p, mover.weights, int(mover.depth), at);
                return choose_move<G, PlayerSet::Playout>(game, p, mover, at);
            });
    } else {
        static_assert(lane_searchable_v<G> && lane_one_ply_v<G>,
                      "the lane group shares the default alpha-beta and one-ply player only");
        return play_match_by(
            game, start, a, b, a_seat, seed, index, max_plies,
            [&](const typename G::Pos& p, const Player<G>& mover, const DrawAddress& at) {
                if (mover.kind == PlayerKind::Weighted && game.count_moves(p) > 1) {
                    if constexpr (kSet == PlayerSet::Search) {
                        if (player_searches<G>(mover))
                            return lane_alpha_beta<G, L>(lanes, game, p, mover.weights,
                                                         int(mover.depth), at)
                                .move;
                    }
                    return lane_one_ply_weighted_move<G, L>(lanes, game, p, mover.weights, at);
                }
                return choose_move<G, PlayerSet::Playout>(game, p, mover, at);
            });
    }
}

// play_match_lanes<G, L, PlayerSet::Weighted> in scratch (lane_one_ply_in_scratch_v), in each
// lane the scratch the one-thread form plays in (play_scratch_t<G, PlayerSet::Weighted>: the cpu
// runs a lane shape as that form, in a buffer of the same size), each lane its own copy of the
// same values: the position dealt into it and made in place, the one-ply weighted moves by
// lane_one_ply_weighted_move_in_scratch, the other players' as play_match_in_scratch chooses
// them (the policies in the scratch). The same record, in every lane. A player draws at
// address(at) for the match's address at, as in play_match_in_scratch_at.
template <class G, int L, class Address = SameAddress>
GAEVAL_HD GameRecord play_match_lanes_in_scratch(const Lanes<L>& lanes, const G& game,
                                                 const typename G::Pos& start, const Player<G>& a,
                                                 const Player<G>& b, int a_seat, uint64_t seed,
                                                 uint32_t index, uint32_t max_plies,
                                                 const ThreadScratch& scratch,
                                                 const Address& address = {}) {
    static_assert(lane_one_ply_in_scratch_v<G>, "the game's lanes play one ply in scratch");
    using Scratch = play_scratch_t<G, PlayerSet::Weighted>;
    Scratch& s = scratch.as<Scratch>();
    game.start_match_in(s, start, seed, index);
    return play_moves(
        game, s.pos, a, b, a_seat, seed, index, max_plies,
        [&](const typename G::Pos& p, const Player<G>& mover, const DrawAddress& at) {
            if (mover.kind == PlayerKind::Weighted && count_moves_in_scratch(game, p, s) > 1)
                return lane_one_ply_weighted_move_in_scratch<G, L>(lanes, game, p, mover.weights,
                                                                   address(at), s);
            return choose_playout_move<G, PlayerSet::Playout>(game, p, mover, address(at), s);
        },
        [&](typename G::Pos& q, const typename G::Move& m) { game.make_in_place(q, m); });
}

}  // namespace gaeval
