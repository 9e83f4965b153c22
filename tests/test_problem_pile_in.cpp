// Pile-in as a problem built from a setup (problems/pile_in.hpp, host/learn/problem_setups.*)
// and the gapi1 scheme on the one engine (host/learn/schemes/gapi1.cpp), against `gaeval
// pile-in`'s own population (host/pile_in/: the second implementation, the independent truth):
// the same plans before every generation, the same fitness of every plan, the same ranking
// statistics, the same best plan; through the CLI the same best.json plan and per-generation
// statistics; a resumed run equals an uninterrupted one; bad input is one line. The same for
// the rules presets (problems/pile_in_rules.hpp, host/learn/schemes/rules.cpp) against `gaeval
// pile-in --rules`'s population. Since `gaeval pile-in --backend cpu` runs on this engine too
// (host/pile_in/engine_population.cpp), these lockstep tests keep learn's driver and
// pile_in::Engine in step; the independent truth of pile-in's results is now the golden files
// recorded from its own population before the change (tests/test_pile_in_golden.cpp) and
// pile-in's streamed and CUDA populations (tests/test_*_parity.cpp).
#include <gtest/gtest.h>

#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli_util.hpp"
#include "gpu_test_support.hpp"
#include "host/compare/games.hpp"
#include "host/core/error.hpp"
#include "host/learn/learn_problems.hpp"
#include "host/learn/learn_run.hpp"
#include "host/learn/scheme.hpp"
#include "host/pile_in/engine.hpp"
#include "host/pile_in/population.hpp"
#include "host/pile_in/rules.hpp"
#include "host/pile_in/scenario_io.hpp"
#include "problems/pile_in/rules_scheme.hpp"

namespace gaeval::learn {
namespace {

namespace fs = std::filesystem;
using gaeval::testing::read_text;
using gaeval::testing::run_cli;

const std::string kData = std::string(GAEVAL_TEST_DATA_DIR) + "/pile_in/";

std::shared_ptr<const ProblemInstance> pile_in_problem(const std::string& file) {
    return find_problem("pile-in").build(kData + file);
}

LearnConfig gapi1_config(const std::string& file, uint32_t population, uint32_t generations,
                         uint64_t seed) {
    LearnConfig c = problem_config("gapi1", pile_in_problem(file));
    c.population = population;
    c.generations = generations;
    c.seed = seed;
    validate(c);
    return c;
}

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

// Steps configuration c (its scheme on its problem) and pile-in's CPU population `legacy`
// under `engine` side by side, checking every plan before each generation, every plan's
// fitness, the statistics and the best plan.
void expect_same_generations(const LearnConfig& c, pile_in::Population& legacy,
                             pile_in::Engine& engine, int threads) {
    const BackendChoice backend = resolve_backend("cpu", threads);
    std::vector<double> fitness;
    // Repair constraints rewrite the plans as they are scored, as learn's run does.
    const EvaluateWordsFn evaluate = [&](std::vector<uint32_t>& g, uint32_t n) {
        fitness = c.instance->evaluate_rewriting(backend, g, n);
        return fitness;
    };
    LearnState s = initial_state(c);
    engine.start();
    const uint32_t d = c.dims(), population = c.population, generations = c.generations;
    ASSERT_EQ(d, uint32_t(legacy.gene_count()));
    for (uint32_t g = 0; g < generations; ++g) {
        SCOPED_TRACE("generation " + std::to_string(g));
        std::vector<uint32_t> genes;  // gene-major
        legacy.read_genes(genes);
        for (uint32_t i = 0; i < population; ++i)
            for (uint32_t m = 0; m < d; ++m)
                ASSERT_EQ(s.words[size_t(i) * d + m], genes[size_t(m) * population + i])
                    << "plan " << i << " gene " << m;
        const pile_in::GenerationReport report = engine.evaluate_generation();
        std::vector<float> legacy_fitness;
        legacy.read_fitness(legacy_fitness);
        std::vector<uint32_t> best_plan(d);
        legacy.read_plan(report.stats.best_index, best_plan.data());
        engine.breed_generation();

        step(c, s, evaluate);
        ASSERT_EQ(fitness.size(), population);
        for (uint32_t i = 0; i < population; ++i)
            ASSERT_TRUE(same_bits(fitness[i], double(legacy_fitness[i]))) << "plan " << i;
        EXPECT_TRUE(same_bits(s.best_value, double(report.stats.best)));
        EXPECT_TRUE(same_bits(s.mean_value, report.stats.mean))
            << s.mean_value << " vs " << report.stats.mean;
        EXPECT_EQ(s.best_words, best_plan);
    }
    EXPECT_EQ(s.games, uint64_t{generations} * population);
}

pile_in::GaConfig ga_config(const LearnConfig& c, double crossover, double mutation) {
    pile_in::GaConfig ga;
    ga.population = c.population;
    ga.generations = c.generations;
    ga.crossover = crossover;
    ga.mutation = mutation;
    ga.seed = c.seed;
    return ga;
}

// The gapi1 scheme on problem pile-in against pile-in's GAPI1 population.
void expect_lockstep(const std::string& file, uint32_t population, uint32_t generations,
                     uint64_t seed, double crossover, double mutation, int threads) {
    SCOPED_TRACE(file + " seed " + std::to_string(seed) + " threads " + std::to_string(threads));
    LearnConfig c = gapi1_config(file, population, generations, seed);
    c.params["crossover"] = crossover;
    c.params["mutation"] = mutation;
    validate(c);
    const pile_in::ScenarioFile f = pile_in::load_scenario(kData + file);
    auto legacy = pile_in::make_cpu_population(f.scenario, population, 1);
    pile_in::Engine engine(f.scenario, ga_config(c, crossover, mutation), *legacy);
    expect_same_generations(c, *legacy, engine, threads);
}

TEST(ProblemPileIn, Gapi1SchemeIsPileInsPopulationPlanForPlan) {
    expect_lockstep("s1.json", 300, 12, 1, 0.8, 0.2, 1);
    expect_lockstep("s1.json", 300, 12, 7, 0.8, 0.2, 2);
    expect_lockstep("s4.json", 257, 10, 3, 0.5, 0.05, 2);  // odd population, other rates
    expect_lockstep("s8.json", 64, 8, 9, 0.9, 0.5, 1);
}

TEST(ProblemPileIn, ProblemFactsAndEvaluationOnTheDevice) {
    const ProblemEntry& p = find_problem("pile-in");
    EXPECT_TRUE(p.info.words());
    EXPECT_EQ(p.info.setup_flag, "scenario");
    EXPECT_TRUE(p.info.maximise);
    for (const ProblemEntry& real : registered_problems()) EXPECT_NE(real.info.name, "pile-in");
    const auto instance = pile_in_problem("s1.json");
    EXPECT_EQ(instance->problem(), "pile-in");
    EXPECT_EQ(instance->dimension(), 5u);
    EXPECT_EQ(instance->setup_name(), pile_in::load_scenario(kData + "s1.json").name);
    // Reloaded from what run.json keeps: the same problem, bit for bit.
    const auto again = p.rebuild(instance->setup_json(), "test");
    const LearnConfig c = gapi1_config("s1.json", 100, 1, 5);
    const LearnState s = initial_state(c);
    const auto cpu = instance->evaluate(resolve_backend("cpu", 2), s.words, 100);
    EXPECT_EQ(again->evaluate(resolve_backend("cpu", 1), s.words, 100), cpu);
    GAEVAL_REQUIRE_DEVICE_OR_SKIP();
    const auto gpu = instance->evaluate(resolve_backend("cuda", 0), s.words, 100);
    for (size_t i = 0; i < cpu.size(); ++i) EXPECT_TRUE(same_bits(cpu[i], gpu[i])) << i;
}

// ---- the CLI: `gaeval learn --problem pile-in --scheme gapi1` reproduces `gaeval pile-in` ----

std::string temp_dir(const std::string& name) {
    const fs::path p = fs::path(::testing::TempDir()) /
                       ("problem_pile_in_" + std::to_string(getpid()) + "_" + name);
    fs::remove_all(p);
    return p.string();
}

std::vector<std::vector<std::string>> csv(const std::string& path) {
    std::vector<std::vector<std::string>> rows;
    std::istringstream in(read_text(path));
    std::string line;
    while (std::getline(in, line)) {
        std::vector<std::string> cells;
        std::stringstream cs(line);
        std::string cell;
        while (std::getline(cs, cell, ',')) cells.push_back(cell);
        rows.push_back(cells);
    }
    return rows;
}

std::string g9(double v) {
    char text[64];
    std::snprintf(text, sizeof text, "%.9g", v);
    return text;
}

// `learn RUN --out DIR` stopped after `first` generations, then resumed to `generations` on
// another thread count, gives the best.json of the uninterrupted run in `whole` and its
// generations.csv columns `columns`.
void expect_resume_matches(const std::string& run, const std::string& dir, uint32_t generations,
                           const std::string& whole, const std::vector<size_t>& columns) {
    auto r = run_cli("learn " + run + " --backend cpu --threads 1 --out " + dir);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    r = run_cli("learn --resume " + dir + " --generations " + std::to_string(generations) +
                " --threads 2 --quiet");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(read_text(dir + "/best.json"), read_text(whole + "/best.json"));
    const auto rows = csv(dir + "/generations.csv"), rows_whole = csv(whole + "/generations.csv");
    ASSERT_EQ(rows.size(), rows_whole.size());
    for (size_t k = 0; k < rows.size(); ++k)
        for (size_t col : columns)
            EXPECT_EQ(rows[k].at(col), rows_whole[k].at(col)) << k << " " << col;
}

// Each case (flags, message): `gaeval learn FLAGS` exits 2 with one line naming `message` and
// writes no run folder `dir`.
void expect_one_line_errors(const std::vector<std::pair<std::string, std::string>>& cases,
                            const std::string& dir) {
    for (const auto& [flags, message] : cases) {
        const auto r = run_cli("learn " + flags + " --quiet --out " + dir);
        EXPECT_EQ(r.exit_code, 2) << flags << ": " << r.err;
        EXPECT_EQ(r.err_lines(), 1) << flags << ": " << r.err;
        EXPECT_NE(r.err.find(message), std::string::npos) << flags << ": " << r.err;
        EXPECT_FALSE(fs::exists(dir)) << flags;
    }
}

const std::string kSettings =
    " --population 300 --generations 15 --seed 4 --crossover 0.8 --mutation 0.2 --quiet";

TEST(ProblemPileIn, CliReproducesPileInBitForBit) {
    const std::string a = temp_dir("pile_in"), b = temp_dir("learn");
    auto r = run_cli("pile-in --scenario " + kData + "s1.json" + kSettings +
                     " --backend cpu --threads 1 --out " + a);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    r = run_cli("learn --problem pile-in --scenario " + kData + "s1.json --scheme gapi1" +
                kSettings + " --backend cpu --threads 2 --json --out " + b);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("optimised pile-in (scenario "), std::string::npos) << r.out;

