// The word schemes' breeding as an executor op (kernels/breed_ops.hpp, Scheme::breed_words_on)
// and the population that stays on its backend between generations (host/learn/
// word_population.hpp): the op against what GAPI1 says a child is (clones of the survivors,
// genes from two survivors, fresh genes the problem's random_gene); the resident population
// generation by generation against the host path (LearnState::words, which the golden files and
// the lockstep tests pin) at 1 and 2 threads, for gapi1 on pile-in and rules on pile-in-rules;
// the chunked layout (genomes in host memory, a chunk at a time through the backend) against the
// same host path at every chunk size; the same on the cuda backend against the cpu where there
// is a GPU.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "gpu_test_support.hpp"
#include "host/backend/backend_array.hpp"
#include "host/backend/backend_ranking.hpp"
#include "host/backend/copy_queue.hpp"
#include "host/learn/learn_problems.hpp"
#include "host/learn/scheme.hpp"
#include "host/learn/word_population.hpp"
#include "problems/pile_in.hpp"

namespace gaeval::learn {
namespace {

const std::string kData = std::string(GAEVAL_TEST_DATA_DIR) + "/pile_in/";

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

LearnConfig gapi1_on(const std::string& file, uint32_t population, uint64_t seed) {
    LearnConfig c = problem_config("gapi1", find_problem("pile-in").build(kData + file));
    c.population = population;
    c.seed = seed;
    validate(c);
    return c;
}

// A copy of test scenario `file` with move order genes (path_check) and, with `repair`, repair
// constraints (scoring rewrites the plans), in a temporary file.
std::string with_move_order(const std::string& file, bool repair = false) {
    std::ifstream in(kData + file);
    nlohmann::json doc = nlohmann::json::parse(in);
    doc["path_check"] = true;
    if (repair) doc["constraints"] = "repair";
    const std::string path =
        ::testing::TempDir() + "/word_population_" + (repair ? "repair_" : "") + file;
    std::ofstream(path) << doc.dump();
    return path;
}

LearnConfig rules_on(const std::string& setup, uint32_t population, uint64_t seed) {
    LearnConfig c = problem_config("rules", find_problem("pile-in-rules").build(setup));
    c.population = population;
    c.seed = seed;
    c.params["crossover"] = 0.6;
    c.params["mutation"] = 0.3;
    validate(c);
    return c;
}

// Member k of `order` reversed (the worst first), so that ranks and indexes differ.
std::vector<uint32_t> reversed(uint32_t n) {
    std::vector<uint32_t> order(n);
    for (uint32_t r = 0; r < n; ++r) order[r] = n - 1 - r;
    return order;
}

// gapi1's op on the cpu backend: children and hits of generation `made` from `words`.
void breed_on_cpu(const LearnConfig& c, int threads, const std::vector<uint32_t>& order,
                  const std::vector<uint32_t>& words, std::vector<uint32_t>& next,
                  std::vector<uint8_t>& hit) {
    next.assign(words.size(), 0xdeadbeefu);
    hit.assign(c.population, 7);
    scheme_of(c).breed_words_on(resolve_backend("cpu", threads), c, 3, order.data(), words.data(),
                                whole_generation(c), next.data(), hit.data());
}

TEST(BreedWordsOp, Gapi1ChildrenAreClonesAndCrossesOfTheSurvivorsWithoutMutation) {
    LearnConfig c = gapi1_on("s4.json", 97, 11);
    c.params["crossover"] = 0.7;
    c.params["mutation"] = 0.0;
    const uint32_t n = c.population, d = c.dims(), survivors = n - 68;  // round(0.7 x 97)
    const LearnState s = initial_state(c);
    const std::vector<uint32_t> order = reversed(n);
    for (int threads : {1, 2}) {
        std::vector<uint32_t> next;
        std::vector<uint8_t> hit;
        breed_on_cpu(c, threads, order, s.words, next, hit);
        for (uint32_t k = 0; k < n; ++k) {
            EXPECT_EQ(hit[k], 0) << k;
            for (uint32_t m = 0; m < d; ++m) {
                const uint32_t gene = next[size_t(k) * d + m];
                if (k < survivors) {  // a clone of the k-th best
                    ASSERT_EQ(gene, s.words[size_t(order[k]) * d + m]) << k << " " << m;
                    continue;
                }
                bool from_a_survivor = false;  // each gene from one of the S best
                for (uint32_t r = 0; r < survivors; ++r)
                    from_a_survivor |= gene == s.words[size_t(order[r]) * d + m];
                ASSERT_TRUE(from_a_survivor) << k << " " << m;
            }
        }
    }
}

TEST(BreedWordsOp, Gapi1FullMutationGivesTheProblemsFreshGenes) {
    LearnConfig c = gapi1_on("s1.json", 50, 5);
    c.params["mutation"] = 1.0;
    const uint32_t n = c.population, d = c.dims();
    const LearnState s = initial_state(c);
    const problems::PileIn problem =
        problems::PileIn::from_setup(*c.instance->setup_as<pile_in::Scenario>());
    for (int threads : {1, 2}) {
        std::vector<uint32_t> next;
        std::vector<uint8_t> hit;
        breed_on_cpu(c, threads, reversed(n), s.words, next, hit);
        for (uint32_t k = 0; k < n; ++k) {
            EXPECT_EQ(hit[k], 1) << k;
            for (uint32_t m = 0; m < d; ++m)
                ASSERT_EQ(next[size_t(k) * d + m],
                          problem.random_gene(c.seed, Purpose::MutationMove, 3, k, m))
                    << k << " " << m;
        }
    }
}

// A chunk of a generation (children [first, first + count) into slots 0 .. count - 1) is the
// whole generation's children at those places, hits included, for gapi1 and rules, from the
// parents alone (the survivors gathered best first, ranked by their own order) as from the
// whole population.
void expect_chunks_are_the_generation(const LearnConfig& c) {
    SCOPED_TRACE(c.scheme);
    const Scheme& scheme = scheme_of(c);
    const uint32_t n = c.population, d = c.dims(), s = scheme.ranks_bred_from(c);
    ASSERT_LT(s, n);
    const LearnState state = initial_state(c);
    const std::vector<uint32_t> order = reversed(n);
    std::vector<uint32_t> whole;
    std::vector<uint8_t> whole_hit;
    breed_on_cpu(c, 2, order, state.words, whole, whole_hit);
    std::vector<uint32_t> parents(size_t(s) * d), identity(s);
    for (uint32_t r = 0; r < s; ++r) {
        identity[r] = r;
        std::copy_n(state.words.begin() + ptrdiff_t(order[r]) * d, d, parents.begin() + r * d);
    }
    const BackendChoice cpu = resolve_backend("cpu", 2);
    for (const ChildSpan span :
         {ChildSpan{0, 1}, ChildSpan{s - 1, 2}, ChildSpan{17, 40}, ChildSpan{n - 3, 3}}) {
        std::vector<uint32_t> part(size_t(span.count) * d, 0xdeadbeefu);
        std::vector<uint8_t> hit(span.count, 7);
        scheme.breed_words_on(cpu, c, 3, identity.data(), parents.data(), span, part.data(),
                              hit.data());
        for (uint32_t k = 0; k < span.count; ++k) {
            ASSERT_EQ(hit[k], whole_hit[span.first + k]) << "child " << span.first + k;
            for (uint32_t m = 0; m < d; ++m)
                ASSERT_EQ(part[size_t(k) * d + m], whole[size_t(span.first + k) * d + m])
                    << "child " << span.first + k << " gene " << m;
        }
    }
}

TEST(BreedWordsOp, AChunkOfChildrenFromTheParentsAloneIsTheWholeGenerations) {
    expect_chunks_are_the_generation(gapi1_on("s4.json", 97, 11));
    expect_chunks_are_the_generation(rules_on("aos3:" + with_move_order("s8.json"), 101, 5));
}

// Steps `c` for `generations` on the host path (LearnState::words) and with its genomes in a
// WordPopulation on `backend` laid out as `chunking` says, checking the values, best plan,
// statistics, mutants and (read back) every genome after each generation.
void expect_resident_is_host_path(LearnConfig c, const BackendChoice& backend, uint32_t generations,
                                  Chunking chunking = {}) {
    SCOPED_TRACE(c.scheme + " on " + backend.name + " threads " + std::to_string(backend.threads) +
                 " chunk " + std::to_string(chunking.members) +
                 (chunking.parents_on_host ? " parents on the host" : ""));
    c.threads = backend.threads;
    LearnState host = initial_state(c), resident_state = host;
    WordPopulation resident(backend, c, chunking);
    resident.write_words(resident_state.words);
    const BackendChoice cpu = resolve_backend("cpu", backend.threads);
    const EvaluateWordsFn evaluate = [&](std::vector<uint32_t>& g, uint32_t count) {
        return c.instance->evaluate_rewriting(cpu, g, count);
    };
    std::vector<uint32_t> words;
    for (uint32_t g = 0; g < generations; ++g) {
        SCOPED_TRACE("generation " + std::to_string(g));
        const GenerationReport a = step(c, host, evaluate);
        const GenerationReport b = step(c, resident_state, resident);
        EXPECT_EQ(a.games, b.games);
        EXPECT_EQ(a.mutants, b.mutants);
        EXPECT_EQ(a.children, b.children);
        ASSERT_EQ(host.value.size(), resident_state.value.size());
        for (size_t i = 0; i < host.value.size(); ++i)
            ASSERT_TRUE(same_bits(host.value[i], resident_state.value[i])) << "member " << i;
        EXPECT_TRUE(same_bits(host.best_value, resident_state.best_value));
        EXPECT_TRUE(same_bits(host.mean_value, resident_state.mean_value));
        EXPECT_EQ(host.best_words, resident_state.best_words);
        resident.read_words(words);
        ASSERT_EQ(words, host.words);
    }
    EXPECT_GT(host.games, 0u);
}

TEST(WordPopulation, Gapi1ResidentOnTheCpuIsTheHostPath) {
    for (int threads : {1, 2})
        expect_resident_is_host_path(gapi1_on("s1.json", 300, 4), resolve_backend("cpu", threads),
                                     6);
}

TEST(WordPopulation, RulesResidentOnTheCpuIsTheHostPath) {
    const std::string ordered = with_move_order("s8.json");
    for (int threads : {1, 2})
        expect_resident_is_host_path(rules_on("aos3:" + ordered, 101, 5),
                                     resolve_backend("cpu", threads), 5);
}

// The chunked layout (genomes in host memory, evaluated and bred a chunk at a time through the
// backend) is the host path generation by generation at every chunk size: one member, sizes that
// do not divide the population, the whole population; bred chunk by chunk from the parents or
// on the host's threads; with repair constraints the rewritten plans come back from each chunk.
TEST(WordPopulation, ChunkedOnTheCpuIsTheHostPath) {
    const LearnConfig gapi1 = gapi1_on("s1.json", 300, 4);
    const LearnConfig rules = rules_on("aos3:" + with_move_order("s8.json"), 101, 5);
    const LearnConfig repair = rules_on("aos3:" + with_move_order("s8.json", true), 90, 2);
    ASSERT_TRUE(repair.instance->rewrites_genomes());
    for (int threads : {1, 2}) {
        const BackendChoice cpu = resolve_backend("cpu", threads);
        for (uint64_t chunk : {uint64_t{1}, uint64_t{64}, uint64_t{151}, uint64_t{300}})
            expect_resident_is_host_path(gapi1, cpu, 4, Chunking{chunk, false});
        expect_resident_is_host_path(gapi1, cpu, 3, Chunking{77, true});
        for (uint64_t chunk : {uint64_t{7}, uint64_t{51}})
            expect_resident_is_host_path(rules, cpu, 4, Chunking{chunk, false});
        expect_resident_is_host_path(repair, cpu, 4, Chunking{32, false});
        expect_resident_is_host_path(repair, cpu, 3, Chunking{13, true});
    }
}

// The streamed layout (only 2 x the survivors kept, every member made again a chunk at a time)
// is the host path generation by generation, from genomes given (write_words) as at every chunk
// size, with repair constraints the members made again rewritten as scored.
TEST(WordPopulation, StreamedOnTheCpuIsTheHostPath) {
    const LearnConfig gapi1 = gapi1_on("s1.json", 300, 4);
    const LearnConfig rules = rules_on("aos3:" + with_move_order("s8.json"), 101, 5);
    const LearnConfig repair = rules_on("aos3:" + with_move_order("s8.json", true), 90, 2);
    for (int threads : {1, 2}) {
        const BackendChoice cpu = resolve_backend("cpu", threads);
        // Chunk sizes: one member, sizes that do not divide the population, the whole of it.
        for (uint64_t chunk :
             threads == 1 ? std::vector<uint64_t>{1, 151} : std::vector<uint64_t>{64, 300})
            expect_resident_is_host_path(gapi1, cpu, 4, Chunking{chunk, false, true});
        expect_resident_is_host_path(rules, cpu, 4,
                                     Chunking{threads == 1 ? 7u : 101u, false, true});
        expect_resident_is_host_path(repair, cpu, 4, Chunking{13, false, true});
    }
}

// From generation 0 made from the seed (initialize_words_on, never held whole): the streamed
// layout's members are the resident one's after initialize and after each step.
void expect_streamed_is_resident(LearnConfig c, const BackendChoice& backend, uint32_t generations,
                                 uint64_t chunk) {
    SCOPED_TRACE(c.scheme + " threads " + std::to_string(backend.threads) + " chunk " +
                 std::to_string(chunk));
    c.threads = backend.threads;
    WordPopulation resident(backend, c), streamed(backend, c, Chunking{chunk, false, true});
    resident.initialize();
    streamed.initialize();
    LearnState a = initial_state(c), b = a;
    std::vector<uint32_t> want, got;
    for (uint32_t g = 0; g <= generations; ++g) {
        SCOPED_TRACE("generation " + std::to_string(g));
        resident.read_words(want);
        streamed.read_words(got);
        ASSERT_EQ(want, got);
        if (g == generations) break;
        const GenerationReport x = step(c, a, resident), y = step(c, b, streamed);
        EXPECT_EQ(x.mutants, y.mutants);
        ASSERT_EQ(a.value, b.value);
        EXPECT_EQ(a.best_words, b.best_words);
    }
}

TEST(WordPopulation, StreamedFromTheSeedIsTheResidentPopulation) {
    const LearnConfig repair = rules_on("aos3:" + with_move_order("s8.json", true), 90, 2);
    for (int threads : {1, 2}) {
        const BackendChoice cpu = resolve_backend("cpu", threads);
        expect_streamed_is_resident(gapi1_on("s4.json", 200, 6), cpu, 4, 37);
        expect_streamed_is_resident(rules_on("aos3:" + with_move_order("s8.json"), 101, 5), cpu, 4,
                                    20);
        expect_streamed_is_resident(repair, cpu, 4, 64);
    }
}

TEST(WordPopulation, RefusesARunWithoutWordGenomesOrASchemeThatCannotBreedThem) {
    const LearnConfig real = problem_config("gapi1", "sphere", 4);
    EXPECT_THROW(WordPopulation(resolve_backend("cpu", 1), real), std::logic_error);
    LearnConfig words = gapi1_on("s1.json", 10, 1);
    words.scheme = "modern";
    EXPECT_THROW(WordPopulation(resolve_backend("cpu", 1), words), std::logic_error);
}

TEST(BackendArray, CopiesInAndOutAtAnOffsetOnTheCpu) {
    BackendArray<uint32_t> a(resolve_backend("cpu", 1), 6);
    const std::vector<uint32_t> in = {1, 2, 3, 4, 5, 6}, part = {40, 50};
    a.upload(in.data(), 6);
    a.upload(part.data(), 2, 3);
    std::vector<uint32_t> out(6);
    a.download(out.data(), 6);
    EXPECT_EQ(out, (std::vector<uint32_t>{1, 2, 3, 40, 50, 6}));
    a.download(out.data(), 2, 4);
    EXPECT_EQ(out[0], 50u);
    EXPECT_EQ(out[1], 6u);
    EXPECT_THROW(a.upload(in.data(), 2, 5), std::logic_error);
    EXPECT_THROW(a.download(out.data(), 7), std::logic_error);
}

// What `gaeval pile-in`'s engine population runs (host/pile_in/engine_population.cpp): the
// fitness narrowed to float in the backend's memory (evaluate_narrowed), ranked there
// (BackendRanker) and bred from that ranking (breed_from), generation by generation against the
// host path on the cpu at 1 thread (evaluate, the floats of its doubles, rank_desc, breed): the
// same fitness bits, ranking and genomes in every layout. `backend`: where the ranked path runs.
void expect_ranked_there_is_host_path(LearnConfig c, const BackendChoice& backend,
                                      uint32_t generations, Chunking chunking = {}) {
    SCOPED_TRACE(c.scheme + " on " + backend.name + " threads " + std::to_string(backend.threads) +
                 " chunk " + std::to_string(chunking.members) +
                 (chunking.parents_on_host ? " parents on host" : "") +
                 (chunking.survivors_only ? " streamed" : ""));
    const BackendChoice cpu = resolve_backend("cpu", 1);
    const uint32_t n = c.population;
    c.threads = 1;
    WordPopulation host(cpu, c), there(backend, c, chunking);
    host.initialize();
    there.initialize();
    BackendArray<float> fitness(backend, n);
    BackendArray<uint32_t> ranked(backend, n);
    BackendRanker ranker(backend);
    std::vector<float> got_fitness(n);
    std::vector<uint32_t> got_ranked(n), want_words, got_words;
    for (uint32_t g = 0; g < generations; ++g) {
        SCOPED_TRACE("generation " + std::to_string(g));
        const std::vector<double> wide = host.evaluate();
        there.evaluate_narrowed(fitness.data());
        fitness.download(got_fitness.data(), n);
        for (uint32_t i = 0; i < n; ++i) {
            const float want = static_cast<float>(wide[i]);
            ASSERT_EQ(std::memcmp(&want, &got_fitness[i], sizeof want), 0) << "member " << i;
        }
        const std::vector<uint32_t> order = rank_desc(wide);
        ranker.rank(fitness.data(), ranked.data(), n);
        ranked.download(got_ranked.data(), n);
        ASSERT_EQ(order, got_ranked);
        host.breed(g + 1, order, false);
        there.breed_from(g + 1, ranked, false);
        host.read_words(want_words);
        there.read_words(got_words);
        ASSERT_EQ(want_words, got_words);
    }
}

// Every layout on the cpu: resident, chunked (bred from the parents a chunk at a time, or on the
// host's threads), streamed; with repair constraints the rewritten plans as scored.
TEST(WordPopulation, NarrowedAndRankedWhereItLiesIsTheHostPath) {
    const LearnConfig gapi1 = gapi1_on("s4.json", 300, 4);
    const LearnConfig repair = rules_on("aos3:" + with_move_order("s8.json", true), 90, 2);
    for (int threads : {1, 2}) {
        const BackendChoice cpu = resolve_backend("cpu", threads);
        for (const LearnConfig& c : {gapi1, repair}) {
            expect_ranked_there_is_host_path(c, cpu, 4);
            expect_ranked_there_is_host_path(c, cpu, 3, Chunking{41, false});
            expect_ranked_there_is_host_path(c, cpu, 3, Chunking{64, true});
            expect_ranked_there_is_host_path(c, cpu, 3, Chunking{37, false, true});
        }
    }
}

// The same on the device (where there is a GPU): the narrowing op of kernels/problem_ops.cu,
// CUB's ranking read by the breeding ops where it lies, and the chunked layout's copies queued
// on a stream of their own from page-locked host memory while the other chunk is worked on.
TEST(WordPopulation, NarrowedAndRankedOnTheDeviceIsTheCpuHostPath) {
    GAEVAL_REQUIRE_DEVICE_OR_SKIP();
    const BackendChoice cuda = resolve_backend("cuda", 2);
    const LearnConfig gapi1 = gapi1_on("s4.json", 1000, 8);
    const LearnConfig rules = rules_on("aos3:" + with_move_order("s8.json"), 101, 5);
    const LearnConfig repair = rules_on("aos3:" + with_move_order("s8.json", true), 90, 2);
    for (const LearnConfig& c : {gapi1, rules, repair}) {
        expect_ranked_there_is_host_path(c, cuda, 4);
        expect_ranked_there_is_host_path(c, cuda, 3, Chunking{41, false});
        expect_ranked_there_is_host_path(c, cuda, 3, Chunking{64, true});
        expect_ranked_there_is_host_path(c, cuda, 3, Chunking{37, false, true});
    }
}

// A copy queue's copies land in the order queued, at their offsets, once waited for: on the
// cpu at once, on the device (where there is a GPU) on a stream of its own from page-locked
// host memory; one buffer copied in, out and in again before the wait.
void expect_queue_copies_in_order(const BackendChoice& backend) {
    SCOPED_TRACE(backend.name);
    BackendArray<uint32_t> host = BackendArray<uint32_t>::in_host_memory(backend, 8);
    BackendArray<uint32_t> there(backend, 4);
    EXPECT_TRUE(host.in_host_memory());
    for (uint32_t i = 0; i < 8; ++i) host.data()[i] = 10 + i;
    std::vector<uint32_t> first(3, 0), second(2, 0);
    CopyQueue queue(backend);
    queue.upload(there, 1, host.data(), 3);      // there = ? 10 11 12
    queue.download(first.data(), there, 1, 3);   // 10 11 12
    queue.upload(there, 0, host.data() + 5, 2);  // there = 15 16 11 12
    queue.download(second.data(), there, 1, 2);  // 16 11
    queue.download(host.data(), there, 2, 2);    // host = 11 12 12 13 ...
    queue.wait();
    EXPECT_EQ(first, (std::vector<uint32_t>{10, 11, 12}));
    EXPECT_EQ(second, (std::vector<uint32_t>{16, 11}));
    EXPECT_EQ(host.data()[0], 11u);
    EXPECT_EQ(host.data()[1], 12u);
    EXPECT_EQ(host.data()[2], 12u);
    EXPECT_THROW(queue.upload(there, 3, host.data(), 2), std::logic_error);
    EXPECT_THROW(queue.download(first.data(), there, 5, 0), std::logic_error);
}

TEST(CopyQueue, CopiesLandInOrderAtTheirOffsetsOnTheCpu) {
    expect_queue_copies_in_order(resolve_backend("cpu", 1));
}

TEST(CopyQueue, CopiesLandInOrderAtTheirOffsetsOnTheDevice) {
    GAEVAL_REQUIRE_DEVICE_OR_SKIP();
    expect_queue_copies_in_order(resolve_backend("cuda", 1));
}

// The resident population on the device against the host path on the cpu (where there is a
// GPU): the breeding ops of kernels/breed_ops.cu and the problems' evaluation on genomes that
// never leave the device between generations.
TEST(WordPopulation, ResidentOnTheDeviceIsTheCpuHostPath) {
    GAEVAL_REQUIRE_DEVICE_OR_SKIP();
    const BackendChoice cuda = resolve_backend("cuda", 2);
    expect_resident_is_host_path(gapi1_on("s1.json", 300, 4), cuda, 6);
    expect_resident_is_host_path(gapi1_on("s4.json", 1000, 8), cuda, 4);
    expect_resident_is_host_path(rules_on("aos3:" + with_move_order("s8.json"), 101, 5), cuda, 5);
    expect_resident_is_host_path(rules_on("aos4:" + kData + "s4.json", 200, 3), cuda, 4);
}

// The chunked layout on the device (genomes in host memory, a chunk and the parents on the
// device) against the host path on the cpu (where there is a GPU): what `gaeval pile-in
// --backend cuda` would run for a population larger than the device.
TEST(WordPopulation, ChunkedOnTheDeviceIsTheCpuHostPath) {
    GAEVAL_REQUIRE_DEVICE_OR_SKIP();
    const BackendChoice cuda = resolve_backend("cuda", 2);
    expect_resident_is_host_path(gapi1_on("s1.json", 300, 4), cuda, 6, Chunking{64, false});
    expect_resident_is_host_path(gapi1_on("s4.json", 1000, 8), cuda, 4, Chunking{333, false});
    expect_resident_is_host_path(gapi1_on("s4.json", 1000, 8), cuda, 3, Chunking{333, true});
    expect_resident_is_host_path(rules_on("aos3:" + with_move_order("s8.json"), 101, 5), cuda, 5,
                                 Chunking{40, false});
}

// Repair constraints on the device (the rewriting op of kernels/problem_ops.cu): the resident
// and the chunked population against the host path on the cpu (where there is a GPU).
TEST(WordPopulation, RepairOnTheDeviceIsTheCpuHostPath) {
    GAEVAL_REQUIRE_DEVICE_OR_SKIP();
    const BackendChoice cuda = resolve_backend("cuda", 2);
    const LearnConfig repair = rules_on("aos3:" + with_move_order("s8.json", true), 90, 2);
    ASSERT_TRUE(repair.instance->rewrites_genomes());
    expect_resident_is_host_path(repair, cuda, 5);
    expect_resident_is_host_path(repair, cuda, 4, Chunking{32, false});
}

}  // namespace
}  // namespace gaeval::learn
