// CUDA backend for pile-in populations: the population lives on the device across
// generations; kernels (kernels/pile_in_kernels.hpp) call the same problems/pile_in functions as
// the CPU backend. Only statistics, single plans and (on request) whole arrays come back.
// Compiled in every build: without CUDA its entry points throw (resolve_backend never picks
// cuda there), so that no other host file needs a CUDA condition.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <stdexcept>

#include "host/backend/memory.hpp"
#include "host/backend/parallel.hpp"
#include "host/core/clock.hpp"
#include "host/core/error.hpp"
#include "host/pile_in/chunk_copies.hpp"
#include "host/pile_in/population.hpp"
#include "host/pile_in/streamed_population.hpp"
#if GAEVAL_HAVE_CUDA
#include "kernels/cuda_api.hpp"
#include "kernels/pile_in_kernels.hpp"
#include "kernels/ranking.hpp"
#endif

namespace gaeval::pile_in {

#if GAEVAL_HAVE_CUDA

namespace {

// The statistics of a ranked generation whose fitness values live on the device.
GenerationStats device_stats(const cuda::DeviceArray<float>& fitness, cuda::Ranker& ranker,
                             uint32_t first, uint32_t last, uint64_t size) {
    float best = 0, worst = 0;
    fitness.download(&best, 1, first);
    fitness.download(&worst, 1, last);
    return generation_stats(best, worst, first, ranker.fixed_point_sum(fitness.data(), size), size);
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
            cuda::run_pile_in(RandomizeRulesPlans{seed, *rules_, view(genes_)}, size_);
        else
            cuda::run_pile_in(RandomizePlans{seed, view(genes_)}, size_);
    }

    void evaluate() override {
        double t0 = now_seconds();
        if (rules_)
            cuda::run_pile_in(EvaluateRules{*rules_, view(genes_), fitness_.data()}, size_);
        else
            cuda::run_pile_in(EvaluateGapi1{scenario_, view(genes_), fitness_.data()}, size_);
        times_.evaluate += now_seconds() - t0;
    }

    GenerationStats rank() override {
        double t0 = now_seconds();
        ranker_.rank(fitness_.data(), ranked_.data(), size_);
        double t1 = now_seconds();
        uint32_t first = 0, last = 0;
        ranked_.download(&first, 1, 0);
        ranked_.download(&last, 1, size_ - 1);
        const GenerationStats s = device_stats(fitness_, ranker_, first, last, size_);
        times_.select += t1 - t0;
        times_.statistics += now_seconds() - t1;
        return s;
    }

