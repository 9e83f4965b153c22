// The executor's op of a problem (problems/problem.hpp): one genome per index, fitness[i] =
// problem.fitness(genome i), on either backend (host/backend/executor.hpp: for_each_index; one
// thread a genome on the device, OpenMP threads on the cpu), the same GAEVAL_HD code and bits.
// Instantiated for the device for every listed problem in kernels/problem_ops.cu (the rewriting
// op too: repair constraints as a device op).
#pragma once

#include <cstdint>
#include <type_traits>
#include <utility>

#include "games/core/hd.hpp"
#include "problems/problem.hpp"

namespace gaeval::problem_ops {

template <class P>
struct EvaluateProblem {
    P problem;
    const float* genomes = nullptr;  // n x dimension, genome-major (genome i's genes contiguous)
    double* fitness = nullptr;       // n
    uint32_t dimension = 0;
    GAEVAL_HD void operator()(uint64_t i) const {
        fitness[i] = problem.fitness(genomes + i * dimension, dimension);
    }
};

// The same for a problem over word genomes (problems/problem.hpp: P::Gene), built from its
// setup on the host.
template <class P>
struct EvaluateWordProblem {
    P problem;
    const uint32_t* genomes = nullptr;  // n x dimension words, genome-major
    double* fitness = nullptr;          // n
    uint32_t dimension = 0;
    GAEVAL_HD void operator()(uint64_t i) const {
        fitness[i] = problem.fitness(genomes + i * dimension, dimension);
    }
};

// Whether word problem P may rewrite the genomes it scores (P::rewrites, P::fitness_rewriting:
// pile-in-rules with repair constraints).
template <class P, class = void>
struct rewrites_of : std::false_type {};
template <class P>
struct rewrites_of<P, std::void_t<decltype(std::declval<const P&>().rewrites())>> : std::true_type {
};

// EvaluateWordProblem where scoring rewrites each genome in place into the one it scored
// (P::fitness_rewriting): fitness[i] and genome i rewritten, on either backend.
template <class P>
struct EvaluateWordProblemRewriting {
    P problem;
    uint32_t* genomes = nullptr;  // n x dimension words, genome-major
    double* fitness = nullptr;    // n
    uint32_t dimension = 0;
    GAEVAL_HD void operator()(uint64_t i) const {
        fitness[i] = problem.fitness_rewriting(genomes + i * dimension, dimension);
    }
};

// A problem whose scoring rewrites nothing has no rewriting op (a placeholder the device
// instantiation skips to, one type a problem).
template <class P>
struct NoRewriting {
    GAEVAL_HD void operator()(uint64_t) const {}
};

template <class P>
using RewritingOp =
    std::conditional_t<rewrites_of<P>::value, EvaluateWordProblemRewriting<P>, NoRewriting<P>>;

// Whether word problem P has a cpu form over kLanes genomes at a time (P::fitness_lanes).
template <class P, class = void>
struct has_lanes : std::false_type {};
template <class P>
struct has_lanes<P, std::void_t<decltype(P::kLanes)>> : std::true_type {};

// The cpu's form of EvaluateWordProblem for such a problem: block b scores genomes
// [L b, L b + L) of n in lanes, a last partial block one genome at a time; the same bits
// (host_only: no .cu file compiles it).
template <class P>
struct EvaluateWordBlocks {
    using host_only = void;
    P problem;
    const uint32_t* genomes = nullptr;
    double* fitness = nullptr;
    uint32_t dimension = 0;
    uint64_t n = 0;
    void operator()(uint64_t block) const {
        constexpr int L = P::kLanes;
        const uint64_t first = block * L;
        if (first + L > n) {
            for (uint64_t i = first; i < n; ++i)
                fitness[i] = problem.fitness(genomes + i * dimension, dimension);
            return;
        }
        problem.fitness_lanes(genomes + first * dimension, fitness + first);
    }
};

// A fitness computed as a float and widened to double (pile-in's, problems/pile_in.hpp)
// narrowed back, in the backend's memory: exact, so that a ranking of floats
// (host/backend/backend_ranking.hpp) ranks it where it lies.
struct NarrowFitness {
    const double* wide = nullptr;  // n
    float* narrow = nullptr;       // n
    GAEVAL_HD void operator()(uint64_t i) const { narrow[i] = static_cast<float>(wide[i]); }
};

// The cpu's form of NarrowFitness over n values: block b narrows [kBlock b, kBlock b + kBlock),
// so that a population of up to kBlock members is one task on the calling thread (waking the
// other threads would cost more than the pass; host_only: no .cu file compiles it).
struct NarrowFitnessBlocks {
    using host_only = void;
    static constexpr uint64_t kBlock = uint64_t{1} << 16;
    const double* wide = nullptr;
    float* narrow = nullptr;
    uint64_t n = 0;
    static uint64_t blocks(uint64_t n) { return (n + kBlock - 1) / kBlock; }
    void operator()(uint64_t b) const {
        for (uint64_t i = b * kBlock; i < n && i < (b + 1) * kBlock; ++i)
            narrow[i] = static_cast<float>(wide[i]);
    }
};

// The evaluation op of problem P, whichever its genome.
template <class P>
using EvaluateOp =
    std::conditional_t<problems::is_word_problem_v<P>, EvaluateWordProblem<P>, EvaluateProblem<P>>;

}  // namespace gaeval::problem_ops
