// gaeval compare: identical backends report identical; a difference is found at the right
// generation, individual and field; the CLI's exit codes and bad input.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "cli_util.hpp"
#include "gpu_test_support.hpp"
#include "host/ataxx/entry.hpp"
#include "host/ataxx/fen.hpp"
#include "host/compare/games.hpp"
#include "host/games/registry.hpp"
#include "host/learn/learn_problems.hpp"
#include "host/learn/scheme.hpp"
#include "host/pile_in/compare.hpp"

namespace gaeval {
namespace {

using testing::run_cli;

pile_in::PileInJob s1_job(uint64_t seed) {
    pile_in::PileInJob job;
    job.scenario = pile_in::load_scenario(std::string(GAEVAL_TEST_DATA_DIR) + "/pile_in/s1.json");
    job.ga.population = 300;
    job.ga.generations = 8;
    job.ga.seed = seed;
    return job;
}

TEST(Compare, CpuThreadCountsAreIdentical) {
    Difference d =
        compare_pile_in(s1_job(4), s1_job(4), resolve_backend("cpu", 1), resolve_backend("cpu", 3));
    EXPECT_TRUE(d.identical) << d.field << " " << d.a_value << " vs " << d.b_value;
    EXPECT_EQ(d.generations_compared, 8u);
}

TEST(Compare, FindsTheFirstDifference) {
    // Another seed: the very first gene of the very first plan differs.
    Difference d =
        compare_pile_in(s1_job(4), s1_job(5), resolve_backend("cpu", 1), resolve_backend("cpu", 2));
    EXPECT_FALSE(d.identical);
    EXPECT_EQ(d.generation, 0u);
    EXPECT_EQ(d.individual, 0u);
    EXPECT_EQ(d.field, "gene 0");
    // Same initial population, another mutation rate: identical until the first breeding.
    pile_in::PileInJob other = s1_job(4);
    other.ga.mutation = 0.3;
    d = compare_pile_in(s1_job(4), other, resolve_backend("cpu", 2), resolve_backend("cpu", 2));
    EXPECT_FALSE(d.identical);
    EXPECT_EQ(d.generation, 1u);
    EXPECT_EQ(d.field.rfind("gene ", 0), 0u) << d.field;
}

TEST(Compare, CudaAgainstCpu) {
    GAEVAL_REQUIRE_DEVICE_OR_SKIP();
    Difference d = compare_pile_in(s1_job(4), s1_job(4), resolve_backend("cuda", 0),
                                   resolve_backend("cpu", 0));
    EXPECT_TRUE(d.identical) << "generation " << d.generation << " individual " << d.individual
                             << " " << d.field << ": " << d.a_value << " vs " << d.b_value;
}

TEST(CompareCli, PileInOnTwoCpuConfigurations) {
    const std::string s1 = std::string(GAEVAL_TEST_DATA_DIR) + "/pile_in/s1.json";
    auto r = run_cli("compare --a cpu:1 --b cpu:2 pile-in --scenario " + s1 +
                     " --generations 6 --population 500 --json");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    auto j = nlohmann::json::parse(r.out.substr(r.out.rfind('{')));
    EXPECT_TRUE(j["identical"].get<bool>());
    EXPECT_EQ(j["a"], "cpu:1");
    EXPECT_EQ(j["b"], "cpu:2");
}

TEST(Compare, PerftDivideOnCpuConfigurationsAndItsTotal) {
    const auto setup = ataxx::parse_fen("startpos", ataxx::parse_board_spec("square8:7x7"),
                                        ataxx::RuleSet::Ataxx, 2);
    const auto session = ataxx::open_session(setup);
    Difference d = compare_perft(*session, 4, resolve_backend("cpu", 1), resolve_backend("cpu", 2));
    EXPECT_TRUE(d.identical) << d.field;
    EXPECT_EQ(d.generations_compared, 16u);  // 16 root moves from the start position
    uint64_t total = 0;
    for (uint64_t n : session->perft_divide(4, resolve_backend("cpu", 2))) total += n;
    EXPECT_EQ(total, 155888u);  // published perft(4)
    // The fast path and the per-cell tables agree move by move too.
    EXPECT_EQ(ataxx::open_session(setup, true)->perft_divide(3, resolve_backend("cpu", 1)),
              session->perft_divide(3, resolve_backend("cpu", 1)));
}

TEST(CompareCli, PerftOnTwoCpuConfigurations) {
    auto r = run_cli("compare --a cpu:1 --b cpu:2 perft --fen startpos --depth 4");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("identical: perft depth 4 (16 root moves)"), std::string::npos) << r.out;
}

learn::LearnJob small_learn_job(uint64_t seed, const std::string& scheme) {
    learn::LearnJob job;
    job.session = games::find_game("ataxx").open({});
    job.config = learn::default_config(scheme, 15);
    job.config.population = scheme == "ten-tournaments" ? 12 : 8;
    job.config.generations = 3;
    job.config.seed = seed;
    job.config.max_plies = 200;
    job.verify_games = 20;
    return job;
}

TEST(Compare, LearnOnCpuThreadCountsIsIdenticalForEveryScheme) {
    for (auto scheme : {"genetic-game", "paired-blend", "ten-tournaments", "modern"}) {
        const learn::LearnJob job = small_learn_job(7, scheme);
        Difference d =
            compare_learn(job, job, resolve_backend("cpu", 1), resolve_backend("cpu", 2));
        EXPECT_TRUE(d.identical) << scheme << ": " << d.field << " " << d.a_value << " vs "
                                 << d.b_value;
        EXPECT_EQ(d.generations_compared, 3u);
    }
}

TEST(Compare, LearnFindsTheFirstDifference) {
    // Another seed: the first weight of the first member differs before any game.
    Difference d = compare_learn(small_learn_job(7, "modern"), small_learn_job(8, "modern"),
                                 resolve_backend("cpu", 1), resolve_backend("cpu", 2));
    EXPECT_FALSE(d.identical);
    EXPECT_EQ(d.individual, 0u);
    EXPECT_EQ(d.field, "initial weight 0");
    // Another mutation step: the same games in generation 0, then different children.
    learn::LearnJob other = small_learn_job(7, "modern");
    other.config.sigma = 0.75;
    d = compare_learn(small_learn_job(7, "modern"), other, resolve_backend("cpu", 2),
                      resolve_backend("cpu", 2));
    EXPECT_FALSE(d.identical);
    EXPECT_EQ(d.generation, 0u);
    EXPECT_EQ(d.field.rfind("weight ", 0), 0u) << d.field;
    EXPECT_GE(d.individual, other.config.elites);  // elites are copied unchanged
}

TEST(Compare, LearnCudaAgainstCpu) {
    GAEVAL_REQUIRE_DEVICE_OR_SKIP();
    const learn::LearnJob job = small_learn_job(7, "modern");
    Difference d = compare_learn(job, job, resolve_backend("cuda", 0), resolve_backend("cpu", 0));
    EXPECT_TRUE(d.identical) << "generation " << d.generation << " individual " << d.individual
                             << " " << d.field << ": " << d.a_value << " vs " << d.b_value;
}

TEST(CompareCli, LearnOnTwoCpuConfigurations) {
    auto r = run_cli(
        "compare --a cpu:1 --b cpu:2 learn --population 6 --generations 2 "
        "--verify-games 10 --max-plies 200");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("identical: learn modern, 2 generations x 6 members, cpu:1 vs cpu:2"),
              std::string::npos)
        << r.out;
}

