// What pile-in's own populations still run on the host's cores: the breeding of the CUDA
// backend's plans in host memory (breed_on_host, until `--backend cuda` runs on the one GA engine:
// docs/pile_in.md). `gaeval pile-in --backend cpu` runs on the engine, resident or streamed
// (host/pile_in/engine_population.cpp, population.cpp).
#include <algorithm>
#include <stdexcept>

#include "host/backend/parallel.hpp"
#include "host/pile_in/population.hpp"
#include "problems/pile_in/gapi1_scheme.hpp"
#include "problems/pile_in/rules_scheme.hpp"

namespace gaeval::pile_in {

namespace {

// Children per chunk of breed_on_host's round-robin breeding loop (parallel_for_then).
constexpr int kBreedChunk = 64;

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

}  // namespace gaeval::pile_in
