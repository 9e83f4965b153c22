// The public C++ API (include/gaeval/) against the engine's own paths: the GAPI1 fitness of the
// caller's plans against the pile-in Population (the path of `gaeval pile-in`), bit for bit;
// perft against published counts; batches of games against the session's one-call batch.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "../gpu_test_support.hpp"
#include "gaeval/gaeval.hpp"
#include "host/api/impl.hpp"
#include "host/learn/learn_run.hpp"
#include "host/pile_in/population.hpp"

namespace {

using gaeval::Backend;
using gaeval::PileInScenario;

// The population's plans (gene-major) and fitness after generation 0 of `seed`.
void population_plans(const PileInScenario& s, uint64_t n, uint64_t seed,
                      std::vector<uint32_t>& plan_major, std::vector<float>& fitness) {
    auto pop = gaeval::pile_in::make_population(gaeval::resolve_backend("cpu", 2),
                                                s.impl().file.scenario, n);
    pop->randomize(seed);
    pop->evaluate();
    std::vector<uint32_t> genes;
    pop->read_genes(genes);
    pop->read_fitness(fitness);
    const int g = s.genes_per_plan();
    plan_major.resize(n * g);
    for (uint64_t i = 0; i < n; ++i)
        for (int m = 0; m < g; ++m) plan_major[i * g + m] = genes[m * n + i];
}

TEST(Api, Gapi1FitnessHasThePopulationsBits) {
    for (const char* name : {"demo_10v10", "line_20v20", "s1_line_5v5"}) {
        const PileInScenario s = PileInScenario::load(name);
        const uint64_t n = 4099;  // whole lane blocks and a tail
        std::vector<uint32_t> plans;
        std::vector<float> expected;
        population_plans(s, n, 11, plans, expected);
        for (int threads : {1, 3}) {
            std::vector<float> fitness(n, -1.0f);
            gaeval::evaluate_gapi1(Backend::cpu(threads), s, plans.data(), n, fitness.data());
            EXPECT_EQ(std::memcmp(fitness.data(), expected.data(), n * sizeof(float)), 0)
                << name << " on " << threads << " threads";
        }
    }
}

TEST(Api, Gapi1PiecesAndTheirCheckAreCalledBetweenThem) {
    const PileInScenario s = PileInScenario::load("s1_line_5v5");
    const uint64_t n = (uint64_t{1} << 20) * 2 + 5;
    std::vector<uint32_t> plans(n * s.genes_per_plan());
    for (uint64_t i = 0; i < plans.size(); ++i)
        plans[i] = gaeval::pack_move(static_cast<int32_t>(i % 20001) - 10000,
                                     static_cast<int32_t>(i * 7 % 20001) - 10000);
    std::vector<float> fitness(n);
    int calls = 0;
    gaeval::evaluate_gapi1(Backend::cpu(2), s, plans.data(), n, fitness.data(), [&] { ++calls; });
    EXPECT_EQ(calls, 2);
    EXPECT_THROW(gaeval::evaluate_gapi1(Backend::cpu(2), s, plans.data(), n, fitness.data(),
                                        [] { throw gaeval::Interrupted("stop"); }),
                 gaeval::Interrupted);
}

TEST(Api, DeviceArraysNeedTheCudaBackend) {
    const PileInScenario s = PileInScenario::load("demo_10v10");
    std::vector<uint32_t> plans(4 * s.genes_per_plan());
    std::vector<float> fitness(4);
    try {
        gaeval::evaluate_gapi1_device(Backend::cpu(1), s, plans.data(), 4, fitness.data());
        FAIL() << "a cpu backend took device arrays";
    } catch (const gaeval::InputError& e) {
        EXPECT_NE(std::string(e.what()).find("need the cuda backend, this one is cpu"),
                  std::string::npos)
            << e.what();
    }
    EXPECT_THROW(gaeval::DeviceBuffer(Backend::cpu(1), 16), gaeval::InputError);
}

// The device form (a plan a GPU thread) against the cpu's lane blocks, bit for bit, in host
// memory copied a piece at a time and in device memory in place; host memory is refused.
TEST(Api, Gapi1OnTheDeviceHasTheCpusBits) {
    GAEVAL_REQUIRE_DEVICE_OR_SKIP();
    const Backend gpu = Backend::cuda();
    for (const char* name : {"demo_10v10", "line_20v20"}) {
        const PileInScenario s = PileInScenario::load(name);
        const uint64_t n = gaeval::testing::gpu_test_size<uint64_t>(70001, 4099);
        std::vector<uint32_t> plans;
        std::vector<float> expected;
        population_plans(s, n, 13, plans, expected);
        std::vector<float> copied(n, -1.0f), in_place(n, -1.0f);
        gaeval::evaluate_gapi1(gpu, s, plans.data(), n, copied.data());
        EXPECT_EQ(std::memcmp(copied.data(), expected.data(), n * sizeof(float)), 0) << name;
        gaeval::DeviceBuffer d_plans(gpu, plans.size() * 4), d_fitness(gpu, n * 4);
        d_plans.upload(plans.data(), plans.size() * 4);
        gaeval::evaluate_gapi1_device(gpu, s, static_cast<const uint32_t*>(d_plans.data()), n,
                                      static_cast<float*>(d_fitness.data()));
        d_fitness.download(in_place.data(), n * 4);
        EXPECT_EQ(std::memcmp(in_place.data(), expected.data(), n * sizeof(float)), 0) << name;
        EXPECT_THROW(gaeval::evaluate_gapi1_device(gpu, s, plans.data(), n,
                                                   static_cast<float*>(d_fitness.data())),
                     gaeval::InputError);
    }
}

TEST(Api, ScenariosByNameOrPathAndTheirErrors) {
    const PileInScenario by_name = PileInScenario::load("demo_10v10");
    const PileInScenario by_path =
        PileInScenario::load(std::string(GAEVAL_SOURCE_DIR) + "/scenarios/demo_10v10.json");
    EXPECT_EQ(by_name.name(), by_path.name());
    EXPECT_EQ(by_name.friendly_count(), 10);
    try {
        PileInScenario::load("no_such_scenario");
        FAIL() << "no error";
    } catch (const gaeval::InputError& e) {
        EXPECT_NE(std::string(e.what()).find("'no_such_scenario': no such file"), std::string::npos)
            << e.what();
    }
    EXPECT_THROW(PileInScenario::parse("{\"units\": \"mm\"}", "mine"), gaeval::InputError);
    EXPECT_THROW(PileInScenario::parse("{", "mine"), gaeval::InputError);
}

TEST(Api, PerftMatchesPublishedCounts) {
    const gaeval::Game ttt = gaeval::Game::open("tictactoe");
    EXPECT_EQ(ttt.perft(9, Backend::cpu(2)), 127872u);
    const gaeval::Game ataxx = gaeval::Game::open("ataxx");
    EXPECT_EQ(ataxx.perft(3, Backend::cpu(2)), 6460u);  // tests/data/ataxx_perft.md, startpos
    EXPECT_THROW(ataxx.perft(-1, Backend::cpu(1)), gaeval::InputError);
    EXPECT_THROW(gaeval::Game::open("chess"), gaeval::InputError);
    EXPECT_THROW(gaeval::Game::open("ataxx", {{"colour", "red"}}), gaeval::InputError);
}

TEST(Api, PlayPairingsInPiecesPlaysTheOneBatchsGames) {
    const gaeval::Game ttt = gaeval::Game::open("tictactoe");
    const std::vector<gaeval::GamePlayer> players = {gaeval::GamePlayer::random(),
                                                     gaeval::GamePlayer::builtin(1)};
    std::vector<gaeval::GamePairing> pairings;
    std::vector<gaeval::games::PlayerData> data(2);
    data[1].kind = gaeval::PlayerKind::Policy;
    data[1].policy = 1;
    std::vector<gaeval::Pairing> typed;
    for (uint32_t i = 0; i < (1u << 16) + 300; ++i) {
        pairings.push_back({i % 2, 1 - i % 2, static_cast<uint8_t>(i % 3 == 0)});
        typed.push_back(
            gaeval::Pairing{pairings.back().a, pairings.back().b, pairings.back().a_seat});
    }
    int calls = 0;
    const auto api =
        ttt.play_pairings(players, pairings, 21, 50, Backend::cpu(2), [&] { ++calls; });
    EXPECT_EQ(calls, 1);
    const auto one =
        ttt.impl().session->play_pairings(data, typed, 21, 50, gaeval::resolve_backend("cpu", 2));
    ASSERT_EQ(api.size(), one.size());
    for (std::size_t i = 0; i < one.size(); ++i) {
        ASSERT_EQ(api[i].move_hash, one[i].move_hash) << i;
        ASSERT_EQ(api[i].a_result, one[i].a_result) << i;
        ASSERT_EQ(api[i].plies, one[i].plies) << i;
    }
}

TEST(Api, BadPlayersAndPairingsAreInputErrors) {
    const gaeval::Game ataxx = gaeval::Game::open("ataxx");
    const auto cpu = Backend::cpu(1);
    EXPECT_THROW(
        ataxx.play_pairings({gaeval::GamePlayer::weighted({1.0f}), gaeval::GamePlayer::random()},
                            {{0, 1, 0}}, 1, 100, cpu),
        gaeval::InputError);
    EXPECT_THROW(ataxx.play_pairings({gaeval::GamePlayer::random()}, {{0, 1, 0}}, 1, 100, cpu),
                 gaeval::InputError);
    EXPECT_THROW(
        ataxx.play_pairings({gaeval::GamePlayer::builtin(99), gaeval::GamePlayer::random()},
                            {{0, 1, 0}}, 1, 100, cpu),
        gaeval::InputError);
    EXPECT_THROW(Backend::from_name("tpu"), gaeval::InputError);
}

TEST(Api, LearnGivesTheWeightsOfRunLearn) {
    const gaeval::Game ataxx = gaeval::Game::open("ataxx");
    gaeval::LearnSettings settings;
    settings.population = 6;
    settings.generations = 3;
    settings.seed = 5;
    settings.max_plies = 60;
    std::vector<uint32_t> seen;
    const std::vector<float> weights =
        ataxx.learn(settings, Backend::cpu(2), [&](const gaeval::LearnGeneration& g) {
            seen.push_back(g.generation);
            EXPECT_GT(g.games, 0u);
            return true;
        });
    EXPECT_EQ(seen, (std::vector<uint32_t>{1, 2, 3}));
    ASSERT_EQ(weights.size(), ataxx.weight_names().size());

    // The engine's own driver (`gaeval learn`'s) on the same configuration.
    gaeval::learn::LearnJob job;
    job.config = gaeval::learn::default_config(gaeval::learn::kDefaultScheme,
                                               static_cast<uint32_t>(weights.size()));
    job.config.population = 6;
    job.config.generations = 3;
    job.config.seed = 5;
    job.config.max_plies = 60;
    job.session = gaeval::games::find_game("ataxx").open({});
    job.backend = gaeval::resolve_backend("cpu", 1);
    job.verify_games = 0;
    job.panel_games = 0;
    job.quiet = true;
    const auto result = gaeval::learn::run_learn(job);
    EXPECT_EQ(result.state.best_weights, weights);

    int calls = 0;
    ataxx.learn(settings, Backend::cpu(1),
                [&](const gaeval::LearnGeneration&) { return ++calls < 2; });
    EXPECT_EQ(calls, 2);
    settings.scheme = "no-such-scheme";
    EXPECT_THROW(ataxx.learn(settings, Backend::cpu(1)), gaeval::InputError);
}

}  // namespace
