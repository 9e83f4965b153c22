// Batches of matches on the device. The templates, included by the batch_play_*.cu files, each
// of which instantiates them for one family of game types of GAEVAL_FOR_EACH_GAME_TYPE
// (games/registry.hpp). One file per family lets the build compile the families side by side:
// as one file, this was the build's critical path (9 to 13 minutes).
// Every game has a kernel per player set (games/core/players.hpp: PlayerSet), chosen per batch by
// the host from its players: playouts (random, policies: no features, no search) and one-ply
// weighted players (no search), one thread per match, carry few registers and no stack
// (scripts/kernel-resources.sh, bench/results/kernel-resources.md); searching players of the
// games whose players use the default alpha-beta (lane_searchable_v: the Ataxx family,
// tic-tac-toe) get a lane group of kSearchLanes threads per match (games/core/lane_search.hpp:
// root moves split over the lanes, the same move and value as the serial search); Risk's and
// Gomoku's own searches run one match per thread. One-ply weighted players of those games get
// 1, 4, 8 or 32 lanes a match by the batch's size (one_ply_lanes, games/core/lane_one_ply.hpp:
// a few hundred games would leave the GPU idle at one thread each; tens of thousands fill it).
#pragma once

#include <type_traits>

#include "games/core/lane_search.hpp"
#include "games/registry.hpp"
#include "kernels/batch.hpp"
#include "kernels/cuda_api.hpp"
#include "kernels/device_game.cuh"
#include "kernels/launch.cuh"

