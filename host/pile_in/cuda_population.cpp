// CUDA backend for pile-in populations: the population lives on the device across
// generations; kernels (kernels/pile_in_kernels.hpp) call the same games/pile_in functions as
// the CPU backend. Only statistics, single plans and (on request) whole arrays come back.
#include <algorithm>
#include <chrono>
#include <stdexcept>
#include <optional>

#include "host/backend/parallel.hpp"
#include "host/pile_in/population.hpp"
#include "kernels/cuda_api.hpp"
#include "kernels/pile_in_kernels.hpp"
#include "kernels/ranking.hpp"

namespace gaeval::pile_in {

namespace {

double now_seconds() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

class CudaPopulation final : public Population {
  public:
    CudaPopulation(const Scenario& scenario, uint64_t size, const RulesProblem* rules)
        : Population(size, rules ? rules->layout.words : scenario.friendly_count),
          scenario_(scenario),
          genes_(size * gene_count_),
          next_genes_(size * gene_count_),
          fitness_(size),
          ranked_(size) {
        if (rules) rules_ = *rules;
    }

    std::string backend_name() const override { return "cuda"; }

    void randomize(uint64_t seed) override {
        if (rules_)
            cuda::pile_in_randomize_rules(RandomizeRulesPlans{seed, *rules_, view(genes_)}, size_);
        else
            cuda::pile_in_randomize(RandomizePlans{seed, view(genes_)}, size_);
    }

    void evaluate() override {
        double t0 = now_seconds();
        if (rules_)
            cuda::pile_in_evaluate_rules(EvaluateRules{*rules_, view(genes_), fitness_.data()},
                                         size_);
        else
            cuda::pile_in_evaluate_gapi1(EvaluateGapi1{scenario_, view(genes_), fitness_.data()},
                                         size_);
        times_.evaluate += now_seconds() - t0;
    }

    GenerationStats rank() override {
        double t0 = now_seconds();
        ranker_.rank(fitness_.data(), ranked_.data(), size_);
        double t1 = now_seconds();
        GenerationStats s;
        uint32_t first = 0, last = 0;
        ranked_.download(&first, 1, 0);
        ranked_.download(&last, 1, size_ - 1);
        fitness_.download(&s.best, 1, first);
        fitness_.download(&s.worst, 1, last);
        s.best_index = first;
        s.mean = static_cast<double>(ranker_.fixed_point_sum(fitness_.data(), size_)) / 65536.0 /
                 static_cast<double>(size_);
        times_.select += t1 - t0;
        times_.statistics += now_seconds() - t1;
        return s;
    }

    void breed(const BreedParams& p) override {
        if (p.survivors < 1 || p.survivors > size_)
            throw std::logic_error("breed: survivors must be 1 to the population size");
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
        if (rules_)
            cuda::pile_in_rules_step(RulesStep{*rules_, step}, size_);
        else
            cuda::pile_in_gapi1_step(step, size_);
        std::swap(genes_, next_genes_);
        times_.vary += now_seconds() - t0;
    }

    void read_plan(uint64_t index, uint32_t* out) const override {
        for (int m = 0; m < gene_count_; ++m) genes_.download(out + m, 1, m * size_ + index);
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
        out.resize(genes_.size());
        genes_.download(out.data(), genes_.size());
    }
    void write_genes(const std::vector<uint32_t>& in) override {
        genes_.upload(in.data(), in.size());
    }

  private:
    PlanView view(cuda::DeviceArray<uint32_t>& g) { return PlanView{g.data(), size_, gene_count_}; }

    Scenario scenario_;
    std::optional<RulesProblem> rules_;
    cuda::DeviceArray<uint32_t> genes_, next_genes_;
    cuda::DeviceArray<float> fitness_;
    cuda::DeviceArray<uint32_t> ranked_;
    cuda::Ranker ranker_;
};

// Plans held in page-locked host memory, for populations larger than the device: evaluation
// streams chunks of plans through two device buffers on two streams (the copy of one chunk
// overlaps the kernel of the other); fitness, ranking and statistics stay on the device; the
// breeding step runs on the host's cores (breed_on_host: the same step as everywhere).
class CudaChunkedPopulation final : public Population {
  public:
    CudaChunkedPopulation(const Scenario& scenario, uint64_t size, const RulesProblem* rules,
                          uint64_t chunk, int host_threads)
        : Population(size, rules ? rules->layout.words : scenario.friendly_count),
          scenario_(scenario),
          chunk_(chunk < size ? chunk : size),
          host_threads_(host_threads),
          genes_(size * gene_count_),
          next_genes_(size * gene_count_),
          ranked_host_(size),
          fitness_(size),
          ranked_(size) {
        if (rules) rules_ = *rules;
        for (auto& b : chunk_genes_) b = cuda::DeviceArray<uint32_t>(chunk_ * gene_count_);
    }

    std::string backend_name() const override { return "cuda"; }

