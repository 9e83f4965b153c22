// The launch shape chosen per kernel and per launch (kernels/launch_config.hpp), on hand-derived
// cases. The occupancy tables are the register limit of an sm_90 multiprocessor worked out here
// as CUDA's occupancy calculator does it (cuda_occupancy.h): 65536 registers in 4 sub-partitions,
// a warp's registers rounded up to 256, at most 64 warps and 32 blocks; the entries the cases
// rest on are also spelled out as numbers.
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "ataxx_test_support.hpp"
#include "games/tictactoe/tictactoe.hpp"
#include "gpu_test_support.hpp"
#include "host/backend/backend.hpp"
#include "host/core/error.hpp"
#include "kernels/cuda_api.hpp"
#include "kernels/launch_config.hpp"

namespace gaeval::cuda {
namespace {

// Resident blocks per block size of a kernel using `registers` registers a thread, no shared
// memory, on an sm_90 multiprocessor.
Occupancy sm90(int registers) {
    Occupancy occupancy;
    const int per_warp = (registers * 32 + 255) / 256 * 256;
    const int warps_per_sub_partition = 65536 / 4 / per_warp;
    for (int block = 32; block <= 1024; block += 32) {
        const int warps = block / 32;
        const int assumed = per_warp * ((warps + 3) / 4 * 4);  // the hardware's per-block check
        int blocks = 0;
        if (assumed <= 65536 && per_warp * warps <= 65536) {
            blocks = warps_per_sub_partition * 4 / warps;
            if (blocks > 64 / warps) blocks = 64 / warps;
            if (blocks > 32) blocks = 32;
        }
        occupancy.blocks[block / 32 - 1] = blocks;
    }
    return occupancy;
}

TEST(LaunchConfig, HandDerivedOccupancyTables) {
    // 147 registers: 4864 a warp, 3 warps a sub-partition, 12 a multiprocessor.
    const Occupancy search = sm90(147);
    EXPECT_EQ(search.at(256), 1);  // 8 warps: 12.5% theoretical occupancy
    EXPECT_EQ(search.at(128), 3);  // 12 warps
    EXPECT_EQ(search.at(192), 2);
    EXPECT_EQ(search.at(32), 12);
    EXPECT_EQ(search.at(384), 1);
    EXPECT_EQ(search.at(416), 0);  // 13 warps round up to 16 in the hardware's check
    // 64 registers (launch bounds 256 x 4): 32 warps at any size from 32 to 1024.
    const Occupancy bounded = sm90(64);
    EXPECT_EQ(bounded.at(256), 4);
    EXPECT_EQ(bounded.at(128), 8);
    EXPECT_EQ(bounded.at(1024), 1);
    EXPECT_EQ(bounded.at(32), 32);
    // 32 registers: 64 warps, but at most 32 blocks of one warp.
    EXPECT_EQ(sm90(32).warps(32), 32);
    EXPECT_EQ(sm90(32).warps(64), 64);
}

TEST(LaunchConfig, MostResidentWarpsThenEvenSubPartitionsThenNearestTheDefault) {
    // 147 registers: 12 warps at 32, 64, 96, 128, 192 and 384 threads; 128 splits evenly over
    // the 4 sub-partitions and is the largest such size up to 256.
    EXPECT_EQ(block_for_occupancy(sm90(147)), 128);
    // Every size from 64 up keeps 32 (64 registers) or 64 (32 registers) warps: 256 stays.
    EXPECT_EQ(block_for_occupancy(sm90(64)), 256);
    EXPECT_EQ(block_for_occupancy(sm90(32)), 256);
    // 190 registers (Ataxx's searching lane kernel before): 2 warps a sub-partition, 8 at 256.
    EXPECT_EQ(sm90(190).warps(256), 8);
    EXPECT_EQ(block_for_occupancy(sm90(190)), 256);
    // 255 registers: 8192 a warp, 2 a sub-partition: 8 warps at 32..256; 256 is one block.
    EXPECT_EQ(block_for_occupancy(sm90(255)), 256);
    // Only sizes above 256 keep the most warps: the smallest of them.
    Occupancy large_only;
    large_only.blocks[512 / 32 - 1] = 2;   // 32 warps
    large_only.blocks[1024 / 32 - 1] = 1;  // 32 warps
    large_only.blocks[256 / 32 - 1] = 3;   // 24 warps
    EXPECT_EQ(block_for_occupancy(large_only), 512);
    EXPECT_EQ(block_for_occupancy(Occupancy{}), 0);  // nothing launches
}

TEST(LaunchConfig, TournamentOfLaneGroupsFillsEveryMultiprocessor) {
    // 552 games (a 24-member tournament) on 32-lane groups: 17664 threads. At 256 threads a
    // block that is 69 blocks for 132 multiprocessors; 128 is the largest size giving each one
    // a block: 138 blocks.
    const uint64_t threads = 552ull * 32;
    const LaunchShape shape = choose_launch(threads, 132, sm90(64), 32);
    EXPECT_EQ(shape.block, 128);
    EXPECT_EQ(shape.grid, 138u);
    // The fixed launch of before.
    const LaunchShape fixed = choose_launch(threads, 132, sm90(64), 32, 256);
    EXPECT_EQ(fixed.block, 256);
    EXPECT_EQ(fixed.grid, 69u);
    // At 147 registers the occupancy choice (128) already gives every multiprocessor a block.
    EXPECT_EQ(choose_launch(threads, 132, sm90(147), 32).block, 128);
}

TEST(LaunchConfig, DepthThreeSearchAt147Registers) {
    // 10000 games on 8-lane groups: 80000 threads, 625 blocks of 128 (3 resident a
    // multiprocessor: 12 warps against 8 at 256).
    const LaunchShape shape = choose_launch(10000ull * 8, 132, sm90(147), 8);
    EXPECT_EQ(shape.block, 128);
    EXPECT_EQ(shape.grid, 625u);
    EXPECT_EQ(shape.block % 8, 0);
}

TEST(LaunchConfig, LargePlayoutBatchKeepsTheFixedLaunch) {
    // 2^20 playouts, one thread a game, 64 registers: blocks of 256, and the grid the fixed
    // launch had (16 blocks a multiprocessor; the grid-stride loop does the rest).
    const LaunchShape shape = choose_launch(1ull << 20, 132, sm90(64));
    EXPECT_EQ(shape.block, 256);
    EXPECT_EQ(shape.grid, 132u * 16);
    const LaunchShape fixed = choose_launch(1ull << 20, 132, sm90(64), 1, 256);
    EXPECT_EQ(fixed.block, shape.block);
    EXPECT_EQ(fixed.grid, shape.grid);
}

TEST(LaunchConfig, AForcedBlockTheKernelCannotLaunchTakesTheLargestItCan) {
    // 190 registers: 6144 a warp; 9 warps round up to 12 in the hardware's check (73728
    // registers), so 256 is the largest size; GAEVAL_CUDA_BLOCK=1024 launches 256 there.
    EXPECT_EQ(sm90(190).at(288), 0);
    const LaunchShape shape = choose_launch(80000, 132, sm90(190), 8, 1024);
    EXPECT_EQ(shape.block, 256);
    EXPECT_EQ(shape.grid, 313u);
    EXPECT_EQ(choose_launch(80000, 132, sm90(147), 8, 256).block, 256);
    EXPECT_EQ(choose_launch(80000, 132, sm90(147), 8, 32).block, 32);
}

TEST(LaunchConfig, SmallLaunchesStopAtOneWarp) {
    // 40 games on 8-lane groups: 320 threads cannot cover 132 multiprocessors: one warp a block.
    const LaunchShape shape = choose_launch(320, 132, sm90(64), 8);
    EXPECT_EQ(shape.block, 32);
    EXPECT_EQ(shape.grid, 10u);
    // One thread.
    EXPECT_EQ(choose_launch(1, 132, sm90(64)).block, 32);
    EXPECT_EQ(choose_launch(1, 132, sm90(64)).grid, 1u);
    // Nothing to launch, or nothing that launches.
    EXPECT_EQ(choose_launch(0, 132, sm90(64)).grid, 0u);
    EXPECT_EQ(choose_launch(100, 132, Occupancy{}).block, 0);
}

TEST(LaunchConfig, EveryChoiceIsAWholeNumberOfWarpsAndCoversTheThreads) {
    for (int registers : {24, 40, 64, 96, 128, 147, 168, 190, 255})
        for (uint64_t threads :
             {1ull, 31ull, 33ull, 4224ull, 17664ull, 80000ull, 1ull << 20, (1ull << 34) + 7})
            for (int lanes : {1, 2, 4, 8, 16, 32}) {
                const Occupancy occupancy = sm90(registers);
                const LaunchShape shape = choose_launch(threads, 132, occupancy, lanes);
                SCOPED_TRACE(::testing::Message() << registers << " registers, " << threads
                                                  << " threads, " << lanes << " lanes");
                EXPECT_EQ(shape.block % 32, 0);
                EXPECT_EQ(shape.block % lanes, 0);
                EXPECT_GT(occupancy.at(shape.block), 0);
                EXPECT_GE(shape.grid, 1u);
                EXPECT_LE(static_cast<uint64_t>(shape.grid) * shape.block,
                          threads + shape.block - 1);  // no idle block
                EXPECT_LE(static_cast<uint64_t>(shape.grid) * shape.block,
                          132ull * 4096 + 1024);  // capped
            }
}

TEST(LaunchConfig, BlockOverrideParses) {
    EXPECT_EQ(parse_block_override(nullptr), 0);
    EXPECT_EQ(parse_block_override(""), 0);
    EXPECT_EQ(parse_block_override("auto"), 0);
    EXPECT_EQ(parse_block_override("256"), 256);
    EXPECT_EQ(parse_block_override("32"), 32);
    EXPECT_EQ(parse_block_override("1024"), 1024);
    for (const char* bad : {"0", "16", "100", "1056", "2048", "-256", "+256", "256 ", "autox", "au",
                            "99999999999999999999"})
        EXPECT_EQ(parse_block_override(bad), -1) << bad;
}

// GAEVAL_CUDA_BLOCK is checked where the device may run (auto, cuda), before any launch.
TEST(LaunchConfig, ABadBlockOverrideIsBadInput) {
    const char* before = std::getenv("GAEVAL_CUDA_BLOCK");
    const std::string kept = before ? before : "";
    setenv("GAEVAL_CUDA_BLOCK", "100", 1);
    EXPECT_THROW(resolve_backend("auto", 1), InputError);
    EXPECT_THROW(resolve_backend("cuda", 1), InputError);
    EXPECT_NO_THROW(resolve_backend("cpu", 1));
    setenv("GAEVAL_CUDA_BLOCK", "auto", 1);
    EXPECT_NO_THROW(resolve_backend("cpu", 1));
    if (before)
        setenv("GAEVAL_CUDA_BLOCK", kept.c_str(), 1);
    else
        unsetenv("GAEVAL_CUDA_BLOCK");
}

// The same games on the device with the chosen launch and with blocks forced to 32, 96, 256 and
// 1024 threads give the CPU's records bit for bit: one-ply weighted players on 32-lane groups
// (a tournament's pairings), depth-2 searching players on 8-lane groups, tic-tac-toe one thread
// a game.
TEST(LaunchConfig, CudaResultsDoNotDependOnTheBlock) {
    GAEVAL_REQUIRE_DEVICE_OR_SKIP();
#if GAEVAL_HAVE_CUDA
    const BackendChoice gpu = resolve_backend("cuda", 0);
    const BackendChoice cpu = resolve_backend("cpu", 0);
    games::PlayRequest one_ply;
    one_ply.a.kind = one_ply.b.kind = PlayerKind::Weighted;
    one_ply.a.weights = {1.0f, 1.0f, 0.5f, 0.25f, 0.125f, 0.0f, 0.5f, 1.0f,
                         1.5f, 0.1f, 0.5f, 0.25f, 0.125f, 0.0f, 0.1f};
    one_ply.b.weights = {0.5f, 1.5f, 0.25f, 0.5f, 0.0f, 0.125f, 1.0f, 0.5f,
                         0.1f, 1.5f, 0.25f, 0.5f, 0.0f, 0.125f, 0.5f};
    one_ply.games = gaeval::testing::gpu_test_size(552, 40);
    one_ply.seed = 30;
    one_ply.max_plies = 300;
    games::PlayRequest search = one_ply;
    search.a.depth = 2;
    search.games = gaeval::testing::gpu_test_size(64, 4);
    games::PlayRequest ttt = one_ply;
    ttt.a.weights.assign(tictactoe::Game::kFeatureCount, 0.5f);
    ttt.b.weights.assign(tictactoe::Game::kFeatureCount, 0.25f);
    ttt.games = gaeval::testing::gpu_test_size(5000, 100);
    const auto square7 = ataxx::open_session(ataxx::testing::fen_setup("startpos"));
    const auto tictactoe = games::find_game("tictactoe").open({});
    const auto one_ply_cpu = games::play(*square7, one_ply, cpu);
    const auto search_cpu = games::play(*square7, search, cpu);
    const auto ttt_cpu = games::play(*tictactoe, ttt, cpu);
    struct ChosenAgainAtTheEnd {  // also when a launch throws
        ~ChosenAgainAtTheEnd() { force_block(0); }
    } restore;
    for (int block : {0, 32, 96, 256, 1024}) {
        force_block(block);
        EXPECT_EQ(
            gaeval::testing::records_difference(one_ply_cpu, games::play(*square7, one_ply, gpu)),
            "")
            << "block " << block;
        EXPECT_EQ(
            gaeval::testing::records_difference(search_cpu, games::play(*square7, search, gpu)), "")
            << "block " << block;
        EXPECT_EQ(gaeval::testing::records_difference(ttt_cpu, games::play(*tictactoe, ttt, gpu)),
                  "")
            << "block " << block;
    }
#endif
}

}  // namespace
}  // namespace gaeval::cuda
