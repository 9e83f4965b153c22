// Helpers for pile-in tests: scenarios built in code (mm), plans from moves in mm.
#pragma once

#include <cmath>
#include <initializer_list>
#include <vector>

#include "problems/pile_in/genome.hpp"
#include "problems/pile_in/scenario.hpp"

namespace gaeval::pile_in::testing {

struct Spot {
    float x, y, diameter;
};

inline Scenario make_scenario(std::initializer_list<Spot> friendly,
                              std::initializer_list<Spot> enemy, float reach_mm,
                              float move_mm = 76.2f, float coherency_mm = 12.7f) {
    Scenario s;
    for (const Spot& f : friendly) {
        Model& m = s.friendly[s.friendly_count++];
        m.x = f.x;
        m.y = f.y;
        m.base.length = m.base.width = f.diameter;
    }
    for (const Spot& e : enemy) {
        Model& m = s.enemy[s.enemy_count++];
        m.x = e.x;
        m.y = e.y;
        m.base.length = m.base.width = e.diameter;
    }
    s.reach_mm = reach_mm;
    s.move_mm = move_mm;
    s.coherency_mm = coherency_mm;
    s.move_unit_mm = move_mm / MoveScale;
    return s;
}

// Gene for a move of (dx, dy) mm, rounded to gene units (must be within the limit).
inline uint32_t move_gene(const Scenario& s, double dx_mm, double dy_mm) {
    Move m{static_cast<int32_t>(std::lround(dx_mm / s.move_unit_mm)),
           static_cast<int32_t>(std::lround(dy_mm / s.move_unit_mm))};
    return pack_move(m);
}

// S1 of the shared data: 5 x 32 mm in a line, enemy line 2" (50.8 mm) away; y of the enemy
// line and the reach are parameters (S2a: 133.6 and 25.4; S2b: 146.3 and 25.4).
inline Scenario line_scenario(float enemy_y, float reach_mm) {
    Scenario s = make_scenario({}, {}, reach_mm);
    for (int i = 0; i < 5; ++i) {
        s.friendly[i].x = 32.0f * i;
        s.friendly[i].y = 0;
        s.friendly[i].base.length = s.friendly[i].base.width = 32;
        s.enemy[i].x = 32.0f * i;
        s.enemy[i].y = enemy_y;
        s.enemy[i].base.length = s.enemy[i].base.width = 32;
    }
    s.friendly_count = s.enemy_count = 5;
    return s;
}

}  // namespace gaeval::pile_in::testing
