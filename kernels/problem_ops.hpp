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

// The evaluation op of problem P, whichever its genome.
template <class P>
using EvaluateOp =
    std::conditional_t<problems::is_word_problem_v<P>, EvaluateWordProblem<P>, EvaluateProblem<P>>;

}  // namespace gaeval::problem_ops
