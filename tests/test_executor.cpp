// The executor (host/backend/executor.hpp) on the cpu backend: every index of [first, first + n)
// visited exactly once and nothing outside it, for empty, single, prime-sized and large ranges
// on 1, 2 and 4 threads; lane groups see each of their lanes once; a task runs its one-thread
// form on the cpu; arrays bound to the cpu backend are the caller's memory. And the rule that
// only host/backend/ and kernels/ tell the backends apart, checked over the sources.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "host/backend/executor.hpp"

namespace gaeval {
namespace {

BackendChoice cpu_backend(int threads) {
    BackendChoice b;
    b.kind = BackendKind::Cpu;
    b.threads = threads;
    b.name = "cpu";
    return b;
}

// Counts visits of indices in [lo, lo + size); any index outside counts as `outside`.
struct VisitCounts {
    uint64_t lo = 0;
    uint64_t size = 0;
    std::atomic<uint32_t>* counts = nullptr;
    std::atomic<uint64_t>* outside = nullptr;
    void visit(uint64_t i) const {
        if (i < lo || i - lo >= size)
            outside->fetch_add(1);
        else
            counts[i - lo].fetch_add(1);
    }
};

// The test ops run on the cpu only (host_only: no .cu file instantiates their device launch).
struct IndexOp {
    using host_only = void;
    VisitCounts visits;
    void operator()(uint64_t i) const { visits.visit(i); }
};

// Lane `lane` of group g is visit g * L + lane; on the cpu the lanes are a loop in one call.
template <int L>
struct LaneOp {
    using host_only = void;
    VisitCounts visits;
    uint64_t* leader_writes;  // leader_writes[g - first]: calls in which leads(lanes) held
    uint64_t first;
    void operator()(uint64_t g, const Lanes<L>& lanes) const {
        lanes.each([&](int lane) { visits.visit(g * L + static_cast<uint64_t>(lane)); });
        if (leads(lanes)) ++leader_writes[g - first];
    }
};

// A task with both forms; the cpu must run the one-thread form.
struct TaskOp {
    using host_only = void;
    VisitCounts visits;
    std::atomic<uint64_t>* lane_calls;
    void operator()(uint64_t i) const { visits.visit(i); }
    template <int L>
    void operator()(uint64_t, const Lanes<L>&) const {
        lane_calls->fetch_add(1);
    }
};

class Visits {
  public:
    Visits(uint64_t lo, uint64_t size) : counts_(new std::atomic<uint32_t>[size]), lo_(lo) {
        for (uint64_t i = 0; i < size; ++i) counts_[i] = 0;
        view_ = VisitCounts{lo, size, counts_.get(), &outside_};
    }
    const VisitCounts& view() const { return view_; }
    // The first index not visited exactly once, or -1.
    int64_t first_wrong() const {
        for (uint64_t i = 0; i < view_.size; ++i)
            if (counts_[i].load() != 1) return static_cast<int64_t>(i);
        return -1;
    }
    uint64_t outside() const { return outside_.load(); }
    uint64_t lo() const { return lo_; }

