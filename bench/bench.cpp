#include "bench/bench.hpp"

#include <algorithm>
#include <chrono>
#include <map>

#include "host/core/interrupt.hpp"
#if GAEVAL_HAVE_CUDA
#include "kernels/cuda_api.hpp"
#endif

namespace gaeval::bench {

namespace {
double quantile(std::vector<double> v, double q) {
    std::sort(v.begin(), v.end());
    if (v.empty()) return 0;
    double pos = q * (v.size() - 1);
    std::size_t lo = static_cast<std::size_t>(pos);
    std::size_t hi = std::min(lo + 1, v.size() - 1);
    return v[lo] + (v[hi] - v[lo]) * (pos - lo);
}
}  // namespace

namespace {
// One sample. On the cuda backend the region's kernels and copies are also timed apart with
// CUDA events (kernels/cuda_api.hpp): *kernel gets the kernels' device time and the sample's
// transfer_seconds the copies'; the sample's seconds stay the sampler's (host clock), so a
// row's throughput always counts the whole region. Elsewhere *kernel is 0.
Sample take_sample(const std::string& backend, const std::function<Sample()>& once,
                   double* kernel) {
    *kernel = 0;
#if GAEVAL_HAVE_CUDA
    if (backend == "cuda") {
        cuda::device_timing_begin();
        Sample smp;
        try {
            smp = once();
        } catch (...) {
            cuda::device_timing_end();
            throw;
        }
        const cuda::DeviceTimes device = cuda::device_timing_end();
        *kernel = device.kernel_seconds;
        if (device.transfers > 0) smp.transfer_seconds = device.transfer_seconds;
        return smp;
    }
#else
    (void)backend;
#endif
    return once();
}
}  // namespace

Row measure(const Settings& s, const std::string& workload, const std::string& size,
            const std::string& backend, double items, const std::string& unit,
            const std::function<Sample()>& once) {
    for (int i = 0; i < s.warmup; ++i) once();
    std::vector<double> times, transfers, kernels;
    double spent = 0;
    Row row;
    while (static_cast<int>(times.size()) < s.max_samples) {
        throw_if_interrupted("bench stopped at " + workload + " " + size + " on " + backend);
        double kernel = 0;
        Sample smp = take_sample(backend, once, &kernel);
        times.push_back(smp.seconds);
        transfers.push_back(smp.transfer_seconds);
        kernels.push_back(kernel);
        spent += smp.seconds;
        if (static_cast<int>(times.size()) >= s.min_samples) {
            double med = quantile(times, 0.5);
            double noise = med > 0 ? (quantile(times, 0.9) - quantile(times, 0.1)) / med : 0;
            if (noise <= s.max_noise || spent >= s.max_seconds) break;
        }
    }
    row.workload = workload;
    row.size = size;
    row.backend = backend;
    row.samples = static_cast<int>(times.size());
    row.median_seconds = quantile(times, 0.5);
    row.noise = row.median_seconds > 0
                    ? (quantile(times, 0.9) - quantile(times, 0.1)) / row.median_seconds
                    : 0;
    row.transfer_seconds = quantile(transfers, 0.5);
    row.kernel_seconds = quantile(kernels, 0.5);
    row.items = items;
    row.unit = unit;
    return row;
}

void fill_ratios(std::vector<Row>& rows) {
    std::map<std::pair<std::string, std::string>, double> cpu1, cpu;
    for (const Row& r : rows) {
        if (r.backend == "cpu1") cpu1[{r.workload, r.size}] = r.throughput();
        if (r.backend == "cpu") cpu[{r.workload, r.size}] = r.throughput();
    }
    for (Row& r : rows) {
        auto a = cpu1.find({r.workload, r.size});
        if (a != cpu1.end() && a->second > 0) r.ratio_cpu1 = r.throughput() / a->second;
        auto b = cpu.find({r.workload, r.size});
        if (b != cpu.end() && b->second > 0) r.ratio_cpu = r.throughput() / b->second;
    }
}

std::vector<BenchBackend> bench_backends(const std::vector<std::string>& labels) {
    std::vector<BenchBackend> list;
    for (const std::string& label : labels) {
        if (label == "cpu1") list.push_back({label, resolve_backend("cpu", 1)});
        if (label == "cpu") list.push_back({label, resolve_backend("cpu", 0)});
        if (label == "cuda" && cuda_device_present())
            list.push_back({label, resolve_backend("cuda", 0)});
    }
    return list;
}

Settings signature_settings() {
    Settings s;
    s.warmup = 0;
    s.min_samples = 1;
    s.max_samples = 1;
    return s;
}

void CaseResults::add(Row& row, uint64_t hash) { add(row, hash, hash); }

void CaseResults::add(Row& row, uint64_t hash, uint64_t check) {
    row.signature = hash;
    if (!have_) {
        have_ = true;
        first_ = hash;
        first_check_ = check;
        first_label_ = row.backend;
        *signature_ = fnv1a(&hash, sizeof hash, *signature_);
    } else if (hash != first_ || check != first_check_) {
        row.mismatch = true;
        row.note +=
            (row.note.empty() ? "" : "; ") + std::string("RESULTS DIFFER from ") + first_label_;
    }
}

}  // namespace gaeval::bench
