// Addressed random numbers: Random123's Philox4x32-10, never a shared stream.
// Bit-identical across backends: a draw is a pure function of (seed, purpose, counter), so the
// thread that computes it, the thread count and the launch shape cannot change a result.
//
//   key     = (seed low 32 bits, seed high 32 bits XOR a per-purpose constant)
//   counter = four 32-bit words the caller fills with what the draw is for, conventionally
//             (generation, individual or match, gene or ply, draw index).
#pragma once

#include <cstdint>

#include <Random123/philox.h>

#include "games/core/hd.hpp"

namespace gaeval {

// What a draw is for; each purpose is an independent stream for the same seed.
// Values are part of the results' definition: append, never renumber.
enum class Purpose : uint32_t {
    Test = 0,
    InitMove = 1,
    ParentPick = 2,
    CrossoverMask = 3,
    MutationHit = 4,
    MutationMove = 5,
    InitOrder = 6,
    OrderCrossover = 7,
    OrderMutation = 8,
    InitAngle = 9,
    MutationKind = 10,     // rules pile-in: which move mutation
    MutationCreep = 11,    // rules pile-in: small step from the current move
    MutationContact = 12,  // rules pile-in: move into base contact with the nearest enemy
    MutationTurn = 13,     // rules pile-in: fresh oval orientation
    MutationNestle = 14,   // rules pile-in: move into a niche between two bases
    Rebuild = 15,          // rules pile-in: a plan built model by model (GRASP-like)
    PlayerTieBreak = 16,
    PlayerRandomMove = 17,
    Playout = 18,
    LocalSearch = 19,  // rules pile-in: memetic tries on a plan (which model, which move)
    Wrap = 20,         // rules pile-in: a plan packed along the combat-range edge
    Grasp = 21,        // rules pile-in: the randomized greedy's processing order
    ImmigrantKind = 22,  // rules pile-in: which builder makes an immigrant
    Tournament = 32,
    Schedule = 33,
    SchemeVariation = 34,
    SchemeMutation = 35,
    SchemeInit = 36,
    IslandSeed = 37,  // islands: the seed of island i > 0 (island 0 keeps the run's seed)
    GomokuOpening = 40,  // Gomoku: the stones of an opening
    GomokuMove = 41,     // Gomoku: the reward-table and threat-search players' choices
    RiskDeal = 50,  // Risk: the shuffle that deals the territories (match, position)
    RiskDice = 51,  // Risk: the five dice of one roll (match, draw counter)
    RiskCard = 52,  // Risk: the card drawn after a turn with a conquest (match, draw counter)
    PacMap = 60,        // Pac-Man: map generator (walls, tunnels)
    PacPlacement = 61,  // Pac-Man: pac count, pacs and super pellets on a map
    PacGreedyTie = 62,  // Pac-Man: the greedy policy's ties
    PacWalk = 63,       // Pac-Man bots: a plan's random walk
    PacMutation = 64,   // Pac-Man bots: where a plan's tail is redrawn
    PacCrossover = 65,  // Pac-Man bots: which parent gives each pac's plan
    PacSelection = 66,  // Pac-Man bots: tournament selection
};

struct Random4 {
    uint32_t v[4];
};

// Four 32-bit uniform words for (seed, purpose, c0..c3).
GAEVAL_HD_INLINE Random4 philox(uint64_t seed, Purpose purpose, uint32_t c0, uint32_t c1,
                                uint32_t c2, uint32_t c3) {
    r123::Philox4x32 gen;
    r123::Philox4x32::ctr_type ctr = {{c0, c1, c2, c3}};
    r123::Philox4x32::key_type key = {
        {static_cast<uint32_t>(seed),
         static_cast<uint32_t>(seed >> 32) ^ (static_cast<uint32_t>(purpose) * 0x9E3779B9u)}};
    r123::Philox4x32::ctr_type r = gen(ctr, key);
    return Random4{{r.v[0], r.v[1], r.v[2], r.v[3]}};
}

// Raw Philox4x32-10 block (no purpose mixing) for known-answer tests.
GAEVAL_HD_INLINE Random4 philox_raw(uint32_t k0, uint32_t k1, uint32_t c0, uint32_t c1, uint32_t c2,
                                    uint32_t c3) {
    r123::Philox4x32 gen;
    r123::Philox4x32::ctr_type ctr = {{c0, c1, c2, c3}};
    r123::Philox4x32::key_type key = {{k0, k1}};
    r123::Philox4x32::ctr_type r = gen(ctr, key);
    return Random4{{r.v[0], r.v[1], r.v[2], r.v[3]}};
}

// Uniform float in [0, 1) with 24 random bits: float(x >> 8) * 2^-24 (exact on both sides).
GAEVAL_HD_INLINE float unit_float(uint32_t x) { return static_cast<float>(x >> 8) * 0x1p-24f; }

// Uniform double in [0, 1) with 32 random bits.
GAEVAL_HD_INLINE double unit_double(uint32_t x) { return static_cast<double>(x) * 0x1p-32; }

// Integer in [0, n) by multiply-shift (Lemire); bias at most n / 2^32, negligible for n < 2^20.
GAEVAL_HD_INLINE uint32_t below(uint32_t x, uint32_t n) {
    return static_cast<uint32_t>((static_cast<uint64_t>(x) * n) >> 32);
}

// Integer in [0, n) from 64 random bits (bias at most n / 2^64): for population-sized n.
GAEVAL_HD_INLINE uint64_t below64(uint64_t x, uint64_t n) {
#if GAEVAL_DEVICE_PASS
    return __umul64hi(x, n);
#else
    return static_cast<uint64_t>((static_cast<unsigned __int128>(x) * n) >> 64);
#endif
}

// 64 random bits from two words.
GAEVAL_HD_INLINE uint64_t join64(uint32_t lo, uint32_t hi) {
    return static_cast<uint64_t>(lo) | (static_cast<uint64_t>(hi) << 32);
}

// True with probability p (p in [0,1]) using 32 random bits; p = 1 is always true, p = 0 never.
GAEVAL_HD_INLINE bool bernoulli(uint32_t x, double p) { return unit_double(x) < p; }

}  // namespace gaeval