// ---- learn on a problem (gaeval compare learn --problem NAME) --------------------------------

learn::LearnJob problem_learn_job(const std::string& scheme, const std::string& problem) {
    learn::LearnJob job;
    job.config = learn::problem_config(scheme, problem, 5);
    job.config.population = 16;
    job.config.generations = 4;
    job.config.seed = 3;
    return job;
}

TEST(Compare, ProblemLearnOnCpuThreadCountsIsIdenticalForEveryProblemScheme) {
    for (const learn::Scheme* scheme : learn::registered_schemes()) {
        if (!scheme->runs_on_problems()) continue;
        for (const learn::ProblemEntry& problem : learn::registered_problems()) {
            SCOPED_TRACE(std::string(scheme->name()) + " on " + problem.info.name);
            const learn::LearnJob job = problem_learn_job(scheme->name(), problem.info.name);
            const Difference d =
                compare_learn(job, job, resolve_backend("cpu", 1), resolve_backend("cpu", 2));
            EXPECT_TRUE(d.identical) << d.field << " " << d.a_value << " vs " << d.b_value;
            EXPECT_EQ(d.generations_compared, 4u);
        }
    }
}

TEST(Compare, ProblemLearnFindsTheFirstDifference) {
    const learn::LearnJob job = problem_learn_job("modern", "rastrigin");
    // Another seed: the first gene of the first member differs before any evaluation.
    learn::LearnJob other = job;
    other.config.seed = 4;
    Difference d = compare_learn(job, other, resolve_backend("cpu", 1), resolve_backend("cpu", 2));
    EXPECT_FALSE(d.identical);
    EXPECT_EQ(d.individual, 0u);
    EXPECT_EQ(d.field, "initial weight 0");
    // Another mutation step: the same evaluations in generation 0, then other children.
    other = job;
    other.config.sigma = 0.75;
    d = compare_learn(job, other, resolve_backend("cpu", 2), resolve_backend("cpu", 2));
    EXPECT_FALSE(d.identical);
    EXPECT_EQ(d.generation, 0u);
    EXPECT_EQ(d.field.rfind("weight ", 0), 0u) << d.field;
    EXPECT_GE(d.individual, other.config.elites);
    // Blind selection on one side (fitness that says nothing): generation 0 already differs.
    other = job;
    other.config.blind_selection = true;
    d = compare_learn(job, other, resolve_backend("cpu", 1), resolve_backend("cpu", 1));
    EXPECT_FALSE(d.identical);
    EXPECT_EQ(d.generation, 0u);
    // Jobs on different problems are not compared.
    EXPECT_THROW(compare_learn(job, problem_learn_job("modern", "sphere"),
                               resolve_backend("cpu", 1), resolve_backend("cpu", 1)),
                 InputError);
}

