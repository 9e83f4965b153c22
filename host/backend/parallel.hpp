// CPU twin of kernels/launch.cuh: op(i) for i in [0, n) over OpenMP threads, static schedule.
// The result of an op may not depend on which thread runs it (every draw is addressed).
#pragma once

#include <cstdint>

namespace gaeval {

// Threads used when a caller passes threads <= 0: all the machine's cores.
int default_thread_count();

template <class Op>
void parallel_for(int64_t n, int threads, const Op& op) {
    if (threads <= 0) threads = default_thread_count();
    if (threads == 1 || n < 2) {
        for (int64_t i = 0; i < n; ++i) op(i);
        return;
    }
#pragma omp parallel for num_threads(threads) schedule(static)
    for (int64_t i = 0; i < n; ++i) op(i);
}

// Dynamic schedule in chunks, for work whose cost varies per index (perft subtrees, games).
template <class Op>
void parallel_for_dynamic(int64_t n, int threads, const Op& op, int chunk = 1) {
    if (threads <= 0) threads = default_thread_count();
    if (threads == 1 || n < 2) {
        for (int64_t i = 0; i < n; ++i) op(i);
        return;
    }
#pragma omp parallel for num_threads(threads) schedule(dynamic, chunk)
    for (int64_t i = 0; i < n; ++i) op(i);
}

}  // namespace gaeval
