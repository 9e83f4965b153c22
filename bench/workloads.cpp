#include "bench/workloads.hpp"

namespace gaeval::bench {

std::vector<Workload> all_workloads() {
    std::vector<Workload> list;
    return list;
}

}  // namespace gaeval::bench
