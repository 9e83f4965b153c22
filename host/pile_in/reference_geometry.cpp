#include "host/pile_in/reference_geometry.hpp"

#include <algorithm>
#include <cmath>
#include <functional>

namespace gaeval::pile_in::reference {

namespace {

const double kPi = 3.14159265358979323846;

// Root of Eberly's distance equation for the point (z0, z1) (scaled), r0 = (e0 / e1)^2.
double eberly_root(double r0, double z0, double z1, double g) {
    const double n0 = r0 * z0;
    double s0 = z1 - 1.0, s1 = g < 0 ? 0.0 : std::hypot(n0, z1) - 1.0, s = 0;
    for (int i = 0; i < 1100; ++i) {
        s = 0.5 * (s0 + s1);
        if (s == s0 || s == s1) break;
        const double ratio0 = n0 / (s + r0), ratio1 = z1 / (s + 1.0);
        g = ratio0 * ratio0 + ratio1 * ratio1 - 1.0;
        if (g > 0)
            s0 = s;
        else if (g < 0)
            s1 = s;
        else
            break;
    }
    return s;
}

// Distance from (y0, y1), first quadrant, to the ellipse x^2/e0^2 + y^2/e1^2 = 1, e0 >= e1.
double ellipse_distance(double e0, double e1, double y0, double y1) {
    // Within rounding of an axis is on it (else 1 - z rounds to 1 and the root degenerates).
    if (y0 < 1e-9 * e0) y0 = 0;
    if (y1 < 1e-9 * e0) y1 = 0;
    if (y1 > 0) {
        if (y0 > 0) {
            const double z0 = y0 / e0, z1 = y1 / e1, g = z0 * z0 + z1 * z1 - 1.0;
            if (g == 0) return 0;
            const double r0 = (e0 / e1) * (e0 / e1);
            const double sbar = eberly_root(r0, z0, z1, g);
            const double x0 = r0 * y0 / (sbar + r0), x1 = y1 / (sbar + 1.0);
            return std::hypot(x0 - y0, x1 - y1);
        }
        return std::abs(y1 - e1);
    }
    const double numer0 = e0 * y0, denom0 = e0 * e0 - e1 * e1;
    if (numer0 < denom0) {
        const double xde0 = numer0 / denom0;
        const double x0 = e0 * xde0, x1 = e1 * std::sqrt(1.0 - xde0 * xde0);
        return std::hypot(x0 - y0, x1);
    }
    return std::abs(y0 - e0);
}

void outline_point(const Body& A, double theta, double& x, double& y) {
    const double lx = A.a * std::cos(theta), ly = A.b * std::sin(theta);
    x = A.x + lx * A.c - ly * A.s;
    y = A.y + lx * A.s + ly * A.c;
}

// Minimum of f over [lo, hi]: samples + 1 evenly spaced values, then ternary refinement round
// the best.
double sampled_minimum(const std::function<double(double)>& f, double lo, double hi, int samples) {
    const double step = (hi - lo) / samples;
    double best = 1e300;
    int best_i = 0;
    for (int i = 0; i <= samples; ++i) {
        const double v = f(lo + step * i);
        if (v < best) best = v, best_i = i;
    }
    double a = lo + step * std::max(0, best_i - 1), b = lo + step * std::min(samples, best_i + 1);
    for (int k = 0; k < 60; ++k) {
        const double m1 = a + (b - a) / 3, m2 = b - (b - a) / 3;
        if (f(m1) < f(m2))
            b = m2;
        else
            a = m1;
    }
    return std::min(best, f(0.5 * (a + b)));
}

// Smallest signed distance from A's outline to B.
double outline_to_body(const Body& A, const Body& B) {
    return sampled_minimum(
        [&](double t) {
            double x, y;
            outline_point(A, t, x, y);
            return point_distance(B, x, y);
        },
        0.0, 2 * kPi, 1440);
}

}  // namespace

double point_distance(const Body& body, double px, double py) {
    const double rx = px - body.x, ry = py - body.y;
    if (body.circle()) return std::hypot(rx, ry) - body.a;
    const double u = std::abs(rx * body.c + ry * body.s), v = std::abs(-rx * body.s + ry * body.c);
    const double d = ellipse_distance(body.a, body.b, u, v);
    const bool inside = (u / body.a) * (u / body.a) + (v / body.b) * (v / body.b) < 1.0;
    return inside ? -d : d;
}

double gap(const Body& A, const Body& B) {
    if (A.circle()) return point_distance(B, A.x, A.y) - A.a;
    if (B.circle()) return point_distance(A, B.x, B.y) - B.a;
    const double ab = outline_to_body(A, B), ba = outline_to_body(B, A);
    if (ab >= 0 && ba >= 0) return std::min(ab, ba);
    return std::min(std::min(ab, ba), 0.0);
}

double sweep_gap(const Body& mover, double mx, double my, const Body& obstacle) {
    if (mover.circle() && obstacle.circle()) {
        const double len2 = mx * mx + my * my;
        const double rx = obstacle.x - mover.x, ry = obstacle.y - mover.y;
        const double t = len2 > 0 ? std::clamp((rx * mx + ry * my) / len2, 0.0, 1.0) : 0.0;
        return std::hypot(rx - t * mx, ry - t * my) - mover.a - obstacle.a;
    }
    // Far apart all along: the enclosing circles settle it.
    Body round_mover = mover, round_obstacle = obstacle;
    round_mover.b = round_mover.a;
    round_obstacle.b = round_obstacle.a;
    const double lower = sweep_gap(round_mover, mx, my, round_obstacle);
    if (lower > 1.0) return lower;
    return sampled_minimum(
        [&](double t) {
            Body at = mover;
            at.x += t * mx;
            at.y += t * my;
            return gap(at, obstacle);
        },
        0.0, 1.0, 256);
}

double contact_distance(const Body& pivot, const Body& mover, double ux, double uy) {
    double lo = 0, hi = pivot.a + mover.a + 1.0;
    for (int k = 0; k < 100; ++k) {
        const double mid = 0.5 * (lo + hi);
        Body at = mover;
        at.x = pivot.x + mid * ux;
        at.y = pivot.y + mid * uy;
        if (gap(pivot, at) < 0)
            lo = mid;
        else
            hi = mid;
    }
    return hi;
}

double slide_gap(const Body& pivot, const Body& mover, double to_x, double to_y,
                 const Body& obstacle) {
    const double a0 = std::atan2(mover.y - pivot.y, mover.x - pivot.x);
    double turn = std::atan2(to_y - pivot.y, to_x - pivot.x) - a0;
    while (turn > kPi) turn -= 2 * kPi;
    while (turn <= -kPi) turn += 2 * kPi;
    if (std::abs(std::abs(turn) - kPi) < 1e-12) turn = kPi;  // half a turn: counter-clockwise
    const bool round = pivot.circle() && mover.circle();
    const double radius = pivot.a + mover.a;
    return sampled_minimum(
        [&](double t) {
            const double angle = a0 + t * turn;
            const double ux = std::cos(angle), uy = std::sin(angle);
            const double d = round ? radius : contact_distance(pivot, mover, ux, uy);
            Body at = mover;
            at.x = pivot.x + d * ux;
            at.y = pivot.y + d * uy;
            return gap(at, obstacle);
        },
        0.0, 1.0, round ? 2048 : 256);
}

}  // namespace gaeval::pile_in::reference
