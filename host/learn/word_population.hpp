// A population of word genomes (a problem built from a setup: LearnConfig::instance) bred by a
// scheme whose breeding is an executor op (Scheme::breeds_words_on_backend: gapi1, rules). Two
// layouts, the same ops and the same bits generation by generation:
//
// Resident (Chunking::members == 0): the genomes stay in the backend's memory between
// generations. One generation moves no genome between the host and the device:
//   initialize  the scheme's initialize on the host, copied to the backend once
//   evaluate    the problem's evaluate_on over the genomes where they are: the fitness comes back
//   breed       the scheme's breed_words_on from the caller's ranking (sent: a word a member)
//               into the spare array, then swapped: a byte a member (mutation hits) comes back
//
// Chunked (Chunking::members = K > 0): for a population larger than the backend's memory. The
// genomes live in host memory; the backend holds one chunk of K genomes and the parents:
//   evaluate    chunk by chunk: K genomes copied to the backend, evaluate_on there (a problem
//               that rewrites genomes: the chunk copied back)
//   breed       the ranks breeding reads (Scheme::ranks_bred_from: gapi1's and rules' survivors)
//               gathered best first on the host and copied to the backend once; then chunk by
//               chunk breed_words_on's children [first, first + K) into the chunk, copied back
//               into the spare host array. Chunking::parents_on_host breeds on the host's
//               threads instead (the same op over the whole population on the cpu backend): for
//               a population whose parents do not fit on the device either.
// Streamed (Chunking::survivors_only, K > 0; a scheme that streams_survivors: gapi1, rules):
// for a population whose genomes fit neither on the device nor in host memory. No genome is
// kept but the survivors: the backend holds 2 x S genomes (S = ranks_bred_from) and one chunk;
// every other member is made again from where it came from (the seed: initialize_words_on;
// the survivors: breed_words_on; or the words write_words gave, kept in host memory until the
// next breed):
//   evaluate    chunk by chunk: K members made into the chunk, evaluate_on there (a problem that
//               rewrites genomes rewrites the chunk: it is made and rewritten again when read)
//   breed       the ranking's S best made again (ChildSpan::children), rewritten as scored, into
//               the spare survivor array: the next generation's parents; a generation moves no
//               genome between the host and the device. The mutants of the generation it makes
//               are counted by making its members' hits a chunk at a time (count_mutants)
// On the cpu backend the chunked and streamed layouts run the very same calls over host memory,
// so the CPU tests (tests/test_word_population.cpp, test_pile_in_parity.cpp) check them against
// the resident one at any chunk size.
//
// read_member, read_words and write_words copy genomes for reports and checkpoints. Used by
// `gaeval learn` on word problems (host/learn/learn_run.cpp) and `gaeval pile-in`'s engine
// population (host/pile_in/engine_population.cpp). On the cpu backend the arrays are host memory.
#pragma once

#include <cstdint>
#include <vector>

#include "host/backend/backend.hpp"
#include "host/backend/backend_array.hpp"
#include "host/learn/learn.hpp"
#include "host/learn/scheme.hpp"

namespace gaeval::learn {

// Where a WordPopulation's genomes live (see above).
struct Chunking {
    uint64_t members = 0;          // 0: resident on the backend; K > 0: in host memory, K a chunk
    bool parents_on_host = false;  // chunked: breed on the host's threads, not chunk by chunk
    bool survivors_only = false;   // K > 0: streamed, only the survivors kept (on the backend)
};

class WordPopulation {
  public:
    // c.population members of c.dims() words of problem c.instance, bred by c's scheme, laid
    // out as `chunking` says; std::logic_error for a configuration without word genomes or a
    // scheme that cannot breed on a backend.
    WordPopulation(const BackendChoice& backend, const LearnConfig& c, Chunking chunking = {});

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
    // first, one index a member); returns the members a mutation hit (0 in the streamed layout
    // without count_mutants, which would make every member once more to count them).
    uint32_t breed(uint32_t made, const std::vector<uint32_t>& ranked, bool count_mutants = true);

    // Member i's words into out (dims of them).
    void read_member(uint64_t i, uint32_t* out) const;
    // Every member's words, member-major (population x dims).
    void read_words(std::vector<uint32_t>& out) const;
    void write_words(const std::vector<uint32_t>& in);

    const Chunking& chunking() const { return chunking_; }

  private:
    // The chunked layout's evaluate and breed (hit: one byte a member).
    void evaluate_chunks();
    void breed_chunks(uint32_t made, const std::vector<uint32_t>& ranked,
                      std::vector<uint8_t>& hit);
    // The ranks breeding reads, best first, into parents_ (and their order, 0 .. S-1).
    void send_parents(const std::vector<uint32_t>& ranked);

    // The streamed layout (word_population_streamed.cpp).
    enum class Source { Seed, Survivors, Words };
    void start_streamed();
    void evaluate_streamed();
    uint32_t breed_streamed(uint32_t made, const std::vector<uint32_t>& ranked, bool count);
    // Members span of the current generation, as made (rewritten where the generation has been
    // scored and the problem rewrites genomes), into slots from `slot` of dst; hits of bred
    // members into hit (backend memory, span.count; may be null for a span from the seed or
    // the words). `listed`: span.children on the host (the Words source gathers there).
    void make(ChildSpan span, const uint32_t* listed, BackendArray<uint32_t>& dst, uint64_t slot,
              uint8_t* hit) const;
    void rewrite_as_scored(BackendArray<uint32_t>& genomes, uint64_t slot, uint32_t count) const;
    uint32_t count_mutants_streamed() const;
    void read_streamed(uint64_t first, uint64_t count, uint32_t* out) const;

    BackendChoice backend_;
    LearnConfig config_;
    const Scheme* scheme_ = nullptr;
    Chunking chunking_;
    // population x dims, member-major: on backend_ (resident) or on the host (chunked).
    BackendArray<uint32_t> words_, spare_;
    std::vector<double> fitness_;
    // Chunked: one chunk of genomes and its hits, the parents and their order, on backend_.
    mutable BackendArray<uint32_t> chunk_words_;  // mutable: the streamed layout reads through it
    mutable BackendArray<uint8_t> chunk_hits_;
    BackendArray<uint32_t> parents_, parent_order_;
    // Streamed: where the current generation comes from, the configuration it was made with
    // (its seed and rates), the survivors it is bred from ([bred_from_], best first; the other
    // is spare), their ranks in the generation before, whether it has been scored.
    Source source_ = Source::Seed;
    LearnConfig made_with_;
    uint32_t made_ = 0;
    BackendArray<uint32_t> survivors_[2];
    int bred_from_ = 0;
    bool scored_ = false;
};

// learn::step (host/learn/learn.hpp) with the word genomes in `population` on its backend, for
// a scheme that breeds_words_on_backend: state.words is left as it was (stale until the caller
// reads the population back).
GenerationReport step(const LearnConfig& c, LearnState& state, WordPopulation& population);

}  // namespace gaeval::learn