    void breed(const BreedParams& p) override {
        if (p.survivors < 1 || p.survivors > size_)
            throw std::logic_error("breed: survivors must be 1 to the population size");
        double t0 = now_seconds();
        const Gapi1Step step =
            gapi1_step(p, size_, ranked_.data(), view(genes_), view(next_genes_));
        if (rules_)
            cuda::run_pile_in(RulesStep{*rules_, step}, size_);
        else
            cuda::run_pile_in(step, size_);
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
        for (uint64_t k = 0; k < chunk_count(size_, chunk_); ++k) {
            const ChunkSpan span = chunk_span(size_, chunk_, k);
            const cuda::Stream& stream = streams_[k & 1];
            cuda::DeviceArray<uint32_t>& buffer = chunk_genes_[k & 1];
            // Gene m of plans [first, first + n): one 1-D copy per gene row.
            for (int m = 0; m < gene_count_; ++m) {
                const RowCopy c = chunk_row_copy(size_, chunk_, span, m);
                cuda::copy_to_device_async(buffer.data() + c.buffer_offset,
                                           genes_.data() + c.host_offset, c.count * word, stream);
            }
            const PlanView view{buffer.data(), chunk_, gene_count_};
            float* fitness = fitness_.data() + span.first;
            if (rules_) {
                cuda::run_pile_in_on(EvaluateRules{*rules_, view, fitness}, span.count, stream);
                if (rules_->rules.repair)  // repaired plans come back
                    for (int m = 0; m < gene_count_; ++m) {
                        const RowCopy c = chunk_row_copy(size_, chunk_, span, m);
                        cuda::copy_to_host_async(genes_.data() + c.host_offset,
                                                 buffer.data() + c.buffer_offset, c.count * word,
                                                 stream);
                    }
            } else {
                cuda::run_pile_in_on(EvaluateGapi1{scenario_, view, fitness}, span.count, stream);
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
        const GenerationStats s =
            device_stats(fitness_, ranker_, ranked_host_[0], ranked_host_[size_ - 1], size_);
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

// StreamedPopulation's backend on the GPU: device memory, the pile-in kernels (each launch
// finishes before it returns), CUB's ranking.
struct CudaStreamExec {
    std::unique_ptr<cuda::Ranker> ranker = std::make_unique<cuda::Ranker>();
    template <class T>
    using Array = cuda::DeviceArray<T>;
    std::string name() const { return "cuda"; }
    template <class T>
    void to_host(T* dst, const T* src, uint64_t n) const {
        cuda::copy_to_host(dst, src, n * sizeof(T));
    }
    template <class T>
    void to_backend(T* dst, const T* src, uint64_t n) const {
        cuda::copy_to_device(dst, src, n * sizeof(T));
    }
    template <class Op>
    void run(const Op& op, uint64_t n) const {
        cuda::run_pile_in(op, n);
    }
    void rank(const float* fitness, uint32_t* ranked, uint64_t n) const {
        ranker->rank(fitness, ranked, n);
    }
    int64_t fixed_point_sum(const float* fitness, uint64_t n) const {
        return ranker->fixed_point_sum(fitness, n);
    }
};

}  // namespace

uint64_t chunked_device_bytes(uint64_t size, int genes, uint64_t chunk) {
    return size * (sizeof(float) + sizeof(uint32_t)) + cuda::Ranker::workspace_bytes(size) +
           2 * chunk * genes * sizeof(uint32_t);
}

std::unique_ptr<Population> make_cuda_population(const Scenario& scenario, uint64_t size,
                                                 const RulesProblem* rules, uint64_t chunk) {
    const Scenario& s = rules ? rules->scenario : scenario;
    if (chunk > 0)
        return std::make_unique<StreamedPopulation<CudaStreamExec>>(CudaStreamExec{}, s, size,
                                                                    rules, chunk);
    return std::make_unique<CudaPopulation>(s, size, rules);
}

std::unique_ptr<Population> make_cuda_host_chunked_population(const Scenario& scenario,
                                                              uint64_t size,
                                                              const RulesProblem* rules,
                                                              uint64_t chunk, int host_threads) {
    const Scenario& s = rules ? rules->scenario : scenario;
    return std::make_unique<CudaChunkedPopulation>(s, size, rules, chunk, host_threads);
}

namespace {

// Plans per chunk of a streamed population when nothing forces one (a launch that fills any GPU).
constexpr uint64_t kDeviceStreamChunk = uint64_t{1} << 22;

}  // namespace

std::unique_ptr<Population> make_cuda_population_fitting(const Scenario& scenario, uint64_t size,
                                                         int words, uint64_t needed,
                                                         uint64_t survivors,
                                                         const RulesProblem* rules) {
    // GAEVAL_CUDA_CHUNK=N forces streaming in chunks of N plans, GAEVAL_CUDA_HOST_CHUNK=N the
    // plans-in-host-memory mode (to check either against the resident mode on populations that
    // fit).
    if (const uint64_t chunk = chunk_from_environment("GAEVAL_CUDA_CHUNK"))
        return allocating(size, [&] { return make_cuda_population(scenario, size, rules, chunk); });
    if (const uint64_t chunk = chunk_from_environment("GAEVAL_CUDA_HOST_CHUNK"))
        return allocating(size, [&] {
            return make_cuda_host_chunked_population(scenario, size, rules, chunk, 0);
        });
    // Resident on the device when it fits with 10% of the free memory to spare for the
    // runtime; else streamed on the device (survivors, fitness and ranking there) with the same
    // margin; else plans in host memory, evaluated in chunks (fitness and ranking still on the
    // device).
    const uint64_t available = cuda::free_device_memory();
    const uint64_t spare = available / 10;
    if (needed + spare <= available)
        return allocating(size, [&] { return make_cuda_population(scenario, size, rules); });
    const uint64_t plan_bytes = static_cast<uint64_t>(words) * sizeof(uint32_t);
    if (survivors > 0) {
        const uint64_t fixed =
            streamed_population_bytes(size, words, survivors, 0, BackendKind::Cuda);
        if (fixed + spare < available) {
            const uint64_t room = (available - spare - fixed) / (plan_bytes + sizeof(float));
            const uint64_t chunk = std::min({room, kDeviceStreamChunk, size});
            if (chunk >= std::min<uint64_t>(size, 4096)) {
                std::fprintf(
                    stderr,
                    "gaeval: population of %llu plans needs %s resident, more than the GPU's %s "
                    "free less a 10%% margin: streamed on the device %llu plans at a time, its "
                    "%llu survivors kept there (%s)\n",
                    static_cast<unsigned long long>(size), human_bytes(needed).c_str(),
                    human_bytes(available).c_str(), static_cast<unsigned long long>(chunk),
                    static_cast<unsigned long long>(survivors),
                    human_bytes(fixed + chunk * (plan_bytes + sizeof(float))).c_str());
                return allocating(
                    size, [&] { return make_cuda_population(scenario, size, rules, chunk); });
            }
        }
    }
    const uint64_t fixed = chunked_device_bytes(size, words, 0);
    if (fixed + spare >= available)
        throw InputError("--population " + std::to_string(size) + ": needs " + human_bytes(fixed) +
                         " of GPU memory even with plans in host memory, " +
                         human_bytes(available) + " free on the device");
    uint64_t chunk = (available - fixed - spare) / (2 * plan_bytes);
    chunk = std::min<uint64_t>(chunk, uint64_t{1} << 24);
    const uint64_t host_needed = size * (3 * plan_bytes + sizeof(uint32_t));  // + survivors
    const uint64_t host_available = available_host_memory();
    if (host_available && host_needed > host_available)
        throw InputError("--population " + std::to_string(size) + ": needs " + human_bytes(needed) +
                         " of GPU memory (" + human_bytes(available) + " free) or " +
                         human_bytes(host_needed) + " of host memory (" +
                         human_bytes(host_available) + " available) to evaluate it in chunks");
    std::fprintf(stderr,
                 "gaeval: population of %llu plans needs %s, more than the GPU's %s free less a "
                 "10%% margin, and its survivors do not fit there either: plans stay in host "
                 "memory and are evaluated %llu at a time\n",
                 static_cast<unsigned long long>(size), human_bytes(needed).c_str(),
                 human_bytes(available).c_str(), static_cast<unsigned long long>(chunk));
    return allocating(
        size, [&] { return make_cuda_host_chunked_population(scenario, size, rules, chunk, 0); });
}

uint64_t cuda_ranking_workspace_bytes(uint64_t size) { return cuda::Ranker::workspace_bytes(size); }

#else

[[noreturn]] static void no_cuda() {
    throw InputError("this gaeval was built without the CUDA backend");
}
std::unique_ptr<Population> make_cuda_population(const Scenario&, uint64_t, const RulesProblem*,
                                                 uint64_t) {
    no_cuda();
}
std::unique_ptr<Population> make_cuda_host_chunked_population(const Scenario&, uint64_t,
                                                              const RulesProblem*, uint64_t, int) {
    no_cuda();
}
uint64_t chunked_device_bytes(uint64_t, int, uint64_t) { no_cuda(); }
std::unique_ptr<Population> make_cuda_population_fitting(const Scenario&, uint64_t, int, uint64_t,
                                                         uint64_t, const RulesProblem*) {
    no_cuda();
}
uint64_t cuda_ranking_workspace_bytes(uint64_t) { return 0; }

#endif

}  // namespace gaeval::pile_in
