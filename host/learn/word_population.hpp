// A population of word genomes (a problem built from a setup: LearnConfig::instance) bred by a
// scheme whose breeding is an executor op (Scheme::breeds_words_on_backend: gapi1, rules). Three
// layouts, the same ops and the same bits generation by generation:
//
// Resident (Chunking::members == 0): the genomes stay in the backend's memory between
// generations. One generation moves no genome between the host and the device:
//   initialize  the scheme's initialize on the host, copied to the backend once
//   evaluate    the problem's evaluate_into over the genomes where they are, into a fitness
//               array there (evaluate(): copied to the host; evaluate_narrowed: narrowed to
//               float there, for a ranking on the backend, nothing copied)
//   breed       the scheme's breed_words_on from a ranking (breed: the caller's, sent; breed_from:
//               one already in the backend's memory) into the spare array, then swapped; the
//               mutation hits come back only when counted
//
// Chunked (Chunking::members = K > 0): for a population larger than the backend's memory. The
// genomes live in host memory (page-locked when the backend is the device); the backend holds
// two chunks of K genomes and the parents; two copy queues (host/backend/copy_queue.hpp), one a
// chunk buffer, so that a chunk's copy overlaps the other's op:
//   evaluate    chunk by chunk: chunk c + 1 copied in while chunk c is evaluated there (a problem
//               that rewrites genomes: chunk c copied back while c + 1 is evaluated)
//   breed       the ranks breeding reads (Scheme::ranks_bred_from: gapi1's and rules' survivors)
//               gathered best first on the host and copied to the backend once; then chunk by
//               chunk breed_words_on's children [first, first + K) into a chunk buffer, copied
//               back into the spare host array while the next chunk is bred. Chunking::
//               parents_on_host breeds on the host's threads instead (the same op over the
//               whole population on the cpu backend): for a population whose parents do not fit
//               on the device either.
// Streamed (Chunking::survivors_only, K > 0; a scheme that streams_survivors: gapi1, rules):
// for a population whose genomes fit neither on the device nor in host memory. No genome is
// kept but the survivors: the backend holds 2 x S genomes (S = ranks_bred_from) and one chunk
// (chunk buffer 0); every other member is made again from where it came from (the seed:
// initialize_words_on; the survivors: breed_words_on; or the words write_words gave, kept in
// host memory until the next breed):
//   evaluate    chunk by chunk: K members made into the chunk, evaluate_into there (a problem
//               that rewrites genomes rewrites the chunk: it is made and rewritten again when
//               read)
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
#include <functional>
#include <vector>

#include "host/backend/backend.hpp"
#include "host/backend/backend_array.hpp"
#include "host/backend/copy_queue.hpp"
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
    // The same narrowed to float into fitness[0 .. population), an array in the backend's memory,
    // nothing copied to the host: for a problem whose fitness is a float widened to double
    // (pile-in's; exact), ranked where it lies (host/backend/backend_ranking.hpp). last_fitness()
    // is left as it was.
    void evaluate_narrowed(float* fitness);
    // What the last evaluate() gave (empty before the first).
    const std::vector<double>& last_fitness() const { return fitness_; }
    // Replaces the population with generation `made` bred from it ranked by `ranked` (best
    // first, one index a member); returns the members a mutation hit (0 without count_mutants,
    // and in the streamed layout without it, which would make every member once more to count).
    uint32_t breed(uint32_t made, const std::vector<uint32_t>& ranked, bool count_mutants = true);
    // The same from a ranking in the backend's memory (BackendRanker's output): not copied to
    // the host, but for the ranks the chunked layout gathers its parents by.
    uint32_t breed_from(uint32_t made, const BackendArray<uint32_t>& ranked,
                        bool count_mutants = true);

    // Member i's words into out (dims of them).
    void read_member(uint64_t i, uint32_t* out) const;
    // Every member's words, member-major (population x dims).
    void read_words(std::vector<uint32_t>& out) const;
    void write_words(const std::vector<uint32_t>& in);

    const Chunking& chunking() const { return chunking_; }

  private:
    // A ranking, best first: the caller's in host memory, or one in the backend's.
    struct Ranks {
        const std::vector<uint32_t>* host = nullptr;
        const BackendArray<uint32_t>* there = nullptr;
    };
    // The first `count` ranks in the backend's memory (a host ranking's copied there when apart).
    const uint32_t* ranks_there(const Ranks& ranked, uint32_t count);
    // The first `count` ranks in host memory (copied from the backend's when apart).
    const uint32_t* ranks_on_host(const Ranks& ranked, uint32_t count);
    uint32_t breed_ranked(uint32_t made, const Ranks& ranked, bool count_mutants);
    // What an evaluation does with the fitness of members [first, first + count), in the
    // backend's memory (wide): copied to last_fitness(), or narrowed into an array there.
    using FitnessSink = std::function<void(uint64_t first, uint64_t count, const double* wide)>;
    void evaluate_each(const FitnessSink& sink);
    // The wide fitness array: n members (resident) or one chunk.
    double* wide_fitness(uint64_t n);

    // The chunked layout's evaluate and breed (hit: one byte a member, or empty: not counted).
    void evaluate_chunks(const FitnessSink& sink);
    void breed_chunks(uint32_t made, const uint32_t* ranked, std::vector<uint8_t>& hit);
    // The ranks breeding reads (ranked, in host memory), best first, into parents_ (and their
    // order, 0 .. S-1).
    void send_parents(const uint32_t* ranked);

    // The streamed layout (word_population_streamed.cpp).
    enum class Source { Seed, Survivors, Words };
    void start_streamed();
    void evaluate_streamed(const FitnessSink& sink);
    uint32_t breed_streamed(uint32_t made, const Ranks& ranked, bool count);
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
    // population x dims, member-major: on backend_ (resident) or in host memory (chunked).
    BackendArray<uint32_t> words_, spare_;
    std::vector<double> fitness_;
    BackendArray<double> wide_fitness_;  // the problem's fitness on backend_ (wide_fitness)
    BackendArray<uint8_t> hits_;         // resident: a mutation hit a member, on backend_
    // A host ranking copied to backend_ (resident, streamed), the backend's ranks copied to the
    // host (chunked: the parents').
    BackendArray<uint32_t> ranks_staged_;
    std::vector<uint32_t> ranks_host_;
    // Chunked: two chunk buffers of genomes and their hits on backend_, a copy queue each, the
    // parents and their order; streamed: chunk buffer 0.
    mutable BackendArray<uint32_t> chunk_words_[2];  // mutable: the streamed layout reads through
    mutable BackendArray<uint8_t> chunk_hits_[2];
    CopyQueue copies_[2];
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
