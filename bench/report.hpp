// Output of `gaeval bench`: a header naming the machine and build, a markdown table, CSV and
// JSON for scripts.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "bench/bench.hpp"

namespace gaeval::bench {

struct MachineInfo {
    std::string date, version, build_type, cpu, gpu, command, wait_policy;
    int cpu_threads = 0;
    bool cuda_built = false;
    double gpu_bandwidth_gbs = 0;  // theoretical, 0 when no GPU
};

MachineInfo describe_machine(const std::string& command);

std::string markdown(const MachineInfo& machine, const std::vector<Row>& rows, uint64_t signature);
std::string csv(const std::vector<Row>& rows);
nlohmann::json to_json(const MachineInfo& machine, const std::vector<Row>& rows,
                       uint64_t signature);

// "1.23 G", "456 k" (three significant digits).
std::string si(double v);
// "12.3 ms", "4.56 s".
std::string seconds_text(double s);

}  // namespace gaeval::bench
