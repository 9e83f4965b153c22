// The co-evolution bot's rollouts in per-thread scratch (games/pac/rollout.hpp: RolloutOp's
// Scratch, rollout_in; the turn's events counted by TurnCounts instead of TurnEvents' bitboards;
// the end's terms with the pacs taken as a mask):
// - the scratch form against the reference below (the plain rollout it replaced: a copy of the
//   position, TurnEvents),
//   rollout for rollout, bit for bit, on generated maps of 2 to 5 pacs, from starts advanced by
//   random turns, with pacs removed (a side with none left: its rival takes the rest), hidden
//   enemies, random plans and sight sets, both sides evaluated, weights zero, positive and
//   negative, depths 1 to 40, the scratch filled with garbage first (and reused unwiped);
// - the batch layer's evaluate (which runs the scratch form) and the op's own-scratch form
//   against the reference;
// - the slice size and the blocks it allows.
// The GPU test (skipped without a device) evaluates the same populations on the device.
#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <vector>

#include "games/core/scratch.hpp"
#include "games/pac/rollout.hpp"
#include "gpu_test_support.hpp"
#include "host/batch/batch.hpp"
#include "host/pac/map_io.hpp"
#include "kernels/batch_ops.hpp"
#include "kernels/launch_config.hpp"
#include "pac_test_support.hpp"

