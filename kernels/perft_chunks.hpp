// Plain C++ (g++ and nvcc) arithmetic of the device perft's memory budget, tested on the CPU
// (tests/test_perft_chunks.cpp): how the parents of one level are grouped so that the children
// of each group fit the budget.
#pragma once

#include <cstdint>
#include <vector>

namespace gaeval::cuda {

// Parents [begin, end) of a level, expanded together.
struct ParentRun {
    uint64_t begin = 0;
    uint64_t end = 0;
};

// Splits parents [0, n) into runs of consecutive parents whose children number at most `fit`
// together, each run as long as it can be (the fewest runs); a parent with more than `fit`
// children forms a run alone. offsets[i] is the first child of parent i (an exclusive scan of
// the child counts) and `total` the number of children of all n parents.
inline std::vector<ParentRun> parent_runs(const uint64_t* offsets, uint64_t n, uint64_t total,
                                          uint64_t fit) {
    std::vector<ParentRun> runs;
    auto offset_at = [&](uint64_t i) { return i < n ? offsets[i] : total; };
    for (uint64_t begin = 0; begin < n;) {
        uint64_t end = begin + 1;
        while (end < n && offset_at(end + 1) - offsets[begin] <= fit) ++end;
        runs.push_back({begin, end});
        begin = end;
    }
    return runs;
}

// Bytes of device memory one level of positions may take: `override_bytes` when non-zero
// (GAEVAL_PERFT_BUDGET, to test the chunked branches), else a quarter of what is free now
// (read again at every level: the levels above keep their arrays).
inline std::size_t level_budget(std::size_t override_bytes, std::size_t free_bytes) {
    return override_bytes ? override_bytes : free_bytes / 4;
}

}  // namespace gaeval::cuda
