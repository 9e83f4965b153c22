// The problem interface: an optimisation problem that is not a game, a fitness over a genome of
// `dimension` floats in [kLow, kHigh] that `gaeval learn --problem NAME` maximises or minimises
// with the learning schemes that do not need games (host/learn/scheme.hpp: runs_on_problems),
// as pagmo2 separates problems from algorithms. A problem is one header, problems/<name>.hpp,
// and one line in problems/problems.cmake; docs/adding-a-problem.md walks through one.
//
// A problem type P is a small trivially copyable struct (a kernel argument, passed by value)
// with:
//   static constexpr const char* kName          the --problem value
//   static constexpr const char* kDescription   one line for --help
//   static constexpr bool kMaximise             true: higher fitness is better
//   static constexpr uint32_t kDefaultDimension genes when --dimension is not given
//   static constexpr uint32_t kMaxDimension     the most genes --dimension accepts
//   static constexpr float kLow, kHigh          every gene's bounds (the first population is
//                                               uniform in them; the driver clamps children)
//   static constexpr double kOptimum            the best fitness (the tests' known answer)
//   GAEVAL_HD double fitness(const float* genome, uint32_t dimension) const
// fitness runs on the host and on the device (kernels/problem_ops.hpp: one thread a genome), so
// it keeps games/'s rules: no allocation, exceptions, I/O or std:: algorithms, and only
// + - * / and sqrt on floating point (no sin/cos/exp/log: CUDA's and glibc's differ in the last
// bit), in a fixed order: the same genome gives the same bits on either backend.
//
// A problem built from a setup, over integer genomes (pile-in: a plan of moves from a scenario
// file) declares instead of kDefaultDimension, kMaxDimension, kLow, kHigh and kOptimum:
//   using Gene = uint32_t                       genomes are 32-bit words
//   using Setup = <trivially copyable type>     what the host builds from --<kSetupFlag> (a
//                                               loader for the type: host/learn/problem_setups.hpp)
//   static constexpr const char* kSetupFlag     the flag naming the setup ("scenario")
//   static P from_setup(const Setup&)           the problem of a setup (a kernel argument too)
//   uint32_t dimension() const                  genes of a genome, from the setup
//   GAEVAL_HD double fitness(const uint32_t* genome, uint32_t dimension) const
//   GAEVAL_HD uint32_t random_gene(uint64_t seed, Purpose purpose, uint32_t c0, uint32_t c1,
//                                  uint32_t c2) const
//                                               a fresh random gene, addressed by (purpose, c0,
//                                               c1, c2): the first population and mutation
// Optional, either kind: static constexpr uint32_t kDefaultPopulation (members when
// --population is not given; else the scheme's default) and static constexpr const char*
// kOnlyScheme (the one scheme that breeds the genome, when its genes are not independent:
// pile-in-rules' move order is bred by scheme rules only); for a setup's problem also
// kSetupForm (how the setup flag's text reads in help and errors; default "NAME|FILE").
// Optional, host only: static constexpr int kLanes and
//   void fitness_lanes(const uint32_t* genomes, double* fitness) const
// score kLanes genomes (plan-major) at once with the bits of fitness(); the cpu backend then runs
// blocks of kLanes (kernels/problem_ops.hpp: EvaluateWordBlocks), the device one genome a thread.
// Optional, a setup's problem whose scoring may rewrite the genome (pile-in-rules' repair
// constraints): bool rewrites() const (whether this setup's scoring does) and
//   GAEVAL_HD double fitness_rewriting(uint32_t* genome, uint32_t dimension) const
// the fitness of the genome it leaves behind; the host runs it on the cpu backend only
// (host/learn/learn_problems.cpp) and the genomes it rewrote are the population's.
// Only the schemes that run on word genomes (Scheme::runs_on_words: gapi1) run on it.
#pragma once

#include <cstdint>
#include <type_traits>

#include "games/core/hd.hpp"
#include "games/core/rng.hpp"

namespace gaeval::problems {

// Whether P's genomes are 32-bit words (P::Gene = uint32_t: a problem built from a setup).
template <class P, class = void>
struct is_word_problem : std::false_type {};
template <class P>
struct is_word_problem<P, std::void_t<typename P::Gene>> : std::true_type {};
template <class P>
constexpr bool is_word_problem_v = is_word_problem<P>::value;

// Compile-time check of the interface above (the registry calls it for every listed problem).
template <class P>
constexpr bool check_problem() {
    static_assert(std::is_trivially_copyable_v<P>, "a problem is a kernel argument");
    static_assert(std::is_default_constructible_v<P>, "the registry makes a problem as P{}");
    static_assert(std::is_same_v<decltype(P::kName), const char* const>, "P::kName");
    static_assert(std::is_same_v<decltype(P::kDescription), const char* const>, "P::kDescription");
    static_assert(std::is_same_v<decltype(P::kMaximise), const bool>, "P::kMaximise");
    static_assert(std::is_same_v<decltype(P::kDefaultDimension), const uint32_t>,
                  "P::kDefaultDimension");
    static_assert(std::is_same_v<decltype(P::kMaxDimension), const uint32_t>, "P::kMaxDimension");
    static_assert(P::kDefaultDimension >= 1 && P::kDefaultDimension <= P::kMaxDimension,
                  "1 <= kDefaultDimension <= kMaxDimension");
    static_assert(std::is_same_v<decltype(P::kLow), const float> &&
                      std::is_same_v<decltype(P::kHigh), const float> && P::kLow < P::kHigh,
                  "float bounds kLow < kHigh");
    static_assert(std::is_same_v<decltype(P::kOptimum), const double>, "P::kOptimum");
    static_assert(std::is_same_v<decltype(std::declval<const P&>().fitness(
                                     static_cast<const float*>(nullptr), uint32_t{})),
                                 double>,
                  "GAEVAL_HD double fitness(const float* genome, uint32_t dimension) const");
    return true;
}

// Compile-time check of the word-genome interface above.
template <class P>
constexpr bool check_word_problem() {
    static_assert(std::is_trivially_copyable_v<P>, "a problem is a kernel argument");
    static_assert(std::is_same_v<typename P::Gene, uint32_t>, "P::Gene is uint32_t");
    static_assert(std::is_trivially_copyable_v<typename P::Setup>, "P::Setup is plain data");
    static_assert(std::is_same_v<decltype(P::kName), const char* const>, "P::kName");
    static_assert(std::is_same_v<decltype(P::kDescription), const char* const>, "P::kDescription");
    static_assert(std::is_same_v<decltype(P::kMaximise), const bool>, "P::kMaximise");
    static_assert(std::is_same_v<decltype(P::kSetupFlag), const char* const>, "P::kSetupFlag");
    static_assert(
        std::is_same_v<decltype(P::from_setup(std::declval<const typename P::Setup&>())), P>,
        "static P from_setup(const Setup&)");
    static_assert(std::is_same_v<decltype(std::declval<const P&>().dimension()), uint32_t>,
                  "uint32_t dimension() const");
    static_assert(std::is_same_v<decltype(std::declval<const P&>().fitness(
                                     static_cast<const uint32_t*>(nullptr), uint32_t{})),
                                 double>,
                  "GAEVAL_HD double fitness(const uint32_t* genome, uint32_t dimension) const");
    static_assert(
        std::is_same_v<decltype(std::declval<const P&>().random_gene(
                           uint64_t{}, Purpose::InitMove, uint32_t{}, uint32_t{}, uint32_t{})),
                       uint32_t>,
        "GAEVAL_HD uint32_t random_gene(seed, purpose, c0, c1, c2) const");
    return true;
}

}  // namespace gaeval::problems
