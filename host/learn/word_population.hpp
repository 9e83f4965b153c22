// A population of word genomes (a problem built from a setup: LearnConfig::instance) kept in its
// backend's memory between generations, bred by a scheme whose breeding is an executor op
// (Scheme::breeds_words_on_backend: gapi1, rules). One generation moves no genome between the
// host and the device:
//   initialize  the scheme's initialize on the host, copied to the backend once
//   evaluate    the problem's evaluate_on over the genomes where they are: the fitness comes back
//   breed       the scheme's breed_words_on from the caller's ranking (sent: a word a member)
//               into the spare array, then swapped: a byte a member (mutation hits) comes back
// read_member, read_words and write_words copy genomes for reports and checkpoints. Used by
// `gaeval learn` on word problems (host/learn/learn_run.cpp) and `gaeval pile-in`'s engine
// population (host/pile_in/engine_population.cpp). On the cpu backend the arrays are host memory.
#pragma once

#include <cstdint>
#include <vector>

#include "host/backend/backend.hpp"
#include "host/backend/backend_array.hpp"
#include "host/learn/learn.hpp"

namespace gaeval::learn {

class Scheme;

class WordPopulation {
  public:
    // c.population members of c.dims() words of problem c.instance, bred by c's scheme;
    // std::logic_error for a configuration without word genomes or a scheme that cannot breed
    // on a backend.
    WordPopulation(const BackendChoice& backend, const LearnConfig& c);

    // The configuration the scheme reads (its seed and rates may change between calls).
    LearnConfig& config() { return config_; }
    const BackendChoice& backend() const { return backend_; }

    // Generation 0 (the scheme's initialize with config().seed).
    void initialize();
    // The fitness of every member; a problem that rewrites genomes rewrites them in place.
    std::vector<double> evaluate();
    // What the last evaluate() gave (empty before the first).
    const std::vector<double>& last_fitness() const { return fitness_; }
    // Replaces the population with generation `made` bred from it ranked by `ranked` (best
    // first, one index a member); returns the members a mutation hit.
    uint32_t breed(uint32_t made, const std::vector<uint32_t>& ranked);

    // Member i's words into out (dims of them).
    void read_member(uint64_t i, uint32_t* out) const;
    // Every member's words, member-major (population x dims).
    void read_words(std::vector<uint32_t>& out) const;
    void write_words(const std::vector<uint32_t>& in);

  private:
    BackendChoice backend_;
    LearnConfig config_;
    const Scheme* scheme_ = nullptr;
    BackendArray<uint32_t> words_, spare_;  // population x dims, member-major
    std::vector<double> fitness_;
};

// learn::step (host/learn/learn.hpp) with the word genomes in `population` on its backend, for
// a scheme that breeds_words_on_backend: state.words is left as it was (stale until the caller
// reads the population back).
GenerationReport step(const LearnConfig& c, LearnState& state, WordPopulation& population);

}  // namespace gaeval::learn
