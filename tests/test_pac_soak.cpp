// A long random-play soak: many matches (random and greedy players) on generated maps, every
// turn checked against invariants of the rules and against a second, plain implementation of
// a turn written here from docs/pac.md (coordinates, std containers, a breadth-first search per
// step instead of the bitboards and distance tables).
#include <gtest/gtest.h>

#include <deque>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "games/core/players.hpp"
#include "games/pac/game.hpp"
#include "host/pac/map_io.hpp"

namespace {

using namespace gaeval;
using namespace gaeval::pac;

// ---- the reference turn ------------------------------------------------------------------

struct RefPac {
    int side, x, y, type;
    bool alive;
    int speed, cooldown;
    bool blocked;
};
struct RefState {
    std::set<std::pair<int, int>> pellets, supers;
    std::vector<RefPac> pacs;  // side-major, pac k of side s at s * n + k
    int score[2] = {0, 0};
    int turn = 0;
    bool over = false;
};

struct Reference {
    std::vector<std::string> rows;
    int w() const { return int(rows[0].size()); }
    int h() const { return int(rows.size()); }
    std::vector<std::pair<int, int>> neighbours(int x, int y) const {  // up, right, down, left
        std::vector<std::pair<int, int>> out;
        const std::pair<int, int> c[4] = {
            {x, y - 1}, {(x + 1) % w(), y}, {x, y + 1}, {(x + w() - 1) % w(), y}};
        for (auto [nx, ny] : c)
            if (ny >= 0 && ny < h() && rows[ny][nx] == ' ') out.push_back({nx, ny});
        return out;
    }
    // Distances to (tx, ty) by breadth-first search.
    std::map<std::pair<int, int>, int> distances(int tx, int ty) const {
        std::map<std::pair<int, int>, int> d{{{tx, ty}, 0}};
        std::deque<std::pair<int, int>> q{{tx, ty}};
        while (!q.empty()) {
            auto cur = q.front();
            q.pop_front();
            for (auto n : neighbours(cur.first, cur.second))
                if (!d.count(n)) d[n] = d[cur] + 1, q.push_back(n);
        }
        return d;
    }
    // First step from (x, y) toward the target: the first neighbour (up, right, down, left)
    // one step closer.
    std::pair<int, int> step(int x, int y, const std::map<std::pair<int, int>, int>& d) const {
        for (auto n : neighbours(x, y))
            if (d.at(n) == d.at({x, y}) - 1) return n;
        return {x, y};
    }

