// The Gomoku players beside `random`: the seed's reward-table player (weighted, and as the
// fixed policy `seed-table`), the stronger fixed baseline `threat-search`, and weighted-search
// (a weighted player of depth 2 or more: the reward table inside threat-search's search, with a
// positional term for quiet stones; table_search_move).
//
// Reward table. A move has an own level (the threat level it makes for the mover) and an enemy
// level (the level the opponent would make on that cell, which the move denies him); levels
// are those of threats.hpp. The pair maps to one of 11 ranks, and the move's value is the
// rank's reward:
//   rank  index  own   enemy   seed reward
//   1       0    Lv1   any     2^20   win now or next turn
//   2       1    2-4   Lv1     2^16   stop the opponent's win
//   3.1     2    Lv2   Lv2     2^13
//   3.2     3    Lv2   Lv3     2^12
//   3.3     4    Lv2   Lv4     2^11
//   4.1     5    Lv3   Lv2     2^9
//   4.2     6    Lv4   Lv2     2^8
//   5.1     7    Lv3   Lv3     2^6
//   5.2     8    Lv3   Lv4     2^4
//   6.1     9    Lv4   Lv3     2^2
//   6.2    10    Lv4   Lv4     2^0
// Weight 11 is K, the acceptance of inferior options: with best the highest value among the
// candidate moves, every rank whose reward is at least best - K |best| is accepted (K < 0 counts
// as 0); one accepted rank is drawn uniformly (index order), then one of its cells uniformly.
// K = 0 accepts only the best rank(s): the greedy player.
//
// Candidates: the empty cells within two king steps of a stone, and every cell of level 1 to 3
// for either side (the first stone of an empty board goes to the centre). A level-4 move far
// from every stone is never better than one near them, and the restriction keeps quiet moves
// (rank 6.2, most of a game) in play instead of scattered over the board.
#pragma once

#include <cstdint>

#include "games/core/bitboard.hpp"
#include "games/core/game.hpp"
#include "games/core/hd.hpp"
#include "games/core/rng.hpp"
#include "games/gomoku/board.hpp"
#include "games/gomoku/threats.hpp"

