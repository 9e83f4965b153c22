// Measuring helper shared by every workload of `gaeval bench` (nvbench style): warm-up, then
// samples until the relative noise is under a bound or the time budget is spent; one Row per
// (workload, size, backend) for the markdown / CSV / JSON table.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "host/backend/backend.hpp"
#include "host/core/clock.hpp"
#include "host/core/hash.hpp"

namespace gaeval::bench {

struct Settings {
    double max_noise = 0.03;   // stop when (p90 - p10) / median is under this
    double max_seconds = 2.0;  // time budget per row, warm-up excluded
    int min_samples = 5;
    int max_samples = 100;
    int warmup = 1;
};

// One sample: the seconds the measured region took (a steady clock) and, apart, the seconds
// spent moving data between host and device (on the cuda backend measure() fills it from CUDA
// events around every copy of the region, kernels/cuda_api.hpp).
struct Sample {
    double seconds = 0;
    double transfer_seconds = 0;
};

struct Row {
    std::string workload;  // "pile-in gapi1", "perft", "playout random", ...
    std::string size;      // "pop=1e6 models=20v20", "startpos d=6", ...
    std::string backend;   // "cpu1", "cpu", "cuda"
    int samples = 0;
    double median_seconds = 0;
    double noise = 0;             // (p90 - p10) / median over the samples
    double transfer_seconds = 0;  // median, apart from median_seconds
    double kernel_seconds = 0;    // cuda: median device time of the region's kernels (events)
    double items = 0;             // items per sample (individuals, nodes, plies, games)
    std::string unit;             // "individuals/s", "nodes/s", "plies/s", "games/s"
    double bytes_per_item = 0;    // device/host memory traffic or footprint per item
    double peak_host_bytes = 0, peak_device_bytes = 0;
    double ratio_cpu1 = 0, ratio_cpu = 0;  // filled by the table when those rows exist
    double fraction_of_limit = 0;          // of a known device limit (0: none known)
    uint64_t signature = 0;                // hash over the computed results (0: none)
    bool mismatch = false;                 // results differ from the first backend's
    std::string note;
    double throughput() const { return median_seconds > 0 ? items / median_seconds : 0; }
};

// Runs `once` settings.warmup times unmeasured, then until the noise bound or the budget.
Row measure(const Settings& settings, const std::string& workload, const std::string& size,
            const std::string& backend, double items, const std::string& unit,
            const std::function<Sample()>& once);

// A benchmark backend: "cpu1" (one thread), "cpu" (all cores), "cuda".
struct BenchBackend {
    std::string label;
    BackendChoice choice;
};
// The labels' backends in order; cuda is left out when no device is present.
std::vector<BenchBackend> bench_backends(const std::vector<std::string>& labels);

// One untimed sample per row (for `gaeval bench --signature`).
Settings signature_settings();

// The results of one case on several backends: the first backend's result is folded into the
// signature; each later one must equal it, else the row is marked as a mismatch.
class CaseResults {
  public:
    explicit CaseResults(uint64_t* signature) : signature_(signature) {}
    // hash: the row's result digest (computed over the part every backend computes), folded
    // into the signature; check: what the backends' rows must agree on (default: hash), e.g.
    // the digest and the games' move hashes, which the signature predates.
    void add(Row& row, uint64_t hash);
    void add(Row& row, uint64_t hash, uint64_t check);

  private:
    uint64_t* signature_;
    bool have_ = false;
    uint64_t first_ = 0;
    uint64_t first_check_ = 0;
    std::string first_label_;
};

// Fills ratio_cpu1 / ratio_cpu of each row from the rows of the same workload and size.
void fill_ratios(std::vector<Row>& rows);

}  // namespace gaeval::bench
