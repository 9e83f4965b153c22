// Batches of matches on the device: the device half of the batch layer's matches and tournaments
// (host/batch/batch.hpp), compiled per family of game types of GAEVAL_FOR_EACH_GAME_TYPE
// (games/registry.hpp) by the batch_play_<unit>.cu files that the build generates from
// games/games.cmake (one a line), each of which includes only its own game's header (not the
// registry: adding a game recompiles no other unit) and instantiates the executor's
// launch (kernels/executor.cuh) for the ops of kernels/batch_ops.hpp in every shape
// for_each_play_shape lists for its games. One file per family lets the build compile the
// families side by side: as one file, this was the build's critical path (9 to 13 minutes).
#pragma once

#include "kernels/batch_ops.hpp"
#include "kernels/executor.cuh"

namespace gaeval::batch_ops {

// Takes the address of the device launch of every op and shape a batch of G may run (emitted by
// the explicit instantiation of this function; host/batch/batch.hpp links against them) and
// returns how many there were. Never called.
template <class G>
int instantiate_play_launches(void (**out)()) {
    int count = 0;
    const PlayerSet sets[3] = {PlayerSet::Playout, PlayerSet::Weighted, PlayerSet::Search};
    for (PlayerSet set : sets)
        with_player_set(set, [&](auto kind) {
            constexpr PlayerSet kSet = decltype(kind)::value;
            // A set no batch of G plays (compiled_player_set) is not compiled.
            if constexpr (compiled_player_set<G>(kSet) == kSet) {
                for_each_play_shape<G, kSet>([&](auto shape) {
                    using Shape = decltype(shape);
                    out[count++] =
                        reinterpret_cast<void (*)()>(&cuda::launch<Shape, PlayMatchOp<G, kSet>>);
                    out[count++] =
                        reinterpret_cast<void (*)()>(&cuda::launch<Shape, PlayPairingOp<G, kSet>>);
                    out[count++] = reinterpret_cast<void (*)()>(
                        &cuda::launch<Shape, PlayKeyedPairingOp<G, kSet>>);
                });
            }
        });
    return count;
}

}  // namespace gaeval::batch_ops

// Instantiates the device launches of the batches of matches of game type G (inside namespace
// gaeval::batch_ops).
#define GAEVAL_INSTANTIATE_PLAY(G) template int instantiate_play_launches<G>(void (**)());
