// Which layout of learn::WordPopulation (host/learn/word_population.hpp) a population takes on a
// backend with a given amount of free memory: a pure function of the population's size, its
// genomes' bytes, the scheme (its survivors, whether it may keep only them) and the free bytes,
// so that every boundary is tested on the CPU with made-up numbers (tests/
// test_population_layout.cpp). With 10% of the free memory left to the runtime, the first that
// fits of:
//   resident          genomes, the spare generation and the per-member arrays on the backend
//   streamed          only 2 x S survivors and a chunk on the backend (schemes that
//                     streams_survivors: gapi1, rules), nothing in host memory
//   chunked           genomes in host memory (a backend apart from the host's: cuda), two
//                     chunks (one copied while the other is worked on; one when a chunk holds
//                     the whole population) and the S parents on the backend
//   chunked, parents on the host   the same, bred on the host's threads
// A chunk holds up to 2^22 members and at least min(N, 4096) (a smaller launch leaves a GPU
// idle); none fits: InputError naming the bytes each needs and the bytes free.
#pragma once

#include <cstdint>
#include <string>

#include "host/learn/word_population.hpp"

namespace gaeval::learn {

// A population's needs (bytes on its backend unless said).
struct LayoutNeeds {
    uint64_t members = 0;            // N
    uint64_t genome_bytes = 0;       // G: bytes a genome (dims x 4)
    uint64_t survivors = 0;          // S: the ranks breeding reads (Scheme::ranks_bred_from)
    bool streams_survivors = false;  // the scheme may keep only them (Scheme::streams_survivors)
    bool host_apart = false;         // the backend's memory is not the host's (cuda)
    uint64_t ranking_bytes = 0;      // the ranking's workspace for N (BackendRanker)
    uint64_t host_free = 0;          // host bytes available (0: unknown, not checked)
};

struct LayoutChoice {
    Chunking chunking;           // the layout (members 0: resident)
    uint64_t backend_bytes = 0;  // what it needs on the backend
    uint64_t host_bytes = 0;     // genomes it keeps in host memory (chunked layouts)
};

// The needs of c's population (c.population members of c.dims() words, bred by c's scheme) on
// `backend`, host_free unknown.
LayoutNeeds layout_needs(const LearnConfig& c, const BackendChoice& backend);

// Backend bytes of each layout (a chunk of `chunk` members).
uint64_t resident_bytes(const LayoutNeeds& p);
uint64_t streamed_bytes(const LayoutNeeds& p, uint64_t chunk);
uint64_t chunked_bytes(const LayoutNeeds& p, uint64_t chunk, bool parents_on_host);
// Host bytes of the chunked layouts (both generations' genomes and the parents' staging).
uint64_t chunked_host_bytes(const LayoutNeeds& p, bool parents_on_host);

// The first layout that fits in `free_bytes` less 10%; InputError (one line, naming the
// population, each layout's bytes and the free bytes) when none does.
LayoutChoice choose_layout(const LayoutNeeds& p, uint64_t free_bytes);
// "streamed on the backend 4096 members at a time, its 512 survivors kept there (1.2 MiB)".
std::string describe_layout(const LayoutNeeds& p, const LayoutChoice& choice);

}  // namespace gaeval::learn
