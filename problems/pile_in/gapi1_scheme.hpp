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
#include "problems/pile_in/genome.hpp"

namespace gaeval::pile_in {

// The GAPI1 rule itself, over any gene storage: the one step that `gaeval pile-in`'s
// population (Gapi1Step below, on both backends) and the one engine's gapi1 scheme
// (host/learn/schemes/gapi1.cpp, on word and real genomes) both breed with. Parents are named
// by rank (0 = the best); the caller maps a rank to its storage. Draws, addressed by (generation
// being made, new member k):
//   parents   (ParentPick, generation, k, 0, 0): two ranks below S (children only);
//   crossover (CrossoverMask, generation, k, m / 128, 0): 128 mask bits, read only when the
//             parents differ (clones skip the draw);
//   mutation  (MutationHit, generation, k, m / 4, 0): four genes' hits a draw; a hit gene is
//             fresh(m), the caller's fresh gene (pile-in: a random move, MutationMove).
struct Gapi1Rule {
    uint64_t seed = 0;
    uint32_t generation = 0;  // the generation being made (>= 1)
    uint64_t survivors = 0;   // S >= 1
    double mutation_rate = 0;

    // Parent ranks of new member k: the k-th best twice (a clone) for k < S, else two ranks
    // drawn uniformly below S.
    GAEVAL_HD_INLINE void parents(uint64_t k, uint64_t& a, uint64_t& b) const {
        if (k < survivors) {
            a = b = k;
            return;
        }
        Random4 r = philox(seed, Purpose::ParentPick, generation, static_cast<uint32_t>(k), 0, 0);
        a = below64(join64(r.v[0], r.v[1]), survivors);
        b = below64(join64(r.v[2], r.v[3]), survivors);
    }

    // Makes new member k of `genes` genes: parent(rank, m) reads gene m of the parent of that
    // rank, fresh(m) makes a fresh gene m, put(m, gene) writes the child's gene m. Returns
    // whether any gene is fresh (a mutant).
    template <class Parent, class Fresh, class Put>
    GAEVAL_HD_INLINE bool make(uint64_t k, uint32_t genes, const Parent& parent, const Fresh& fresh,
                               const Put& put) const {
        uint64_t a, b;
        parents(k, a, b);
        const uint32_t k32 = static_cast<uint32_t>(k);
        Random4 mask{}, hits{};
        bool mutated = false;
        for (uint32_t m = 0; m < genes; ++m) {
            if (a != b && (m & 127u) == 0)
                mask = philox(seed, Purpose::CrossoverMask, generation, k32, m >> 7, 0);
            const bool from_b = a != b && ((mask.v[(m & 127u) >> 5] >> (m & 31u)) & 1u);
            auto gene = parent(from_b ? b : a, m);
            if ((m & 3u) == 0)
                hits = philox(seed, Purpose::MutationHit, generation, k32, m >> 2, 0);
            if (bernoulli(hits.v[m & 3u], mutation_rate)) {
                gene = fresh(m);
                mutated = true;
            }
            put(m, gene);
        }
        return mutated;
    }
};

// Everything one step of pile-in's population needs; trivially copyable (a kernel argument).
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

    GAEVAL_HD_INLINE Gapi1Rule rule() const {
        return Gapi1Rule{seed, generation, survivors, mutation_rate};
    }
    // The index in src of the parent of rank r.
    GAEVAL_HD_INLINE uint64_t of_rank(uint64_t r) const { return ranked ? ranked[r] : r; }

    // Parents of new individual k, as indexes in src (equal for clones).
    GAEVAL_HD_INLINE void parents(uint64_t k, uint64_t& a, uint64_t& b) const {
        rule().parents(k, a, b);
        a = of_rank(a);
        b = of_rank(b);
    }

    // Makes new individual made(slot) in dst's slot `slot`.
    GAEVAL_HD void operator()(uint64_t slot) const { make(made(slot), slot); }

    // Makes new individual k in dst's slot `slot` (Gapi1Rule::make).
    GAEVAL_HD void make(uint64_t k, uint64_t slot) const {
        const uint32_t k32 = static_cast<uint32_t>(k);
        rule().make(
            k, static_cast<uint32_t>(src.gene_count),
            [&](uint64_t r, uint32_t m) { return src.gene(of_rank(r), static_cast<int>(m)); },
            [&](uint32_t m) {
                return pack_move(random_move(seed, Purpose::MutationMove, generation, k32, m));
            },
            [&](uint32_t m, uint32_t gene) { dst.set_gene(slot, static_cast<int>(m), gene); });
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
