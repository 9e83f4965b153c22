// Pac-Man's playouts in per-thread scratch (games/core/scratch.hpp; games/pac/game.hpp:
// PlayoutScratch, the turn's working arrays in TurnWork, the greedy policy's in PolicyWork):
// - every pac's options, counted and picked from the neighbour and distance tables, against the
//   bitboard enumeration they replaced (written here again: grow from the pac's cell), in every
//   position of many random and greedy games on generated maps, fast and slow, with and
//   without abilities; count_moves and nth_move against the product of those lists;
// - the scratch match (play_match_in_scratch: the start copied into the scratch, moves made in
//   place with the turn's arrays there, the policy's sets there) against the plain match loop
//   (play_match_seated: a copy of the position a move), record for record and move hash for move
//   hash, random and greedy players in every pairing and both seats, 2 to 5 pacs, the scratch
//   filled with garbage first; and the batch layer, which plays its playouts in scratch;
// - the slice size and the blocks it allows.
// The GPU test (skipped without a device) plays the same batches on the device against the cpu.
#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <vector>

#include "games/core/match.hpp"
#include "games/core/scratch.hpp"
#include "games/pac/game.hpp"
#include "gpu_test_support.hpp"
#include "host/batch/batch.hpp"
#include "host/pac/map_io.hpp"
#include "kernels/launch_config.hpp"
#include "pac_test_support.hpp"
#include "scratch_test_support.hpp"

