// Backend selection shared by every subcommand: `--backend auto|cpu|cuda` and `--threads T`.
#pragma once

#include <string>

namespace gaeval {

enum class BackendKind { Cpu, Cuda };

struct BackendChoice {
    BackendKind kind = BackendKind::Cpu;
    int threads = 0;     // cpu backend threads (resolved: >= 1)
    std::string name;    // "cpu" or "cuda"
    std::string device;  // CPU model and thread count, or GPU name
    std::string note;    // why auto picked what it picked
};

// True when this binary was built with the CUDA backend.
bool cuda_compiled();

// Whether a usable CUDA device exists; *reason says why not (or names it).
bool cuda_device_present(std::string* reason = nullptr);

// Resolve a --backend flag. `auto` picks cuda when a device exists, else cpu (note says why);
// `cuda` without a device throws InputError naming the reason. threads <= 0: all cores.
BackendChoice resolve_backend(const std::string& flag, int threads);

// Islands over MPI: with several GPUs, rank `local_rank` of this machine takes GPU
// (local_rank mod count) before any other CUDA call; returns that ordinal, -1 when nothing
// changed (no CUDA build, no GPU or a single one).
int select_local_device(int local_rank);

// The GPU for reports: "NVIDIA H100 80GB HBM3, 79.1 GiB, 132 SMs, compute 9.0, driver 13.0,
// runtime 13.0" or "none (why)", and its theoretical memory bandwidth (0 without a GPU).
struct GpuSummary {
    std::string description;
    double bandwidth_gbs = 0;
};
GpuSummary gpu_summary();

// "AMD EPYC 7763 64-Core Processor" (from /proc/cpuinfo), or "unknown CPU".
std::string cpu_model_name();

}  // namespace gaeval