    void randomize(uint64_t seed) override {
        PlanView all{genes_.data(), size_, gene_count_};
        if (rules_)
            parallel_for(static_cast<int64_t>(size_), host_threads_,
                         RandomizeRulesPlans{seed, *rules_, all});
        else
            parallel_for(static_cast<int64_t>(size_), host_threads_, RandomizePlans{seed, all});
    }

    void evaluate() override {
        double t0 = now_seconds();
        const std::size_t word = sizeof(uint32_t);
        for (uint64_t first = 0, k = 0; first < size_; first += chunk_, ++k) {
            const uint64_t n = size_ - first < chunk_ ? size_ - first : chunk_;
            const cuda::Stream& stream = streams_[k & 1];
            cuda::DeviceArray<uint32_t>& buffer = chunk_genes_[k & 1];
            // Gene m of plans [first, first + n): row m of the host array, from column first.
            cuda::copy_2d_to_device_async(buffer.data(), chunk_ * word, genes_.data() + first,
                                          size_ * word, n * word, gene_count_, stream);
            const PlanView view{buffer.data(), chunk_, gene_count_};
            if (rules_) {
                cuda::pile_in_evaluate_rules_on(
                    EvaluateRules{*rules_, view, fitness_.data() + first}, n, stream);
                if (rules_->rules.repair)  // repaired plans come back
                    cuda::copy_2d_to_host_async(genes_.data() + first, size_ * word, buffer.data(),
                                                chunk_ * word, n * word, gene_count_, stream);
            } else {
                cuda::pile_in_evaluate_gapi1_on(
                    EvaluateGapi1{scenario_, view, fitness_.data() + first}, n, stream);
            }
        }
        streams_[0].synchronize();
        streams_[1].synchronize();
        times_.evaluate += now_seconds() - t0;
    }

    GenerationStats rank() override {
        double t0 = now_seconds();
        ranker_.rank(fitness_.data(), ranked_.data(), size_);
        ranked_.download(ranked_host_.data(), size_);
        double t1 = now_seconds();
        GenerationStats s;
        const uint32_t first = ranked_host_[0], last = ranked_host_[size_ - 1];
        fitness_.download(&s.best, 1, first);
        fitness_.download(&s.worst, 1, last);
        s.best_index = first;
        s.mean = static_cast<double>(ranker_.fixed_point_sum(fitness_.data(), size_)) / 65536.0 /
                 static_cast<double>(size_);
        times_.select += t1 - t0;
        times_.statistics += now_seconds() - t1;
        return s;
    }

    void breed(const BreedParams& p) override {
        double t0 = now_seconds();
        breed_on_host(p, rules_ ? &*rules_ : nullptr, ranked_host_.data(),
                      PlanView{genes_.data(), size_, gene_count_},
                      PlanView{next_genes_.data(), size_, gene_count_}, host_threads_, survivors_);
        std::swap(genes_, next_genes_);
        times_.vary += now_seconds() - t0;
    }

    void read_plan(uint64_t index, uint32_t* out) const override {
        for (int m = 0; m < gene_count_; ++m) out[m] = genes_[m * size_ + index];
    }
    void read_fitness(std::vector<float>& out) const override {
        out.resize(size_);
        fitness_.download(out.data(), size_);
    }
    void read_ranking(std::vector<uint32_t>& out) const override {
        out.assign(ranked_host_.data(), ranked_host_.data() + size_);
    }
    void read_genes(std::vector<uint32_t>& out) const override {
        out.assign(genes_.data(), genes_.data() + genes_.size());
    }
    void write_genes(const std::vector<uint32_t>& in) override {
        std::copy(in.begin(), in.end(), genes_.data());
    }

  private:
    Scenario scenario_;
    std::optional<RulesProblem> rules_;
    uint64_t chunk_;
    int host_threads_;
    cuda::PinnedArray<uint32_t> genes_, next_genes_, ranked_host_;
    cuda::DeviceArray<float> fitness_;
    cuda::DeviceArray<uint32_t> ranked_;
    cuda::DeviceArray<uint32_t> chunk_genes_[2];
    cuda::Stream streams_[2];
    cuda::Ranker ranker_;
    std::vector<uint32_t> survivors_;  // breeding scratch (host)
};

}  // namespace

uint64_t chunked_device_bytes(uint64_t size, int genes, uint64_t chunk) {
    return size * (sizeof(float) + sizeof(uint32_t)) + cuda::Ranker::workspace_bytes(size) +
           2 * chunk * genes * sizeof(uint32_t);
}

std::unique_ptr<Population> make_cuda_population(const Scenario& scenario, uint64_t size,
                                                 const RulesProblem* rules, uint64_t chunk,
                                                 int host_threads) {
    const Scenario& s = rules ? rules->scenario : scenario;
    if (chunk > 0)
        return std::make_unique<CudaChunkedPopulation>(s, size, rules, chunk, host_threads);
    return std::make_unique<CudaPopulation>(s, size, rules);
}

}  // namespace gaeval::pile_in
