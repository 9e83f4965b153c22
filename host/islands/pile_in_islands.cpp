#include "host/islands/pile_in_islands.hpp"

#include <filesystem>
#include <map>
#include <memory>
#include <optional>

#include "host/core/error.hpp"
#include "host/core/hash.hpp"
#include "host/core/progress.hpp"
#include "host/io/run_folder.hpp"
#include "host/pile_in/output.hpp"
#include "host/pile_in/population.hpp"

namespace gaeval::islands {

namespace fs = std::filesystem;
using pile_in::BestPlan;
using pile_in::Engine;
using pile_in::Population;
using pile_in::RulesProblem;
using pile_in::Scenario;

namespace {

class PileInIslands : public IslandGa {
  public:
    PileInIslands(const pile_in::PileInJob& job, const Scenario& scenario,
                  const RulesProblem* rules)
        : job_(job), scenario_(scenario), rules_(rules) {}

    // Makes the population and engine of every island this rank owns (memory checked first).
    void make(uint32_t island) {
        Island& x = islands_[island];
        const uint64_t survivors = pile_in::survivor_count(job_.ga);
        x.population =
            rules_
                ? pile_in::make_population(job_.backend, *rules_, job_.ga.population, survivors)
                : pile_in::make_population(job_.backend, scenario_, job_.ga.population, survivors);
        pile_in::GaConfig ga = job_.ga;
        ga.seed = island_seed(job_.ga.seed, island);
        x.engine = rules_ ? std::make_unique<Engine>(*rules_, ga, *x.population)
                          : std::make_unique<Engine>(scenario_, ga, *x.population);
    }

    void start(uint32_t island) override { islands_.at(island).engine->start(); }

    IslandRow evaluate(uint32_t island) override {
        Island& x = islands_.at(island);
        const pile_in::GenerationReport r = x.engine->evaluate_generation();
        x.last = r;
        IslandRow row;
        row.best = r.stats.best;
        row.mean = r.stats.mean;
        return row;
    }

    std::vector<double> fitness(uint32_t island) override {
        std::vector<float> f;
        islands_.at(island).population->read_fitness(f);
        return std::vector<double>(f.begin(), f.end());
    }

    std::vector<uint32_t> genome(uint32_t island, uint64_t member) override {
        Population& p = *islands_.at(island).population;
        std::vector<uint32_t> words(p.gene_count());
        p.read_plan(member, words.data());
        return words;
    }

    void immigrate(uint32_t island, const std::vector<int64_t>& slots,
                   const std::vector<Migrant>& in) override {
        if (slots.empty()) return;
        Island& x = islands_.at(island);
        std::vector<uint32_t> genes;
        x.population->read_genes(genes);
        const uint64_t n = x.population->size();
        for (size_t j = 0; j < slots.size(); ++j)
            for (size_t g = 0; g < in[j].words.size(); ++g)
                genes[g * n + uint64_t(slots[j])] = in[j].words[g];
        x.population->write_genes(genes);
        x.engine->rerank();
    }

    std::string generations_header() const override { return pile_in::kGenerationsCsvHeader; }
    // Every --log-every-th generation and the last, as in a one-population run.
    std::string generation_line(uint32_t island) override {
        Island& x = islands_.at(island);
        const uint32_t g = x.last.generation;
        if (job_.log_every > 1 && (g + 1) % job_.log_every != 0 && g + 1 != job_.ga.generations)
            return "";
        return pile_in::generations_csv_row(x.last, job_.ga.population,
                                            x.engine->best().breakdown.fitness);
    }

    void advance(uint32_t island) override { islands_.at(island).engine->breed_generation(); }

    Migrant best(uint32_t island) override {
        const BestPlan& b = islands_.at(island).engine->best();
        return Migrant{island, b.breakdown.fitness, b.genes, b.generation};
    }

    void save(uint32_t island, Checkpoint& c, const std::string& p) override {
        Island& x = islands_.at(island);
        std::vector<uint32_t> genes;
        x.population->read_genes(genes);
        const BestPlan& b = x.engine->best();
        c.put(p + "population", genes);
        c.put(p + "best", b.genes);
        c.put(p + "meta",
              std::vector<uint32_t>{x.engine->generation(), b.valid ? 1u : 0u, b.generation});
    }

