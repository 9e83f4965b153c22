// The ops of the batch layer (host/batch/batch.hpp), in plain C++ over games/ (g++ and nvcc):
// what one index of a batch computes, for the executor (host/backend/executor.hpp) to run on
// either backend, and the launch shapes the device runs them in. The kernels/*.cu files
// instantiate the device half of each (kernels/batch_play.cuh, batch_evaluate.cu).
//
// Launch shapes of a batch of matches (play_shape, the one choice for tournaments and matches):
// playouts (random, policies: no features, no search) and one-ply weighted players (no search)
// run one thread a match, with few registers and no stack (scripts/kernel-resources.sh,
// bench/results/kernel-resources.md); the playouts of a game with a PlayoutScratch (Risk, the
// Ataxx table boards: games/ataxx/table_playouts.hpp, Pac-Man, Gomoku) run in per-thread scratch
// (games/core/scratch.hpp: shared memory on the device, the position indexed there instead of in
// local memory), on the cpu as well, and so do the one-ply weighted players of a game whose
// weighted player has a scratch form (plays_in_scratch_v: Gomoku's reward table); searching
// players of the games
// whose players use the default alpha-beta (lane_searchable_v: the Ataxx family, tic-tac-toe) get a
// lane group of kSearchLanes threads a match (games/core/lane_search.hpp: root moves split over the
// lanes, the same move and value as the serial search); games whose own searching player has a lane
// form (has_lane_weighted_move_v: Risk's alpha-beta agent, games/risk/lane_agent.hpp) get 1, 4, 8
// or 32 lanes a match by the batch's size as the one-ply players below; Gomoku's threat search runs
// one match a thread. One-ply weighted players of the lane games get 1, 4, 8 or 32 lanes a match by
// the batch's size (one_ply_lanes, games/core/lane_one_ply.hpp: a few hundred games would leave the
// GPU idle at one thread each; tens of thousands fill it); in the Ataxx family
// (lane_one_ply_in_scratch_v) each lane of a group has the one-thread form's scratch of its own
// and the group runs under the playouts' launch bounds (play_match_lanes_in_scratch,
// games/core/lane_search.hpp).
// The cpu plays every shape one match a thread (the executor's for_each_task: op(i), or
// op(i, scratch) for a shape with scratch).
#pragma once

#include <cstdint>
#include <type_traits>

#include "games/core/lane_one_ply.hpp"
#include "games/core/lane_search.hpp"
#include "games/core/match.hpp"
#include "games/core/players.hpp"
#include "games/core/scratch.hpp"
#include "kernels/task_shape.hpp"

