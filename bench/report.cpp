#include "bench/report.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <sstream>

#include "host/backend/backend.hpp"
#include "host/backend/parallel.hpp"

namespace gaeval::bench {

std::string si(double v) {
    const char* prefixes[] = {"", " k", " M", " G", " T", " P"};
    int p = 0;
    while (std::fabs(v) >= 1000 && p < 5) {
        v /= 1000;
        ++p;
    }
    char buf[32];
    std::snprintf(buf, sizeof buf,
                  std::fabs(v) >= 100  ? "%.0f%s"
                  : std::fabs(v) >= 10 ? "%.1f%s"
                                       : "%.2f%s",
                  v, prefixes[p]);
    return buf;
}

std::string seconds_text(double s) {
    char buf[32];
    if (s >= 1)
        std::snprintf(buf, sizeof buf, "%.3g s", s);
    else if (s >= 1e-3)
        std::snprintf(buf, sizeof buf, "%.3g ms", s * 1e3);
    else
        std::snprintf(buf, sizeof buf, "%.3g us", s * 1e6);
    return buf;
}

MachineInfo describe_machine(const std::string& command) {
    MachineInfo m;
    std::time_t t = std::time(nullptr);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
    m.date = buf;
    m.version = GAEVAL_VERSION;
#ifdef NDEBUG
    m.build_type = "Release";
#else
    m.build_type = "Debug";
#endif
    m.cpu = cpu_model_name();
    m.cpu_threads = default_thread_count();
    const char* policy = std::getenv("OMP_WAIT_POLICY");
    const char* spins = std::getenv("GOMP_SPINCOUNT");
    m.wait_policy = policy  ? std::string(policy)
                    : spins ? "spin " + std::string(spins) + " rounds, then sleep"
                            : "runtime default";
    m.cuda_built = cuda_compiled();
    m.command = command;
    const GpuSummary gpu = gpu_summary();
    m.gpu = gpu.description;
    m.gpu_bandwidth_gbs = gpu.bandwidth_gbs;
    return m;
}

namespace {
std::string ratio_text(double r) {
    if (r <= 0) return "";
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2fx", r);
    return buf;
}
std::string hex64(uint64_t v) {
    char buf[24];
    std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(v));
    return buf;
}
}  // namespace

std::string markdown(const MachineInfo& m, const std::vector<Row>& rows, uint64_t signature) {
    std::ostringstream o;
    o << "# gaeval bench\n\n"
      << "- date: " << m.date << "\n"
      << "- gaeval " << m.version << ", " << m.build_type << " build, CUDA backend "
      << (m.cuda_built ? "built" : "not built") << "\n"
      << "- CPU: " << m.cpu << ", " << m.cpu_threads << " threads, OpenMP wait policy "
      << m.wait_policy << "\n"
      << "- GPU: " << m.gpu << "\n"
      << "- command: `" << m.command << "`\n\n"
      << "| workload | size | backend | samples | median | noise | throughput | bytes/item | "
         "vs cpu1 | vs cpu | of limit | transfer | kernels | note |\n"
      << "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n";
    for (const Row& r : rows) {
        char noise[16], limit[16];
        std::snprintf(noise, sizeof noise, "%.1f%%", 100 * r.noise);
        std::snprintf(limit, sizeof limit, "%.0f%%", 100 * r.fraction_of_limit);
        o << "| " << r.workload << " | " << r.size << " | " << r.backend << " | " << r.samples
          << " | " << seconds_text(r.median_seconds) << " | " << noise << " | "
          << si(r.throughput()) << " " << r.unit << " | "
          << (r.bytes_per_item > 0 ? si(r.bytes_per_item) + "B" : "") << " | "
          << ratio_text(r.ratio_cpu1) << " | " << ratio_text(r.ratio_cpu) << " | "
          << (r.fraction_of_limit > 0 ? limit : "") << " | "
          << (r.transfer_seconds > 0 ? seconds_text(r.transfer_seconds) : "") << " | "
          << (r.kernel_seconds > 0 ? seconds_text(r.kernel_seconds) : "") << " | " << r.note
          << " |\n";
    }
    o << "\nsignature: " << hex64(signature) << "\n";
    return o.str();
}

std::string csv(const std::vector<Row>& rows) {
    std::ostringstream o;
    o << "workload,size,backend,samples,median_s,noise,throughput,unit,bytes_per_item,ratio_cpu1,"
         "ratio_cpu,fraction_of_limit,transfer_s,kernel_s,peak_host_bytes,peak_device_bytes,note\n";
    for (const Row& r : rows) {
        o << '"' << r.workload << "\",\"" << r.size << "\"," << r.backend << ',' << r.samples << ','
          << r.median_seconds << ',' << r.noise << ',' << r.throughput() << ",\"" << r.unit << "\","
          << r.bytes_per_item << ',' << r.ratio_cpu1 << ',' << r.ratio_cpu << ','
          << r.fraction_of_limit << ',' << r.transfer_seconds << ',' << r.kernel_seconds << ','
          << r.peak_host_bytes << ',' << r.peak_device_bytes << ",\"" << r.note << "\"\n";
    }
    return o.str();
}

nlohmann::json to_json(const MachineInfo& m, const std::vector<Row>& rows, uint64_t signature) {
    nlohmann::json j = {
        {"date", m.date}, {"version", m.version},         {"build_type", m.build_type},
        {"cpu", m.cpu},   {"cpu_threads", m.cpu_threads}, {"wait_policy", m.wait_policy},
        {"gpu", m.gpu},   {"command", m.command},         {"signature", hex64(signature)}};
    j["rows"] = nlohmann::json::array();
    for (const Row& r : rows) {
        j["rows"].push_back({{"workload", r.workload},
                             {"size", r.size},
                             {"backend", r.backend},
                             {"samples", r.samples},
                             {"median_s", r.median_seconds},
                             {"noise", r.noise},
                             {"throughput", r.throughput()},
                             {"unit", r.unit},
                             {"items", r.items},
                             {"bytes_per_item", r.bytes_per_item},
                             {"ratio_cpu1", r.ratio_cpu1},
                             {"ratio_cpu", r.ratio_cpu},
                             {"fraction_of_limit", r.fraction_of_limit},
                             {"transfer_s", r.transfer_seconds},
                             {"kernel_s", r.kernel_seconds},
                             {"peak_host_bytes", r.peak_host_bytes},
                             {"peak_device_bytes", r.peak_device_bytes},
                             {"note", r.note}});
    }
    return j;
}

}  // namespace gaeval::bench