    // The best plan of all generations: the same models, moves, fitness and generation.
    nlohmann::json pile_in_best = nlohmann::json::parse(read_text(a + "/best.json"));
    const nlohmann::json learn_best = nlohmann::json::parse(read_text(b + "/best.json"));
    ASSERT_TRUE(learn_best.contains("best_ever")) << learn_best.dump();
    const nlohmann::json& ever = learn_best["best_ever"];
    EXPECT_EQ(ever["generation_found"], pile_in_best["generation"]);
    for (const char* extra : {"generation", "scenario", "rules"}) pile_in_best.erase(extra);
    EXPECT_EQ(ever["plan"], pile_in_best);
    EXPECT_EQ(ever["fitness"].get<double>(), double(pile_in_best["fitness"].get<float>()));
    EXPECT_EQ(learn_best["scenario"], pile_in::load_scenario(kData + "s1.json").name);

    // Every generation's best and mean fitness (pile-in prints %.9g).
    const auto rows_a = csv(a + "/generations.csv"), rows_b = csv(b + "/generations.csv");
    ASSERT_EQ(rows_a.size(), 16u);
    ASSERT_EQ(rows_b.size(), 16u);
    EXPECT_EQ(rows_a[0][1], "best");
    EXPECT_EQ(rows_a[0][2], "mean");
    EXPECT_EQ(rows_b[0][4], "best_fitness");
    EXPECT_EQ(rows_b[0][5], "mean_fitness");
    EXPECT_EQ(rows_b[0][8], "g0");
    for (size_t k = 1; k < rows_a.size(); ++k) {
        SCOPED_TRACE(k);
        EXPECT_EQ(std::stoul(rows_a[k][0]) + 1, std::stoul(rows_b[k][0]));
        EXPECT_EQ(rows_a[k][1], g9(std::stod(rows_b[k][4])));
        EXPECT_EQ(rows_a[k][2], g9(std::stod(rows_b[k][5])));
        EXPECT_EQ(rows_b[k][1], "300");  // evaluations
    }
    // --json: the last stdout line is one object with the last generation's best genome.
    const std::string text = r.out.substr(0, r.out.find_last_not_of('\n') + 1);
    const auto out = nlohmann::json::parse(text.substr(text.rfind('\n') + 1));
    EXPECT_EQ(out["evaluations"], 15 * 300);
    EXPECT_EQ(out["genome"], learn_best["genome"]);
    EXPECT_EQ(out["genome"].size(), 5u);

