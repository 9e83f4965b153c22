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

// Static schedule in chunks of `chunk` indices dealt round-robin: thread t runs the chunks
// k with k mod threads = t, as the second loop of parallel_for_then does, so a loop that
// reads what such a loop wrote finds it in its own core's cache.
template <class Op>
void parallel_for_chunks(int64_t n, int threads, const Op& op, int chunk) {
    if (threads <= 0) threads = default_thread_count();
    if (threads == 1 || n < 2) {
        for (int64_t i = 0; i < n; ++i) op(i);
        return;
    }
#pragma omp parallel for num_threads(threads) schedule(static, chunk)
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

// first(i) for i in [0, n_first), then, once all of them are done, second(j) for j in
// [0, n_second): both loops in one parallel region, so the threads are woken once (a sleeping
// OpenMP thread takes tens of microseconds to wake). The second loop is split in chunks of
// `chunk` indices dealt round-robin, which evens out costs that vary along the index range.
template <class First, class Second>
void parallel_for_then(int64_t n_first, const First& first, int64_t n_second, const Second& second,
                       int threads, int chunk = 256) {
    if (threads <= 0) threads = default_thread_count();
    if (threads == 1 || n_first + n_second < 2) {
        for (int64_t i = 0; i < n_first; ++i) first(i);
        for (int64_t j = 0; j < n_second; ++j) second(j);
        return;
    }
#pragma omp parallel num_threads(threads)
    {
#pragma omp for schedule(static)
        for (int64_t i = 0; i < n_first; ++i) first(i);
#pragma omp for schedule(static, chunk)
        for (int64_t j = 0; j < n_second; ++j) second(j);
    }
}

}  // namespace gaeval
