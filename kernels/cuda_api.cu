#include <cuda_runtime.h>
#include <cxxabi.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <set>
#include <string>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "kernels/cuda_api.hpp"
#include "kernels/cuda_check.cuh"
#include "kernels/launch.cuh"

namespace gaeval::cuda {

int select_device_for_rank(int local_rank) {
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess) {
        cudaGetLastError();  // clear the sticky error: the CPU backend will run
        return -1;
    }
    if (count < 2) return -1;
    const int ordinal = (local_rank < 0 ? 0 : local_rank) % count;
    if (cudaSetDevice(ordinal) != cudaSuccess) {
        cudaGetLastError();
        return -1;
    }
    return ordinal;
}

DeviceInfo query_device() {
    DeviceInfo info;
    int count = 0;
    cudaError_t err = cudaGetDeviceCount(&count);
    if (err != cudaSuccess) {
        // Without a kernel driver the runtime answers "driver version is insufficient",
        // which reads as if a driver were there: say what is missing.
        const bool no_driver = (err == cudaErrorInsufficientDriver || err == cudaErrorNoDevice) &&
                               access("/proc/driver/nvidia/version", R_OK) != 0;
        info.reason = no_driver ? std::string("no NVIDIA driver found")
                                : std::string("no usable CUDA device (") + cudaGetErrorName(err) +
                                      ": " + cudaGetErrorString(err) + ")";
        cudaGetLastError();  // clear the sticky error
        return info;
    }
    if (count == 0) {
        info.reason = "no CUDA device present";
        return info;
    }
    cudaDeviceProp prop{};
    err = cudaGetDeviceProperties(&prop, 0);
    if (err != cudaSuccess) {
        info.reason = std::string("cannot read device properties: ") + cudaGetErrorString(err);
        cudaGetLastError();
        return info;
    }
    info.present = true;
    info.name = prop.name;
    info.multiprocessors = prop.multiProcessorCount;
    info.compute_major = prop.major;
    info.compute_minor = prop.minor;
    info.total_memory = prop.totalGlobalMem;
    int bus_width = 0, memory_clock_khz = 0;
    cudaDeviceGetAttribute(&bus_width, cudaDevAttrGlobalMemoryBusWidth, 0);
    cudaDeviceGetAttribute(&memory_clock_khz, cudaDevAttrMemoryClockRate, 0);
    info.memory_bandwidth_gbs = 2.0 * memory_clock_khz * 1e3 * (bus_width / 8.0) / 1e9;
    cudaDriverGetVersion(&info.driver_version);
    cudaRuntimeGetVersion(&info.runtime_version);
    std::size_t free_b = 0, total_b = 0;
    if (cudaMemGetInfo(&free_b, &total_b) == cudaSuccess) info.free_memory = free_b;
    cudaGetLastError();
    return info;
}

int multiprocessor_count() {
    static const int count = [] {
        int device = 0, sms = 0;
        GAEVAL_CUDA_CHECK(cudaGetDevice(&device));
        GAEVAL_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
        return sms;
    }();
    return count;
}

namespace {

struct KernelFacts {
    Occupancy occupancy;
    int registers = 0;
};

std::mutex kernel_facts_mutex;

// The largest block whose scratch (`scratch_bytes` a thread of dynamic shared memory) fits
// beside the kernel's static shared memory, after allowing the kernel that much dynamic shared
// memory (above 48 KB a kernel must opt in); throws when not one warp's fits.
int allow_scratch(const void* kernel, const cudaFuncAttributes& attributes, int scratch_bytes) {
    int device = 0, optin = 0;
    GAEVAL_CUDA_CHECK(cudaGetDevice(&device));
    GAEVAL_CUDA_CHECK(
        cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
    const int available = optin - static_cast<int>(attributes.sharedSizeBytes);
    const int cap = scratch_block_cap(scratch_bytes, available);
    if (cap == 0)
        throw Error("a kernel asks for " + std::to_string(scratch_bytes) +
                    " bytes of shared-memory scratch a thread: " +
                    std::to_string(scratch_bytes * kWarp) + " for one warp, over the " +
                    std::to_string(available) + " bytes a block of this device may have");
    GAEVAL_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                           cap * scratch_bytes));
    return cap;
}

