// A lane group: L lanes that share one task (one searching game), as a tile of L threads of a
// warp on the device and as a loop over the L lanes on the CPU, so that the CPU tests run the
// code the warps run. Code over a lane group is written per lane: `each(f)` calls f(lane) (on
// the device once, for the thread's own lane; on the CPU for every lane in order), per-lane
// state lives in a LaneArray (on the device one slot, on the CPU one per lane), and `best_of`
// combines the lanes' candidates into the one every lane gets back (on the device by xor
// shuffles, on the CPU by a loop). Results cannot depend on the lane count or on the order in
// which lanes finish: best_of's order is total (value, then draw, then index). `read(array, j)`
// gives every lane lane j's slot (a shuffle; on the CPU an array read).
#pragma once

#include <cstdint>

#include "games/core/hd.hpp"

namespace gaeval {

// Per-lane storage: lanes.at(array, lane) is the lane's slot.
template <class T, int L>
struct LaneArray {
#if GAEVAL_DEVICE_PASS
    T slot[1];
#else
    T slot[L];
#endif
};

// What a lane offers best_of: a value (higher wins), then a draw (lower wins), then an index
// (lower wins; unique among the lanes' candidates, or -1 for a lane that has none).
struct LaneCandidate {
    float value = 0.0f;
    uint32_t draw = 0;
    int32_t index = -1;
};

// Whether a is better than b in best_of's total order; a candidate without an index loses.
GAEVAL_HD_INLINE bool lane_better(const LaneCandidate& a, const LaneCandidate& b) {
    if (a.index < 0) return false;
    if (b.index < 0) return true;
    if (b.value < a.value) return true;
    if (a.value < b.value) return false;
    if (a.draw != b.draw) return a.draw < b.draw;
    return a.index < b.index;
}

template <int L>
struct Lanes {
    static_assert(L == 1 || L == 2 || L == 4 || L == 8 || L == 16 || L == 32,
                  "a lane group is a power-of-two tile of a warp");
    static constexpr int kCount = L;

#if GAEVAL_DEVICE_PASS
    // The thread's lane in its group; groups are aligned tiles of the warp (block sizes are
    // multiples of 32).
    GAEVAL_HD_INLINE int lane() const { return static_cast<int>(threadIdx.x) & (L - 1); }
    GAEVAL_HD_INLINE unsigned mask() const {
        if constexpr (L == 32) {
            return 0xffffffffu;
        } else {
            const unsigned first = threadIdx.x & 31u & ~static_cast<unsigned>(L - 1);
            return ((1u << L) - 1u) << first;
        }
    }
    template <class F>
    GAEVAL_HD_INLINE void each(F&& f) const {
        f(lane());
    }
    template <class T>
    GAEVAL_HD_INLINE T& at(LaneArray<T, L>& a, int) const {
        return a.slot[0];
    }
    // Lane `from`'s slot, in every lane (T a 4- or 8-byte arithmetic type). All lanes of the
    // group must call it.
    template <class T>
    GAEVAL_HD_INLINE T read(const LaneArray<T, L>& a, int from) const {
        return __shfl_sync(mask(), a.slot[0], from, L);
    }
    // Every lane gets the best candidate of the group. All lanes of the group must call it.
    GAEVAL_HD_INLINE LaneCandidate best_of(LaneArray<LaneCandidate, L>& a) const {
        LaneCandidate best = a.slot[0];
        for (int offset = L / 2; offset > 0; offset /= 2) {
            LaneCandidate other;
            other.value = __shfl_xor_sync(mask(), best.value, offset, L);
            other.draw = __shfl_xor_sync(mask(), best.draw, offset, L);
            other.index = __shfl_xor_sync(mask(), best.index, offset, L);
            if (lane_better(other, best)) best = other;
        }
        return best;
    }
#else
    template <class F>
    GAEVAL_HD_INLINE void each(F&& f) const {
        for (int lane = 0; lane < L; ++lane) f(lane);
    }
    template <class T>
    GAEVAL_HD_INLINE T& at(LaneArray<T, L>& a, int lane) const {
        return a.slot[lane];
    }
    template <class T>
    GAEVAL_HD_INLINE T read(const LaneArray<T, L>& a, int from) const {
        return a.slot[from];
    }
    GAEVAL_HD_INLINE LaneCandidate best_of(LaneArray<LaneCandidate, L>& a) const {
        LaneCandidate best = a.slot[0];
        for (int lane = 1; lane < L; ++lane)
            if (lane_better(a.slot[lane], best)) best = a.slot[lane];
        return best;
    }
#endif
};

}  // namespace gaeval
