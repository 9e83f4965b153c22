// GAPI1 on the one engine, what the gapi1 and rules schemes share (host/learn/schemes/gapi1.cpp,
// rules.cpp): selection, replacement and variation, flags, defaults and checks. With N members
// ranked best first and E = round(crossover x N) eliminated, S = N - E survive; place k < S
// gets a clone of the k-th best, place k >= S a child of two parents drawn uniformly among the
// S survivors (no fitness weighting), each gene from either parent with probability 1/2; then
// every gene of every place is replaced, with probability `mutation`, by a fresh random gene. A
// fresh gene is the problem's random_gene on word genomes (pile-in: a random move within the
// limit), uniform in the init range on real genes (games, real problems).
//
// The places are bred by the one GAPI1 rule that `gaeval pile-in`'s population breeds with
// (problems/pile_in/gapi1_scheme.hpp: Gapi1Rule), every draw addressed by (generation being made,
// place, gene): so `gaeval learn --problem pile-in --scheme gapi1` gives the plans, fitness and
// statistics of `gaeval pile-in` with the same seed and settings (tests/
// test_problem_pile_in.cpp). The generation's mean value is the seed's statistic: the exact
// mean of the values' 2^-16 fixed-point images (host/backend/cpu_ranking.hpp: fixed_point_sum).
#pragma once

#include <cmath>
#include <string>
#include <vector>

#include "games/core/rng.hpp"
#include "generated/problem_list.hpp"
#include "host/backend/backend_array.hpp"
#include "host/backend/cpu_ranking.hpp"
#include "host/backend/executor.hpp"
#include "host/backend/parallel.hpp"
#include "host/core/error.hpp"
#include "host/io/json_fields.hpp"
#include "host/learn/learn_problems.hpp"
#include "host/learn/scheme.hpp"
#include "host/learn/word_population.hpp"
#include "kernels/breed_ops.hpp"
#include "problems/pile_in/gapi1_scheme.hpp"

namespace gaeval::learn {

class Gapi1Family : public Scheme {
  public:
    static constexpr double kDefaultCrossover = 0.8, kDefaultMutation = 0.2;
    // Places per chunk when breeding on several threads (word genomes: the executor's dynamic
    // chunks; real genes: dealt round-robin).
    static constexpr int kBreedChunk = 64;

    static double param(const LearnConfig& c, const char* name, double fallback) {
        const auto it = c.params.find(name);
        return it == c.params.end() ? fallback : it->second;
    }
    static double eliminated_share(const LearnConfig& c) {
        return param(c, "crossover", kDefaultCrossover);
    }
    static double mutation_rate(const LearnConfig& c) {
        return param(c, "mutation", kDefaultMutation);
    }
    // S = N - round(crossover x N) (pile-in's survivor_count).
    static uint32_t survivor_count(const LearnConfig& c) {
        return c.population -
               static_cast<uint32_t>(std::llround(eliminated_share(c) * c.population));
    }

    std::vector<SchemeOption> options() const override {
        return {
            tournament_option(),
            {"crossover", "share eliminated and refilled by children (0.8)",
             [](LearnConfig& c, const std::string& t, const games::GameInfo&) {
                 c.params["crossover"] = parse_real_flag("crossover", t);
             }},
            {"mutation", "per-gene probability of a fresh gene (0.2)",
             [](LearnConfig& c, const std::string& t, const games::GameInfo&) {
                 c.params["mutation"] = parse_real_flag("mutation", t);
             }},
            {"init-range", "LOW:HIGH of the first weights and fresh genes (-1:1)",
             [](LearnConfig& c, const std::string& t, const games::GameInfo&) {
                 parse_init_range(c, t);
             }},
        };
    }

    void set_defaults(LearnConfig& c) const override {
        c.population = 24;
        c.params["crossover"] = kDefaultCrossover;
        c.params["mutation"] = kDefaultMutation;
    }

    void validate(const LearnConfig& c) const override {
        validate_tournament(c);
        const double crossover = eliminated_share(c), mutation = mutation_rate(c);
        if (!(crossover >= 0 && crossover <= 1))
            throw InputError("--crossover: must be in [0, 1], got " + std::to_string(crossover));
        if (!(mutation >= 0 && mutation <= 1))
            throw InputError("--mutation: must be in [0, 1], got " + std::to_string(mutation));
        if (survivor_count(c) < 1)
            throw InputError("--crossover " + std::to_string(crossover) + " with population " +
                             std::to_string(c.population) +
                             " eliminates every member: no survivors to breed from (lower it)");
    }

    uint64_t games_per_generation(const LearnConfig& c) const override {
        return tournament_games(c);
    }

    bool runs_on_problems() const override { return true; }
    bool runs_on_words() const override { return true; }

