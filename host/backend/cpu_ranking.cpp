#include "host/backend/cpu_ranking.hpp"

#include <parallel/algorithm>

#include <algorithm>
#include <vector>

#include "games/core/math.hpp"
#include "host/backend/parallel.hpp"

namespace gaeval {

void rank_descending(const float* values, uint32_t* ranked, uint64_t n, int threads) {
    if (threads <= 0) threads = default_thread_count();
    // (~order key, index) packed in one word: distinct words, so any sort gives one order.
    std::vector<uint64_t> packed(n);
    parallel_for(static_cast<int64_t>(n), threads, [&](int64_t i) {
        packed[i] = (static_cast<uint64_t>(~order_key(values[i])) << 32) | static_cast<uint64_t>(i);
    });
    if (threads > 1 && n > 100000) {
        __gnu_parallel::sort(packed.begin(), packed.end(),
                             __gnu_parallel::default_parallel_tag(threads));
    } else {
        std::sort(packed.begin(), packed.end());
    }
    parallel_for(static_cast<int64_t>(n), threads,
                 [&](int64_t r) { ranked[r] = static_cast<uint32_t>(packed[r]); });
}

int64_t fixed_point_sum(const float* values, uint64_t n, int threads) {
    if (threads <= 0) threads = default_thread_count();
    int64_t total = 0;
    const int64_t count = static_cast<int64_t>(n);
#pragma omp parallel for num_threads(threads) reduction(+ : total) schedule(static)
    for (int64_t i = 0; i < count; ++i) total += fixed_point_16(values[i]);
    return total;
}

}  // namespace gaeval
