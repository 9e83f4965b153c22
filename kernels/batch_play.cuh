// Batches of matches on the device: one thread plays one whole match. The templates, included
// by the batch_play_*.cu files, each of which instantiates them for one family of game types of
// GAEVAL_FOR_EACH_GAME_TYPE (games/registry.hpp). One file per family lets the build compile
// the families side by side: as one file, this was the build's critical path (9 to 13 minutes).
#pragma once

#include "games/registry.hpp"
#include "kernels/batch.hpp"
#include "kernels/cuda_api.hpp"
#include "kernels/device_game.cuh"
#include "kernels/launch.cuh"

namespace gaeval::cuda {

namespace batch_play_detail {

template <class G>
struct PlayMatchOp {
    G game;
    typename G::Pos start;
    Player<G> a, b;
    uint64_t seed, first;
    uint32_t max_plies;
    GameRecord* records;
    __device__ void operator()(uint64_t i) const {
        records[i] =
            play_match(game, start, a, b, seed, static_cast<uint32_t>(first + i), max_plies);
    }
};

template <class G>
struct PlayPairingOp {
    G game;
    typename G::Pos start;
    const Player<G>* players;
    const Pairing* pairings;
    uint64_t seed;
    uint32_t max_plies;
    GameRecord* records;
    __device__ void operator()(uint64_t i) const {
        records[i] = play_pairing(game, start, players, pairings[i], seed, static_cast<uint32_t>(i),
                                  max_plies);
    }
};

}  // namespace batch_play_detail

template <class G>
void play_pairings(const G& host_game, const typename G::Pos& start, const Player<G>* players,
                   uint64_t player_count, const Pairing* pairings, uint64_t games, uint64_t seed,
                   uint32_t max_plies, GameRecord* records) {
    if (games == 0) return;
    DeviceGame<G> bound(host_game);
    DeviceArray<Player<G>> device_players(player_count);
    device_players.upload(players, player_count);
    DeviceArray<Pairing> device_pairings(games);
    device_pairings.upload(pairings, games);
    DeviceArray<GameRecord> device_records(games);
    for_each_index(batch_play_detail::PlayPairingOp<G>{bound.game(), start, device_players.data(),
                                                       device_pairings.data(), seed, max_plies,
                                                       device_records.data()},
                   games);
    synchronize();
    device_records.download(records, games);
}

template <class G>
void play_matches(const G& host_game, const typename G::Pos& start, const Player<G>& a,
                  const Player<G>& b, uint64_t seed, uint64_t first, uint64_t games,
                  uint32_t max_plies, GameRecord* records) {
    if (games == 0) return;
    DeviceGame<G> bound(host_game);
    DeviceArray<GameRecord> device_records(games);
    for_each_index(batch_play_detail::PlayMatchOp<G>{bound.game(), start, a, b, seed, first,
                                                     max_plies, device_records.data()},
                   games);
    synchronize();
    device_records.download(records, games);
}

}  // namespace gaeval::cuda

// Instantiates play_matches and play_pairings for the game type G (inside namespace gaeval::cuda).
#define GAEVAL_INSTANTIATE_PLAY(G)                                                             \
    template void play_matches<G>(const G&, const G::Pos&, const Player<G>&, const Player<G>&, \
                                  uint64_t, uint64_t, uint64_t, uint32_t, GameRecord*);        \
    template void play_pairings<G>(const G&, const G::Pos&, const Player<G>*, uint64_t,        \
                                   const Pairing*, uint64_t, uint64_t, uint32_t, GameRecord*);
