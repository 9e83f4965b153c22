// Batches of grid matches on the device: one thread plays one whole match.
#include "kernels/cuda_api.hpp"
#include "kernels/grid_device.cuh"
#include "kernels/grid_kernels.hpp"
#include "kernels/launch.cuh"

namespace gaeval::cuda {

namespace {

template <class G>
struct PlayMatchOp {
    G game;
    typename G::Pos start;
    grid::Player a, b;
    uint64_t seed;
    uint32_t max_plies;
    grid::GameRecord* records;
    __device__ void operator()(uint64_t i) const {
        records[i] = grid::play_match(game, start, a, b, seed, static_cast<uint32_t>(i), max_plies);
    }
};

template <class G>
struct PlayPairingOp {
    G game;
    typename G::Pos start;
    const grid::Player* players;
    const grid::Pairing* pairings;
    uint64_t seed;
    uint32_t max_plies;
    grid::GameRecord* records;
    __device__ void operator()(uint64_t i) const {
        records[i] = grid::play_pairing(game, start, players, pairings[i], seed,
                                        static_cast<uint32_t>(i), max_plies);
    }
};

}  // namespace

template <class G>
void grid_play_pairings(const G& host_game, const typename G::Pos& start,
                        const grid::Player* players, uint64_t player_count,
                        const grid::Pairing* pairings, uint64_t games, uint64_t seed,
                        uint32_t max_plies, grid::GameRecord* records) {
    if (games == 0) return;
    DeviceGame<G> bound(host_game);
    DeviceArray<grid::Player> device_players(player_count);
    device_players.upload(players, player_count);
    DeviceArray<grid::Pairing> device_pairings(games);
    device_pairings.upload(pairings, games);
    DeviceArray<grid::GameRecord> device_records(games);
    for_each_index(PlayPairingOp<G>{bound.game, start, device_players.data(),
                                    device_pairings.data(), seed, max_plies, device_records.data()},
                   games);
    synchronize();
    device_records.download(records, games);
}

template <class G>
void grid_play(const G& host_game, const typename G::Pos& start, const grid::Player& a,
               const grid::Player& b, uint64_t seed, uint64_t games, uint32_t max_plies,
               grid::GameRecord* records) {
    if (games == 0) return;
    DeviceGame<G> bound(host_game);
    DeviceArray<grid::GameRecord> device_records(games);
    for_each_index(PlayMatchOp<G>{bound.game, start, a, b, seed, max_plies, device_records.data()},
                   games);
    synchronize();
    device_records.download(records, games);
}

#define GAEVAL_GRID_PLAY_INSTANTIATE(G)                                                           \
    template void grid_play<G>(const G&, const G::Pos&, const grid::Player&, const grid::Player&, \
                               uint64_t, uint64_t, uint32_t, grid::GameRecord*);
GAEVAL_GRID_FOR_EACH_VARIANT(GAEVAL_GRID_PLAY_INSTANTIATE)
#undef GAEVAL_GRID_PLAY_INSTANTIATE
#define GAEVAL_GRID_PLAY_INSTANTIATE(G)                                                         \
    template void grid_play_pairings<G>(const G&, const G::Pos&, const grid::Player*, uint64_t, \
                                        const grid::Pairing*, uint64_t, uint64_t, uint32_t,     \
                                        grid::GameRecord*);
GAEVAL_GRID_FOR_EACH_VARIANT(GAEVAL_GRID_PLAY_INSTANTIATE)
#undef GAEVAL_GRID_PLAY_INSTANTIATE

}  // namespace gaeval::cuda