namespace gaeval::gomoku {

constexpr int kRanks = 11;
constexpr int kWeightCount = kRanks + 1;  // the rewards and K
constexpr int kAcceptance = kRanks;       // index of K

// Reward of rank index r in the seed's table (2^20 ... 2^0), K = 0 for k == kAcceptance.
GAEVAL_HD_INLINE constexpr float seed_reward(int r) {
    switch (r) {
        case 0:
            return 1048576.0f;  // 2^20
        case 1:
            return 65536.0f;  // 2^16
        case 2:
            return 8192.0f;  // 2^13
        case 3:
            return 4096.0f;  // 2^12
        case 4:
            return 2048.0f;  // 2^11
        case 5:
            return 512.0f;  // 2^9
        case 6:
            return 256.0f;  // 2^8
        case 7:
            return 64.0f;  // 2^6
        case 8:
            return 16.0f;  // 2^4
        case 9:
            return 4.0f;  // 2^2
        case 10:
            return 1.0f;  // 2^0
        default:
            return 0.0f;  // K
    }
}

// The cells of each rank among `candidates`, from the mover's and the opponent's levels.
template <class BB>
GAEVAL_HD_INLINE void rank_cells(const Levels<BB>& own, const Levels<BB>& enemy,
                                 const BB& candidates, BB* ranks) {
    const BB o1 = own.level[0] & candidates, o2 = own.level[1] & candidates,
             o3 = own.level[2] & candidates;
    const BB o4 = candidates.minus(o1 | o2 | o3);
    const BB e1 = enemy.level[0] & candidates, e2 = enemy.level[1] & candidates,
             e3 = enemy.level[2] & candidates;
    const BB e4 = candidates.minus(e1 | e2 | e3);
    ranks[0] = o1;
    ranks[1] = e1.minus(o1);
    ranks[2] = o2 & e2;
    ranks[3] = o2 & e3;
    ranks[4] = o2 & e4;
    ranks[5] = o3 & e2;
    ranks[6] = o4 & e2;
    ranks[7] = o3 & e3;
    ranks[8] = o3 & e4;
    ranks[9] = o4 & e3;
    ranks[10] = o4 & e4;
}

// The candidate cells of the reward-table player (see the header comment).
template <class Geo, class BB>
GAEVAL_HD_INLINE BB candidate_cells(const BB* stones, const BB& empty, const Levels<BB>* levels) {
    const BB all = stones[0] | stones[1];
    if (all.empty()) {
        const BB centre = BB::cell(Geo::cell(Geo::kSize / 2, Geo::kSize / 2));
        return (centre & empty).any() ? centre : empty;
    }
    BB near = Geo::neighbours(Geo::neighbours(all) | all) & empty;
    for (int s = 0; s < 2; ++s)
        for (int l = 0; l < 3; ++l) near |= levels[s].level[l];
    return near;
}

// A uniformly drawn cell of a non-empty set (draw word `x`).
template <class BB>
GAEVAL_HD_INLINE int draw_cell(const BB& cells, uint32_t x) {
    return cells.nth(static_cast<int>(below(x, static_cast<uint32_t>(cells.count()))));
}

// The rank the reward-table player picks among the non-empty `ranks` (weights: 11 rewards and
// K; see the header comment), drawn with word `x`; -1 when every rank is empty.
GAEVAL_HD_INLINE int accepted_rank(const float* weights, const bool* present, uint32_t x) {
    bool any = false;
    float best = 0.0f;
    for (int r = 0; r < kRanks; ++r)
        if (present[r] && (!any || best < weights[r])) {
            best = weights[r];
            any = true;
        }
    if (!any) return -1;
    const float acceptance = weights[kAcceptance] > 0.0f ? weights[kAcceptance] : 0.0f;
    const float threshold = best - acceptance * (best < 0.0f ? -best : best);
    int accepted = 0;
    for (int r = 0; r < kRanks; ++r)
        if (present[r] && !(weights[r] < threshold)) ++accepted;
    int pick = static_cast<int>(below(x, static_cast<uint32_t>(accepted)));
    for (int r = 0; r < kRanks; ++r) {
        if (!present[r] || weights[r] < threshold) continue;
        if (pick-- == 0) return r;
    }
    return -1;  // not reached: the best rank is always accepted
}

// The reward-table player's cell for the mover `side` (weights: 11 rewards and K). Draws:
// key `seed`, counter (game, ply, 0, 0) of Purpose::GomokuMove: word 0 picks the rank, word 1
// the cell. Requires an empty cell.
template <class Geo, class BB>
GAEVAL_HD int reward_table_move(const BB* stones, int side, bool exact, const float* weights,
                                uint64_t seed, uint32_t game, uint32_t ply) {
    const BB empty = Geo::board().minus(stones[0] | stones[1]);
    Levels<BB> levels[2];
    both_levels<Geo>(stones, empty, exact, levels);
    BB ranks[kRanks];
    rank_cells(levels[side], levels[side ^ 1], candidate_cells<Geo>(stones, empty, levels), ranks);
    bool present[kRanks];
    for (int r = 0; r < kRanks; ++r) present[r] = ranks[r].any();
    const Random4 draw = philox(seed, Purpose::GomokuMove, game, ply, 0, 0);
    const int r = accepted_rank(weights, present, draw.v[0]);
    if (r < 0) return empty.lowest();  // not reached: the candidates are never empty
    const uint32_t cells = static_cast<uint32_t>(ranks[r].count());
    return ranks[r].nth(static_cast<int>(below(draw.v[1], cells)));
}

// The threat potential of one side: 4 per cell of level 1, 2 per cell of level 2 and 1 per
// cell of level 3 that its next stone could take (levels of threats.hpp, counted as if the
// other side had no five-point).
template <class BB>
GAEVAL_HD_INLINE int threat_potential(const SideThreats<BB>& threats) {
    const Levels<BB> l = threat_levels(threats, BB::none());
    return 4 * l.level[0].count() + 2 * l.level[1].count() + l.level[2].count();
}

// The positional term of a stone of `side` on empty cell c: the mover's threat potential
// minus the opponent's after it (a stone that builds own lines and cuts the opponent's).
template <class Geo, class BB>
GAEVAL_HD_INLINE int positional_term(const BB* stones, int side, bool exact, int c) {
    BB mine = stones[side];
    mine.set(c);
    const BB& theirs = stones[side ^ 1];
    const BB empty = Geo::board().minus(mine | theirs);
    return threat_potential(side_threats<Geo>(mine, empty, exact)) -
           threat_potential(side_threats<Geo>(theirs, empty, exact));
}

// The weighted-search player's quiet choice among the cells of `ranks` (not all empty): the
// accepted ranks are those of the reward-table player (rewards at least best - K |best|, best
// the highest reward among the non-empty ranks; K = weights[kAcceptance], below 0 counts as 0),
// and among their cells the one worth most wins, cell c of rank r being worth weights[r] +
// positional_term(c); ties are drawn uniformly with word `x`. K = 0: the best rank's cells
// by their positional term; a larger K lets a lesser rank's cell win by its position.
template <class Geo, class BB>
GAEVAL_HD int positional_cell(const BB* stones, int side, bool exact, const BB* ranks,
                              const float* weights, uint32_t x) {
    bool any = false;
    float best = 0.0f;
    for (int r = 0; r < kRanks; ++r)
        if (ranks[r].any() && (!any || best < weights[r])) {
            best = weights[r];
            any = true;
        }
    const float acceptance = weights[kAcceptance] > 0.0f ? weights[kAcceptance] : 0.0f;
    const float threshold = best - acceptance * (best < 0.0f ? -best : best);
    bool found = false;
    float best_worth = 0.0f;
    BB best_cells = BB::none();
    for (int r = 0; r < kRanks; ++r) {
        if (weights[r] < threshold) continue;
        BB todo = ranks[r];
        while (todo.any()) {
            const int c = todo.lowest();
            todo.reset(c);
            const float worth =
                weights[r] + static_cast<float>(positional_term<Geo>(stones, side, exact, c));
            if (!found || best_worth < worth) {
                best_worth = worth;
                best_cells = BB::none();
                found = true;
            } else if (worth < best_worth) {
                continue;
            }
            best_cells.set(c);
        }
    }
    if (best_cells.empty()) {  // only with NaN weights: the first candidate
        for (int r = 0; r < kRanks; ++r)
            if (ranks[r].any()) return ranks[r].lowest();
    }
    return draw_cell(best_cells, x);
}

// Depth and node budget of the threat-search baseline's VCF search.
constexpr int kVcfDepth = 8;
constexpr int kVcfBudget = 400;

// The first move of a victory by continuous fours (VCF) for `me` against `opp`: a depth-first
// search over own four moves (ascending cells) in which the opponent always fills the one
// five-point the four made; a four that makes two or more five-points wins (given that the
// opponent has no five-point, which the caller checks at the root and the search after every
// forced reply: a reply that gives the opponent a five-point ends that line). Iterative
// deepening (1, 2, ... kVcfDepth own fours) finds a shortest VCF; at most kVcfBudget fours are
// tried in all. -1 when none is found.
template <class Geo, class BB>
GAEVAL_HD int vcf_first_move(const BB& me, const BB& opp, bool exact) {
    struct Frame {
        BB me, opp, todo;
        int move;
    };
    Frame stack[kVcfDepth];
    const BB board = Geo::board();
    const BB root_fours = four_moves<Geo>(me, board.minus(me | opp), exact);
    int tried = 0;
    for (int limit = 1; limit <= kVcfDepth; ++limit) {
        stack[0].me = me;
        stack[0].opp = opp;
        stack[0].todo = root_fours;
        stack[0].move = -1;
        int depth = 0;
        bool cut = false;  // a line went on past the limit: a deeper search may find more
        while (depth >= 0) {
            Frame& f = stack[depth];
            if (f.todo.empty()) {
                --depth;
                continue;
            }
            const int c = f.todo.lowest();
            f.todo.reset(c);
            f.move = c;
            if (++tried > kVcfBudget) return -1;
            BB mine = f.me;
            mine.set(c);
            BB empty = board.minus(mine | f.opp);
            const BB threats = five_points<Geo>(mine, empty, exact);
            const int count = threats.count();
            if (count >= 2) return stack[0].move;
            if (count == 0) continue;
            if (depth + 1 >= limit) {
                cut = true;
                continue;
            }
            const int reply = threats.lowest();
            BB theirs = f.opp;
            theirs.set(reply);
            empty.reset(reply);
            if (five_points<Geo>(theirs, empty, exact).any()) continue;
            Frame& next = stack[depth + 1];
            next.me = mine;
            next.opp = theirs;
            next.todo = four_moves<Geo>(mine, empty, exact);
            next.move = -1;
            ++depth;
        }
        if (!cut) return -1;
    }
    return -1;
}

// Most defences threat-search tries against an opponent's VCF.
constexpr int kDefenceTries = 24;

// The rank indices ordered by reward, highest first (equal rewards by index).
GAEVAL_HD_INLINE void ranks_by_reward(const float* weights, int* order) {
    for (int r = 0; r < kRanks; ++r) {
        int at = r;
        while (at > 0 && weights[order[at - 1]] < weights[r]) {
            order[at] = order[at - 1];
            --at;
        }
        order[at] = r;
    }
}

// The search around a reward table (weights: 11 rewards and K): (1) a five if there is one;
// (2) else fill an opponent five-point; (3) else the first move of an own VCF
// (vcf_first_move); (4) else, when the opponent would have a VCF if he moved now, the first
// cell (in table order: ranks by reward, highest first, then ascending cells) among his four
// and level 1-3 cells after which he has none (at most kDefenceTries tried); (5) else, with
// `positional` false, the table's move exactly as reward_table_move makes it, and with
// `positional` true the positional_cell among the candidates (reward of the cell's rank plus
// its positional term). Draws as the reward table's, word 2 for the choice among several fives
// or five-points.
template <class Geo, class BB>
GAEVAL_HD int table_search_move(const BB* stones, int side, bool exact, const float* weights,
                                bool positional, uint64_t seed, uint32_t game, uint32_t ply) {
    const BB& me = stones[side];
    const BB& opp = stones[side ^ 1];
    const BB empty = Geo::board().minus(me | opp);
    const Random4 draw = philox(seed, Purpose::GomokuMove, game, ply, 0, 0);
    const BB wins = five_points<Geo>(me, empty, exact);
    if (wins.any()) return draw_cell(wins, draw.v[2]);
    const BB losses = five_points<Geo>(opp, empty, exact);
    if (losses.any()) return draw_cell(losses, draw.v[2]);
    const int attack = vcf_first_move<Geo>(me, opp, exact);
    if (attack >= 0) return attack;
    Levels<BB> levels[2];
    both_levels<Geo>(stones, empty, exact, levels);
    BB ranks[kRanks];
    rank_cells(levels[side], levels[side ^ 1], candidate_cells<Geo>(stones, empty, levels), ranks);
    if (vcf_first_move<Geo>(opp, me, exact) >= 0) {
        const Levels<BB>& theirs = levels[side ^ 1];
        const BB blocks = four_moves<Geo>(opp, empty, exact) | theirs.level[0] | theirs.level[1] |
                          theirs.level[2];
        int order[kRanks];
        ranks_by_reward(weights, order);
        int tries = 0;
        for (int i = 0; i < kRanks && tries < kDefenceTries; ++i) {
            BB cells = ranks[order[i]] & blocks;
            while (cells.any() && tries < kDefenceTries) {
                const int c = cells.lowest();
                cells.reset(c);
                ++tries;
                BB blocked = me;
                blocked.set(c);
                if (vcf_first_move<Geo>(opp, blocked, exact) < 0) return c;
            }
        }
    }
    if (positional) return positional_cell<Geo>(stones, side, exact, ranks, weights, draw.v[1]);
    bool present[kRanks];
    for (int r = 0; r < kRanks; ++r) present[r] = ranks[r].any();
    const int r = accepted_rank(weights, present, draw.v[0]);
    if (r < 0) return empty.lowest();  // not reached: the candidates are never empty
    return ranks[r].nth(
        static_cast<int>(below(draw.v[1], static_cast<uint32_t>(ranks[r].count()))));
}

// threat-search: table_search_move with the seed's table, cells of a rank drawn uniformly.
template <class Geo, class BB>
GAEVAL_HD int threat_search_move(const BB* stones, int side, bool exact, uint64_t seed,
                                 uint32_t game, uint32_t ply) {
    float table[kWeightCount];
    for (int r = 0; r < kWeightCount; ++r) table[r] = seed_reward(r);
    return table_search_move<Geo>(stones, side, exact, table, false, seed, game, ply);
}

}  // namespace gaeval::gomoku