const KernelFacts& kernel_facts(const void* kernel, int scratch_bytes) {
    static std::unordered_map<const void*, KernelFacts> cache;  // nodes stay where they are
    std::lock_guard<std::mutex> lock(kernel_facts_mutex);
    auto found = cache.find(kernel);
    if (found != cache.end()) return found->second;
    KernelFacts facts;
    cudaFuncAttributes attributes{};
    GAEVAL_CUDA_CHECK(cudaFuncGetAttributes(&attributes, kernel));
    facts.registers = attributes.numRegs;
    const int cap =
        scratch_bytes > 0 ? allow_scratch(kernel, attributes, scratch_bytes) : kMaxBlock;
    for (int block = kWarp; block <= cap && block <= attributes.maxThreadsPerBlock;
         block += kWarp) {
        int blocks = 0;
        GAEVAL_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
            &blocks, kernel, block, static_cast<std::size_t>(block) * scratch_bytes));
        facts.occupancy.blocks[block / kWarp - 1] = blocks;
    }
    return cache.emplace(kernel, facts).first->second;
}

// The kernel's name for the launch log: demangled, namespaces dropped, at most 200 characters.
std::string kernel_name(const void* kernel) {
    std::string name = "kernel";
#if CUDART_VERSION >= 12030
    const char* mangled = nullptr;
    if (cudaFuncGetName(&mangled, kernel) == cudaSuccess && mangled) {
        int status = 0;
        char* demangled = abi::__cxa_demangle(mangled, nullptr, nullptr, &status);
        name = status == 0 && demangled ? demangled : mangled;
        std::free(demangled);
    }
    cudaGetLastError();
#else
    (void)kernel;
#endif
    for (const char* prefix :
         {"gaeval::cuda::executor_detail::", "gaeval::batch_ops::", "gaeval::cuda::", "gaeval::"})
        for (std::size_t at; (at = name.find(prefix)) != std::string::npos;)
            name.erase(at, std::char_traits<char>::length(prefix));
    if (name.size() > 200) name = name.substr(0, 197) + "...";
    return name;
}

bool launch_log_on() {
    static const bool on = [] {
        const char* v = std::getenv("GAEVAL_CUDA_LAUNCH_LOG");
        return v && *v && std::string(v) != "0";
    }();
    return on;
}

}  // namespace

const Occupancy& kernel_occupancy(const void* kernel, int scratch_bytes) {
    return kernel_facts(kernel, scratch_bytes).occupancy;
}

namespace {
std::atomic<int>& forced_block_value() {
    static std::atomic<int> block{[] {
        const int parsed = parse_block_override(std::getenv("GAEVAL_CUDA_BLOCK"));
        return parsed > 0 ? parsed : 0;
    }()};
    return block;
}
}  // namespace

int forced_block() { return forced_block_value().load(std::memory_order_relaxed); }

void force_block(int block) {
    if (block != 0 && parse_block_override(std::to_string(block).c_str()) <= 0)
        throw Error("force_block: " + std::to_string(block) +
                    " is not a multiple of 32 from 32 to 1024");
    forced_block_value().store(block, std::memory_order_relaxed);
}

