// Exact base geometry for the rules-accurate presets: the signed edge-to-edge gap between two
// bases (circle or oval, any orientation) and the smallest gap along a move (a swept base).
//
// Method (no sin/cos/atan2, only + - * / and sqrt, fixed iteration counts). For convex,
// centrally symmetric bases A and B with centres cA and cB the signed gap (the distance between
// the bases when apart, minus the penetration depth when they overlap) is the support-function
// maximum
//     gap(A, B) = max over unit u of  u.(cB - cA) - hA(u) - hB(u),
// with h(u) = r for a circle and h(u) = sqrt(a^2 (u.e1)^2 + b^2 (u.e2)^2) for an oval of
// semi-axes a >= b along the unit vectors e1, e2. The maximum lies among the directions facing
// from A to B (the half-circle around w = (cB - cA) / |cB - cA|), parametrized without
// trigonometry as u(t) = ((1 - t^2) w + 2t w_perp) / (1 + t^2), t in [-1, 1] (angles -90..90
// degrees). gap_between samples GapSamples + 1 values of t, then refines the best bracket by
// golden-section search (GapRefineSteps steps). Every value it returns is attained by some u,
// so it never exceeds the true gap; for real bases (aspect ratio up to 3) it is within 1e-4 mm
// of it (tests/test_pile_in_geometry.cpp compares with brute force). Circle pairs are exact in
// closed form. Rules compare gaps with Rules::tolerance_mm (10 um), far above these errors.
#pragma once

#include <cstdint>

#include "games/core/hd.hpp"
#include "games/core/math.hpp"
#include "problems/pile_in/scenario.hpp"

// Host builds on x86-64 evaluate gap_between's probes four at a time in SSE lanes (the same
// operations, each correctly rounded: the same bits as the scalar path, which device code uses).
#if !GAEVAL_DEVICE_PASS && defined(__SSE2__)
#include <emmintrin.h>
#define GAEVAL_GAP_LANES 1
#else
#define GAEVAL_GAP_LANES 0
#endif

