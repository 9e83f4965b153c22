// The alpha-beta agent's attack decision over a lane group (games/core/lanes.hpp): the root's
// edges are split over the lanes and the group returns the very edge and value of the serial
// search (agent.hpp: search), whatever the lane count.
//   - Every root edge of the serial search is searched with the full window: the root's beta is
//     +infinity, its first edge (stop) opens with (-infinity, +infinity) and the attack edges
//     are chance nodes whose two outcomes are searched with the full window. So each root edge's
//     value is exact and independent of the others, and a lane can search any of them alone.
//   - The work is split into tasks, in the serial order: task 0 the stop edge, then for each
//     attack edge its conquest and, unless the attack cannot fail (the serial search skips the
//     failure then), its failure. Task t goes to lane t mod L, in rounds of L tasks searched side
//     by side (each with run_search, the serial loop, from the outcome's position).
//   - After each round every lane replays the serial root over that round's values in task
//     order, reading lane j's value with a shuffle: chance_value of conquest and failure, then
//     `value > best` from -infinity, the first edge keeping ties. The same comparisons on the
//     same values in the same order as the serial root (NaN included), never arrival order.
// Everything outside the attack decisions (cards, placement, fortification, dice) is played as
// the serial agent plays it, in every lane alike.
#pragma once

#include <cstdint>

#include "games/core/hd.hpp"
#include "games/core/lanes.hpp"
#include "games/risk/agent.hpp"

namespace gaeval::risk {

// Task t of a root with `count` edges (edges[0 .. count - 1) the attacks; order above): sets the
// edge k (0: stop) and the outcome. Returns false when t is past the last task.
GAEVAL_HD_INLINE bool root_task(const Edge* edges, int count, int t, int* k, bool* won) {
    if (t == 0) {
        *k = 0;
        *won = true;
        return true;
    }
    --t;
    for (int e = 1; e < count; ++e) {
        const int outcomes = edges[e - 1].win < 1.0f ? 2 : 1;
        if (t < outcomes) {
            *k = e;
            *won = t == 0;
            return true;
        }
        t -= outcomes;
    }
    return false;
}

// Tasks of a root with `count` edges: the stop edge, then one or two outcomes an attack.
GAEVAL_HD_INLINE int root_tasks(const Edge* edges, int count) {
    int tasks = 1;
    for (int e = 1; e < count; ++e) tasks += edges[e - 1].win < 1.0f ? 2 : 1;
    return tasks;
}

// The value the serial search gets for outcome `won` of root edge k (0: stop) of a root at
// `root` searched `depth` edges deep (1 .. kMaxSearchDepth) for seat `us`: the outcome's
// position scored as a leaf at depth 1 or when the game is over, else run_search from it with
// the full window and depth - 1.
GAEVAL_HD_INLINE float root_outcome_value(const Config& c, const Pos& root, const Edge* edges,
                                          int k, bool won, int depth, const float* weights,
                                          int us) {
    SearchNode stack[kMaxSearchDepth];
    edge_child(c, root, edges, k, won, &stack[0].pos, depth <= 1);
    if (depth <= 1 || stack[0].pos.phase == Phase::Over)
        return evaluate(c.tables->map, stack[0].pos, us, weights);
    open_node(c, stack[0], depth - 1, -kSearchInfinity, kSearchInfinity, us);
    return run_search(c, stack, weights, us);
}

// search(c, root, weights, depth) over the lanes of `lanes`: the same edge, move and value in
// every lane. Every lane of the group must call it with the same arguments.
template <int L>
GAEVAL_HD SearchResult lane_search(const Lanes<L>& lanes, const Config& c, const Pos& root,
                                   const float* weights, int depth) {
    const int us = root.mover;
    const int plies = clamp(depth, 1, kMaxSearchDepth);
    Edge edges[kMaxAttackEdges];
    const int count = 1 + attack_edges(c, root, edges);
    const int tasks = root_tasks(edges, count);
    LaneArray<float, L> values{};
    // The serial root's state, the same in every lane.
    float best = -kSearchInfinity, conquest = 0.0f;
    int best_edge = 0;
    for (int base = 0; base < tasks; base += L) {
        const int n = tasks - base < L ? tasks - base : L;
        lanes.each([&](int lane) {
            if (lane >= n) return;
            int k = 0;
            bool won = true;
            root_task(edges, count, base + lane, &k, &won);
            lanes.at(values, lane) = root_outcome_value(c, root, edges, k, won, plies, weights, us);
        });
        for (int j = 0; j < n; ++j) {
            const float v = lanes.read(values, j);
            int k = 0;
            bool won = true;
            root_task(edges, count, base + j, &k, &won);
            float value = v;
            if (k > 0 && edges[k - 1].win < 1.0f) {
                if (won) {
                    conquest = v;
                    continue;
                }
                value = chance_value(edges[k - 1].win, conquest, v);
            }
            if (value > best) {
                best = value;
                best_edge = k;
            }
        }
    }
    SearchResult r;
    r.value = best;
    r.edge = best_edge;
    r.move = edge_move(edges, best_edge);
    return r;
}

}  // namespace gaeval::risk
