// Batches of games played in pieces (host/batch/batch.hpp: detail::game_chunk): a tournament or
// match batch larger than the device's memory goes to the backend a piece at a time, and its
// records must be those of the whole batch played at once, at every piece size, including sizes
// that do not divide the batch. The cpu backend runs the same piece loop (GAEVAL_CPU_GAME_CHUNK),
// so these tests check it without a GPU; the Cuda test checks the device's pieces against the
// cpu's whole batch.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "ataxx_test_support.hpp"
#include "gpu_test_support.hpp"
#include "host/batch/batch.hpp"
#include "host/core/error.hpp"

namespace {

using namespace gaeval;
using namespace gaeval::ataxx;
using namespace gaeval::ataxx::testing;

using Player = gaeval::Player<Square7Game>;

// Sets an environment variable for the scope of a test, and restores its absence after.
struct ScopedEnv {
    const char* name;
    ScopedEnv(const char* n, const std::string& value) : name(n) { ::setenv(n, value.c_str(), 1); }
    ~ScopedEnv() { ::unsetenv(name); }
};

// Four different players: random, capture, and two weighted ones (one of them searching to
// depth 2), so that the batch mixes player sets and every pairing plays its own game.
std::vector<Player> tournament_players() {
    std::vector<Player> players(4);
    players[0] = player_of_kind(0);
    players[1] = player_of_kind(1);
    players[2] = player_of_kind(3);
    players[2].weights[static_cast<int>(Feature::OwnPieces)] = 1.0f;
    players[2].weights[static_cast<int>(Feature::OpponentPieces)] = -0.5f;
    players[3] = players[2];
    players[3].weights[static_cast<int>(Feature::OpponentPieces)] = -2.0f;
    players[3].depth = 2;
    return players;
}

// Every ordered pair of different players, both seats, `rounds` times: 24 games a round.
std::vector<Pairing> round_robin(uint32_t members, int rounds) {
    std::vector<Pairing> pairings;
    for (int r = 0; r < rounds; ++r)
        for (uint32_t a = 0; a < members; ++a)
            for (uint32_t b = 0; b < members; ++b)
                if (a != b)
                    for (uint8_t seat = 0; seat < 2; ++seat) pairings.push_back({a, b, seat});
    return pairings;
}

void expect_same_records(const std::vector<GameRecord>& a, const std::vector<GameRecord>& b,
                         const std::string& what) {
    ASSERT_EQ(a.size(), b.size()) << what;
    for (std::size_t i = 0; i < a.size(); ++i) {
        EXPECT_EQ(a[i].plies, b[i].plies) << what << ", game " << i;
        EXPECT_EQ(a[i].winner, b[i].winner) << what << ", game " << i;
        EXPECT_EQ(a[i].a_seat, b[i].a_seat) << what << ", game " << i;
        EXPECT_EQ(a[i].move_hash, b[i].move_hash) << what << ", game " << i;
    }
}

const uint32_t kMaxPlies = 120;

TEST(GameChunks, TournamentInPiecesEqualsTheWholeBatchOnTheCpu) {
    const Square7Fixture f(fen_setup("x5o/7/7/7/7/7/o5x x 0 1"));
    const std::vector<Player> players = tournament_players();
    const std::vector<Pairing> pairings = round_robin(4, 3);  // 72 games
    const std::vector<GameRecord> whole =
        batch::play_pairings(f.game, f.pos, players, pairings, 5, kMaxPlies, cpu_backend(2));
    // The games differ from each other (draws are addressed by the game's index in the batch):
    // a piece loop that restarted indices at each piece would repeat them.
    int differing = 0;
    for (std::size_t i = 24; i < whole.size(); ++i)
        differing += whole[i].move_hash != whole[i - 24].move_hash;
    ASSERT_GT(differing, 0);
    for (const char* chunk : {"1", "7", "24", "71", "1000"}) {
        const ScopedEnv env("GAEVAL_CPU_GAME_CHUNK", chunk);
        expect_same_records(
            whole,
            batch::play_pairings(f.game, f.pos, players, pairings, 5, kMaxPlies, cpu_backend(2)),
            std::string("pieces of ") + chunk);
    }
}

TEST(GameChunks, MatchBatchInPiecesEqualsTheWholeBatchOnTheCpu) {
    const Square7Fixture f(fen_setup("x5o/7/7/7/7/7/o5x x 0 1"));
    const std::vector<Player> players = tournament_players();
    const std::vector<GameRecord> whole =
        batch::play(f.game, f.pos, players[3], players[1], 9, 50, 3, kMaxPlies, cpu_backend(2));
    for (const char* chunk : {"1", "13", "49"}) {
        const ScopedEnv env("GAEVAL_CPU_GAME_CHUNK", chunk);
        expect_same_records(whole,
                            batch::play(f.game, f.pos, players[3], players[1], 9, 50, 3,
                                        kMaxPlies, cpu_backend(2)),
                            std::string("pieces of ") + chunk);
    }
}

TEST(GameChunks, BadPieceSizesAndWrappingIndicesAreInputErrors) {
    const Square7Fixture f(fen_setup("x5o/7/7/7/7/7/o5x x 0 1"));
    const std::vector<Player> players = tournament_players();
    for (const char* bad : {"0", "-3", "+4", "ten", "5x", "99999999999999999999999"}) {
        const ScopedEnv env("GAEVAL_CPU_GAME_CHUNK", bad);
        try {
            batch::play(f.game, f.pos, players[0], players[1], 0, 4, 1, kMaxPlies,
                        cpu_backend(1));
            ADD_FAILURE() << "GAEVAL_CPU_GAME_CHUNK=" << bad << " was accepted";
        } catch (const InputError& e) {
            EXPECT_NE(std::string(e.what()).find("GAEVAL_CPU_GAME_CHUNK"), std::string::npos)
                << e.what();
        }
    }
    // Game indices are 32 bits: a batch that would wrap them is refused before it is allocated.
    EXPECT_THROW(batch::play(f.game, f.pos, players[0], players[1], 0xffffffffull, 2, 1,
                             kMaxPlies, cpu_backend(1)),
                 InputError);
    EXPECT_THROW(batch::play(f.game, f.pos, players[0], players[1], 0, (uint64_t{1} << 32) + 1, 1,
                             kMaxPlies, cpu_backend(1)),
                 InputError);
    // The last index itself is fine.
    EXPECT_EQ(batch::play(f.game, f.pos, players[0], players[1], 0xffffffffull, 1, 1, kMaxPlies,
                          cpu_backend(1))
                  .size(),
              1u);
}

TEST(GameChunks, CudaPiecesEqualTheCpuWholeBatch) {
    GAEVAL_REQUIRE_DEVICE_OR_SKIP();
    const Square7Fixture f(fen_setup("x5o/7/7/7/7/7/o5x x 0 1"));
    const std::vector<Player> players = tournament_players();
    const std::vector<Pairing> pairings = round_robin(4, gaeval::testing::gpu_test_size(20, 2));
    const std::vector<GameRecord> whole =
        batch::play_pairings(f.game, f.pos, players, pairings, 5, kMaxPlies, cpu_backend(2));
    const BackendChoice gpu = resolve_backend("cuda", 0);
    expect_same_records(whole,
                        batch::play_pairings(f.game, f.pos, players, pairings, 5, kMaxPlies, gpu),
                        "cuda, whole batch");
    for (const char* chunk : {"7", "100"}) {
        const ScopedEnv env("GAEVAL_CUDA_GAME_CHUNK", chunk);
        expect_same_records(
            whole, batch::play_pairings(f.game, f.pos, players, pairings, 5, kMaxPlies, gpu),
            std::string("cuda, pieces of ") + chunk);
    }
}

}  // namespace
