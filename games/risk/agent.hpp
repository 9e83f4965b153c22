// The seed's Risk agent and the built-in players (docs/risk.md):
//   features        4 values in [0, 1], higher is better for the seat: territory share, army
//                   share, continent share (bonus-weighted share of each continent held) and
//                   border safety (own armies on threatened territories over those armies plus
//                   the enemy armies next to them).
//   setup           (alpha-beta agent) every starting army on the attack base concentrated_move
//                   picks (the seed drafts reinforcements; the setup placement is our choice).
//   drafting        border security threat BST (enemy armies next to a territory), BSR = BST /
//                   own armies there, NBSR = BSR / sum of BSR; sorted descending, the lower half
//                   set to zero, floor shares in proportion, and the remainder again over the
//                   upper half of that, until none is left; one placement move gives the
//                   highest-NBSR territory all this plan gives it (at least one), the next
//                   placement plans again with the armies now on the board.
//   search          attacks as edges (from, to, all armies but one), pruned to conquest odds at
//                   least the threshold; each is a chance node of two outcomes (conquest with
//                   the expected survivors, failure with the expected defenders left) weighed by
//                   the exact odds; stopping plays the agents' fortification, the next seats'
//                   card trades and drafting deterministically (no card is drawn: the look-ahead
//                   never reads a future draw); depth-limited alpha-beta over it, paranoid (every
//                   other seat minimises), leaves scored by the weighted features (a leaf reached
//                   by stopping is scored after the fortification, before the next seat
//                   reinforces: every leaf of a turn is scored before that seat's armies come).
//   passive         random placement, never attacks nor fortifies.
//   aggressive      everything on the best attack base, attacks while the best conquest
//                   probability is above 1/2.
//   drafter         drafting, then greedy attacks (the likeliest conquest while its probability
//                   is at least the threshold).
// Cards: every player here trades as soon as it may. Fortification (all but passive): the
// strongest interior territory next to a threatened one moves all but one army to its
// neighbour with the highest BSR.
#pragma once

#include <cstdint>

#include "games/core/bits.hpp"
#include "games/core/hd.hpp"
#include "games/core/players.hpp"
#include "games/risk/rules.hpp"

