// Perft for any game: the number of leaf nodes of the move tree to a depth. A finished game has
// no children, a forced pass is one move, and the last ply is counted in bulk (move counts, no
// make-move). A game may supply child_count / for_each_child (games/core/game.hpp) when it has a
// faster way; integer counts only.
#pragma once

#include <cstdint>

#include "games/core/game.hpp"
#include "games/core/hd.hpp"

// Perft levels are real calls in device code (inlining every level multiplies the code by the
// branching of each call site: minutes of nvcc per game) and inline on the host (g++).
#if defined(__CUDACC__)
#define GAEVAL_PERFT_LEVEL __host__ __device__ __noinline__
#else
#define GAEVAL_PERFT_LEVEL inline
#endif

namespace gaeval {

// Number of children of p: 0 when the game is over, else its legal moves.
template <class G>
GAEVAL_HD_FORCEINLINE uint64_t child_count(const G& game, const typename G::Pos& p) {
    if constexpr (has_child_count_v<G>) {
        return game.child_count(p);
    } else {
        return game.is_over(p) ? 0 : static_cast<uint64_t>(game.count_moves(p));
    }
}

// Calls f(child) for each child of p in move order (none when the game is over).
template <class G, class F>
GAEVAL_HD_FORCEINLINE void for_each_child(const G& game, const typename G::Pos& p, F&& f) {
    if constexpr (has_child_count_v<G>) {
        game.for_each_child(p, f);
    } else {
        if (game.is_over(p)) return;
        game.for_each_move(p, [&](const typename G::Move& m) { f(game.make(p, m)); });
    }
}

// Perft at a depth fixed at compile time: no recursion, so device code needs no call stack.
template <int Depth>
struct PerftFixed {
    template <class G>
    GAEVAL_PERFT_LEVEL static uint64_t run(const G& game, const typename G::Pos& p) {
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
    GAEVAL_HD_FORCEINLINE static uint64_t run(const G& game, const typename G::Pos& p) {
        return child_count(game, p);
    }
};
template <>
struct PerftFixed<0> {
    template <class G>
    GAEVAL_HD_FORCEINLINE static uint64_t run(const G&, const typename G::Pos&) {
        return 1;
    }
};

// Deepest depth perft_shallow handles (the depth of one device thread's subtree).
constexpr int kMaxShallowDepth = 5;

// Perft for depth in [0, kMaxShallowDepth] without recursion (0 for other depths): what one
// device thread or one CPU task counts.
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

}  // namespace gaeval
