// Backends agree bit for bit: CPU at 1, 2 and N threads, and CUDA (when a GPU is present), on
// random scenarios and population sizes, through initialisation, evaluation, ranking and
// breeding.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "games/core/rng.hpp"
#include "gpu_test_support.hpp"
#include "host/learn/word_population.hpp"
#include "host/pile_in/population.hpp"
#include "parity_util.hpp"
#include "pile_in_util.hpp"

namespace gaeval::pile_in {
namespace {

// Non-overlapping random placements: models on a jittered grid, bases 25-50 mm.
Scenario random_scenario(uint32_t seed, int friendly, int enemy) {
    Scenario s;
    s.friendly_count = friendly;
    s.enemy_count = enemy;
    s.reach_mm = 12.7f;
    s.move_mm = 76.2f;
    s.coherency_mm = 12.7f;
    s.move_unit_mm = s.move_mm / MoveScale;
    auto place = [&](Model& m, int index, float y0, uint32_t salt) {
        Random4 r = philox(seed, Purpose::Test, salt, static_cast<uint32_t>(index), 0, 0);
        float d = 25.0f + 25.0f * unit_float(r.v[0]);
        m.base.length = m.base.width = d;
        m.x = 55.0f * (index % 8) + 4.0f * unit_float(r.v[1]);
        m.y = y0 + 55.0f * (index / 8) + 4.0f * unit_float(r.v[2]);
    };
    for (int i = 0; i < friendly; ++i) place(s.friendly[i], i, -500.0f, 1);
    for (int i = 0; i < enemy; ++i) place(s.enemy[i], i, 40.0f, 2);
    // Shift the friendly block so that its front rank stands 1-4" from the enemy.
    const float rows = static_cast<float>((friendly + 7) / 8);
    for (int i = 0; i < friendly; ++i) s.friendly[i].y += 500.0f - 55.0f * rows - 20.0f;
    return s;
}

struct Case {
    int friendly, enemy;
    uint64_t population;
};
const Case kCases[] = {{1, 1, 2}, {5, 5, 333}, {20, 20, 1000}, {40, 40, 257}, {64, 128, 300}};

TEST(PileInParity, CpuThreadCountsGiveIdenticalBits) {
    uint32_t seed = 1;
    for (const Case& c : kCases) {
        Scenario s = random_scenario(seed++, c.friendly, c.enemy);
        auto one = make_cpu_population(s, c.population, 1);
        auto two = make_cpu_population(s, c.population, 2);
        auto many = make_cpu_population(s, c.population, 7);
        Snapshot a = run_generations(*one, 42, 4);
        expect_identical(a, run_generations(*two, 42, 4), "cpu 1 vs 2 threads");
        expect_identical(a, run_generations(*many, 42, 4), "cpu 1 vs 7 threads");
    }
}

// Populations past the thresholds where ranking packs keys and sorts on several threads
// (cpu_ranking.cpp: 2^15 and 2^16 plans) and breeding deals children in chunks.
TEST(PileInParity, LargePopulationsStayIdenticalOnAnyThreadCount) {
    Scenario s = random_scenario(9, 3, 3);
    auto one = make_cpu_population(s, 70001, 1);
    auto two = make_cpu_population(s, 70001, 2);
    auto many = make_cpu_population(s, 70001, 3);
    Snapshot a = run_generations(*one, 5, 3);
    expect_identical(a, run_generations(*two, 5, 3), "cpu 1 vs 2 threads, 70001 plans");
    expect_identical(a, run_generations(*many, 5, 3), "cpu 1 vs 3 threads, 70001 plans");
}

// The engine's chunked layout (plans in host memory, evaluated and bred a chunk at a time
// through the backend: what a population larger than a device's memory runs) gives the resident
// engine population's bits, generation by generation (statistics, best plans, every fitness,
// the ranking and every gene), at 1 and 2 threads and every chunk size, bred chunk by chunk from
// the survivors or on the host's threads; and resumes from genes either way.
TEST(PileInParity, CpuChunkedEngineMatchesResidentBitForBit) {
    uint32_t seed = 700;
    for (const Case& c : kCases) {
        Scenario s = random_scenario(seed++, c.friendly, c.enemy);
        auto resident = make_cpu_population(s, c.population, 2);
        const Snapshot want = run_generations(*resident, 17, 4);
        for (int threads : {1, 2})
            for (uint64_t chunk : {uint64_t{1}, uint64_t{64}, c.population / 2 + 1, c.population})
                for (bool parents_on_host : {false, true}) {
                    auto chunked = make_cpu_chunked_population(s, c.population, threads, nullptr,
                                                               chunk, parents_on_host);
                    expect_identical(
                        want, run_generations(*chunked, 17, 4),
                        "cpu chunked (" + std::to_string(chunk) + ", " + std::to_string(threads) +
                            " threads" + (parents_on_host ? ", bred on the host" : "") +
                            ") vs resident, population " + std::to_string(c.population));
                }
    }
}

// The engine's streamed layout (only the survivors kept; every plan made again a chunk at a
// time from the seed or the survivors: what a population whose plans fit neither on a device nor
// in host memory runs) gives the resident engine population's bits generation by generation at
// 1 and 2 threads and every chunk size; and resumes from genes either way.
TEST(PileInParity, CpuStreamedEngineMatchesResidentBitForBit) {
    uint32_t seed = 900;
    for (const Case& c : kCases) {
        Scenario s = random_scenario(seed++, c.friendly, c.enemy);
        auto resident = make_cpu_population(s, c.population, 2);
        const Snapshot want = run_generations(*resident, 19, 4);
        for (int threads : {1, 2})
            for (uint64_t chunk : {uint64_t{1}, uint64_t{64}, c.population / 2 + 1, c.population}) {
                auto streamed = make_cpu_chunked_population(s, c.population, threads, nullptr,
                                                            chunk, false, true);
                expect_identical(want, run_generations(*streamed, 19, 4),
                                 "cpu engine streamed (" + std::to_string(chunk) + ", " +
                                     std::to_string(threads) +
                                     " threads) vs resident, population " +
                                     std::to_string(c.population));
            }
    }
    Scenario s = random_scenario(81, 20, 20);
    auto resident = make_cpu_population(s, 1000, 2);
    const Snapshot want = run_generations(*resident, 29, 5);
    auto a = make_cpu_population(s, 1000, 2);
    auto b = make_cpu_chunked_population(s, 1000, 2, nullptr, 300, false, true);
    expect_identical(want, run_generations_resumed(*a, *b, 29, 5, 2), "resident -> streamed");
    auto c = make_cpu_chunked_population(s, 1000, 1, nullptr, 128, false, true);
    auto d = make_cpu_population(s, 1000, 2);
    expect_identical(want, run_generations_resumed(*c, *d, 29, 5, 3), "streamed -> resident");
}

TEST(PileInParity, CpuChunkedEngineResumesFromGenesEitherWay) {
    Scenario s = random_scenario(79, 20, 20);
    auto resident = make_cpu_population(s, 1000, 2);
    const Snapshot want = run_generations(*resident, 23, 5);
    auto a = make_cpu_population(s, 1000, 2);
    auto b = make_cpu_chunked_population(s, 1000, 2, nullptr, 300, false);
    expect_identical(want, run_generations_resumed(*a, *b, 23, 5, 2), "resident -> chunked");
    auto c = make_cpu_chunked_population(s, 1000, 1, nullptr, 128, false);
    auto d = make_cpu_population(s, 1000, 2);
    expect_identical(want, run_generations_resumed(*c, *d, 23, 5, 3), "chunked -> resident");
}

// The streaming must see the survivors: breeding from any other plans changes the bits.
TEST(PileInParity, CpuStreamedDiffersWhenTheSeedDiffers) {
    Scenario s = random_scenario(78, 10, 10);
    auto a = make_cpu_chunked_population(s, 500, 2, nullptr, 64, false, true);
    auto b = make_cpu_chunked_population(s, 500, 2, nullptr, 64, false, true);
    EXPECT_NE(run_generations(*a, 1, 3).genes, run_generations(*b, 2, 3).genes);
}

TEST(PileInParity, DifferentSeedsGiveDifferentPopulations) {
    Scenario s = random_scenario(3, 10, 10);
    auto pop = make_cpu_population(s, 100, 2);
    Snapshot a = run_generations(*pop, 1, 2);
    Snapshot b = run_generations(*pop, 2, 2);
    EXPECT_NE(a.genes, b.genes);
}

TEST(PileInParity, CudaMatchesCpuBitForBit) {
    GAEVAL_REQUIRE_DEVICE_OR_SKIP();
#if GAEVAL_HAVE_CUDA
    uint32_t seed = 100;
    for (const Case& c : kCases) {
        Scenario s = random_scenario(seed++, c.friendly, c.enemy);
        auto cpu = make_cpu_population(s, c.population, 0);
        auto gpu = make_cuda_population(s, c.population);
        expect_identical(run_generations(*cpu, 7, 5), run_generations(*gpu, 7, 5),
                         "cuda vs cpu, " + std::to_string(c.friendly) + " models, population " +
                             std::to_string(c.population));
    }
    // A population large enough for many blocks and a grid-stride loop.
    const uint32_t large = gaeval::testing::gpu_test_size(300000u, 3000u);
    Scenario s = random_scenario(9, 20, 20);
    auto cpu = make_cpu_population(s, large, 0);
    auto gpu = make_cuda_population(s, large);
    expect_identical(run_generations(*cpu, 3, 2), run_generations(*gpu, 3, 2),
                     "cuda vs cpu, population " + std::to_string(large));
#endif
}

// The engine population on the device (make_engine_population: what `--backend cuda` would
// run on the one engine), resident, chunked (parents on the device or bred on the host) and
// streamed, against the cpu's (where there is a GPU).
TEST(PileInParity, CudaEngineMatchesCpuBitForBit) {
    GAEVAL_REQUIRE_DEVICE_OR_SKIP();
    const BackendChoice cuda = resolve_backend("cuda", 2);
    uint32_t seed = 150;
    for (const Case& c : kCases) {
        Scenario s = random_scenario(seed++, c.friendly, c.enemy);
        auto cpu = make_cpu_population(s, c.population, 0);
        const Snapshot want = run_generations(*cpu, 7, 5);
        for (const learn::Chunking chunking :
             {learn::Chunking{}, learn::Chunking{64, false}, learn::Chunking{64, true},
              learn::Chunking{41, false, true}}) {
            auto gpu = make_engine_population(cuda, s, c.population, nullptr, chunking);
            expect_identical(want, run_generations(*gpu, 7, 5),
                             "cuda engine (chunk " + std::to_string(chunking.members) +
                                 (chunking.survivors_only ? ", streamed" : "") + ") vs cpu, " +
                                 std::to_string(c.population) + " plans");
        }
    }
}

// Genes handed over (a checkpoint resumed) between the cpu and the engine population on the
// device, resident, chunked (plans in page-locked host memory, parents on the device or the
// host) and streamed, either way (where there is a GPU).
TEST(PileInParity, CudaEngineResumesFromGenesEitherWay) {
    GAEVAL_REQUIRE_DEVICE_OR_SKIP();
    const BackendChoice cuda = resolve_backend("cuda", 2);
    Scenario s = random_scenario(151, 20, 20);
    auto resident = make_cpu_population(s, 1000, 2);
    const Snapshot want = run_generations(*resident, 21, 5);
    for (const learn::Chunking chunking :
         {learn::Chunking{}, learn::Chunking{300, false}, learn::Chunking{300, true},
          learn::Chunking{128, false, true}}) {
        SCOPED_TRACE("chunk " + std::to_string(chunking.members));
        auto a = make_cpu_population(s, 1000, 2);
        auto b = make_engine_population(cuda, s, 1000, nullptr, chunking);
        expect_identical(want, run_generations_resumed(*a, *b, 21, 5, 2), "cpu -> cuda engine");
        auto c = make_engine_population(cuda, s, 1000, nullptr, chunking);
        auto d = make_cpu_population(s, 1000, 2);
        expect_identical(want, run_generations_resumed(*c, *d, 21, 5, 3), "cuda engine -> cpu");
    }
}

// Streamed on the device (survivors kept there, plans made a chunk at a time; chunk sizes that
// leave a remainder).
// One plan a chunk; in the tests' reduced mode (sanitizers: every launch is instrumented) only
// for populations of at most 64, 41 plans a chunk (dividing no population here) above.
uint64_t smallest_chunk(uint64_t population) {
    return gaeval::testing::gpu_tests_reduced() && population > 64 ? 41 : 1;
}

TEST(PileInParity, CudaStreamedMatchesCpuBitForBit) {
    GAEVAL_REQUIRE_DEVICE_OR_SKIP();
#if GAEVAL_HAVE_CUDA
    uint32_t seed = 300;
    for (const Case& c : kCases) {
        Scenario s = random_scenario(seed++, c.friendly, c.enemy);
        for (uint64_t chunk : {smallest_chunk(c.population), uint64_t{64}, c.population / 2 + 1}) {
            auto cpu = make_cpu_population(s, c.population, 0);
            auto gpu = make_cuda_population(s, c.population, nullptr, chunk);
            expect_identical(run_generations(*cpu, 11, 3), run_generations(*gpu, 11, 3),
                             "cuda streamed (" + std::to_string(chunk) + ") vs cpu, " +
                                 std::to_string(c.friendly) + " models");
        }
    }
#endif
}

// Plans in host memory, evaluated in chunks on two streams, bred on the host (the mode for
// populations whose survivors do not fit on the device either).
TEST(PileInParity, CudaHostChunkedMatchesCpuBitForBit) {
    GAEVAL_REQUIRE_DEVICE_OR_SKIP();
#if GAEVAL_HAVE_CUDA
    uint32_t seed = 400;
    for (const Case& c : kCases) {
        Scenario s = random_scenario(seed++, c.friendly, c.enemy);
        for (uint64_t chunk : {smallest_chunk(c.population), c.population / 2 + 1}) {
            auto cpu = make_cpu_population(s, c.population, 0);
            auto gpu = make_cuda_host_chunked_population(s, c.population, nullptr, chunk, 0);
            expect_identical(run_generations(*cpu, 11, 3), run_generations(*gpu, 11, 3),
                             "cuda host-chunked (" + std::to_string(chunk) + ") vs cpu, " +
                                 std::to_string(c.friendly) + " models");
        }
    }
    // Resumed from genes, streamed on the device.
    Scenario s = random_scenario(401, 20, 20);
    auto cpu = make_cpu_population(s, 1000, 2);
    auto a = make_cpu_population(s, 1000, 2);
    auto b = make_cuda_population(s, 1000, nullptr, 300);
    expect_identical(run_generations(*cpu, 21, 5), run_generations_resumed(*a, *b, 21, 5, 2),
                     "resident cpu -> cuda streamed");
#endif
}

}  // namespace
}  // namespace gaeval::pile_in
