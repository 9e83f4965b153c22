#include "bench/islands_bench.hpp"

#include <chrono>
#include <cstdio>

#include "bench/pile_in_bench.hpp"
#include "host/core/hash.hpp"
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

}  // namespace

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