    // Resumed after 6 generations (on another thread count): the same files.
    std::string first = kSettings;
    first.replace(first.find("--generations 15"), 16, "--generations 6");
    expect_resume_matches(
        "--problem pile-in --scenario " + kData + "s1.json --scheme gapi1" + first,
        temp_dir("resumed"), 15, b, {0, 1, 2, 3, 4, 5, 8, 9});
}

TEST(ProblemPileIn, CliBadInputIsOneLine) {
    const std::string s1 = kData + "s1.json";
    const std::string dir = temp_dir("bad");
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"--problem pile-in --scheme gapi1", "--scenario NAME|FILE"},
        {"--problem pile-in --scheme modern --scenario " + s1, "cannot run on problem pile-in"},
        {"--problem pile-in --scenario " + s1, "cannot run on problem pile-in"},  // modern
        {"--problem pile-in --scheme gapi1 --scenario no-such-scenario", "no such file"},
        {"--problem pile-in --scheme gapi1 --scenario " + s1 + " --dimension 4", "--dimension"},
        {"--problem pile-in --scheme gapi1 --scenario " + s1 + " --islands 2 --migrants 300",
         "--migrants"},
        {"--problem sphere --scenario " + s1, "--scenario: not a setting of problem sphere"},
        {"--problem pile-in --scheme gapi1 --scenario " + s1 + " --crossover 1", "--crossover"},
    };
    expect_one_line_errors(cases, dir);
}

// The columns of a generations.csv but its timing ones (seconds, evaluations_per_s).
std::string untimed(const std::string& path) {
    std::string out;
    for (const auto& row : csv(path)) {
        for (size_t k = 0; k < row.size(); ++k)
            if (k != 6 && k != 7) out += row[k] + ",";
        out += "\n";
    }
    return out;
}

// Pile-in as islands of the one engine: 1 and 2 threads give the same files; unconnected
// islands are plain runs (island 0 has the run's seed, so its generations are the plain run's).
TEST(ProblemPileIn, IslandsAtOneAndTwoThreadsAndUnconnectedIslandIsThePlainRun) {
    const std::string run = "learn --problem pile-in --scheme gapi1 --scenario " + kData +
                            "s1.json --population 200 --generations 8 --seed 4 --quiet "
                            "--backend cpu";
    const std::string islands = " --islands 3 --migrate-every 2 --migrants 2";
    const std::string a = temp_dir("islands1"), b = temp_dir("islands2");
    auto r = run_cli(run + islands + " --threads 1 --out " + a);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("optimised pile-in (dimension 5) with gapi1 on 3 islands"),
              std::string::npos)
        << r.out;
    r = run_cli(run + islands + " --threads 2 --out " + b);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    for (const char* f : {"islands.csv", "migrations.csv", "best.json"})
        EXPECT_EQ(read_text(a + "/" + f), read_text(b + "/" + f)) << f;
    EXPECT_EQ(untimed(a + "/generations.csv"), untimed(b + "/generations.csv"));
    EXPECT_EQ(csv(a + "/migrations.csv").size(), 1u + 3 * 3 * 2);  // after 1, 3, 5
    const auto best = nlohmann::json::parse(read_text(a + "/best.json"));
    EXPECT_EQ(best["genome"].size(), 5u);
    EXPECT_EQ(best["plan"]["models"].size(), 5u);

    const std::string apart = temp_dir("apart"), plain = temp_dir("plain");
    r = run_cli(run + " --islands 2 --topology unconnected --threads 2 --out " + apart);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    r = run_cli(run + " --threads 1 --out " + plain);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(untimed(apart + "/island-0/generations.csv"), untimed(plain + "/generations.csv"));
}

// `gaeval learn RUN` (an island run) interrupted by SIGINT after its first checkpoint resumes,
// on another thread count, to the files of the uninterrupted run (the islands' words in the
// checkpoint); `tag` names its folders.
void expect_interrupted_islands_resume(const std::string& run, const std::string& tag) {
    const std::string whole = temp_dir(tag + "_whole"), cut = temp_dir(tag + "_cut");
    auto r = run_cli(run + " --threads 2 --out " + whole);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    bool interrupted = false;
    for (int attempt = 0; attempt < 4 && !interrupted; ++attempt) {
        fs::remove_all(cut);
        const std::string pid_file = cut + ".pid";
        ASSERT_EQ(std::system((std::string(GAEVAL_BINARY) + " " + run + " --threads 1 --out " +
                               cut + " >/dev/null 2>&1 & echo $! > " + pid_file)
                                  .c_str()),
                  0);
        const pid_t pid = std::stoi(read_text(pid_file));
        // Once a checkpoint exists: SIGINT, then wait for the run to say how it ended.
        const auto t0 = std::chrono::steady_clock::now();
        while (!fs::exists(cut + "/checkpoint.json") &&
               std::chrono::steady_clock::now() - t0 < std::chrono::seconds(60))
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
        kill(pid, SIGINT);
        std::string status = "running";
        while (status == "running" &&
               std::chrono::steady_clock::now() - t0 < std::chrono::seconds(120)) {
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
            try {
                status = nlohmann::json::parse(read_text(cut + "/run.json")).value("status", "");
            } catch (const std::exception&) {
            }
        }
        interrupted = status == "interrupted";
    }
    if (!interrupted) GTEST_SKIP() << "every run finished before the interrupt reached it";
    r = run_cli("learn --resume " + cut + " --quiet --threads 2");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    for (const char* f : {"islands.csv", "migrations.csv", "best.json"})
        EXPECT_EQ(read_text(whole + "/" + f), read_text(cut + "/" + f)) << f;
    EXPECT_EQ(untimed(whole + "/generations.csv"), untimed(cut + "/generations.csv"));
}

// An island run of word genomes interrupted (SIGINT) after a checkpoint resumes, on another
// thread count, to the files of the uninterrupted run (the islands' words in the checkpoint).
TEST(ProblemPileIn, InterruptedIslandsResumeToTheUninterruptedFiles) {
    expect_interrupted_islands_resume(
        "learn --problem pile-in --scheme gapi1 --scenario " + kData +
            "s4.json --population 20000 --generations 12 --seed 2 --islands 3 "
            "--migrate-every 3 --migrants 4 --quiet --backend cpu",
        "gapi1");
}

// gapi1 is a scheme of the one engine, not of pile-in only: on a real problem it optimises too
// (sphere in 4 dimensions, from [-5.12, 5.12]^4 to near 0), and blind selection does not.
TEST(ProblemPileIn, Gapi1OnARealProblem) {
    const auto run = [](bool blind) {
        LearnConfig c = problem_config("gapi1", "sphere", 4);
        c.population = 64;
        c.generations = 60;
        c.seed = 2;
        c.params["crossover"] = 0.5;
        c.params["mutation"] = 0.05;
        c.blind_selection = blind;
        validate(c);
        const ProblemEntry& p = find_problem("sphere");
        const BackendChoice backend = resolve_backend("cpu", 1);
        const EvaluateFn evaluate = [&](const std::vector<float>& g, uint32_t n) {
            return p.evaluate(backend, g, n, 4);
        };
        LearnState s = initial_state(c);
        for (uint32_t g = 0; g < c.generations; ++g) step(c, s, PlayFn(), evaluate);
        double sum = 0;
        for (float w : s.best_weights) sum += double(w) * w;
        return sum;
    };
    EXPECT_LT(run(false), 0.5);
    EXPECT_GT(run(true), 1.0);
}

// ---- the rules presets: problem pile-in-rules and scheme rules ----------------------------
// The rules presets as a problem built from a setup (problems/pile_in_rules.hpp: the setup is
// the resolved rules problem, host/learn/problem_setups.cpp) and the rules scheme on the one
// engine (host/learn/schemes/rules.cpp), against `gaeval pile-in --rules`'s own population and
// engine: the same plans before every generation, the same fitness of every plan, the same
// statistics and best plan; through the CLI the same per-generation statistics, and a resume
// that gives the same files; bad input is one line.

