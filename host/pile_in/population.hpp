// A population of pile-in plans living on one backend. The CPU and CUDA implementations call
// the same problems/pile_in functions; on CUDA the population stays on the device across
// generations and only statistics and single plans come back. A population scores either GAPI1
// (made from a Scenario) or a rules preset (made from a RulesProblem: its plans then carry the
// layout's extra genes, move order and oval orientations, and breed with RulesStep).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "host/backend/backend.hpp"
#include "problems/pile_in/gapi1_scheme.hpp"
#include "problems/pile_in/rules.hpp"
#include "problems/pile_in/scenario.hpp"

namespace gaeval::learn {
struct Chunking;     // host/learn/word_population.hpp
struct LayoutNeeds;  // host/learn/population_layout.hpp
}  // namespace gaeval::learn

namespace gaeval::pile_in {

struct GenerationStats {
    float best = 0, worst = 0;
    double mean = 0;          // exact: integer sum of 2^-16 fixed-point images / N
    uint64_t best_index = 0;  // index of the best plan in the current population
};

// The statistics of a ranked generation of `size` plans (every backend computes them so):
// the first and last ranked plans' fitness, and the mean from the exact sum of the fitness
// values' 2^-16 fixed-point images.
GenerationStats generation_stats(float best, float worst, uint64_t best_index,
                                 int64_t fixed_point_sum, uint64_t size);

// Seconds spent in each phase (summed over calls; the engine reads deltas).
struct PhaseTimes {
    double evaluate = 0, select = 0, vary = 0, statistics = 0;
};

struct BreedParams {
    uint64_t seed = 0;
    uint32_t generation = 0;  // the generation being made
    uint64_t survivors = 0;
    double mutation_rate = 0;
};

class Population {
  public:
    virtual ~Population() = default;
    virtual std::string backend_name() const = 0;
    uint64_t size() const { return size_; }
    // Words per plan: one per model for GAPI1, PlanLayout::words for a rules preset.
    int gene_count() const { return gene_count_; }

    // Generation 0: random plans (rules: individual 0 does not move).
    virtual void randomize(uint64_t seed) = 0;
    // Scores every plan (GAPI1 or the rules fitness; repair mode rewrites repaired plans).
    virtual void evaluate() = 0;
    // Ranks the scored plans best first (ties by index) and returns the statistics.
    virtual GenerationStats rank() = 0;
    // Replaces the population with the next generation from the last ranking (GAPI1 step, or
    // RulesStep for a rules preset).
    virtual void breed(const BreedParams& params) = 0;

    // Copies out one plan (gene_count words), all fitness values, the last ranking, or every
    // gene ([gene * size + individual]); write_genes replaces every gene (checkpoint resume).
    virtual void read_plan(uint64_t index, uint32_t* genes) const = 0;
    virtual void read_fitness(std::vector<float>& out) const = 0;
    virtual void read_ranking(std::vector<uint32_t>& out) const = 0;
    virtual void read_genes(std::vector<uint32_t>& out) const = 0;
    virtual void write_genes(const std::vector<uint32_t>& in) = 0;

    const PhaseTimes& times() const { return times_; }

