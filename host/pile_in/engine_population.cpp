// The pile-in population over the one GA engine (issue 31), on any backend (`gaeval pile-in
// --backend cpu` runs it; cuda: make_engine_population, checked against the cpu by the GPU
// tests, not yet what `--backend cuda` runs): the problem pile-in
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
//   breed       the scheme's breeding op (Scheme::breed_words_on) from that ranking, on the
//               population's threads
// The plans are a learn::WordPopulation (host/learn/word_population.hpp) on the cpu backend,
// resident, or chunked or streamed (make_cpu_chunked_population: the layouts a population larger
// than a device's memory takes, forced on the cpu so that its tests run those paths); the
// ranking is the backend's (host/backend/backend_ranking.hpp); member-major (member
// i's words contiguous); read_genes and write_genes transpose them to pile-in's gene-major layout
// ([gene * size + individual]), so checkpoints are the ones the other backends write and read.
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "host/backend/backend_ranking.hpp"
#include "host/backend/executor.hpp"
#include "host/backend/parallel.hpp"
#include "host/core/clock.hpp"
#include "host/learn/learn.hpp"
#include "host/learn/learn_problems.hpp"
#include "host/learn/scheme.hpp"
#include "host/learn/word_population.hpp"
#include "host/pile_in/engine.hpp"
#include "host/pile_in/population.hpp"

namespace gaeval::pile_in {

namespace {

class EnginePopulation final : public Population {
  public:
    EnginePopulation(const BackendChoice& backend, const Scenario& scenario, uint64_t size,
                     const RulesProblem* rules, learn::Chunking chunking)
        : Population(size, rules ? rules->layout.words : scenario.friendly_count),
          population_(backend, config_of(scenario, size, rules), chunking),
          ranker_(population_.backend()),
          fitness_(size),
          ranked_(size) {}

    std::string backend_name() const override { return population_.backend().name; }

    void randomize(uint64_t seed) override {
        population_.config().seed = seed;
        population_.initialize();
    }

    void evaluate() override {
        const double t0 = now_seconds();
        // Repair constraints rewrite the plans as they are scored.
        const std::vector<double> fitness = population_.evaluate();
        // The fitness is a float widened exactly: narrowing gives its bits back.
        for (uint64_t i = 0; i < size_; ++i) fitness_[i] = static_cast<float>(fitness[i]);
        times_.evaluate += now_seconds() - t0;
    }

    GenerationStats rank() override {
        const double t0 = now_seconds();
        // On the backend where it lies (on the cpu these are fitness_ and ranked_ themselves).
        const BackendInput<float> fitness(population_.backend(), fitness_.data(), size_);
        BackendOutput<uint32_t> ranked(population_.backend(), ranked_.data(), size_);
        ranker_.rank(fitness.data(), ranked.data(), size_);
        ranked.finish();
        const double t1 = now_seconds();
        const GenerationStats s =
            generation_stats(fitness_[ranked_[0]], fitness_[ranked_[size_ - 1]], ranked_[0],
                             ranker_.fixed_point_sum(fitness.data(), size_), size_);
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
        learn::LearnConfig& c = population_.config();
        c.seed = p.seed;
        c.params["crossover"] =
            static_cast<double>(size_ - p.survivors) / static_cast<double>(size_);
        c.params["mutation"] = p.mutation_rate;
        GaConfig rates;
        rates.population = size_;
        rates.crossover = c.params["crossover"];
        if (survivor_count(rates) != p.survivors)
            throw std::logic_error("breed: the scheme's survivor count differs from pile-in's");
        population_.breed(p.generation, ranked_, false);  // pile-in reports no mutants
        times_.vary += now_seconds() - t0;
    }

    void read_plan(uint64_t index, uint32_t* out) const override {
        population_.read_member(index, out);
    }
    void read_fitness(std::vector<float>& out) const override { out = fitness_; }
    void read_ranking(std::vector<uint32_t>& out) const override { out = ranked_; }
    void read_genes(std::vector<uint32_t>& out) const override {
        std::vector<uint32_t> words;
        population_.read_words(words);
        out.resize(words.size());
        const int d = gene_count_;
        parallel_for(static_cast<int64_t>(size_), population_.backend().threads, [&](int64_t i) {
            for (int m = 0; m < d; ++m)
                out[m * size_ + i] = words[static_cast<uint64_t>(i) * d + m];
        });
    }
    void write_genes(const std::vector<uint32_t>& in) override {
        if (in.size() != size_ * gene_count_)
            throw std::logic_error("write_genes: not one population of plans");
        std::vector<uint32_t> words(in.size());
        const int d = gene_count_;
        parallel_for(static_cast<int64_t>(size_), population_.backend().threads, [&](int64_t i) {
            for (int m = 0; m < d; ++m) words[static_cast<uint64_t>(i) * d + m] = in[m * size_ + i];
        });
        population_.write_words(words);
    }

  private:
    // The problem pile-in (GAPI1) or pile-in-rules (a rules preset) of the population's
    // scenario, bred by gapi1 or rules, `size` members.
    static learn::LearnConfig config_of(const Scenario& scenario, uint64_t size,
                                        const RulesProblem* rules) {
        if (size > 0xffffffffull)
            throw std::logic_error("EnginePopulation: at most 2^32 - 1 plans");
        learn::LearnConfig c =
            rules
                ? learn::problem_config("rules", learn::instance_of_setup("pile-in-rules", *rules))
                : learn::problem_config("gapi1", learn::instance_of_setup("pile-in", scenario));
        c.population = static_cast<uint32_t>(size);
        if (!learn::scheme_of(c).breeds_by_rank())
            throw std::logic_error("EnginePopulation: the scheme does not breed from a ranking");
        return c;
    }

    learn::WordPopulation population_;  // the plans, member-major, on the cpu backend
    BackendRanker ranker_;              // the ranking of the population's backend
    std::vector<float> fitness_;
    std::vector<uint32_t> ranked_;
};

}  // namespace

std::unique_ptr<Population> make_engine_population(const BackendChoice& backend,
                                                   const Scenario& scenario, uint64_t size,
                                                   const RulesProblem* rules,
                                                   learn::Chunking chunking) {
    return std::make_unique<EnginePopulation>(backend, rules ? rules->scenario : scenario, size,
                                              rules, chunking);
}

std::unique_ptr<Population> make_cpu_population(const Scenario& scenario, uint64_t size,
                                                int threads, const RulesProblem* rules) {
    return make_engine_population(resolve_backend("cpu", threads > 0 ? threads : 0), scenario, size,
                                  rules, learn::Chunking{});
}

std::unique_ptr<Population> make_cpu_chunked_population(const Scenario& scenario, uint64_t size,
                                                        int threads, const RulesProblem* rules,
                                                        uint64_t chunk, bool parents_on_host,
                                                        bool survivors_only) {
    if (chunk == 0) throw std::logic_error("make_cpu_chunked_population: a chunk of no plans");
    return make_engine_population(resolve_backend("cpu", threads > 0 ? threads : 0), scenario, size,
                                  rules, learn::Chunking{chunk, parents_on_host, survivors_only});
}

}  // namespace gaeval::pile_in