LaunchShape launch_shape(const void* kernel, uint64_t threads, int lanes, int fixed_block,
                         int scratch_bytes) {
    const KernelFacts& facts = kernel_facts(kernel, scratch_bytes);
    const int multiprocessors = multiprocessor_count();
    LaunchShape shape;
    if (fixed_block > 0) {
        shape.block = fixed_block;
        shape.grid = threads ? grid_blocks(threads, multiprocessors, fixed_block) : 0;
    } else {
        shape = choose_launch(threads, multiprocessors, facts.occupancy, lanes, forced_block());
    }
    if (threads && (shape.block == 0 || facts.occupancy.at(shape.block) == 0))
        throw Error("no launch of " + std::to_string(shape.block) + "-thread blocks fits kernel " +
                    std::to_string(reinterpret_cast<std::uintptr_t>(kernel)) + " (" +
                    std::to_string(facts.registers) + " registers a thread" +
                    (forced_block() ? ", GAEVAL_CUDA_BLOCK=" + std::to_string(forced_block())
                                    : std::string()) +
                    ")");
    if (launch_log_on()) {
        static std::set<std::tuple<const void*, int, uint32_t>> said;
        std::lock_guard<std::mutex> lock(kernel_facts_mutex);
        if (said.emplace(kernel, shape.block, shape.grid).second)
            std::fprintf(stderr,
                         "gaeval: launch %s: %d registers, %d lanes, %llu threads: block %d, "
                         "grid %u, %d warps resident a multiprocessor (%s)\n",
                         kernel_name(kernel).c_str(), facts.registers, lanes,
                         static_cast<unsigned long long>(threads), shape.block, shape.grid,
                         facts.occupancy.warps(shape.block),
                         fixed_block > 0  ? "fixed block"
                         : forced_block() ? "GAEVAL_CUDA_BLOCK"
                                          : "chosen");
    }
    return shape;
}

void* device_malloc(std::size_t bytes) {
    void* p = nullptr;
    cudaError_t err = cudaMalloc(&p, bytes);
    if (err != cudaSuccess) {
        cudaGetLastError();
        std::size_t free_b = 0, total_b = 0;
        cudaMemGetInfo(&free_b, &total_b);
        throw OutOfMemory("device allocation of " + std::to_string(bytes) + " bytes failed (" +
                          cudaGetErrorString(err) + "; " + std::to_string(free_b) + " of " +
                          std::to_string(total_b) + " bytes free)");
    }
    return p;
}

Stream::Stream() {
    cudaStream_t s = nullptr;
    GAEVAL_CUDA_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    stream_ = s;
}
Stream::~Stream() {
    if (stream_) cudaStreamDestroy(static_cast<cudaStream_t>(stream_));
}
void Stream::synchronize() const {
    GAEVAL_CUDA_CHECK(cudaStreamSynchronize(static_cast<cudaStream_t>(stream_)));
}

void* host_pinned_malloc(std::size_t bytes) {
    void* p = nullptr;
    cudaError_t err = cudaMallocHost(&p, bytes);
    if (err != cudaSuccess) {
        cudaGetLastError();
        throw OutOfMemory("page-locked host allocation of " + std::to_string(bytes) +
                          " bytes failed (" + cudaGetErrorString(err) + ")");
    }
    return p;
}
void host_pinned_free(void* p) noexcept {
    if (p) cudaFreeHost(p);
}

void copy_to_device_async(void* dst, const void* src, std::size_t bytes, const Stream& stream) {
    if (!bytes) return;
    TimedSection timed(TimedWork::Transfer, stream.handle());
    GAEVAL_CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyHostToDevice,
                                      static_cast<cudaStream_t>(stream.handle())));
}
void copy_to_host_async(void* dst, const void* src, std::size_t bytes, const Stream& stream) {
    if (!bytes) return;
    TimedSection timed(TimedWork::Transfer, stream.handle());
    GAEVAL_CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToHost,
                                      static_cast<cudaStream_t>(stream.handle())));
}

void device_free(void* p) noexcept {
    if (p) cudaFree(p);
}

void copy_to_device(void* dst, const void* src, std::size_t bytes) {
    if (!bytes) return;
    TimedSection timed(TimedWork::Transfer, nullptr);
    GAEVAL_CUDA_CHECK(cudaMemcpy(dst, src, bytes, cudaMemcpyHostToDevice));
}
void copy_to_host(void* dst, const void* src, std::size_t bytes) {
    if (!bytes) return;
    TimedSection timed(TimedWork::Transfer, nullptr);
    GAEVAL_CUDA_CHECK(cudaMemcpy(dst, src, bytes, cudaMemcpyDeviceToHost));
}
void copy_on_device(void* dst, const void* src, std::size_t bytes) {
    if (bytes) GAEVAL_CUDA_CHECK(cudaMemcpy(dst, src, bytes, cudaMemcpyDeviceToDevice));
}
void device_memset(void* p, int value, std::size_t bytes) {
    if (bytes) GAEVAL_CUDA_CHECK(cudaMemset(p, value, bytes));
}
void synchronize() { GAEVAL_CUDA_CHECK(cudaDeviceSynchronize()); }
std::size_t free_device_memory() {
    std::size_t free_b = 0, total_b = 0;
    GAEVAL_CUDA_CHECK(cudaMemGetInfo(&free_b, &total_b));
    return free_b;
}