namespace gaeval::cuda {

namespace batch_play_detail {

template <class G, PlayerSet kSet>
struct PlayMatchOp {
    G game;
    typename G::Pos start;
    Player<G> a, b;
    uint64_t seed, first;
    uint32_t max_plies;
    GameRecord* records;
    __device__ void operator()(uint64_t i) const {
        records[i] = play_match<G, kSet>(game, start, a, b, seed, static_cast<uint32_t>(first + i),
                                         max_plies);
    }
};

// The draw keys of a piece of a tournament batch: game i of the piece is game first + i of a
// batch keyed by one seed ...
struct SeedKeys {
    uint64_t seed, first;
    __device__ GameKey operator()(uint64_t i) const {
        return GameKey{seed, static_cast<uint32_t>(first + i)};
    }
};
// ... or has a key of its own (a batch gathered from several: keys[i] for game i of the piece).
struct ListedKeys {
    const GameKey* keys;
    __device__ GameKey operator()(uint64_t i) const { return keys[i]; }
};

template <class G, PlayerSet kSet, class Keys>
struct PlayPairingOp {
    G game;
    typename G::Pos start;
    const Player<G>* players;
    const Pairing* pairings;
    Keys keys;
    uint32_t max_plies;
    GameRecord* records;
    __device__ void operator()(uint64_t i) const {
        const GameKey key = keys(i);
        records[i] = play_pairing<G, kSet>(game, start, players, pairings[i], key.seed, key.index,
                                           max_plies);
    }
};

// Blocks of 256 a multiprocessor holds at least, for the playout kernels of the games that fit
// the bounds: at most 64 registers a thread (launch bounds), half the warps of a multiprocessor.
// Ataxx's and tic-tac-toe's playouts fit without a spill; Pac-Man's spilled 10 KB under them and
// Ataxx's one-ply kernels 200 bytes, so those run unbounded (bench/results/kernel-resources.md).
constexpr int kPlayoutMinBlocks = 4;
template <class G>
constexpr bool playouts_fit_bounds_v = lane_searchable_v<G>;

// Threads per searching match: Ataxx's root has tens of moves, so 8 lanes each get a few.
constexpr int kSearchLanes = 8;

// Thread i plays lane i % L of match i / L with the players of kSet (Search: lane_alpha_beta and
// the one-ply lanes; Weighted: the one-ply lanes); blocks and the grid stride are multiples of
// L, so a match's lanes are one aligned tile of a warp; lane 0 writes.
template <class G, int L, PlayerSet kSet>
struct PlayMatchLanesOp {
    G game;
    typename G::Pos start;
    Player<G> a, b;
    uint64_t seed, first;
    uint32_t max_plies;
    GameRecord* records;
    __device__ void operator()(uint64_t i) const {
        const uint64_t g = i / L;
        const uint32_t index = static_cast<uint32_t>(first + g);
        const int seat = static_cast<int>(index % static_cast<uint32_t>(game.seats(start)));
        const GameRecord r = play_match_lanes<G, L, kSet>(Lanes<L>{}, game, start, a, b, seat, seed,
                                                          index, max_plies);
        if (i % L == 0) records[g] = r;
    }
};

template <class G, int L, PlayerSet kSet, class Keys>
struct PlayPairingLanesOp {
    G game;
    typename G::Pos start;
    const Player<G>* players;
    const Pairing* pairings;
    Keys keys;
    uint32_t max_plies;
    GameRecord* records;
    __device__ void operator()(uint64_t i) const {
        const uint64_t g = i / L;
        const Pairing pairing = pairings[g];
        const GameKey key = keys(g);
        const GameRecord r = play_match_lanes<G, L, kSet>(
            Lanes<L>{}, game, start, players[pairing.a], players[pairing.b], pairing.a_seat,
            key.seed, key.index, max_plies);
        if (i % L == 0) records[g] = r;
    }
};

// Calls run(std::integral_constant<int, L>{}) for the lane count L = one_ply_lanes(games) on
// this device, one of 1, 4, 8, 32 (each compiled: the choice is made per batch).
template <class Run>
void with_one_ply_lanes(uint64_t games, Run&& run) {
    switch (one_ply_lanes(games, multiprocessor_count())) {
        case 32:
            run(std::integral_constant<int, 32>{});
            break;
        case 8:
            run(std::integral_constant<int, 8>{});
            break;
        case 4:
            run(std::integral_constant<int, 4>{});
            break;
        default:
            run(std::integral_constant<int, 1>{});
            break;
    }
}

// The tournament piece of play_pairings and play_keyed_pairings, game i keyed by keys(i).
template <class G, class Keys>
void play_pairings_keyed_by(const G& host_game, const typename G::Pos& start,
                            const Player<G>* players, uint64_t player_count,
                            const Pairing* pairings, uint64_t games, Keys keys, uint32_t max_plies,
                            PlayerSet set, GameRecord* records) {
    DeviceGame<G> bound(host_game);
    DeviceArray<Player<G>> device_players(player_count);
    device_players.upload(players, player_count);
    DeviceArray<Pairing> device_pairings(games);
    device_pairings.upload(pairings, games);
    DeviceArray<GameRecord> device_records(games);
    with_player_set(set, [&](auto kind) {
        constexpr PlayerSet kSet = decltype(kind)::value;
        // Generic, so that only the branches that call it instantiate its kernels.
        const auto one_thread = [&](auto) {
            if constexpr (kSet != PlayerSet::Playout || !playouts_fit_bounds_v<G>)
                for_each_index(
                    PlayPairingOp<G, kSet, Keys>{bound.game(), start, device_players.data(),
                                                 device_pairings.data(), keys, max_plies,
                                                 device_records.data()},
                    games);
            else
                for_each_index_bounded<kPlayoutMinBlocks>(
                    PlayPairingOp<G, kSet, Keys>{bound.game(), start, device_players.data(),
                                                 device_pairings.data(), keys, max_plies,
                                                 device_records.data()},
                    games);
        };
        const auto lanes = [&](auto count) {
            constexpr int L = decltype(count)::value;
            for_each_index(
                PlayPairingLanesOp<G, L, kSet, Keys>{bound.game(), start, device_players.data(),
                                                     device_pairings.data(), keys, max_plies,
                                                     device_records.data()},
                games * L);
        };
        if constexpr (kSet == PlayerSet::Search && lane_searchable_v<G>)
            lanes(std::integral_constant<int, kSearchLanes>{});
        else if constexpr (kSet == PlayerSet::Weighted && lane_one_ply_v<G>)
            with_one_ply_lanes(games, [&](auto count) {
                if constexpr (decltype(count)::value == 1)
                    one_thread(kind);
                else
                    lanes(count);
            });
        else
            one_thread(kind);
    });
    synchronize();
    device_records.download(records, games);
}

}  // namespace batch_play_detail

template <class G>
void play_pairings(const G& host_game, const typename G::Pos& start, const Player<G>* players,
                   uint64_t player_count, const Pairing* pairings, uint64_t first, uint64_t games,
                   uint64_t seed, uint32_t max_plies, PlayerSet set, GameRecord* records) {
    if (games == 0) return;
    batch_play_detail::play_pairings_keyed_by(host_game, start, players, player_count, pairings,
                                              games, batch_play_detail::SeedKeys{seed, first},
                                              max_plies, set, records);
}

template <class G>
void play_keyed_pairings(const G& host_game, const typename G::Pos& start, const Player<G>* players,
                         uint64_t player_count, const Pairing* pairings, const GameKey* keys,
                         uint64_t games, uint32_t max_plies, PlayerSet set, GameRecord* records) {
    if (games == 0) return;
    DeviceArray<GameKey> device_keys(games);
    device_keys.upload(keys, games);
    batch_play_detail::play_pairings_keyed_by(
        host_game, start, players, player_count, pairings, games,
        batch_play_detail::ListedKeys{device_keys.data()}, max_plies, set, records);
}

template <class G>
void play_matches(const G& host_game, const typename G::Pos& start, const Player<G>& a,
                  const Player<G>& b, uint64_t seed, uint64_t first, uint64_t games,
                  uint32_t max_plies, PlayerSet set, GameRecord* records) {
    using namespace batch_play_detail;
    if (games == 0) return;
    DeviceGame<G> bound(host_game);
    DeviceArray<GameRecord> device_records(games);
    with_player_set(set, [&](auto kind) {
        constexpr PlayerSet kSet = decltype(kind)::value;
        // Generic, so that only the branches that call it instantiate its kernels.
        const auto one_thread = [&](auto) {
            if constexpr (kSet != PlayerSet::Playout || !playouts_fit_bounds_v<G>)
                for_each_index(PlayMatchOp<G, kSet>{bound.game(), start, a, b, seed, first,
                                                    max_plies, device_records.data()},
                               games);
            else
                for_each_index_bounded<kPlayoutMinBlocks>(
                    PlayMatchOp<G, kSet>{bound.game(), start, a, b, seed, first, max_plies,
                                         device_records.data()},
                    games);
        };
        const auto lanes = [&](auto count) {
            constexpr int L = decltype(count)::value;
            for_each_index(PlayMatchLanesOp<G, L, kSet>{bound.game(), start, a, b, seed, first,
                                                        max_plies, device_records.data()},
                           games * L);
        };
        if constexpr (kSet == PlayerSet::Search && lane_searchable_v<G>)
            lanes(std::integral_constant<int, kSearchLanes>{});
        else if constexpr (kSet == PlayerSet::Weighted && lane_one_ply_v<G>)
            with_one_ply_lanes(games, [&](auto count) {
                if constexpr (decltype(count)::value == 1)
                    one_thread(kind);
                else
                    lanes(count);
            });
        else
            one_thread(kind);
    });
    synchronize();
    device_records.download(records, games);
}

}  // namespace gaeval::cuda

// Instantiates play_matches, play_pairings and play_keyed_pairings for the game type G (inside
// namespace gaeval::cuda).
#define GAEVAL_INSTANTIATE_PLAY(G)                                                                 \
    template void play_matches<G>(const G&, const G::Pos&, const Player<G>&, const Player<G>&,     \
                                  uint64_t, uint64_t, uint64_t, uint32_t, PlayerSet, GameRecord*); \
    template void play_pairings<G>(const G&, const G::Pos&, const Player<G>*, uint64_t,            \
                                   const Pairing*, uint64_t, uint64_t, uint64_t, uint32_t,         \
                                   PlayerSet, GameRecord*);                                        \
    template void play_keyed_pairings<G>(const G&, const G::Pos&, const Player<G>*, uint64_t,      \
                                         const Pairing*, const GameKey*, uint64_t, uint32_t,       \
                                         PlayerSet, GameRecord*);
