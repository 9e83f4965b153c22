#include "host/backend/backend.hpp"

#include <omp.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>

#include "host/backend/parallel.hpp"
#include "host/core/error.hpp"
#include "kernels/launch_config.hpp"
#if GAEVAL_HAVE_CUDA
#include "kernels/cuda_api.hpp"
#endif

namespace gaeval {

int default_thread_count() {
    int n = omp_get_max_threads();
    return n > 0 ? n : 1;
}

bool cuda_compiled() { return GAEVAL_HAVE_CUDA + 0 != 0; }

int select_local_device(int local_rank) {
#if GAEVAL_HAVE_CUDA
    return cuda::select_device_for_rank(local_rank);
#else
    (void)local_rank;
    return -1;
#endif
}

bool cuda_device_present(std::string* reason) {
#if GAEVAL_HAVE_CUDA
    static const cuda::DeviceInfo info = cuda::query_device();
    if (reason) *reason = info.present ? info.name : info.reason;
    return info.present;
#else
    if (reason) *reason = "this gaeval was built without the CUDA backend (GAEVAL_CUDA=OFF)";
    return false;
#endif
}

GpuSummary gpu_summary() {
    GpuSummary s;
#if GAEVAL_HAVE_CUDA
    const cuda::DeviceInfo d = cuda::query_device();
    if (d.present) {
        char g[256];
        std::snprintf(
            g, sizeof g, "%s, %.1f GiB, %d SMs, compute %d.%d, driver %d.%d, runtime %d.%d",
            d.name.c_str(), d.total_memory / 1073741824.0, d.multiprocessors, d.compute_major,
            d.compute_minor, d.driver_version / 1000, d.driver_version % 1000 / 10,
            d.runtime_version / 1000, d.runtime_version % 1000 / 10);
        s.description = g;
        s.bandwidth_gbs = d.memory_bandwidth_gbs;
    } else {
        s.description = "none (" + d.reason + ")";
    }
#else
    s.description = "none (built without CUDA)";
#endif
    return s;
}

std::string cpu_model_name() {
    std::ifstream in("/proc/cpuinfo");
    std::string line;
    while (std::getline(in, line)) {
        if (line.rfind("model name", 0) == 0) {
            auto colon = line.find(':');
            if (colon != std::string::npos) {
                auto start = line.find_first_not_of(" \t", colon + 1);
                if (start != std::string::npos) return line.substr(start);
            }
        }
    }
    return "unknown CPU";
}

BackendChoice resolve_backend(const std::string& flag, int threads) {
    if (threads < 0)
        throw InputError("--threads: must be >= 1 (or 0 for all cores), got " +
                         std::to_string(threads));
    BackendChoice choice;
    choice.threads = threads > 0 ? threads : default_thread_count();
    std::string reason;
    if (flag != "cpu") {
        // Checked before any launch, wherever the device may run (kernels/launch_config.hpp).
        const char* block = std::getenv("GAEVAL_CUDA_BLOCK");
        if (cuda::parse_block_override(block) < 0)
            throw InputError(std::string("GAEVAL_CUDA_BLOCK: '") + block +
                             "' is not a block size (a multiple of 32 from 32 to 1024, or auto)");
    }
    if (flag == "cpu") {
        choice.kind = BackendKind::Cpu;
        choice.note = "cpu backend requested";
    } else if (flag == "cuda") {
        if (!cuda_device_present(&reason)) throw InputError("--backend cuda: " + reason);
        choice.kind = BackendKind::Cuda;
        choice.note = "cuda backend requested";
    } else if (flag == "auto") {
        if (cuda_device_present(&reason)) {
            choice.kind = BackendKind::Cuda;
            choice.note = "auto: CUDA device found";
        } else {
            choice.kind = BackendKind::Cpu;
            choice.note = "auto: " + reason + ", using the cpu backend";
        }
    } else {
        throw InputError("--backend: unknown backend '" + flag + "' (expected auto, cpu or cuda)");
    }
    if (choice.kind == BackendKind::Cuda) {
        choice.name = "cuda";
        choice.device = reason;
    } else {
        choice.name = "cpu";
        choice.device = cpu_model_name() + ", " + std::to_string(choice.threads) + " threads";
    }
    return choice;
}

}  // namespace gaeval
