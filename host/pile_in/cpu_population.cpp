// What pile-in's own populations still run on the host's cores: the CPU form of the CUDA
// backend's streamed population (make_cpu_streamed_population: the tests' CPU reference of the
// device streaming) and the breeding of the CUDA backend's plans in host memory
// (breed_on_host). `gaeval pile-in --backend cpu` runs on the one GA engine, resident or
// streamed (host/pile_in/engine_population.cpp, population.cpp).
#include <algorithm>
#include <stdexcept>

#include "host/backend/cpu_ranking.hpp"
#include "host/backend/parallel.hpp"
#include "host/pile_in/population.hpp"
#include "host/pile_in/streamed_population.hpp"
#include "problems/pile_in/gapi1_fitness.hpp"
#include "problems/pile_in/gapi1_scheme.hpp"
#include "problems/pile_in/rules_fitness.hpp"
#include "problems/pile_in/rules_scheme.hpp"

namespace gaeval::pile_in {

namespace {

// Children per chunk of breed_on_host's round-robin breeding loop (parallel_for_then); a
// multiple of kGapi1Lanes, so that evaluate() deals its blocks to the same threads.
constexpr int kBreedChunk = 64;
static_assert(kBreedChunk % kGapi1Lanes == 0, "breeding chunks hold whole lane blocks");

// GAPI1 fitness of plans 0 .. n-1 of `plans` (gene-major): blocks of kGapi1Lanes plans in
// SIMD lanes (the same bits as one at a time), dealt to the threads as breed_on_host deals its
// plans (chunks of kBreedChunk plans round-robin, so that each thread scores the children its
// own core just wrote: with halves instead, 10^5 plans scaled 1.66x on 2 threads, not 2x), then
// the plans past the last whole block one at a time.
void evaluate_gapi1_on_cpu(const EvaluateGapi1& op, uint64_t n, int threads) {
    const int64_t blocks = static_cast<int64_t>(n / kGapi1Lanes);
    EvaluateGapi1Lanes<kGapi1Lanes> lanes{op.scenario, op.plans, op.fitness};
    parallel_for_chunks(blocks, threads, lanes, kBreedChunk / kGapi1Lanes);
    for (uint64_t i = static_cast<uint64_t>(blocks) * kGapi1Lanes; i < n; ++i) op(i);
}

}  // namespace

void breed_on_host(const BreedParams& p, const RulesProblem* rules, const uint32_t* ranked,
                   PlanView src, PlanView dst, int threads, std::vector<uint32_t>& survivors) {
    // Survivors first gathered best-first into a plan-major buffer: each child then reads its
    // two parents from a few cache lines instead of one line per gene (the gene-major
    // population's random reads missed the cache on nearly every gene beyond 10^5 plans).
    // The children are the same bits: parents are addressed by rank either way.
    if (p.survivors < 1 || p.survivors > src.stride)
        throw std::logic_error("breed: survivors must be 1 to the population size");
    const int words = src.gene_count;
    survivors.resize(p.survivors * static_cast<uint64_t>(words));
    const PlanView compact = plan_major_view(survivors.data(), words);
    auto gather = [&](int64_t r) {
        for (int m = 0; m < words; ++m) compact.set_gene(r, m, src.gene(ranked[r], m));
    };
    const Gapi1Step step = gapi1_step(p, src.stride, nullptr, compact, dst);
    // One parallel region: gather, then breed (clones first in index order, children after:
    // the children's chunks are dealt round-robin so each thread gets its share of both).
    const int64_t survivor_count = static_cast<int64_t>(p.survivors);
    const int64_t children = static_cast<int64_t>(dst.stride);
    if (rules) {
        RulesStep rules_step{*rules, step};
        parallel_for_then(survivor_count, gather, children, rules_step, threads, kBreedChunk);
    } else {
        parallel_for_then(survivor_count, gather, children, step, threads, kBreedChunk);
    }
}

namespace {

// StreamedPopulation's backend on the CPU: host memory, OpenMP loops, the CPU ranking.
struct CpuStreamExec {
    int threads = 1;
    template <class T>
    using Array = std::vector<T>;
    std::string name() const { return "cpu"; }
    template <class T>
    void to_host(T* dst, const T* src, uint64_t n) const {
        std::copy_n(src, n, dst);
    }
    template <class T>
    void to_backend(T* dst, const T* src, uint64_t n) const {
        std::copy_n(src, n, dst);
    }
    template <class Op>
    void run(const Op& op, uint64_t n) const {
        // Rules plans vary in cost (paths, repair rounds): dynamic chunks.
        parallel_for_dynamic(static_cast<int64_t>(n), threads, op, 64);
    }
    void run(const EvaluateGapi1& op, uint64_t n) const {
        if (op.plans.step == 1)
            evaluate_gapi1_on_cpu(op, n, threads);  // SIMD lanes read gene-major plans
        else
            parallel_for(static_cast<int64_t>(n), threads, op);
    }
    void rank(const float* fitness, uint32_t* ranked, uint64_t n) const {
        rank_descending(fitness, ranked, n, threads);
    }
    int64_t fixed_point_sum(const float* fitness, uint64_t n) const {
        return gaeval::fixed_point_sum(fitness, n, threads);
    }
};

}  // namespace

std::unique_ptr<Population> make_cpu_streamed_population(const Scenario& scenario, uint64_t size,
                                                         int threads, const RulesProblem* rules,
                                                         uint64_t chunk) {
    CpuStreamExec exec;
    exec.threads = threads > 0 ? threads : default_thread_count();
    return std::make_unique<StreamedPopulation<CpuStreamExec>>(
        exec, rules ? rules->scenario : scenario, size, rules, chunk);
}

}  // namespace gaeval::pile_in
