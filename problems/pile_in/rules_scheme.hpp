// The GA step for the rules-accurate presets: GAPI1's scheme (clones of the S best, children of
// two parents drawn uniformly among them, every new plan mutated) extended to the rules
// genome (rules.hpp):
//   elite        the best plan is cloned unmutated;
//   memetic      the next clones (1 survivor in MemeticShare) are improved by local search
//                (rules_search.hpp) instead of being mutated;
//   moves        uniform crossover as GAPI1; a mutated move is a fresh random move, a creep
//                step, a nestle, into contact, straight in, or no move (mutate_move);
//   immigrants   1 child in ImmigrantShare is built afresh (rebuild, wrap or GRASP);
//   orientation  inherited with the model's move; mutated to a fresh random direction;
//   move order   order crossover (OX1: parent a's segment [i, j] in place, the other positions
//                filled with parent b's remaining models in b's order from position j + 1 on)
//                and swap mutation (with probability = mutation rate, two random positions).
// Generation 0 holds the plan in which nobody moves (legal whenever the start is) and the
// greedy plan, so that the best plan ever seen is legal and never worse than greedy.
#pragma once

#include <cstdint>

#include "games/core/hd.hpp"
#include "games/core/rng.hpp"
#include "problems/pile_in/gapi1_scheme.hpp"
#include "problems/pile_in/genome.hpp"
#include "problems/pile_in/geometry.hpp"
#include "problems/pile_in/greedy.hpp"
#include "problems/pile_in/rules.hpp"
#include "problems/pile_in/rules_moves.hpp"
#include "problems/pile_in/rules_search.hpp"

namespace gaeval::pile_in {

// How an immigrant or a built plan of generation 0 is made.
enum class Builder : uint32_t {
    Rebuild = 0,  // rebuild_plan: niches model by model, then supporters
    Wrap = 1,     // wrap_plan: packed along a combat-range edge from the start positions
    Grasp = 2,    // grasp_plan: the greedy in a randomized order (its move order too)
};

// Makes plan words (layout.words) with `builder`; for Rebuild and Wrap only the moves (the
// first n words) are written, for Grasp every word. Addressed by (c0, c1).
GAEVAL_HD_NOINLINE inline void build_plan(const RulesProblem& p, Builder builder, uint64_t seed,
                                          uint32_t c0, uint32_t c1, uint32_t* words) {
    const int n = p.scenario.friendly_count;
    if (builder == Builder::Grasp) {
        grasp_plan(p, seed, Purpose::Grasp, c0, c1, words);
        return;
    }
    if (builder == Builder::Rebuild) {
        Move built[MaxFriendly];
        rebuild_plan(p, seed, Purpose::Rebuild, c0, c1, built);
        for (int m = 0; m < n; ++m) words[m] = pack_move(built[m]);
        return;
    }
    PlanEdit e;
    for (int w = 0; w < p.layout.words; ++w) e.words[w] = 0u;
    for (int q = 0; p.layout.order >= 0 && q < n; ++q)
        e.words[p.layout.order + q] = static_cast<uint32_t>(q);
    decode_edit(p, e);
    wrap_plan(p, e, seed, Purpose::Wrap, c0, c1);
    for (int m = 0; m < n; ++m) words[m] = e.words[m];
}

// Order crossover (OX1) of two permutations of n models into child.
GAEVAL_HD inline void order_crossover(const uint8_t* a, const uint8_t* b, int n, uint32_t cut_i,
                                      uint32_t cut_j, uint8_t* child) {
    int i = static_cast<int>(cut_i), j = static_cast<int>(cut_j);
    if (i > j) swap(i, j);
    uint64_t taken = 0;
    for (int q = i; q <= j; ++q) {
        child[q] = a[q];
        taken |= uint64_t{1} << a[q];
    }
    int write = (j + 1) % n;
    for (int c = 1; c <= n; ++c) {
        const uint8_t v = b[(j + c) % n];
        if ((taken >> v) & 1u) continue;
        child[write] = v;
        write = (write + 1) % n;
    }
}

// Makes new individual k of the next generation in dst.
struct RulesStep {
    RulesProblem problem;
    Gapi1Step base;  // seed, generation, survivors, mutation rate, ranking, src, dst