namespace gaeval::batch_ops {

// *value, read where the call stands: on the device a load the compiler may not hoist out of a
// loop (so that a loop-invariant value costs no register across the loop; the data must not
// change during the kernel), on the cpu a plain read.
GAEVAL_HD_INLINE uint64_t read_each_move(const uint64_t* value) {
#if GAEVAL_DEVICE_PASS
    return __ldg(reinterpret_cast<const unsigned long long*>(value));
#else
    return *value;
#endif
}

// Whether G's one-ply weighted kernels (every lane shape) run under the playouts' launch bounds
// (kPlayoutMinBlocks below): where the game says they fit them (G::kOnePlyFitsBounds: Connect Four,
// 56 to 63 registers and no stack under them; bench/results/kernel-resources.md). The others run
// unbounded.
template <class G, class = void>
struct one_ply_fits_bounds : std::false_type {};
template <class G>
struct one_ply_fits_bounds<G, std::void_t<decltype(G::kOnePlyFitsBounds)>>
    : std::bool_constant<G::kOnePlyFitsBounds> {};
template <class G>
constexpr bool one_ply_fits_bounds_v = one_ply_fits_bounds<G>::value;

// records[i] = play_match(game, start, a, b, seed, first + i, max_plies): A in seat (first + i) mod
// seats. Indices are the piece's (0 .. n), `first` the piece's first game: the game index of the
// draws is first + i. The op adds it, as the hand-written kernels did; the executor adding it and
// the op subtracting it cost registers (bench/results/kernel-resources.md).
template <class G, PlayerSet kSet>
struct PlayMatchOp {
    G game;
    typename G::Pos start;
    Player<G> a, b;
    uint64_t seed, first;
    uint32_t max_plies;
    GameRecord* records;
    GAEVAL_HD void operator()(uint64_t i) const {
        records[i] = play_match<G, kSet>(game, start, a, b, seed, static_cast<uint32_t>(first + i),
                                         max_plies);
    }
    GAEVAL_HD void operator()(uint64_t i, const ThreadScratch& scratch) const {
        const uint32_t index = static_cast<uint32_t>(first + i);
        const int seat = static_cast<int>(index % static_cast<uint32_t>(game.seats(start)));
        records[i] = play_match_in_scratch<G, kSet>(game, start, a, b, seat, seed, index, max_plies,
                                                    scratch);
    }
    template <int L>
    GAEVAL_HD void operator()(uint64_t i, const Lanes<L>& lanes) const {
        const uint32_t index = static_cast<uint32_t>(first + i);
        const int seat = static_cast<int>(index % static_cast<uint32_t>(game.seats(start)));
        const GameRecord r =
            play_match_lanes<G, L, kSet>(lanes, game, start, a, b, seat, seed, index, max_plies);
        if (leads(lanes)) records[i] = r;
    }
    template <int L>
    GAEVAL_HD void operator()(uint64_t i, const Lanes<L>& lanes,
                              const ThreadScratch& scratch) const {
        const uint32_t index = static_cast<uint32_t>(first + i);
        const int seat = static_cast<int>(index % static_cast<uint32_t>(game.seats(start)));
        const GameRecord r = play_match_lanes_in_scratch<G, L>(lanes, game, start, a, b, seat, seed,
                                                               index, max_plies, scratch);
        if (leads(lanes)) records[i] = r;
    }
};

// records[i] = play_pairing(game, start, players, pairings[i], seed, first + i, max_plies): game
// first + i of a tournament batch, whose piece starts at game `first` (indices as above).
template <class G, PlayerSet kSet>
struct PlayPairingOp {
    G game;
    typename G::Pos start;
    const Player<G>* players;
    const Pairing* pairings;
    uint64_t seed, first;
    uint32_t max_plies;
    GameRecord* records;
    GAEVAL_HD void operator()(uint64_t i) const {
        records[i] = play_pairing<G, kSet>(game, start, players, pairings[i], seed,
                                           static_cast<uint32_t>(first + i), max_plies);
    }
    GAEVAL_HD void operator()(uint64_t i, const ThreadScratch& scratch) const {
        const Pairing pairing = pairings[i];
        records[i] = play_match_in_scratch<G, kSet>(
            game, start, players[pairing.a], players[pairing.b], pairing.a_seat, seed,
            static_cast<uint32_t>(first + i), max_plies, scratch);
    }
    template <int L>
    GAEVAL_HD void operator()(uint64_t i, const Lanes<L>& lanes) const {
        const Pairing pairing = pairings[i];
        const GameRecord r = play_match_lanes<G, L, kSet>(
            lanes, game, start, players[pairing.a], players[pairing.b], pairing.a_seat, seed,
            static_cast<uint32_t>(first + i), max_plies);
        if (leads(lanes)) records[i] = r;
    }
    template <int L>
    GAEVAL_HD void operator()(uint64_t i, const Lanes<L>& lanes,
                              const ThreadScratch& scratch) const {
        const Pairing pairing = pairings[i];
        const GameRecord r = play_match_lanes_in_scratch<G, L>(
            lanes, game, start, players[pairing.a], players[pairing.b], pairing.a_seat, seed,
            static_cast<uint32_t>(first + i), max_plies, scratch);
        if (leads(lanes)) records[i] = r;
    }
};

// records[i] = play_pairing(game, start, players, pairings[i], keys[i].seed, keys[i].index,
// max_plies): a batch gathered from several tournaments (host/learn/gathered_play.hpp), each game
// keyed as in its own batch, so it plays the moves it would play alone. `pairings` and `keys` are
// the piece's.
//
// A playout's seed is read from `keys` again at every move (read_each_move): a seed held across
// the match loop is two registers more than the other ops' (whose seed is a kernel parameter),
// which put the keyed Ataxx playout kernels over their 64-register bounds (16 bytes of spills;
// bench/results/kernel-resources.md), and Connect Four's one-ply weighted kernel over them too
// (one_ply_fits_bounds_v). The same draws either way.
template <class G, PlayerSet kSet>
struct PlayKeyedPairingOp {
    G game;
    typename G::Pos start;
    const Player<G>* players;
    const Pairing* pairings;
    const GameKey* keys;
    uint32_t max_plies;
    GameRecord* records;
    GAEVAL_HD void operator()(uint64_t i) const {
        const GameKey key = keys[i];
        if constexpr (kSet == PlayerSet::Playout ||
                      (kSet == PlayerSet::Weighted && one_ply_fits_bounds_v<G>)) {
            const Pairing pairing = pairings[i];
            const uint64_t* seed = &keys[i].seed;
            records[i] = play_match_by(
                game, start, players[pairing.a], players[pairing.b], pairing.a_seat, key.seed,
                key.index, max_plies,
                [&](const typename G::Pos& p, const Player<G>& mover, const DrawAddress& at) {
                    const DrawAddress reread{read_each_move(seed), at.game, at.ply};
                    return choose_move<G, kSet>(game, p, mover, reread);
                });
        } else {
            records[i] = play_pairing<G, kSet>(game, start, players, pairings[i], key.seed,
                                               key.index, max_plies);
        }
    }
    GAEVAL_HD void operator()(uint64_t i, const ThreadScratch& scratch) const {
        const Pairing pairing = pairings[i];
        const GameKey key = keys[i];
        if constexpr (kSet == PlayerSet::Weighted) {
            // The seed read again at every move here too (the table boards' weighted kernels:
            // 1-word 4-slot over the bounds by the held seed).
            const uint64_t* seed = &keys[i].seed;
            records[i] = play_match_in_scratch_at<G, kSet>(
                game, start, players[pairing.a], players[pairing.b], pairing.a_seat, key.seed,
                key.index, max_plies, scratch, [seed](const DrawAddress& at) {
                    return DrawAddress{read_each_move(seed), at.game, at.ply};
                });
        } else {
            records[i] = play_match_in_scratch<G, kSet>(game, start, players[pairing.a],
                                                        players[pairing.b], pairing.a_seat,
                                                        key.seed, key.index, max_plies, scratch);
        }
    }
    template <int L>
    GAEVAL_HD void operator()(uint64_t i, const Lanes<L>& lanes) const {
        const Pairing pairing = pairings[i];
        const GameKey key = keys[i];
        const GameRecord r =
            play_match_lanes<G, L, kSet>(lanes, game, start, players[pairing.a], players[pairing.b],
                                         pairing.a_seat, key.seed, key.index, max_plies);
        if (leads(lanes)) records[i] = r;
    }
    template <int L>
    GAEVAL_HD void operator()(uint64_t i, const Lanes<L>& lanes,
                              const ThreadScratch& scratch) const {
        const Pairing pairing = pairings[i];
        const GameKey key = keys[i];
        // The seed read again at every move, as in the one-thread form above (the 1-word 4-slot
        // table board's 4-lane kernel spilled 8 bytes with it held).
        const uint64_t* seed = &keys[i].seed;
        const GameRecord r = play_match_lanes_in_scratch<G, L>(
            lanes, game, start, players[pairing.a], players[pairing.b], pairing.a_seat, key.seed,
            key.index, max_plies, scratch, [seed](const DrawAddress& at) {
                return DrawAddress{read_each_move(seed), at.game, at.ply};
            });
        if (leads(lanes)) records[i] = r;
    }
};

// outputs[i] = op(inputs, i): an evaluate-a-population op (GAEVAL_FOR_EACH_BATCH_OP).
template <class Op>
struct EvaluateOp {
    Op op;
    const typename Op::Input* inputs;
    typename Op::Output* outputs;
    GAEVAL_HD void operator()(uint64_t i) const { outputs[i] = op(inputs, i); }
    // An op with a Scratch type plays in per-thread scratch (evaluate_shape below).
    GAEVAL_HD void operator()(uint64_t i, const ThreadScratch& scratch) const {
        outputs[i] = op(inputs, i, scratch);
    }
};

// Threads a searching match gets: Ataxx's root has tens of moves, so 8 lanes each get a few.
constexpr int kSearchLanes = 8;

// Blocks of 256 a multiprocessor holds at least, for the playout kernels of the games that fit
// the bounds: at most 64 registers a thread (launch bounds), half the warps of a multiprocessor.
// The playouts of 7x7 Ataxx, tic-tac-toe and Connect Four fit without a spill; those of the Ataxx
// table boards spilled under them (8 to 440 bytes of stack on the 2- and 4-word and 4-slot
// boards) until they ran in per-thread scratch, which the shape list below prefers (as do
// Pac-Man's, which spilled 10 KB under the bounds, and Gomoku's); Ataxx's one-ply kernels spilled
// 200 bytes, so those run unbounded (bench/results/kernel-resources.md).
constexpr int kPlayoutMinBlocks = 4;
template <class G>
constexpr bool playouts_fit_bounds_v = lane_searchable_v<G>;

// The shape an evaluate op's batch runs in: one thread an index; an op with a Scratch type
// (pac::RolloutOp) in per-thread scratch of that size under the playouts' launch bounds (its
// op(inputs, i, ThreadScratch) form), the others as op(inputs, i) without bounds.
template <class Op, class = void>
struct evaluate_shape {
    using type = TaskShape<1>;
};
template <class Op>
struct evaluate_shape<Op, std::void_t<typename Op::Scratch>> {
    using type = TaskShape<1, kPlayoutMinBlocks, static_cast<int>(sizeof(typename Op::Scratch))>;
};
template <class Op>
using evaluate_shape_t = typename evaluate_shape<Op>::type;

// Whether a batch of G can hold a player that plays differently in the set than in the one
// below it: the weighted set a one-ply weighted player (the game's own weighted_move, or its
// features without a searching weighted_move), the searching set a searching player
// (players.hpp: player_searches). Risk's weighted player always searches and Pac-Man has no
// weighted player, so neither has a one-ply weighted player, and Pac-Man no searching one.
template <class G>
constexpr bool plays_one_ply_weighted_v = detail::has_weighted_move<G>::value ||
                                          (has_features_v<G> && !has_searching_move_v<G>);
template <class G>
constexpr bool plays_search_v = has_searching_move_v<G> || has_searching_policy_v<G> ||
                                (has_features_v<G> && !detail::has_weighted_move<G>::value);

// The player set a batch of G whose players need `set` is played in: `set`, or the set below it
// where `set` would play every player of G as that one does (choose_move: a player outside the
// set moves as the smaller set moves it; Pac-Man's weighted-kind player moves at random in every
// set). Only these sets are compiled for G (kernels/batch_play.cuh), and the batch layer plays
// only these (with_compiled_player_set), so no game carries kernels no batch can reach.
template <class G>
constexpr PlayerSet compiled_player_set(PlayerSet set) {
    if (set == PlayerSet::Search && !plays_search_v<G>) set = PlayerSet::Weighted;
    if (set == PlayerSet::Weighted && !plays_one_ply_weighted_v<G>) set = PlayerSet::Playout;
    return set;
}

// with_player_set (players.hpp) for a batch of G: calls run with compiled_player_set<G>(set),
// instantiating run for G's compiled sets only.
template <class G, class Run>
void with_compiled_player_set(PlayerSet set, Run&& run) {
    with_player_set(set, [&](auto kind) {
        constexpr PlayerSet kSet = compiled_player_set<G>(decltype(kind)::value);
        run(std::integral_constant<PlayerSet, kSet>{});
    });
}

// The shape of L lanes a match (L = 1: one thread) in which a match of G with the players of kSet
// plays in scratch: under the playouts' bounds, each thread (each lane) the bytes of
// play_scratch_t<G, kSet>. One size for every lane count: the cpu runs every shape with scratch
// as the one-thread form (op(i, scratch): play_match_in_scratch, in a buffer of the shape's size),
// and the lanes play in that same type (play_match_lanes_in_scratch).
template <class G, PlayerSet kSet, int L>
using play_scratch_shape_t =
    TaskShape<L, kPlayoutMinBlocks, static_cast<int>(sizeof(play_scratch_t<G, kSet>))>;

// Calls visit(shape) for every TaskShape a match of G with the players of kSet may run in: the
// list play_shape chooses from and the .cu files compile (nothing else is compiled).
template <class G, PlayerSet kSet, class Visit>
void for_each_play_shape(Visit&& visit) {
    if constexpr (kSet == PlayerSet::Search && lane_searchable_v<G>) {
        visit(TaskShape<kSearchLanes>{});
    } else if constexpr (kSet == PlayerSet::Search && has_lane_weighted_move_v<G>) {
        visit(TaskShape<1>{});
        visit(TaskShape<4>{});
        visit(TaskShape<8>{});
        visit(TaskShape<32>{});
    } else if constexpr (kSet == PlayerSet::Weighted && lane_one_ply_v<G>) {
        constexpr int kMin = one_ply_fits_bounds_v<G> ? kPlayoutMinBlocks : 0;
        // One thread a game in the scratch where the game's weighted player has a scratch form,
        // and the lanes in scratch too where the game's lanes have one (the Ataxx family: at
        // most 64 registers and no stack in every shape; bench/results/kernel-resources.md).
        if constexpr (plays_in_scratch_v<G, kSet>) {
            visit(play_scratch_shape_t<G, kSet, 1>{});
        } else {
            visit(TaskShape<1, kMin>{});
        }
        if constexpr (lane_one_ply_in_scratch_v<G>) {
            static_assert(plays_in_scratch_v<G, kSet>,
                          "lanes in scratch run as the one-thread form");
            visit(play_scratch_shape_t<G, kSet, 4>{});
            visit(play_scratch_shape_t<G, kSet, 8>{});
            visit(play_scratch_shape_t<G, kSet, 32>{});
        } else {
            visit(TaskShape<4, kMin>{});
            visit(TaskShape<8, kMin>{});
            visit(TaskShape<32, kMin>{});
        }
    } else if constexpr (plays_in_scratch_v<G, kSet>) {
        visit(play_scratch_shape_t<G, kSet, 1>{});
    } else if constexpr (kSet == PlayerSet::Playout && playouts_fit_bounds_v<G>) {
        visit(TaskShape<1, kPlayoutMinBlocks>{});
    } else {
        visit(TaskShape<1>{});
    }
}

// Lanes a match of a batch of `games` gets on a device of `multiprocessors` (0: the cpu, where
// the shape does not matter): one of for_each_play_shape's.
template <class G, PlayerSet kSet>
constexpr int play_lanes(uint64_t games, int multiprocessors) {
    if constexpr (kSet == PlayerSet::Search && lane_searchable_v<G>)
        return kSearchLanes;
    else if constexpr (kSet == PlayerSet::Search && has_lane_weighted_move_v<G>)
        return one_ply_lanes(games, multiprocessors);
    else if constexpr (kSet == PlayerSet::Weighted && lane_one_ply_v<G>)
        return one_ply_lanes(games, multiprocessors);
    else
        return 1;
}

// Calls run(shape) with the shape a batch of `games` matches of G with the players of kSet runs
// in on a device of `multiprocessors`.
template <class G, PlayerSet kSet, class Run>
void with_play_shape(uint64_t games, int multiprocessors, Run&& run) {
    const int lanes = play_lanes<G, kSet>(games, multiprocessors);
    for_each_play_shape<G, kSet>([&](auto shape) {
        if (decltype(shape)::lanes == lanes) run(shape);
    });
}

}  // namespace gaeval::batch_ops
