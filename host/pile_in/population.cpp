#include "host/pile_in/population.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include "host/backend/memory.hpp"
#include "host/core/error.hpp"

namespace gaeval::pile_in {

GenerationStats generation_stats(float best, float worst, uint64_t best_index,
                                 int64_t fixed_point_sum, uint64_t size) {
    GenerationStats s;
    s.best = best;
    s.worst = worst;
    s.best_index = best_index;
    s.mean = static_cast<double>(fixed_point_sum) / 65536.0 / static_cast<double>(size);
    return s;
}

uint64_t population_bytes(uint64_t size, int genes, BackendKind kind, double survivor_share) {
    uint64_t bytes = 2 * size * genes * sizeof(uint32_t)  // current and next generation
                     + size * sizeof(float)               // fitness
                     + size * sizeof(uint32_t);           // ranking
    if (kind == BackendKind::Cpu) {
        bytes += size * sizeof(uint64_t);  // packed sort keys
        bytes += static_cast<uint64_t>(survivor_share * size) * genes * sizeof(uint32_t);
    } else {
        bytes += cuda_ranking_workspace_bytes(size);
    }
    return bytes;
}

namespace {

std::unique_ptr<Population> make_checked(const BackendChoice& backend, const Scenario& scenario,
                                         int words, uint64_t size, const RulesProblem* rules) {
    if (size < 2) throw InputError("--population: must be at least 2, got " + std::to_string(size));
    if (size > 0xffffffffull)
        throw InputError("--population: at most 4294967295 plans, got " + std::to_string(size));
    const uint64_t needed = population_bytes(size, words, backend.kind);
    if (backend.kind == BackendKind::Cpu) {
        const uint64_t available = available_host_memory();
        if (available && needed > available)
            throw InputError("--population " + std::to_string(size) + ": needs " +
                             human_bytes(needed) + " of host memory, " + human_bytes(available) +
                             " available");
        return make_cpu_population(scenario, size, backend.threads, rules);
    }
    return make_cuda_population_fitting(scenario, size, words, needed, rules);
}

}  // namespace

std::unique_ptr<Population> make_population(const BackendChoice& backend, const Scenario& scenario,
                                            uint64_t size) {
    return make_checked(backend, scenario, scenario.friendly_count, size, nullptr);
}

std::unique_ptr<Population> make_population(const BackendChoice& backend,
                                            const RulesProblem& problem, uint64_t size) {
    return make_checked(backend, problem.scenario, problem.layout.words, size, &problem);
}

}  // namespace gaeval::pile_in