namespace gaeval::pac {
namespace {

using Table = pac::testing::GeneratedTable;

// The options of pac k of `side` as the bitboard form listed them: wait; MOVE to every cell of
// grow(cell) minus the cell, ascending; when fast, of grow(those) minus them and the cell; SPEED
// and the two SWITCHes at cooldown 0.
std::vector<Command> bitboard_options(const Map& m, const Pos& p, int side, int k) {
    const Pac& a = p.pac[side][k];
    std::vector<Command> out{Command::wait()};
    if (!a.alive) return out;
    const BB here = BB::cell(a.cell);
    const BB one = grow(m, here).minus(here);
    for_each_cell(one, [&](int c) { out.push_back(Command::move_to(c)); });
    if (a.speed_turns > 0) {
        const BB two = grow(m, one).minus(one).minus(here);
        for_each_cell(two, [&](int c) { out.push_back(Command::move_to(c)); });
    }
    if (a.cooldown == 0) {
        out.push_back(Command::speed());
        out.push_back(Command::switch_to((a.type + 1) % 3));
        out.push_back(Command::switch_to((a.type + 2) % 3));
    }
    return out;
}

bool same(const Command& x, const Command& y) { return std::memcmp(&x, &y, sizeof x) == 0; }

// Every pac's options in p (as it is, fast, and with abilities) against the bitboard form, and
// count_moves / nth_move against their product. Returns the options compared.
int compare_options(const Game& g, Pos p) {
    int compared = 0;
    for (int variant = 0; variant < 3; ++variant) {
        for (int k = 0; k < p.pacs; ++k) {
            if (variant == 1) p.pac[p.side][k].speed_turns = 2;
            if (variant == 2) p.pac[p.side][k].cooldown = 0;
        }
        for (int side = 0; side < 2; ++side)
            for (int k = 0; k < p.pacs; ++k) {
                const std::vector<Command> want = bitboard_options(*g.map, p, side, k);
                EXPECT_EQ(g.pac_option_count(p, side, k), static_cast<int>(want.size()));
                for (int j = 0; j < static_cast<int>(want.size()); ++j)
                    if (!same(g.pac_option(p, side, k, j), want[j])) {
                        ADD_FAILURE() << "pac " << side << "/" << k << " option " << j;
                        return 0;
                    }
                compared += static_cast<int>(want.size());
            }
        int product = 1;
        for (int k = 0; k < p.pacs; ++k)
            product *= static_cast<int>(bitboard_options(*g.map, p, p.side, k).size());
        EXPECT_EQ(g.count_moves(p), product);
        for (int index : {0, product / 3, product - 1}) {
            const Move m = g.nth_move(p, index);
            int rest = index;
            for (int k = 0; k < kMaxPacs; ++k) {
                Command want;
                if (k < p.pacs) {
                    const std::vector<Command> list = bitboard_options(*g.map, p, p.side, k);
                    want = list[rest % list.size()];
                    rest /= static_cast<int>(list.size());
                }
                EXPECT_TRUE(same(m.pac[k], want)) << "move " << index << ", pac " << k;
            }
        }
    }
    return compared;
}

TEST(PacScratch, OptionsAreTheBitboardEnumeration) {
    int compared = 0;
    for (uint64_t seed = 1; seed <= 6; ++seed) {
        const Table t(seed, 2 + static_cast<int>(seed % 4));
        Player<Game> random, greedy;
        greedy.kind = PlayerKind::Policy;
        greedy.policy = 1;
        Pos p = t.start;
        for (uint32_t ply = 0; ply < 300 && !t.game.is_over(p); ++ply) {
            if (ply % 3 == 0) compared += compare_options(t.game, p);
            const Player<Game>& mover = seed % 2 ? random : greedy;
            p = t.game.make(p, choose_move<Game, PlayerSet::Playout>(t.game, p, mover,
                                                                     DrawAddress{seed, 0, ply}));
        }
    }
    EXPECT_GT(compared, 10000);
}

// The slice a playout thread gets, and the blocks it allows (bench/results/kernel-resources.md):
// 592 bytes, so a 227 KB block (H100/H200) holds 384 threads and a 48 KB one 64.
TEST(PacScratch, TheSliceFitsTheLaunch) {
    const int slice = static_cast<int>(scratch_slice_bytes(sizeof(Game::PlayoutScratch)));
    EXPECT_EQ(slice, 592);
    EXPECT_EQ(cuda::scratch_block_cap(slice, 232448), 384);
    EXPECT_EQ(cuda::scratch_block_cap(slice, 49152), 64);
}

std::vector<Player<Game>> playout_players() {
    Player<Game> random, greedy;
    greedy.kind = PlayerKind::Policy;
    greedy.policy = 1;
    return {random, greedy};
}

// Every pair of playout players in both seats, `games` games each, on the map of `seed` with
// `pacs` pacs: the scratch form against the plain loop. Returns the plies compared.
uint64_t compare_playouts(uint64_t seed, int pacs, int games, uint32_t max_plies) {
    const Table t(seed, pacs);
    const std::vector<Player<Game>> players = playout_players();
    uint64_t plies = 0;
    for (const Player<Game>& a : players)
        for (const Player<Game>& b : players)
            for (uint32_t index = 0; index < static_cast<uint32_t>(games); ++index) {
                const int seat = static_cast<int>(index % 2);
                const GameRecord plain = play_match_seated<Game, PlayerSet::Playout>(
                    t.game, t.start, a, b, seat, seed, index, max_plies);
                HostScratch<sizeof(Game::PlayoutScratch)> scratch;
                // Garbage in the slice first: the scratch form must write before it reads.
                std::memset(scratch.bytes, 0xA5, sizeof scratch.bytes);
                const GameRecord fast = play_match_in_scratch<Game, PlayerSet::Playout>(
                    t.game, t.start, a, b, seat, seed, index, max_plies, scratch.slice());
                if (std::memcmp(&plain, &fast, sizeof plain) != 0) {
                    ADD_FAILURE() << "map " << seed << ", players " << int(a.kind) << "/"
                                  << int(b.kind) << ", game " << index << ": plies " << plain.plies
                                  << " vs " << fast.plies;
                    return 0;
                }
                plies += plain.plies;
            }
    return plies;
}

TEST(PacScratch, PlayoutsInScratchAreThePlainLoopsGames) {
    uint64_t plies = 0;
    for (int pacs = 2; pacs <= 5; ++pacs) plies += compare_playouts(40 + pacs, pacs, 6, 400);
    EXPECT_GT(plies, 10000u);
    // A ply cap that stops games in the middle of a turn.
    EXPECT_GT(compare_playouts(7, 3, 4, 31), 400u);
}

TEST(PacScratch, BatchPlayoutsOnTheCpuAreThePlainLoopsGames) {
    const Table t(5, 4);
    const std::vector<Player<Game>> players = playout_players();
    const std::vector<Pairing> pairings =
        gaeval::testing::all_pairings(static_cast<int>(players.size()), 2, 4);
    const BackendChoice cpu = resolve_backend("cpu", 2);
    const std::vector<GameRecord> batch =
        batch::play_pairings(t.game, t.start, players, pairings, 77, 400, cpu);
    ASSERT_EQ(batch.size(), pairings.size());
    for (std::size_t i = 0; i < pairings.size(); ++i) {
        const GameRecord plain = play_pairing<Game, PlayerSet::Playout>(
            t.game, t.start, players.data(), pairings[i], 77, static_cast<uint32_t>(i), 400);
        ASSERT_EQ(std::memcmp(&plain, &batch[i], sizeof plain), 0) << "game " << i;
    }
}

TEST(PacScratchGpu, DevicePlayoutsInSharedScratchAreTheCpusGames) {
    GAEVAL_REQUIRE_DEVICE_OR_SKIP();
    const Table t(5, 4);
    // 2048 games: many blocks.
    gaeval::testing::expect_device_playouts_are_the_cpus(
        t.game, t.start, playout_players(), 2, gaeval::testing::gpu_test_size(256, 4), 400, 1, 0);
}

}  // namespace
}  // namespace gaeval::pac
