// CPU backend for pile-in populations: OpenMP loops over the games/pile_in functions.
#include <chrono>
#include <cstring>

#include "games/pile_in/gapi1_fitness.hpp"
#include "games/pile_in/gapi1_scheme.hpp"
#include "host/backend/cpu_ranking.hpp"
#include "host/backend/parallel.hpp"
#include "host/backend/pile_in_population.hpp"

namespace gaeval::pile_in {

namespace {

double now_seconds() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

class CpuPopulation final : public Population {
  public:
    CpuPopulation(const Scenario& scenario, uint64_t size, int threads)
        : Population(size, scenario.friendly_count),
          scenario_(scenario),
          threads_(threads > 0 ? threads : default_thread_count()),
          genes_(size * scenario.friendly_count),
          next_genes_(size * scenario.friendly_count),
          fitness_(size),
          ranked_(size) {}

    std::string backend_name() const override { return "cpu"; }

    void randomize(uint64_t seed) override {
        RandomizePlans op{seed, view(genes_)};
        parallel_for(static_cast<int64_t>(size_), threads_, op);
    }

    void evaluate() override {
        double t0 = now_seconds();
        EvaluateGapi1 op{scenario_, view(genes_), fitness_.data()};
        parallel_for(static_cast<int64_t>(size_), threads_, op);
        times_.evaluate += now_seconds() - t0;
    }

    GenerationStats rank() override {
        double t0 = now_seconds();
        rank_descending(fitness_.data(), ranked_.data(), size_, threads_);
        double t1 = now_seconds();
        GenerationStats s;
        s.best_index = ranked_[0];
        s.best = fitness_[ranked_[0]];
        s.worst = fitness_[ranked_[size_ - 1]];
        s.mean = static_cast<double>(fixed_point_sum(fitness_.data(), size_, threads_)) / 65536.0 /
                 static_cast<double>(size_);
        times_.select += t1 - t0;
        times_.statistics += now_seconds() - t1;
        return s;
    }

    void breed(const BreedParams& p) override {
        double t0 = now_seconds();
        Gapi1Step step;
        step.seed = p.seed;
        step.generation = p.generation;
        step.population = size_;
        step.survivors = p.survivors;
        step.mutation_rate = p.mutation_rate;
        step.ranked = ranked_.data();
        step.src = view(genes_);
        step.dst = view(next_genes_);
        parallel_for(static_cast<int64_t>(size_), threads_, step);
        genes_.swap(next_genes_);
        times_.vary += now_seconds() - t0;
    }

    void read_plan(uint64_t index, uint32_t* out) const override {
        for (int m = 0; m < gene_count_; ++m) out[m] = genes_[m * size_ + index];
    }
    void read_fitness(std::vector<float>& out) const override { out = fitness_; }
    void read_ranking(std::vector<uint32_t>& out) const override { out = ranked_; }
    void read_genes(std::vector<uint32_t>& out) const override { out = genes_; }
    void write_genes(const std::vector<uint32_t>& in) override { genes_ = in; }

  private:
    PlanView view(std::vector<uint32_t>& g) { return PlanView{g.data(), size_, gene_count_}; }

    Scenario scenario_;
    int threads_;
    std::vector<uint32_t> genes_, next_genes_;
    std::vector<float> fitness_;
    std::vector<uint32_t> ranked_;
};

}  // namespace

std::unique_ptr<Population> make_cpu_population(const Scenario& scenario, uint64_t size,
                                                int threads) {
    return std::make_unique<CpuPopulation>(scenario, size, threads);
}

}  // namespace gaeval::pile_in
