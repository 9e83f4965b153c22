#include "host/pile_in/population.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <string>

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

uint64_t streamed_population_bytes(uint64_t size, int genes, uint64_t survivors, uint64_t chunk,
                                   BackendKind kind) {
    const uint64_t plan = static_cast<uint64_t>(genes) * sizeof(uint32_t);
    uint64_t bytes = size * (sizeof(float) + sizeof(uint32_t))   // fitness, ranking
                     + 2 * survivors * plan                      // old and new survivors
                     + chunk * (plan + sizeof(float));           // a chunk and its scratch fitness
    bytes += kind == BackendKind::Cpu ? size * sizeof(uint64_t)  // packed sort keys
                                      : cuda_ranking_workspace_bytes(size);
    return bytes;
}

uint64_t chunk_from_environment(const char* name) {
    const char* text = std::getenv(name);
    if (!text || !*text) return 0;
    char* end = nullptr;
    errno = 0;
    const unsigned long long chunk = std::strtoull(text, &end, 10);
    if (errno || *end || text[0] == '-' || text[0] == '+' || chunk == 0)
        throw InputError(std::string(name) + ": '" + text + "' is not a positive plan count");
    return static_cast<uint64_t>(chunk);
}

namespace {

// Plans per chunk when a population is streamed without a forced size: large enough that a
// launch fills any GPU, small enough to leave the memory to the survivors.
constexpr uint64_t kStreamChunk = uint64_t{1} << 22;

std::unique_ptr<Population> make_cpu_checked(const BackendChoice& backend, const Scenario& scenario,
                                             int words, uint64_t size, uint64_t survivors,
                                             const RulesProblem* rules) {
    if (const uint64_t chunk = chunk_from_environment("GAEVAL_CPU_CHUNK"))
        return make_cpu_streamed_population(scenario, size, backend.threads, rules, chunk);
    const uint64_t needed = population_bytes(size, words, backend.kind);
    const uint64_t available = available_host_memory();
    if (!available || needed <= available)
        return make_cpu_population(scenario, size, backend.threads, rules);
    const uint64_t chunk = std::min(size, kStreamChunk);
    const uint64_t streamed =
        survivors ? streamed_population_bytes(size, words, survivors, chunk, backend.kind) : 0;
    if (!survivors || streamed > available)
        throw InputError("--population " + std::to_string(size) + ": needs " + human_bytes(needed) +
                         " of host memory" +
                         (survivors ? " (" + human_bytes(streamed) + " streamed)" : "") + ", " +
                         human_bytes(available) + " available");
    std::fprintf(stderr,
                 "gaeval: population of %llu plans needs %s, more than the %s of host memory "
                 "available: streamed %llu plans at a time, survivors kept (%s)\n",
                 static_cast<unsigned long long>(size), human_bytes(needed).c_str(),
                 human_bytes(available).c_str(), static_cast<unsigned long long>(chunk),
                 human_bytes(streamed).c_str());
    return make_cpu_streamed_population(scenario, size, backend.threads, rules, chunk);
}

std::unique_ptr<Population> make_checked(const BackendChoice& backend, const Scenario& scenario,
                                         int words, uint64_t size, uint64_t survivors,
                                         const RulesProblem* rules) {
    if (size < 2) throw InputError("--population: must be at least 2, got " + std::to_string(size));
    if (size > 0xffffffffull)
        throw InputError("--population: at most 4294967295 plans, got " + std::to_string(size));
    if (survivors > size) survivors = size;
    if (backend.kind == BackendKind::Cpu)
        return make_cpu_checked(backend, scenario, words, size, survivors, rules);
    const uint64_t needed = population_bytes(size, words, backend.kind);
    return make_cuda_population_fitting(scenario, size, words, needed, survivors, rules);
}

}  // namespace

std::unique_ptr<Population> make_population(const BackendChoice& backend, const Scenario& scenario,
                                            uint64_t size, uint64_t survivors) {
    return make_checked(backend, scenario, scenario.friendly_count, size, survivors, nullptr);
}

std::unique_ptr<Population> make_population(const BackendChoice& backend,
                                            const RulesProblem& problem, uint64_t size,
                                            uint64_t survivors) {
    return make_checked(backend, problem.scenario, problem.layout.words, size, survivors, &problem);
}

}  // namespace gaeval::pile_in