namespace gaeval::risk {

constexpr int kFeatureCount = 4;
constexpr int kMaxSearchDepth = 8;   // deepest search (plies of attack decisions)
constexpr int kMaxAttackEdges = 12;  // attacks a search node keeps (the likeliest)
constexpr float kSearchInfinity = 3.0e38f;

// ---- battle odds --------------------------------------------------------------------------

struct Battle {
    float win;      // P(conquest)
    int survivors;  // expected committed armies left after a conquest (rounded, >= 1)
    int defenders;  // expected defenders left after a failure (rounded, >= 1)
};

// The odds of committing a armies against d (a, d >= 1). Beyond the table both counts are scaled
// down to it (the ratio kept) and the expected counts scaled back.
GAEVAL_HD_INLINE Battle battle_odds(const Odds& o, int a, int d) {
    Battle b;
    if (a < kOddsSize && d < kOddsSize) {
        b.win = o.win[a][d];
        b.survivors = o.won_survivors[a][d];
        b.defenders = o.lost_defenders[a][d];
        return b;
    }
    const int top = max(a, d), last = kOddsSize - 1;
    const int sa = max(1, a * last / top), sd = max(1, d * last / top);
    b.win = o.win[sa][sd];
    b.survivors = clamp(o.won_survivors[sa][sd] * top / last, 1, a);
    b.defenders = clamp(o.lost_defenders[sa][sd] * top / last, 1, d);
    return b;
}

// ---- features -----------------------------------------------------------------------------

// Enemy armies next to territory t of `seat`: the border security threat (BST).
GAEVAL_HD_INLINE int threat(const Map& m, const Pos& p, int seat, int t) {
    return armies_on(p, m.borders[t] & ~p.owned[seat]);
}

// The 4 features of `seat` in p, each in [0, 1] (see the top of this file).
GAEVAL_HD_INLINE void features(const Map& m, const Pos& p, int seat, float* out) {
    const uint64_t own = p.owned[seat];
    out[0] = static_cast<float>(popcount64(own)) / static_cast<float>(m.territories);
    const int mine = armies_on(p, own), all = armies_on(p, m.all);
    out[1] = all > 0 ? static_cast<float>(mine) / static_cast<float>(all) : 0.0f;
    float held = 0.0f, total = 0.0f;
    for (int c = 0; c < m.continents; ++c) {
        const uint64_t cells = m.continent_cells[c];
        if (m.bonus[c] <= 0 || cells == 0) continue;
        const float weighted =
            static_cast<float>(m.bonus[c]) * static_cast<float>(popcount64(own & cells));
        held = held + weighted / static_cast<float>(popcount64(cells));
        total = total + static_cast<float>(m.bonus[c]);
    }
    out[2] = total > 0.0f ? held / total : out[0];
    int guard = 0, danger = 0;
    for (uint64_t x = own; x; x = clear_lowest(x)) {
        const int t = lowest_bit(x);
        const int bst = threat(m, p, seat, t);
        if (bst == 0) continue;
        guard += p.armies[t];
        danger += bst;
    }
    out[3] = guard + danger > 0 ? static_cast<float>(guard) / static_cast<float>(guard + danger)
                                : (own ? 1.0f : 0.0f);
}

// sum_i weights[i] * features(p, seat)[i].
GAEVAL_HD_INLINE float evaluate(const Map& m, const Pos& p, int seat, const float* weights) {
    float values[kFeatureCount];
    features(m, p, seat, values);
    return weighted_score<kFeatureCount>(weights, values);
}

// ---- placement, fortification and greedy attacks -------------------------------------------

GAEVAL_HD_INLINE Move place_move(int territory, int armies) {
    Move mv;
    mv.act = Act::Place;
    mv.from = mv.to = static_cast<uint8_t>(territory);
    mv.count = static_cast<uint16_t>(armies);
    return mv;
}

GAEVAL_HD_INLINE Move act_move(Act act) {
    Move mv;
    mv.act = act;
    return mv;
}

// The seed's drafting step for the mover with `to_place` armies left (see the top of this
// file): the territory with the highest BSR (ties: lowest index) and everything it receives in
// the plan for `to_place` armies (the passes below: proportional shares of the upper half,
// the remainder again over the upper half of that, ...), at least 1. Everything on the lowest
// territory when nothing is threatened. Assumes the mover owns a territory. `ratio`: working
// memory of kMaxTerritories floats (a playout's scratch: games/core/scratch.hpp).
inline GAEVAL_HD Move drafting_move(const Map& m, const Pos& p, int to_place, float* ratio) {
    const int s = p.mover;
    const uint64_t own = p.owned[s];
    int owned = 0, positive = 0, best = lowest_bit(own);
    float best_ratio = 0.0f;
    for (uint64_t x = own; x; x = clear_lowest(x)) {
        const int t = lowest_bit(x);
        ++owned;
        const float r = static_cast<float>(threat(m, p, s, t)) / static_cast<float>(p.armies[t]);
        if (r <= 0.0f) continue;
        ratio[positive++] = r;
        if (r > best_ratio) {
            best_ratio = r;
            best = t;
        }
    }
    if (positive == 0) return place_move(best, to_place);
    for (int i = 1; i < positive; ++i)
        for (int j = i; j > 0 && ratio[j - 1] < ratio[j]; --j) swap(ratio[j - 1], ratio[j]);
    // Pass k keeps the upper half of the previous pass's territories (ceil(owned / 2), then
    // half of that, ...; the zero ratios are the lowest) and gives each floor(left x ratio /
    // the kept ratios' sum, added in descending order); a pass of one territory takes what is
    // left. ratio[0] is the top territory's: it is in every pass.
    int left = to_place, size = owned, top = 0;
    while (left > 0) {
        size = size - size / 2;
        const int keep = min(positive, size);
        if (keep == 1) {
            top += left;
            break;
        }
        float kept = 0.0f;
        for (int i = 0; i < keep; ++i) kept = kept + ratio[i];
        int given = 0;
        for (int i = 0; i < keep; ++i) {
            const int share = static_cast<int>(static_cast<float>(left) * ratio[i] / kept);
            if (i == 0) top += share;
            given += share;
        }
        left -= given;
    }
    return place_move(best, clamp(top, 1, to_place));
}

// drafting_move with its working memory on the stack.
GAEVAL_HD_INLINE Move drafting_move(const Map& m, const Pos& p, int to_place) {
    float ratio[kMaxTerritories];
    return drafting_move(m, p, to_place, ratio);
}

// Aggressive placement: everything on the own territory with the largest lead over its weakest
// enemy neighbour (ties: lowest index).
GAEVAL_HD_INLINE Move concentrated_move(const Map& m, const Pos& p, int to_place) {
    const uint64_t own = p.owned[p.mover];
    int best = lowest_bit(own), best_lead = -kMaxArmies - 1;
    for (uint64_t x = own; x; x = clear_lowest(x)) {
        const int t = lowest_bit(x);
        const uint64_t enemies = m.borders[t] & ~own;
        if (!enemies) continue;
        int weakest = kMaxArmies;
        for (uint64_t e = enemies; e; e = clear_lowest(e))
            weakest = min(weakest, int(p.armies[lowest_bit(e)]));
        const int lead = p.armies[t] - weakest;
        if (lead > best_lead) {
            best_lead = lead;
            best = t;
        }
    }
    return place_move(best, to_place);
}

// The agents' fortification: the interior territory (no enemy neighbour) with the most armies
// (at least 2; ties: lowest index) next to a threatened own territory moves all but one army
// to its threatened neighbour with the highest BSR (ties: lowest index); else none.
GAEVAL_HD_INLINE Move fortify_move(const Map& m, const Pos& p) {
    const int s = p.mover;
    const uint64_t own = p.owned[s];
    uint64_t frontier = 0;
    for (uint64_t x = own; x; x = clear_lowest(x))
        if (m.borders[lowest_bit(x)] & ~own) frontier |= x & (~x + 1);
    int from = -1;
    for (uint64_t x = own & ~frontier; x; x = clear_lowest(x)) {
        const int t = lowest_bit(x);
        if (p.armies[t] >= 2 && (m.borders[t] & frontier) &&
            (from < 0 || p.armies[t] > p.armies[from]))
            from = t;
    }
    if (from < 0) return act_move(Act::Pass);
    int to = -1;
    float to_ratio = -1.0f;
    for (uint64_t x = m.borders[from] & frontier; x; x = clear_lowest(x)) {
        const int t = lowest_bit(x);
        const float r = static_cast<float>(threat(m, p, s, t)) / static_cast<float>(p.armies[t]);
        if (r > to_ratio) {
            to_ratio = r;
            to = t;
        }
    }
    Move mv;
    mv.act = Act::Fortify;
    mv.from = static_cast<uint8_t>(from);
    mv.to = static_cast<uint8_t>(to);
    mv.count = static_cast<uint16_t>(p.armies[from] - 1);
    return mv;
}

// The attack (from, to, all armies but one) with the highest conquest probability (ties: first
// in move order) when that probability is above `min_win` (strict) or at least it; else Stop.
GAEVAL_HD_INLINE Move greedy_attack(const Tables& tb, const Pos& p, float min_win, bool strict) {
    const uint64_t own = p.owned[p.mover];
    Move best = act_move(Act::Stop);
    float best_win = -1.0f;
    for (uint64_t x = own; x; x = clear_lowest(x)) {
        const int from = lowest_bit(x);
        if (p.armies[from] < 2) continue;
        for (uint64_t y = tb.map.borders[from] & ~own; y; y = clear_lowest(y)) {
            const int to = lowest_bit(y);
            const float win = battle_odds(tb.odds, p.armies[from] - 1, p.armies[to]).win;
            if (win > best_win) {
                best_win = win;
                best.act = Act::Attack;
                best.from = static_cast<uint8_t>(from);
                best.to = static_cast<uint8_t>(to);
                best.count = static_cast<uint16_t>(p.armies[from] - 1);
            }
        }
    }
    const bool go = strict ? best_win > min_win : best_win >= min_win;
    return go ? best : act_move(Act::Stop);
}

// What the alpha-beta agent does outside the attacks: its starting armies on one attack base
// (concentrated_move), then drafting, trading, fortifying.
GAEVAL_HD_INLINE Move planned_move(const Map& m, const Pos& p) {
    switch (p.phase) {
        case Phase::Setup:
            return concentrated_move(m, p, 1);
        case Phase::Trade:
            return act_move(Act::Trade);
        case Phase::Place:
            return drafting_move(m, p, p.pending);
        case Phase::Fortify:
            return fortify_move(m, p);
        default:
            return act_move(Act::Stop);
    }
}

// Plays the phases that are no decision of the search (cards, placement, fortification) as the
// alpha-beta agent plays them, without drawing cards, until an attack decision or the end.
GAEVAL_HD_INLINE void play_to_attack(const Config& c, Pos& p) {
    while (p.phase != Phase::Attack && p.phase != Phase::Over)
        apply(c, p, planned_move(c.tables->map, p), false);
}

// ---- the search ---------------------------------------------------------------------------

// An edge of the search: attack from -> to committing `count` armies.
struct Edge {
    uint8_t from, to;
    uint16_t count;
    float win;
};

// Inserts e into edges[0 .. *n) kept in descending conquest probability (ties: insertion
// order), at most kMaxAttackEdges (the least likely one drops out).
GAEVAL_HD_INLINE void insert_edge(Edge* edges, int* n, const Edge& e) {
    if (*n == kMaxAttackEdges) {
        if (!(e.win > edges[*n - 1].win)) return;
    } else {
        ++*n;
    }
    int i = *n - 1;
    for (; i > 0 && edges[i - 1].win < e.win; --i) edges[i] = edges[i - 1];
    edges[i] = e;
}

// The attack edges of p: for each attack of its mover (from -> to) whose conquest probability
// with all armies but one is at least the threshold, that attack and, when fewer armies
// suffice, the one committing the fewest armies that reach the threshold (the others stay
// home); the kMaxAttackEdges likeliest in descending probability (ties: move order, all
// armies first). Returns how many.
GAEVAL_HD_INLINE int attack_edges(const Config& c, const Pos& p, Edge* edges) {
    const Tables& tb = *c.tables;
    const uint64_t own = p.owned[p.mover];
    int n = 0;
    for (uint64_t x = own; x; x = clear_lowest(x)) {
        const int from = lowest_bit(x);
        const int all = p.armies[from] - 1;
        if (all < 1) continue;
        for (uint64_t y = tb.map.borders[from] & ~own; y; y = clear_lowest(y)) {
            const int to = lowest_bit(y), defenders = p.armies[to];
            Edge e;
            e.from = static_cast<uint8_t>(from);
            e.to = static_cast<uint8_t>(to);
            e.count = static_cast<uint16_t>(all);
            e.win = battle_odds(tb.odds, all, defenders).win;
            if (!(e.win >= c.threshold)) continue;
            insert_edge(edges, &n, e);
            int low = 1, high = all;  // the fewest armies reaching the threshold (odds grow)
            while (low < high) {
                const int mid = (low + high) / 2;
                if (battle_odds(tb.odds, mid, defenders).win >= c.threshold)
                    high = mid;
                else
                    low = mid + 1;
            }
            if (low == all) continue;
            e.count = static_cast<uint16_t>(low);
            e.win = battle_odds(tb.odds, low, defenders).win;
            insert_edge(edges, &n, e);
        }
    }
    return n;
}

// The position after edge k of a search node at p (0: stop attacking; k >= 1: attack
// edges[k - 1] with the outcome `won` picks, at its expected counts), played on to the next
// attack decision.
GAEVAL_HD_INLINE void edge_child(const Config& c, const Pos& p, const Edge* edges, int k, bool won,
                                 Pos* child, bool leaf = false) {
    *child = p;
    if (k == 0) {
        child->phase = Phase::Fortify;
        if (leaf) {
            apply(c, *child, fortify_move(c.tables->map, *child), false);
            return;
        }
    } else {
        const Edge& e = edges[k - 1];
        const Battle b = battle_odds(c.tables->odds, e.count, p.armies[e.to]);
        end_battle(c.tables->map, *child, e.from, e.to, e.count, won ? b.survivors : 0,
                   won ? 0 : b.defenders);
    }
    play_to_attack(c, *child);
}

// The value of an attack edge from the values of its two outcomes: win * conquest + (1 - win) *
// failure, or the conquest's value when the attack cannot fail.
GAEVAL_HD_INLINE float chance_value(float win, float conquest, float failure) {
    if (!(win < 1.0f)) return conquest;
    const float a = win * conquest;
    const float b = (1.0f - win) * failure;
    return a + b;
}

struct SearchNode {
    Pos pos;
    Edge edges[kMaxAttackEdges];
    float alpha, beta, best, conquest;
    uint8_t count;  // edges: 0 stop, 1 .. count - 1 the attacks
    uint8_t next;   // the edge being searched
    uint8_t stage;  // of an attack edge: 0 its conquest, 1 its failure
    uint8_t best_edge;
    uint8_t depth;
    uint8_t maximize;  // the searching seat moves here
};

GAEVAL_HD_INLINE void open_node(const Config& c, SearchNode& n, int depth, float alpha, float beta,
                                int us) {
    n.count = static_cast<uint8_t>(1 + attack_edges(c, n.pos, n.edges));
    n.next = n.stage = n.best_edge = 0;
    n.depth = static_cast<uint8_t>(depth);
    n.maximize = n.pos.mover == us ? 1 : 0;
    n.alpha = alpha;
    n.beta = beta;
    n.best = n.maximize ? -kSearchInfinity : kSearchInfinity;
}

struct SearchResult {
    float value;
    int edge;  // 0: stop attacking; k: the attack edges[k - 1]
    Move move;
};

// Runs the alpha-beta loop of `search` from stack[0] (opened by open_node) to its end and
// returns stack[0].best; stack holds stack[0].depth + 1 nodes (the last one a leaf's position).
// Iterative, with a fixed stack: no recursion on the device. Chance edges search both outcomes with
// a full window (exact values); ties go to the first edge.
GAEVAL_HD_INLINE float run_search(const Config& c, SearchNode* stack, const float* weights,
                                  int us) {
    const Map& m = c.tables->map;
    int sp = 0;
    float value = 0.0f;
    bool returning = false;
    while (true) {
        SearchNode& n = stack[sp];
        if (returning) {
            returning = false;
            bool done = true;
            if (n.next > 0) {
                const float win = n.edges[n.next - 1].win;
                if (n.stage == 0 && win < 1.0f) {
                    n.conquest = value;
                    n.stage = 1;
                    done = false;
                } else if (n.stage == 1) {
                    value = chance_value(win, n.conquest, value);
                    n.stage = 0;
                }
            }
            if (done) {
                if (n.maximize) {
                    if (value > n.best) {
                        n.best = value;
                        n.best_edge = n.next;
                    }
                    n.alpha = max(n.alpha, n.best);
                } else {
                    if (value < n.best) {
                        n.best = value;
                        n.best_edge = n.next;
                    }
                    n.beta = min(n.beta, n.best);
                }
                ++n.next;
                if (n.alpha >= n.beta) n.next = n.count;  // cut-off
            }
        }
        if (n.next >= n.count) {
            if (sp == 0) break;
            value = n.best;
            --sp;
            returning = true;
            continue;
        }
        SearchNode& child = stack[sp + 1];
        edge_child(c, n.pos, n.edges, n.next, n.stage == 0, &child.pos, n.depth <= 1);
        if (n.depth <= 1 || child.pos.phase == Phase::Over) {
            value = evaluate(m, child.pos, us, weights);
            returning = true;
            continue;
        }
        const bool chance = n.next > 0;
        open_node(c, child, n.depth - 1, chance ? -kSearchInfinity : n.alpha,
                  chance ? kSearchInfinity : n.beta, us);
        ++sp;
    }
    return stack[0].best;
}

// The move of edge k (0: stop attacking; k: the attack edges[k - 1]).
GAEVAL_HD_INLINE Move edge_move(const Edge* edges, int k) {
    Move mv = act_move(Act::Stop);
    if (k > 0) {
        const Edge& e = edges[k - 1];
        mv.act = Act::Attack;
        mv.from = e.from;
        mv.to = e.to;
        mv.count = e.count;
    }
    return mv;
}

// Depth-limited alpha-beta (fail-soft) from p, an attack decision of the searching seat, over
// `depth` edges (1 .. kMaxSearchDepth): run_search from the root. Chance edges search both
// outcomes with a full window (exact values), so the result equals the plain expectiminimax over
// the same tree (tests/test_risk_agent.cpp checks it); ties go to the first edge (stop first, then
// attacks by descending odds). The root's beta is +infinity and its first edge (stop) is
// searched with the full window too: every root edge's value is exact (the lane search,
// lane_agent.hpp, splits the root's edges on that).
inline GAEVAL_HD SearchResult search(const Config& c, const Pos& root, const float* weights,
                                     int depth) {
    const int us = root.mover;
    SearchNode stack[kMaxSearchDepth + 1];
    stack[0].pos = root;
    open_node(c, stack[0], clamp(depth, 1, kMaxSearchDepth), -kSearchInfinity, kSearchInfinity, us);
    SearchResult r;
    r.value = run_search(c, stack, weights, us);
    r.edge = stack[0].best_edge;
    r.move = edge_move(stack[0].edges, r.edge);
    return r;
}

}  // namespace gaeval::risk
