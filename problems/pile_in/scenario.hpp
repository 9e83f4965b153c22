// A pile-in problem as the kernels see it: fixed-capacity flat arrays, no pointers, trivially
// copyable, passed to a kernel by value. Units are millimetres; host/io/scenario converts.
#pragma once

#include <cstdint>

#include "games/core/hd.hpp"

namespace gaeval::pile_in {

constexpr int MaxFriendly = 64;  // models in the moving unit
constexpr int MaxEnemy = 128;    // enemy models on the table
constexpr float MmPerInch = 25.4f;

// Geometry tolerance (mm): a gap within this of a threshold counts as on the threshold, so
// "exactly in range" and "exactly touching" survive float rounding of inch distances that are
// not binary fractions (76.2, 25.4). One micron is far below any physical measurement.
constexpr float GapTolerance = 1e-3f;

// Genes store a move as two int16 in units of move_limit / MoveScale (about 2.4 um for 3").
constexpr int32_t MoveScale = 32000;

enum class BaseShape : uint8_t { Circle = 0, Oval = 1 };

// A base: circle (length == width == diameter) or oval (length >= width, long axis at the
// angle whose cosine and sine are given). All in mm.
struct Base {
    float length = 0, width = 0;
    float cos_angle = 1, sin_angle = 0;
    BaseShape shape = BaseShape::Circle;
    // Radius of the enclosing circle (GAPI1 scores ovals as this circle).
    GAEVAL_HD_INLINE float enclosing_radius() const { return 0.5f * length; }
};

struct Model {
    float x = 0, y = 0;  // base centre, mm
    Base base;
};

struct Scenario {
    int32_t friendly_count = 0;
    int32_t enemy_count = 0;
    float move_mm = 3 * MmPerInch;      // longest move (centre displacement)
    float reach_mm = 0.5f * MmPerInch;  // combat range, base edge to base edge
    float coherency_mm = 0.5f * MmPerInch;
    float move_unit_mm = 3 * MmPerInch / MoveScale;  // mm per gene unit
    Model friendly[MaxFriendly];
    Model enemy[MaxEnemy];
};

}  // namespace gaeval::pile_in
