// The memory-fitting chooser of a word population's layout (host/learn/population_layout.hpp)
// with made-up free-memory numbers: each layout's bytes worked out by hand from what it keeps on
// the backend, and each boundary (the least free memory that takes a layout, one byte less takes
// the next), the chunk's limits, the host-memory check and the error line. Then, on the cpu
// backend, a small budget that makes the chooser stream a population runs that very layout and
// gives the resident population's genomes and fitness.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "host/core/error.hpp"
#include "host/learn/learn_problems.hpp"
#include "host/learn/population_layout.hpp"
#include "host/learn/scheme.hpp"
#include "host/learn/word_population.hpp"

namespace gaeval::learn {
namespace {

// N = 100000 members of 40 bytes, S = 20000 survivors, a ranking workspace of 8 bytes a member.
LayoutNeeds needs() {
    LayoutNeeds p;
    p.members = 100000;
    p.genome_bytes = 40;
    p.survivors = 20000;
    p.streams_survivors = true;
    p.host_apart = true;
    p.ranking_bytes = 800000;
    return p;
}

// Every member's fitness and rank (8 N) and the ranking's workspace: 1,600,000 bytes. A member
// in a streamed chunk: its genome, its fitness (a double) and hit: 49 bytes; in the chunked
// layout's two chunk buffers (one copied while the other is worked on): two genomes and two
// hits, one fitness: 90 bytes (49 where one chunk holds the whole population). Hand-worked:
constexpr uint64_t kResident = 2 * 100000 * 40 + 1600000 + 100000 * (8 + 1 + 4);  // 10,900,000
constexpr uint64_t kStreamedFixed = 1600000 + 2 * 20000 * 40 + 2 * 20000 * 4;     // 3,360,000
constexpr uint64_t kChunkedFixed = 1600000 + 20000 * (40 + 4);                    // 2,480,000
constexpr uint64_t kParentsOnHostFixed = 1600000;
constexpr uint64_t kLeastChunk = 4096 * 49;
constexpr uint64_t kLeastCopiedChunk = 4096 * (2 * 40 + 2 + 8);

// The least free memory whose 90% (free - free / 10) holds `bytes`.
uint64_t least_free_for(uint64_t bytes) {
    uint64_t f = bytes;
    while (f - f / 10 < bytes) ++f;
    return f;
}

TEST(PopulationLayout, EachLayoutsBytesAreWhatItKeeps) {
    const LayoutNeeds p = needs();
    EXPECT_EQ(resident_bytes(p), kResident);
    EXPECT_EQ(streamed_bytes(p, 4096), kStreamedFixed + kLeastChunk);
    EXPECT_EQ(chunked_bytes(p, 4096, false), kChunkedFixed + kLeastCopiedChunk);
    EXPECT_EQ(chunked_bytes(p, 4096, true), kParentsOnHostFixed + kLeastCopiedChunk);
    EXPECT_EQ(chunked_host_bytes(p, false), 2 * 100000 * 40 + 20000 * 40);
}

TEST(PopulationLayout, EachBoundaryTakesTheNextLayout) {
    const LayoutNeeds p = needs();
    const uint64_t resident = least_free_for(kResident);
    EXPECT_EQ(choose_layout(p, resident).chunking.members, 0u);
    const LayoutChoice streamed = choose_layout(p, resident - 1);
    EXPECT_TRUE(streamed.chunking.survivors_only);
    EXPECT_EQ(streamed.chunking.members, 100000u);  // the whole population fits one chunk
    const uint64_t least_streamed = least_free_for(kStreamedFixed + kLeastChunk);
    const LayoutChoice s = choose_layout(p, least_streamed);
    EXPECT_TRUE(s.chunking.survivors_only);
    EXPECT_EQ(s.chunking.members, 4096u);
    EXPECT_LE(s.backend_bytes, least_streamed - least_streamed / 10);
    const LayoutChoice chunked = choose_layout(p, least_streamed - 1);
    EXPECT_FALSE(chunked.chunking.survivors_only);
    EXPECT_FALSE(chunked.chunking.parents_on_host);
    EXPECT_GT(chunked.chunking.members, 4096u);
    EXPECT_EQ(chunked.host_bytes, 2 * 100000 * 40 + 20000 * 40);
    const uint64_t least_chunked = least_free_for(kChunkedFixed + kLeastCopiedChunk);
    EXPECT_FALSE(choose_layout(p, least_chunked).chunking.parents_on_host);
    const LayoutChoice on_host = choose_layout(p, least_chunked - 1);
    EXPECT_TRUE(on_host.chunking.parents_on_host);
    EXPECT_GT(on_host.chunking.members, 0u);
    const uint64_t least = least_free_for(kParentsOnHostFixed + kLeastCopiedChunk);
    EXPECT_TRUE(choose_layout(p, least).chunking.parents_on_host);
    EXPECT_THROW(choose_layout(p, least - 1), InputError);
}

TEST(PopulationLayout, SchemesAndBackendsLeaveLayoutsOut) {
    LayoutNeeds p = needs();
    const uint64_t below_resident = least_free_for(kResident) - 1;
    p.streams_survivors = false;  // a scheme that breeds from every member: chunked
    const LayoutChoice c = choose_layout(p, below_resident);
    EXPECT_FALSE(c.chunking.survivors_only);
    EXPECT_GT(c.chunking.members, 0u);
    p = needs();
    p.host_apart = false;  // the cpu: no host memory apart from the backend's
    EXPECT_TRUE(choose_layout(p, below_resident).chunking.survivors_only);
    EXPECT_THROW(choose_layout(p, least_free_for(kStreamedFixed + kLeastChunk) - 1), InputError);
    p = needs();
    p.host_free = 2 * 100000 * 40;  // too little host memory for the genomes: streamed or none
    EXPECT_THROW(choose_layout(p, least_free_for(kStreamedFixed + kLeastChunk) - 1), InputError);
    p.survivors = p.members;  // keeping every member is no streaming
    p.host_apart = false;
    EXPECT_THROW(choose_layout(p, below_resident), InputError);
}

TEST(PopulationLayout, TheChunkIsAtMostTwoToTheTwentyTwoAndAtLeastTheSmallPopulation) {
    LayoutNeeds p = needs();
    p.members = 10000000;
    p.genome_bytes = 4;
    p.survivors = 1000;
    p.ranking_bytes = 0;
    const LayoutChoice c = choose_layout(p, least_free_for(resident_bytes(p)) - 1);
    EXPECT_TRUE(c.chunking.survivors_only);
    EXPECT_EQ(c.chunking.members, uint64_t{1} << 22);
    p = needs();
    p.members = 1000;  // smaller than the least chunk: the chunk is the population
    p.survivors = 100;
    p.ranking_bytes = 8000;
    // One chunk of the whole population is one buffer; a chunk less is two.
    EXPECT_EQ(chunked_bytes(p, 1000, false), 1000 * 8 + 8000 + 100 * (40 + 4) + 1000 * 49);
    EXPECT_EQ(chunked_bytes(p, 999, false), 1000 * 8 + 8000 + 100 * (40 + 4) + 999 * 90);
    const uint64_t whole = streamed_bytes(p, 1000);
    EXPECT_EQ(choose_layout(p, least_free_for(whole)).chunking.members, 1000u);
    EXPECT_FALSE(choose_layout(p, least_free_for(whole) - 1).chunking.survivors_only);
}

TEST(PopulationLayout, NoneFitsIsOneLineNamingThePopulationAndTheBytes) {
    try {
        choose_layout(needs(), 1000000);
        FAIL() << "no layout fits 1 MB";
    } catch (const InputError& e) {
        const std::string line = e.what();
        EXPECT_EQ(line.find('\n'), std::string::npos);
        EXPECT_NE(line.find("--population 100000: needs 10.40 MiB on the backend resident"),
                  std::string::npos)
            << line;
        EXPECT_NE(line.find("streamed with its 20000 survivors"), std::string::npos) << line;
        EXPECT_NE(line.find("of genomes in host memory"), std::string::npos) << line;
        EXPECT_NE(line.find("976.56 KiB free on the backend"), std::string::npos) << line;
    }
}

// On the cpu a budget between the streamed and the resident population's bytes makes the
// chooser stream (gapi1 on pile-in streams its survivors), and that layout gives the resident
// one's fitness and genomes generation by generation.
TEST(PopulationLayout, ASmallBudgetOnTheCpuStreamsAndStreamingIsResident) {
    LearnConfig c = problem_config(
        "gapi1",
        find_problem("pile-in").build(std::string(GAEVAL_TEST_DATA_DIR) + "/pile_in/s1.json"));
    c.population = 300;
    c.seed = 8;
    validate(c);
    for (int threads : {1, 2}) {
        const BackendChoice cpu = resolve_backend("cpu", threads);
        c.threads = threads;
        const LayoutNeeds p = layout_needs(c, cpu);
        EXPECT_TRUE(p.streams_survivors);
        EXPECT_EQ(p.survivors, 300u - 240u);  // crossover 0.8
        const LayoutChoice choice = choose_layout(p, least_free_for(resident_bytes(p)) - 1);
        ASSERT_TRUE(choice.chunking.survivors_only);
        WordPopulation resident(cpu, c), streamed(cpu, c, choice.chunking);
        resident.initialize();
        streamed.initialize();
        LearnState a = initial_state(c), b = a;
        std::vector<uint32_t> want, got;
        for (int g = 0; g < 4; ++g) {
            step(c, a, resident);
            step(c, b, streamed);
            ASSERT_EQ(a.value, b.value) << "generation " << g;
            resident.read_words(want);
            streamed.read_words(got);
            ASSERT_EQ(want, got) << "generation " << g;
        }
    }
}

}  // namespace
}  // namespace gaeval::learn