// A copy of test scenario `file` with rule fields `fields` added (path_check: move order genes),
// written to a temporary file; returns its path.
std::string with_fields(const std::string& file, const nlohmann::json& fields) {
    nlohmann::json doc = nlohmann::json::parse(read_text(kData + file));
    doc.update(fields);
    const std::string path = ::testing::TempDir() + "/problem_pile_in_rules_" +
                             std::to_string(getpid()) + "_" + std::to_string(fields.size()) + file;
    std::ofstream(path) << doc.dump();
    return path;
}

// The rules scheme on problem pile-in-rules (preset over the scenario at `path`) against
// pile-in's rules population.
void expect_rules_lockstep(const std::string& path, const std::string& preset, uint32_t population,
                           uint32_t generations, uint64_t seed, double crossover, double mutation,
                           int threads, const SetupOptions& rule_flags = {}) {
    SCOPED_TRACE(path + " " + preset + " seed " + std::to_string(seed));
    LearnConfig c = problem_config(
        "rules", find_problem("pile-in-rules").build(preset + ":" + path, rule_flags));
    c.population = population;
    c.generations = generations;
    c.seed = seed;
    c.params["crossover"] = crossover;
    c.params["mutation"] = mutation;
    validate(c);
    const pile_in::RulesProblem problem = pile_in::build_rules_problem(
        preset, pile_in::load_scenario(path), pile_in::parse_rule_flags(rule_flags));
    auto legacy = pile_in::make_cpu_population(problem.scenario, population, threads, &problem);
    pile_in::Engine engine(problem, ga_config(c, crossover, mutation), *legacy);
    expect_same_generations(c, *legacy, engine, threads);
}

TEST(ProblemPileInRules, RulesSchemeIsPileInsRulesPopulationPlanForPlan) {
    expect_rules_lockstep(kData + "s1.json", "aos1", 120, 8, 1, 0.8, 0.2, 1);  // moves only
    const std::string ordered = with_fields("s8.json", {{"path_check", true}});
    expect_rules_lockstep(ordered, "aos3", 101, 8, 5, 0.5, 0.3, 2);  // move order genes, odd N
    expect_rules_lockstep(ordered, "aos1", 64, 6, 9, 0.9, 0.5, 1);
    expect_rules_lockstep(kData + "s4.json", "aos4", 80, 6, 3, 0.8, 0.2, 2);
}

TEST(ProblemPileInRules, ProblemFactsAndSetup) {
    const ProblemEntry& p = find_problem("pile-in-rules");
    EXPECT_TRUE(p.info.words());
    EXPECT_EQ(p.info.setup_flag, "rules");
    EXPECT_EQ(p.info.only_scheme, "rules");
    EXPECT_EQ(p.info.default_population, 200u);
    const auto instance = p.build("aos3:" + kData + "s1.json");
    const pile_in::RulesProblem* setup = instance->setup_as<pile_in::RulesProblem>();
    ASSERT_NE(setup, nullptr);
    EXPECT_EQ(instance->setup_as<pile_in::Scenario>(), nullptr);
    const pile_in::RulesProblem truth =
        pile_in::build_rules_problem("aos3", pile_in::load_scenario(kData + "s1.json"), {});
    EXPECT_EQ(std::memcmp(setup, &truth, sizeof truth), 0);
    EXPECT_EQ(instance->dimension(), uint32_t(truth.layout.words));
    // Reloaded from what run.json keeps: the same problem, bit for bit.
    const auto again = p.rebuild(instance->setup_json(), "test");
    EXPECT_EQ(std::memcmp(again->setup_as<pile_in::RulesProblem>(), &truth, sizeof truth), 0);
    // The population's default is the problem's (gaeval pile-in's 200), not the scheme's.
    EXPECT_EQ(problem_config("rules", instance).population, 200u);
    EXPECT_EQ(problem_config("gapi1", find_problem("pile-in").build(kData + "s1.json")).population,
              200u);
    EXPECT_EQ(default_config("gapi1", 3).population, 24u);
}

// Without the rules' structure (pile-in's moves) the rules scheme is GAPI1, gene for gene.
TEST(ProblemPileInRules, RulesSchemeOnPlainMovesIsGapi1) {
    const auto instance = find_problem("pile-in").build(kData + "s4.json");
    LearnConfig a = problem_config("gapi1", instance), b = problem_config("rules", instance);
    for (LearnConfig* c : {&a, &b}) {
        c->population = 90;
        c->seed = 12;
        validate(*c);
    }
    LearnState sa = initial_state(a), sb = initial_state(b);
    const BackendChoice backend = resolve_backend("cpu", 1);
    const EvaluateWordsFn evaluate = [&](const std::vector<uint32_t>& g, uint32_t n) {
        return instance->evaluate(backend, g, n);
    };
    for (int g = 0; g < 4; ++g) {
        EXPECT_EQ(sa.words, sb.words) << "generation " << g;
        const GenerationReport ra = step(a, sa, evaluate);
        const GenerationReport rb = step(b, sb, evaluate);
        EXPECT_EQ(ra.mutants, rb.mutants);
        EXPECT_GT(ra.mutants, 0u);
    }
    EXPECT_EQ(sa.best_words, sb.best_words);
}

TEST(ProblemPileInRules, CliReproducesPileInRulesBitForBit) {
    const std::string settings =
        " --population 150 --generations 10 --seed 6 --crossover 0.8 --mutation 0.2 --quiet";
    const std::string a = temp_dir("rules_pile_in"), b = temp_dir("rules_learn");
    const std::string ordered = with_fields("s1.json", {{"path_check", true}});
    auto r = run_cli("pile-in --scenario " + ordered + " --rules aos3" + settings +
                     " --backend cpu --threads 1 --out " + a);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    r = run_cli("learn --problem pile-in-rules --rules aos3:" + ordered + " --scheme rules" +
                settings + " --backend cpu --threads 2 --out " + b);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto rows_a = csv(a + "/generations.csv"), rows_b = csv(b + "/generations.csv");
    ASSERT_EQ(rows_a.size(), 11u);
    ASSERT_EQ(rows_b.size(), 11u);
    EXPECT_EQ(rows_b[0][4], "best_fitness");
    EXPECT_EQ(rows_b[0][5], "mean_fitness");
    for (size_t k = 1; k < rows_a.size(); ++k) {
        SCOPED_TRACE(k);
        EXPECT_EQ(rows_a[k][1], g9(std::stod(rows_b[k][4])));
        EXPECT_EQ(rows_a[k][2], g9(std::stod(rows_b[k][5])));
    }
    // best.json describes the best plan as pile-in's does (legal, order, per-model verdicts).
    const nlohmann::json best = nlohmann::json::parse(read_text(b + "/best.json"));
    ASSERT_TRUE(best["best_ever"]["plan"].contains("legal")) << best.dump();
    EXPECT_TRUE(best["best_ever"]["plan"].contains("order"));

    // Resumed after 4 generations: the same files.
    std::string first = settings;
    first.replace(first.find("--generations 10"), 16, "--generations 4");
    expect_resume_matches(
        "--problem pile-in-rules --rules aos3:" + ordered + " --scheme rules" + first,
        temp_dir("rules_resumed"), 10, b, {0, 1, 2, 3, 4, 5});
}

