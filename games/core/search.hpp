// The searching weighted player: alpha-beta (negamax form, fail-soft) over any game of the
// plug-in interface that has features (games/core/game.hpp), with the weighted sum of the
// features at the leaves, seen by the searching seat (as the one-ply player sees them). Seats
// other than the searching one minimise its score (with more than two seats: "paranoid"
// search). No recursion and no heap: an explicit stack of MaxDepth frames of fixed size, so a
// GPU thread can run a whole match of searching players. Iterative deepening from depth 1 with
// the previous iteration's best move searched first; inside the tree, children are ordered by
// their static score (nodes with at least two plies left). A node budget and a stop test (the
// host's clock; never on the device) end the search early; the result is then that of the
// last completed depth.
//
// Ties at the root: every move whose value equals the best (searched with a window just below
// the best so equal values are exact) is a candidate; the one with the lowest addressed draw
// (key = seed, counter = (game, ply, natural move index)) wins, equal draws to the lower natural
// index, so the choice does not depend on the search order.
#pragma once

#include <cstdint>

#include "games/core/game.hpp"
#include "games/core/hd.hpp"
#include "games/core/math.hpp"
#include "games/core/rng.hpp"

namespace gaeval {

// Sum of weights[i] * values[i] in index order (float * and +, no contraction).
template <int N>
GAEVAL_HD_INLINE float weighted_score(const float* weights, const float* values) {
    float total = 0.0f;
    for (int i = 0; i < N; ++i) {
        const float term = weights[i] * values[i];
        total = total + term;
    }
    return total;
}

// Deepest search of a player (PlayerSpec::depth, player files, learn --depth).
constexpr int kPlayerMaxSearchDepth = 8;
// Moves a node orders; a node with more moves searches them in move order. Ordering changes
// only the nodes searched, never a fixed-depth search's move or value (alpha-beta's value does
// not depend on move order, and root ties are broken by draws): a smaller cap (a smaller stack)
// plays the same games.
constexpr int kAlphaBetaOrderCap = 256;
// Score of a won game for the searching seat at ply 0 (a win k plies deeper scores kAlphaBetaWin -
// k: sooner wins first). Float spacing at 1e7 is 1, so every ply is exact; weighted scores of
// the games here stay far below.
constexpr float kAlphaBetaWin = 1.0e7f;
constexpr float kAlphaBetaInfinity = 3.0e38f;

// The largest float below x (x finite, not -kAlphaBetaInfinity): the root's window edge that
// makes a move equal to the best one come back exact.
GAEVAL_HD_INLINE float float_below(float x) {
    if (x == 0.0f) return -1.0e-45f;  // the smallest negative subnormal
    uint32_t u = float_bits(x);
    u = x > 0.0f ? u - 1 : u + 1;
#if GAEVAL_DEVICE_PASS
    return __uint_as_float(u);
#else
    float f;
    std::memcpy(&f, &u, sizeof f);
    return f;
#endif
}

// What the search was asked: depth (1 .. MaxDepth) and a node budget (0: none; nodes are
// positions made). Depth 1 is always completed.
struct AlphaBetaLimits {
    int depth = 1;
    uint64_t nodes = 0;
};

template <class G>
struct AlphaBetaResult {
    typename G::Move move{};
    float value = 0.0f;    // for the searching seat, at the completed depth
    int depth = 0;         // deepest completed iteration
    uint64_t nodes = 0;    // positions made, all iterations
    bool stopped = false;  // the budget or the stop test ended it early
};

// Never stops (the device and fixed-depth players).
struct NeverStop {
    GAEVAL_HD_INLINE bool operator()() const { return false; }
};
// Reports nothing (the device and fixed-depth players).
struct NoIterationReport {
    template <class R>
    GAEVAL_HD_INLINE void operator()(const R&) const {}
};

namespace alpha_beta_detail {

template <class G>
struct Context {
    const G* game;
    const float* weights;
    int root_seat;
    uint64_t nodes;
    uint64_t node_limit;  // 0: none
    uint64_t next_check;  // node count at which stop() is asked next
    bool aborted;
};

// Whether the search must end now: the node budget is spent or (every 1024 nodes) stop().
template <class G, class Stop>
GAEVAL_HD_INLINE bool out_of_budget(Context<G>& c, Stop& stop) {
    if (c.node_limit != 0 && c.nodes >= c.node_limit) return true;
    if (c.nodes < c.next_check) return false;
    c.next_check = c.nodes + 1024;
    return stop();
}

// +1 where the searching seat moves, -1 elsewhere: a node's negamax value is sign * (value for
// the searching seat).
template <class G>
GAEVAL_HD_INLINE float side_sign(const Context<G>& c, const typename G::Pos& p) {
    return c.game->to_move(p) == c.root_seat ? 1.0f : -1.0f;
}

// Value of p for the searching seat without search: the game's result when it is over (sooner
// wins and later losses first: `ply` plies below the root), else the weighted features.
template <class G>
GAEVAL_HD_INLINE float static_value(const Context<G>& c, const typename G::Pos& p, int ply) {
    if (c.game->is_over(p)) {
        const SeatResult r = c.game->seat_result(p, c.root_seat);
        const float win = kAlphaBetaWin - static_cast<float>(ply);
        return r == SeatResult::Win ? win : (r == SeatResult::Loss ? -win : 0.0f);
    }
    float values[G::kFeatureCount];
    c.game->features(p, c.root_seat, values);
    return weighted_score<G::kFeatureCount>(c.weights, values);
}

// Negamax value of p (not over) one ply above the leaves, in the window (alpha, beta).
template <class G>
GAEVAL_HD float frontier(Context<G>& c, const typename G::Pos& p, int ply, float alpha,
                         float beta) {
    const float sign = side_sign(c, p);
    float best = -kAlphaBetaInfinity;
    bool cut = false;
    c.game->for_each_move(p, [&](const typename G::Move& m) {
        if (cut) return;
        const typename G::Pos child = c.game->make(p, m);
        ++c.nodes;
        const float v = sign * static_value(c, child, ply + 1);
        if (best < v) best = v;
        if (alpha < v) alpha = v;
        if (!(alpha < beta)) cut = true;
    });
    return best;
}

// One node of the explicit stack: its position, its moves (ordered by static score when there
// are at most OrderCap), the next to search, and its window.
template <class G, int OrderCap = kAlphaBetaOrderCap>
struct Frame {
    typename G::Pos pos;
    typename G::Move moves[OrderCap];
    float keys[OrderCap];
    int count;     // legal moves
    int searched;  // moves searched so far
    int left;      // plies left below this node (>= 2)
    int ply;       // plies below the root
    float alpha, beta, best;
    float sign;    // side_sign of pos
    bool flip;     // the parent's sign differs: the parent sees -best
    bool ordered;  // moves[] holds every move (count <= OrderCap)
};

template <class G, int OrderCap>
GAEVAL_HD_INLINE void open_frame(Context<G>& c, Frame<G, OrderCap>& f, const typename G::Pos& p,
                                 int left, int ply, float alpha, float beta, bool flip) {
    f.pos = p;
    f.left = left;
    f.ply = ply;
    f.alpha = alpha;
    f.beta = beta;
    f.best = -kAlphaBetaInfinity;
    f.sign = side_sign(c, p);
    f.flip = flip;
    f.searched = 0;
    f.count = c.game->count_moves(p);
    f.ordered = f.count <= OrderCap;
    if (!f.ordered) return;
    int n = 0;
    c.game->for_each_move(p, [&](const typename G::Move& m) {
        f.moves[n] = m;
        f.keys[n] = f.sign * static_value(c, c.game->make(p, m), ply + 1);
        ++n;
    });
}

// The next move of f: the unsearched one with the highest key (ties: move order), swapped to
// position f.searched; or the next in move order when f is not ordered.
template <class G, int OrderCap>
GAEVAL_HD_INLINE typename G::Move next_move(const Context<G>& c, Frame<G, OrderCap>& f) {
    const int k = f.searched++;
    if (!f.ordered) return c.game->nth_move(f.pos, k);
    int pick = k;
    for (int i = k + 1; i < f.count; ++i)
        if (f.keys[pick] < f.keys[i]) pick = i;
    if (pick != k) {
        swap(f.moves[k], f.moves[pick]);
        swap(f.keys[k], f.keys[pick]);
    }
    return f.moves[k];
}

// Negamax value (fail-soft) of p for the side to move there (sign * value for the searching
// seat), `left` plies deep, in the window (alpha, beta); `ply` plies below the root. Sets
// c.aborted (the value is then meaningless) when the node budget runs out. The stack holds
// MaxDepth - 1 frames of OrderCap moves each.
template <class G, int MaxDepth, class Stop, int OrderCap = kAlphaBetaOrderCap>
GAEVAL_HD float negamax(Context<G>& c, const typename G::Pos& p, int left, int ply, float alpha,
                        float beta, Stop& stop) {
    if (left <= 0 || c.game->is_over(p)) return side_sign(c, p) * static_value(c, p, ply);
    if (left == 1) return frontier(c, p, ply, alpha, beta);
    Frame<G, OrderCap> stack[MaxDepth > 1 ? MaxDepth - 1 : 1];
    int sp = 0;
    open_frame(c, stack[0], p, left, ply, alpha, beta, false);
    while (true) {
        Frame<G, OrderCap>& f = stack[sp];
        if (!c.aborted && out_of_budget(c, stop)) c.aborted = true;
        if (!c.aborted && f.searched < f.count && f.alpha < f.beta) {
            const typename G::Move m = next_move(c, f);
            const typename G::Pos child = c.game->make(f.pos, m);
            ++c.nodes;
            const bool flip = side_sign(c, child) != f.sign;
            const float ca = flip ? -f.beta : f.alpha, cb = flip ? -f.alpha : f.beta;
            float v;
            if (c.game->is_over(child)) {
                v = side_sign(c, child) * static_value(c, child, f.ply + 1);
            } else if (f.left == 2) {
                v = frontier(c, child, f.ply + 1, ca, cb);
            } else {
                open_frame(c, stack[sp + 1], child, f.left - 1, f.ply + 1, ca, cb, flip);
                ++sp;
                continue;
            }
            const float seen = flip ? -v : v;
            if (f.best < seen) f.best = seen;
            if (f.alpha < seen) f.alpha = seen;
            continue;
        }
        // Done with f: hand its value to the parent.
        const float v = f.best;
        if (sp == 0) return v;
        const bool flip = f.flip;
        --sp;
        Frame<G, OrderCap>& parent = stack[sp];
        const float seen = flip ? -v : v;
        if (parent.best < seen) parent.best = seen;
        if (parent.alpha < seen) parent.alpha = seen;
    }
}

}  // namespace alpha_beta_detail

// Alpha-beta search from p (not over, at least one legal move) for the side to move, by
// iterative deepening to limits.depth (clamped to 1 .. MaxDepth). `stop()` is asked every 1024
// nodes (NeverStop: never), `report(result)` after every completed depth. Ties at the root are
// broken by the draws of `at` (see the top of this file).
template <class G, int MaxDepth = kPlayerMaxSearchDepth, class Stop = NeverStop,
          class Report = NoIterationReport>
GAEVAL_HD AlphaBetaResult<G> alpha_beta(const G& game, const typename G::Pos& p,
                                        const float* weights, const AlphaBetaLimits& limits,
                                        const DrawAddress& at, Stop stop = Stop{},
                                        Report report = Report{}) {
    using Move = typename G::Move;
    alpha_beta_detail::Context<G> c{&game, weights, game.to_move(p), 0, 0, 1024, false};
    const int max_depth = clamp(limits.depth, 1, MaxDepth);
    // The root's moves with their natural index, ordered by static value (best first).
    Move moves[kAlphaBetaOrderCap];
    float keys[kAlphaBetaOrderCap];
    int index[kAlphaBetaOrderCap];
    int count = 0;
    game.for_each_move(p, [&](const Move& m) {
        if (count >= kAlphaBetaOrderCap) return;
        moves[count] = m;
        keys[count] = alpha_beta_detail::static_value(c, game.make(p, m), 1);
        index[count] = count;
        ++count;
    });
    for (int i = 1; i < count; ++i)  // insertion sort, stable: ties keep move order
        for (int j = i; j > 0 && keys[j - 1] < keys[j]; --j) {
            swap(moves[j], moves[j - 1]);
            swap(keys[j], keys[j - 1]);
            swap(index[j], index[j - 1]);
        }
    // Moves past the cap (boards of hundreds of cells) come last, in move order.
    const int total = game.count_moves(p);
    AlphaBetaResult<G> result;
    result.move = moves[0];
    for (int depth = 1; depth <= max_depth; ++depth) {
        c.node_limit = depth == 1 ? 0 : limits.nodes;
        float best = -kAlphaBetaInfinity;
        int best_at = 0;
        Move best_move = moves[0];
        uint32_t best_draw = 0;
        int best_natural = 0;
        for (int i = 0; i < total; ++i) {
            if (depth > 1 && out_of_budget(c, stop)) c.aborted = true;
            if (c.aborted) break;
            const Move m = i < count ? moves[i] : game.nth_move(p, i);
            const typename G::Pos child = game.make(p, m);
            ++c.nodes;
            // Fully open window for the first move; then just below the best, so a move equal
            // to the best comes back exact (and a worse one as a bound below the best).
            const float alpha = i == 0 ? -kAlphaBetaInfinity : float_below(best);
            float v;
            if (game.to_move(child) == c.root_seat)
                v = alpha_beta_detail::negamax<G, MaxDepth>(c, child, depth - 1, 1, alpha,
                                                            kAlphaBetaInfinity, stop);
            else
                v = -alpha_beta_detail::negamax<G, MaxDepth>(c, child, depth - 1, 1,
                                                             -kAlphaBetaInfinity, -alpha, stop);
            if (c.aborted) break;
            const int natural = i < count ? index[i] : i;
            const uint32_t draw = philox(at.seed, Purpose::PlayerTieBreak, at.game, at.ply,
                                         static_cast<uint32_t>(natural), 0)
                                      .v[0];
            // Equal values: the lower draw, then (equal draws) the lower natural index, so the
            // choice never depends on the search order (lane_better decides the same way).
            if (i == 0 || best < v ||
                (v == best &&
                 (draw < best_draw || (draw == best_draw && natural < best_natural)))) {
                best = v;
                best_at = i;
                best_move = m;
                best_draw = draw;
                best_natural = natural;
            }
        }
        if (c.aborted) {
            // An unfinished iteration: the last completed one's move stands.
            result.stopped = true;
            break;
        }
        result.move = best_move;
        result.value = best;
        result.depth = depth;
        result.nodes = c.nodes;
        report(result);
        // The best move first next time; the rest keep their order.
        for (int j = best_at < count ? best_at : 0; j > 0; --j) {
            swap(moves[j], moves[j - 1]);
            swap(keys[j], keys[j - 1]);
            swap(index[j], index[j - 1]);
        }
    }
    result.nodes = c.nodes;
    return result;
}

// The move of a weighted player searching `depth` plies (fixed depth, no budget).
template <class G>
GAEVAL_HD typename G::Move alpha_beta_move(const G& game, const typename G::Pos& p,
                                           const float* weights, int depth, const DrawAddress& at) {
    AlphaBetaLimits limits;
    limits.depth = depth;
    return alpha_beta<G>(game, p, weights, limits, at).move;
}

}  // namespace gaeval
