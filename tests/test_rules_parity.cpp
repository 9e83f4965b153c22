// Rules populations agree bit for bit: CPU at 1, 2 and N threads, and CUDA (when a GPU is
// present), through initialisation (built plans included), the rules fitness (exact ovals,
// path checking, slides, repair rewriting plans), ranking and the rules step (order
// crossover, swap mutation, niche moves, immigrants), on random scenarios with ovals.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "games/core/rng.hpp"
#include "gpu_test_support.hpp"
#include "host/learn/word_population.hpp"
#include "host/pile_in/compare.hpp"
#include "host/pile_in/population.hpp"
#include "host/pile_in/rules.hpp"
#include "host/pile_in/scenario_io.hpp"
#include "parity_util.hpp"
#include "problems/pile_in/rules_fitness.hpp"

namespace gaeval::pile_in {
namespace {

// A unit in ranks facing an enemy line 1-3" away; one base in three an oval at a random angle
// (cos/sin computed here, on the host, as the scenario loader does).
RulesProblem random_problem(uint32_t seed, int friendly, int enemy, Direction direction, bool paths,
                            bool turn, bool repair) {
    RulesProblem p{};
    Scenario& s = p.scenario;
    s.friendly_count = friendly;
    s.enemy_count = enemy;
    s.reach_mm = 12.7f;
    s.coherency_mm = 40.0f;
    s.move_mm = 76.2f;
    s.move_unit_mm = s.move_mm / MoveScale;
    // Friendly ranks go back (-y) from y0, enemy ranks away (+y).
    auto place = [&](Model& m, int index, float y0, uint32_t salt, float spacing) {
        Random4 r = philox(seed, Purpose::Test, salt, static_cast<uint32_t>(index), 0, 0);
        const bool oval = index % 3 == 1;
        m.base.length = 32.0f + (oval ? 28.0f : 8.0f * unit_float(r.v[0]));
        m.base.width = oval ? 35.0f : m.base.length;
        if (oval) {
            const double a = 6.283185307179586 * unit_float(r.v[3]);
            m.base.cos_angle = static_cast<float>(std::cos(a));
            m.base.sin_angle = static_cast<float>(std::sin(a));
            m.base.shape = BaseShape::Oval;
        }
        m.x = spacing * (index % 10) + 3.0f * unit_float(r.v[1]);
        const float rank = static_cast<float>(index / 10) * (salt == 1 ? -1.0f : 1.0f);
        m.y = y0 + spacing * rank + 3.0f * unit_float(r.v[2]);
    };
    for (int i = 0; i < friendly; ++i) place(s.friendly[i], i, 0.0f, 1, 62.0f);
    for (int i = 0; i < enemy; ++i) place(s.enemy[i], i, 100.0f, 2, 62.0f);
    p.rules.direction = direction;
    p.rules.path_check = paths;
    p.rules.turn_ovals = turn;
    p.rules.repair = repair;
    p.rules.two_neighbours_from = 7;
    p.layout = make_layout(friendly, paths, turn);
    for (int e = 0; e < enemy; ++e) p.target[e] = e % 2 == 0 ? 1 : 0;
    compute_start_info(p);
    p.in_range_weight = 65536.0f;
    return p;
}

struct Case {
    int friendly, enemy;
    uint64_t population;
    Direction direction;
    bool paths, turn, repair;
};
const Case kCases[] = {
    {2, 1, 40, Direction::StrictlyCloser, false, false, false},
    {10, 10, 300, Direction::NoFurther, true, true, false},
    {20, 20, 200, Direction::NoFurtherFromTarget, true, false, true},
    {40, 40, 64, Direction::NoFurther, true, true, true},
};

std::string name(const Case& c) {
    return std::to_string(c.friendly) + " models, population " + std::to_string(c.population) +
           (c.paths ? ", paths" : "") + (c.turn ? ", turning ovals" : "") +
           (c.repair ? ", repair" : "");
}

TEST(RulesParity, CpuThreadCountsGiveIdenticalBits) {
    uint32_t seed = 1;
    for (const Case& c : kCases) {
        const RulesProblem p =
            random_problem(seed++, c.friendly, c.enemy, c.direction, c.paths, c.turn, c.repair);
        auto one = make_cpu_population(p.scenario, c.population, 1, &p);
        auto two = make_cpu_population(p.scenario, c.population, 2, &p);
        auto many = make_cpu_population(p.scenario, c.population, 7, &p);
        EXPECT_EQ(one->gene_count(), p.layout.words);
        Snapshot a = run_generations(*one, 42, 3, 0.3);
        expect_identical(a, run_generations(*two, 42, 3, 0.3), "cpu 1 vs 2 threads, " + name(c));
        expect_identical(a, run_generations(*many, 42, 3, 0.3), "cpu 1 vs 7 threads, " + name(c));
        // Every plan stays a plan: moves within the limit, orders permutations.
        for (uint64_t i = 0; i < c.population; ++i) {
            uint64_t seen = 0;
            for (int m = 0; m < c.friendly; ++m) {
                EXPECT_TRUE(move_within_limit(unpack_move(a.genes[m * c.population + i])));
                if (p.layout.order >= 0)
                    seen |= uint64_t{1} << a.genes[(p.layout.order + m) * c.population + i];
            }
            if (p.layout.order >= 0) {
                EXPECT_EQ(seen, (uint64_t{1} << c.friendly) - 1);
            }
        }
        // Repair mode stores repaired plans only: every one legal (the start is).
        if (c.repair) {
            std::vector<uint32_t> still(p.layout.words, 0u);
            for (int k = 0; p.layout.order >= 0 && k < c.friendly; ++k)
                still[p.layout.order + k] = static_cast<uint32_t>(k);
            ASSERT_TRUE(rules_evaluate(p, GenomeGenes{still.data()}).legal) << name(c);
            for (float f : a.fitness) EXPECT_GT(f, -p.in_range_weight) << name(c);
        }
    }
}

// Every preset on a shipped scenario, penalty and repair constraints: the CPU population (the
// one GA engine's problem pile-in-rules and scheme rules) resident at 1 and 2 threads gives the
// bits of its streamed layout (only the survivors kept, every plan made again a chunk at a
// time; repaired plans repaired again), and genes handed over either way. The presets' bits
// themselves are the golden files' (tests/test_pile_in_golden.cpp).
TEST(RulesParity, EveryPresetOnTheEngineMatchesItsStreamedLayout) {
    const ScenarioFile s8 = load_scenario(std::string(GAEVAL_TEST_DATA_DIR) + "/pile_in/s8.json");
    for (const char* preset : {"aos1", "aos2", "aos3", "aos4"})
        for (bool repair : {false, true}) {
            RuleOverrides flags;
            if (repair) flags.repair = true;
            const RulesProblem p = build_rules_problem(preset, s8, flags);
            const std::string what = std::string(preset) + (repair ? " repair" : " penalty");
            const uint64_t population = 150;
            auto streamed =
                make_cpu_chunked_population(p.scenario, population, 2, &p, 64, false, true);
            const Snapshot want = run_generations(*streamed, 9, 3, 0.3);
            for (int threads : {1, 2}) {
                auto engine = make_cpu_population(p.scenario, population, threads, &p);
                expect_identical(
                    want, run_generations(*engine, 9, 3, 0.3),
                    "engine (" + std::to_string(threads) + " threads) vs streamed, " + what);
            }
            auto a = make_cpu_chunked_population(p.scenario, population, 1, &p, 50, false, true);
            auto b = make_cpu_population(p.scenario, population, 2, &p);
            expect_identical(want, run_generations_resumed(*a, *b, 9, 3, 1, 0.3),
                             "streamed -> engine, " + what);
            auto d = make_cpu_population(p.scenario, population, 2, &p);
            auto e = make_cpu_chunked_population(p.scenario, population, 2, &p, 40, false, true);
            expect_identical(want, run_generations_resumed(*d, *e, 9, 3, 2, 0.3),
                             "engine -> streamed, " + what);
        }
}

// gaeval compare runs rules jobs with their preset (not GAPI1).
TEST(RulesParity, CompareRunsTheRulesFitness) {
    auto job = [](const char* preset, bool paths) {
        PileInJob j;
        j.scenario = load_scenario(std::string(GAEVAL_TEST_DATA_DIR) + "/pile_in/s8.json");
        j.rules = preset;
        j.overrides.path_check = paths;
        j.ga.population = 300;
        j.ga.generations = 5;
        j.ga.seed = 3;
        return j;
    };
    Difference d = compare_pile_in(job("aos4", true), job("aos4", true), resolve_backend("cpu", 1),
                                   resolve_backend("cpu", 2));
    EXPECT_TRUE(d.identical) << d.field << " " << d.a_value << " vs " << d.b_value;
    EXPECT_EQ(d.generations_compared, 5u);
    // Without the direction rule generation 0 differs already: its greedy and built plans
    // (individuals 1, 3, ...) follow the rules, and the same plans score differently.
    PileInJob free = job("aos3", false);
    free.overrides.direction = Direction::Free;
    d = compare_pile_in(job("aos3", false), free, resolve_backend("cpu", 1),
                        resolve_backend("cpu", 1));
    EXPECT_FALSE(d.identical);
    EXPECT_EQ(d.generation, 0u);
    EXPECT_TRUE(d.field == "fitness" || d.field.rfind("gene", 0) == 0) << d.field;
}

// The engine's streamed layout (only the survivors kept, every plan made again from the seed or
// them; repaired plans repaired again as scored) on every rules case, at 1 and 2 threads, and
// resumed from genes.
TEST(RulesParity, CpuStreamedEngineMatchesResidentBitForBit) {
    uint32_t seed = 650;
    for (const Case& c : kCases) {
        const RulesProblem p =
            random_problem(seed++, c.friendly, c.enemy, c.direction, c.paths, c.turn, c.repair);
        auto resident = make_cpu_population(p.scenario, c.population, 2, &p);
        const Snapshot want = run_generations(*resident, 5, 3, 0.3);
        // One thread and 7 plans a chunk, or two threads and a third of the population, case
        // by case (each repair case gets one of them).
        const bool odd = (seed & 1u) != 0;
        const int threads = odd ? 1 : 2;
        const uint64_t chunk = odd ? 7 : c.population / 3 + 1;
        auto streamed =
            make_cpu_chunked_population(p.scenario, c.population, threads, &p, chunk, false, true);
        expect_identical(want, run_generations(*streamed, 5, 3, 0.3),
                         "cpu engine streamed (" + std::to_string(chunk) + ", " +
                             std::to_string(threads) + " threads) vs resident, " + name(c));
        auto a = make_cpu_population(p.scenario, c.population, 2, &p);
        auto b = make_cpu_chunked_population(p.scenario, c.population, 2, &p, 13, false, true);
        expect_identical(want, run_generations_resumed(*a, *b, 5, 3, 1, 0.3),
                         "resident -> engine streamed, " + name(c));
    }
}

// The engine population on the device in each layout against the cpu's (where there is a GPU),
// repair cases included.
TEST(RulesParity, CudaEngineMatchesCpuBitForBit) {
    GAEVAL_REQUIRE_DEVICE_OR_SKIP();
    const BackendChoice cuda = resolve_backend("cuda", 2);
    uint32_t seed = 150;
    for (const Case& c : kCases) {
        const RulesProblem p =
            random_problem(seed++, c.friendly, c.enemy, c.direction, c.paths, c.turn, c.repair);
        auto cpu = make_cpu_population(p.scenario, c.population, 0, &p);
        const Snapshot want = run_generations(*cpu, 7, 3, 0.3);
        for (const learn::Chunking chunking :
             {learn::Chunking{}, learn::Chunking{7, false}, learn::Chunking{7, true},
              learn::Chunking{c.population / 3 + 1, false, true}}) {
            auto gpu = make_engine_population(cuda, p.scenario, c.population, &p, chunking);
            expect_identical(want, run_generations(*gpu, 7, 3, 0.3),
                             "cuda engine (chunk " + std::to_string(chunking.members) +
                                 (chunking.survivors_only ? ", streamed" : "") + ") vs cpu, " +
                                 name(c));
        }
    }
}

TEST(RulesParity, CudaMatchesCpuBitForBit) {
    GAEVAL_REQUIRE_DEVICE_OR_SKIP();
#if GAEVAL_HAVE_CUDA
    uint32_t seed = 100;
    for (const Case& c : kCases) {
        const RulesProblem p =
            random_problem(seed++, c.friendly, c.enemy, c.direction, c.paths, c.turn, c.repair);
        auto cpu = make_cpu_population(p.scenario, c.population, 0, &p);
        auto gpu = make_cuda_population(p.scenario, c.population, &p);
        const int generations = gaeval::testing::gpu_test_size(4, 2);
        expect_identical(run_generations(*cpu, 7, generations, 0.3),
                         run_generations(*gpu, 7, generations, 0.3), "cuda vs cpu, " + name(c));
    }
    // Many blocks and a grid-stride loop.
    const RulesProblem p = random_problem(9, 20, 20, Direction::NoFurther, true, true, false);
    const uint32_t large = gaeval::testing::gpu_test_size(100000u, 300u);
    auto cpu = make_cpu_population(p.scenario, large, 0, &p);
    auto gpu = make_cuda_population(p.scenario, large, &p);
    expect_identical(run_generations(*cpu, 3, 2), run_generations(*gpu, 3, 2),
                     "cuda vs cpu, population " + std::to_string(large));
#endif
}

// Streamed on the device (populations larger than the device; survivors kept there): chunk
// sizes that do not divide the population, repair mode included. Then the plans-in-host-memory
// mode: repair writing plans back from the device.
TEST(RulesParity, CudaChunkedMatchesCpuBitForBit) {
    GAEVAL_REQUIRE_DEVICE_OR_SKIP();
#if GAEVAL_HAVE_CUDA
    uint32_t seed = 200;
    for (const Case& c : kCases) {
        const RulesProblem p =
            random_problem(seed++, c.friendly, c.enemy, c.direction, c.paths, c.turn, c.repair);
        // Reduced mode (sanitizers): two generations, chunks of 7 only for the smallest case.
        const bool reduced = gaeval::testing::gpu_tests_reduced();
        const int generations = reduced ? 2 : 3;
        for (uint64_t chunk : {uint64_t{7}, c.population / 3 + 1}) {
            if (reduced && chunk == 7 && c.population > 40) continue;
            auto cpu = make_cpu_population(p.scenario, c.population, 0, &p);
            auto gpu = make_cuda_population(p.scenario, c.population, &p, chunk);
            const Snapshot want = run_generations(*cpu, 5, generations, 0.3);
            expect_identical(want, run_generations(*gpu, 5, generations, 0.3),
                             "cuda streamed (" + std::to_string(chunk) + ") vs cpu, " + name(c));
            auto host = make_cuda_host_chunked_population(p.scenario, c.population, &p, chunk, 0);
            expect_identical(
                want, run_generations(*host, 5, generations, 0.3),
                "cuda host-chunked (" + std::to_string(chunk) + ") vs cpu, " + name(c));
        }
    }
#endif
}

}  // namespace
}  // namespace gaeval::pile_in
