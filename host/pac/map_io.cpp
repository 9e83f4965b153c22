#include "host/pac/map_io.hpp"

#include <algorithm>
#include <deque>
#include <fstream>
#include <utility>

#include "games/core/rng.hpp"
#include "host/core/error.hpp"

namespace gaeval::pac {

namespace {

// An addressed draw of the generator: (seed, what, index) -> 32 bits.
uint32_t map_draw(uint64_t seed, uint32_t what, uint32_t index, uint32_t word = 0) {
    return philox(seed, Purpose::PacMap, what, index, 0, 0).v[word];
}
uint32_t place_draw(uint64_t seed, uint32_t what, uint32_t index) {
    return philox(seed, Purpose::PacPlacement, what, index, 0, 0).v[0];
}

bool is_floor(const std::vector<std::string>& rows, int x, int y) { return rows[y][x] == ' '; }

// Floor neighbours of (x, y) with the horizontal wrap, in Direction order.
std::vector<std::pair<int, int>> floor_neighbours(const std::vector<std::string>& rows, int x,
                                                  int y) {
    const int w = static_cast<int>(rows[0].size()), h = static_cast<int>(rows.size());
    std::vector<std::pair<int, int>> out;
    const std::pair<int, int> candidates[4] = {
        {x, y - 1}, {(x + 1) % w, y}, {x, y + 1}, {(x + w - 1) % w, y}};
    for (const auto& [nx, ny] : candidates)
        if (ny >= 0 && ny < h && is_floor(rows, nx, ny)) out.push_back({nx, ny});
    return out;
}

// Shortest path lengths from (x, y) to every cell (-1: no path), by breadth-first search.
std::vector<int> bfs(const std::vector<std::string>& rows, int x, int y) {
    const int w = static_cast<int>(rows[0].size()), h = static_cast<int>(rows.size());
    std::vector<int> dist(w * h, -1);
    std::deque<std::pair<int, int>> queue{{x, y}};
    dist[y * w + x] = 0;
    while (!queue.empty()) {
        const auto [cx, cy] = queue.front();
        queue.pop_front();
        for (const auto& [nx, ny] : floor_neighbours(rows, cx, cy)) {
            if (dist[ny * w + nx] >= 0) continue;
            dist[ny * w + nx] = dist[cy * w + cx] + 1;
            queue.push_back({nx, ny});
        }
    }
    return dist;
}

// Addressed Fisher-Yates shuffle.
template <class T>
void shuffle(std::vector<T>& items, uint64_t seed, uint32_t what) {
    for (std::size_t i = items.size(); i > 1; --i) {
        const uint32_t j =
            below(place_draw(seed, what, static_cast<uint32_t>(i)), static_cast<uint32_t>(i));
        std::swap(items[i - 1], items[j]);
    }
}

}  // namespace

std::vector<std::string> generate_rows(uint64_t seed, int width, int height) {
    if (width == 0)
        width = kGeneratedMinWidth + 2 * static_cast<int>(below(map_draw(seed, 0, 0), 4));
    if (height == 0)
        height =
            kGeneratedMinHeight +
            static_cast<int>(below(map_draw(seed, 0, 1), kMaxHeight - kGeneratedMinHeight + 1));
    if (width < kGeneratedMinWidth || width > kMaxWidth || width % 2 == 0)
        throw InputError("--width " + std::to_string(width) +
                         ": generated maps are 29, 31, 33 or " +
                         "35 wide (odd, so that a middle column exists)");
    if (height < kGeneratedMinHeight || height > kMaxHeight)
        throw InputError("--height " + std::to_string(height) +
                         ": generated maps are 10 to 17 high");
    std::vector<std::string> rows(height, std::string(width, '#'));
    const int middle = width / 2;
    // Rooms on odd coordinates of the left half (the middle column included; with an even
    // height the last room row moves down to the last row inside the border), joined by a
    // random spanning tree (depth-first, addressed draws), then braided: most dead ends get a
    // second way out, and a few more walls between rooms open to make loops.
    std::vector<int> room_rows, room_columns;
    for (int y = 1; y <= height - 2; y += 2) room_rows.push_back(y);
    room_rows.back() = height - 2;
    for (int x = 1; x <= middle; x += 2) room_columns.push_back(x);
    const int row_count = static_cast<int>(room_rows.size());
    const int column_count = static_cast<int>(room_columns.size());
    std::vector<std::pair<int, int>> rooms;  // (x, y)
    for (int j = 0; j < row_count; ++j)
        for (int i = 0; i < column_count; ++i) rooms.push_back({room_columns[i], room_rows[j]});
    auto adjacent_rooms = [&](int r) {
        std::vector<int> out;
        const int i = r % column_count, j = r / column_count;
        if (j > 0) out.push_back(r - column_count);
        if (i + 1 < column_count) out.push_back(r + 1);
        if (j + 1 < row_count) out.push_back(r + column_count);
        if (i > 0) out.push_back(r - 1);
        return out;
    };
    auto open_between = [&](int a, int b) {
        const auto [ax, ay] = rooms[a];
        const auto [bx, by] = rooms[b];
        for (int y = std::min(ay, by); y <= std::max(ay, by); ++y)
            for (int x = std::min(ax, bx); x <= std::max(ax, bx); ++x) rows[y][x] = ' ';
    };
    for (const auto& [x, y] : rooms) rows[y][x] = ' ';
    std::vector<bool> visited(rooms.size(), false);
    std::vector<int> stack{static_cast<int>(below(map_draw(seed, 1, 0), uint32_t(rooms.size())))};
    visited[stack.back()] = true;
    uint32_t step = 0;
    while (!stack.empty()) {
        std::vector<int> fresh;
        for (int j : adjacent_rooms(stack.back()))
            if (!visited[j]) fresh.push_back(j);
        if (fresh.empty()) {
            stack.pop_back();
            continue;
        }
        const int j = fresh[below(map_draw(seed, 2, step++), uint32_t(fresh.size()))];
        open_between(stack.back(), j);
        visited[j] = true;
        stack.push_back(j);
    }
    for (std::size_t i = 0; i < rooms.size(); ++i) {
        const auto [x, y] = rooms[i];
        const std::vector<int> next = adjacent_rooms(static_cast<int>(i));
        const bool dead_end = floor_neighbours(rows, x, y).size() <= 1;
        const uint32_t r = map_draw(seed, 3, static_cast<uint32_t>(i));
        const bool braid = dead_end ? unit_float(r) < 0.8f : unit_float(r) < 0.12f;
        if (!braid || next.empty()) continue;
        const int j =
            next[below(map_draw(seed, 3, static_cast<uint32_t>(i), 1), uint32_t(next.size()))];
        open_between(static_cast<int>(i), j);
    }
    // The middle: with an even middle column the rooms next to it open into it (at least one row,
    // else the halves would not meet).
    if (middle % 2 == 0) {
        bool any = false;
        for (std::size_t k = 0; k < room_rows.size(); ++k) {
            if (unit_float(map_draw(seed, 4, static_cast<uint32_t>(k))) < 0.5f) {
                rows[room_rows[k]][middle] = ' ';
                any = true;
            }
        }
        if (!any)
            rows[room_rows[below(map_draw(seed, 5, 0), uint32_t(room_rows.size()))]][middle] = ' ';
    }
    // Tunnels: up to two room rows open through the side wall (wrapping to the mirror side).
    const uint32_t tunnels =
        below(map_draw(seed, 6, 0), 8) == 0 ? 0 : 1 + below(map_draw(seed, 6, 1), 2);
    for (uint32_t t = 0; t < tunnels; ++t)
        rows[room_rows[below(map_draw(seed, 7, t), uint32_t(row_count))]][0] = ' ';
    // Mirror the left half onto the right.
    for (auto& row : rows)
        for (int x = middle + 1; x < width; ++x) row[x] = row[width - 1 - x];
    return rows;
}

std::vector<std::string> read_map_file(const std::string& path) {
    std::ifstream in(path);
    if (!in) throw InputError("--map " + path + ": cannot read the file");
    std::vector<std::string> rows;
    std::string line;
    int number = 0;
    while (std::getline(in, line)) {
        ++number;
        if (!line.empty() && line.back() == '\r') line.pop_back();
        for (std::size_t x = 0; x < line.size(); ++x)
            if (line[x] != '#' && line[x] != ' ')
                throw InputError("--map " + path + ": line " + std::to_string(number) +
                                 ", column " + std::to_string(x + 1) +
                                 ": only '#' (wall) and ' ' (floor) are allowed");
        rows.push_back(line);
    }
    while (!rows.empty() && rows.back().empty()) rows.pop_back();
    for (std::size_t y = 0; y < rows.size(); ++y)
        if (rows[y].size() != rows[0].size())
            throw InputError("--map " + path + ": line " + std::to_string(y + 1) + " has " +
                             std::to_string(rows[y].size()) + " cells, line 1 has " +
                             std::to_string(rows[0].size()) + " (every row equally long)");
    check_rows(rows, "--map " + path);
    return rows;
}

void check_rows(const std::vector<std::string>& rows, const std::string& origin) {
    const int h = static_cast<int>(rows.size());
    const int w = h > 0 ? static_cast<int>(rows[0].size()) : 0;
    if (w < 3 || h < 3 || w > kMaxWidth || h > kMaxHeight)
        throw InputError(origin + ": the map is " + std::to_string(w) + " x " + std::to_string(h) +
                         "; maps are 3 x 3 to 35 x 17 cells");
    int floor = 0, left = 0, first_x = -1, first_y = -1;
    for (int y = 0; y < h; ++y) {
        if (static_cast<int>(rows[y].size()) != w)
            throw InputError(origin + ": row " + std::to_string(y) + " is not " +
                             std::to_string(w) + " cells long");
        for (int x = 0; x < w; ++x) {
            const char c = rows[y][x];
            if (c != '#' && c != ' ')
                throw InputError(origin + ": cell (" + std::to_string(x) + ", " +
                                 std::to_string(y) + ") is neither '#' nor ' '");
            if (c != rows[y][w - 1 - x])
                throw InputError(origin + ": not mirror-symmetric: cell (" + std::to_string(x) +
                                 ", " + std::to_string(y) + ") differs from (" +
                                 std::to_string(w - 1 - x) + ", " + std::to_string(y) + ")");
            if (c != ' ') continue;
            ++floor;
            left += x < w / 2;
            if (first_x < 0) first_x = x, first_y = y;
        }
    }
    if (left < kMaxPacs + kSuperPellets / 2)
        throw InputError(origin + ": " + std::to_string(left) +
                         " floor cells left of the middle; at least 7 are needed (pacs and " +
                         "super pellets)");
    const std::vector<int> from_first = bfs(rows, first_x, first_y);
    int reached = 0;
    for (int d : from_first) reached += d >= 0;
    if (reached != floor)
        throw InputError(origin + ": the floor is not one connected region (" +
                         std::to_string(reached) + " of " + std::to_string(floor) +
                         " floor cells reachable from (" + std::to_string(first_x) + ", " +
                         std::to_string(first_y) + "))");
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
            if (!is_floor(rows, x, y)) continue;
            for (int d : bfs(rows, x, y))
                if (d >= kNoPath)
                    throw InputError(origin + ": a shortest path of " + std::to_string(d) +
                                     " steps; at most 254 are supported");
        }
}

