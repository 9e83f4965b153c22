// The batch layer's device half, for every game of games/registry.hpp (declared for g++
// callers; host/batch/batch.hpp is the one caller): perft by frontier expansion with one thread
// per subtree, batches of matches with one thread per match, and evaluate-a-population batches
// (GAEVAL_FOR_EACH_BATCH_OP) with one thread per index. Host pointers in and out; every call
// synchronizes. A game that reads lookup tables has them copied to the device for the call.
// In a build without CUDA these throw std::logic_error (resolve_backend never picks cuda there).
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>

#include "games/core/match.hpp"
#include "games/core/players.hpp"

namespace gaeval::cuda {

// Leaf count of the move tree of `root` to `depth` (>= 0): the tree is expanded level by level
// on the device (child counts, an exclusive scan, children written at their offsets) until
// there are enough subtrees to fill the device or memory runs short (then in chunks); one
// thread per subtree counts the rest, and the counts are reduced exactly (integers). Each level's
// positions take at most `budget_bytes` (0: a quarter of the memory free at that level).
template <class G>
uint64_t perft(const G& game, const typename G::Pos& root, int depth, std::size_t budget_bytes = 0);

// records[i] = play_match(game, start, a, b, seed, first + i, max_plies) for i < games.
// `set`: the smallest player set that holds a and b (games/core/players.hpp: PlayerSet); each set
// has its own kernel, which carries only the code of its players.
template <class G>
void play_matches(const G& game, const typename G::Pos& start, const Player<G>& a,
                  const Player<G>& b, uint64_t seed, uint64_t first, uint64_t games,
                  uint32_t max_plies, PlayerSet set, GameRecord* records);

// records[i] = play_pairing(game, start, players, pairings[i], seed, first + i, max_plies) for
// i < games: games first .. first + games of a tournament batch (host/batch/batch.hpp plays a
// batch larger than the device's memory in such pieces). players[0 .. player_count) are copied
// to the device for the call; `set` as above.
template <class G>
void play_pairings(const G& game, const typename G::Pos& start, const Player<G>* players,
                   uint64_t player_count, const Pairing* pairings, uint64_t first, uint64_t games,
                   uint64_t seed, uint32_t max_plies, PlayerSet set, GameRecord* records);

// records[i] = play_pairing(game, start, players, pairings[i], keys[i].seed, keys[i].index,
// max_plies) for i < games: a batch gathered from several tournaments, each game keyed as in its
// own (host/learn/gathered_play.hpp); players, pairings and keys as above.
template <class G>
void play_keyed_pairings(const G& game, const typename G::Pos& start, const Player<G>* players,
                         uint64_t player_count, const Pairing* pairings, const GameKey* keys,
                         uint64_t games, uint32_t max_plies, PlayerSet set, GameRecord* records);

// Bytes of device memory free now (0 in a build without CUDA).
std::size_t batch_free_device_memory();

// outputs[i] = op(inputs, i) for i < n (inputs[0 .. input_count) and op's tables are copied to
// the device for the call).
template <class Op>
void evaluate(const Op& op, const typename Op::Input* inputs, uint64_t input_count, uint64_t n,
              typename Op::Output* outputs);

#if !GAEVAL_HAVE_CUDA
[[noreturn]] inline void no_cuda() {
    throw std::logic_error("this gaeval was built without the CUDA backend");
}
template <class G>
uint64_t perft(const G&, const typename G::Pos&, int, std::size_t) {
    no_cuda();
}
template <class G>
void play_matches(const G&, const typename G::Pos&, const Player<G>&, const Player<G>&, uint64_t,
                  uint64_t, uint64_t, uint32_t, PlayerSet, GameRecord*) {
    no_cuda();
}
template <class G>
void play_pairings(const G&, const typename G::Pos&, const Player<G>*, uint64_t, const Pairing*,
                   uint64_t, uint64_t, uint64_t, uint32_t, PlayerSet, GameRecord*) {
    no_cuda();
}
template <class G>
void play_keyed_pairings(const G&, const typename G::Pos&, const Player<G>*, uint64_t,
                         const Pairing*, const GameKey*, uint64_t, uint32_t, PlayerSet,
                         GameRecord*) {
    no_cuda();
}
inline std::size_t batch_free_device_memory() { return 0; }
template <class Op>
void evaluate(const Op&, const typename Op::Input*, uint64_t, uint64_t, typename Op::Output*) {
    no_cuda();
}
#endif

}  // namespace gaeval::cuda
