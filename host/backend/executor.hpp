// The executor: "run this op over n indices on the chosen backend", the one place that tells the
// cpu backend from the cuda one for index-parallel work (batches of games, playouts, evaluations).
// Compiles with g++ and nvcc and names no CUDA type.
//
//   for_each_index(backend, first, n, op)         op(i) for i in [first, first + n)
//   for_each_lane_group<L>(backend, first, n, op) op(g, lanes) for g in [first, first + n), lanes
//                                                 a Lanes<L> (games/core/lanes.hpp): on the
//                                                 device L threads of a warp, each calling op
//                                                 for its own lane; on the cpu one call whose
//                                                 lanes run as a loop
//   for_each_task<Shape>(backend, first, n, op)   an op with both forms: the device runs the
//                                                 Shape's form (TaskShape: lanes a task, launch
//                                                 bounds), the cpu the one-index form op(i);
//                                                 a Shape with scratch runs op(i, scratch) on
//                                                 both (games/core/scratch.hpp)
//   for_each_index_split(backend, device_n, device_op, cpu_n, cpu_op)
//                                                 the device runs device_op over [0, device_n),
//                                                 the cpu cpu_op over [0, cpu_n)
//
// Every call returns when the op has run for every index (the device call synchronizes; a
// failed launch or kernel throws cuda::Error naming file, line and the CUDA error). The cpu runs
// the indices on OpenMP threads (backend.threads), dynamic schedule in chunks of `cpu_chunk`
// indices; the device runs a grid-stride loop in blocks chosen per kernel and per launch
// (kernels/launch_config.hpp: multiples of 32 threads). An op's result may not depend on which
// thread, block or lane order runs it (every draw is addressed), so both backends give the same
// bits.
//
// Ops are trivially copyable structs (kernel arguments, games/core/kernel_arguments.hpp) with a
// GAEVAL_HD call operator; pointers in an op point into the backend's memory: BackendInput,
// BackendOutput and BackendBound below put arrays and a game's lookup tables there (on the cpu
// they are the caller's memory, not copied).
//
// The device half of a call is kernels/executor.cuh's cuda::launch<Shape, Op>, instantiated by
// the kernels/*.cu file that lists the op (GAEVAL_INSTANTIATE_LAUNCH); a host file that calls an
// op no .cu file instantiates links in a CPU-only build and fails to link with CUDA.
#pragma once

#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>

#include <type_traits>

#include "games/core/game.hpp"
#include "games/core/hd.hpp"
#include "games/core/kernel_arguments.hpp"
#include "games/core/scratch.hpp"
#include "host/backend/backend.hpp"
#include "host/backend/parallel.hpp"
#include "host/core/error.hpp"
#include "kernels/cuda_api.hpp"
#include "kernels/task_shape.hpp"