namespace gaeval::pile_in {

constexpr int GapSamples = 16;        // directions sampled per gap (plus one)
constexpr int GapRefineSteps = 22;    // golden-section steps on the best bracket
constexpr int SweepRefineSteps = 24;  // golden-section steps along a move (ovals)
constexpr int ContactSteps = 24;      // bisection steps for a contact distance (ovals)
constexpr int SlideSegments = 16;     // chords of a slide round an oval (power of two)
constexpr float GoldenRatio = 0.618034f;

// The coarse scan's i-th direction parameter t in [-1, 1] (i = 0..GapSamples): one definition
// for the scalar scan, its refinement bracket and the host lanes' direction table.
GAEVAL_HD_INLINE constexpr float gap_scan_t(int i) {
    return -1.0f + (2.0f / GapSamples) * static_cast<float>(i);
}

// A base standing somewhere: centre, semi-axes a >= b (equal for a circle), long axis (c, s).
struct Shape {
    float x = 0, y = 0;
    float a = 0, b = 0;
    float c = 1, s = 0;
    bool circle = true;
};

// The shape of `base` centred at (x, y) with its own orientation.
GAEVAL_HD_INLINE Shape shape_at(const Base& base, float x, float y) {
    Shape sh;
    sh.x = x;
    sh.y = y;
    sh.a = 0.5f * base.length;
    sh.b = 0.5f * base.width;
    sh.c = base.cos_angle;
    sh.s = base.sin_angle;
    sh.circle = base.shape == BaseShape::Circle;
    return sh;
}

// The same shape moved by (dx, dy).
GAEVAL_HD_INLINE Shape shifted(Shape sh, float dx, float dy) {
    sh.x = sh.x + dx;
    sh.y = sh.y + dy;
    return sh;
}

// Half-width of the centred shape in the unit direction (ux, uy) (its support function).
GAEVAL_HD_INLINE float half_width(const Shape& sh, float ux, float uy) {
    if (sh.circle) return sh.a;
    const float along = ux * sh.c + uy * sh.s;
    const float across = uy * sh.c - ux * sh.s;
    const float p = sh.a * along, q = sh.b * across;
    return sqrt_rn(p * p + q * q);
}

// Gap between the enclosing circles: a lower bound of the true gap (equal for two circles).
GAEVAL_HD_INLINE float enclosing_gap(const Shape& A, const Shape& B) {
    const float dx = B.x - A.x, dy = B.y - A.y;
    return sqrt_rn(dx * dx + dy * dy) - (A.a + B.a);
}

// u.(cB - cA) - hA(u) - hB(u) for u = u(t) around w (see the header comment).
struct GapProbe {
    Shape A, B;
    float dx, dy, wx, wy;
    GAEVAL_HD_INLINE float operator()(float t) const {
        const float t2 = t * t;
        const float inv = 1.0f / (1.0f + t2);
        const float cu = (1.0f - t2) * inv, su = (2.0f * t) * inv;
        return at(cu, su);
    }
    // The same for u(t) given as (cu, su) = ((1 - t^2), 2t) / (1 + t^2).
    GAEVAL_HD_INLINE float at(float cu, float su) const {
        const float ux = cu * wx - su * wy;
        const float uy = su * wx + cu * wy;
        return (ux * dx + uy * dy) - half_width(A, ux, uy) - half_width(B, ux, uy);
    }
};

// One step of golden_max: the bracket [lo, hi] with inner points x1 < x2 (values f1, f2) shrinks
// towards the larger value, the new inner point is probed, and `best` keeps the largest value.
template <class F>
GAEVAL_HD_INLINE void golden_step(const F& f, float& lo, float& hi, float& x1, float& x2, float& f1,
                                  float& f2, float& best) {
    if (f1 < f2) {
        lo = x1;
        x1 = x2;
        f1 = f2;
        x2 = lo + GoldenRatio * (hi - lo);
        f2 = f(x2);
        best = max(best, f2);
    } else {
        hi = x2;
        x2 = x1;
        f2 = f1;
        x1 = hi - GoldenRatio * (hi - lo);
        f1 = f(x1);
        best = max(best, f1);
    }
}

// Golden-section search for the maximum of f on [lo, hi] (steps evaluations); returns the
// largest value evaluated, at least `best`. Exact for unimodal f up to the bracket width.
template <class F>
GAEVAL_HD float golden_max(const F& f, float lo, float hi, int steps, float best) {
    float x1 = hi - GoldenRatio * (hi - lo), x2 = lo + GoldenRatio * (hi - lo);
    float f1 = f(x1), f2 = f(x2);
    best = max(best, max(f1, f2));
    for (int k = 0; k < steps; ++k) golden_step(f, lo, hi, x1, x2, f1, f2, best);
    return best;
}

// gap_between's probe for bases A and B, their centres dx, dy apart at distance dist: directions
// are measured from the line of centres (from the x axis when the centres coincide).
GAEVAL_HD_INLINE GapProbe gap_probe(const Shape& A, const Shape& B, float dx, float dy,
                                    float dist) {
    GapProbe probe{A, B, dx, dy, 1.0f, 0.0f};
    if (dist > 1e-6f) {
        probe.wx = dx / dist;
        probe.wy = dy / dist;
    }
    return probe;
}

// Signed edge-to-edge gap between two bases (mm); negative: overlap (minus its depth). The
// scalar definition (device code; tests compare the host's lanes with it bit for bit).
GAEVAL_HD_INLINE float gap_between_scalar(const Shape& A, const Shape& B) {
    const float dx = B.x - A.x, dy = B.y - A.y;
    const float dist = sqrt_rn(dx * dx + dy * dy);
    if (A.circle && B.circle) return dist - (A.a + B.a);
    const GapProbe probe = gap_probe(A, B, dx, dy, dist);
    // Coarse scan of the half-circle of directions.
    float best = -1e30f;
    int best_i = 0;
    for (int i = 0; i <= GapSamples; ++i) {
        const float v = probe(gap_scan_t(i));
        if (v > best) {
            best = v;
            best_i = i;
        }
    }
    const float lo = gap_scan_t(max(best_i - 1, 0));
    const float hi = gap_scan_t(min(best_i + 1, GapSamples));
    return golden_max(probe, lo, hi, GapRefineSteps, best);
}

#if GAEVAL_GAP_LANES
// ---- host lanes (SSE): gap_between_scalar's values, four probes per instruction ----

// The coarse scan's directions u(t_i) as (cu, su), computed at compile time with GapProbe's
// operations (so the same floats), padded to a multiple of four.
constexpr int GapScanLanes = (GapSamples + 1 + 3) / 4 * 4;
struct GapScanDirections {
    float cu[GapScanLanes], su[GapScanLanes];
};
constexpr GapScanDirections make_gap_scan_directions() {
    GapScanDirections d{};
    for (int i = 0; i < GapScanLanes; ++i) {
        const float t = gap_scan_t(i);
        const float t2 = t * t;
        const float inv = 1.0f / (1.0f + t2);
        d.cu[i] = (1.0f - t2) * inv;
        d.su[i] = (2.0f * t) * inv;
    }
    return d;
}
inline constexpr GapScanDirections kGapScanDirections = make_gap_scan_directions();

// half_width in four lanes.
inline __m128 half_width_lanes(const Shape& sh, __m128 ux, __m128 uy) {
    if (sh.circle) return _mm_set1_ps(sh.a);
    const __m128 c = _mm_set1_ps(sh.c), s = _mm_set1_ps(sh.s);
    const __m128 along = _mm_add_ps(_mm_mul_ps(ux, c), _mm_mul_ps(uy, s));
    const __m128 across = _mm_sub_ps(_mm_mul_ps(uy, c), _mm_mul_ps(ux, s));
    const __m128 p = _mm_mul_ps(_mm_set1_ps(sh.a), along);
    const __m128 q = _mm_mul_ps(_mm_set1_ps(sh.b), across);
    return _mm_sqrt_ps(_mm_add_ps(_mm_mul_ps(p, p), _mm_mul_ps(q, q)));
}

// GapProbe::at in four lanes.
inline __m128 gap_probe_at_lanes(const GapProbe& f, __m128 cu, __m128 su) {
    const __m128 wx = _mm_set1_ps(f.wx), wy = _mm_set1_ps(f.wy);
    const __m128 ux = _mm_sub_ps(_mm_mul_ps(cu, wx), _mm_mul_ps(su, wy));
    const __m128 uy = _mm_add_ps(_mm_mul_ps(su, wx), _mm_mul_ps(cu, wy));
    const __m128 dot =
        _mm_add_ps(_mm_mul_ps(ux, _mm_set1_ps(f.dx)), _mm_mul_ps(uy, _mm_set1_ps(f.dy)));
    return _mm_sub_ps(_mm_sub_ps(dot, half_width_lanes(f.A, ux, uy)),
                      half_width_lanes(f.B, ux, uy));
}

// GapProbe::operator() in four lanes.
inline __m128 gap_probe_lanes(const GapProbe& f, __m128 t) {
    const __m128 one = _mm_set1_ps(1.0f);
    const __m128 t2 = _mm_mul_ps(t, t);
    const __m128 inv = _mm_div_ps(one, _mm_add_ps(one, t2));
    const __m128 cu = _mm_mul_ps(_mm_sub_ps(one, t2), inv);
    const __m128 su = _mm_mul_ps(_mm_mul_ps(_mm_set1_ps(2.0f), t), inv);
    return gap_probe_at_lanes(f, cu, su);
}

// golden_max(f, lo, hi, steps, best) for GapProbe, two steps per round: the point of the
// first step and both points the second step may need are probed together in lanes, then the
// second step keeps the one its comparison picks. The same points, values and order of the
// `best` updates as golden_max, so the same result.
inline float golden_max_lanes(const GapProbe& f, float lo, float hi, int steps, float best) {
    float x1 = hi - GoldenRatio * (hi - lo), x2 = lo + GoldenRatio * (hi - lo);
    alignas(16) float v[4];
    _mm_store_ps(v, gap_probe_lanes(f, _mm_setr_ps(x1, x2, x2, x2)));
    float f1 = v[0], f2 = v[1];
    best = max(best, max(f1, f2));
    int k = 0;
    for (; k + 2 <= steps; k += 2) {
        // Step k (its comparison is known): the new bracket and the point to probe.
        const bool up = f1 < f2;
        const float lo1 = up ? x1 : lo, hi1 = up ? hi : x2;
        const float x11 = up ? x2 : hi1 - GoldenRatio * (hi1 - lo1);
        const float x21 = up ? lo1 + GoldenRatio * (hi1 - lo1) : x1;
        const float probe_k = up ? x21 : x11;
        // Step k + 1's candidates: a new x2 if it moves up, a new x1 if not.
        const float next_up = x11 + GoldenRatio * (hi1 - x11);
        const float next_down = x21 - GoldenRatio * (x21 - lo1);
        _mm_store_ps(v, gap_probe_lanes(f, _mm_setr_ps(probe_k, next_up, next_down, next_down)));
        const float f11 = up ? f2 : v[0], f21 = up ? v[0] : f1;
        best = max(best, v[0]);
        // Step k + 1.
        if (f11 < f21) {
            lo = x11;
            hi = hi1;
            x1 = x21;
            f1 = f21;
            x2 = next_up;
            f2 = v[1];
            best = max(best, f2);
        } else {
            lo = lo1;
            hi = x21;
            x2 = x11;
            f2 = f11;
            x1 = next_down;
            f1 = v[2];
            best = max(best, f1);
        }
    }
    for (; k < steps; ++k) golden_step(f, lo, hi, x1, x2, f1, f2, best);  // an odd count's last
    return best;
}

// gap_between_scalar's value, its probes in lanes (host only).
inline float gap_between_lanes(const Shape& A, const Shape& B) {
    const float dx = B.x - A.x, dy = B.y - A.y;
    const float dist = sqrt_rn(dx * dx + dy * dy);
    if (A.circle && B.circle) return dist - (A.a + B.a);
    const GapProbe probe = gap_probe(A, B, dx, dy, dist);
    alignas(16) float v[GapScanLanes];
    for (int i = 0; i < GapScanLanes; i += 4)
        _mm_store_ps(v + i, gap_probe_at_lanes(probe, _mm_loadu_ps(kGapScanDirections.cu + i),
                                               _mm_loadu_ps(kGapScanDirections.su + i)));
    float best = -1e30f;
    int best_i = 0;
    for (int i = 0; i <= GapSamples; ++i) {
        if (v[i] > best) {
            best = v[i];
            best_i = i;
        }
    }
    const float lo = gap_scan_t(max(best_i - 1, 0));
    const float hi = gap_scan_t(min(best_i + 1, GapSamples));
    return golden_max_lanes(probe, lo, hi, GapRefineSteps, best);
}
#endif

// Signed edge-to-edge gap between two bases (mm); negative: overlap (minus its depth).
// gap_between_scalar's bits on every side (lanes on x86-64 hosts).
GAEVAL_HD_NOINLINE inline float gap_between(const Shape& A, const Shape& B) {
#if GAEVAL_GAP_LANES
    return gap_between_lanes(A, B);
#else
    return gap_between_scalar(A, B);
#endif
}

// The gap when it may be at most `limit`, else a lower bound above `limit` (the enclosing
// circles' gap): comparisons with thresholds up to `limit` stay exact, far pairs stay cheap.
GAEVAL_HD_INLINE float gap_up_to(const Shape& A, const Shape& B, float limit) {
    const float lower = enclosing_gap(A, B);
    if (lower > limit || (A.circle && B.circle)) return lower;
    return gap_between(A, B);
}

// Gap between `obstacle` and `mover` translated by t * (mx, my).
struct SweepProbe {
    Shape mover, obstacle;
    float mx, my;
    GAEVAL_HD_INLINE float operator()(float t) const {
        return -gap_between(shifted(mover, t * mx, t * my), obstacle);
    }
};

// Distance from (px, py) to the segment from (ax, ay) along (mx, my), and where (t in [0,1]).
GAEVAL_HD_INLINE float segment_distance(float ax, float ay, float mx, float my, float px,
                                        float py) {
    const float len2 = mx * mx + my * my;
    const float rx = px - ax, ry = py - ay;
    float t = 0.0f;
    if (len2 > 0.0f) t = clamp((rx * mx + ry * my) / len2, 0.0f, 1.0f);
    const float qx = rx - t * mx, qy = ry - t * my;
    return sqrt_rn(qx * qx + qy * qy);
}

// Smallest gap between `obstacle` and `mover` while the mover slides straight by (mx, my)
// keeping its orientation. Circles in closed form; with an oval the gap along the move is a
// convex function of t (the signed distance to a convex Minkowski sum), minimized by
// golden-section search, unless the enclosing circles stay apart all along: then it returns
// their smallest gap, a lower bound >= 0 (the path is clear; that is all the rules ask).
GAEVAL_HD_NOINLINE inline float sweep_gap(const Shape& mover, float mx, float my,
                                          const Shape& obstacle) {
    const float seg = segment_distance(mover.x, mover.y, mx, my, obstacle.x, obstacle.y);
    const float lower = seg - (mover.a + obstacle.a);
    if (lower >= 0.0f || (mover.circle && obstacle.circle)) return lower;
    SweepProbe probe{mover, obstacle, mx, my};
    float best = max(probe(0.0f), probe(1.0f));
    best = golden_max(probe, 0.0f, 1.0f, SweepRefineSteps, best);
    return -best;
}

// Centre distance from `fixed`'s centre, along the unit direction (ux, uy), at which `mover`
// (its shape, centred anywhere) touches `fixed`. Circles exact; ovals by bisection between the
// inscribed and enclosing radii (the gap grows monotonically outward along the ray).
GAEVAL_HD_NOINLINE inline float contact_distance(const Shape& fixed, const Shape& mover, float ux,
                                                 float uy) {
    if (fixed.circle && mover.circle) return fixed.a + mover.a;
    float lo = fixed.b + mover.b, hi = fixed.a + mover.a;
    for (int k = 0; k < ContactSteps; ++k) {
        const float mid = 0.5f * (lo + hi);
        Shape at = mover;
        at.x = fixed.x + mid * ux;
        at.y = fixed.y + mid * uy;
        if (gap_between(fixed, at) < 0.0f)
            lo = mid;
        else
            hi = mid;
    }
    return hi;
}

// A base sliding round `pivot` in base contact, from its start `from` to (to_x, to_y) (both
// touching `pivot`), the shorter way round (half a turn: counter-clockwise). Two circles: the
// exact arc of centres (radius = the radii's sum) against circles. Otherwise the arc of contact
// positions is followed by SlideSegments chords between contact points on directions obtained
// by halving the angle (no trigonometry); the chords cut inside the arc by at most 0.5% of its
// radius (1/16 of at most half a turn).
struct SlidePath {
    Shape mover;           // at the start, in its orientation during the move
    float px = 0, py = 0;  // pivot centre
    float ux = 1, uy = 0;  // unit direction pivot -> start
    float vx = 1, vy = 0;  // unit direction pivot -> end
    float turn = 1;        // +1 counter-clockwise, -1 clockwise
    bool half_turn = false, no_turn = false;
    bool exact = false;  // a circle round a circle: the arc itself against circles
    float radius = 0;    // arc radius (exact only)
    float cx[SlideSegments + 1], cy[SlideSegments + 1];  // chord ends on the contact arc
};

// Builds the slide path. Fixed steps, + - * / sqrt_rn only.
GAEVAL_HD_NOINLINE inline void make_slide(const Shape& pivot, const Shape& from, float to_x,
                                          float to_y, SlidePath& path) {
    path.mover = from;
    path.px = pivot.x;
    path.py = pivot.y;
    const float ax = from.x - pivot.x, ay = from.y - pivot.y;
    const float bx = to_x - pivot.x, by = to_y - pivot.y;
    const float la = sqrt_rn(ax * ax + ay * ay), lb = sqrt_rn(bx * bx + by * by);
    path.ux = la > 0.0f ? ax / la : 1.0f;
    path.uy = la > 0.0f ? ay / la : 0.0f;
    path.vx = lb > 0.0f ? bx / lb : 1.0f;
    path.vy = lb > 0.0f ? by / lb : 0.0f;
    const float cross = path.ux * path.vy - path.uy * path.vx;
    const float dot = path.ux * path.vx + path.uy * path.vy;
    path.turn = cross < 0.0f ? -1.0f : 1.0f;
    path.half_turn = cross == 0.0f && dot <= 0.0f;
    path.no_turn = cross == 0.0f && dot > 0.0f;
    path.exact = pivot.circle && from.circle;
    path.radius = pivot.a + from.a;
    // Directions of the chord ends: halve the angle repeatedly (the bisector of two unit
    // vectors less than half a turn apart is their normalized sum).
    float dir_x[SlideSegments + 1], dir_y[SlideSegments + 1];
    dir_x[0] = path.ux;
    dir_y[0] = path.uy;
    dir_x[SlideSegments] = path.vx;
    dir_y[SlideSegments] = path.vy;
    int first_span = SlideSegments;
    if (path.half_turn) {
        dir_x[SlideSegments / 2] = -path.uy;
        dir_y[SlideSegments / 2] = path.ux;
        first_span = SlideSegments / 2;
    }
    for (int span = first_span; span > 1; span /= 2) {
        for (int i = 0; i + span <= SlideSegments; i += span) {
            const float sx = dir_x[i] + dir_x[i + span], sy = dir_y[i] + dir_y[i + span];
            const float ls = sqrt_rn(sx * sx + sy * sy);
            dir_x[i + span / 2] = ls > 0.0f ? sx / ls : -dir_y[i];
            dir_y[i + span / 2] = ls > 0.0f ? sy / ls : dir_x[i];
        }
    }
    path.cx[0] = from.x;
    path.cy[0] = from.y;
    path.cx[SlideSegments] = to_x;
    path.cy[SlideSegments] = to_y;
    for (int i = 1; i < SlideSegments; ++i) {
        const float d = contact_distance(pivot, from, dir_x[i], dir_y[i]);
        path.cx[i] = pivot.x + d * dir_x[i];
        path.cy[i] = pivot.y + d * dir_y[i];
    }
}

// Smallest gap between `obstacle` and the sliding base along the path (like sweep_gap: a
// lower bound >= 0 where enclosing circles stay apart).
// + - * / sqrt_rn only, chords in order.
GAEVAL_HD_NOINLINE inline float slide_gap(const SlidePath& path, const Shape& obstacle) {
    if (path.exact && obstacle.circle) {
        const float reach = path.mover.a + obstacle.a;
        const float cx = obstacle.x - path.px, cy = obstacle.y - path.py;
        const float lc = sqrt_rn(cx * cx + cy * cy);
        // Is the obstacle's direction inside the arc's angular span?
        const float c1 = (path.ux * cy - path.uy * cx) * path.turn;
        const float c2 = (cx * path.vy - cy * path.vx) * path.turn;
        bool inside = c1 >= 0.0f && c2 >= 0.0f;
        if (path.no_turn) inside = false;
        if (path.half_turn) inside = c1 >= 0.0f;
        if (inside && lc > 0.0f) return abs(lc - path.radius) - reach;
        const float dx1 = cx - path.radius * path.ux, dy1 = cy - path.radius * path.uy;
        const float dx2 = cx - path.radius * path.vx, dy2 = cy - path.radius * path.vy;
        return min(sqrt_rn(dx1 * dx1 + dy1 * dy1), sqrt_rn(dx2 * dx2 + dy2 * dy2)) - reach;
    }
    float worst = 1e30f;
    for (int i = 0; i < SlideSegments; ++i) {
        Shape at = path.mover;
        at.x = path.cx[i];
        at.y = path.cy[i];
        worst = min(worst, sweep_gap(at, path.cx[i + 1] - at.x, path.cy[i + 1] - at.y, obstacle));
    }
    return worst;
}

}  // namespace gaeval::pile_in
