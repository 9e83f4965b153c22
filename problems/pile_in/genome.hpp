// A pile-in plan: one move per friendly model, gene m moves model m. Genes are 32-bit words
// (int16 dx in the low half, int16 dy in the high half, in Scenario::move_unit_mm units, with
// dx^2 + dy^2 <= MoveScale^2) stored structure-of-arrays: gene m of individual i is at
// genes[m * stride + i], so a warp reading one gene reads contiguous memory.
#pragma once

#include <cstdint>

#include "games/core/hd.hpp"
#include "games/core/math.hpp"
#include "games/core/rng.hpp"
#include "problems/pile_in/scenario.hpp"

namespace gaeval::pile_in {

struct Move {
    int32_t dx = 0, dy = 0;  // gene units
};

GAEVAL_HD_INLINE uint32_t pack_move(Move m) {
    return static_cast<uint32_t>(static_cast<uint16_t>(static_cast<int16_t>(m.dx))) |
           (static_cast<uint32_t>(static_cast<uint16_t>(static_cast<int16_t>(m.dy))) << 16);
}

GAEVAL_HD_INLINE Move unpack_move(uint32_t gene) {
    Move m;
    m.dx = static_cast<int16_t>(static_cast<uint16_t>(gene & 0xffffu));
    m.dy = static_cast<int16_t>(static_cast<uint16_t>(gene >> 16));
    return m;
}

// Whether a move respects the limit exactly (integer arithmetic).
GAEVAL_HD_INLINE bool move_within_limit(Move m) {
    return static_cast<int64_t>(m.dx) * m.dx + static_cast<int64_t>(m.dy) * m.dy <=
           static_cast<int64_t>(MoveScale) * MoveScale;
}

// Which individual op(slot) makes or reads: individual first + slot, or order[slot] (a
// population streamed in chunks makes one chunk at a time into a buffer, and regenerates its
// survivors by rank). The default maps slot i to individual i. Draws are addressed by the
// individual, never by the slot, so a plan is the same bits wherever it is made.
struct IndexMap {
    const uint32_t* order = nullptr;
    uint64_t first = 0;
    GAEVAL_HD_INLINE uint64_t operator()(uint64_t slot) const {
        return order ? order[slot] : first + slot;
    }
};

// Population storage seen by kernels and CPU loops alike (device or host pointers).
struct PlanView {
    uint32_t* genes = nullptr;  // [gene * stride + individual * step]
    uint64_t stride = 0;        // population size (gene-major); 1 for a plan-major buffer
    int32_t gene_count = 0;     // words per plan
    uint64_t step = 1;          // 1 (gene-major); gene_count for a plan-major buffer
    GAEVAL_HD_INLINE uint32_t gene(uint64_t individual, int m) const {
        return genes[static_cast<uint64_t>(m) * stride + individual * step];
    }
    GAEVAL_HD_INLINE void set_gene(uint64_t individual, int m, uint32_t g) const {
        genes[static_cast<uint64_t>(m) * stride + individual * step] = g;
    }
};

// A plan-major view of `count` plans (plan i's words contiguous): breeding reads random
// parents, and a parent read from here touches two or three cache lines instead of one per gene.
GAEVAL_HD_INLINE PlanView plan_major_view(uint32_t* genes, int32_t gene_count) {
    return PlanView{genes, 1, gene_count, static_cast<uint64_t>(gene_count)};
}

GAEVAL_HD_INLINE int32_t round_half_away(float v) {
    return static_cast<int32_t>(v < 0.0f ? v - 0.5f : v + 0.5f);
}

// A move just outside the limit (by rounding) brought inside it: the larger component steps
// one unit toward zero until the move fits (a few steps).
GAEVAL_HD_INLINE Move pull_inside_limit(Move m) {
    while (!move_within_limit(m)) {
        if (abs(m.dx) >= abs(m.dy))
            m.dx -= m.dx > 0 ? 1 : -1;
        else
            m.dy -= m.dy > 0 ? 1 : -1;
    }
    return m;
}

// A fresh random move: uniformly random direction and a distance uniform in [0, limit].
// Draws addressed by (purpose, c0, c1, c2); direction by
// rejection from the square (no sin/cos), then only + - * / sqrt and integer rounding.
GAEVAL_HD_INLINE Move random_move(uint64_t seed, Purpose purpose, uint32_t c0, uint32_t c1,
                                  uint32_t c2) {
    for (uint32_t attempt = 0; attempt < 64; ++attempt) {
        Random4 r = philox(seed, purpose, c0, c1, c2, attempt);
        float x = unit_float(r.v[0]) * 2.0f - 1.0f;
        float y = unit_float(r.v[1]) * 2.0f - 1.0f;
        float s = x * x + y * y;
        if (s > 1.0f || s < 1e-4f) continue;
        float length = static_cast<float>(r.v[2] >> 8) / 16777215.0f * MoveScale;
        float scale = length / sqrt_rn(s);
        // Rounding may step just outside the limit.
        return pull_inside_limit(Move{round_half_away(x * scale), round_half_away(y * scale)});
    }
    return Move{0, 0};  // reached with probability below 1e-40
}

}  // namespace gaeval::pile_in
