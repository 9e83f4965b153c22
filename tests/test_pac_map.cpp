// Pac-Man maps: the generator's properties over many seeds (sizes, mirror symmetry, one
// connected floor region, tunnels, placement), checked with a breadth-first search of the test's
// own; the shift moves against neighbours computed from coordinates; map files and their errors.
#include <gtest/gtest.h>

#include <deque>
#include <set>
#include <string>
#include <vector>

#include "cli_util.hpp"
#include "host/core/error.hpp"
#include "host/pac/map_io.hpp"

namespace {

using namespace gaeval;
using namespace gaeval::pac;

// Floor cells reachable from the first floor cell (4 directions, wrapping left/right).
int reachable(const std::vector<std::string>& rows) {
    const int h = int(rows.size()), w = int(rows[0].size());
    std::set<std::pair<int, int>> seen;
    std::deque<std::pair<int, int>> todo;
    for (int y = 0; y < h && todo.empty(); ++y)
        for (int x = 0; x < w && todo.empty(); ++x)
            if (rows[y][x] == ' ') todo.push_back({x, y});
    seen.insert(todo.front());
    while (!todo.empty()) {
        auto [x, y] = todo.front();
        todo.pop_front();
        const std::pair<int, int> next[4] = {
            {x, y - 1}, {x, y + 1}, {(x + 1) % w, y}, {(x + w - 1) % w, y}};
        for (auto [nx, ny] : next)
            if (ny >= 0 && ny < h && rows[ny][nx] == ' ' && seen.insert({nx, ny}).second)
                todo.push_back({nx, ny});
    }
    return int(seen.size());
}

TEST(PacMap, GeneratedMapsKeepTheContestsConstraints) {
    int with_tunnels = 0;
    std::set<int> widths, heights, counts;
    for (uint64_t seed = 1; seed <= 150; ++seed) {
        const pac::Setup s = generate_setup(seed);
        const int h = int(s.rows.size()), w = int(s.rows[0].size());
        ASSERT_GE(w, 29);
        ASSERT_LE(w, 35);
        ASSERT_EQ(w % 2, 1);
        ASSERT_GE(h, 10);
        ASSERT_LE(h, 17);
        widths.insert(w);
        heights.insert(h);
        counts.insert(s.pacs);
        int floor = 0;
        bool tunnel = false;
        for (int y = 0; y < h; ++y) {
            ASSERT_EQ(int(s.rows[y].size()), w);
            for (int x = 0; x < w; ++x) {
                ASSERT_EQ(s.rows[y][x], s.rows[y][w - 1 - x]) << "seed " << seed;
                floor += s.rows[y][x] == ' ';
            }
            ASSERT_EQ(s.rows[0][0], '#');
            tunnel = tunnel || s.rows[y][0] == ' ';
        }
        for (int x = 0; x < w; ++x) ASSERT_TRUE(s.rows[0][x] == '#' && s.rows[h - 1][x] == '#');
        with_tunnels += tunnel;
        ASSERT_EQ(reachable(s.rows), floor) << "seed " << seed;
        // Placement: pacs left of the middle, mirrored; four distinct super pellets in pairs.
        ASSERT_GE(s.pacs, 2);
        ASSERT_LE(s.pacs, 5);
        ASSERT_EQ(s.super_cells.size(), 4u);
        std::set<int> used;
        for (int c : s.pac_cells) {
            ASSERT_LT(c % w, w / 2);
            ASSERT_EQ(s.rows[c / w][c % w], ' ');
            used.insert(c);
            used.insert((c / w) * w + w - 1 - c % w);
        }
        for (int c : s.super_cells) used.insert(c);
        ASSERT_EQ(int(used.size()), 2 * s.pacs + 4);
        // The start: every other floor cell holds a pellet; pac k of each side is type k mod 3.
        const auto map = build_map(s.rows);
        const Pos p = start_position(*map, s);
        EXPECT_EQ(p.pellets.count(), floor - 2 * s.pacs - 4);
        EXPECT_EQ(p.supers.count(), 4);
        for (int k = 0; k < s.pacs; ++k) {
            EXPECT_EQ(p.pac[1][k].cell, map->mirror(p.pac[0][k].cell));
            EXPECT_EQ(p.pac[0][k].type, k % 3);
            EXPECT_EQ(p.pac[1][k].type, k % 3);
        }
    }
    EXPECT_GT(with_tunnels, 100);  // most maps wrap
    EXPECT_LT(with_tunnels, 150);  // some do not
    EXPECT_EQ(widths.size(), 4u);
    EXPECT_EQ(heights.size(), 8u);
    EXPECT_EQ(counts.size(), 4u);
    EXPECT_EQ(generate_setup(9).rows, generate_setup(9).rows);  // one seed, one map
    EXPECT_NE(generate_setup(9).rows, generate_setup(10).rows);
}

TEST(PacMap, ShiftMovesMatchNeighboursFromCoordinates) {
    for (uint64_t seed : {3u, 4u, 5u}) {
        const pac::Setup s = generate_setup(seed);
        const auto map = build_map(s.rows);
        const int w = map->width, h = map->height;
        for (int y = 0; y < h; ++y)
            for (int x = 0; x < w; ++x) {
                if (s.rows[y][x] != ' ') continue;
                const BB here = BB::cell(y * w + x);
                auto floor_at = [&](int nx, int ny) {
                    return ny >= 0 && ny < h && s.rows[ny][nx] == ' ' ? BB::cell(ny * w + nx)
                                                                      : BB::none();
                };
                EXPECT_EQ(step_up(*map, here), floor_at(x, y - 1));
                EXPECT_EQ(step_down(*map, here), floor_at(x, y + 1));
                EXPECT_EQ(step_left(*map, here), floor_at((x + w - 1) % w, y));
                EXPECT_EQ(step_right(*map, here), floor_at((x + 1) % w, y));
                BB table = BB::none();
                for (int d = 0; d < 4; ++d)
                    if (map->neighbour[y * w + x][d] >= 0) table.set(map->neighbour[y * w + x][d]);
                EXPECT_EQ(grow(*map, here), table);
            }
    }
}

TEST(PacMap, GeneratorSizesAreChecked) {
    EXPECT_EQ(generate_rows(1, 31, 12).size(), 12u);
    EXPECT_THROW(generate_rows(1, 30, 12), InputError);
    EXPECT_THROW(generate_rows(1, 37, 12), InputError);
    EXPECT_THROW(generate_rows(1, 31, 9), InputError);
}

TEST(PacMap, MapFilesAreReadAndCheckedAtTheEdge) {
    using gaeval::testing::temp_file;
    const std::string good = "#########\n#       #\n# ## ## #\n#       #\n#########\n";
    const auto rows = read_map_file(temp_file("good.txt", good));
    EXPECT_EQ(rows.size(), 5u);
    auto error_of = [&](const std::string& text) {
        try {
            read_map_file(temp_file("bad.txt", text));
        } catch (const InputError& e) {
            return std::string(e.what());
        }
        return std::string("no error");
    };
    EXPECT_NE(error_of("#########\n#  x    #\n#########\n").find("line 2, column 4"),
              std::string::npos);
    EXPECT_NE(error_of("#########\n#       #\n########\n").find("line 3 has 8 cells"),
              std::string::npos);
    EXPECT_NE(error_of("#########\n# #     #\n#########\n").find("mirror"), std::string::npos);
    EXPECT_NE(error_of("#########\n# #   # #\n# #   # #\n# #   # #\n# #   # #\n#########\n")
                  .find("connected"),
              std::string::npos);
    EXPECT_NE(error_of("#####\n#   #\n#####\n").find("at least 7"), std::string::npos);
    EXPECT_NE(error_of(std::string(36, '#') + "\n").find("35 x 17"), std::string::npos);
    EXPECT_NE(error_of("").find("0 x 0"), std::string::npos);
    EXPECT_THROW(read_map_file("/nonexistent/map.txt"), InputError);
}

}  // namespace
