// The launch shape of an index-parallel kernel, chosen per kernel and per launch: plain C++
// (g++ and nvcc), pure functions of the numbers the CUDA runtime gives (kernels/executor.cuh and
// kernels/launch.cuh feed them from cudaOccupancyMaxActiveBlocksPerMultiprocessor and the
// device's multiprocessor count), so that the CPU tests check every choice
// (tests/test_launch_config.cpp). Results never depend on it: every kernel runs a grid-stride
// loop over its indices, lane groups are aligned tiles of a warp (blocks are multiples of 32),
// and no launched op shares memory between threads or reads the block index (a task with scratch
// gets its own slice of shared memory: scratch_block_cap).
#pragma once

#include <cstdint>

namespace gaeval::cuda {

// Block sizes are multiples of one warp up to the 1024 threads a block may hold.
constexpr int kWarp = 32;
constexpr int kMaxBlock = 1024;
constexpr int kBlockSizes = kMaxBlock / kWarp;  // 32 candidate sizes: 32, 64, ..., 1024
// The block of the fixed launch (before issue 30), and of the kernels with launch bounds.
constexpr int kDefaultBlock = 256;
// A grid holds at most this many threads a multiprocessor (the fixed launch's 16 blocks of 256);
// the grid-stride loop does the rest.
constexpr int kGridThreadsPerMultiprocessor = 4096;

// Resident blocks a multiprocessor holds of one kernel, per block size: blocks[k] for blocks of
// 32 * (k + 1) threads (0: that size cannot launch, e.g. over the kernel's register budget).
struct Occupancy {
    int blocks[kBlockSizes] = {};
    int at(int block) const { return blocks[block / kWarp - 1]; }
    int warps(int block) const { return at(block) * (block / kWarp); }  // per multiprocessor
};

struct LaunchShape {
    int block = 0;      // threads a block
    uint32_t grid = 0;  // blocks
};

// The step between block sizes for lane groups of `lanes` threads: a multiple of one warp (so
// a group never straddles two warps) and of the group.
inline int block_step(int lanes) { return lanes > kWarp ? lanes : kWarp; }

// Warp schedulers (sub-partitions) of a multiprocessor; registers are allocated in each.
constexpr int kSubPartitions = 4;

// The block that keeps the most warps resident on a multiprocessor for this kernel, a multiple
// of block_step(lanes); among sizes with as many warps, one whose warps split evenly over the
// sub-partitions, then the largest not above kDefaultBlock, then the smallest above it (so
// kernels that fill a multiprocessor at any size keep kDefaultBlock). 0 when no size launches.
inline int block_for_occupancy(const Occupancy& occupancy, int lanes = 1) {
    struct Rank {
        int warps = 0, even = 0, side = 0;
        bool operator>(const Rank& o) const {
            if (warps != o.warps) return warps > o.warps;
            if (even != o.even) return even > o.even;
            return side > o.side;
        }
    };
    const int step = block_step(lanes);
    int best = 0;
    Rank best_rank;
    for (int block = step; block <= kMaxBlock; block += step) {
        const Rank rank{occupancy.warps(block), (block / kWarp) % kSubPartitions == 0,
                        block <= kDefaultBlock ? block : -block};
        if (rank.warps > 0 && rank > best_rank) best = block, best_rank = rank;
    }
    return best;
}

// Blocks of `block` threads for `threads` threads: enough for every thread, at most
// kGridThreadsPerMultiprocessor threads a multiprocessor.
inline uint32_t grid_blocks(uint64_t threads, int multiprocessors, int block) {
    const uint64_t need = (threads + block - 1) / block;
    const int per_multiprocessor = kGridThreadsPerMultiprocessor / block;
    const uint64_t cap = static_cast<uint64_t>(multiprocessors) *
                         static_cast<uint64_t>(per_multiprocessor > 0 ? per_multiprocessor : 1);
    return static_cast<uint32_t>(need < cap ? need : cap);
}

// The launch of `threads` threads (tasks times `lanes`) on `multiprocessors` multiprocessors:
// the block of block_for_occupancy, then, when its grid would leave multiprocessors without a
// block, the largest smaller size (a multiple of block_step(lanes), at least one warp) whose grid
// gives every multiprocessor one, or one step when none does; the grid of grid_blocks.
// `forced_block` > 0 (GAEVAL_CUDA_BLOCK, a multiple of block_step(lanes)) is that block for
// every launch (the fixed launch of before at 256), or the largest smaller size the kernel can
// launch where it cannot launch that one. {0, 0} when threads is 0 or no size launches.
inline LaunchShape choose_launch(uint64_t threads, int multiprocessors, const Occupancy& occupancy,
                                 int lanes = 1, int forced_block = 0) {
    LaunchShape shape;
    if (threads == 0 || multiprocessors <= 0) return shape;
    const int step = block_step(lanes);
    int block = forced_block;
    if (block > 0) {
        while (block > step && occupancy.at(block) == 0) block -= step;
        if (occupancy.at(block) == 0) return shape;
    } else {
        block = block_for_occupancy(occupancy, lanes);
        if (block == 0) return shape;
        const uint64_t sms = static_cast<uint64_t>(multiprocessors);
        while (block > step && (threads + block - 1) / block < sms &&
               occupancy.at(block - step) > 0)
            block -= step;
    }
    shape.block = block;
    shape.grid = grid_blocks(threads, multiprocessors, block);
    return shape;
}

// The largest block (a multiple of kWarp, at most kMaxBlock) whose threads' scratch
// (`scratch_bytes` a thread of dynamic shared memory: games/core/scratch.hpp) fits the
// `shared_bytes` a block may have; 0 when not even one warp's does (the launch refuses that
// kernel: kernels/cuda_api.cu). Sizes above it cannot launch (their occupancy counts 0).
inline int scratch_block_cap(int scratch_bytes, int shared_bytes) {
    if (scratch_bytes <= 0) return kMaxBlock;
    const int64_t fits = static_cast<int64_t>(shared_bytes > 0 ? shared_bytes : 0) / scratch_bytes;
    const int64_t block = (fits < kMaxBlock ? fits : kMaxBlock) / kWarp * kWarp;
    return static_cast<int>(block);
}

// GAEVAL_CUDA_BLOCK's value: "" or "auto" -> 0 (chosen per kernel and launch), a multiple of 32
// from 32 to 1024 -> that block for every launch, anything else -> -1 (the cuda backend refuses
// it: host/backend/backend.cpp).
inline int parse_block_override(const char* text) {
    if (text == nullptr || *text == '\0') return 0;
    const char* a = "auto";
    const char* t = text;
    while (*a && *t == *a) ++a, ++t;
    if (*a == '\0' && *t == '\0') return 0;
    int value = 0;
    for (t = text; *t; ++t) {
        if (*t < '0' || *t > '9' || value > kMaxBlock) return -1;
        value = value * 10 + (*t - '0');
    }
    if (value < kWarp || value > kMaxBlock || value % kWarp != 0) return -1;
    return value;
}

}  // namespace gaeval::cuda