TEST(ProblemPileInRules, CliBadInputIsOneLine) {
    const std::string s1 = kData + "s1.json";
    const std::string dir = temp_dir("rules_bad");
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"--problem pile-in-rules --scheme rules", "--rules PRESET:NAME|FILE"},
        {"--problem pile-in-rules --scheme rules --rules " + s1, "expected PRESET:SCENARIO"},
        {"--problem pile-in-rules --scheme rules --rules gapi1:" + s1, "unknown rules preset"},
        {"--problem pile-in-rules --scheme rules --rules aos9:" + s1, "unknown rules preset"},
        {"--problem pile-in-rules --scheme gapi1 --rules aos1:" + s1, "by scheme rules only"},
        {"--problem pile-in-rules --scheme rules --rules aos1:no-such", "no such file"},
        {"--problem pile-in-rules --scheme rules --scenario " + s1 + " --rules aos1:" + s1,
         "--scenario: not a setting of problem pile-in-rules"},
    };
    expect_one_line_errors(cases, dir);
}

// ---- the rule flags: `gaeval learn --problem pile-in-rules` takes gaeval pile-in's ----------

// Scenario files the rule flags act on: two enemy units (--target-unit) and oval friendly
// bases (--turn-ovals).
std::string two_units_file() {
    nlohmann::json doc = nlohmann::json::parse(read_text(kData + "s1.json"));
    for (size_t e = 0; e < doc["enemy"].size(); ++e) doc["enemy"][e]["unit"] = e < 3 ? 0 : 1;
    const std::string path = ::testing::TempDir() + "/problem_pile_in_rules_" +
                             std::to_string(getpid()) + "_two_units.json";
    std::ofstream(path) << doc.dump();
    return path;
}

std::string ovals_file() {
    const std::string path =
        ::testing::TempDir() + "/problem_pile_in_rules_" + std::to_string(getpid()) + "_ovals.json";
    std::ofstream(path) << R"({"units": "mm", "reach": 12.7,
        "friendly": [{"x": 0, "y": 0, "base": [60, 35], "angle": 0},
                     {"x": 62, "y": 0, "base": [60, 35], "angle": 0},
                     {"x": 124, "y": 0, "base": 32}],
        "enemy": [{"x": 0, "y": 90, "base": 32}, {"x": 40, "y": 90, "base": 32},
                  {"x": 80, "y": 90, "base": 32}, {"x": 120, "y": 90, "base": 32}]})";
    return path;
}

// One rule flag: preset and scenario it is tried on, the flag's text, and the overrides it
// must stand for (written by hand: the truth the parser is checked against).
struct RuleFlagCase {
    std::string preset, path, flag, text;
    pile_in::RuleOverrides expected;
};

std::vector<RuleFlagCase> rule_flag_cases() {
    const std::string s1 = kData + "s1.json", s8 = kData + "s8.json";
    std::vector<RuleFlagCase> cases(9);
    cases[0] = {"aos3", s1, "reach", "0.75in", {}};
    cases[0].expected.reach_mm = 0.75 * 25.4;
    cases[1] = {"aos3", s1, "coherency", "40mm", {}};
    cases[1].expected.coherency_mm = 40.0;
    cases[2] = {"aos3", s8, "two-neighbours-from", "0", {}};
    cases[2].expected.two_neighbours_from = 0;
    cases[3] = {"aos1", s1, "direction", "free", {}};
    cases[3].expected.direction = pile_in::Direction::Free;
    cases[4] = {"aos1", s1, "path-check", "on", {}};
    cases[4].expected.path_check = true;
    cases[5] = {"aos3", s1, "slide", "off", {}};
    cases[5].expected.slide = false;
    cases[6] = {"aos2", ovals_file(), "turn-ovals", "on", {}};
    cases[6].expected.turn_ovals = true;
    cases[7] = {
        "aos1", with_fields("s1.json", {{"constraints", "repair"}}), "constraints", "penalty", {}};
    cases[7].expected.repair = false;
    cases[8] = {"aos4", two_units_file(), "target-unit", "1", {}};
    cases[8].expected.target_unit = 1;
    return cases;
}

bool same_problem(const pile_in::RulesProblem& a, const pile_in::RulesProblem& b) {
    return std::memcmp(&a, &b, sizeof a) == 0;
}

// Each flag builds the problem `gaeval pile-in --rules PRESET FLAG` scores (the hand-written
// overrides), which differs from the problem without it, and run.json's setup rebuilds it.
TEST(ProblemPileInRules, EachRuleFlagBuildsPileInsProblem) {
    const ProblemEntry& p = find_problem("pile-in-rules");
    std::vector<std::string> listed;
    for (const auto& [flag, help] : p.info.setup_options) listed.push_back(flag);
    EXPECT_EQ(listed, (std::vector<std::string>{"reach", "coherency", "two-neighbours-from",
                                                "direction", "path-check", "slide", "turn-ovals",
                                                "constraints", "target-unit"}));
    EXPECT_TRUE(find_problem("pile-in").info.setup_options.empty());
    const auto cases = rule_flag_cases();
    for (const RuleFlagCase& k : cases) {
        SCOPED_TRACE("--" + k.flag + " " + k.text);
        const auto instance = p.build(k.preset + ":" + k.path, {{k.flag, k.text}});
        const pile_in::RulesProblem* setup = instance->setup_as<pile_in::RulesProblem>();
        ASSERT_NE(setup, nullptr);
        const pile_in::ScenarioFile file = pile_in::load_scenario(k.path);
        EXPECT_TRUE(same_problem(*setup, pile_in::build_rules_problem(k.preset, file, k.expected)));
        EXPECT_FALSE(instance->rewrites_genomes());
        if (k.flag == "constraints") {  // the file asks for repair: kept without the flag
            const auto repair = p.build(k.preset + ":" + k.path);
            EXPECT_TRUE(repair->rewrites_genomes());
            EXPECT_TRUE(repair->setup_as<pile_in::RulesProblem>()->rules.repair);
        } else {
            EXPECT_FALSE(same_problem(*setup, pile_in::build_rules_problem(k.preset, file, {})));
        }
        EXPECT_EQ(instance->dimension(), uint32_t(setup->layout.words));
        const auto again = p.rebuild(instance->setup_json(), "test");
        EXPECT_TRUE(same_problem(*again->setup_as<pile_in::RulesProblem>(), *setup));
    }
    // Several flags at once, as one command line gives them.
    const auto both = p.build("aos3:" + kData + "s1.json", {{"reach", "20mm"}, {"slide", "off"}});
    pile_in::RuleOverrides o;
    o.reach_mm = 20.0;
    o.slide = false;
    EXPECT_TRUE(same_problem(
        *both->setup_as<pile_in::RulesProblem>(),
        pile_in::build_rules_problem("aos3", pile_in::load_scenario(kData + "s1.json"), o)));
}

