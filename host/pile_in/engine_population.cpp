// The CPU backend's pile-in population over the one GA engine (issue 31): the problem pile-in
// (GAPI1) or pile-in-rules (a rules preset) built from the population's scenario or rules
// problem, bred by the scheme gapi1 or rules (host/learn/schemes/). `gaeval pile-in --backend
// cpu` runs on it with pile_in::Engine's run folder, generations.csv, pictures and checkpoints
// unchanged:
//   randomize   the scheme's initialize
//   evaluate    the problem instance's evaluate (one executor call on the cpu backend); with
//               repair constraints its evaluate_rewriting, which writes the repaired plans back
//               into the member-major words (as learn's run does)
//   rank        the scheme's selection: the members by fitness, best first, ties by index (the
//               CPU ranking of every backend), and the generation's statistics
//   breed       the scheme's breed_ranked from that ranking, on the population's threads
// The engine keeps genomes member-major (member i's words contiguous); read_genes and
// write_genes transpose them to pile-in's gene-major layout ([gene * size + individual]), so
// checkpoints are the ones the other backends write and read.
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "host/backend/cpu_ranking.hpp"
#include "host/backend/parallel.hpp"
#include "host/core/clock.hpp"
#include "host/learn/learn.hpp"
#include "host/learn/learn_problems.hpp"
#include "host/learn/scheme.hpp"
#include "host/pile_in/engine.hpp"
#include "host/pile_in/population.hpp"

namespace gaeval::pile_in {

namespace {

class EnginePopulation final : public Population {
  public:
    EnginePopulation(const Scenario& scenario, uint64_t size, int threads,
                     const RulesProblem* rules)
        : Population(size, rules ? rules->layout.words : scenario.friendly_count),
          fitness_(size),
          ranked_(size) {
        if (size > 0xffffffffull)
            throw std::logic_error("EnginePopulation: at most 2^32 - 1 plans");
        backend_ = resolve_backend("cpu", threads > 0 ? threads : 0);
        config_ =
            rules
                ? learn::problem_config("rules", learn::instance_of_setup("pile-in-rules", *rules))
                : learn::problem_config("gapi1", learn::instance_of_setup("pile-in", scenario));
        config_.population = static_cast<uint32_t>(size);
        config_.threads = backend_.threads;
        scheme_ = &learn::scheme_of(config_);
        if (!scheme_->breeds_by_rank())
            throw std::logic_error("EnginePopulation: the scheme does not breed from a ranking");
        state_.words.resize(size * gene_count_);
    }

    std::string backend_name() const override { return "cpu"; }

    void randomize(uint64_t seed) override {
        config_.seed = seed;
        scheme_->initialize(config_, state_);
    }

    void evaluate() override {
        const double t0 = now_seconds();
        // Repair constraints rewrite the plans as they are scored (evaluate_rewriting is
        // evaluate otherwise).
        const std::vector<double> fitness =
            config_.instance->evaluate_rewriting(backend_, state_.words, config_.population);
        // The fitness is a float widened exactly: narrowing gives its bits back.
        for (uint64_t i = 0; i < size_; ++i) fitness_[i] = static_cast<float>(fitness[i]);
        times_.evaluate += now_seconds() - t0;
    }

    GenerationStats rank() override {
        const double t0 = now_seconds();
        rank_descending(fitness_.data(), ranked_.data(), size_, backend_.threads, rank_scratch_);
        const double t1 = now_seconds();
        const GenerationStats s =
            generation_stats(fitness_[ranked_[0]], fitness_[ranked_[size_ - 1]], ranked_[0],
                             fixed_point_sum(fitness_.data(), size_, backend_.threads), size_);
        times_.select += t1 - t0;
        times_.statistics += now_seconds() - t1;
        return s;
    }

    void breed(const BreedParams& p) override {
        const double t0 = now_seconds();
        if (p.survivors < 1 || p.survivors > size_)
            throw std::logic_error("breed: survivors must be 1 to the population size");
        // The scheme reads its survivors as N - round(crossover x N) and the rates from its
        // settings: the share that gives exactly p.survivors.
        config_.seed = p.seed;
        config_.params["crossover"] =
            static_cast<double>(size_ - p.survivors) / static_cast<double>(size_);
        config_.params["mutation"] = p.mutation_rate;
        GaConfig rates;
        rates.population = size_;
        rates.crossover = config_.params["crossover"];
        if (survivor_count(rates) != p.survivors)
            throw std::logic_error("breed: the scheme's survivor count differs from pile-in's");
        scheme_->breed_ranked(config_, p.generation, ranked_, state_);
        times_.vary += now_seconds() - t0;
    }

    void read_plan(uint64_t index, uint32_t* out) const override {
        const uint32_t* plan = state_.words.data() + index * gene_count_;
        for (int m = 0; m < gene_count_; ++m) out[m] = plan[m];
    }
    void read_fitness(std::vector<float>& out) const override { out = fitness_; }
    void read_ranking(std::vector<uint32_t>& out) const override { out = ranked_; }
    void read_genes(std::vector<uint32_t>& out) const override {
        out.resize(state_.words.size());
        const int words = gene_count_;
        parallel_for(static_cast<int64_t>(size_), backend_.threads, [&](int64_t i) {
            for (int m = 0; m < words; ++m)
                out[m * size_ + i] = state_.words[static_cast<uint64_t>(i) * words + m];
        });
    }
    void write_genes(const std::vector<uint32_t>& in) override {
        if (in.size() != state_.words.size())
            throw std::logic_error("write_genes: not one population of plans");
        const int words = gene_count_;
        parallel_for(static_cast<int64_t>(size_), backend_.threads, [&](int64_t i) {
            for (int m = 0; m < words; ++m)
                state_.words[static_cast<uint64_t>(i) * words + m] = in[m * size_ + i];
        });
    }

  private:
    BackendChoice backend_;
    learn::LearnConfig config_;  // the problem instance, scheme and rates
    const learn::Scheme* scheme_ = nullptr;
    learn::LearnState state_;  // words: the plans, member-major
    std::vector<float> fitness_;
    std::vector<uint32_t> ranked_;
    std::vector<uint64_t> rank_scratch_;  // ranking scratch (packed keys)
};

}  // namespace

std::unique_ptr<Population> make_cpu_population(const Scenario& scenario, uint64_t size,
                                                int threads, const RulesProblem* rules) {
    return std::make_unique<EnginePopulation>(rules ? rules->scenario : scenario, size, threads,
                                              rules);
}

}  // namespace gaeval::pile_in
