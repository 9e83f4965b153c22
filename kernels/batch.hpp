// Perft on the device, for every game of games/registry.hpp (declared for g++ callers;
// host/backend/perft.hpp is the one caller). Matches, tournaments and evaluate-a-population
// batches need no declaration here: they are executor ops (kernels/batch_ops.hpp). Every call
// synchronizes. A game that reads lookup tables has them copied to the device for the call.
// In a build without CUDA this throws std::logic_error (resolve_backend never picks cuda there).
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>

#include "games/core/match.hpp"
#include "games/core/players.hpp"

namespace gaeval::cuda {

// Leaf count of the move tree of `root` to `depth` (>= 0): the tree is expanded level by level
// on the device (child counts, an exclusive scan, children written at their offsets) until
// there are enough subtrees to fill the device or memory runs short (then in chunks); one
// thread per subtree counts the rest, and the counts are reduced exactly (integers). Each level's
// positions take at most `budget_bytes` (0: a quarter of the memory free at that level).
template <class G>
uint64_t perft(const G& game, const typename G::Pos& root, int depth, std::size_t budget_bytes = 0);

#if !GAEVAL_HAVE_CUDA
[[noreturn]] inline void no_cuda() {
    throw std::logic_error("this gaeval was built without the CUDA backend");
}
template <class G>
uint64_t perft(const G&, const typename G::Pos&, int, std::size_t) {
    no_cuda();
}
#endif

}  // namespace gaeval::cuda