// The rules scheme under rule flags steps as pile-in's rules population under the same flags:
// a flag that adds genes (path-check: the move order; turn-ovals: orientations) and flags that
// change the score.
TEST(ProblemPileInRules, RuleFlagsLockstepWithPileInsPopulation) {
    expect_rules_lockstep(kData + "s1.json", "aos1", 60, 5, 2, 0.8, 0.3, 2,
                          {{"path-check", "on"}, {"direction", "free"}});
    expect_rules_lockstep(ovals_file(), "aos2", 61, 5, 4, 0.7, 0.4, 1, {{"turn-ovals", "on"}});
    expect_rules_lockstep(two_units_file(), "aos4", 50, 5, 8, 0.8, 0.2, 2,
                          {{"target-unit", "1"}, {"reach", "0.75in"}, {"coherency", "40mm"}});
    expect_rules_lockstep(kData + "s8.json", "aos3", 40, 4, 1, 0.8, 0.2, 1,
                          {{"two-neighbours-from", "0"}, {"slide", "off"}});
}

// Through the CLI, each flag: `gaeval learn --problem pile-in-rules --rules PRESET:FILE FLAG`
// gives every generation's best and mean of `gaeval pile-in --scenario FILE --rules PRESET
// FLAG`, and a run resumed from run.json keeps the flag.
TEST(ProblemPileInRules, CliRuleFlagsReproducePileInBitForBit) {
    const std::string settings =
        " --population 60 --generations 5 --seed 3 --crossover 0.8 --mutation 0.3 --quiet";
    const auto cases = rule_flag_cases();
    for (size_t n = 0; n < cases.size(); ++n) {
        const RuleFlagCase& k = cases[n];
        const std::string flag = " --" + k.flag + " " + k.text;
        SCOPED_TRACE(flag);
        const std::string a = temp_dir("flag_pile_in" + std::to_string(n)),
                          b = temp_dir("flag_learn" + std::to_string(n));
        auto r = run_cli("pile-in --scenario " + k.path + " --rules " + k.preset + flag + settings +
                         " --backend cpu --threads 1 --out " + a);
        ASSERT_EQ(r.exit_code, 0) << r.err;
        r = run_cli("learn --problem pile-in-rules --rules " + k.preset + ":" + k.path +
                    " --scheme rules" + flag + settings + " --backend cpu --threads 2 --out " + b);
        ASSERT_EQ(r.exit_code, 0) << r.err;
        const auto rows_a = csv(a + "/generations.csv"), rows_b = csv(b + "/generations.csv");
        ASSERT_EQ(rows_a.size(), 6u);
        ASSERT_EQ(rows_b.size(), 6u);
        for (size_t g = 1; g < rows_a.size(); ++g) {
            EXPECT_EQ(rows_a[g][1], g9(std::stod(rows_b[g][4]))) << "generation " << g;
            EXPECT_EQ(rows_a[g][2], g9(std::stod(rows_b[g][5]))) << "generation " << g;
        }
        const nlohmann::json run = nlohmann::json::parse(read_text(b + "/run.json"));
        EXPECT_NE(run.dump().find("rule_flags"), std::string::npos);
    }
    // A resume rebuilds the flags' problem from run.json: the files of the uninterrupted run.
    const RuleFlagCase& k = cases[4];  // path-check on: move order genes
    const std::string whole = temp_dir("flag_whole");
    const std::string run = "--problem pile-in-rules --rules " + k.preset + ":" + k.path +
                            " --scheme rules --path-check on" + settings;
    auto r = run_cli("learn " + run + " --backend cpu --threads 2 --out " + whole);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    std::string first = run;
    first.replace(first.find("--generations 5"), 15, "--generations 2");
    expect_resume_matches(first, temp_dir("flag_resumed"), 5, whole, {0, 1, 2, 3, 4, 5});
}

// ---- repair constraints: scoring rewrites the plans (ProblemInstance::evaluate_rewriting) ----

// The rules scheme with repair constraints steps as pile-in's rules population does with them:
// the same plans (repaired ones included) before every generation, fitness and statistics.
TEST(ProblemPileInRules, RepairLockstepWithPileInsPopulation) {
    const std::string ordered = with_fields("s1.json", {{"path_check", true}});
    expect_rules_lockstep(ordered, "aos3", 90, 6, 2, 0.8, 0.3, 1, {{"constraints", "repair"}});
    expect_rules_lockstep(ordered, "aos3", 90, 6, 2, 0.8, 0.3, 2, {{"constraints", "repair"}});
    expect_rules_lockstep(kData + "s4.json", "aos4", 70, 6, 5, 0.8, 0.2, 1,
                          {{"constraints", "repair"}});
    expect_rules_lockstep(kData + "s4.json", "aos4", 70, 6, 5, 0.8, 0.2, 2,
                          {{"constraints", "repair"}});
}

// Scoring with repair rewrites exactly the plans it repairs: each rewritten plan is the one
// pile-in's rules fitness writes back (EvaluateRules on a copy), and an illegal plan scored
// again after its repair keeps its words and its fitness.
TEST(ProblemPileInRules, RepairRewritesThePlansItScores) {
    const auto instance = find_problem("pile-in-rules")
                              .build("aos4:" + kData + "s4.json", {{"constraints", "repair"}});
    ASSERT_TRUE(instance->rewrites_genomes());
    const pile_in::RulesProblem& problem = *instance->setup_as<pile_in::RulesProblem>();
    LearnConfig c = problem_config("rules", instance);
    c.population = 300;
    c.seed = 7;
    validate(c);
    const LearnState s = initial_state(c);
    const uint32_t n = c.population, d = c.dims();
    // The truth: pile-in's op over a copy, member-major.
    std::vector<uint32_t> truth = s.words;
    std::vector<float> truth_fitness(n);
    const pile_in::EvaluateRules op{problem, pile_in::plan_major_view(truth.data(), int32_t(d)),
                                    truth_fitness.data()};
    for (uint32_t i = 0; i < n; ++i) op(i);
    for (int threads : {1, 2}) {
        SCOPED_TRACE(threads);
        std::vector<uint32_t> words = s.words;
        const std::vector<double> fitness =
            instance->evaluate_rewriting(resolve_backend("cpu", threads), words, n);
        EXPECT_EQ(words, truth);
        ASSERT_EQ(fitness.size(), n);
        for (uint32_t i = 0; i < n; ++i)
            ASSERT_TRUE(same_bits(fitness[i], double(truth_fitness[i]))) << i;
        // Scored again, repaired plans stay as they are.
        std::vector<uint32_t> again = words;
        instance->evaluate_rewriting(resolve_backend("cpu", threads), again, n);
        EXPECT_EQ(again, words);
    }
    EXPECT_NE(truth, s.words) << "no plan of the first population was repaired";
}

