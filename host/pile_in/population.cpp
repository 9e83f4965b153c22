#include "host/pile_in/population.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include "host/backend/memory.hpp"
#include "host/core/error.hpp"
#if GAEVAL_HAVE_CUDA
#include "kernels/cuda_api.hpp"
#include "kernels/ranking.hpp"
#endif

namespace gaeval::pile_in {

uint64_t population_bytes(uint64_t size, int genes, BackendKind kind, double survivor_share) {
    uint64_t bytes = 2 * size * genes * sizeof(uint32_t)  // current and next generation
                     + size * sizeof(float)               // fitness
                     + size * sizeof(uint32_t);           // ranking
    if (kind == BackendKind::Cpu) {
        bytes += size * sizeof(uint64_t);  // packed sort keys
        bytes += static_cast<uint64_t>(survivor_share * size) * genes * sizeof(uint32_t);
    } else {
#if GAEVAL_HAVE_CUDA
        bytes += cuda::Ranker::workspace_bytes(size);
#endif
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
#if GAEVAL_HAVE_CUDA
    // Resident on the device when it fits (with 10% to spare for the runtime); else plans in
    // host memory, evaluated in chunks (fitness and ranking still on the device).
    const uint64_t available = cuda::free_device_memory();
    const uint64_t spare = available / 10;
    // GAEVAL_CUDA_CHUNK=N forces the chunked mode with N plans per chunk (to check it against
    // the resident mode on populations that fit).
    if (const char* forced = std::getenv("GAEVAL_CUDA_CHUNK")) {
        const long long chunk = std::atoll(forced);
        if (chunk < 1) throw InputError("GAEVAL_CUDA_CHUNK: must be a positive plan count");
        return make_cuda_population(scenario, size, rules, static_cast<uint64_t>(chunk), 0);
    }
    try {
        if (needed + spare <= available) return make_cuda_population(scenario, size, rules);
    } catch (const cuda::OutOfMemory& e) {
        throw InputError("--population " + std::to_string(size) + ": " + e.what());
    }
    const uint64_t plan_bytes = static_cast<uint64_t>(words) * sizeof(uint32_t);
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
                 "gaeval: population of %llu plans needs %s, more than the GPU's %s free: plans "
                 "stay in host memory and are evaluated %llu at a time\n",
                 static_cast<unsigned long long>(size), human_bytes(needed).c_str(),
                 human_bytes(available).c_str(), static_cast<unsigned long long>(chunk));
    try {
        return make_cuda_population(scenario, size, rules, chunk, 0);
    } catch (const cuda::OutOfMemory& e) {
        throw InputError("--population " + std::to_string(size) + ": " + e.what());
    }
#else
    throw InputError("this gaeval was built without the CUDA backend");
#endif
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
