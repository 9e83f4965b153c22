// pile-in-rules: the rules-accurate fitness of a pile-in plan (problems/pile_in/rules_fitness.hpp:
// an edition's preset, aos1..aos4), maximised, as a problem built from a setup: the setup is the
// resolved rules problem (--rules PRESET:SCENARIO, built on the host by
// host/learn/problem_setups.cpp with the preset's defaults and the scenario file's rule
// fields), a genome the rules plan (problems/pile_in/rules.hpp: PlanLayout, a move a model, then
// the move order and base orientations where the rules use them). The same functions `gaeval
// pile-in --rules PRESET` calls, so `gaeval learn --problem pile-in-rules --scheme rules` gives
// its bits. With repair constraints scoring rewrites the plan (models sent back get a zero
// move): fitness_rewriting, which the host runs on the cpu backend (rewrites()).
#pragma once

#include <cstdint>

#include "games/core/hd.hpp"
#include "games/core/rng.hpp"
#include "problems/pile_in/gapi1_fitness.hpp"
#include "problems/pile_in/genome.hpp"
#include "problems/pile_in/rules.hpp"
#include "problems/pile_in/rules_fitness.hpp"

namespace gaeval::problems {

struct PileInRules {
    using Gene = uint32_t;
    using Setup = pile_in::RulesProblem;
    static constexpr const char* kName = "pile-in-rules";
    static constexpr const char* kDescription =
        "rules-accurate score of a pile-in plan (moves, move order, orientations), maximised";
    static constexpr bool kMaximise = true;
    static constexpr const char* kSetupFlag = "rules";
    static constexpr const char* kSetupForm = "PRESET:NAME|FILE";  // aos2:s1_line_5v5
    static constexpr uint32_t kDefaultPopulation = 200;            // gaeval pile-in's
    static constexpr const char* kOnlyScheme = "rules";  // moves, order and turns bred together

    pile_in::RulesProblem problem;

    static PileInRules from_setup(const pile_in::RulesProblem& p) { return PileInRules{p}; }
    uint32_t dimension() const { return static_cast<uint32_t>(problem.layout.words); }

    // The rules fitness of the plan (float, widened exactly): penalties, no repair.
    GAEVAL_HD double fitness(const uint32_t* genome, uint32_t /*dimension*/) const {
        return pile_in::rules_evaluate(problem, pile_in::GenomeGenes{genome}).fitness;
    }

    // Whether scoring rewrites the genome (repair constraints): then the host scores through
    // fitness_rewriting instead of fitness.
    bool rewrites() const { return problem.rules.repair; }

    // The rules fitness of the plan, which repair constraints rewrite into the plan they scored
    // (a model sent back gets move 0): pile_in::EvaluateRules on one plan-major plan, the bits
    // of `gaeval pile-in`'s populations. Without repair: fitness(), the plan unchanged.
    GAEVAL_HD double fitness_rewriting(uint32_t* genome, uint32_t /*dimension*/) const {
        return pile_in::rules_evaluate(problem, pile_in::GenomeGenes{genome},
                                       [&](int m) { genome[m] = 0u; })
            .fitness;
    }

    // A fresh random move within the move limit (the rules scheme makes whole plans itself:
    // problems/pile_in/rules_scheme.hpp).
    GAEVAL_HD uint32_t random_gene(uint64_t seed, Purpose purpose, uint32_t c0, uint32_t c1,
                                   uint32_t c2) const {
        return pile_in::pack_move(pile_in::random_move(seed, purpose, c0, c1, c2));
    }
};

}  // namespace gaeval::problems