// The device's repair op (kernels/problem_ops.cu; where there is a GPU) rewrites the plans and
// scores them as the cpu does (the test above pins the cpu to pile-in's rules fitness).
TEST(ProblemPileInRules, RepairOnTheDeviceIsTheCpus) {
    GAEVAL_REQUIRE_DEVICE_OR_SKIP();
    const auto instance = find_problem("pile-in-rules")
                              .build("aos4:" + kData + "s4.json", {{"constraints", "repair"}});
    LearnConfig c = problem_config("rules", instance);
    c.population = 3000;
    c.seed = 7;
    validate(c);
    const LearnState s = initial_state(c);
    std::vector<uint32_t> on_cpu = s.words, on_device = s.words;
    const std::vector<double> want =
        instance->evaluate_rewriting(resolve_backend("cpu", 2), on_cpu, c.population);
    const std::vector<double> got =
        instance->evaluate_rewriting(resolve_backend("cuda", 2), on_device, c.population);
    EXPECT_EQ(on_device, on_cpu);
    for (uint32_t i = 0; i < c.population; ++i) ASSERT_TRUE(same_bits(got[i], want[i])) << i;
}

// Through the CLI: `learn --problem pile-in-rules --constraints repair` gives every generation's
// best and mean and the best plan of `gaeval pile-in --rules PRESET --constraints repair`, on aos3
// and aos4 at 1 and 2 threads (other than penalty's); a resumed run gives the same files.
TEST(ProblemPileInRules, CliRepairReproducesPileInBitForBit) {
    const std::string settings =
        " --population 120 --generations 8 --seed 5 --crossover 0.8 --mutation 0.3 --quiet";
    const std::string ordered = with_fields("s1.json", {{"path_check", true}});
    const std::vector<std::pair<std::string, std::string>> runs = {{"aos3", ordered},
                                                                   {"aos4", kData + "s4.json"}};
    int n = 0;
    for (const auto& [preset, path] : runs)
        for (int threads : {1, 2}) {
            SCOPED_TRACE(preset + " threads " + std::to_string(threads));
            const std::string tag = std::to_string(n++);
            const std::string a = temp_dir("repair_pile_in" + tag),
                              b = temp_dir("repair_learn" + tag),
                              p = temp_dir("repair_penalty" + tag);
            const std::string t = " --backend cpu --threads " + std::to_string(threads);
            auto r = run_cli("pile-in --scenario " + path + " --rules " + preset +
                             " --constraints repair" + settings + t + " --out " + a);
            ASSERT_EQ(r.exit_code, 0) << r.err;
            const std::string learn =
                "learn --problem pile-in-rules --rules " + preset + ":" + path + " --scheme rules";
            r = run_cli(learn + " --constraints repair" + settings + t + " --out " + b);
            ASSERT_EQ(r.exit_code, 0) << r.err;
            r = run_cli(learn + settings + t + " --out " + p);
            ASSERT_EQ(r.exit_code, 0) << r.err;
            const auto rows_a = csv(a + "/generations.csv"), rows_b = csv(b + "/generations.csv"),
                       rows_p = csv(p + "/generations.csv");
            ASSERT_EQ(rows_a.size(), 9u);
            ASSERT_EQ(rows_b.size(), 9u);
            ASSERT_EQ(rows_p.size(), 9u);
            bool differs_from_penalty = false;
            for (size_t g = 1; g < rows_a.size(); ++g) {
                EXPECT_EQ(rows_a[g][1], g9(std::stod(rows_b[g][4]))) << "generation " << g;
                EXPECT_EQ(rows_a[g][2], g9(std::stod(rows_b[g][5]))) << "generation " << g;
                differs_from_penalty |= rows_b[g][5] != rows_p[g][5];
            }
            EXPECT_TRUE(differs_from_penalty) << "repair gave penalty's means";
            // The best plan of all generations: the same plan, fitness and generation.
            nlohmann::json pile_in_best = nlohmann::json::parse(read_text(a + "/best.json"));
            const nlohmann::json ever =
                nlohmann::json::parse(read_text(b + "/best.json"))["best_ever"];
            EXPECT_EQ(ever["generation_found"], pile_in_best["generation"]);
            EXPECT_EQ(ever["fitness"].get<double>(), double(pile_in_best["fitness"].get<float>()));
            // pile-in's own fields: the run's rules and the greedy plan it is compared with.
            for (const char* extra : {"generation", "scenario", "rules", "rules_config", "greedy"})
                pile_in_best.erase(extra);
            EXPECT_EQ(ever["plan"], pile_in_best);
            const nlohmann::json run = nlohmann::json::parse(read_text(b + "/run.json"));
            EXPECT_NE(run.dump().find("rule_flags"), std::string::npos);
        }
    // Cut after 3 generations (1 thread) and resumed (2 threads): the uninterrupted run's files.
    const std::string whole = temp_dir("repair_whole");
    const std::string run = "--problem pile-in-rules --rules aos4:" + kData +
                            "s4.json --scheme rules --constraints repair" + settings;
    auto r = run_cli("learn " + run + " --backend cpu --threads 2 --out " + whole);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    std::string first = run;
    first.replace(first.find("--generations 8"), 15, "--generations 3");
    expect_resume_matches(first, temp_dir("repair_resumed"), 8, whole, {0, 1, 2, 3, 4, 5});
}

// A resumed repair run takes --backend too: cuda is refused in one line, nothing written.
TEST(ProblemPileInRules, CliRepairResumeOnCudaIsRefused) {
    const std::string dir = temp_dir("repair_resume_cuda");
    auto r = run_cli("learn --problem pile-in-rules --rules aos4:" + kData +
                     "s4.json --scheme rules --constraints repair --population 40 "
                     "--generations 2 --seed 1 --quiet --backend cpu --out " +
                     dir);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const std::string csv_before = read_text(dir + "/generations.csv");
    const std::string run_before = read_text(dir + "/run.json");
    r = run_cli("learn --resume " + dir + " --generations 4 --backend cuda --quiet");
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_EQ(r.err_lines(), 1) << r.err;
    EXPECT_NE(r.err.find("--backend cuda: repair constraints"), std::string::npos) << r.err;
    EXPECT_EQ(read_text(dir + "/generations.csv"), csv_before);
    EXPECT_EQ(read_text(dir + "/run.json"), run_before);
}

TEST(ProblemPileInRules, CliBadRuleFlagsAreOneLine) {
    const std::string rules =
        "--problem pile-in-rules --scheme rules --rules aos4:" + kData + "s4.json";
    const std::string dir = temp_dir("rule_flags_bad");
    const std::vector<std::pair<std::string, std::string>> cases = {
        {rules + " --reach -1", "--reach -1: must be in [0, 1000]"},
        {rules + " --reach 3cm", "--reach '3cm': expected a number in [0, 1000]"},
        {rules + " --coherency 2000in", "--coherency 2000in: must be in [0, 1000] in"},
        {rules + " --direction sideways", "--direction: unknown rule 'sideways'"},
        {rules + " --path-check maybe", "--path-check: expected on or off"},
        {rules + " --two-neighbours-from -3", "--two-neighbours-from -3: must be in"},
        {rules + " --constraints soft", "--constraints: expected penalty or repair"},
        {rules + " --constraints repair --backend cuda",
         "--backend cuda: repair constraints rewrite each plan as it is scored"},
        {rules + " --constraints repair --islands 2",
         "--islands: repair constraints rewrite each plan as it is scored"},
        {rules + " --target-unit 3", "--target-unit: no enemy model is in unit 3"},
        {rules + " --coherency 0.1in",
         "the unit starts out of coherency under aos4: friendly[0] has no friend"},
        {"--problem pile-in --scheme gapi1 --scenario " + kData + "s1.json --reach 1in",
         "--reach: not a setting of problem pile-in"},
        {"--problem sphere --slide off", "--slide: not a setting of problem sphere"},
    };
    expect_one_line_errors(cases, dir);
}