    void play(RefState& s, const Command* cmds[2]) const {
        const int n = int(s.pacs.size()) / 2;
        std::vector<bool> fast(s.pacs.size()), bounced(s.pacs.size(), false);
        std::vector<std::vector<std::pair<int, int>>> path(s.pacs.size());
        for (std::size_t i = 0; i < s.pacs.size(); ++i) {
            RefPac& a = s.pacs[i];
            if (!a.alive) continue;
            const Command& c = cmds[a.side][i % n];
            fast[i] = a.speed > 0;
            if ((c.kind == kSpeed || c.kind == kSwitch) && a.cooldown == 0) {
                if (c.kind == kSpeed)
                    a.speed = 5;
                else
                    a.type = c.type;
                a.cooldown = 10;
            }
            if (c.kind == kMoveTo) {
                const int tx = c.target % w(), ty = c.target / w();
                if (tx == a.x && ty == a.y) continue;
                const auto d = distances(tx, ty);
                auto first = step(a.x, a.y, d);
                path[i].push_back(first);
                if (fast[i] && first != std::make_pair(tx, ty))
                    path[i].push_back(step(first.first, first.second, d));
            }
        }
        std::vector<std::size_t> done(s.pacs.size(), 0);
        for (int sub = 0; sub < 2; ++sub) {
            std::set<std::size_t> movers;
            for (std::size_t i = 0; i < s.pacs.size(); ++i)
                if (s.pacs[i].alive && done[i] < path[i].size() && (sub == 0 || fast[i]))
                    movers.insert(i);
            if (movers.empty()) continue;
            std::set<std::size_t> stopped;
            for (bool again = true; again;) {
                std::set<std::size_t> fresh;
                for (std::size_t i : movers) {
                    if (stopped.count(i)) continue;
                    const RefPac& a = s.pacs[i];
                    const auto to = path[i][done[i]];
                    for (std::size_t j = 0; j < s.pacs.size(); ++j) {
                        const RefPac& b = s.pacs[j];
                        if (j == i || !b.alive) continue;
                        const bool b_moving = movers.count(j) && !stopped.count(j);
                        const auto b_to = b_moving ? path[j][done[j]] : std::make_pair(b.x, b.y);
                        const bool land = to == b_to;
                        const bool cross = b_moving && to == std::make_pair(b.x, b.y) &&
                                           b_to == std::make_pair(a.x, a.y);
                        if (!land && !cross) continue;
                        const bool b_eats_a = (b.type + 3 - a.type) % 3 == 1;
                        if (a.side == b.side || a.type == b.type || (cross && b_eats_a))
                            fresh.insert(i);
                    }
                }
                again = !fresh.empty();
                stopped.insert(fresh.begin(), fresh.end());
            }
            for (std::size_t i : movers) {
                if (stopped.count(i)) {
                    bounced[i] = true;
                    continue;
                }
                s.pacs[i].x = path[i][done[i]].first;
                s.pacs[i].y = path[i][done[i]].second;
                ++done[i];
            }
            std::vector<bool> dies(s.pacs.size(), false);
            for (std::size_t i = 0; i < s.pacs.size(); ++i)
                for (std::size_t j = 0; j < s.pacs.size(); ++j)
                    if (s.pacs[i].alive && s.pacs[j].alive && s.pacs[i].side != s.pacs[j].side &&
                        s.pacs[i].x == s.pacs[j].x && s.pacs[i].y == s.pacs[j].y &&
                        (s.pacs[j].type + 3 - s.pacs[i].type) % 3 == 1)
                        dies[i] = true;
            for (std::size_t i = 0; i < s.pacs.size(); ++i)
                if (dies[i]) s.pacs[i].alive = false;
            std::set<std::pair<int, int>> eaten;
            for (const RefPac& a : s.pacs) {
                if (!a.alive) continue;
                const std::pair<int, int> at{a.x, a.y};
                if (s.pellets.count(at)) s.score[a.side] += 1, eaten.insert(at);
                if (s.supers.count(at)) s.score[a.side] += 10, eaten.insert(at);
            }
            for (auto c : eaten) s.pellets.erase(c), s.supers.erase(c);
        }
        for (std::size_t i = 0; i < s.pacs.size(); ++i) {
            RefPac& a = s.pacs[i];
            if (a.cooldown > 0) --a.cooldown;
            if (fast[i] && a.speed > 0) --a.speed;
            a.blocked = bounced[i];
        }
        ++s.turn;
        int alive[2] = {0, 0};
        for (const RefPac& a : s.pacs) alive[a.side] += a.alive;
        const int left = int(s.pellets.size()) + 10 * int(s.supers.size());
        if (alive[0] == 0 || alive[1] == 0) {
            for (int side = 0; side < 2; ++side)
                if (alive[side] > 0) s.score[side] += left;
            s.pellets.clear();
            s.supers.clear();
            s.over = true;
        } else if (s.turn >= 200 || left == 0 || left < std::abs(s.score[0] - s.score[1])) {
            s.over = true;
        }
    }
};

RefState to_reference(const Map& m, const Pos& p) {
    RefState s;
    for_each_cell(p.pellets, [&](int c) { s.pellets.insert({m.x_of(c), m.y_of(c)}); });
    for_each_cell(p.supers, [&](int c) { s.supers.insert({m.x_of(c), m.y_of(c)}); });
    for (int side = 0; side < 2; ++side)
        for (int k = 0; k < p.pacs; ++k) {
            const Pac& a = p.pac[side][k];
            s.pacs.push_back({side, m.x_of(a.cell), m.y_of(a.cell), a.type, a.alive != 0,
                              a.speed_turns, a.cooldown, a.blocked != 0});
        }
    s.score[0] = p.score[0];
    s.score[1] = p.score[1];
    s.turn = p.turn;
    s.over = p.over;
    return s;
}

bool same(const RefState& a, const RefState& b, std::string* why) {
    if (a.pellets != b.pellets) return *why = "pellets", false;
    if (a.supers != b.supers) return *why = "super pellets", false;
    if (a.score[0] != b.score[0] || a.score[1] != b.score[1]) return *why = "scores", false;
    if (a.turn != b.turn || a.over != b.over) return *why = "turn or end", false;
    for (std::size_t i = 0; i < a.pacs.size(); ++i) {
        const RefPac &x = a.pacs[i], &y = b.pacs[i];
        if (x.alive != y.alive || x.type != y.type || x.speed != y.speed ||
            x.cooldown != y.cooldown || x.blocked != y.blocked ||
            (x.alive && (x.x != y.x || x.y != y.y)))
            return *why = "pac " + std::to_string(i), false;
    }
    return true;
}

// ---- invariants --------------------------------------------------------------------------

void check_invariants(const Map& m, const Pos& p, const Pos& before, int initial_value) {
    for (int s = 0; s < 2; ++s) {
        EXPECT_GE(p.score[s], before.score[s]);
        EXPECT_EQ(p.maybe[s] & p.pellets, p.pellets);  // nobody forgets a pellet that is there
        for (int k = 0; k < p.pacs; ++k) {
            const Pac& a = p.pac[s][k];
            EXPECT_LE(a.speed_turns, kSpeedTurns);
            EXPECT_LT(a.cooldown, kCooldown);
            if (!a.alive) continue;
            EXPECT_TRUE(m.floor.test(a.cell));
            EXPECT_FALSE(p.pellets.test(a.cell) || p.supers.test(a.cell));
            for (int t = 0; t < 2; ++t)
                for (int j = 0; j < p.pacs; ++j) {
                    const Pac& b = p.pac[t][j];
                    if ((t == s && j == k) || !b.alive || b.cell != a.cell) continue;
                    ADD_FAILURE() << "two living pacs on one cell (" << s << "," << k << ") (" << t
                                  << "," << j << ") at turn " << p.turn;
                }
        }
    }
    EXPECT_EQ(p.pellets & m.floor, p.pellets);
    EXPECT_FALSE(p.pellets.intersects(p.supers));
    // Every point scored is a pellet gone (two pacs never share a pellet: they would share a
    // cell).
    EXPECT_EQ(p.score[0] + p.score[1] + remaining_value(p), initial_value);
    EXPECT_LE(p.turn, kTurnLimit);
}

TEST(PacSoak, RandomPlayKeepsTheRulesAndMatchesTheReference) {
    int matches = 0, turns = 0, kills = 0, wipeouts = 0, speeds = 0, switches = 0;
    for (uint64_t seed = 1; seed <= 24; ++seed) {
        const pac::Setup setup = generate_setup(seed);
        const auto map = build_map(setup.rows);
        const Game game{map.get()};
        const Reference ref{setup.rows};
        const Pos start = start_position(*map, setup);
        const int initial_value = remaining_value(start);
        for (int pairing = 0; pairing < 3; ++pairing) {
            Player<Game> players[2];
            players[0].kind = pairing == 0 ? PlayerKind::Random : PlayerKind::Policy;
            players[1].kind = pairing == 2 ? PlayerKind::Policy : PlayerKind::Random;
            players[0].policy = players[1].policy = 1;
            Pos p = start;
            uint32_t ply = 0;
            Move moves[2];
            while (!p.over) {
                const int seat = p.side;
                moves[seat] = choose_move(game, p, players[seat],
                                          DrawAddress{seed, uint32_t(pairing), ply++});
                const Pos before = p;
                p = game.make(p, moves[seat]);
                if (seat == 0) continue;
                ++turns;
                for (int k = 0; k < p.pacs; ++k)
                    for (int s = 0; s < 2; ++s) {
                        kills += before.pac[s][k].alive && !p.pac[s][k].alive;
                        speeds += moves[s].pac[k].kind == kSpeed && before.pac[s][k].cooldown == 0;
                        switches +=
                            moves[s].pac[k].kind == kSwitch && before.pac[s][k].cooldown == 0;
                    }
                check_invariants(*map, p, before, initial_value);
                RefState expected = to_reference(*map, before);
                const Command* cmds[2] = {moves[0].pac, moves[1].pac};
                ref.play(expected, cmds);
                std::string why;
                ASSERT_TRUE(same(to_reference(*map, p), expected, &why))
                    << "differs from the reference in " << why << ": map seed " << seed
                    << ", pairing " << pairing << ", turn " << p.turn;
                if (::testing::Test::HasFailure()) return;
            }
            wipeouts += alive_count(p, 0) == 0 || alive_count(p, 1) == 0;
            ++matches;
        }
    }
    // The soak exercised what it claims to.
    EXPECT_EQ(matches, 72);
    EXPECT_GT(turns, 5000);
    EXPECT_GT(kills, 50);
    EXPECT_GT(wipeouts, 0);
    EXPECT_GT(speeds, 100);
    EXPECT_GT(switches, 100);
}

}  // namespace
