#include "bench/pile_in_bench.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <optional>
#include <string>

#include "games/core/rng.hpp"
#include "host/backend/backend.hpp"
#include "host/backend/parallel.hpp"
#include "host/core/error.hpp"
#include "host/learn/population_layout.hpp"
#include "host/pile_in/engine.hpp"
#include "host/pile_in/population.hpp"
#include "host/pile_in/rules.hpp"
#include "problems/pile_in/genome.hpp"

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

// Float operations the CPU backend's GAPI1 evaluator (gapi1_fitness_lanes) executes per plan of
// n models against m enemies, counted from its source: per model 8 (two conversions, two
// products and two sums for the end position; the distance sum and its max), per model and
// enemy 16 (two differences, two squares, a sum, two range tests, the bound's sum and square,
// three tests, a sqrt, a difference, a select), per friendly pair 7 (two differences, two
// squares, a sum, two tests). Integer flag and count operations are not counted.
double gapi1_float_ops(int n, int m) { return 8.0 * n + 16.0 * n * m + 7.0 * n * (n - 1) / 2.0; }

// Float operations per second one thread can execute, measured: independent 4-wide products
// and sums (no contraction, as everywhere) in 12 vector accumulators (with the scale and the
// shift they fill the 16 SSE registers; 16 spilled three to the stack), the instruction mix of the
// evaluator (gapi1_fitness_lanes, 4-wide SSE lanes) without its sqrt and tests. The empty asm
// statement ends each round, so that no compiler may interchange the loops and run one
// accumulator's dependent chain to its end before the next: the earlier scalar loop measured 0.9
// G/s on the H200 machine's Xeon and compiler (2026-11-26), a twentieth of the evaluator's own
// rate there, which is what such an interchange would give (not confirmed: its disassembly was
// not read). Measured once per process (about 0.1 s; meaningful on an otherwise idle machine).
double float_peak_per_thread() {
    static const double peak = [] {
        typedef float v4 __attribute__((vector_size(16)));
        constexpr int kVectors = 12;
        volatile float scale_in = 0.999999f, shift_in = 1e-7f;
        const v4 scale = {scale_in, scale_in, scale_in, scale_in};
        const v4 shift = {shift_in, shift_in, shift_in, shift_in};
        v4 acc[kVectors];
        for (int k = 0; k < kVectors; ++k) {
            const float a = 1.0f + static_cast<float>(4 * k);
            acc[k] = v4{a, a + 1.0f, a + 2.0f, a + 3.0f};
        }
        double best = 0;
        for (int trial = 0; trial < 15; ++trial) {  // the best of many short trials: a busy
            const long iterations = 200000;         // machine lowers some, not all of them
            const double seconds = time_seconds([&] {
                for (long i = 0; i < iterations; ++i) {
                    for (int k = 0; k < kVectors; ++k) acc[k] = acc[k] * scale + shift;
                    __asm__ __volatile__("");  // one round after another (see above)
                }
            });
            if (seconds > 0) best = std::max(best, 2.0 * 4 * kVectors * iterations / seconds);
        }
        volatile float sink = 0;
        for (int k = 0; k < kVectors; ++k)
            for (int l = 0; l < 4; ++l) sink = sink + acc[k][l];
        return best;
    }();
    return peak;
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

namespace {

constexpr uint64_t kCanonicalPlans = 1000;

Row skipped_row(const std::string& workload, const std::string& size, const std::string& backend,
                const std::string& why) {
    Row row;
    row.workload = workload;
    row.size = size;
    row.backend = backend;
    row.note = "skipped: " + why;
    return row;
}

std::string size_text(uint64_t size, int models) {
    return "pop=" + count_text(size) + " models=" + std::to_string(models) + "v" +
           std::to_string(models);
}

// The rows of one fitness on one backend whose results differ from the first backend's.
using Mismatches = std::vector<std::pair<std::string, std::string>>;

void mark(Row& row, const Mismatches& mismatches) {
    for (const auto& [label, note] : mismatches) {
        if (label != row.backend) continue;
        row.mismatch = true;
        row.note += (row.note.empty() ? "" : "; ") + note;
    }
}

}  // namespace

void pile_in_fitness_rows(const Axes& axes, std::vector<Row>& rows, uint64_t* signature) {
    const std::vector<BenchBackend> backends = bench_backends(axes.backends);
    const std::size_t first_row = rows.size();
    for (int models : axes.models) {
        for (const Fitness& f : kFitnesses) {
            // The results: a fixed set of plans scored on every backend, folded once; a backend
            // that disagrees marks its rows.
            CaseResults results(signature);
            Mismatches mismatches;
            double pilot_rate[3] = {0, 0, 0};
            for (std::size_t b = 0; b < backends.size(); ++b) {
                auto pilot = make(f, backends[b].label, models, kCanonicalPlans);
                const double seconds = time_seconds([&] { pilot->evaluate(); });
                pilot_rate[b < 3 ? b : 2] = seconds > 0 ? kCanonicalPlans / seconds : 0;
                Row check;
                check.backend = backends[b].label;
                results.add(check, fold_fitness(*pilot, 0xcbf29ce484222325ull));
                if (check.mismatch) mismatches.push_back({check.backend, check.note});
                if (axes.signature_only) break;
            }
            if (axes.signature_only) continue;
            for (uint64_t size : axes.populations) {
                for (std::size_t b = 0; b < backends.size(); ++b) {
                    const std::string& label = backends[b].label;
                    const std::string text = size_text(size, models);
                    const double estimate =
                        pilot_rate[b < 3 ? b : 2] > 0
                            ? static_cast<double>(size) / pilot_rate[b < 3 ? b : 2]
                            : 0;
                    if (label != "cuda" && estimate > 20.0 * axes.settings.max_seconds) {
                        char why[96];
                        std::snprintf(why, sizeof why,
                                      "about %.0f s per sample (%.3g evaluations/s)", estimate,
                                      pilot_rate[b < 3 ? b : 2]);
                        rows.push_back(skipped_row(f.workload, text, label, why));
                        continue;
                    }
                    std::unique_ptr<Population> pop;
                    try {
                        pop = make(f, label, models, size);
                    } catch (const InputError& e) {
                        rows.push_back(skipped_row(f.workload, text, label, e.what()));
                        continue;
                    }
                    Row row = measure(axes.settings, f.workload, text, label,
                                      static_cast<double>(size), "evaluations/s", [&] {
                                          Sample smp;
                                          smp.seconds = time_seconds([&] { pop->evaluate(); });
                                          return smp;
                                      });
                    row.bytes_per_item = (pop->gene_count() + 1) * 4.0;
                    mark(row, mismatches);
                    rows.push_back(row);
                }
            }
        }
    }
    // GAPI1 on the CPU against the machine's limit: float operations per second achieved
    // (gapi1_float_ops per evaluation) over the measured peak of the threads used.
    for (std::size_t i = first_row; i < rows.size(); ++i) {
        Row& r = rows[i];
        if (r.workload != kFitnesses[0].workload || r.throughput() <= 0) continue;
        if (r.backend != "cpu1" && r.backend != "cpu") continue;
        const std::size_t at = r.size.find("models=");
        const int models = at == std::string::npos ? 0 : std::atoi(r.size.c_str() + at + 7);
        const int threads = r.backend == "cpu1" ? 1 : default_thread_count();
        const double peak = float_peak_per_thread() * threads;
        if (models <= 0 || peak <= 0) continue;
        const double ops = gapi1_float_ops(models, models);
        const double fraction = r.throughput() * ops / peak;
        // A peak loop slower than the evaluator is a broken yardstick: no limit shown then.
        const bool trusted = fraction <= 1.0;
        if (trusted) r.fraction_of_limit = fraction;
        char note[128];
        std::snprintf(note, sizeof note,
                      trusted ? "%.0f float ops/evaluation, peak %.1f G/s"
                              : "%.0f float ops/evaluation; peak loop %.1f G/s, under the "
                                "evaluator's rate: no limit shown",
                      ops, peak / 1e9);
        r.note = note + (r.note.empty() ? std::string() : "; " + r.note);
    }
    // Cost of each rules row in GAPI1 evaluations (same backend and size).
    for (std::size_t i = first_row; i < rows.size(); ++i) {
        Row& r = rows[i];
        if (r.workload == kFitnesses[0].workload || r.throughput() <= 0) continue;
        for (std::size_t j = first_row; j < rows.size(); ++j) {
            const Row& g = rows[j];
            if (g.workload != kFitnesses[0].workload || g.backend != r.backend ||
                g.size != r.size || g.throughput() <= 0)
                continue;
            char note[64];
            std::snprintf(note, sizeof note, "%.1fx gapi1 cost", g.throughput() / r.throughput());
            r.note = note + (r.note.empty() ? std::string() : "; " + r.note);
        }
    }
}

// Times GAPI1 generations (evaluate, rank, breed) of `pop` from generation 0 as one row with
// the phase split in its note and `footprint` bytes (device bytes on cuda, host bytes on the
// CPU); nothing, with a skipped row added to `rows` instead, when a CPU generation would take
// over 20 times the row's time budget.
std::optional<Row> generation_row(const Settings& settings, const std::string& workload,
                                  const std::string& size_text, const std::string& label,
                                  Population& pop, uint64_t seed, const pile_in::GaConfig& ga,
                                  uint64_t footprint, std::vector<Row>& rows) {
    const uint64_t survivors = pile_in::survivor_count(ga);
    pop.randomize(seed);
    uint32_t generation = 0;
    auto one_generation = [&] {
        pop.evaluate();
        pop.rank();
        ++generation;
        pop.breed({seed, generation, survivors, ga.mutation});
    };
    const double pilot = time_seconds(one_generation);
    if (label != "cuda" && pilot > 20.0 * settings.max_seconds) {
        char why[64];
        std::snprintf(why, sizeof why, "about %.0f s per generation", pilot);
        rows.push_back(skipped_row(workload, size_text, label, why));
        return std::nullopt;
    }
    const pile_in::PhaseTimes before = pop.times();
    int samples = 0;
    Row row = measure(settings, workload, size_text, label, static_cast<double>(pop.size()),
                      "plans/s", [&] {
                          Sample smp;
                          smp.seconds = time_seconds(one_generation);
                          ++samples;
                          return smp;
                      });
    const pile_in::PhaseTimes after = pop.times();
    const double per = 1e3 / std::max(samples, 1);
    char note[160];
    std::snprintf(note, sizeof note,
                  "mean ms: evaluate %.3g, select %.3g, vary %.3g, statistics %.3g",
                  (after.evaluate - before.evaluate) * per, (after.select - before.select) * per,
                  (after.vary - before.vary) * per, (after.statistics - before.statistics) * per);
    row.note = note;
    row.bytes_per_item = static_cast<double>(footprint) / static_cast<double>(pop.size());
    (label == "cuda" ? row.peak_device_bytes : row.peak_host_bytes) =
        static_cast<double>(footprint);
    return row;
}

void pile_in_generation_rows(const Axes& axes, std::vector<Row>& rows, uint64_t* signature) {
    const std::vector<BenchBackend> backends = bench_backends(axes.backends);
    const uint64_t seed = 1;
    for (int models : axes.models) {
        const pile_in::Scenario scenario = pile_in_bench_scenario(models);
        pile_in::GaConfig ga;  // the defaults: crossover 0.8, mutation 0.2
        // The results: generation 0 and 1 of a fixed population on every backend (fitness and
        // genes after one breeding), folded once.
        CaseResults results(signature);
        Mismatches mismatches;
        for (const BenchBackend& backend : backends) {
            auto pop = pile_in::make_population(backend.choice, scenario, kCanonicalPlans);
            pop->randomize(seed);
            pop->evaluate();
            pop->rank();
            ga.population = kCanonicalPlans;
            pop->breed({seed, 1, pile_in::survivor_count(ga), ga.mutation});
            pop->evaluate();
            std::vector<uint32_t> genes;
            pop->read_genes(genes);
            Row check;
            check.backend = backend.label;
            results.add(check, fnv1a(genes.data(), genes.size() * 4,
                                     fold_fitness(*pop, 0xcbf29ce484222325ull)));
            if (check.mismatch) mismatches.push_back({check.backend, check.note});
            if (axes.signature_only) break;
        }
        if (axes.signature_only) continue;
        std::vector<std::pair<uint64_t, bool>> sizes;  // (size, cuda only)
        for (uint64_t size : axes.populations) sizes.push_back({size, false});
        for (uint64_t size : axes.cuda_extra_populations) sizes.push_back({size, true});
        for (const auto& [size, cuda_only] : sizes) {
            for (const BenchBackend& backend : backends) {
                if (cuda_only && backend.label != "cuda") continue;
                const std::string text = size_text(size, models);
                const std::string workload = "pile-in gapi1 generation";
                ga.population = size;
                const uint64_t survivors = pile_in::survivor_count(ga);
                std::unique_ptr<Population> pop;
                try {
                    pop = pile_in::make_population(backend.choice, scenario, size, survivors);
                } catch (const InputError& e) {
                    rows.push_back(skipped_row(workload, text, backend.label, e.what()));
                    continue;
                }
                const uint64_t footprint = pile_in::population_bytes(
                    size, models, backend.choice.kind, static_cast<double>(survivors) / size);
                std::optional<Row> row = generation_row(
                    axes.settings, workload, text, backend.label, *pop, seed, ga, footprint, rows);
                if (!row) continue;
                mark(*row, mismatches);
                rows.push_back(*row);
            }
        }
    }
}

// Resident and streamed populations side by side: the same GAPI1 generations, the streamed one
// keeping only its survivors, fitness and ranking, its plans made `size / 10` (rounded up) at a
// time (on the cpu the engine's streamed layout, host/learn/word_population.hpp; on cuda
// pile-in's own StreamedPopulation until the switch of docs/pile_in.md). The streamed row's note
// says its share of the resident row's rate.
void streamed_rows(const Axes& axes, std::vector<Row>& rows, uint64_t*) {
    const std::vector<BenchBackend> backends = bench_backends(axes.backends);
    const uint64_t seed = 1;
    for (int models : axes.models) {
        const pile_in::Scenario scenario = pile_in_bench_scenario(models);
        pile_in::GaConfig ga;                          // the defaults: crossover 0.8, mutation 0.2
        std::vector<std::pair<uint64_t, bool>> sizes;  // (size, cuda only)
        for (uint64_t size : axes.populations) sizes.push_back({size, false});
        for (uint64_t size : axes.cuda_extra_populations) sizes.push_back({size, true});
        for (const auto& [size, cuda_only] : sizes) {
            ga.population = size;
            const uint64_t survivors = pile_in::survivor_count(ga);
            const uint64_t chunk = (size + 9) / 10;
            const std::string text = size_text(size, models);
            for (const BenchBackend& backend : backends) {
                if (cuda_only && backend.label != "cuda") continue;
                const bool cpu = backend.choice.kind == BackendKind::Cpu;
                const std::string resident_name = "pile-in gapi1 generation, resident";
                const std::string streamed_name =
                    "pile-in gapi1 generation, streamed (chunks of " + count_text(chunk) + ")";
                double resident_rate = 0;
                for (const bool streamed : {false, true}) {
                    const std::string& workload = streamed ? streamed_name : resident_name;
                    std::unique_ptr<Population> pop;
                    try {
                        if (!streamed)
                            pop =
                                pile_in::make_population(backend.choice, scenario, size, survivors);
                        else if (cpu)  // the engine's streamed layout
                            pop = pile_in::make_cpu_chunked_population(scenario, size,
                                                                       backend.choice.threads,
                                                                       nullptr, chunk, false, true);
                        else
                            pop = pile_in::make_cuda_population(scenario, size, nullptr, chunk);
                    } catch (const std::exception& e) {
                        rows.push_back(skipped_row(workload, text, backend.label, e.what()));
                        continue;
                    }
                    const uint64_t footprint =
                        !streamed ? pile_in::population_bytes(size, models, backend.choice.kind,
                                                              static_cast<double>(survivors) / size)
                        : cpu     ? learn::streamed_bytes(
                                        pile_in::layout_needs(backend.choice, models, size, survivors),
                                        chunk)
                              : pile_in::streamed_population_bytes(size, models, survivors, chunk,
                                                                   backend.choice.kind);
                    std::optional<Row> row =
                        generation_row(axes.settings, workload, text, backend.label, *pop, seed, ga,
                                       footprint, rows);
                    if (!row) continue;
                    if (!streamed) {
                        resident_rate = row->throughput();
                    } else if (resident_rate > 0) {
                        char share[48];
                        std::snprintf(share, sizeof share, "%.0f%% of resident; ",
                                      100.0 * row->throughput() / resident_rate);
                        row->note = share + row->note;
                    }
                    rows.push_back(*row);
                }
            }
        }
    }
}

Workload streamed_workload() {
    Workload w;
    w.name = "streamed";
    w.summary = "pile-in: resident vs streamed populations (survivors kept), plans/s and phases";
    w.defaults.populations = {100000};
    w.defaults.models = {20};
    w.defaults.cuda_extra_populations = {10000000, 100000000};
    w.opt_in = true;
    w.run = streamed_rows;
    return w;
}

Workload pile_in_workload() {
    Workload w;
    w.name = "pile-in";
    w.summary = "GAPI1 generations (evaluate, rank, breed): plans/s, phase split, bytes per plan";
    w.defaults.populations = {10000, 100000};
    w.defaults.models = {20};
    w.defaults.cuda_extra_populations = {1000000, 10000000, 100000000};
    w.run = pile_in_generation_rows;
    return w;
}

Workload rules_pile_in_workload() {
    Workload w;
    w.name = "rules-pile-in";
    w.summary = "pile-in fitness evaluations/s: GAPI1 vs aos4 rules (with and without paths)";
    // The default run stays near a minute on a small CPU; the full characterisation:
    // gaeval bench --what rules-pile-in --population 1e3,1e4,1e5,1e6 --models 10,20,40
    w.defaults.populations = {10000};
    w.defaults.models = {20};
    w.run = [](const Axes& axes, std::vector<Row>& rows, uint64_t* signature) {
        pile_in_fitness_rows(axes, rows, signature);
    };
    return w;
}

}  // namespace gaeval::bench
