// The GAPI1 generation step, exactly as the seed states it. With N individuals ranked best
// first and E = round(crossover_rate * N) eliminated, S = N - E survive:
//   new[k], k < S : a clone of the k-th best, then mutated;
//   new[k], k >= S: a child of two parents drawn uniformly among the S survivors (no fitness
//                   weighting), each gene from either parent with probability 1/2, then mutated.
// Mutation replaces each gene, with probability = mutation rate, by a fresh random move.
#pragma once

#include <cstdint>

#include "games/core/hd.hpp"
#include "games/core/rng.hpp"
#include "games/pile_in/genome.hpp"

namespace gaeval::pile_in {

// Everything one step needs; trivially copyable (a kernel argument).
struct Gapi1Step {
    uint64_t seed = 0;
    uint32_t generation = 0;  // the generation being made (>= 1)
    uint64_t population = 0;
    uint64_t survivors = 0;  // S >= 1
    double mutation_rate = 0;
    // ranked[r] = index (in src) of the r-th best; nullptr: src holds the survivors themselves,
    // best first (the r-th best at index r).
    const uint32_t* ranked = nullptr;
    PlanView src, dst;
    IndexMap made{};  // slot i of dst receives individual made(i)

    // Parents of new individual k (equal for clones). Addressed draws: (generation, k).
    GAEVAL_HD_INLINE void parents(uint64_t k, uint64_t& a, uint64_t& b) const {
        if (k < survivors) {
            a = b = ranked ? ranked[k] : k;
            return;
        }
        Random4 r = philox(seed, Purpose::ParentPick, generation, static_cast<uint32_t>(k), 0, 0);
        a = below64(join64(r.v[0], r.v[1]), survivors);
        b = below64(join64(r.v[2], r.v[3]), survivors);
        if (ranked) {
            a = ranked[a];
            b = ranked[b];
        }
    }

    // Makes new individual made(slot) in dst's slot `slot`.
    GAEVAL_HD void operator()(uint64_t slot) const { make(made(slot), slot); }

    // Makes new individual k in dst's slot `slot`. Every draw addressed by (generation, k, gene).
    GAEVAL_HD void make(uint64_t k, uint64_t slot) const {
        uint64_t a, b;
        parents(k, a, b);
        const uint32_t k32 = static_cast<uint32_t>(k);
        // The crossover mask is read only when the parents differ (clones skip the draw).
        Random4 mask{};
        if (a != b) mask = philox(seed, Purpose::CrossoverMask, generation, k32, 0, 0);
        Random4 hits{};
        for (int m = 0; m < src.gene_count; ++m) {
            uint32_t gene;
            if (a == b) {
                gene = src.gene(a, m);
            } else {
                bool from_b = (mask.v[m >> 5] >> (m & 31)) & 1u;
                gene = src.gene(from_b ? b : a, m);
            }
            if ((m & 3) == 0)
                hits = philox(seed, Purpose::MutationHit, generation, k32,
                              static_cast<uint32_t>(m >> 2), 0);
            if (bernoulli(hits.v[m & 3], mutation_rate))
                gene = pack_move(random_move(seed, Purpose::MutationMove, generation, k32,
                                             static_cast<uint32_t>(m)));
            dst.set_gene(slot, m, gene);
        }
    }
};

// Generation 0: every gene a fresh random move. Addressed by (0, individual, gene).
struct RandomizePlans {
    uint64_t seed = 0;
    PlanView dst;
    IndexMap made{};  // slot i of dst receives individual made(i)
    GAEVAL_HD void operator()(uint64_t slot) const {
        const uint32_t i32 = static_cast<uint32_t>(made(slot));
        for (int m = 0; m < dst.gene_count; ++m)
            dst.set_gene(
                slot, m,
                pack_move(random_move(seed, Purpose::InitMove, 0, i32, static_cast<uint32_t>(m))));
    }
};

}  // namespace gaeval::pile_in
