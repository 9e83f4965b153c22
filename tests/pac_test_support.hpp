// Hand-built Pac-Man boards and positions for the tests: a map from rows (no checks, so tiny
// corridors will do), pacs placed by hand, pellets on every other floor cell.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <memory>
#include <string>
#include <vector>

#include "games/pac/game.hpp"
#include "host/pac/map_io.hpp"

namespace gaeval::pac::testing {

struct Board {
    std::unique_ptr<Map> map;
    Game game;
    explicit Board(const std::vector<std::string>& rows) : map(build_map(rows)), game{map.get()} {}
    int at(int x, int y) const { return map->cell_at(x, y); }
};

// A generated map (generate_setup of `seed`, `pacs` pacs a side), its game and start.
struct GeneratedTable {
    Setup setup;
    std::unique_ptr<Map> map;
    Game game;
    Pos start;
    GeneratedTable(uint64_t seed, int pacs)
        : setup(generate_setup(seed, 0, 0, pacs)),
          map(build_map(setup.rows)),
          game{map.get()},
          start(start_position(*map, setup)) {}
};

struct PacAt {
    int side, k, x, y, type;
};

// A position with these pacs (pacs per side = the highest k + 1; unlisted pacs are dead), a
// pellet on every other floor cell, no super pellet, seat 0 to move.
inline Pos hand_position(const Board& b, std::initializer_list<PacAt> pacs) {
    Pos p;
    p.pacs = 0;
    p.supers = BB::none();
    for (int s = 0; s < 2; ++s)
        for (int k = 0; k < kMaxPacs; ++k) p.pac[s][k] = Pac{};
    BB pellets = b.map->floor;
    for (const PacAt& a : pacs) {
        Pac& pac = p.pac[a.side][a.k];
        pac.cell = static_cast<int16_t>(b.at(a.x, a.y));
        pac.type = static_cast<uint8_t>(a.type);
        pac.alive = 1;
        pellets.reset(pac.cell);
        if (a.k + 1 > p.pacs) p.pacs = static_cast<uint8_t>(a.k + 1);
    }
    p.pellets = pellets;
    p.maybe[0] = p.maybe[1] = pellets;
    return p;
}

// Commands of one side: one per pac (missing ones wait).
inline Move commands(std::initializer_list<Command> list) {
    Move m;
    int k = 0;
    for (const Command& c : list) m.pac[k++] = c;
    return m;
}

// One turn: seat 0's move, then seat 1's.
inline Pos turn(const Board& b, const Pos& p, const Move& zero, const Move& one) {
    return b.game.make(b.game.make(p, zero), one);
}

}  // namespace gaeval::pac::testing