namespace gaeval {

// Multiprocessors of the backend's device, for launch shapes that depend on how many threads
// fill it (games/core/lane_one_ply.hpp: one_ply_lanes); 0 on the cpu.
int device_multiprocessors(const BackendChoice& backend);

namespace executor_detail {

[[noreturn]] inline void no_cuda() {
    throw std::logic_error("this gaeval was built without the CUDA backend");
}

inline bool on_device(const BackendChoice& backend) { return backend.kind == BackendKind::Cuda; }

// An op that declares `using host_only = void;` (tests of the executor itself, or the cpu form of
// work whose device form is another op) is never instantiated for the device: no .cu file
// compiles it, so a CUDA build would not link its launch.
template <class Op, class = void>
struct is_host_only : std::false_type {};
template <class Op>
struct is_host_only<Op, std::void_t<typename Op::host_only>> : std::true_type {};

template <class Shape, class Op>
void device_launch(uint64_t first, uint64_t n, const Op& op) {
    static_assert(fits_kernel_parameters<Op>(),
                  "an op must be trivially copyable and fit the kernel parameter space "
                  "(games/core/kernel_arguments.hpp)");
#if GAEVAL_HAVE_CUDA
    if constexpr (is_host_only<Op>::value) {
        (void)first, (void)n, (void)op;
        throw std::logic_error("a host-only op was sent to the device");
    } else {
        cuda::launch<Shape>(first, n, op);
    }
#else
    (void)first, (void)n, (void)op;
    no_cuda();
#endif
}

}  // namespace executor_detail

// op(i) for i in [first, first + n). MinBlocks > 0: launch bounds on the device (TaskShape).
template <int MinBlocks = 0, class Op>
void for_each_index(const BackendChoice& backend, uint64_t first, uint64_t n, const Op& op,
                    int cpu_chunk = 1) {
    if (n == 0) return;
    if (executor_detail::on_device(backend)) {
        executor_detail::device_launch<TaskShape<1, MinBlocks>>(first, n, op);
        return;
    }
    parallel_for_dynamic(
        static_cast<int64_t>(n), backend.threads,
        [&](int64_t i) { op(first + static_cast<uint64_t>(i)); }, cpu_chunk);
}

// op(g, Lanes<L>{}) for each group g in [first, first + n): on the device every lane of the group
// calls it (a tile of L threads of a warp; write results under leads(lanes)), on the cpu one
// call runs the lanes as a loop.
template <int L, class Op>
void for_each_lane_group(const BackendChoice& backend, uint64_t first, uint64_t n, const Op& op,
                         int cpu_chunk = 1) {
    if (n == 0) return;
    if (executor_detail::on_device(backend)) {
        executor_detail::device_launch<TaskShape<L>>(first, n, op);
        return;
    }
    parallel_for_dynamic(
        static_cast<int64_t>(n), backend.threads,
        [&](int64_t g) { op(first + static_cast<uint64_t>(g), Lanes<L>{}); }, cpu_chunk);
}

// A task with a one-thread form op(i) and, when Shape::lanes > 1, a lane form op(i, lanes) that
// gives the same result: the device runs Shape, the cpu op(i) (a lane group on one cpu thread is
// a loop over the lanes; the one-thread form does that work without the per-lane bookkeeping).
// A Shape with scratch bytes runs op(i, ThreadScratch) on the cpu, with a buffer on the stack of
// the thread that runs index i (HostScratch), and on the device, in the thread's slice of shared
// memory, op(i, ThreadScratch) or, with lanes, op(i, lanes, ThreadScratch) in each lane (a slice
// a lane).
template <class Shape, class Op>
void for_each_task(const BackendChoice& backend, uint64_t first, uint64_t n, const Op& op,
                   int cpu_chunk = 1) {
    if (n == 0) return;
    if (executor_detail::on_device(backend)) {
        executor_detail::device_launch<Shape>(first, n, op);
        return;
    }
    if constexpr (Shape::scratch_bytes > 0) {
        parallel_for_dynamic(
            static_cast<int64_t>(n), backend.threads,
            [&](int64_t i) {
                HostScratch<Shape::scratch_bytes> scratch;
                op(first + static_cast<uint64_t>(i), scratch.slice());
            },
            cpu_chunk);
    } else {
        parallel_for_dynamic(
            static_cast<int64_t>(n), backend.threads,
            [&](int64_t i) { op(first + static_cast<uint64_t>(i)); }, cpu_chunk);
    }
}

// Work whose device and cpu forms split it differently: the device runs device_op(i) for i in
// [0, device_n) (one thread an index), the cpu cpu_op(i) for i in [0, cpu_n) (e.g. one plan a GPU
// thread, a block of plans in SIMD lanes a CPU task). The two forms must give the same results;
// cpu_op is never compiled for the device.
template <class DeviceOp, class CpuOp>
void for_each_index_split(const BackendChoice& backend, uint64_t device_n,
                          const DeviceOp& device_op, uint64_t cpu_n, const CpuOp& cpu_op,
                          int cpu_chunk = 1) {
    if (executor_detail::on_device(backend)) {
        if (device_n) executor_detail::device_launch<TaskShape<1>>(0, device_n, device_op);
        return;
    }
    if (cpu_n == 0) return;
    parallel_for_dynamic(
        static_cast<int64_t>(cpu_n), backend.threads,
        [&](int64_t i) { cpu_op(static_cast<uint64_t>(i)); }, cpu_chunk);
}

// n trivially copyable T the caller's host memory holds, readable by ops: on the cpu the caller's
// array itself, on the device a copy made by the constructor.
template <class T>
class BackendInput {
  public:
    BackendInput(const BackendChoice& backend, const T* host, std::size_t n) : data_(host) {
        if (executor_detail::on_device(backend)) {
#if GAEVAL_HAVE_CUDA
            device_ = cuda::DeviceArray<T>(n);
            device_.upload(host, n);
            data_ = device_.data();
#else
            (void)n;
            executor_detail::no_cuda();
#endif
        }
    }
    const T* data() const { return data_; }