    void load(uint32_t island, const Checkpoint& c, const std::string& p,
              const std::string& origin) override {
        Island& x = islands_.at(island);
        std::vector<uint32_t> genes, meta;
        BestPlan best;
        c.get(p + "population", genes, origin);
        c.get(p + "best", best.genes, origin);
        c.get(p + "meta", meta, origin);
        if (meta.size() != 3 ||
            genes.size() != job_.ga.population * uint64_t(x.population->gene_count()))
            throw InputError(origin + ": corrupt checkpoint part (island " +
                             std::to_string(island) + ")");
        best.valid = meta[1] != 0;
        best.generation = meta[2];
        if (best.valid) best.breakdown = pile_in::score_plan(scenario_, rules_, best.genes);
        x.engine->resume(meta[0], genes, best);
    }

  private:
    struct Island {
        std::unique_ptr<Population> population;
        std::unique_ptr<Engine> engine;
        pile_in::GenerationReport last;  // of the last evaluate
    };
    const pile_in::PileInJob& job_;
    Scenario scenario_;
    const RulesProblem* rules_;
    std::map<uint32_t, Island> islands_;
};

}  // namespace

uint64_t pile_in_islands_fingerprint(const pile_in::PileInJob& job, const IslandConfig& islands) {
    const std::string text = std::to_string(pile_in::job_fingerprint(job)) + "|" +
                             std::to_string(job.ga.generations) + "|" + config_json(islands).dump();
    return fnv1a(text.data(), text.size());
}

PileInIslandsResult run_pile_in_islands(const pile_in::PileInJob& job, const IslandConfig& islands,
                                        Transport& t) {
    const bool root = t.rank() == 0;
    const bool files = !job.out_dir.empty();
    Scenario scenario;
    std::optional<RulesProblem> problem;
    std::unique_ptr<PileInIslands> ga;
    agree(t, [&] {
        pile_in::validate(job.ga);
        validate(islands, job.ga.population);
        if (job.solver != "ga")
            throw InputError("--islands: only the genetic algorithm (--solver ga) has islands");
        problem = pile_in::prepare_problem(job, &scenario);
        if (files && job.resume) {
            io::check_run_folder_kind(job.out_dir, "pile-in");
            checkpoint_generation(job.out_dir, t.size(), pile_in_islands_fingerprint(job, islands));
        }
        if (files && !job.resume) io::check_run_folder_free(job.out_dir);
        ga = std::make_unique<PileInIslands>(job, scenario, problem ? &*problem : nullptr);
        for (uint32_t i = 0; i < islands.count; ++i)
            if (island_rank(i, islands.count, t.size()) == t.rank()) ga->make(i);
    });
    const RulesProblem* rules = problem ? &*problem : nullptr;
    const fs::path dir(job.out_dir);
    nlohmann::json run;
    agree(t, [&] {
        if (!root || !files) return;
        io::create_run_folder(job.out_dir);
        run = pile_in::job_manifest(job, rules, 0);
        run["islands"] = config_json(islands);
        run["transport"] = {{"name", t.name()}, {"ranks", t.size()}};
        io::write_text_atomic((dir / "run.json").string(), run.dump(2) + "\n");
    });

    ArchipelagoJob a;
    a.islands = islands;
    a.generations = job.ga.generations;
    a.fingerprint = pile_in_islands_fingerprint(job, islands);
    a.out_dir = job.out_dir;
    a.resume = job.resume;
    a.quiet = job.quiet;
    a.label = "pile-in islands";
    a.picture = "islands.svg";
    a.picture_title = "gaeval pile-in islands: " + job.scenario.name + ", " +
                      std::to_string(islands.count) + " islands of " +
                      std::to_string(job.ga.population) + ", seed " + std::to_string(job.ga.seed);
    a.checkpoint_every_seconds = job.checkpoint_every_seconds;
    PileInIslandsResult result;
    result.archipelago = run_archipelago(*ga, t, a);
    const ArchipelagoResult& r = result.archipelago;
    pile_in::JobResult& out = result.job;
    out.generations_done = r.generation;
    out.interrupted = r.interrupted;
    out.seconds = r.seconds;
    out.best.valid = !r.best.words.empty();
    out.best.genes = r.best.words;
    out.best.generation = r.best.generation;
    if (out.best.valid) out.best.breakdown = pile_in::score_plan(scenario, rules, out.best.genes);
    if (!root || !files) return result;
    if (out.best.valid && !r.interrupted) pile_in::write_best_outputs(job, scenario, rules, out);
    run["status"] = r.interrupted ? "interrupted" : "complete";
    run["finished"] = iso_time_now();
    run["result"] = pile_in::result_json(job, out);
    run["result"]["best_island"] = r.best.from;
    io::write_text_atomic((dir / "run.json").string(), run.dump(2) + "\n");
    return result;
}

}  // namespace gaeval::islands
