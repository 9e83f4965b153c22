// Per-thread scratch (games/core/scratch.hpp) on the cpu executor, and Risk's playouts in it:
// - a task with scratch (TaskShape's scratch bytes) runs op(i, scratch) on every index once, with
//   a slice of its own that it may fill and index at run time: the same results as the plain
//   form of the same work with a local array, on 1 to 4 threads, and so does a lane shape with
//   scratch;
// - the device's scratch block cap (kernels/launch_config.hpp: scratch_block_cap) by hand;
// - Risk's dice in registers (rules.hpp roll_losses) against the array form (roll_dice and
//   attacker_losses) at every dice count over many draws;
// - Risk's playouts in scratch (games/core/match.hpp: play_match_in_scratch: the deal into the
//   scratch, moves made in place, the drafter's ratios in the scratch) against the plain match
//   loop (play_match_seated: a copy of the position a move), record for record and move hash for
//   move hash, every policy pair and random players, 2 to 6 seats, both maps; and the batch layer
//   playing its playouts in scratch on the cpu gives the same records.
// The GPU test (skipped without a device) plays the same batch on the device against the cpu.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "games/core/match.hpp"
#include "games/core/scratch.hpp"
#include "gpu_test_support.hpp"
#include "host/backend/executor.hpp"
#include "host/batch/batch.hpp"
#include "kernels/batch_ops.hpp"
#include "kernels/launch_config.hpp"
#include "risk_test_support.hpp"
#include "scratch_test_support.hpp"