    // Mutates one move (hit already decided) of a child of plan q: in eighths, a fresh random
    // move 2, a creep step 3, a nestle 1.5, into contact from a random side 0.5, straight in
    // 0.5, no move 0.5. Addressed by (generation, k, m).
    GAEVAL_HD_INLINE uint32_t mutate_move(uint32_t gene, uint32_t k32, int m, uint64_t q) const {
        const uint32_t g = base.generation, m32 = static_cast<uint32_t>(m);
        Random4 r = philox(base.seed, Purpose::MutationKind, g, k32, m32, 0);
        const uint32_t kind = below(r.v[0], 8);
        const bool half = (r.v[3] & 1u) != 0;
        if (kind < 2) return pack_move(random_move(base.seed, Purpose::MutationMove, g, k32, m32));
        if (kind < 5) {
            // Creep: a random move shrunk 4 to 64 times (log-uniform scale).
            const int32_t divisor = int32_t{4} << below(r.v[2], 5);
            Move step = random_move(base.seed, Purpose::MutationCreep, g, k32, m32);
            Move now = unpack_move(gene);
            return pack_move(
                clamp_move(Move{now.dx + step.dx / divisor, now.dy + step.dy / divisor}));
        }
        if (kind == 6 && !half) return pack_move(aim_move(problem, m));
        if (kind == 6) {
            Random4 side = philox(base.seed, Purpose::MutationContact, g, k32, m32, 0);
            return pack_move(contact_move(problem, m, side.v[0]));
        }
        if (kind == 7 && half) return 0u;
        Random4 at = philox(base.seed, Purpose::MutationNestle, g, k32, m32, 0);
        Table t;
        table_of_plan(problem, base.src, q, t);
        return pack_move(nestle_move(problem, t, m, at));
    }

    // Survivor clones 1 .. memetic_clones() are improved by local search, not mutated.
    GAEVAL_HD_INLINE uint64_t memetic_clones() const {
        return (base.survivors + MemeticShare - 1) / MemeticShare;
    }

    // Clone k of plan a, improved by local_search, into dst's slot `slot`. Addressed by
    // (generation, k).
    GAEVAL_HD void memetic_child(uint64_t k, uint64_t slot, uint64_t a) const {
        PlanEdit e;
        for (int w = 0; w < problem.layout.words; ++w) e.words[w] = base.src.gene(a, w);
        decode_edit(problem, e);
        local_search(problem, e, base.seed, Purpose::LocalSearch, base.generation,
                     static_cast<uint32_t>(k), MemeticTries);
        for (int w = 0; w < problem.layout.words; ++w) base.dst.set_gene(slot, w, e.words[w]);
    }

    // Makes new individual base.made(slot) in dst's slot `slot`.
    GAEVAL_HD void operator()(uint64_t slot) const { make(base.made(slot), slot); }

