// Players as data: a trivially copyable description of who picks the moves, the same for every
// game. `random` is uniform over the legal moves; `policy` k is the game's built-in policy k
// (Ataxx: capture, most-pieces); `weighted` is the game's parametric player over its weights:
// by default one ply over the game's features (the highest sum_i w_i * f_i of the position after
// the move, seen by the mover), or the game's own weighted_move. Every random choice is an
// addressed draw keyed by (seed, game, ply), so a game's moves do not depend on who plays it.
// A default weighted player with depth > 1 searches (alpha-beta, games/core/search.hpp).
#pragma once

#include <cstdint>
#include <type_traits>

#include "games/core/game.hpp"
#include "games/core/hd.hpp"
#include "games/core/rng.hpp"
#include "games/core/search.hpp"

namespace gaeval {

// Values are part of saved results: append, never renumber.
enum class PlayerKind : uint8_t { Random = 0, Policy = 1, Weighted = 2 };

template <int WeightCount>
struct PlayerSpec {
    PlayerKind kind = PlayerKind::Random;
    uint8_t policy = 0;  // PlayerKind::Policy: the game's policy 1..kPolicyCount
    uint8_t depth = 1;   // plies a weighted player looks ahead (1: one ply)
    float weights[WeightCount > 0 ? WeightCount : 1] = {};
};

// The player type of game G (its weights sized for the game).
template <class G>
using Player = PlayerSpec<G::kWeightCount>;

static_assert(std::is_trivially_copyable_v<PlayerSpec<15>>, "players are kernel arguments");

// The move with the highest score(move) (an int or a float, compared with < and ==), ties broken
// uniformly at random by reservoir sampling: the t-th move tying the best replaces it when
// draw(move index) mod t hits 0. Requires at least one legal move.
template <class G, class ScoreFn>
GAEVAL_HD_INLINE typename G::Move best_move(const G& game, const typename G::Pos& p,
                                            const DrawAddress& at, ScoreFn&& score) {
    typename G::Move best = game.nth_move(p, 0);
    decltype(score(best)) best_score{};
    uint32_t ties = 0, index = 0;
    game.for_each_move(p, [&](const typename G::Move& m) {
        const auto s = score(m);
        if (ties == 0 || best_score < s) {
            best = m;
            best_score = s;
            ties = 1;
        } else if (s == best_score) {
            ++ties;
            const uint32_t r =
                philox(at.seed, Purpose::PlayerTieBreak, at.game, at.ply, index, 0).v[0];
            if (below(r, ties) == 0) best = m;
        }
        ++index;
    });
    return best;
}

// The default weighted player: one ply over the game's features, ties at random.
template <class G>
GAEVAL_HD_INLINE typename G::Move one_ply_weighted_move(const G& game, const typename G::Pos& p,
                                                        const float* weights,
                                                        const DrawAddress& at) {
    const int us = game.to_move(p);
    return best_move(game, p, at, [&](const typename G::Move& m) {
        float values[G::kFeatureCount];
        game.features(game.make(p, m), us, values);
        return weighted_score<G::kFeatureCount>(weights, values);
    });
}

// What a batch's players need, from the least code to the most: the play kernels are compiled
// once per set, and a batch runs the smallest set that holds all its players (player_set), so
// random and policy playouts carry neither the features nor the search, and one-ply weighted
// players no search (few registers, no stack on the device: scripts/kernel-resources.sh).
// Values order the sets: a set holds every player of the sets below it.
enum class PlayerSet : uint8_t {
    Playout = 0,   // random and the game's policies
    Weighted = 1,  // and weighted players that do not search
    Search = 2,    // and searching players
};

// The per-thread scratch a match of G with the players of kSet plays in (where
// plays_in_scratch_v says it does): the weighted players' (game.hpp weighted_scratch_t) for kSet
// Weighted, else G's PlayoutScratch.
template <class G, PlayerSet kSet>
using play_scratch_t = std::conditional_t<kSet == PlayerSet::Weighted, weighted_scratch_t<G>,
                                          typename G::PlayoutScratch>;

// Whether the players of kSet play in G's per-thread scratch (games/core/match.hpp:
// play_match_in_scratch): random and policy players when G has a PlayoutScratch (and does not
// keep its playouts in registers: game.hpp kPlayoutsInScratch), and one-ply weighted players
// when G's weighted player has a scratch form (game.hpp: the weighted_move taking a
// PlayoutScratch).
template <class G, PlayerSet kSet>
constexpr bool plays_in_scratch_v = has_playout_scratch_v<G> &&
                                    ((kSet == PlayerSet::Playout && playouts_in_scratch_v<G>) ||
                                     (kSet == PlayerSet::Weighted &&
                                      has_scratch_weighted_move_v<G>));

// Whether `player` searches: a weighted player with depth > 1 over the default alpha-beta or a
// game's searching weighted_move, or the weighted player of a game whose own player always
// searches (Risk: weighted_move with a depth and no one-ply form), or a policy the game says
// searches (game.hpp: policy_searches; Gomoku's threat-search).
template <class G>
GAEVAL_HD_INLINE bool player_searches(const Player<G>& player) {
    if constexpr (has_searching_policy_v<G>) {
        if (player.kind == PlayerKind::Policy) return G::policy_searches(player.policy);
    }
    if (player.kind != PlayerKind::Weighted) return false;
    if constexpr (has_searching_move_v<G> && !detail::has_weighted_move<G>::value) {
        return true;
    } else if constexpr (has_searching_move_v<G>) {
        return player.depth > 1;
    } else if constexpr (detail::has_weighted_move<G>::value) {
        return false;
    } else {
        return has_features_v<G> && player.depth > 1;
    }
}

// The smallest player set that holds `player`.
template <class G>
GAEVAL_HD_INLINE PlayerSet player_set(const Player<G>& player) {
    if (player_searches<G>(player)) return PlayerSet::Search;
    return player.kind == PlayerKind::Weighted ? PlayerSet::Weighted : PlayerSet::Playout;
}

// Calls run(std::integral_constant<PlayerSet, S>{}) for S == set: how the host turns a batch's
// player set into the instantiation it plays (host/batch on the CPU, kernels/ on the GPU).
template <class Run>
void with_player_set(PlayerSet set, Run&& run) {
    switch (set) {
        case PlayerSet::Playout:
            run(std::integral_constant<PlayerSet, PlayerSet::Playout>{});
            break;
        case PlayerSet::Weighted:
            run(std::integral_constant<PlayerSet, PlayerSet::Weighted>{});
            break;
        case PlayerSet::Search:
            run(std::integral_constant<PlayerSet, PlayerSet::Search>{});
            break;
    }
}

// The index of a random player's move among `moves` legal moves.
GAEVAL_HD_INLINE int random_move_index(int moves, const DrawAddress& at) {
    const uint32_t r = philox(at.seed, Purpose::PlayerRandomMove, at.game, at.ply, 0, 0).v[0];
    return static_cast<int>(below(r, static_cast<uint32_t>(moves)));
}

// The move of a player at random among the `moves` legal moves of p.
template <class G>
GAEVAL_HD_INLINE typename G::Move random_move(const G& game, const typename G::Pos& p, int moves,
                                              const DrawAddress& at) {
    return game.nth_move(p, random_move_index(moves, at));
}

// The move `player` chooses in p (a game that is not over): the only legal move when there is
// one, else the player's choice. kSet compiles only the players of that set and requires
// player_set(player) <= kSet (a player outside it moves at random).
template <class G, PlayerSet kSet = PlayerSet::Search>
GAEVAL_HD typename G::Move choose_move(const G& game, const typename G::Pos& p,
                                       const Player<G>& player, const DrawAddress& at) {
    const int moves = game.count_moves(p);
    if (moves <= 1) return game.nth_move(p, 0);
    if (player.kind == PlayerKind::Policy) return game.policy_move(p, player.policy, at);
    if (player.kind == PlayerKind::Weighted) {
        if constexpr (kSet == PlayerSet::Search && has_searching_move_v<G>) {
            return game.weighted_move(p, player.weights, int(player.depth), at);
        } else if constexpr (kSet == PlayerSet::Playout) {
            // not compiled: a weighted player needs a larger set
        } else if constexpr (detail::has_weighted_move<G>::value) {
            return game.weighted_move(p, player.weights, at);
        } else if constexpr (has_features_v<G> && !has_searching_move_v<G>) {
            if constexpr (kSet == PlayerSet::Search) {
                if (player.depth > 1)
                    return alpha_beta_move(game, p, player.weights, player.depth, at);
            }
            return one_ply_weighted_move(game, p, player.weights, at);
        }
    }
    return random_move(game, p, moves, at);
}

// choose_move<G, kSet> for a game whose policies work in per-thread scratch
// (games/core/game.hpp: PlayoutScratch; kSet as plays_in_scratch_v allows): the policy's move
// from policy_move(p, policy, at, scratch) and, with kSet Weighted, a weighted player's from
// weighted_move(p, weights, at, scratch), the same moves; the moves are counted and drawn by the
// game's count_moves_in and nth_move_in when it generates them in the scratch (Ataxx's table
// boards), else as choose_move.
template <class G, PlayerSet kSet = PlayerSet::Playout, class Scratch>
GAEVAL_HD_INLINE typename G::Move choose_playout_move(const G& game, const typename G::Pos& p,
                                                      const Player<G>& player,
                                                      const DrawAddress& at, Scratch& scratch) {
    constexpr bool kInScratch = detail::has_scratch_moves<G>::value;
    const auto nth = [&](int k) {
        if constexpr (kInScratch) {
            return game.nth_move_in(p, k, scratch);
        } else {
            return game.nth_move(p, k);
        }
    };
    int moves;
    if constexpr (kInScratch) {
        moves = game.count_moves_in(p, scratch);
    } else {
        moves = game.count_moves(p);
    }
    if (moves <= 1) return nth(0);
    // A policy outside the playout set (one that searches) moves at random, as in choose_move.
    if (player.kind == PlayerKind::Policy && player_set<G>(player) == PlayerSet::Playout)
        return game.policy_move(p, player.policy, at, scratch);
    if constexpr (kSet == PlayerSet::Weighted) {
        // Every weighted player, as choose_move<G, PlayerSet::Weighted> plays it.
        if (player.kind == PlayerKind::Weighted)
            return game.weighted_move(p, player.weights, at, scratch);
    }
    return nth(random_move_index(moves, at));
}

}  // namespace gaeval
