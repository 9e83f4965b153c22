// One backend call for the games of several learners (the islands of a one-process `gaeval
// learn --islands N` run): their steps run side by side, each on a thread of its own, and every
// batch a step plays through its PlayFn is gathered with the batches the other steps play at
// the same point into one batch, played in one call (issue 30: 64 islands of 24 members are one
// GPU launch of 35328 games a generation, not 64 launches of 552).
//
// Results do not change: game i of a step's batch keyed by `seed` keeps the key (seed, i) in the
// gathered batch (GameKey, games/core/match.hpp), so it plays the moves it would play alone, and
// each step gets its own records in its own order. A scheme needs nothing for it: a step that
// plays twice (paired-blend: its rounds, then local best against global best) takes part in two
// rounds; steps that play different numbers of batches are gathered as far as they go along.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "host/learn/learn.hpp"

namespace gaeval::learn {

// Plays `pairings` among `players`, game i keyed by keys[i] (seed, index), in one call.
using KeyedPlayFn = std::function<std::vector<GameRecord>(
    const std::vector<games::PlayerData>& players, const std::vector<Pairing>& pairings,
    const std::vector<GameKey>& keys)>;

// Runs step(k, play) for every k < count, each on a thread of its own, where `play` gathers:
// once every step still running waits on a batch, the waiting steps' batches (in order of k;
// players appended, pairings moved to them, keys (seed, i)) are played by one call of
// `play_keyed` on the calling thread, and each step gets its records back. One step (count 1)
// runs on the calling thread with `play` as it is. A step's exception ends that step; after all
// have ended, the lowest step's exception is rethrown. An exception of play_keyed is rethrown in
// each step whose batch it held.
void play_steps_together(uint32_t count,
                         const std::function<void(uint32_t step, const PlayFn& play)>& step,
                         const PlayFn& play, const KeyedPlayFn& play_keyed);

// The same for steps on a problem (LearnConfig::problem): every genome batch a step evaluates
// through its EvaluateFn is gathered with the batches the other steps evaluate at the same
// point (in order of k, the first `count` genomes of each, `dimension` floats a genome) into
// one call of `evaluate`, and each step gets its own fitness values back: a problem's fitness
// is a function of the genome alone, so the bits are those of one call per step. One step runs
// on the calling thread with `evaluate` as it is; exceptions as above.
void evaluate_steps_together(
    uint32_t count, const std::function<void(uint32_t step, const EvaluateFn& evaluate)>& step,
    const EvaluateFn& evaluate, uint32_t dimension);
// The same over word genomes (a problem built from a setup).
void evaluate_steps_together(
    uint32_t count, const std::function<void(uint32_t step, const EvaluateWordsFn& evaluate)>& step,
    const EvaluateWordsFn& evaluate, uint32_t dimension);

}  // namespace gaeval::learn