  protected:
    Population(uint64_t size, int gene_count) : size_(size), gene_count_(gene_count) {}
    uint64_t size_;
    int gene_count_;
    PhaseTimes times_;
};

// The GAPI1 step of `params` over a population of `population` plans: the parents are the
// ranking's first params.survivors plans, read through `ranked` (nullptr: src holds the
// survivors best first). Every backend breeds with this step (RulesStep wraps it).
inline Gapi1Step gapi1_step(const BreedParams& params, uint64_t population, const uint32_t* ranked,
                            PlanView src, PlanView dst) {
    Gapi1Step step;
    step.seed = params.seed;
    step.generation = params.generation;
    step.population = population;
    step.survivors = params.survivors;
    step.mutation_rate = params.mutation_rate;
    step.ranked = ranked;
    step.src = src;
    step.dst = dst;
    return step;
}

// The breeding step (GAPI1, or RulesStep when rules is set) over host memory on OpenMP
// threads: the CPU backend's breed, and the CUDA backend's when its plans live on the host.
// `survivors` is scratch space (resized to survivors x words) owned by the caller.
void breed_on_host(const BreedParams& params, const RulesProblem* rules, const uint32_t* ranked,
                   PlanView src, PlanView dst, int threads, std::vector<uint32_t>& survivors);

// Bytes a population of `size` plans of `genes` genes needs on its backend (two gene buffers,
// fitness, ranking and sort workspace).
// survivor_share: the share of plans that survive (1 - crossover; 1 when unknown): where
// breeding runs on the host they are gathered into a buffer of their own first.
uint64_t population_bytes(uint64_t size, int genes, BackendKind kind, double survivor_share = 1.0);

// Makes a population on the chosen backend. Checks memory first: a population that cannot fit
// is an InputError naming the bytes needed and available, before anything is allocated.
// survivors: plans that survive each generation (survivor_count; 0: unknown). A population too
// large for its backend's memory whose survivors fit is streamed, said on stderr: on the cpu the
// engine population's streamed layout (make_engine_fitting in population.cpp:
// learn::choose_layout, 10% of the available memory kept), on cuda StreamedPopulation.
// GAEVAL_CPU_CHUNK=N (cpu) or GAEVAL_CUDA_CHUNK=N (cuda) forces streaming in chunks of N plans;
// GAEVAL_CUDA_HOST_CHUNK=N forces the cuda backend's plans-in-host-memory mode.
std::unique_ptr<Population> make_population(const BackendChoice& backend, const Scenario& scenario,
                                            uint64_t size, uint64_t survivors = 0);
std::unique_ptr<Population> make_population(const BackendChoice& backend,
                                            const RulesProblem& problem, uint64_t size,
                                            uint64_t survivors = 0);

// The CPU backend over the one GA engine (host/pile_in/engine_population.cpp): problem pile-in
// (rules == nullptr: GAPI1 on `scenario`) or pile-in-rules (the rules problem, its own
// scenario), bred by scheme gapi1 or rules on `threads` threads (<= 0: every core); genomes
// member-major inside, read and written gene-major.
std::unique_ptr<Population> make_cpu_population(const Scenario& scenario, uint64_t size,
                                                int threads, const RulesProblem* rules = nullptr);
// The engine population on any backend (host/pile_in/engine_population.cpp), laid out as
// `chunking` says (learn::Chunking; host/learn/population_layout.hpp chooses one that fits).
std::unique_ptr<Population> make_engine_population(const BackendChoice& backend,
                                                   const Scenario& scenario, uint64_t size,
                                                   const RulesProblem* rules,
                                                   learn::Chunking chunking);
// The same with the engine's chunked layout (learn::Chunking): the plans in host memory,
// evaluated and bred `chunk` plans at a time through the cpu backend (parents_on_host: bred on
// the host's threads over the whole population instead; survivors_only: the streamed layout,
// only the survivors kept, every plan made again a chunk at a time), the same bits as the
// resident one.
std::unique_ptr<Population> make_cpu_chunked_population(const Scenario& scenario, uint64_t size,
                                                        int threads, const RulesProblem* rules,
                                                        uint64_t chunk, bool parents_on_host,
                                                        bool survivors_only = false);
// The CUDA backend (host/pile_in/cuda_population.cpp; in a build without CUDA these throw).
// chunk == 0: the population lives on the device. chunk > 0: streamed on the device `chunk`
// plans at a time (StreamedPopulation: survivors, fitness and ranking on the device, no genome
// copied during a generation).
std::unique_ptr<Population> make_cuda_population(const Scenario& scenario, uint64_t size,
                                                 const RulesProblem* rules = nullptr,
                                                 uint64_t chunk = 0);
// Plans in page-locked host memory, evaluated `chunk` plans at a time on two streams (copies
// overlap kernels); ranking on the device, breeding on the host's cores (the same step): for
// populations whose survivors do not fit on the device either.
std::unique_ptr<Population> make_cuda_host_chunked_population(const Scenario& scenario,
                                                              uint64_t size,
                                                              const RulesProblem* rules,
                                                              uint64_t chunk, int host_threads);
// Device bytes of the plans-in-host-memory mode (fitness, ranking, sort workspace, two chunk
// buffers).
uint64_t chunked_device_bytes(uint64_t size, int genes, uint64_t chunk);
// Bytes of a streamed population on its backend: fitness and ranking of every plan, two
// survivor buffers, one chunk of plans with its scratch fitness, the ranking's workspace.
uint64_t streamed_population_bytes(uint64_t size, int genes, uint64_t survivors, uint64_t chunk,
                                   BackendKind kind);
// Resident on the device when `needed` bytes fit with 10% to spare; else streamed on the device
// when its survivors fit; else plans in host memory; InputError naming the memory when none
// fits. Says on stderr which mode it chose and why when it is not the resident one.
std::unique_ptr<Population> make_cuda_population_fitting(const Scenario& scenario, uint64_t size,
                                                         int words, uint64_t needed,
                                                         uint64_t survivors,
                                                         const RulesProblem* rules);
// What the engine population of `size` plans of `words` words needs on `backend`
// (learn::LayoutNeeds; survivors 0: unknown, the population cannot stream; host_free unknown).
learn::LayoutNeeds layout_needs(const BackendChoice& backend, int words, uint64_t size,
                                uint64_t survivors);
// make(), a cuda::OutOfMemory while it allocates turned into the InputError naming the
// population ("--population N: ...").
std::unique_ptr<Population> allocating(uint64_t size,
                                       const std::function<std::unique_ptr<Population>()>& make);
// A positive plan count from the environment variable `name`; 0 when it is unset or empty;
// InputError naming the variable when it is not a positive whole number.
uint64_t chunk_from_environment(const char* name);
// Bytes of CUB's sort workspace for `size` plans.
uint64_t cuda_ranking_workspace_bytes(uint64_t size);

}  // namespace gaeval::pile_in
