#include "host/pile_in/population.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "host/backend/backend_ranking.hpp"
#include "host/backend/memory.hpp"
#include "host/core/error.hpp"
#include "host/learn/population_layout.hpp"

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

// The engine population on the cpu: resident when it fits the host's available memory less
// 10%, else streamed (only its survivors kept: learn::choose_layout); GAEVAL_CPU_CHUNK=N
// forces streaming N plans at a time.
std::unique_ptr<Population> make_cpu_checked(const BackendChoice& backend, const Scenario& scenario,
                                             int words, uint64_t size, uint64_t survivors,
                                             const RulesProblem* rules) {
    if (const uint64_t chunk = chunk_from_environment("GAEVAL_CPU_CHUNK"))
        return make_engine_population(backend, scenario, size, rules,
                                      learn::Chunking{chunk, false, true});
    const uint64_t available = available_host_memory();
    if (!available) return make_engine_population(backend, scenario, size, rules, {});
    learn::LayoutNeeds needs;
    needs.members = size;
    needs.genome_bytes = static_cast<uint64_t>(words) * sizeof(uint32_t);
    needs.survivors = survivors ? survivors : size;
    needs.streams_survivors = survivors > 0;
    needs.ranking_bytes = BackendRanker::workspace_bytes(backend, size);
    const learn::LayoutChoice choice = learn::choose_layout(needs, available);
    if (choice.chunking.members)
        std::fprintf(stderr,
                     "gaeval: population of %llu plans needs %s resident, more than the %s of host "
                     "memory available less 10%%: %s\n",
                     static_cast<unsigned long long>(size),
                     human_bytes(double(learn::resident_bytes(needs))).c_str(),
                     human_bytes(double(available)).c_str(),
                     learn::describe_layout(needs, choice).c_str());
    return make_engine_population(backend, scenario, size, rules, choice.chunking);
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
