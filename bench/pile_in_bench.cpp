#include "bench/pile_in_bench.hpp"

#include <cstdio>
#include <memory>
#include <string>

#include "games/core/rng.hpp"
#include "games/pile_in/genome.hpp"
#include "host/backend/backend.hpp"
#include "host/backend/pile_in_population.hpp"
#include "host/ga/pile_in_rules.hpp"
#include "host/io/error.hpp"

namespace gaeval::bench {

namespace {

using pile_in::Population;

std::string count_text(uint64_t n) {
    int exponent = 0;
    uint64_t v = n;
    while (v >= 10 && v % 10 == 0) {
        v /= 10;
        ++exponent;
    }
    if (v == 1 && exponent >= 3) return "1e" + std::to_string(exponent);
    return std::to_string(n);
}

// Random plans written from the host (the rules' generation 0 builds half its plans, which
// would dominate the set-up time): GAPI1's random moves, a random move order (Fisher-Yates),
// random oval directions.
void write_random_plans(Population& pop, int models, const pile_in::PlanLayout* layout) {
    const uint64_t n = pop.size();
    const int words = pop.gene_count();
    std::vector<uint32_t> genes(static_cast<std::size_t>(n) * words);
    std::vector<uint32_t> order(models);
    for (uint64_t i = 0; i < n; ++i) {
        const uint32_t i32 = static_cast<uint32_t>(i);
        for (int m = 0; m < models; ++m)
            genes[m * n + i] = pile_in::pack_move(
                pile_in::random_move(17, Purpose::InitMove, 0, i32, static_cast<uint32_t>(m)));
        if (!layout) continue;
        if (layout->order >= 0) {
            for (int q = 0; q < models; ++q) order[q] = static_cast<uint32_t>(q);
            for (int q = models - 1; q > 0; --q)
                std::swap(
                    order[q],
                    order[below(
                        philox(17, Purpose::InitOrder, 0, i32, static_cast<uint32_t>(q), 0).v[0],
                        static_cast<uint32_t>(q + 1))]);
            for (int q = 0; q < models; ++q) genes[(layout->order + q) * n + i] = order[q];
        }
        if (layout->turn >= 0)
            for (int m = 0; m < models; ++m)
                genes[(layout->turn + m) * n + i] = pile_in::pack_move(
                    pile_in::random_move(17, Purpose::InitAngle, 0, i32, static_cast<uint32_t>(m)));
    }
    pop.write_genes(genes);
}

struct Fitness {
    const char* workload;
    int kind;  // 0 gapi1, 1 aos4, 2 aos4 with path checking
};
const Fitness kFitnesses[] = {{"pile-in gapi1", 0}, {"pile-in aos4", 1}, {"pile-in aos4+paths", 2}};

std::unique_ptr<Population> make(const Fitness& f, const std::string& backend, int models,
                                 uint64_t size) {
    const BackendChoice choice =
        resolve_backend(backend == "cuda" ? "cuda" : "cpu", backend == "cpu1" ? 1 : 0);
    if (f.kind == 0) {
        auto pop = pile_in::make_population(choice, pile_in_bench_scenario(models), size);
        write_random_plans(*pop, models, nullptr);
        return pop;
    }
    const pile_in::RulesProblem p = pile_in_bench_rules(models, f.kind == 2);
    auto pop = pile_in::make_population(choice, p, size);
    write_random_plans(*pop, models, &p.layout);
    return pop;
}

uint64_t fold_fitness(const Population& pop, uint64_t h) {
    std::vector<float> fitness;
    pop.read_fitness(fitness);
    return fnv1a(fitness.data(), fitness.size() * sizeof(float), h);
}

}  // namespace

pile_in::Scenario pile_in_bench_scenario(int models) {
    pile_in::Scenario s;
    const int front = (models + 1) / 2;
    for (int i = 0; i < models; ++i) {
        pile_in::Model& m = s.friendly[s.friendly_count++];
        const bool rear = i >= front;
        m.x = 32.0f * (rear ? i - front : i) + (rear ? 16.0f : 0.0f);
        m.y = rear ? -85.11f : -57.4f;
        m.base.length = m.base.width = 32;
    }
    for (int j = 0; j < models; ++j) {
        pile_in::Model& e = s.enemy[s.enemy_count++];
        e.x = 40.0f * j - 40.0f;
        e.y = 0;
        e.base.length = e.base.width = 32;
        if (j % 5 == 2) {  // an oval on end toward the unit: 60 x 35, long axis along y
            e.base.length = 60;
            e.base.width = 35;
            e.base.cos_angle = 0;
            e.base.sin_angle = 1;
            e.base.shape = pile_in::BaseShape::Oval;
        }
    }
    s.reach_mm = 12.7f;
    s.coherency_mm = 12.7f;
    s.move_mm = 76.2f;
    s.move_unit_mm = s.move_mm / pile_in::MoveScale;
    return s;
}

pile_in::RulesProblem pile_in_bench_rules(int models, bool path_check) {
    pile_in::ScenarioFile file;
    file.scenario = pile_in_bench_scenario(models);
    file.rules.reach_mm = file.scenario.reach_mm;
    file.enemy_unit.assign(file.scenario.enemy_count, 0);
    pile_in::RuleOverrides flags;
    flags.path_check = path_check;
    return pile_in::build_rules_problem("aos4", file, flags);
}

void pile_in_fitness_rows(const Axes& axes, std::vector<Row>& rows, uint64_t* signature) {
    for (int models : axes.models) {
        for (uint64_t size : axes.populations) {
            const std::string size_text = "pop=" + count_text(size) +
                                          " models=" + std::to_string(models) + "v" +
                                          std::to_string(models);
            const std::size_t first_row = rows.size();
            for (const Fitness& f : kFitnesses) {
                bool folded = false;
                for (const std::string& backend : axes.backends) {
                    std::unique_ptr<Population> pop;
                    try {
                        pop = make(f, backend, models, size);
                    } catch (const InputError& e) {
                        Row row;
                        row.workload = f.workload;
                        row.size = size_text;
                        row.backend = backend;
                        row.note = std::string("skipped: ") + e.what();
                        rows.push_back(row);
                        continue;
                    }
                    if (axes.signature_only) {
                        if (folded) continue;
                        pop->evaluate();
                        if (signature) *signature = fold_fitness(*pop, *signature);
                        folded = true;
                        continue;
                    }
                    // Pilot: a thousand plans (or all) once, to skip rows far over budget.
                    const uint64_t pilot_size = size < 1000 ? size : 1000;
                    auto pilot = make(f, backend, models, pilot_size);
                    const double pilot_s = time_seconds([&] { pilot->evaluate(); });
                    const double estimate = pilot_s * static_cast<double>(size) / pilot_size;
                    if (backend != "cuda" && estimate > 20.0 * axes.settings.max_seconds) {
                        Row row;
                        row.workload = f.workload;
                        row.size = size_text;
                        row.backend = backend;
                        row.items = static_cast<double>(size);
                        row.unit = "evaluations/s";
                        char note[96];
                        std::snprintf(note, sizeof note,
                                      "skipped: about %.0f s per sample (pilot %.3g evaluations/s)",
                                      estimate, pilot_size / pilot_s);
                        row.note = note;
                        rows.push_back(row);
                        continue;
                    }
                    Row row = measure(axes.settings, f.workload, size_text, backend,
                                      static_cast<double>(size), "evaluations/s", [&] {
                                          Sample smp;
                                          smp.seconds = time_seconds([&] { pop->evaluate(); });
                                          return smp;
                                      });
                    row.bytes_per_item = (pop->gene_count() + 1) * 4.0;
                    if (!folded && signature) *signature = fold_fitness(*pop, *signature);
                    folded = true;
                    rows.push_back(row);
                }
            }
            // Cost of each rules row in GAPI1 evaluations (same backend and size).
            for (std::size_t r = first_row; r < rows.size(); ++r) {
                if (rows[r].workload == kFitnesses[0].workload || rows[r].throughput() <= 0)
                    continue;
                for (std::size_t g = first_row; g < rows.size(); ++g) {
                    if (rows[g].workload != kFitnesses[0].workload ||
                        rows[g].backend != rows[r].backend || rows[g].throughput() <= 0)
                        continue;
                    char note[64];
                    std::snprintf(note, sizeof note, "%.1fx gapi1 cost",
                                  rows[g].throughput() / rows[r].throughput());
                    rows[r].note = note;
                }
            }
        }
    }
}

Workload rules_pile_in_workload() {
    Workload w;
    w.name = "rules-pile-in";
    w.summary = "pile-in fitness evaluations/s: GAPI1 vs aos4 rules (with and without paths)";
    w.defaults.populations = {1000, 10000, 100000, 1000000};
    w.defaults.models = {10, 20, 40};
    w.run = [](const Axes& axes, std::vector<Row>& rows, uint64_t* signature) {
        pile_in_fitness_rows(axes, rows, signature);
    };
    return w;
}

}  // namespace gaeval::bench