    // Scores the generation, ranks it by value (ties by index: pile-in's ranking, whose values
    // are its float fitness exactly), breeds the next one (a resident population on its
    // backend: Generation::resident); clones keep their parent's value until scored again,
    // children start at 0.
    void step(const LearnConfig& c, LearnState& s, Generation& games) const override {
        const uint32_t n = c.population, d = c.dims(), made = s.generation + 1;
        const auto order = score_population(c, s, games);
        s.best_value = s.value[order[0]];
        std::vector<float> values(s.value.begin(), s.value.end());
        s.mean_value = static_cast<double>(fixed_point_sum(values.data(), n, 1)) / 65536.0 /
                       static_cast<double>(n);
        WordPopulation* resident = games.resident();
        if (resident) {
            s.best_words.resize(d);
            resident->read_member(order[0], s.best_words.data());
        } else if (c.instance) {
            s.best_words.assign(s.words.begin() + size_t(order[0]) * d,
                                s.words.begin() + size_t(order[0] + 1) * d);
        } else {
            s.best_weights = member(s, order[0], d);
        }
        const uint32_t survivors = survivor_count(c);
        games.report.mutants =
            resident ? resident->breed(made, order) : breed_ranked(c, made, order, s);
        std::vector<double> next_value(n, 0.0);
        for (uint32_t k = 0; k < survivors; ++k) next_value[k] = s.value[order[k]];
        s.value.swap(next_value);
        games.report.children = n - survivors;
    }

    void write_settings(const LearnConfig& c, nlohmann::json& j) const override {
        j["tournament"] = tournament_name(c.tournament);
        j["crossover"] = eliminated_share(c);
        j["mutation"] = mutation_rate(c);
        j["init_range"] = {c.init_low, c.init_high};
    }

    void read_settings(LearnConfig& c, const nlohmann::json& j,
                       const std::string& where) const override {
        c.tournament = parse_tournament(json_fields::string(j, "tournament", where));
        c.params["crossover"] = json_fields::number(j, "crossover", where);
        c.params["mutation"] = json_fields::number(j, "mutation", where);
        read_init_range(c, j);
    }

    // Word genomes: gene m of member i is the problem's fresh gene (InitMove, 0, i, m), as
    // pile-in's first plans (members on c.threads threads); real genes: the default (uniform in
    // the init range).
    void initialize(const LearnConfig& c, LearnState& s) const override {
        if (!c.instance) return Scheme::initialize(c, s);
        const uint32_t d = c.dims();
        parallel_for(c.population, c.threads, [&](int64_t i) {
            for (uint32_t m = 0; m < d; ++m)
                s.words[size_t(i) * d + m] =
                    c.instance->random_gene(c.seed, Purpose::InitMove, 0, uint32_t(i), m);
        });
    }

    bool breeds_by_rank() const override { return true; }

    // Replaces s's genomes (words on a setup's problem, else weights) with generation `made`
    // bred from the current ones ranked by `order` by the GAPI1 rule, places on c.threads
    // threads; returns the members with a fresh gene (0 where a scheme does not count them).
    // Word genomes breed through breed_words_on on the cpu backend (the op a resident
    // population runs on its own backend).
    uint32_t breed_ranked(const LearnConfig& c, uint32_t made, const std::vector<uint32_t>& order,
                          LearnState& s) const override {
        if (c.instance) {
            s.spare_words.resize(size_t(c.population) * c.dims());
            std::vector<uint8_t> hit(c.population);
            breed_words_on(host_threads_backend(c.threads), c, made, order.data(), s.words.data(),
                           whole_generation(c), s.spare_words.data(), hit.data());
            s.words.swap(s.spare_words);
            return count_hits(hit);
        }
        std::vector<float> next;
        const uint32_t mutants =
            breed_genes(c, made, order, s.weights, next, [&](uint32_t k, uint32_t m) {
                const double u = unit(draw(c, Purpose::MutationMove, made, k, m), 0);
                return static_cast<float>(c.init_low + (c.init_high - c.init_low) * u);
            });
        s.weights.swap(next);
        return mutants;
    }

    bool breeds_words_on_backend() const override { return true; }
    // Parents are ranks below S (Gapi1Rule::parents; RulesStep's clones and crosses too).
    uint32_t ranks_bred_from(const LearnConfig& c) const override { return survivor_count(c); }

    // GAPI1 over the words of the run's problem: breed_ops::BreedGapi1Words of the listed word
    // problem whose setup the instance holds, fresh genes its random_gene (MutationMove, made,
    // k, m).
    void breed_words_on(const BackendChoice& backend, const LearnConfig& c, uint32_t made,
                        const uint32_t* ranked, const uint32_t* src, ChildSpan span, uint32_t* dst,
                        uint8_t* hit) const override {
        bool bred = false;
#define GAEVAL_BREED_PROBLEM(P) \
    bred = bred || breed_problem_words<P>(backend, c, made, ranked, src, span, dst, hit);
        GAEVAL_FOR_EACH_PROBLEM(GAEVAL_BREED_PROBLEM)
#undef GAEVAL_BREED_PROBLEM
        if (!bred) throw std::logic_error("gapi1: the run has no listed word problem to breed");
    }

