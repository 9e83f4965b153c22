// The generation loop for pile-in, written once against the Population interface: evaluate,
// rank, report, breed. Backend-independent: the same seed gives the same reports on any
// backend and any thread count.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "host/pile_in/population.hpp"
#include "problems/pile_in/gapi1_fitness.hpp"
#include "problems/pile_in/rules.hpp"
#include "problems/pile_in/scenario.hpp"

namespace gaeval::pile_in {

struct GaConfig {
    uint64_t population = 200;
    uint32_t generations = 500;
    double crossover = 0.8;  // share of the population eliminated and refilled by children
    double mutation = 0.2;   // per-gene probability of a fresh random move
    uint64_t seed = 1;
};

// S = N - round(crossover * N). InputError when a rate is outside [0, 1], N < 2, G < 1, or
// no plan would survive (crossover 1.0, as the seed says).
uint64_t survivor_count(const GaConfig& config);
void validate(const GaConfig& config);

struct BestPlan {
    bool valid = false;
    uint32_t generation = 0;  // first generation in which this plan scored this fitness
    std::vector<uint32_t> genes;
    Breakdown breakdown;
};

struct GenerationReport {
    uint32_t generation = 0;
    GenerationStats stats;
    Breakdown best_of_generation;
    double seconds = 0;  // wall time of this generation (evaluate to breed)
    PhaseTimes phases;   // this generation's split
};

// Host rescoring of one plan with the fitness its population uses: GAPI1 on the scenario, or
// the rules fitness when `rules` is set (repair mode: the score of the repaired plan).
Breakdown score_plan(const Scenario& scenario, const RulesProblem* rules,
                     const std::vector<uint32_t>& genes);

class Engine {
  public:
    // GAPI1 on `scenario`.
    Engine(const Scenario& scenario, const GaConfig& config, Population& population);
    // A rules preset (the population must have been made from the same problem).
    Engine(const RulesProblem& problem, const GaConfig& config, Population& population);

    // Generation 0: random plans.
    void start();
    // Continue from a checkpoint: the population of `next_generation` and the best so far.
    void resume(uint32_t next_generation, const std::vector<uint32_t>& genes, const BestPlan& best);

    // Evaluates and ranks the current generation, then breeds the next one.
    GenerationReport step();
    // step() in two halves, for the islands (host/islands/), which migrate between them:
    // evaluate and rank the current generation (best plan tracked), then breed the next.
    GenerationReport evaluate_generation();
    void breed_generation();
    // Evaluates and ranks the current plans again (after immigrants were written), so that
    // breeding sees their rank; the best plan is not updated.
    void rerank();

    bool done() const { return generation_ >= config_.generations; }
    uint32_t generation() const { return generation_; }  // the one step() evaluates next
    const BestPlan& best() const { return best_; }
    const GaConfig& config() const { return config_; }
    Population& population() { return population_; }

  private:
    Scenario scenario_;
    std::optional<RulesProblem> rules_;
    GaConfig config_;
    Population& population_;
    uint64_t survivors_;
    uint32_t generation_ = 0;
    BestPlan best_;
    PhaseTimes step_start_;  // population times when evaluate_generation began
};

}  // namespace gaeval::pile_in
