// Gomoku test helpers: positions from pictures, and a second implementation of the rules and
// threat patterns that looks at one cell at a time (the game's own code uses whole-board
// shifts), so that the two can be compared on hand-built and random positions.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "games/gomoku/game.hpp"

namespace gaeval::gomoku::testing {

// A position from rows of 'X' (seat 0), 'O' (seat 1) and '.'; row i of the picture is y = i,
// character j is x = j; missing rows and characters are empty. `side` moves next.
template <int N>
Pos<N> picture(const std::vector<std::string>& rows, int side) {
    Game<N> g;
    Pos<N> p = g.start();
    for (int y = 0; y < static_cast<int>(rows.size()); ++y)
        for (int x = 0; x < static_cast<int>(rows[y].size()); ++x) {
            const char c = rows[y][x];
            if (c != 'X' && c != 'O') continue;
            p.stones[c == 'X' ? 0 : 1].set(Geometry<N>::cell(x, y));
            ++p.count;
        }
    p.side = static_cast<uint8_t>(side);
    return p;
}

// The naive board: owner[x][y] = -1 empty, 0 or 1 a seat.
template <int N>
struct Naive {
    int owner[N][N];
    bool exact = false;

    explicit Naive(const Pos<N>& p, bool exact_five) : exact(exact_five) {
        for (int x = 0; x < N; ++x)
            for (int y = 0; y < N; ++y) {
                const int c = Geometry<N>::cell(x, y);
                owner[x][y] = p.stones[0].test(c) ? 0 : p.stones[1].test(c) ? 1 : -1;
            }
    }
    // has_five_point(s) of the board as built (level() reads it; recomputed on demand).
    mutable int cached_five_point[2] = {-1, -1};
    static constexpr int kDx[4] = {1, 0, 1, -1};
    static constexpr int kDy[4] = {0, 1, 1, 1};
    int at(int x, int y) const {
        return x < 0 || y < 0 || x >= N || y >= N ? -2 : owner[x][y];
    }

    // Whether seat s has a winning line: a run of 5 (exact: exactly 5) in some direction.
    bool has_five(int s) const {
        for (int x = 0; x < N; ++x)
            for (int y = 0; y < N; ++y)
                for (int d = 0; d < 4; ++d) {
                    if (at(x, y) != s || at(x - kDx[d], y - kDy[d]) == s) continue;
                    int run = 0;
                    while (at(x + run * kDx[d], y + run * kDy[d]) == s) ++run;
                    if (exact ? run == 5 : run >= 5) return true;
                }
        return false;
    }

    // Whether the window of length len from (x, y) in direction d has seat s on `own` offsets,
    // empty cells on `holes` offsets and, under exact rules, no stone of s just outside.
    bool window(int s, int x, int y, int d, int len, const std::vector<int>& holes) const {
        for (int k = 0; k < len; ++k) {
            bool hole = false;
            for (int h : holes) hole = hole || h == k;
            const int v = at(x + k * kDx[d], y + k * kDy[d]);
            if (hole ? v != -1 : v != s) return false;
        }
        if (exact && (at(x - kDx[d], y - kDy[d]) == s || at(x + len * kDx[d], y + len * kDy[d]) == s))
            return false;
        return true;
    }

    // Placing a stone of s on empty (x, y): five?
    bool makes_five(int s, int x, int y, int d) const {
        for (int j = 0; j < 5; ++j)
            if (window(s, x - j * kDx[d], y - j * kDy[d], d, 5, {j})) return true;
        return false;
    }
    // The distinct five-points it creates in direction d (offsets along the line).
    int created_five_points(int s, int x, int y, int d) const {
        int count = 0;
        for (int o = -4; o <= 4; ++o) {
            if (o == 0) continue;
            bool found = false;
            for (int j = 0; j < 5 && !found; ++j) {  // c at window position j
                const int k = j + o;                // e at position k
                if (k < 0 || k >= 5) continue;
                found = window(s, x - j * kDx[d], y - j * kDy[d], d, 5, {j, k});
            }
            count += found;
        }
        return count;
    }
    // Whether it makes an open three in direction d.
    bool makes_three(int s, int x, int y, int d) const {
        for (int j = 1; j <= 4; ++j)
            for (int k = 1; k <= 4; ++k)
                if (k != j && window(s, x - j * kDx[d], y - j * kDy[d], d, 6, {0, 5, j, k}))
                    return true;
        return false;
    }
    // Whether seat s has any five-point.
    bool has_five_point(int s) const {
        for (int x = 0; x < N; ++x)
            for (int y = 0; y < N; ++y)
                for (int d = 0; d < 4; ++d)
                    if (at(x, y) == -1 && makes_five(s, x, y, d)) return true;
        return false;
    }

    // The threat level (1..4) of a stone of s on empty (x, y), as threats.hpp defines it.
    int level(int s, int x, int y) const {
        bool five = false;
        int five_points = 0, four_dirs = 0, three_dirs = 0;
        bool four[4], three[4];
        for (int d = 0; d < 4; ++d) {
            five = five || makes_five(s, x, y, d);
            const int created = created_five_points(s, x, y, d);
            five_points += created;
            four[d] = created > 0;
            three[d] = makes_three(s, x, y, d);
            four_dirs += four[d];
            three_dirs += three[d];
        }
        int& threatened = cached_five_point[1 - s];
        if (threatened < 0) threatened = has_five_point(1 - s) ? 1 : 0;
        if (threatened) return five ? 1 : 4;
        if (five || five_points >= 2) return 1;
        bool four_three = false;
        for (int d = 0; d < 4; ++d)
            for (int e = 0; e < 4; ++e) four_three = four_three || (d != e && four[d] && three[e]);
        if (four_three || three_dirs >= 2) return 2;
        if (four_dirs > 0 || three_dirs > 0) return 3;
        return 4;
    }
};

}  // namespace gaeval::gomoku::testing
