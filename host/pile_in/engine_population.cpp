// The pile-in population over the one GA engine (issue 31), on any backend (`gaeval pile-in
// --backend cpu` runs it; cuda: make_engine_population, checked against the cpu by the GPU
// tests, not yet what `--backend cuda` runs: docs/pile_in.md says what a GPU session does): the
// problem pile-in (GAPI1) or pile-in-rules (a rules preset) built from the population's scenario
// or rules problem, bred by the scheme gapi1 or rules (host/learn/schemes/). `gaeval pile-in
// --backend cpu` runs on it with pile_in::Engine's run folder, generations.csv, pictures and
// checkpoints unchanged. A generation copies no genome and no fitness to the host:
//   randomize   the scheme's initialize
//   evaluate    the problem instance's evaluation where the plans lie, narrowed to float into
//               the fitness array in the backend's memory (WordPopulation::evaluate_narrowed);
//               with repair constraints the repaired plans are written back in place
//   rank        the scheme's selection: the members by fitness, best first, ties by index
//               (BackendRanker: the host ranking on the cpu, CUB's on the device), over that
//               array into a ranking there; the statistics (two ranks, their fitness, the exact
//               fixed-point sum) are all that comes back
//   breed       the scheme's breeding op (Scheme::breed_words_on) from that ranking where it
//               lies (WordPopulation::breed_from)
// The plans are a learn::WordPopulation (host/learn/word_population.hpp), resident, or chunked
// or streamed (make_cpu_chunked_population: the layouts a population larger than a device's
// memory takes, forced on the cpu so that its tests run those paths); member-major (member i's
// words contiguous); read_genes and write_genes transpose them to pile-in's gene-major layout
// ([gene * size + individual]), so checkpoints are the ones the other backends write and read.
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "host/backend/backend_array.hpp"
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
          fitness_(population_.backend(), size),
          ranked_(population_.backend(), size) {}

    std::string backend_name() const override { return population_.backend().name; }

    void randomize(uint64_t seed) override {
        population_.config().seed = seed;
        population_.initialize();
    }

    void evaluate() override {
        const double t0 = now_seconds();
        // Repair constraints rewrite the plans as they are scored. The fitness is a float
        // widened exactly: narrowed on the backend, it is its bits back.
        population_.evaluate_narrowed(fitness_.data());
        times_.evaluate += now_seconds() - t0;
    }

    GenerationStats rank() override {
        const double t0 = now_seconds();
        ranker_.rank(fitness_.data(), ranked_.data(), size_);
        const double t1 = now_seconds();
        // Only the statistics come to the host: two ranks, their fitness and the exact sum.
        uint32_t first = 0, last = 0;
        ranked_.download(&first, 1, 0);
        ranked_.download(&last, 1, size_ - 1);
        float best = 0, worst = 0;
        fitness_.download(&best, 1, first);
        fitness_.download(&worst, 1, last);
        const GenerationStats s = generation_stats(
            best, worst, first, ranker_.fixed_point_sum(fitness_.data(), size_), size_);
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
        // From the ranking where it lies; pile-in reports no mutants.
        population_.breed_from(p.generation, ranked_, false);
        times_.vary += now_seconds() - t0;
    }

    void read_plan(uint64_t index, uint32_t* out) const override {
        population_.read_member(index, out);
    }
    void read_fitness(std::vector<float>& out) const override {
        out.resize(size_);
        fitness_.download(out.data(), size_);
    }
    void read_ranking(std::vector<uint32_t>& out) const override {
        out.resize(size_);
        ranked_.download(out.data(), size_);
    }
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

    learn::WordPopulation population_;  // the plans, member-major, on its backend
    BackendRanker ranker_;              // the ranking of the population's backend
    // The generation's fitness and its ranking, in the backend's memory.
    BackendArray<float> fitness_;
    BackendArray<uint32_t> ranked_;
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
