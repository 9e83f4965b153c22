// Perft: the number of leaf nodes of the move tree to a depth, with the conventions of the
// published Ataxx counts: a pass is one move (when the side cannot move and the game is not
// over), a finished game has no children, and the last ply is counted in bulk (move counts,
// no make-move). Bit-identical across backends: integer counts only.
#pragma once

#include <cstdint>

#include "games/core/hd.hpp"
#include "games/grid/rules.hpp"

// Perft levels are real calls in device code (inlining every level multiplies the code by the
// branching of each call site: minutes of nvcc per variant) and inline on the host (g++).
#if defined(__CUDACC__)
#define GAEVAL_GRID_PERFT_LEVEL __host__ __device__ __noinline__
#else
#define GAEVAL_GRID_PERFT_LEVEL inline
#endif

namespace gaeval::grid {

// Bit-identical across backends: integer counts of the shared move generation.
// Number of children of p: 0 when the game is over, 1 for a forced pass, else the move count.
template <class G>
GAEVAL_HD_INLINE uint64_t child_count(const G& game, const typename G::Pos& p) {
    if (game.decided(p)) return 0;
    const int moves = game.count_moves(p);
    if (moves > 0) return static_cast<uint64_t>(moves);
    return game.anyone_can_move(p) ? 1 : 0;
}

// Calls f(child) for each child of p in move order (a lone pass child for a forced pass, none
// when the game is over).
template <class G, class F>
GAEVAL_HD_INLINE void for_each_child(const G& game, const typename G::Pos& p, F&& f) {
    if (game.decided(p)) return;
    bool any_move = false;
    game.for_each_move(p, [&](Move m) {
        any_move = true;
        f(game.make(p, m));
    });
    if (!any_move && game.anyone_can_move(p)) f(game.make(p, Move::pass()));
}

// Perft at a depth fixed at compile time: no recursion, so device code needs no call stack.
template <int Depth>
struct PerftFixed {
    template <class G>
    GAEVAL_GRID_PERFT_LEVEL static uint64_t run(const G& game, const typename G::Pos& p) {
        uint64_t nodes = 0;
        for_each_child(game, p, [&](const typename G::Pos& c) {
            nodes += PerftFixed<Depth - 1>::run(game, c);
        });
        return nodes;
    }
};
template <>
struct PerftFixed<1> {
    template <class G>
    GAEVAL_HD_INLINE static uint64_t run(const G& game, const typename G::Pos& p) {
        return child_count(game, p);
    }
};
template <>
struct PerftFixed<0> {
    template <class G>
    GAEVAL_HD_INLINE static uint64_t run(const G&, const typename G::Pos&) {
        return 1;
    }
};

// Deepest depth perft_shallow handles (the depth of one device thread's subtree).
constexpr int kMaxShallowDepth = 5;

// Bit-identical across backends: what one device thread or one CPU task counts.
// Perft for depth in [0, kMaxShallowDepth] without recursion (0 for other depths).
template <class G>
GAEVAL_HD uint64_t perft_shallow(const G& game, const typename G::Pos& p, int depth) {
    switch (depth) {
        case 0:
            return PerftFixed<0>::run(game, p);
        case 1:
            return PerftFixed<1>::run(game, p);
        case 2:
            return PerftFixed<2>::run(game, p);
        case 3:
            return PerftFixed<3>::run(game, p);
        case 4:
            return PerftFixed<4>::run(game, p);
        case 5:
            return PerftFixed<5>::run(game, p);
        default:
            return 0;
    }
}

// Perft for any depth >= 0 (recursive above kMaxShallowDepth: host code only).
template <class G>
uint64_t perft(const G& game, const typename G::Pos& p, int depth) {
    if (depth <= kMaxShallowDepth) return perft_shallow(game, p, depth);
    uint64_t nodes = 0;
    for_each_child(game, p, [&](const typename G::Pos& c) { nodes += perft(game, c, depth - 1); });
    return nodes;
}

}  // namespace gaeval::grid