  private:
    std::unique_ptr<std::atomic<uint32_t>[]> counts_;
    std::atomic<uint64_t> outside_{0};
    uint64_t lo_;
    VisitCounts view_;
};

const uint64_t kSizes[] = {0, 1, 2, 97, 100003};
const uint64_t kFirsts[] = {0, 1, 12345, (uint64_t{1} << 40) + 3};
const int kThreads[] = {1, 2, 4};

TEST(Executor, ForEachIndexVisitsEveryIndexOnce) {
    for (uint64_t n : kSizes)
        for (uint64_t first : kFirsts)
            for (int threads : kThreads)
                for (int chunk : {1, 16}) {
                    // Room on both sides, so that an index off by one is seen as outside.
                    Visits v(first, n);
                    for_each_index(cpu_backend(threads), first, n, IndexOp{v.view()}, chunk);
                    EXPECT_EQ(v.first_wrong(), -1)
                        << "n " << n << " first " << first << " threads " << threads;
                    EXPECT_EQ(v.outside(), 0u)
                        << "n " << n << " first " << first << " threads " << threads;
                }
}

template <int L>
void check_lane_groups() {
    for (uint64_t n : kSizes)
        for (uint64_t first : {uint64_t{0}, uint64_t{7}, uint64_t{1} << 33})
            for (int threads : kThreads) {
                Visits v(first * L, n * L);
                std::vector<uint64_t> leader_writes(n, 0);
                for_each_lane_group<L>(cpu_backend(threads), first, n,
                                       LaneOp<L>{v.view(), leader_writes.data(), first});
                EXPECT_EQ(v.first_wrong(), -1) << "L " << L << " n " << n << " first " << first;
                EXPECT_EQ(v.outside(), 0u) << "L " << L << " n " << n << " first " << first;
                for (uint64_t g = 0; g < n; ++g)
                    ASSERT_EQ(leader_writes[g], 1u) << "L " << L << " group " << first + g;
            }
}

TEST(Executor, LaneGroupsSeeEachLaneOnce) {
    check_lane_groups<1>();
    check_lane_groups<4>();
    check_lane_groups<8>();
    check_lane_groups<32>();
}

TEST(Executor, TasksRunTheirOneThreadFormOnTheCpu) {
    for (uint64_t n : kSizes) {
        Visits v(5, n);
        std::atomic<uint64_t> lane_calls{0};
        for_each_task<TaskShape<8>>(cpu_backend(2), 5, n, TaskOp{v.view(), &lane_calls}, 4);
        EXPECT_EQ(v.first_wrong(), -1) << "n " << n;
        EXPECT_EQ(v.outside(), 0u);
        EXPECT_EQ(lane_calls.load(), 0u);
        Visits bounded(0, n);
        for_each_task<TaskShape<1, 4>>(cpu_backend(3), 0, n, TaskOp{bounded.view(), &lane_calls});
        EXPECT_EQ(bounded.first_wrong(), -1) << "n " << n;
        EXPECT_EQ(lane_calls.load(), 0u);
    }
}

TEST(Executor, CpuArraysAreTheCallersMemory) {
    const BackendChoice cpu = cpu_backend(2);
    std::vector<int> in(10, 3), out(10, 0);
    const BackendInput<int> input(cpu, in.data(), in.size());
    BackendOutput<int> output(cpu, out.data(), out.size());
    EXPECT_EQ(input.data(), in.data());
    EXPECT_EQ(output.data(), out.data());
    struct Twice {
        using host_only = void;
        const int* in;
        int* out;
        void operator()(uint64_t i) const { out[i] = 2 * in[i] + static_cast<int>(i); }
    };
    for_each_index(cpu, 0, 10, Twice{input.data(), output.data()});
    output.finish();
    for (int i = 0; i < 10; ++i) EXPECT_EQ(out[i], 6 + i);
}

TEST(Executor, BatchCapacityTakesTheWholeBatchOnTheCpuUnlessForced) {
    const BackendChoice cpu = cpu_backend(1);
    unsetenv("GAEVAL_CPU_GAME_CHUNK");
    EXPECT_EQ(batch_capacity(cpu, 1000000, 16, 1000), 1000000u);
    EXPECT_EQ(batch_capacity(cpu, 0, 16, 0), 0u);
    setenv("GAEVAL_CPU_GAME_CHUNK", "7", 1);
    EXPECT_EQ(batch_capacity(cpu, 100, 16, 0), 7u);
    EXPECT_EQ(batch_capacity(cpu, 5, 16, 0), 5u);
    setenv("GAEVAL_CPU_GAME_CHUNK", "-3", 1);
    EXPECT_THROW(batch_capacity(cpu, 100, 16, 0), InputError);
    unsetenv("GAEVAL_CPU_GAME_CHUNK");
}

// Files outside host/backend/ and kernels/ that still name a backend kind, each for a reason:
// reports that print the cpu thread count (game_options, compare, pile-in's run manifest), work
// sizes per backend that the CLI picks (play's pieces, perft's slices), pile-in's population,
// whose cpu and cuda subclasses are not on the executor yet (population.cpp, cuda_population.cpp),
// and the pile-in bench's row labels. The list may only shrink: a new file that branches on the
// backend fails this test (put the branch behind the executor instead).
const std::set<std::string> kStillNamingBackendKinds = {
    "bench/pile_in_bench.cpp",     "host/cli/compare.cpp", "host/cli/game_options.cpp",
    "host/cli/perft.cpp",          "host/cli/play.cpp",    "host/pile_in/cuda_population.cpp",
    "host/pile_in/population.cpp", "host/pile_in/run.cpp",
};

TEST(Executor, OnlyTheBackendAndTheKernelsBranchOnTheBackendKind) {
    namespace fs = std::filesystem;
    const fs::path root = GAEVAL_SOURCE_DIR;
    std::set<std::string> naming;
    for (const char* folder : {"host", "games", "bench", "python", "include", "problems"}) {
        if (!fs::exists(root / folder)) continue;
        for (const auto& entry : fs::recursive_directory_iterator(root / folder)) {
            if (!entry.is_regular_file()) continue;
            const std::string ext = entry.path().extension().string();
            if (ext != ".hpp" && ext != ".cpp" && ext != ".h" && ext != ".cc") continue;
            const std::string rel = fs::relative(entry.path(), root).generic_string();
            if (rel.rfind("host/backend/", 0) == 0) continue;
            std::ifstream file(entry.path());
            std::stringstream text;
            text << file.rdbuf();
            const std::string s = text.str();
            if (s.find("BackendKind::") != std::string::npos ||
                s.find("backend.name == \"cuda\"") != std::string::npos ||
                s.find("backend.name == \"cpu\"") != std::string::npos)
                naming.insert(rel);
        }
    }
    for (const std::string& file : naming)
        EXPECT_TRUE(kStillNamingBackendKinds.count(file))
            << file
            << " branches on the backend kind: run its work through the executor "
               "(host/backend/executor.hpp)";
    for (const std::string& file : kStillNamingBackendKinds)
        EXPECT_TRUE(naming.count(file)) << file
                                        << " no longer names a backend kind: drop it from "
                                           "kStillNamingBackendKinds";
    // The batch layer is the executor's first user: it must not name a kind at all.
    for (const std::string& file : naming) EXPECT_NE(file.rfind("host/batch/", 0), 0u) << file;
}

}  // namespace
}  // namespace gaeval
