#include "host/pile_in/population.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>

#include "host/backend/backend_array.hpp"
#include "host/backend/backend_ranking.hpp"
#include "host/backend/memory.hpp"
#include "host/core/error.hpp"
#include "host/learn/population_layout.hpp"
#include "kernels/cuda_api.hpp"

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

std::unique_ptr<Population> allocating(uint64_t size,
                                       const std::function<std::unique_ptr<Population>()>& make) {
    try {
        return make();
    } catch (const cuda::OutOfMemory& e) {
        throw InputError("--population " + std::to_string(size) + ": " + e.what());
    }
}

learn::LayoutNeeds layout_needs(const BackendChoice& backend, int words, uint64_t size,
                                uint64_t survivors) {
    learn::LayoutNeeds needs;
    needs.members = size;
    needs.genome_bytes = static_cast<uint64_t>(words) * sizeof(uint32_t);
    needs.survivors = survivors ? survivors : size;
    needs.streams_survivors = survivors > 0;
    needs.host_apart = memory_apart_from_host(backend);
    needs.ranking_bytes = BackendRanker::workspace_bytes(backend, size);
    return needs;
}

namespace {

// The layout a population of `size` plans of `words` words takes in `free` bytes of its
// backend (learn::choose_layout), said on stderr when it is not the resident one.
learn::Chunking fitting_layout(const BackendChoice& backend, int words, uint64_t size,
                               uint64_t survivors, uint64_t free) {
    learn::LayoutNeeds needs = layout_needs(backend, words, size, survivors);
    needs.host_free = needs.host_apart ? available_host_memory() : 0;
    const learn::LayoutChoice choice = learn::choose_layout(needs, free);
    if (choice.chunking.members)
        std::fprintf(stderr,
                     "gaeval: population of %llu plans needs %s resident, more than the %s of %s "
                     "less 10%%: %s\n",
                     static_cast<unsigned long long>(size),
                     human_bytes(double(learn::resident_bytes(needs))).c_str(),
                     human_bytes(double(free)).c_str(),
                     needs.host_apart ? "GPU memory free" : "host memory available",
                     learn::describe_layout(needs, choice).c_str());
    return choice.chunking;
}

// The engine population on `backend`: resident when it fits the backend's free memory (the
// cpu: the host's available memory) less 10%, else streamed (only its survivors kept), else
// (a backend apart from the host: cuda) plans in host memory: learn::choose_layout.
// GAEVAL_CPU_CHUNK=N (cpu) or GAEVAL_CUDA_CHUNK=N (cuda) forces streaming N plans at a time,
// GAEVAL_CUDA_HOST_CHUNK=N (cuda) plans in host memory evaluated and bred N at a time.
// `gaeval pile-in --backend cpu` runs it; cuda once a GPU has passed the tests (docs/pile_in.md).
std::unique_ptr<Population> make_engine_fitting(const BackendChoice& backend,
                                                const Scenario& scenario, int words, uint64_t size,
                                                uint64_t survivors, const RulesProblem* rules) {
    const bool apart = memory_apart_from_host(backend);
    learn::Chunking chunking;
    if (const uint64_t chunk =
            chunk_from_environment(apart ? "GAEVAL_CUDA_CHUNK" : "GAEVAL_CPU_CHUNK"))
        chunking = learn::Chunking{chunk, false, true};
    else if (const uint64_t host_chunk =
                 apart ? chunk_from_environment("GAEVAL_CUDA_HOST_CHUNK") : 0)
        chunking = learn::Chunking{host_chunk, false, false};
    else if (const uint64_t free = backend_free_memory(backend))
        chunking = fitting_layout(backend, words, size, survivors, free);
    return allocating(
        size, [&] { return make_engine_population(backend, scenario, size, rules, chunking); });
}

std::unique_ptr<Population> make_checked(const BackendChoice& backend, const Scenario& scenario,
                                         int words, uint64_t size, uint64_t survivors,
                                         const RulesProblem* rules) {
    if (size < 2) throw InputError("--population: must be at least 2, got " + std::to_string(size));
    if (size > 0xffffffffull)
        throw InputError("--population: at most 4294967295 plans, got " + std::to_string(size));
    if (survivors > size) survivors = size;
    if (backend.kind == BackendKind::Cpu)
        return make_engine_fitting(backend, scenario, words, size, survivors, rules);
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