TEST(Compare, ProblemLearnCudaAgainstCpu) {
    GAEVAL_REQUIRE_DEVICE_OR_SKIP();
    for (const learn::ProblemEntry& problem : learn::registered_problems()) {
        const learn::LearnJob job = problem_learn_job("modern", problem.info.name);
        const Difference d =
            compare_learn(job, job, resolve_backend("cuda", 0), resolve_backend("cpu", 0));
        EXPECT_TRUE(d.identical) << problem.info.name << ": generation " << d.generation
                                 << " individual " << d.individual << " " << d.field << ": "
                                 << d.a_value << " vs " << d.b_value;
    }
}

TEST(CompareCli, ProblemLearnOnTwoCpuConfigurations) {
    auto r = run_cli(
        "compare --a cpu:1 --b cpu:2 learn --problem rastrigin --dimension 5 --population 16 "
        "--generations 3");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("identical: learn modern on rastrigin, 3 generations x 16 members, "
                         "cpu:1 vs cpu:2 (every fitness, gene and value of every generation"),
              std::string::npos)
        << r.out;
    // A problem built from a setup (word genomes): pile-in with gapi1.
    r = run_cli("compare --a cpu:1 --b cpu:2 learn --problem pile-in --scheme gapi1 --scenario " +
                std::string(GAEVAL_TEST_DATA_DIR) + "/pile_in/s1.json --population 64 " +
                "--generations 3");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("identical: learn gapi1 on pile-in, 3 generations x 64 members"),
              std::string::npos)
        << r.out;
    r = run_cli("compare --a cpu:1 --b cpu:2 learn --problem sphere --islands 2");
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("--islands is not compared"), std::string::npos) << r.err;
}

TEST(CompareCli, BadInput) {
    auto r = run_cli("compare --a gpu pile-in --scenario x.json");
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("--a: unknown backend 'gpu'"), std::string::npos) << r.err;
    r = run_cli("compare");
    EXPECT_EQ(r.exit_code, 2);
    r = run_cli("compare --a cpu:0 pile-in");
    EXPECT_EQ(r.exit_code, 2);
    r = run_cli("compare chess");
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("'chess'"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace gaeval
