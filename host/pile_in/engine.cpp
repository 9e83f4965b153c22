#include "host/pile_in/engine.hpp"

#include <chrono>
#include <cmath>
#include <string>

#include "host/core/error.hpp"
#include "problems/pile_in/rules_fitness.hpp"

namespace gaeval::pile_in {

uint64_t survivor_count(const GaConfig& c) {
    const uint64_t eliminated = static_cast<uint64_t>(std::llround(c.crossover * c.population));
    return c.population - eliminated;
}

void validate(const GaConfig& c) {
    if (c.population < 2)
        throw InputError("--population: must be at least 2, got " + std::to_string(c.population));
    if (c.generations < 1)
        throw InputError("--generations: must be at least 1, got " + std::to_string(c.generations));
    if (!(c.crossover >= 0.0 && c.crossover <= 1.0))
        throw InputError("--crossover: must be in [0, 1], got " + std::to_string(c.crossover));
    if (!(c.mutation >= 0.0 && c.mutation <= 1.0))
        throw InputError("--mutation: must be in [0, 1], got " + std::to_string(c.mutation));
    if (survivor_count(c) < 1)
        throw InputError("--crossover " + std::to_string(c.crossover) + " with population " +
                         std::to_string(c.population) +
                         " eliminates every plan: no survivors to breed from (lower it)");
}

Breakdown score_plan(const Scenario& scenario, const RulesProblem* rules,
                     const std::vector<uint32_t>& genes) {
    if (rules) return rules_evaluate(*rules, GenomeGenes{genes.data()});
    return gapi1_evaluate(scenario, GenomeGenes{genes.data()});
}

Engine::Engine(const Scenario& scenario, const GaConfig& config, Population& population)
    : scenario_(scenario), config_(config), population_(population) {
    validate(config_);
    survivors_ = survivor_count(config_);
}

Engine::Engine(const RulesProblem& problem, const GaConfig& config, Population& population)
    : Engine(problem.scenario, config, population) {
    rules_ = problem;
}

void Engine::start() {
    population_.randomize(config_.seed);
    generation_ = 0;
    best_ = BestPlan{};
}

void Engine::resume(uint32_t next_generation, const std::vector<uint32_t>& genes,
                    const BestPlan& best) {
    population_.write_genes(genes);
    generation_ = next_generation;
    best_ = best;
}

GenerationReport Engine::evaluate_generation() {
    using clock = std::chrono::steady_clock;
    const auto t0 = clock::now();
    step_start_ = population_.times();

    GenerationReport report;
    report.generation = generation_;
    population_.evaluate();
    report.stats = population_.rank();

    // The best plan of this generation, rescored on the host by the same function: the
    // breakdown is what the kernel computed, term by term.
    std::vector<uint32_t> genes(population_.gene_count());
    population_.read_plan(report.stats.best_index, genes.data());
    report.best_of_generation = score_plan(scenario_, rules_ ? &*rules_ : nullptr, genes);
    if (!best_.valid || report.stats.best > best_.breakdown.fitness) {
        best_.valid = true;
        best_.generation = generation_;
        best_.genes = genes;
        best_.breakdown = report.best_of_generation;
    }
    report.seconds = std::chrono::duration<double>(clock::now() - t0).count();
    return report;
}

void Engine::rerank() {
    population_.evaluate();
    population_.rank();
}

void Engine::breed_generation() {
    BreedParams params;
    params.seed = config_.seed;
    params.generation = generation_ + 1;
    params.survivors = survivors_;
    params.mutation_rate = config_.mutation;
    population_.breed(params);
    ++generation_;
}

GenerationReport Engine::step() {
    using clock = std::chrono::steady_clock;
    const auto t0 = clock::now();
    GenerationReport report = evaluate_generation();
    const PhaseTimes before = step_start_;
    breed_generation();

    const PhaseTimes after = population_.times();
    report.phases.evaluate = after.evaluate - before.evaluate;
    report.phases.select = after.select - before.select;
    report.phases.vary = after.vary - before.vary;
    report.phases.statistics = after.statistics - before.statistics;
    report.seconds = std::chrono::duration<double>(clock::now() - t0).count();
    return report;
}

}  // namespace gaeval::pile_in
