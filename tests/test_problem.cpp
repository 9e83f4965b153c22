// Problems beside games (problems/, host/learn/learn_problems.hpp): the example problems' fitness
// against hand-derived values and glibc's cos; the registry; the evaluation through the executor
// against the problem's own function called in a loop, at 1 and 2 cpu threads (and on the device
// when there is one); `gaeval learn --problem` reaching the known optimum on several seeds where
// the blind control (fitness that says nothing) does not; 1 and 2 threads, the same bits; a
// resumed run equal to an uninterrupted one; and bad input as one line.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli_util.hpp"
#include "games/core/rng.hpp"
#include "generated/problem_list.hpp"
#include "gpu_test_support.hpp"
#include "host/backend/backend.hpp"
#include "host/core/error.hpp"
#include "host/learn/learn.hpp"
#include "host/learn/learn_problems.hpp"
#include "host/learn/scheme.hpp"
#include "problems/rastrigin.hpp"
#include "problems/sphere.hpp"

namespace gaeval::learn {
namespace {

// ---- the example problems ------------------------------------------------------------------

TEST(Problem, FitnessMatchesHandDerivedValues) {
    const float zero[4] = {0, 0, 0, 0}, ints[2] = {1, 2}, halves[2] = {0.5f, -1.5f};
    EXPECT_EQ(problems::Sphere{}.fitness(zero, 4), 0.0);
    const float v[3] = {1, 2, 3};
    EXPECT_EQ(problems::Sphere{}.fitness(v, 3), 14.0);
    // Rastrigin: 0 at the origin exactly; at integer points cos(2 pi x) = 1, so f = sum x^2;
    // at half-integers cos = -1, so f = 10 D + sum (x^2 + 10).
    EXPECT_EQ(problems::Rastrigin{}.fitness(zero, 4), 0.0);
    EXPECT_EQ(problems::Rastrigin{}.fitness(ints, 2), 5.0);
    EXPECT_EQ(problems::Rastrigin{}.fitness(halves, 2), 20.0 + 0.25 + 10 + 2.25 + 10);
}

// The + - * / cosine against glibc's over the genes' range: within 1e-14 everywhere.
TEST(Problem, CosTwoPiAgreesWithTheLibrary) {
    double worst = 0;
    for (int i = -60000; i <= 60000; ++i) {
        const double x = i * (5.12 / 60000) + 1e-7 * (i % 7);
        worst =
            std::max(worst, std::fabs(problems::cos_two_pi(x) - std::cos(6.283185307179586 * x)));
    }
    EXPECT_LT(worst, 1e-14);
    EXPECT_EQ(problems::cos_two_pi(0.0), 1.0);
    EXPECT_EQ(problems::cos_two_pi(0.5), -1.0);
}

TEST(Problem, RegistryListsEachProblemOnce) {
    std::set<std::string> names;
    for (const ProblemEntry& p : registered_problems()) {
        SCOPED_TRACE(p.info.name);
        EXPECT_TRUE(names.insert(p.info.name).second) << "registered twice";
        EXPECT_EQ(&find_problem(p.info.name), &p);
        EXPECT_EQ(p.info.description.find('\n'), std::string::npos);
        EXPECT_LT(p.info.low, p.info.high);
        // The default configuration of every scheme that runs on problems validates.
        for (const Scheme* s : registered_schemes()) {
            if (!s->runs_on_problems()) continue;
            EXPECT_NO_THROW(
                validate(problem_config(s->name(), p.info.name, p.info.default_dimension)))
                << s->name();
        }
    }
    EXPECT_EQ(names.count("rastrigin"), 1u);
    EXPECT_EQ(names.count("sphere"), 1u);
    try {
        find_problem("no-such-problem");
        ADD_FAILURE() << "an unknown problem was accepted";
    } catch (const InputError& e) {
        const std::string message = e.what();
        EXPECT_EQ(message.find('\n'), std::string::npos);
        EXPECT_NE(message.find("rastrigin"), std::string::npos) << message;
    }
}

// Genomes in the problem's bounds from fixed draws.
std::vector<float> random_genomes(const ProblemInfo& info, uint32_t n, uint32_t d) {
    std::vector<float> g(size_t(n) * d);
    for (size_t i = 0; i < g.size(); ++i) {
        const uint32_t r = philox(7, Purpose::SchemeInit, uint32_t(i), 0, 0, 0).v[0];
        g[i] = info.low + (info.high - info.low) * float(r >> 8) * 0x1p-24f;
    }
    return g;
}

// The executor's evaluation of problem P over real genes equals P's function called in a loop,
// bit for bit, at 1 and 2 threads (a problem over words: nothing to do here).
template <class P>
void expect_executor_is_the_function() {
    if constexpr (!problems::is_word_problem_v<P>) {
        const ProblemEntry& p = find_problem(P::kName);
        SCOPED_TRACE(p.info.name);
        const uint32_t n = 1000, d = std::min<uint32_t>(7, P::kMaxDimension);
        const auto genomes = random_genomes(p.info, n, d);
        std::vector<double> truth(n);
        for (uint32_t i = 0; i < n; ++i) truth[i] = P{}.fitness(&genomes[size_t(i) * d], d);
        for (int threads : {1, 2}) {
            const auto got = p.evaluate(resolve_backend("cpu", threads), genomes, n, d);
            ASSERT_EQ(got.size(), n);
            EXPECT_EQ(std::memcmp(got.data(), truth.data(), n * sizeof(double)), 0)
                << threads << " threads";
        }
    }
}

// Every listed problem (problems/problems.cmake), whatever it is: a problem added by its header
// and its line is checked too.
TEST(Problem, EvaluationThroughTheExecutorMatchesTheFunction) {
#define GAEVAL_CHECK_PROBLEM(P) expect_executor_is_the_function<P>();
    GAEVAL_FOR_EACH_PROBLEM(GAEVAL_CHECK_PROBLEM)
#undef GAEVAL_CHECK_PROBLEM
    EXPECT_GE(registered_problems().size(), 2u);
}

// On the device: the same bits as the cpu (skipped without a GPU).
TEST(Problem, DeviceEvaluationMatchesTheCpu) {
    GAEVAL_REQUIRE_DEVICE_OR_SKIP();
    const uint32_t n = 100000, d = 10;
    for (const ProblemEntry& p : registered_problems()) {
        SCOPED_TRACE(p.info.name);
        const auto genomes = random_genomes(p.info, n, d);
        const auto cpu = p.evaluate(resolve_backend("cpu", 0), genomes, n, d);
        const auto gpu = p.evaluate(resolve_backend("cuda", 0), genomes, n, d);
        for (uint32_t i = 0; i < n; ++i)
            ASSERT_EQ(std::memcmp(&cpu[i], &gpu[i], sizeof(double)), 0)
                << "first difference at genome " << i << ": " << cpu[i] << " vs " << gpu[i];
    }
}

// ---- learning on a problem -----------------------------------------------------------------

struct Optimised {
    LearnState state;
    double fitness = 0;  // the last generation's best member's
};

// Steps c for c.generations on the cpu at `threads` threads.
Optimised optimise(const LearnConfig& c, int threads = 0) {
    validate(c);
    const BackendChoice backend = resolve_backend("cpu", threads);
    const ProblemEntry& problem = find_problem(c.problem);
    const PlayFn no_games;
    const EvaluateFn evaluate = [&](const std::vector<float>& genomes, uint32_t count) {
        return problem.evaluate(backend, genomes, count, c.dims());
    };
    Optimised out{initial_state(c), 0};
    for (uint32_t g = 0; g < c.generations; ++g) step(c, out.state, no_games, evaluate);
    out.fitness = problem.info.maximise ? out.state.best_value : -out.state.best_value;
    return out;
}

// The example of docs/adding-a-problem.md: modern on Rastrigin in 5 dimensions, 64 members,
// 200 generations, a gaussian step of 1 on a tenth of the genes (steps large enough to leave a
// local minimum; crossover refines).
LearnConfig rastrigin_run(uint64_t seed, bool blind) {
    LearnConfig c = problem_config("modern", "rastrigin", 5);
    c.population = 64;
    c.generations = 200;
    c.sigma = 1;
    c.gene_mutation = 0.1;
    c.seed = seed;
    c.blind_selection = blind;
    return c;
}

constexpr double kTolerance = 1e-3;  // of the optimum 0

// Reaches the global optimum within kTolerance on each of five seeds; the same runs with blind
// selection (fitness a uniform number that says nothing about the genome) end far from it.
TEST(Problem, ModernReachesRastriginsOptimumAndBlindSelectionDoesNot) {
    for (uint64_t seed = 1; seed <= 5; ++seed) {
        SCOPED_TRACE(seed);
        const Optimised learned = optimise(rastrigin_run(seed, false));
        EXPECT_LT(learned.fitness, kTolerance);
        EXPECT_GE(learned.fitness, 0.0);
        // The blind run's last best member, scored by the real fitness.
        const Optimised blind = optimise(rastrigin_run(seed, true));
        const float* best = blind.state.best_weights.data();
        EXPECT_GT(problems::Rastrigin{}.fitness(best, 5), 1.0);
    }
}

TEST(Problem, OneAndTwoThreadsGiveTheSameBits) {
    LearnConfig c = rastrigin_run(3, false);
    c.generations = 30;
    const Optimised one = optimise(c, 1), two = optimise(c, 2);
    EXPECT_EQ(one.state.weights, two.state.weights);
    EXPECT_EQ(one.state.value, two.state.value);
    EXPECT_EQ(one.state.games, uint64_t{30} * 64);
    EXPECT_EQ(two.state.games, uint64_t{30} * 64);
}

TEST(Problem, SchemesThatPlayGamesAreRefused) {
    for (const Scheme* s : registered_schemes()) {
        SCOPED_TRACE(s->name());
        const LearnConfig c = problem_config(s->name(), "sphere", 4);
        if (s->runs_on_problems()) {
            EXPECT_NO_THROW(validate(c));
            continue;
        }
        try {
            validate(c);
            ADD_FAILURE() << "accepted on a problem";
        } catch (const InputError& e) {
            EXPECT_NE(std::string(e.what()).find("cannot run on a problem"), std::string::npos)
                << e.what();
        }
    }
}

// ---- the CLI ---------------------------------------------------------------------------------

using gaeval::testing::read_text;
using gaeval::testing::run_cli;

TEST(Problem, CliRunFolderAndResumeEqualTheUninterruptedRun) {
    const std::string base = ::testing::TempDir() + "/problem_resume_";
    for (const char* s : {"a", "b"}) std::filesystem::remove_all(base + s);
    const std::string flags =
        "learn --problem rastrigin --dimension 4 --population 16 --backend cpu --quiet";
    const auto part = run_cli(flags + " --generations 3 --threads 1 --out " + base + "a");
    ASSERT_EQ(part.exit_code, 0) << part.err;
    const auto resumed =
        run_cli("learn --resume " + base + "a --generations 8 --threads 2 --quiet");
    ASSERT_EQ(resumed.exit_code, 0) << resumed.err;
    const auto whole = run_cli(flags + " --generations 8 --json --out " + base + "b");
    ASSERT_EQ(whole.exit_code, 0) << whole.err;
    for (const char* file :
         {"run.json", "generations.csv", "learning.svg", "best.json", "checkpoint.bin"})
        EXPECT_TRUE(std::filesystem::exists(base + "b/" + file)) << file;
    EXPECT_FALSE(std::filesystem::exists(base + "b/weights.json"));
    EXPECT_EQ(read_text(base + "a/best.json"), read_text(base + "b/best.json"));
    const auto best = nlohmann::json::parse(read_text(base + "b/best.json"));
    EXPECT_EQ(best["problem"], "rastrigin");
    EXPECT_EQ(best["genome"].size(), 4u);
    EXPECT_EQ(best["generation"], 8);
    const auto run = nlohmann::json::parse(read_text(base + "b/run.json"));
    EXPECT_EQ(run["problem"], "rastrigin");
    EXPECT_EQ(run["config"]["dimension"], 4);
    EXPECT_EQ(run["status"], "complete");
    // generations.csv: a header and 8 rows, the columns a problem has.
    const std::string csv = read_text(base + "b/generations.csv");
    EXPECT_EQ(csv.rfind("generation,evaluations,children,mutants,best_fitness,", 0), 0u) << csv;
    EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 9);
    // --json: the last stdout line is one JSON object.
    const std::string text = whole.out.substr(0, whole.out.find_last_not_of('\n') + 1);
    const auto out = nlohmann::json::parse(text.substr(text.rfind('\n') + 1));
    EXPECT_EQ(out["evaluations"], 8 * 16);
    EXPECT_EQ(out["fitness"], best["fitness"]);
}

TEST(Problem, CliBadInputIsOneLine) {
    const std::string base = ::testing::TempDir() + "/problem_bad_";
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"--problem no-such-problem", "rastrigin"},
        {"--problem sphere --scheme genetic-game", "cannot run on a problem"},
        {"--problem sphere --scheme paired-blend", "modern, truncation-es"},
        {"--problem sphere --dimension 0", "--dimension"},
        {"--problem sphere --dimension 5000", "--dimension"},
        {"--problem sphere --game ataxx", "--game"},
        {"--problem sphere --islands 0", "--islands"},  // islands run (tests/test_islands.cpp)
        {"--problem sphere --init-range -9:1", "bounds"},
        {"--problem sphere --scheme truncation-es --elites 2", "--elites"},
    };
    int k = 0;
    for (const auto& [flags, says] : cases) {
        SCOPED_TRACE(flags);
        const std::string out = base + std::to_string(k++);
        const auto r = run_cli("learn " + flags + " --generations 2 --quiet --out " + out);
        EXPECT_EQ(r.exit_code, 2) << r.err;
        EXPECT_EQ(r.err_lines(), 1) << r.err;
        EXPECT_NE(r.err.find(says), std::string::npos) << r.err;
        EXPECT_FALSE(std::filesystem::exists(out));
    }
    const auto help = run_cli("learn --problem sphere --help");
    EXPECT_EQ(help.exit_code, 0);
    EXPECT_NE(help.out.find("rastrigin"), std::string::npos);
    EXPECT_NE(help.out.find("--dimension"), std::string::npos);
    const auto game_help = run_cli("learn --help");
    EXPECT_NE(game_help.out.find("--problem"), std::string::npos);
}

}  // namespace
}  // namespace gaeval::learn