// ---- the rules scheme's mutants, compare and islands ------------------------------------

// RulesStep::make says which members a mutation hit: none at mutation rate 0; at rate 1 every
// member that differs from its rate-0 twin (the same draws but the mutations: the elite, the
// memetic clones and the GRASP immigrants are the same plan at any rate) and no other; at a
// rate in between, at least every member that differs.
TEST(ProblemPileInRules, RulesStepCountsTheMembersAMutationHit) {
    const pile_in::RulesProblem problem = pile_in::build_rules_problem(
        "aos3", pile_in::load_scenario(with_fields("s8.json", {{"path_check", true}})), {});
    const uint32_t n = 160, d = static_cast<uint32_t>(problem.layout.words);
    std::vector<uint32_t> parents(size_t(n) * d);
    const pile_in::RandomizeRulesPlans randomize{7, problem,
                                                 pile_in::plan_major_view(parents.data(), d)};
    for (uint32_t i = 0; i < n; ++i) randomize(i);
    // One generation at `rate`: the children and the members made with a mutation.
    const auto breed = [&](double rate, std::vector<uint32_t>& children) {
        children.assign(size_t(n) * d, 0u);
        pile_in::Gapi1Step base;
        base.seed = 7;
        base.generation = 1;
        base.population = n;
        base.survivors = 40;
        base.mutation_rate = rate;
        base.src = pile_in::plan_major_view(parents.data(), d);
        base.dst = pile_in::plan_major_view(children.data(), d);
        const pile_in::RulesStep step{problem, base};
        std::vector<bool> hit(n);
        for (uint32_t k = 0; k < n; ++k) hit[k] = step.make(k, k);
        return hit;
    };
    std::vector<uint32_t> still, some, all;
    const std::vector<bool> none_hit = breed(0.0, still), some_hit = breed(0.3, some),
                            all_hit = breed(1.0, all);
    const auto differs = [&](const std::vector<uint32_t>& x, uint32_t k) {
        return !std::equal(x.begin() + size_t(k) * d, x.begin() + size_t(k + 1) * d,
                           still.begin() + size_t(k) * d);
    };
    uint32_t hit_all = 0, hit_some = 0, differ_some = 0;
    for (uint32_t k = 0; k < n; ++k) {
        EXPECT_FALSE(none_hit[k]) << k;
        EXPECT_EQ(all_hit[k], differs(all, k)) << k;
        if (differs(some, k)) {
            EXPECT_TRUE(some_hit[k]) << k;
        }
        hit_all += all_hit[k];
        hit_some += some_hit[k];
        differ_some += differs(some, k);
    }
    EXPECT_GT(hit_all, n / 2);  // not the elite, 4 memetic clones, the GRASP immigrants
    EXPECT_LT(hit_all, n);
    EXPECT_GT(hit_some, 0u);
    EXPECT_LT(hit_some, hit_all);
    EXPECT_GE(hit_some, differ_some);
}

// The scheme reports them: the engine's generation report and generations.csv's mutants.
TEST(ProblemPileInRules, RulesSchemeReportsItsMutants) {
    LearnConfig c =
        problem_config("rules", find_problem("pile-in-rules").build("aos3:" + kData + "s1.json"));
    c.population = 80;
    c.seed = 5;
    validate(c);
    LearnConfig still = c;
    still.params["mutation"] = 0.0;
    validate(still);
    const BackendChoice backend = resolve_backend("cpu", 1);
    const EvaluateWordsFn evaluate = [&](const std::vector<uint32_t>& g, uint32_t n) {
        return c.instance->evaluate(backend, g, n);
    };
    LearnState s = initial_state(c), s0 = initial_state(still);
    for (int g = 0; g < 3; ++g) {
        const GenerationReport r = step(c, s, evaluate), r0 = step(still, s0, evaluate);
        EXPECT_GT(r.mutants, 0u) << g;
        EXPECT_LT(r.mutants, c.population) << g;
        EXPECT_EQ(r0.mutants, 0u) << g;
    }
}

// compare learn on problem pile-in-rules (with a rule flag): cpu at 1 and 2 threads give the
// same bits.
TEST(ProblemPileInRules, CompareLearnOnTwoCpuConfigurations) {
    const std::string ordered = with_fields("s1.json", {{"path_check", true}});
    auto r = run_cli(
        "compare --a cpu:1 --b cpu:2 learn --problem pile-in-rules --rules aos3:" + ordered +
        " --scheme rules --population 70 --generations 4 --seed 9 "
        "--reach 0.75in");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("identical: learn rules on pile-in-rules, 4 generations x 70 members, "
                         "cpu:1 vs cpu:2"),
              std::string::npos)
        << r.out;
    // With repair constraints: the rewritten plans, generation by generation.
    r = run_cli("compare --a cpu:1 --b cpu:2 learn --problem pile-in-rules --rules aos4:" + kData +
                "s4.json --scheme rules --population 70 --generations 4 --seed 9 "
                "--constraints repair");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("identical: learn rules on pile-in-rules"), std::string::npos) << r.out;
}

// The cuda backend against the cpu (where there is a GPU).
TEST(ProblemPileInRules, CompareLearnCudaAgainstCpu) {
    GAEVAL_REQUIRE_DEVICE_OR_SKIP();
    const std::string ordered = with_fields("s1.json", {{"path_check", true}});
    LearnJob job;
    job.config = problem_config(
        "rules", find_problem("pile-in-rules").build("aos3:" + ordered, {{"reach", "0.75in"}}));
    job.config.population = 70;
    job.config.generations = 4;
    job.config.seed = 9;
    const Difference d =
        compare_learn(job, job, resolve_backend("cuda", 0), resolve_backend("cpu", 0));
    EXPECT_TRUE(d.identical) << "generation " << d.generation << " individual " << d.individual
                             << " " << d.field << ": " << d.a_value << " vs " << d.b_value;
}

// Rules islands: interrupted after a checkpoint, resumed on another thread count, the files
// of the uninterrupted run.
TEST(ProblemPileInRules, InterruptedRulesIslandsResumeToTheUninterruptedFiles) {
    expect_interrupted_islands_resume(
        "learn --problem pile-in-rules --scheme rules --rules aos3:" +
            with_fields("s8.json", {{"path_check", true}}) +
            " --population 1500 --generations 8 --seed 3 --islands 2 --migrate-every 2 "
            "--migrants 3 --quiet --backend cpu",
        "rules");
}

}  // namespace
}  // namespace gaeval::learn