  private:
    const T* data_;
#if GAEVAL_HAVE_CUDA
    cuda::DeviceArray<T> device_;
#endif
};

// n T that ops write and the caller reads in `host` after finish(): on the cpu the caller's array
// itself (finish does nothing), on the device an array that finish() copies back.
template <class T>
class BackendOutput {
  public:
    BackendOutput(const BackendChoice& backend, T* host, std::size_t n)
        : host_(host), data_(host), n_(n) {
        if (executor_detail::on_device(backend)) {
#if GAEVAL_HAVE_CUDA
            device_ = cuda::DeviceArray<T>(n);
            data_ = device_.data();
#else
            executor_detail::no_cuda();
#endif
        }
    }
    T* data() const { return data_; }
    void finish() {
#if GAEVAL_HAVE_CUDA
        if (data_ != host_) device_.download(host_, n_);
#endif
    }

  private:
    T* host_;
    T* data_;
    std::size_t n_;
#if GAEVAL_HAVE_CUDA
    cuda::DeviceArray<T> device_;
#endif
};

// A game (or any op with the table hooks of games/core/game.hpp) bound to the backend for the
// length of one call: on the device its lookup tables are copied there; otherwise as it is.
template <class G>
class BackendBound {
  public:
    BackendBound(const BackendChoice& backend, const G& host) : value_(host) {
        if constexpr (has_tables_v<G>) {
            const std::size_t bytes = host.table_bytes();
            if (executor_detail::on_device(backend) && bytes > 0) {
#if GAEVAL_HAVE_CUDA
                tables_ = cuda::DeviceArray<uint8_t>(bytes);
                tables_.upload(static_cast<const uint8_t*>(host.tables()), bytes);
                value_ = host.with_tables(tables_.data());
#else
                executor_detail::no_cuda();
#endif
            }
        }
    }
    const G& get() const { return value_; }

  private:
#if GAEVAL_HAVE_CUDA
    cuda::DeviceArray<uint8_t> tables_;
#endif
    G value_;
};

// How many of `items` one call may take: a batch larger than the device's memory runs in pieces.
// GAEVAL_CUDA_GAME_CHUNK=N (cuda) or GAEVAL_CPU_GAME_CHUNK=N (cpu: the same loop through host
// memory, for the tests) forces pieces of N; otherwise the cpu takes the batch at once and the
// device as many as fit in its free memory less a 10% margin, after `fixed_bytes`.
inline uint64_t batch_capacity(const BackendChoice& backend, uint64_t items,
                               uint64_t bytes_per_item, uint64_t fixed_bytes) {
    const bool device = executor_detail::on_device(backend);
    const char* name = device ? "GAEVAL_CUDA_GAME_CHUNK" : "GAEVAL_CPU_GAME_CHUNK";
    if (const char* text = std::getenv(name); text && *text) {
        char* end = nullptr;
        errno = 0;
        const unsigned long long chunk = std::strtoull(text, &end, 10);
        if (errno || *end || text[0] == '-' || text[0] == '+' || chunk == 0)
            throw InputError(std::string(name) + ": '" + text + "' is not a positive game count");
        return chunk < items ? chunk : items;
    }
    if (!device || items == 0) return items;
#if GAEVAL_HAVE_CUDA
    const uint64_t usable = cuda::free_device_memory() / 10 * 9;
#else
    const uint64_t usable = 0;
#endif
    if (usable <= fixed_bytes || (usable - fixed_bytes) / bytes_per_item == 0)
        throw InputError("a batch of " + std::to_string(items) + " games: the device has " +
                         std::to_string(usable) + " usable bytes free, too few for its players (" +
                         std::to_string(fixed_bytes) + " bytes) and one game");
    const uint64_t fit = (usable - fixed_bytes) / bytes_per_item;
    if (fit >= items) return items;
    static bool said = false;  // once a process: a learn run plays such a batch every generation
    if (!said) {
        said = true;
        std::fprintf(stderr,
                     "gaeval: a batch of %llu games does not fit in the device's free memory "
                     "less a 10%% margin: played %llu games at a time\n",
                     static_cast<unsigned long long>(items), static_cast<unsigned long long>(fit));
    }
    return fit;
}

}  // namespace gaeval
