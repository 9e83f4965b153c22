// Perft on the chosen backend: the cpu counts subtrees on OpenMP threads, the cuda backend expands
// the tree level by level on the device (kernels/batch_perft.cu). A backend algorithm rather than
// an executor op: the two sides split the tree differently (the counts are exact on both).
#pragma once

#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "games/core/perft.hpp"
#include "host/backend/backend.hpp"
#include "host/backend/parallel.hpp"
#include "host/core/error.hpp"
#include "kernels/batch.hpp"

namespace gaeval {

namespace perft_detail {

// Trees with fewer leaves than this (an estimate) are counted on one thread: about 0.3 ms of
// work at 3 G nodes/s, a few times the cost of waking sleeping OpenMP threads.
constexpr uint64_t kPerftParallelLeaves = uint64_t{1} << 20;

// Perft on the cpu backend: serial on one thread; otherwise the tree is expanded breadth-first
// until there are a few dozen subtrees per thread (each still a real search, not a ~100 ns
// leaf: a dynamic schedule pays an atomic per task), which the threads count (dynamic
// schedule), and the counts are summed in index order. A tree too small to gain (its leaves
// estimated from the frontier's branching) is counted on one thread.
template <class G>
uint64_t perft_cpu(const G& game, const typename G::Pos& root, int depth, int threads) {
    using Pos = typename G::Pos;
    if (threads <= 1 || depth <= 3) return gaeval::perft(game, root, depth);
    std::vector<Pos> frontier{root};
    int remaining = depth;
    const std::size_t enough = 32 * static_cast<std::size_t>(threads);
    while (remaining > 3 && frontier.size() < enough) {
        std::vector<Pos> next;
        for (const Pos& p : frontier)
            for_each_child(game, p, [&](const Pos& c) { next.push_back(c); });
        frontier.swap(next);
        --remaining;
        if (frontier.empty()) return 0;
    }
    // Leaves ~ frontier * b^remaining with b the branching one level below the frontier.
    uint64_t children = 0;
    for (const Pos& p : frontier) children += child_count(game, p);
    const double frontier_nodes = static_cast<double>(frontier.size());
    const double branching = static_cast<double>(children) / frontier_nodes;
    double leaves = frontier_nodes;
    for (int level = 0; level < remaining && leaves < kPerftParallelLeaves; ++level)
        leaves *= branching;
    std::vector<uint64_t> nodes(frontier.size());
    const int use = leaves < static_cast<double>(kPerftParallelLeaves) ? 1 : threads;
    parallel_for_dynamic(static_cast<int64_t>(frontier.size()), use, [&](int64_t i) {
        nodes[i] = gaeval::perft(game, frontier[i], remaining);
    });
    uint64_t total = 0;
    for (uint64_t n : nodes) total += n;
    return total;
}

}  // namespace perft_detail

// GAEVAL_PERFT_BUDGET=BYTES caps the device perft's positions per level (to test its chunked
// branches on small trees); unset: a quarter of the device memory free at each level (0).
inline std::size_t perft_budget_override() {
    const char* text = std::getenv("GAEVAL_PERFT_BUDGET");
    if (!text || !*text) return 0;
    char* end = nullptr;
    errno = 0;
    const unsigned long long bytes = std::strtoull(text, &end, 10);
    if (errno || *end || text[0] == '-' || bytes == 0)
        throw InputError(std::string("GAEVAL_PERFT_BUDGET: '") + text +
                         "' is not a positive number of bytes");
    return static_cast<std::size_t>(bytes);
}

// Leaf count of the move tree of `root` to `depth` (>= 0); exact on any backend.
template <class G>
uint64_t perft_on(const BackendChoice& backend, const G& game, const typename G::Pos& root,
                  int depth) {
    static_assert(has_perft_v<G>, "this game has no perft");
    if (backend.kind == BackendKind::Cuda)
        return cuda::perft(game, root, depth, perft_budget_override());
    return perft_detail::perft_cpu(game, root, depth, backend.threads);
}

}  // namespace gaeval