PointerKind pointer_kind(const void* p) {
    cudaPointerAttributes a{};
    if (cudaPointerGetAttributes(&a, p) != cudaSuccess) {
        (void)cudaGetLastError();  // an address the runtime does not know: host memory
        return PointerKind::Host;
    }
    if (a.type == cudaMemoryTypeManaged) return PointerKind::Managed;
    if (a.type != cudaMemoryTypeDevice) return PointerKind::Host;
    int current = 0;
    GAEVAL_CUDA_CHECK(cudaGetDevice(&current));
    return a.device == current ? PointerKind::CurrentDevice : PointerKind::OtherDevice;
}

void stream_synchronize(std::uintptr_t stream) {
    // 0, cudaStreamLegacy (1) and cudaStreamPerThread (2) are handles the runtime accepts as such
    GAEVAL_CUDA_CHECK(cudaStreamSynchronize(reinterpret_cast<cudaStream_t>(stream)));
}

// ---- device timing (bench): event pairs per section, per host thread ----
namespace {
struct TimedPair {
    TimedWork work;
    cudaEvent_t start = nullptr, stop = nullptr;
    bool complete = false;
};
struct TimingState {
    bool on = false;
    std::vector<TimedPair> pairs;
};
thread_local TimingState timing;

void destroy_pairs() {
    for (TimedPair& p : timing.pairs) {
        if (p.start) cudaEventDestroy(p.start);
        if (p.stop) cudaEventDestroy(p.stop);
    }
    timing.pairs.clear();
}
}  // namespace

void device_timing_begin() {
    destroy_pairs();
    timing.on = true;
}

DeviceTimes device_timing_end() {
    timing.on = false;
    DeviceTimes t;
    cudaError_t failed = cudaSuccess;
    for (TimedPair& p : timing.pairs) {
        if (!p.complete) continue;
        float ms = 0;
        cudaError_t err = cudaEventSynchronize(p.stop);
        if (err == cudaSuccess) err = cudaEventElapsedTime(&ms, p.start, p.stop);
        if (err != cudaSuccess) {
            failed = err;
            break;
        }
        if (p.work == TimedWork::Kernel) {
            t.kernel_seconds += 1e-3 * ms;
            ++t.kernels;
        } else {
            t.transfer_seconds += 1e-3 * ms;
            ++t.transfers;
        }
    }
    destroy_pairs();
    GAEVAL_CUDA_CHECK(failed);
    return t;
}

TimedSection::TimedSection(TimedWork work, void* stream) : stream_(stream) {
    if (!timing.on) return;
    timing.pairs.push_back(TimedPair{work});  // listed first: destroy_pairs frees what is made
    TimedPair& p = timing.pairs.back();
    GAEVAL_CUDA_CHECK(cudaEventCreate(&p.start));
    GAEVAL_CUDA_CHECK(cudaEventCreate(&p.stop));
    GAEVAL_CUDA_CHECK(cudaEventRecord(p.start, static_cast<cudaStream_t>(stream)));
    slot_ = static_cast<int>(timing.pairs.size()) - 1;
}

TimedSection::~TimedSection() {
    if (slot_ < 0 || slot_ >= static_cast<int>(timing.pairs.size())) return;
    TimedPair& p = timing.pairs[static_cast<std::size_t>(slot_)];
    p.complete = cudaEventRecord(p.stop, static_cast<cudaStream_t>(stream_)) == cudaSuccess;
}

}  // namespace gaeval::cuda
