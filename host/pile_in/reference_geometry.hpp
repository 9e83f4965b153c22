// Reference base geometry for the legality validator and the tests: double precision,
// trigonometry allowed, written independently of problems/pile_in/geometry.hpp (which the
// fitness uses) so that the two can check each other.
//   point to oval: Eberly's robust bisection ("Distance from a Point to an Ellipse");
//   circle-circle and circle-oval: exact (centre distance to the other base minus the radius);
//   oval-oval: the smallest distance from either boundary to the other base, sampled densely
//   and refined (exact when apart; when overlapping, minus the deepest boundary point, which
//   is the penetration depth to first order for small overlaps);
//   moves: circles in closed form, ovals sampled densely along the path and refined.
#pragma once

namespace gaeval::pile_in::reference {

struct Body {
    double x = 0, y = 0;
    double a = 0, b = 0;  // semi-axes (equal for a circle)
    double c = 1, s = 0;  // long axis direction (unit)
    bool circle() const { return a == b; }
};

// Signed distance from (px, py) to the body's outline (negative inside).
double point_distance(const Body& body, double px, double py);

// Signed edge-to-edge gap (negative: overlap).
double gap(const Body& A, const Body& B);

// Smallest gap while `mover` translates by (mx, my) past `obstacle` (with an oval and
// enclosing circles more than 1 mm apart all along: their gap, a lower bound).
double sweep_gap(const Body& mover, double mx, double my, const Body& obstacle);

// Centre distance from `pivot` along the unit direction (ux, uy) at which `mover` touches it.
double contact_distance(const Body& pivot, const Body& mover, double ux, double uy);

// Smallest gap while `mover` slides round `pivot` in contact from its centre to (to_x, to_y),
// the shorter way round (half a turn: counter-clockwise).
double slide_gap(const Body& pivot, const Body& mover, double to_x, double to_y,
                 const Body& obstacle);

}  // namespace gaeval::pile_in::reference
