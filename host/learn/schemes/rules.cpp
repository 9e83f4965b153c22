// rules: the GA of the rules-accurate pile-in presets (problems/pile_in/rules_scheme.hpp, DESIGN.md
// "Pile-in") on the one engine: GAPI1's selection (host/learn/schemes/gapi1_family.hpp) with
// the rules genome's variation: the best plan cloned unmutated, memetic clones, move mutations
// of several kinds, immigrants, order crossover and swap mutation of the move order,
// orientations mutated with their move; generation 0 holds the still plan, the greedy plan and
// built plans. On problem pile-in-rules (whose setup is the rules problem the step reads) it
// runs the very RandomizeRulesPlans and RulesStep of `gaeval pile-in --rules`, so `gaeval learn
// --problem pile-in-rules --scheme rules` gives its plans, fitness and statistics
// (tests/test_problem_pile_in.cpp). On a genome without the rules' structure (a game's
// weights, a real problem, pile-in's moves) the extensions have nothing to act on: it is GAPI1.
#include "host/learn/learn_problems.hpp"
#include "host/learn/schemes/gapi1_family.hpp"
#include "problems/pile_in/rules_scheme.hpp"

namespace gaeval::learn {

namespace {

// The rules problem of a run (the setup of problem pile-in-rules); nullptr otherwise.
const pile_in::RulesProblem* rules_problem(const LearnConfig& c) {
    return c.instance ? c.instance->setup_as<pile_in::RulesProblem>() : nullptr;
}

// A member-major word population (member i's words contiguous) as the rules step's view.
pile_in::PlanView plans_of(uint32_t* words, uint32_t d) {
    return pile_in::plan_major_view(words, static_cast<int32_t>(d));
}

class Rules final : public Gapi1Family {
  public:
    const char* name() const override { return "rules"; }
    const char* description() const override {
        return "the rules-accurate pile-in GA (problem pile-in-rules): GAPI1 selection, memetic "
               "clones, immigrants, move-order crossover";
    }

    // Generation 0 of `gaeval pile-in --rules` (RandomizeRulesPlans, addressed by member; on
    // c.threads threads).
    void initialize(const LearnConfig& c, LearnState& s) const override {
        const pile_in::RulesProblem* problem = rules_problem(c);
        if (!problem) return Gapi1Family::initialize(c, s);
        const pile_in::RandomizeRulesPlans op{c.seed, *problem, plans_of(s.words.data(), c.dims())};
        parallel_for(c.population, c.threads, op);
    }

    // RulesStep's children `span` over the words ranked by `ranked` (breed_ops::BreedRules, one
    // executor call on `backend`); on a problem without the rules' setup, GAPI1.
    void breed_words_on(const BackendChoice& backend, const LearnConfig& c, uint32_t made,
                        const uint32_t* ranked, const uint32_t* src, ChildSpan span, uint32_t* dst,
                        uint8_t* hit) const override {
        const pile_in::RulesProblem* problem = rules_problem(c);
        if (!problem)
            return Gapi1Family::breed_words_on(backend, c, made, ranked, src, span, dst, hit);
        const uint32_t d = c.dims();
        pile_in::Gapi1Step base;
        base.seed = c.seed;
        base.generation = made;
        base.population = c.population;
        base.survivors = survivor_count(c);
        base.mutation_rate = mutation_rate(c);
        base.ranked = ranked;
        // The step reads src only (PlanView has one pointer type for both).
        base.src = plans_of(const_cast<uint32_t*>(src), d);
        base.dst = plans_of(dst, d);
        const breed_ops::BreedRules op{pile_in::RulesStep{*problem, base}, hit, made_of(span)};
        for_each_index(backend, 0, span.count, op, kBreedChunk);
    }

    // Members `span` of generation 0: RandomizeRulesPlans (one executor call on `backend`).
    void initialize_words_on(const BackendChoice& backend, const LearnConfig& c, ChildSpan span,
                             uint32_t* dst) const override {
        const pile_in::RulesProblem* problem = rules_problem(c);
        if (!problem) return Gapi1Family::initialize_words_on(backend, c, span, dst);
        const pile_in::RandomizeRulesPlans op{c.seed, *problem, plans_of(dst, c.dims()),
                                              made_of(span)};
        for_each_index(backend, 0, span.count, op, kBreedChunk);
    }
};

}  // namespace

const Scheme& rules_scheme() {
    static const Rules scheme;
    return scheme;
}

}  // namespace gaeval::learn
