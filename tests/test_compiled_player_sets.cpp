// The player sets compiled for each game (kernels/batch_ops.hpp: compiled_player_set): a set
// that would play every player of the game as a smaller set does is not compiled, and the batch
// layer plays the smaller one. Risk's weighted player always searches (no one-ply weighted
// player: its weighted set is the playout set); Pac-Man has no weighted or searching player
// (both are its playout set). Checked here:
// - which set each player of Risk and Pac-Man needs (players.hpp: player_set), every kind,
//   policy and depth: Risk never needs the weighted set, Pac-Man never the searching one;
// - the sets compiled for every game type;
// - the batch layer's records (tournaments, keyed tournaments, matches, on the cpu) with every
//   player kind the game's Player accepts, against the copy loop (play_match_seated) of the set
//   the batch was played in before (the smallest holding its players), record for record, move
//   hashes included;
// - on a device (skipped without one): the same batches against the cpu.
#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "games/ataxx/variants.hpp"
#include "games/connect4/connect4.hpp"
#include "games/core/match.hpp"
#include "games/gomoku/game.hpp"
#include "games/pac/game.hpp"
#include "games/risk/game.hpp"
#include "games/tictactoe/tictactoe.hpp"
#include "gpu_test_support.hpp"
#include "host/batch/batch.hpp"
#include "host/pac/map_io.hpp"
#include "kernels/batch_ops.hpp"
#include "risk_test_support.hpp"
#include "scratch_test_support.hpp"

