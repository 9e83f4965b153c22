// The word schemes' breeding as executor ops (host/backend/executor.hpp): one child an index,
// over genomes in the backend's memory, so that a population of word genomes can stay on its
// backend between generations (host/learn/word_population.hpp). The same GAEVAL_HD code on both
// backends: gapi1's is the one GAPI1 rule (problems/pile_in/gapi1_scheme.hpp: Gapi1Rule) with
// the problem's own fresh gene, rules' is pile-in's RulesStep (problems/pile_in/rules_scheme.hpp).
// Each writes child made(k)'s genes into slot k (member-major, the slot's words contiguous) and
// hit[k], whether a mutation hit it: made(k) = first + k breeds a whole generation (first = 0)
// or one chunk of it (a population kept in host memory, bred a chunk at a time on the device:
// host/learn/word_population.hpp); made(k) = children[k] remakes chosen members (the survivors of
// a population that keeps only them). InitGapi1Words and pile-in's RandomizeRulesPlans make
// members of generation 0 the same way. Instantiated for the device in kernels/breed_ops.cu
// (BreedGapi1Words and InitGapi1Words for every word problem of problems/problems.cmake).
#pragma once

#include <cstdint>
#include <type_traits>

#include "games/core/hd.hpp"
#include "games/core/rng.hpp"
#include "problems/pile_in/gapi1_scheme.hpp"
#include "problems/pile_in/rules_scheme.hpp"
#include "problems/problem.hpp"

namespace gaeval::breed_ops {

// GAPI1 over the word genomes of problem P: child made(k) of `rule.generation` from the
// parents ranked[r] (the r-th best) of src, a fresh gene P::random_gene(seed, MutationMove,
// generation, child, m) (what the gapi1 scheme's breed_ranked draws), into slot k.
template <class P>
struct BreedGapi1Words {
    P problem;
    pile_in::Gapi1Rule rule;
    const uint32_t* ranked = nullptr;  // population
    const uint32_t* src = nullptr;     // population x dims
    uint32_t* dst = nullptr;           // population x dims
    uint8_t* hit = nullptr;            // population
    uint32_t dims = 0;
    pile_in::IndexMap made{};  // the child slot k receives
    GAEVAL_HD void operator()(uint64_t k) const {
        const uint64_t child = made(k);
        const uint32_t child32 = static_cast<uint32_t>(child);
        hit[k] = static_cast<uint8_t>(rule.make(
            child, dims,
            [&](uint64_t r, uint32_t m) { return src[uint64_t{ranked[r]} * dims + m]; },
            [&](uint32_t m) {
                return problem.random_gene(rule.seed, Purpose::MutationMove, rule.generation,
                                           child32, m);
            },
            [&](uint32_t m, uint32_t gene) { dst[k * dims + m] = gene; }));
    }
};

// Generation 0 of gapi1 over the word genomes of problem P: gene m of member made(k) is
// P::random_gene(seed, InitMove, 0, member, m) (the gapi1 scheme's initialize), into slot k.
template <class P>
struct InitGapi1Words {
    P problem;
    uint64_t seed = 0;
    uint32_t* dst = nullptr;  // count x dims
    uint32_t dims = 0;
    pile_in::IndexMap made{};  // the member slot k receives
    GAEVAL_HD void operator()(uint64_t k) const {
        const uint32_t member = static_cast<uint32_t>(made(k));
        for (uint32_t m = 0; m < dims; ++m)
            dst[k * dims + m] = problem.random_gene(seed, Purpose::InitMove, 0, member, m);
    }
};

// A problem whose genomes are not words has no word breeding (a placeholder the device
// instantiation skips to, one type a problem).
template <class P>
struct NoWordBreeding {
    GAEVAL_HD void operator()(uint64_t) const {}
};

// gapi1's breeding op of problem P (NoWordBreeding for a problem over real genes).
template <class P>
using Gapi1WordsOp =
    std::conditional_t<problems::is_word_problem_v<P>, BreedGapi1Words<P>, NoWordBreeding<P>>;
// Its generation 0 (a placeholder of its own for a problem over real genes).
template <class P>
struct NoWordInit {
    GAEVAL_HD void operator()(uint64_t) const {}
};
template <class P>
using Gapi1InitOp =
    std::conditional_t<problems::is_word_problem_v<P>, InitGapi1Words<P>, NoWordInit<P>>;

// The rules scheme: RulesStep's child made(k) into slot k (base.src and base.dst plan-major
// views).
struct BreedRules {
    pile_in::RulesStep step;
    uint8_t* hit = nullptr;    // population
    pile_in::IndexMap made{};  // the child slot k receives
    GAEVAL_HD void operator()(uint64_t k) const {
        hit[k] = static_cast<uint8_t>(step.make(made(k), k));
    }
};

}  // namespace gaeval::breed_ops