namespace gaeval {
namespace {

// Index i's 40 values (a scrambled sequence), sorted descending, summed with weights by rank.
constexpr int kValues = 40;
uint32_t value_of(uint64_t i, int k) {
    return static_cast<uint32_t>((i * 2654435761u + static_cast<uint64_t>(k) * 40503u) % 1000u);
}
uint64_t ranked_sum(uint32_t* v) {
    std::sort(v, v + kValues, [](uint32_t a, uint32_t b) { return a > b; });
    uint64_t sum = 0;
    for (int k = 0; k < kValues; ++k) sum += static_cast<uint64_t>(k + 1) * v[k];
    return sum;
}

// The work in the scratch: the values written there, sorted there, read back by rank.
struct ScratchSortOp {
    using host_only = void;
    uint64_t* out;
    int* calls_without_scratch;
    void operator()(uint64_t) const { ++*calls_without_scratch; }
    void operator()(uint64_t i, const ThreadScratch& scratch) const {
        uint32_t* v = &scratch.as<uint32_t>();
        for (int k = 0; k < kValues; ++k) v[k] = value_of(i, k);
        out[i] = ranked_sum(v);
    }
};

TEST(Scratch, TasksWithScratchGetTheirOwnSliceOnTheCpu) {
    for (int threads : {1, 2, 4})
        for (uint64_t first : {uint64_t{0}, uint64_t{13}}) {
            const uint64_t n = 997;
            std::vector<uint64_t> out(first + n, 0);
            int plain_calls = 0;
            for_each_task<TaskShape<1, 0, kValues * 4>>(risk::testing::cpu(threads), first, n,
                                                        ScratchSortOp{out.data(), &plain_calls});
            EXPECT_EQ(plain_calls, 0);
            for (uint64_t i = 0; i < first; ++i) ASSERT_EQ(out[i], 0u);
            for (uint64_t i = first; i < first + n; ++i) {
                uint32_t local[kValues];
                for (int k = 0; k < kValues; ++k) local[k] = value_of(i, k);
                ASSERT_EQ(out[i], ranked_sum(local)) << "index " << i << ", " << threads;
            }
        }
}

// A lane group's shape with scratch (7x7 Ataxx's one-ply lanes: a slice a lane on the device)
// runs op(i, scratch) on the cpu, once an index.
TEST(Scratch, LaneShapesWithScratchRunTheScratchFormOnTheCpu) {
    const uint64_t first = 5, n = 301;
    std::vector<uint64_t> out(first + n, 0);
    int plain_calls = 0;
    for_each_task<TaskShape<8, 4, kValues * 4>>(risk::testing::cpu(2), first, n,
                                                ScratchSortOp{out.data(), &plain_calls});
    EXPECT_EQ(plain_calls, 0);
    for (uint64_t i = first; i < first + n; ++i) {
        uint32_t local[kValues];
        for (int k = 0; k < kValues; ++k) local[k] = value_of(i, k);
        ASSERT_EQ(out[i], ranked_sum(local)) << "index " << i;
    }
}

TEST(Scratch, SlicesAreAlignedAndRoundedUp) {
    EXPECT_EQ(scratch_slice_bytes(1), 16u);
    EXPECT_EQ(scratch_slice_bytes(16), 16u);
    EXPECT_EQ(scratch_slice_bytes(520), 528u);
    HostScratch<520> scratch;
    EXPECT_EQ(sizeof scratch.bytes, 528u);
    EXPECT_EQ(reinterpret_cast<uintptr_t>(scratch.slice().bytes) % kScratchAlign, 0u);
}

TEST(Scratch, BlockCapIsTheLargestWarpMultipleWhoseScratchFits) {
    using cuda::scratch_block_cap;
    EXPECT_EQ(scratch_block_cap(0, 0), 1024);            // no scratch: any block
    EXPECT_EQ(scratch_block_cap(528, 232448), 416);      // 227 KB: 440 threads fit, 13 warps
    EXPECT_EQ(scratch_block_cap(528, 49152), 64);        // 48 KB: 93 threads, 2 warps
    EXPECT_EQ(scratch_block_cap(16, 232448), 1024);      // capped at 1024
    EXPECT_EQ(scratch_block_cap(528, 528 * 32), 32);     // exactly one warp
    EXPECT_EQ(scratch_block_cap(528, 528 * 32 - 1), 0);  // not one warp: refused
    EXPECT_EQ(scratch_block_cap(528, -5), 0);
    // Sizes above the cap count no resident block, so the launch never picks them.
    cuda::Occupancy o;
    for (int block = 32; block <= 1024; block += 32)
        o.blocks[block / 32 - 1] = block <= 416 ? std::max(1, 232448 / (block * 528)) : 0;
    const cuda::LaunchShape shape = cuda::choose_launch(1u << 20, 132, o);
    EXPECT_GT(shape.block, 0);
    EXPECT_LE(shape.block, 416);
    EXPECT_GT(o.at(shape.block), 0);
}

}  // namespace

namespace risk {
namespace {

using testing::Fixture;

TEST(RiskScratch, DiceInRegistersAreTheArrayForm) {
    int checked = 0, attacker_lost_two = 0;
    for (int na = 1; na <= 3; ++na)
        for (int nd = 1; nd <= 2; ++nd)
            for (uint32_t draw = 0; draw < 4000; ++draw) {
                int dice[5];
                roll_dice(11, 5, draw, dice);
                const int plain = attacker_losses(dice, na, dice + 3, nd);
                const int fast = roll_losses(11, 5, draw, na, nd);
                ASSERT_EQ(fast, plain) << na << "v" << nd << " draw " << draw;
                attacker_lost_two += plain == 2;
                ++checked;
            }
    EXPECT_EQ(checked, 24000);
    EXPECT_GT(attacker_lost_two, 1000);  // the two-pair comparisons were exercised
}

std::vector<Player<Game>> playout_players() {
    std::vector<Player<Game>> players;
    Player<Game> random;
    players.push_back(random);
    for (int policy = 1; policy <= Game::kPolicyCount; ++policy) {
        Player<Game> p;
        p.kind = PlayerKind::Policy;
        p.policy = static_cast<uint8_t>(policy);
        players.push_back(p);
    }
    return players;
}

// Every pair of playout players, each seat count, `games` games each: the scratch form against
// the plain loop. Returns the number of plies compared.
uint64_t compare_playouts(const Fixture& f, int games, uint32_t max_plies) {
    const std::vector<Player<Game>> players = playout_players();
    uint64_t plies = 0;
    for (int seats = 2; seats <= 6; ++seats) {
        const Pos start = f.game.start(seats);
        for (const Player<Game>& a : players)
            for (const Player<Game>& b : players)
                for (uint32_t index = 0; index < static_cast<uint32_t>(games); ++index) {
                    const int seat = static_cast<int>(index % static_cast<uint32_t>(seats));
                    const uint64_t seed = 1000 + static_cast<uint64_t>(seats);
                    const GameRecord plain = play_match_seated<Game, PlayerSet::Playout>(
                        f.game, start, a, b, seat, seed, index, max_plies);
                    HostScratch<sizeof(Game::PlayoutScratch)> scratch;
                    // Garbage in the slice first: the scratch form must write before it reads.
                    std::memset(scratch.bytes, 0xA5, sizeof scratch.bytes);
                    const GameRecord fast = play_match_in_scratch<Game, PlayerSet::Playout>(
                        f.game, start, a, b, seat, seed, index, max_plies, scratch.slice());
                    if (std::memcmp(&plain, &fast, sizeof plain) != 0) {
                        ADD_FAILURE() << seats << " seats, players " << int(a.kind) << int(a.policy)
                                      << "/" << int(b.kind) << int(b.policy) << ", game " << index
                                      << ": plies " << plain.plies << " vs " << fast.plies;
                        return 0;
                    }
                    plies += plain.plies;
                }
    }
    return plies;
}

TEST(RiskScratch, PlayoutsInScratchAreThePlainLoopsGames) {
    const Fixture classic(false, 0.5f, 30);
    EXPECT_GT(compare_playouts(classic, 3, 3000), 100000u);
    const Fixture small(true, 0.6f, 40);
    EXPECT_GT(compare_playouts(small, 4, 3000), 10000u);
}

// A tournament of playout players through the batch layer (which plays them in scratch) against
// the plain loop, game by game.
std::vector<GameRecord> plain_tournament(const Game& g, const Pos& start,
                                         const std::vector<Player<Game>>& players,
                                         const std::vector<Pairing>& pairings, uint64_t seed,
                                         uint32_t max_plies) {
    std::vector<GameRecord> records;
    for (std::size_t i = 0; i < pairings.size(); ++i)
        records.push_back(play_pairing<Game, PlayerSet::Playout>(
            g, start, players.data(), pairings[i], seed, static_cast<uint32_t>(i), max_plies));
    return records;
}

TEST(RiskScratch, BatchPlayoutsOnTheCpuAreThePlainLoopsGames) {
    const Fixture f(false, 0.5f, 25);
    const std::vector<Player<Game>> players = playout_players();
    const Pos start = f.game.start(3);
    const std::vector<Pairing> pairings =
        ::gaeval::testing::all_pairings(static_cast<int>(players.size()), 3);
    const std::vector<GameRecord> plain =
        plain_tournament(f.game, start, players, pairings, 77, 2000);
    const std::vector<GameRecord> batch =
        batch::play_pairings(f.game, start, players, pairings, 77, 2000, testing::cpu(2));
    ASSERT_EQ(plain.size(), batch.size());
    for (std::size_t i = 0; i < plain.size(); ++i)
        ASSERT_EQ(std::memcmp(&plain[i], &batch[i], sizeof plain[i]), 0) << "game " << i;
}

TEST(RiskScratchGpu, DevicePlayoutsInSharedScratchAreTheCpusGames) {
    GAEVAL_REQUIRE_DEVICE_OR_SKIP();
    const Fixture f(false, 0.5f, 25);
    // 4096 games: many blocks.
    ::gaeval::testing::expect_device_playouts_are_the_cpus(
        f.game, f.game.start(4), playout_players(), 4, ::gaeval::testing::gpu_test_size(64, 2),
        2000, 1, 3);
}

}  // namespace
}  // namespace risk
}  // namespace gaeval