Setup place(const std::vector<std::string>& rows, uint64_t seed, int pacs) {
    Setup s;
    s.rows = rows;
    const int w = static_cast<int>(rows[0].size()), h = static_cast<int>(rows.size());
    s.pacs = pacs > 0 ? pacs : 2 + static_cast<int>(below(place_draw(seed, 0, 0), 4));
    std::vector<int> left;
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w / 2; ++x)
            if (is_floor(rows, x, y)) left.push_back(y * w + x);
    shuffle(left, seed, 1);
    for (int k = 0; k < s.pacs; ++k) s.pac_cells.push_back(left[k]);
    for (int k = 0; k < kSuperPellets / 2; ++k) {
        const int c = left[s.pacs + k];
        s.super_cells.push_back(c);
        s.super_cells.push_back((c / w) * w + (w - 1 - c % w));
    }
    return s;
}

Setup generate_setup(uint64_t seed, int width, int height, int pacs) {
    std::vector<std::string> rows = generate_rows(seed, width, height);
    check_rows(rows, "generated map (seed " + std::to_string(seed) + ")");
    return place(rows, seed, pacs);
}

std::unique_ptr<Map> build_map(const std::vector<std::string>& rows) {
    auto m = std::make_unique<Map>();
    const int h = static_cast<int>(rows.size()), w = static_cast<int>(rows[0].size());
    m->width = static_cast<int16_t>(w);
    m->height = static_cast<int16_t>(h);
    m->cells = static_cast<int16_t>(w * h);
    m->floor = m->first_column = m->last_column = BB::none();
    for (int c = 0; c < kMaxCells; ++c) {
        for (int d = 0; d < 4; ++d) m->neighbour[c][d] = -1;
        for (int t = 0; t < kMaxCells; ++t) m->dist[c][t] = kNoPath;
        m->sight[c] = BB::none();
    }
    for (int y = 0; y < h; ++y) {
        m->first_column.set(y * w);
        m->last_column.set(y * w + w - 1);
        for (int x = 0; x < w; ++x)
            if (is_floor(rows, x, y)) m->floor.set(y * w + x);
    }
    m->floor_count = static_cast<int16_t>(m->floor.count());
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
            if (!is_floor(rows, x, y)) continue;
            const int c = y * w + x;
            const std::pair<int, int> candidates[4] = {
                {x, y - 1}, {(x + 1) % w, y}, {x, y + 1}, {(x + w - 1) % w, y}};
            for (int d = 0; d < 4; ++d) {
                const auto [nx, ny] = candidates[d];
                if (ny >= 0 && ny < h && is_floor(rows, nx, ny))
                    m->neighbour[c][d] = static_cast<int16_t>(ny * w + nx);
            }
            const std::vector<int> dist = bfs(rows, x, y);
            for (int t = 0; t < w * h; ++t)
                if (dist[t] >= 0) m->dist[c][t] = static_cast<uint8_t>(dist[t]);
        }
    for (int c = 0; c < w * h; ++c) {
        if (!m->floor.test(c)) continue;
        m->sight[c].set(c);
        for (int d = 0; d < 4; ++d)
            for (int n = m->neighbour[c][d]; n >= 0 && n != c; n = m->neighbour[n][d])
                m->sight[c].set(n);
    }
    return m;
}

Pos start_position(const Map& map, const Setup& setup) {
    Pos p;
    p.pacs = static_cast<uint8_t>(setup.pacs);
    p.supers = BB::none();
    for (int c : setup.super_cells) p.supers.set(c);
    BB pellets = map.floor.minus(p.supers);
    for (int s = 0; s < 2; ++s)
        for (int k = 0; k < kMaxPacs; ++k) {
            Pac& a = p.pac[s][k];
            a = Pac{};
            if (k >= setup.pacs) continue;
            a.cell =
                static_cast<int16_t>(s == 0 ? setup.pac_cells[k] : map.mirror(setup.pac_cells[k]));
            a.type = static_cast<uint8_t>(k % 3);
            a.alive = 1;
            pellets.reset(a.cell);
        }
    p.pellets = pellets;
    p.maybe[0] = p.maybe[1] = pellets;
    for (auto& c : p.pending) c = Command::wait();
    return p;
}

}  // namespace gaeval::pac