    // Makes new individual k in dst's slot `slot`. Every draw addressed by (generation, k, gene).
    // Returns whether a mutation hit it (a move, an orientation or the move order: a mutant, as
    // Gapi1Rule::make counts them); memetic clones and immigrants' built moves are not mutations.
    GAEVAL_HD bool make(uint64_t k, uint64_t slot) const {
        uint64_t a, b;
        base.parents(k, a, b);
        if (k >= 1 && k <= memetic_clones() && k < base.survivors) {
            memetic_child(k, slot, a);
            return false;
        }
        const PlanLayout& layout = problem.layout;
        const PlanView& src = base.src;
        const PlanView& dst = base.dst;
        const uint32_t k32 = static_cast<uint32_t>(k), g = base.generation;
        const double rate = k == 0 ? 0.0 : base.mutation_rate;  // the best plan survives as is
        Random4 mask = philox(base.seed, Purpose::CrossoverMask, g, k32, 0, 0);
        // Immigrants: one child in ImmigrantShare (never a clone) is built afresh, by one of
        // the builders with equal odds (a GRASP plan whole, with its move order).
        uint32_t built[3 * MaxFriendly];
        const bool immigrant = k >= base.survivors && below(mask.v[3], ImmigrantShare) == 0;
        if (immigrant) {
            const Random4 kind = philox(base.seed, Purpose::ImmigrantKind, g, k32, 0, 0);
            const Builder builder = static_cast<Builder>(below(kind.v[0], 3));
            build_plan(problem, builder, base.seed, g, k32, built);
            if (builder == Builder::Grasp) {
                for (int w = 0; w < layout.words; ++w) dst.set_gene(slot, w, built[w]);
                return false;
            }
        }
        bool mutated = false;
        Random4 hits{};
        for (int m = 0; m < layout.models; ++m) {
            const bool from_b = a != b && ((mask.v[m >> 5] >> (m & 31)) & 1u);
            const uint64_t parent = from_b ? b : a;
            uint32_t gene = src.gene(parent, m);
            if ((m & 3) == 0)
                hits = philox(base.seed, Purpose::MutationHit, g, k32,
                              static_cast<uint32_t>(m >> 2), 0);
            if (immigrant) {
                gene = built[m];
            } else if (bernoulli(hits.v[m & 3], rate)) {
                gene = mutate_move(gene, k32, m, a);
                mutated = true;
            }
            dst.set_gene(slot, m, gene);
            if (layout.turn >= 0) {
                uint32_t turn = src.gene(parent, layout.turn + m);
                Random4 t =
                    philox(base.seed, Purpose::MutationTurn, g, k32, static_cast<uint32_t>(m), 0);
                if (bernoulli(t.v[0], rate)) {
                    turn = random_turn(base.seed, Purpose::MutationTurn, g, k32,
                                       static_cast<uint32_t>(m) + 0x10000u);
                    mutated = true;
                }
                dst.set_gene(slot, layout.turn + m, turn);
            }
        }
        if (layout.order < 0) return mutated;
        const int n = layout.models;
        uint8_t pa[MaxFriendly], pb[MaxFriendly], child[MaxFriendly];
        for (int q = 0; q < n; ++q) {
            pa[q] = static_cast<uint8_t>(src.gene(a, layout.order + q));
            pb[q] = static_cast<uint8_t>(src.gene(b, layout.order + q));
        }
        if (a == b) {
            for (int q = 0; q < n; ++q) child[q] = pa[q];
        } else {
            Random4 cut = philox(base.seed, Purpose::OrderCrossover, g, k32, 0, 0);
            order_crossover(pa, pb, n, below(cut.v[0], static_cast<uint32_t>(n)),
                            below(cut.v[1], static_cast<uint32_t>(n)), child);
        }
        Random4 sw = philox(base.seed, Purpose::OrderMutation, g, k32, 0, 0);
        if (bernoulli(sw.v[0], rate)) {
            swap(child[below(sw.v[1], static_cast<uint32_t>(n))],
                 child[below(sw.v[2], static_cast<uint32_t>(n))]);
            mutated = true;
        }
        for (int q = 0; q < n; ++q) dst.set_gene(slot, layout.order + q, child[q]);
        return mutated;
    }
};

// Generation 0: individual 0 does not move (index order), individual 1 is the greedy plan
// (greedy_plan, its move order too), the other odd ones are built (GRASP, wrap, rebuild in
// turn; GRASP plans whole); the rest have GAPI1's random moves (the same draws). Plans not
// made whole get a random move order (Fisher-Yates) and random orientations.
// Addressed by (0, individual, gene).
struct RandomizeRulesPlans {
    uint64_t seed = 0;
    RulesProblem problem;
    PlanView dst;
    IndexMap made{};  // slot `slot` of dst receives individual made(slot)
    GAEVAL_HD void operator()(uint64_t slot) const {
        const uint64_t i = made(slot);
        const PlanLayout& layout = problem.layout;
        const uint32_t i32 = static_cast<uint32_t>(i);
        const int n = layout.models;
        uint32_t built[3 * MaxFriendly];
        const bool rebuilt = (i & 1u) != 0;
        const Builder builder = static_cast<Builder>((i / 2) % 3);
        if (i == 1 || (rebuilt && builder == Builder::Grasp)) {
            if (i == 1)
                greedy_plan(problem, built);
            else
                build_plan(problem, builder, seed, 0, i32, built);
            for (int w = 0; w < layout.words; ++w) dst.set_gene(slot, w, built[w]);
            return;
        }
        if (rebuilt) build_plan(problem, builder, seed, 0, i32, built);
        for (int m = 0; m < n; ++m) {
            const uint32_t m32 = static_cast<uint32_t>(m);
            uint32_t move = 0u;
            if (rebuilt)
                move = built[m];
            else if (i != 0)
                move = pack_move(random_move(seed, Purpose::InitMove, 0, i32, m32));
            dst.set_gene(slot, m, move);
            if (layout.turn >= 0)
                dst.set_gene(slot, layout.turn + m,
                             random_turn(seed, Purpose::InitAngle, 0, i32, m32));
        }
        if (layout.order < 0) return;
        uint8_t order[MaxFriendly];
        for (int q = 0; q < n; ++q) order[q] = static_cast<uint8_t>(q);
        if (i != 0) {
            for (int q = n - 1; q > 0; --q) {
                Random4 r = philox(seed, Purpose::InitOrder, 0, i32, static_cast<uint32_t>(q), 0);
                swap(order[q], order[below(r.v[0], static_cast<uint32_t>(q + 1))]);
            }
        }
        for (int q = 0; q < n; ++q) dst.set_gene(slot, layout.order + q, order[q]);
    }
};

}  // namespace gaeval::pile_in
