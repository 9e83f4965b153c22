// Perft on the device: frontier expansion (CUB/Thrust scan) then one thread per subtree.
#include <thrust/execution_policy.h>
#include <thrust/reduce.h>
#include <thrust/scan.h>

#include <algorithm>
#include <stdexcept>
#include <vector>

#include "games/core/perft.hpp"
#include "games/registry.hpp"
#include "kernels/batch.hpp"
#include "kernels/cuda_api.hpp"
#include "kernels/device_game.cuh"
#include "kernels/launch.cuh"
#include "kernels/perft_chunks.hpp"

namespace gaeval::cuda {

namespace {

// Subtrees that fill a device: with fewer, the frontier is expanded one more level.
constexpr uint64_t kTargetSubtrees = uint64_t{1} << 21;

template <class G>
struct ChildCountOp {
    G game;
    const typename G::Pos* parents;
    uint64_t* counts;
    __device__ void operator()(uint64_t i) const {
        counts[i] = child_count(game, parents[i]);
    }
};

// Writes the children of parents[i] from children[offsets[i] - first_offset] on.
template <class G>
struct WriteChildrenOp {
    G game;
    const typename G::Pos* parents;
    const uint64_t* offsets;
    uint64_t first_offset;
    typename G::Pos* children;
    __device__ void operator()(uint64_t i) const {
        uint64_t k = offsets[i] - first_offset;
        for_each_child(game, parents[i],
                             [&](const typename G::Pos& child) { children[k++] = child; });
    }
};

template <class G>
struct SubtreeOp {
    G game;
    const typename G::Pos* roots;
    int depth;
    uint64_t* nodes;
    __device__ void operator()(uint64_t i) const {
        nodes[i] = perft_shallow(game, roots[i], depth);
    }
};

uint64_t download_one(const uint64_t* device_value) {
    uint64_t value = 0;
    copy_to_host(&value, device_value, sizeof value);
    return value;
}

// The exact sum of n device counts (a timed kernel section for the bench).
inline uint64_t device_sum(const uint64_t* counts, uint64_t n) {
    TimedSection timed(TimedWork::Kernel, nullptr);
    return thrust::reduce(thrust::device, counts, counts + n, uint64_t{0});
}

// Leaves `remaining` plies below the n positions of `frontier` (device memory). Positions of
// children are kept within the level's budget (level_budget: `budget_override` bytes, or a
// quarter of the memory free at this level): a level that would not fit is expanded in chunks
// of parents (parent_runs), each counted on its own.
template <class G>
uint64_t count_below(const G& game, const typename G::Pos* frontier, uint64_t n, int remaining,
                     std::size_t budget_override) {
    using Pos = typename G::Pos;
    if (n == 0) return 0;
    const bool shallow = remaining <= kMaxShallowDepth;
    if (shallow && (n >= kTargetSubtrees || remaining <= 1)) {
        DeviceArray<uint64_t> nodes(n);
        for_each_index(SubtreeOp<G>{game, frontier, remaining, nodes.data()}, n);
        return device_sum(nodes.data(), n);
    }
    DeviceArray<uint64_t> counts(n), offsets(n);
    for_each_index(ChildCountOp<G>{game, frontier, counts.data()}, n);
    {
        TimedSection timed(TimedWork::Kernel, nullptr);
        thrust::exclusive_scan(thrust::device, counts.data(), counts.data() + n, offsets.data(),
                               uint64_t{0});
    }
    const uint64_t total =
        download_one(offsets.data() + n - 1) + download_one(counts.data() + n - 1);
    if (total == 0) return 0;
    const std::size_t budget = level_budget(budget_override, free_device_memory());
    const uint64_t fit = std::max<uint64_t>(1, budget / sizeof(Pos));
    if (total <= fit || shallow) {
        if (total > fit) {  // the frontier is already wide: count these subtrees as they are
            DeviceArray<uint64_t> nodes(n);
            for_each_index(SubtreeOp<G>{game, frontier, remaining, nodes.data()}, n);
            return device_sum(nodes.data(), n);
        }
        DeviceArray<Pos> children(total);
        for_each_index(WriteChildrenOp<G>{game, frontier, offsets.data(), 0, children.data()}, n);
        return count_below(game, children.data(), total, remaining - 1, budget_override);
    }
    // Chunks of consecutive parents whose children fit the budget (at least one parent each).
    std::vector<uint64_t> host_offsets(n);
    offsets.download(host_offsets.data(), n);
    auto offset_at = [&](uint64_t i) { return i < n ? host_offsets[i] : total; };
    uint64_t nodes = 0;
    for (const ParentRun& run : parent_runs(host_offsets.data(), n, total, fit)) {
        const uint64_t run_total = offset_at(run.end) - host_offsets[run.begin];
        if (run_total > 0) {
            DeviceArray<Pos> children(run_total);
            for_each_index(WriteChildrenOp<G>{game, frontier + run.begin, offsets.data() + run.begin,
                                              host_offsets[run.begin], children.data()},
                           run.end - run.begin);
            nodes += count_below(game, children.data(), run_total, remaining - 1, budget_override);
        }
    }
    return nodes;
}

}  // namespace

template <class G>
uint64_t perft(const G& host_game, const typename G::Pos& root, int depth,
               std::size_t budget_bytes) {
    if constexpr (!has_perft_v<G>) {
        throw std::logic_error("perft: this game has no perft");
    } else {
        using Pos = typename G::Pos;
        DeviceGame<G> bound(host_game);
        DeviceArray<Pos> frontier(1);
        frontier.upload(&root, 1);
        const uint64_t nodes = count_below(bound.game(), frontier.data(), 1, depth, budget_bytes);
        synchronize();
        return nodes;
    }
}

#define GAEVAL_INSTANTIATE_PERFT(G) \
    template uint64_t perft<G>(const G&, const G::Pos&, int, std::size_t);
GAEVAL_FOR_EACH_GAME_TYPE(GAEVAL_INSTANTIATE_PERFT)
#undef GAEVAL_INSTANTIATE_PERFT

}  // namespace gaeval::cuda