namespace gaeval::pac {
namespace {

// splitmix64: the test's own draws.
struct Draws {
    uint64_t state;
    uint64_t next() {
        uint64_t z = (state += 0x9e3779b97f4a7c15ull);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        return z ^ (z >> 31);
    }
    int below(int n) { return static_cast<int>(next() % static_cast<uint64_t>(n)); }
};

using Table = pac::testing::GeneratedTable;

// The start after `turns` random turns (random moves of both seats), then with some pacs of
// either side removed and hidden bits set at random.
Pos varied_start(const Table& t, Draws& draws, int turns) {
    Pos p = t.start;
    for (int ply = 0; ply < 2 * turns && !p.over; ++ply)
        p = t.game.make(p, t.game.nth_move(p, draws.below(t.game.count_moves(p))));
    if (p.over) p = t.start;
    p.side = 0;
    for (int s = 0; s < 2; ++s)
        for (int k = 0; k < p.pacs; ++k)
            if (draws.below(6) == 0) p.pac[s][k].alive = 0;
    p.hidden = static_cast<uint8_t>(draws.below(3) == 0 ? draws.below(4) : 0);
    return p;
}

// A plan: each living pac a random walk of neighbours from its cell, cut short at random.
Plan random_plan(const Map& m, const Pos& p, int side, Draws& draws) {
    Plan plan;
    for (int k = 0; k < kMaxPacs; ++k) {
        int cell = k < p.pacs ? p.pac[side][k].cell : -1;
        const int length = draws.below(4) == 0 ? draws.below(kPlanCells) : kPlanCells;
        for (int j = 0; j < kPlanCells; ++j) {
            if (cell < 0 || j >= length) {
                plan.cell[k][j] = -1;
                continue;
            }
            int next = -1;
            while (next < 0) next = m.neighbour[cell][draws.below(4)];
            plan.cell[k][j] = static_cast<int16_t>(cell = next);
        }
    }
    return plan;
}

// Random floor cells (about `percent` of them).
BB random_cells(const Map& m, Draws& draws, int percent) {
    BB b = BB::none();
    for_each_cell(m.floor, [&](int c) {
        if (draws.below(100) < percent) b.set(c);
    });
    return b;
}

// An op from p for `side` with the weights of `setting` (0: zeros, 1: the bot's kind, 2:
// negative and odd values) and depth `depth`.
RolloutOp make_op(const Table& t, const Pos& p, int side, int setting, int depth, Draws& draws) {
    RolloutOp op;
    op.game = t.game;
    op.start = p;
    const int sight = draws.below(4);
    op.known = sight == 0   ? visible(*t.map, p, side)
               : sight == 1 ? BB::none()
               : sight == 2 ? t.map->floor
                            : random_cells(*t.map, draws, 40);
    const float unseen[3] = {0.0f, 0.5f, 0.37f}, kill[3] = {0.0f, 20.0f, -7.3f},
                voronoi[3] = {0.0f, 0.2f, -1.3f};
    op.unseen_value = unseen[setting];
    op.kill_value = kill[setting];
    op.voronoi_weight = voronoi[setting];
    for (int d = 0; d < kDecaySteps; ++d) op.decay[d] = d == 0 ? 1.0f : op.decay[d - 1] * 0.9f;
    op.side = static_cast<uint8_t>(side);
    op.depth = static_cast<uint8_t>(depth);
    return op;
}

// The population of an op: `members` plans for op.side, then the other side's plan.
std::vector<Plan> population(const Table& t, const RolloutOp& op, int members, Draws& draws) {
    std::vector<Plan> plans;
    for (int i = 0; i < members; ++i)
        plans.push_back(random_plan(*t.map, op.start, op.side, draws));
    plans.push_back(random_plan(*t.map, op.start, 1 - op.side, draws));
    return plans;
}

// The reference: the rollout as RolloutOp played it before its scratch form (a copy of the
// position, the turn's events as TurnEvents' bitboards, the end's pacs taken in a bool array),
// kept here as the second implementation the scratch form is compared with.
float reference_gain(const RolloutOp& op, const TurnEvents& ev, int s) {
    const int seen = (ev.eaten[s] & op.known).count();
    const int unseen = ev.eaten[s].count() - seen;
    const float pellets = static_cast<float>(seen) + op.unseen_value * static_cast<float>(unseen);
    const float supers = static_cast<float>(kSuperValue * ev.eaten_supers[s].count());
    const float kills = op.kill_value * static_cast<float>(ev.deaths[1 - s]);
    return pellets + supers + kills;
}

float reference_end_value(const RolloutOp& op, const Pos& p) {
    const Map& m = *op.game.map;
    float voronoi = 0.0f;
    for_each_cell(p.pellets, [&](int c) {
        int near[2] = {kNoPath, kNoPath};
        for (int s = 0; s < 2; ++s)
            for (int k = 0; k < p.pacs; ++k)
                if (p.pac[s][k].alive) near[s] = min(near[s], int(m.dist[p.pac[s][k].cell][c]));
        if (near[0] == near[1]) return;
        const float weight = op.known.test(c) ? 1.0f : op.unseen_value;
        const int winner = near[1] < near[0] ? 1 : 0;
        const float term = weight * op.decay_at(near[winner]);
        voronoi = winner == op.side ? voronoi + term : voronoi - term;
    });
    float supers = 0.0f;
    bool taken_pac[2 * kMaxPacs] = {};
    BB left = p.supers;
    while (left.any()) {
        int best_pac = -1, best_cell = -1, best_dist = kNoPath;
        for (int i = 0; i < 2 * kMaxPacs; ++i) {
            const Pac& a = p.pac[i / kMaxPacs][i % kMaxPacs];
            if (i % kMaxPacs >= p.pacs || !a.alive || taken_pac[i]) continue;
            for_each_cell(left, [&](int c) {
                if (m.dist[a.cell][c] < best_dist) {
                    best_dist = m.dist[a.cell][c];
                    best_pac = i;
                    best_cell = c;
                }
            });
        }
        if (best_pac < 0) break;
        taken_pac[best_pac] = true;
        left.reset(best_cell);
        const float term = static_cast<float>(kSuperValue) * op.decay_at(best_dist);
        supers = best_pac / kMaxPacs == op.side ? supers + term : supers - term;
    }
    return op.voronoi_weight * voronoi + supers;
}

// Member i of `inputs` against inputs[op.population], as RolloutOp's plain form did.
float reference_rollout(const RolloutOp& op, const Plan* inputs, uint64_t i) {
    const Map& m = *op.game.map;
    const Plan* plans[2];
    plans[op.side] = &inputs[i];
    plans[1 - op.side] = &inputs[op.population];
    Pos p = op.start;
    int next[2][kMaxPacs] = {};
    float value = 0.0f;
    for (int t = 0; t < op.depth && !p.over; ++t) {
        Command cmd[2][kMaxPacs];
        for (int s = 0; s < 2; ++s)
            for (int k = 0; k < kMaxPacs; ++k)
                cmd[s][k] =
                    k < p.pacs ? plan_command(m, p, s, k, *plans[s], &next[s][k]) : Command::wait();
        TurnEvents ev;
        resolve_turn(m, p, cmd[0], cmd[1], &ev, false);
        value = value + op.decay_at(t) *
                            (reference_gain(op, ev, op.side) - reference_gain(op, ev, 1 - op.side));
    }
    return value + reference_end_value(op, p);
}

// Every rollout of many ops on the map of `seed` with `pacs` pacs: the scratch form against the
// plain one, bit for bit, the scratch filled with garbage before every other rollout. Returns
// the rollouts compared; counts the distinct values in *distinct (that the rollouts vary).
int compare_rollouts(uint64_t seed, int pacs, int ops, int members, int* distinct) {
    const Table t(seed, pacs);
    Draws draws{seed * 1000 + static_cast<uint64_t>(pacs)};
    HostScratch<sizeof(RolloutOp::Scratch)> scratch;
    int compared = 0;
    std::vector<float> seen;
    for (int o = 0; o < ops; ++o) {
        const int depths[4] = {1, kPlanDepth, 15, 40};
        const Pos p = varied_start(t, draws, draws.below(3) == 0 ? 0 : draws.below(60));
        RolloutOp op = make_op(t, p, o % 2, draws.below(3), depths[draws.below(4)], draws);
        const std::vector<Plan> plans = population(t, op, members, draws);
        op.population = static_cast<uint32_t>(members);
        for (int i = 0; i < members; ++i) {
            if (i % 2 == 0)
                for (auto& byte : scratch.bytes) byte = static_cast<unsigned char>(draws.next());
            const float plain = reference_rollout(op, plans.data(), static_cast<uint64_t>(i));
            const float in_scratch = op(plans.data(), static_cast<uint64_t>(i), scratch.slice());
            EXPECT_EQ(std::memcmp(&plain, &in_scratch, sizeof plain), 0)
                << "map " << seed << ", " << pacs << " pacs, op " << o << ", member " << i << ": "
                << plain << " against " << in_scratch;
            if (std::memcmp(&plain, &in_scratch, sizeof plain) != 0) return compared;
            ++compared;
            bool known = false;
            for (float v : seen) known = known || v == plain;
            if (!known) seen.push_back(plain);
        }
    }
    *distinct += static_cast<int>(seen.size());
    return compared;
}

TEST(PacRolloutScratch, TheScratchRolloutIsThePlainRollout) {
    int compared = 0, distinct = 0;
    for (uint64_t seed = 1; seed <= 4; ++seed)
        for (int pacs = 2; pacs <= 5; ++pacs)
            compared += compare_rollouts(seed, pacs, 12, 8, &distinct);
    EXPECT_EQ(compared, 4 * 4 * 12 * 8);
    EXPECT_GT(distinct, compared / 3) << "the rollouts should score differently";
}

// A side without a living pac (and none hidden): the other side takes every pellet in the first
// turn (TurnCounts::took_rest), and the end has no pac to assign.
TEST(PacRolloutScratch, ASideWithoutPacsIsThePlainRollout) {
    const Table t(3, 4);
    Draws draws{99};
    HostScratch<sizeof(RolloutOp::Scratch)> scratch;
    for (int gone = 0; gone < 2; ++gone)
        for (int side = 0; side < 2; ++side) {
            Pos p = t.start;
            for (int k = 0; k < p.pacs; ++k) p.pac[gone][k].alive = 0;
            RolloutOp op = make_op(t, p, side, 2, kPlanDepth, draws);
            op.known = random_cells(*t.map, draws, 50);
            const std::vector<Plan> plans = population(t, op, 4, draws);
            op.population = 4;
            for (int i = 0; i < 4; ++i) {
                std::memset(scratch.bytes, 0x5A, sizeof scratch.bytes);
                const float plain = reference_rollout(op, plans.data(), static_cast<uint64_t>(i));
                const float in_scratch =
                    op(plans.data(), static_cast<uint64_t>(i), scratch.slice());
                EXPECT_EQ(std::memcmp(&plain, &in_scratch, sizeof plain), 0)
                    << "side " << gone << " gone, evaluated " << side << ", member " << i;
                EXPECT_NE(plain, 0.0f);
            }
        }
}

TEST(PacRolloutScratch, TheBatchRunsTheScratchFormAsThePlainOp) {
    static_assert(std::is_same_v<batch_ops::evaluate_shape_t<RolloutOp>,
                                 TaskShape<1, batch_ops::kPlayoutMinBlocks,
                                           static_cast<int>(sizeof(RolloutOp::Scratch))>>);
    const Table t(4, 5);
    Draws draws{7};
    for (int side = 0; side < 2; ++side) {
        RolloutOp op = make_op(t, varied_start(t, draws, 10), side, 1, kPlanDepth, draws);
        const std::vector<Plan> plans = population(t, op, 40, draws);
        op.population = 40;
        for (int threads : {1, 2}) {
            const auto out = batch::evaluate(op, plans, 40, resolve_backend("cpu", threads));
            ASSERT_EQ(out.size(), 40u);
            for (int i = 0; i < 40; ++i) {
                const float plain = reference_rollout(op, plans.data(), static_cast<uint64_t>(i));
                EXPECT_EQ(std::memcmp(&plain, &out[i], sizeof plain), 0) << "member " << i;
                const float own = op(plans.data(), static_cast<uint64_t>(i));
                EXPECT_EQ(std::memcmp(&plain, &own, sizeof plain), 0) << "member " << i;
            }
        }
    }
}

TEST(PacRolloutScratch, TheSliceFitsTheLaunch) {
    const int slice = static_cast<int>(scratch_slice_bytes(sizeof(RolloutOp::Scratch)));
    EXPECT_EQ(slice, 704);
    // A multiprocessor's 227 KB a block: blocks of 256 (the launch bounds) fit.
    EXPECT_EQ(cuda::scratch_block_cap(slice, 232448), 320);
    EXPECT_EQ(cuda::scratch_block_cap(slice, 49152), 64);
}

TEST(PacRolloutScratchGpu, DeviceRolloutsInSharedScratchAreTheCpus) {
    GAEVAL_REQUIRE_DEVICE_OR_SKIP();
    const int members = gaeval::testing::gpu_test_size(4096, 512);
    for (int pacs : {2, 5}) {
        const Table t(8, pacs);
        Draws draws{static_cast<uint64_t>(pacs)};
        for (int side = 0; side < 2; ++side) {
            RolloutOp op = make_op(t, varied_start(t, draws, 20), side, 1 + side, 15, draws);
            const std::vector<Plan> plans = population(t, op, members, draws);
            op.population = static_cast<uint32_t>(members);
            const auto cpu = batch::evaluate(op, plans, members, resolve_backend("cpu", 2));
            const auto gpu = batch::evaluate(op, plans, members, resolve_backend("cuda", 0));
            ASSERT_EQ(cpu.size(), gpu.size());
            EXPECT_EQ(std::memcmp(cpu.data(), gpu.data(), cpu.size() * sizeof(float)), 0)
                << pacs << " pacs, side " << side;
        }
    }
}

}  // namespace
}  // namespace gaeval::pac
