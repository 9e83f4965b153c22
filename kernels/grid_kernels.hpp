// Launch wrappers for grid games on the device (declared for g++ callers): perft by frontier
// expansion and one thread per subtree, and batches of matches with one thread per match. Host
// pointers in and out; every call synchronizes. Instantiated for GAEVAL_GRID_FOR_EACH_VARIANT;
// a TableGeometry's board is copied to device memory for the call.
#pragma once

#include <cstdint>

#include "games/grid/variants.hpp"

namespace gaeval::cuda {

// Perft of `root` to `depth` (>= 0): the tree is expanded level by level on the device (child
// counts, an exclusive scan, children written at their offsets) until there are enough subtrees
// to fill the device or memory runs short (then in chunks); one thread per subtree counts the
// rest with bulk counting, and the counts are reduced exactly (integers).
template <class G>
uint64_t grid_perft(const G& game, const typename G::Pos& root, int depth);

// records[i] = grid::play_match(game, start, a, b, seed, i, max_plies) for i < games.
template <class G>
void grid_play(const G& game, const typename G::Pos& start, const grid::Player& a,
               const grid::Player& b, uint64_t seed, uint64_t games, uint32_t max_plies,
               grid::GameRecord* records);

// records[i] = grid::play_pairing(game, start, players, pairings[i], seed, i, max_plies) for
// i < games (players[0 .. player_count) are copied to the device once for the batch).
template <class G>
void grid_play_pairings(const G& game, const typename G::Pos& start, const grid::Player* players,
                        uint64_t player_count, const grid::Pairing* pairings, uint64_t games,
                        uint64_t seed, uint32_t max_plies, grid::GameRecord* records);

#define GAEVAL_GRID_KERNELS_EXTERN(G)                                                              \
    extern template uint64_t grid_perft<G>(const G&, const G::Pos&, int);                          \
    extern template void grid_play<G>(const G&, const G::Pos&, const grid::Player&,                \
                                      const grid::Player&, uint64_t, uint64_t, uint32_t,           \
                                      grid::GameRecord*);                                          \
    extern template void grid_play_pairings<G>(const G&, const G::Pos&, const grid::Player*,       \
                                               uint64_t, const grid::Pairing*, uint64_t, uint64_t, \
                                               uint32_t, grid::GameRecord*);
GAEVAL_GRID_FOR_EACH_VARIANT(GAEVAL_GRID_KERNELS_EXTERN)
#undef GAEVAL_GRID_KERNELS_EXTERN

}  // namespace gaeval::cuda
