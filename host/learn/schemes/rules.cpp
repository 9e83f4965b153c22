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
pile_in::PlanView plans_of(std::vector<uint32_t>& words, uint32_t d) {
    return pile_in::plan_major_view(words.data(), static_cast<int32_t>(d));
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
        const pile_in::RandomizeRulesPlans op{c.seed, *problem, plans_of(s.words, c.dims())};
        parallel_for(c.population, c.threads, op);
    }

    // RulesStep over the words ranked by `order`, places on c.threads threads; returns its
    // mutants (RulesStep::make).
    uint32_t breed_ranked(const LearnConfig& c, uint32_t made, const std::vector<uint32_t>& order,
                          LearnState& s) const override {
        const pile_in::RulesProblem* problem = rules_problem(c);
        if (!problem) return Gapi1Family::breed_ranked(c, made, order, s);
        const uint32_t n = c.population, d = c.dims();
        std::vector<uint32_t>& next = s.spare_words;
        next.resize(size_t(n) * d);
        pile_in::Gapi1Step base;
        base.seed = c.seed;
        base.generation = made;
        base.population = n;
        base.survivors = survivor_count(c);
        base.mutation_rate = mutation_rate(c);
        base.ranked = order.data();
        base.src = plans_of(s.words, d);
        base.dst = plans_of(next, d);
        const pile_in::RulesStep step{*problem, base};
        std::vector<uint8_t> hit(n);
        parallel_for_chunks(
            n, c.threads, [&](int64_t k) { hit[k] = step.make(uint64_t(k), uint64_t(k)); },
            kBreedChunk);
        uint32_t mutants = 0;
        for (uint8_t h : hit) mutants += h;
        s.words.swap(next);
        return mutants;
    }
};

}  // namespace

const Scheme& rules_scheme() {
    static const Rules scheme;
    return scheme;
}

}  // namespace gaeval::learn