namespace gaeval {
namespace {

using batch_ops::compiled_player_set;

template <class G>
constexpr bool compiles_every_set() {
    return compiled_player_set<G>(PlayerSet::Playout) == PlayerSet::Playout &&
           compiled_player_set<G>(PlayerSet::Weighted) == PlayerSet::Weighted &&
           compiled_player_set<G>(PlayerSet::Search) == PlayerSet::Search;
}

TEST(CompiledPlayerSets, EachGameCompilesTheSetsItsPlayersNeed) {
    static_assert(compiles_every_set<ataxx::Square7Game>());
    static_assert(compiles_every_set<ataxx::Table4Game4>());
    static_assert(compiles_every_set<tictactoe::Game>());
    static_assert(compiles_every_set<connect4::Game>());
    static_assert(compiles_every_set<gomoku::Game15>());
    static_assert(compiles_every_set<gomoku::Game20>());
    static_assert(compiled_player_set<risk::Game>(PlayerSet::Playout) == PlayerSet::Playout);
    static_assert(compiled_player_set<risk::Game>(PlayerSet::Weighted) == PlayerSet::Playout);
    static_assert(compiled_player_set<risk::Game>(PlayerSet::Search) == PlayerSet::Search);
    static_assert(compiled_player_set<pac::Game>(PlayerSet::Playout) == PlayerSet::Playout);
    static_assert(compiled_player_set<pac::Game>(PlayerSet::Weighted) == PlayerSet::Playout);
    static_assert(compiled_player_set<pac::Game>(PlayerSet::Search) == PlayerSet::Playout);
    SUCCEED();
}

// Every player of G a Player<G> can describe: random, each policy, and weighted at depths 1 to 4
// (Pac-Man's Player holds no weights; the kind alone).
template <class G>
std::vector<Player<G>> every_player_kind() {
    std::vector<Player<G>> players(1);
    for (int policy = 1; policy <= G::kPolicyCount; ++policy) {
        Player<G> p;
        p.kind = PlayerKind::Policy;
        p.policy = static_cast<uint8_t>(policy);
        players.push_back(p);
    }
    std::mt19937 rng(9);
    for (int depth = 1; depth <= 4; ++depth) {
        Player<G> p;
        p.kind = PlayerKind::Weighted;
        p.depth = static_cast<uint8_t>(depth);
        for (int i = 0; i < G::kWeightCount; ++i)
            p.weights[i] = std::uniform_real_distribution<float>(-2.0f, 10.0f)(rng);
        players.push_back(p);
    }
    return players;
}

TEST(CompiledPlayerSets, NoRiskPlayerNeedsTheWeightedSet) {
    for (const Player<risk::Game>& p : every_player_kind<risk::Game>())
        EXPECT_EQ(player_set<risk::Game>(p),
                  p.kind == PlayerKind::Weighted ? PlayerSet::Search : PlayerSet::Playout);
}

TEST(CompiledPlayerSets, NoPacPlayerNeedsTheSearchingSet) {
    for (const Player<pac::Game>& p : every_player_kind<pac::Game>())
        EXPECT_EQ(player_set<pac::Game>(p),
                  p.kind == PlayerKind::Weighted ? PlayerSet::Weighted : PlayerSet::Playout);
}

// The copy loop (play_match_seated) of the set the batch layer played `players` in before
// compiled_player_set: the smallest set that holds them all (players.hpp: player_set).
template <class G, class Play>
std::vector<GameRecord> copy_loop(const std::vector<Player<G>>& players, Play&& play) {
    std::vector<GameRecord> records;
    with_player_set(batch::detail::batch_player_set<G>(players.data(), players.size()),
                    [&](auto kind) { play(kind, records); });
    return records;
}

// Batches on the cpu with every pair of `players` against the copy loop of the set they needed
// before: a tournament, the same games keyed by their own seed and index, and a match of each
// pair. Returns the plies compared.
template <class G>
uint64_t compare_batches(const G& game, const typename G::Pos& start,
                         const std::vector<Player<G>>& players, uint32_t max_plies) {
    const BackendChoice cpu = resolve_backend("cpu", 2);
    const std::vector<Pairing> pairings =
        testing::all_pairings(static_cast<int>(players.size()), game.seats(start));
    const std::vector<GameRecord> want = copy_loop<G>(players, [&](auto kind, auto& out) {
        constexpr PlayerSet kSet = decltype(kind)::value;
        for (std::size_t i = 0; i < pairings.size(); ++i)
            out.push_back(play_pairing<G, kSet>(game, start, players.data(), pairings[i], 31,
                                                static_cast<uint32_t>(i), max_plies));
    });
    EXPECT_EQ(testing::records_difference(
                  want, batch::play_pairings(game, start, players, pairings, 31, max_plies, cpu)),
              "");
    std::vector<GameKey> keys;
    for (std::size_t i = 0; i < pairings.size(); ++i)
        keys.push_back(GameKey{31, static_cast<uint32_t>(i)});
    EXPECT_EQ(
        testing::records_difference(
            want, batch::play_keyed_pairings(game, start, players, pairings, keys, max_plies, cpu)),
        "");
    uint64_t plies = 0;
    for (const GameRecord& r : want) plies += r.plies;
    for (const Player<G>& a : players)
        for (const Player<G>& b : players) {
            const std::vector<GameRecord> matches = copy_loop<G>({a, b}, [&](auto kind, auto& out) {
                constexpr PlayerSet kSet = decltype(kind)::value;
                for (uint32_t i = 0; i < 4; ++i)
                    out.push_back(play_match<G, kSet>(game, start, a, b, 8, 100 + i, max_plies));
            });
            EXPECT_EQ(testing::records_difference(
                          matches, batch::play(game, start, a, b, 100, 4, 8, max_plies, cpu)),
                      "");
        }
    return plies;
}

struct PacTable {
    pac::Setup setup;
    std::unique_ptr<pac::Map> map;
    pac::Game game;
    pac::Pos start;
    PacTable(uint64_t seed, int pacs)
        : setup(pac::generate_setup(seed, 0, 0, pacs)),
          map(pac::build_map(setup.rows)),
          game{map.get()},
          start(pac::start_position(*map, setup)) {}
};

TEST(CompiledPlayerSets, PacBatchesOfEveryPlayerKindPlayTheSameRecords) {
    uint64_t plies = 0;
    for (int pacs = 2; pacs <= 4; ++pacs) {
        const PacTable t(60 + pacs, pacs);
        plies += compare_batches(t.game, t.start, every_player_kind<pac::Game>(), 200);
    }
    EXPECT_GT(plies, 20000u);
}

TEST(CompiledPlayerSets, RiskBatchesOfEveryPlayerKindPlayTheSameRecords) {
    const risk::testing::Fixture small(true, 0.5f, 12);
    std::vector<Player<risk::Game>> players = every_player_kind<risk::Game>();
    players.resize(players.size() - 2);  // weighted at depths 1 and 2: the searches stay short
    EXPECT_GT(compare_batches(small.game, small.game.start(2), players, 400), 5000u);
    const risk::testing::Fixture classic(false, 0.5f, 6);
    players.resize(players.size() - 1);
    EXPECT_GT(compare_batches(classic.game, classic.game.start(3), players, 150), 5000u);
}

// On the device: Pac-Man batches with its weighted-kind player (the playout set's kernels now)
// against the cpu's.
TEST(CompiledPlayerSetsGpu, PacBatchesOfEveryPlayerKindAreTheCpus) {
    GAEVAL_REQUIRE_DEVICE_OR_SKIP();
    const PacTable t(5, 4);
    testing::expect_device_playouts_are_the_cpus(t.game, t.start, every_player_kind<pac::Game>(), 2,
                                                 testing::gpu_test_size(64, 4), 400, 0, 4);
}

}  // namespace
}  // namespace gaeval
