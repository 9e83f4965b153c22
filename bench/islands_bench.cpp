#include "bench/islands_bench.hpp"

#include <chrono>
#include <cstdio>

#include "bench/pile_in_bench.hpp"
#include "host/core/error.hpp"
#include "host/core/hash.hpp"
#include "host/games/registry.hpp"
#include "host/islands/learn_islands.hpp"
#include "host/islands/pile_in_islands.hpp"

namespace gaeval::bench {

namespace {

constexpr uint32_t kGenerations = 4;

void islands_rows(const Axes& axes, std::vector<Row>& rows, uint64_t* signature) {
    for (uint64_t population : axes.populations)
        for (int models : axes.models)
            for (const BenchBackend& backend : bench_backends(axes.backends)) {
                const bool first = backend.label == bench_backends(axes.backends).front().label;
                for (uint32_t count : {1u, 2u}) {
                    pile_in::PileInJob job;
                    job.scenario.scenario = pile_in_bench_scenario(models);
                    job.scenario.name = "bench";
                    job.ga.population = population / count;
                    job.ga.generations = kGenerations;
                    job.ga.seed = 1;
                    job.backend = backend.choice;
                    job.quiet = true;
                    islands::IslandConfig config;
                    config.count = count;
                    config.migrate_every = 1;
                    config.migrants = 10;
                    char size[96];
                    std::snprintf(size, sizeof size, "islands=%u pop=%s%.0e models=%dv%d", count,
                                  count > 1 ? "2x" : "", double(job.ga.population), models, models);
                    float best = 0;
                    if (axes.signature_only) {  // the results once, nothing timed
                        islands::LocalTransport transport;
                        best = islands::run_pile_in_islands(job, config, transport)
                                   .job.best.breakdown.fitness;
                        *signature = fnv1a(&best, sizeof best, *signature);
                        continue;
                    }
                    Row row = measure(
                        axes.settings, "islands pile-in", size, backend.label,
                        double(job.ga.population) * count * kGenerations, "plans/s", [&] {
                            islands::LocalTransport transport;
                            const auto t0 = std::chrono::steady_clock::now();
                            const auto r = islands::run_pile_in_islands(job, config, transport);
                            Sample s;
                            s.seconds =
                                std::chrono::duration<double>(std::chrono::steady_clock::now() - t0)
                                    .count();
                            best = r.job.best.breakdown.fitness;
                            return s;
                        });
                    char note[64];
                    std::snprintf(note, sizeof note, "best fitness %.2f after %u generations", best,
                                  kGenerations);
                    row.note = note;
                    rows.push_back(row);
                    if (first) *signature = fnv1a(&best, sizeof best, *signature);
                }
            }
}

// One generation of 16 islands of 24 members (learn's default scheme, round-robin:2: 552 Ataxx
// games an island, 8832 in all), the islands' games gathered into one backend call, and the same
// generation with one call per island (the path it replaced): the GPU's gain is the gathering.
void islands_learn_rows(const Axes& axes, std::vector<Row>& rows, uint64_t* signature) {
    const std::vector<uint64_t> counts =
        axes.populations.empty() ? std::vector<uint64_t>{16} : axes.populations;
    const games::GameEntry& game = games::find_game("ataxx");
    for (uint64_t count : counts) {
        if (count < 1 || count > 4096)
            throw InputError("--population " + std::to_string(count) +
                             ": islands-learn takes 1 to 4096 islands");
        learn::LearnJob job;
        job.session = game.open_setup(game.bench_cases().tournament_setup, "bench case");
        job.config =
            learn::default_config(learn::kDefaultScheme, uint32_t(game.info().weight_names.size()));
        job.config.population = 24;
        job.config.tournament = learn::parse_tournament("round-robin:2");
        job.config.generations = 1;
        if (game.bench_cases().tournament_max_plies > 0)
            job.config.max_plies = game.bench_cases().tournament_max_plies;
        job.verify_games = 0;
        job.panel_games = 0;
        job.quiet = true;
        islands::IslandConfig config;
        config.count = static_cast<uint32_t>(count);
        const uint64_t games = learn::games_per_generation(job.config) * count;
        for (const islands::IslandPlay how :
             {islands::IslandPlay::Gathered, islands::IslandPlay::PerIsland}) {
            const bool gathered = how == islands::IslandPlay::Gathered;
            uint64_t not_signed = kFnvOffset;  // the per-island rows: checked, not signed
            CaseResults results(gathered ? signature : &not_signed);
            for (const BenchBackend& backend : bench_backends(axes.backends)) {
                job.backend = backend.choice;
                std::vector<float> best;
                const auto run = [&] {
                    islands::LocalTransport transport;
                    best = islands::run_learn_islands(job, config, transport, how).best_weights;
                };
                const std::string size = "islands=" + std::to_string(count) +
                                         " members=24 games=" + std::to_string(games) +
                                         (gathered ? " one call" : " a call per island");
                Row row = measure(axes.signature_only ? signature_settings() : axes.settings,
                                  "islands learn generation", size, backend.label, double(games),
                                  "games/s", [&] {
                                      Sample s;
                                      s.seconds = time_seconds(run);
                                      return s;
                                  });
                row.note = "ataxx, modern round-robin:2, " +
                           std::string(gathered ? "the islands' games in one backend call"
                                                : "one backend call per island");
                results.add(row, fnv1a(best.data(), best.size() * sizeof(float)));
                rows.push_back(row);
            }
        }
    }
}

}  // namespace

Workload islands_learn_workload() {
    Workload w;
    w.name = "islands-learn";
    w.summary =
        "learn: one generation of N islands x 24 Ataxx members, gathered into one backend call "
        "vs a call per island (games/s)";
    w.defaults.populations = {16};
    w.opt_in = true;
    w.run = islands_learn_rows;
    return w;
}

Workload islands_workload() {
    Workload w;
    w.name = "islands";
    w.summary = "pile-in: one population of N plans vs 2 islands of N/2 in one process (plans/s)";
    w.defaults.populations = {20000};
    w.defaults.models = {20};
    w.opt_in = true;
    w.run = islands_rows;
    return w;
}

}  // namespace gaeval::bench
