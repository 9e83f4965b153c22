// The Pac-Man grid (Spring Challenge 2020): up to 35 x 17 cells, cell = y * width + x with row 0
// at the top, in bitboards of kWords words. The map wraps horizontally (x = 0 and x = width - 1
// are neighbours); it never wraps vertically. A Map holds the per-map tables the rules read:
// floor cells, the column masks of the shift moves, each cell's floor neighbours, all shortest
// path lengths and each cell's lines of sight. The host builds it (host/pac/map_io); the game
// points at it, and the CUDA backend copies it to the device (the table hooks of game.hpp).
#pragma once

#include <cstdint>

#include "games/core/bitboard.hpp"
#include "games/core/hd.hpp"

namespace gaeval::pac {

constexpr int kMaxWidth = 35;
constexpr int kMaxHeight = 17;
constexpr int kMaxCells = kMaxWidth * kMaxHeight;  // 595
constexpr int kWords = (kMaxCells + 63) / 64;      // 10
using BB = Bitboard<kWords>;

// Distances are bytes: 255 marks "no path"; maps whose longest shortest path reaches 255 are
// refused where they are read.
constexpr uint8_t kNoPath = 255;

// Neighbour order (also the tie order of shortest-path steps): up (y - 1), right, down, left.
enum Direction : int { kUp = 0, kRight = 1, kDown = 2, kLeft = 3 };

struct Map {
    int16_t width = 0, height = 0;
    int16_t cells = 0;        // width * height
    int16_t floor_count = 0;  // floor cells
    BB floor;
    BB first_column, last_column;        // every cell with x = 0 / x = width - 1
    int16_t neighbour[kMaxCells][4];     // floor neighbour per Direction, -1 for none
    uint8_t dist[kMaxCells][kMaxCells];  // shortest path length between floor cells, else kNoPath
    BB sight[kMaxCells];  // a floor cell and the cells on its four straight lines up to a wall

    GAEVAL_HD_INLINE int x_of(int c) const { return c % width; }
    GAEVAL_HD_INLINE int y_of(int c) const { return c / width; }
    GAEVAL_HD_INLINE int cell_at(int x, int y) const { return y * width + x; }
    // The left/right mirror image of cell c (the map's symmetry).
    GAEVAL_HD_INLINE int mirror(int c) const { return cell_at(width - 1 - x_of(c), y_of(c)); }
};

// The floor cells one step from a cell of s in one direction, by shifts: left and right move
// by one bit with the edge columns wrapping across the row, up and down by a row (width bits).
GAEVAL_HD_INLINE BB step_up(const Map& m, const BB& s) { return s.shifted_down(m.width) & m.floor; }
GAEVAL_HD_INLINE BB step_down(const Map& m, const BB& s) { return s.shifted_up(m.width) & m.floor; }
GAEVAL_HD_INLINE BB step_left(const Map& m, const BB& s) {
    return (s.minus(m.first_column).shifted_down(1) |
            (s & m.first_column).shifted_up(m.width - 1)) &
           m.floor;
}
GAEVAL_HD_INLINE BB step_right(const Map& m, const BB& s) {
    return (s.minus(m.last_column).shifted_up(1) | (s & m.last_column).shifted_down(m.width - 1)) &
           m.floor;
}
// Floor cells one step from some cell of s (s itself only where a step leads back into it).
GAEVAL_HD_INLINE BB grow(const Map& m, const BB& s) {
    return step_up(m, s) | step_down(m, s) | step_left(m, s) | step_right(m, s);
}

// The first cell of a shortest path from `from` to `target` (floor cells joined by a path,
// from != target): the first neighbour in Direction order one step closer to the target.
GAEVAL_HD_INLINE int next_step(const Map& m, int from, int target) {
    const int d = m.dist[from][target];
    for (int dir = 0; dir < 4; ++dir) {
        const int n = m.neighbour[from][dir];
        if (n >= 0 && m.dist[n][target] + 1 == d) return n;
    }
    return from;
}

}  // namespace gaeval::pac