    bool streams_survivors() const override { return true; }
    // Members `span` of generation 0 as initialize makes them: breed_ops::InitGapi1Words of the
    // listed word problem whose setup the instance holds.
    void initialize_words_on(const BackendChoice& backend, const LearnConfig& c, ChildSpan span,
                             uint32_t* dst) const override {
        bool made = false;
#define GAEVAL_INIT_PROBLEM(P) made = made || init_problem_words<P>(backend, c, span, dst);
        GAEVAL_FOR_EACH_PROBLEM(GAEVAL_INIT_PROBLEM)
#undef GAEVAL_INIT_PROBLEM
        if (!made) throw std::logic_error("gapi1: the run has no listed word problem to make");
    }

    // The members a span names, as the ops read them.
    static pile_in::IndexMap made_of(ChildSpan span) {
        return pile_in::IndexMap{span.children, span.first};
    }

    // Members a mutation hit.
    static uint32_t count_hits(const std::vector<uint8_t>& hit) {
        uint32_t mutants = 0;
        for (uint8_t h : hit) mutants += h;
        return mutants;
    }

  private:
    // breed_words_on when the run's problem is P (a word problem whose setup the instance
    // holds); false otherwise.
    template <class P>
    static bool breed_problem_words(const BackendChoice& backend, const LearnConfig& c,
                                    uint32_t made, const uint32_t* ranked, const uint32_t* src,
                                    ChildSpan span, uint32_t* dst, uint8_t* hit) {
        if constexpr (problems::is_word_problem_v<P>) {
            const auto* setup = c.instance ? c.instance->setup_as<typename P::Setup>() : nullptr;
            if (!setup || c.instance->problem() != P::kName) return false;
            const pile_in::Gapi1Rule rule{c.seed, made, survivor_count(c), mutation_rate(c)};
            const breed_ops::BreedGapi1Words<P> op{
                P::from_setup(*setup), rule, ranked, src, dst, hit, c.dims(), made_of(span)};
            for_each_index(backend, 0, span.count, op, kBreedChunk);
            return true;
        } else {
            (void)backend, (void)c, (void)made, (void)ranked, (void)src, (void)span, (void)dst,
                (void)hit;
            return false;
        }
    }

    // initialize_words_on when the run's problem is P; false otherwise.
    template <class P>
    static bool init_problem_words(const BackendChoice& backend, const LearnConfig& c,
                                   ChildSpan span, uint32_t* dst) {
        if constexpr (problems::is_word_problem_v<P>) {
            const auto* setup = c.instance ? c.instance->setup_as<typename P::Setup>() : nullptr;
            if (!setup || c.instance->problem() != P::kName) return false;
            const breed_ops::InitGapi1Words<P> op{P::from_setup(*setup), c.seed, dst, c.dims(),
                                                  made_of(span)};
            for_each_index(backend, 0, span.count, op, kBreedChunk);
            return true;
        } else {
            (void)backend, (void)c, (void)span, (void)dst;
            return false;
        }
    }

    // The next population of real genes from `src` (population x d, member-major) ranked by
    // `order`, into `dst`, by the one GAPI1 rule, places on c.threads threads; fresh(k, m) is a
    // fresh gene for place k, gene m. Returns the places that got at least one fresh gene.
    template <class Fresh>
    static uint32_t breed_genes(const LearnConfig& c, uint32_t made,
                                const std::vector<uint32_t>& order, const std::vector<float>& src,
                                std::vector<float>& dst, const Fresh& fresh) {
        const uint32_t n = c.population, d = c.dims();
        const pile_in::Gapi1Rule rule{c.seed, made, survivor_count(c), mutation_rate(c)};
        dst.resize(size_t(n) * d);
        std::vector<uint8_t> hit(n);
        parallel_for_chunks(
            n, c.threads,
            [&](int64_t place) {
                const uint32_t k = static_cast<uint32_t>(place);
                hit[k] = static_cast<uint8_t>(rule.make(
                    k, d,
                    [&](uint64_t rank, uint32_t m) { return src[size_t(order[rank]) * d + m]; },
                    [&](uint32_t m) { return fresh(k, m); },
                    [&](uint32_t m, float gene) { dst[size_t(k) * d + m] = gene; }));
            },
            kBreedChunk);
        return count_hits(hit);
    }
};

}  // namespace gaeval::learn
