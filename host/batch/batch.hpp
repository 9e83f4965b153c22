// The batch layer, written once over the game interface (games/core/game.hpp): perft, matches
// between two players, tournaments of many pairings and evaluate-a-population batches of any
// operation listed in GAEVAL_FOR_EACH_BATCH_OP, on the backend the caller chose. Each batch is an
// op of kernels/batch_ops.hpp run by the executor (host/backend/executor.hpp), which alone tells
// the cpu backend (OpenMP threads) from the cuda one (kernels); both give the same bits. Every
// call is synchronous.
#pragma once

#include <atomic>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "games/core/match.hpp"
#include "games/core/perft.hpp"
#include "games/core/players.hpp"
#include "host/backend/backend.hpp"
#include "host/backend/executor.hpp"
#include "host/backend/perft.hpp"
#include "host/core/error.hpp"
#include "kernels/batch_ops.hpp"

namespace gaeval::batch {

using gaeval::perft_budget_override;

// Leaf count of the move tree of `root` to `depth` (>= 0); exact on any backend.
template <class G>
uint64_t perft(const G& game, const typename G::Pos& root, int depth,
               const BackendChoice& backend) {
    return perft_on(backend, game, root, depth);
}

// Perft of each child of the root in move order (none when the game is over): the counts sum to
// perft(root, depth). depth >= 1.
template <class G>
std::vector<uint64_t> perft_divide(const G& game, const typename G::Pos& root, int depth,
                                   const BackendChoice& backend) {
    using Pos = typename G::Pos;
    std::vector<Pos> children;
    for_each_child(game, root, [&](const Pos& c) { children.push_back(c); });
    std::vector<uint64_t> counts;
    for (const Pos& child : children)
        counts.push_back(depth <= 1 ? 1 : perft(game, child, depth - 1, backend));
    return counts;
}

namespace detail {

// The smallest player set that holds every player.
template <class G>
PlayerSet batch_player_set(const Player<G>* players, std::size_t count) {
    PlayerSet set = PlayerSet::Playout;
    for (std::size_t i = 0; i < count; ++i)
        if (static_cast<int>(set) < static_cast<int>(player_set<G>(players[i])))
            set = player_set<G>(players[i]);
    return set;
}

// The game index of a batch is 32 bits (draw addresses: games/core/match.hpp); a batch whose
// indices would wrap is refused before anything is played.
inline void check_game_indices(uint64_t first, uint64_t games) {
    constexpr uint64_t kIndices = uint64_t{1} << 32;
    if (games > kIndices || first > kIndices - games)
        throw InputError("a batch of " + std::to_string(games) + " games from game " +
                         std::to_string(first) + ": game indices end at 2^32 (4294967296)");
}

// Batches of games played (play, play_pairings, play_keyed_pairings; a batch played in pieces
// counts once), by every thread of the process.
inline std::atomic<uint64_t> game_batches{0};

// Plays the matches 0 .. n of op (kernels/batch_ops.hpp: PlayMatchOp, PlayPairingOp, which add
// their piece's first game index) with the players of kSet, in the launch shape
// batch_ops::with_play_shape chooses.
template <class G, PlayerSet kSet, class Op>
void play_ops(const BackendChoice& backend, uint64_t n, const Op& op, int cpu_chunk) {
    batch_ops::with_play_shape<G, kSet>(n, device_multiprocessors(backend), [&](auto shape) {
        for_each_task<decltype(shape)>(backend, 0, n, op, cpu_chunk);
    });
}

}  // namespace detail

// Game batches this process has played so far (each call of play, play_pairings or
// play_keyed_pairings is one, on either backend): tests count a generation's backend calls.
inline uint64_t game_batch_calls() { return detail::game_batches.load(); }

// records[i] = play_match(game, start, a, b, seed, first + i, max_plies) for i < games: game
// first + i of the batch, A in seat (first + i) mod seats. A batch played in pieces gives the
// records of the whole batch. Both backends play the instantiation of the smallest player set
// that holds a and b (games/core/players.hpp: PlayerSet): the same records as any larger one.
template <class G>
std::vector<GameRecord> play(const G& game, const typename G::Pos& start, const Player<G>& a,
                             const Player<G>& b, uint64_t first, uint64_t games, uint64_t seed,
                             uint32_t max_plies, const BackendChoice& backend) {
    detail::check_game_indices(first, games);
    ++detail::game_batches;
    std::vector<GameRecord> records(games);
    if (games == 0) return records;
    const Player<G> both[2] = {a, b};
    const PlayerSet set = detail::batch_player_set<G>(both, 2);
    const uint64_t chunk = batch_capacity(backend, games, sizeof(GameRecord), 0);
    const BackendBound<G> bound(backend, game);
    for (uint64_t done = 0; done < games; done += chunk) {
        const uint64_t n = games - done < chunk ? games - done : chunk;
        BackendOutput<GameRecord> out(backend, records.data() + done, n);
        batch_ops::with_compiled_player_set<G>(set, [&](auto kind) {
            constexpr PlayerSet kSet = decltype(kind)::value;
            const batch_ops::PlayMatchOp<G, kSet> op{bound.get(),  start,     a,         b, seed,
                                                     first + done, max_plies, out.data()};
            detail::play_ops<G, kSet>(backend, n, op, 16);
        });
        out.finish();
    }
    return records;
}

namespace detail {

// The piece loop of play_pairings and play_keyed_pairings: checks the pairings, counts the batch,
// puts the players and the game on the backend once, and calls
//   play_piece(kind, game, players, pairings, done, n, records)
// for each piece [done, done + n) that fits the device (batch_capacity; `piece_bytes` a game of
// it takes beyond its pairing and record), with the backend's pointers of that piece.
template <class G, class PlayPiece>
std::vector<GameRecord> play_pairing_pieces(const G& game, const typename G::Pos& start,
                                            const std::vector<Player<G>>& players,
                                            const std::vector<Pairing>& pairings,
                                            std::size_t piece_bytes, const BackendChoice& backend,
                                            PlayPiece&& play_piece) {
    const int seats = game.seats(start);
    for (const Pairing& p : pairings)
        if (p.a >= players.size() || p.b >= players.size() || p.a_seat >= seats)
            throw std::invalid_argument("a pairing names a player or seat that is not there");
    const uint64_t games = pairings.size();
    ++game_batches;
    std::vector<GameRecord> records(games);
    if (games == 0) return records;
    const PlayerSet set = batch_player_set<G>(players.data(), players.size());
    const uint64_t chunk =
        batch_capacity(backend, games, sizeof(Pairing) + piece_bytes + sizeof(GameRecord),
                       players.size() * sizeof(Player<G>));
    const BackendBound<G> bound(backend, game);
    const BackendInput<Player<G>> on_backend(backend, players.data(), players.size());
    for (uint64_t done = 0; done < games; done += chunk) {
        const uint64_t n = games - done < chunk ? games - done : chunk;
        const BackendInput<Pairing> in(backend, pairings.data() + done, n);
        BackendOutput<GameRecord> out(backend, records.data() + done, n);
        batch_ops::with_compiled_player_set<G>(set, [&](auto kind) {
            play_piece(kind, bound.get(), on_backend.data(), in.data(), done, n, out.data());
        });
        out.finish();
    }
    return records;
}

}  // namespace detail

// A tournament batch: records[i] = play_pairing(game, start, players, pairings[i], seed, i,
// max_plies), in pieces where the batch does not fit on the device (batch_capacity). Every
// pairing must name two players and a seat of the start position (std::invalid_argument otherwise).
template <class G>
std::vector<GameRecord> play_pairings(const G& game, const typename G::Pos& start,
                                      const std::vector<Player<G>>& players,
                                      const std::vector<Pairing>& pairings, uint64_t seed,
                                      uint32_t max_plies, const BackendChoice& backend) {
    detail::check_game_indices(0, pairings.size());
    return detail::play_pairing_pieces(
        game, start, players, pairings, 0, backend,
        [&](auto kind, const G& bound, const Player<G>* on_backend, const Pairing* in,
            uint64_t done, uint64_t n, GameRecord* out) {
            constexpr PlayerSet kSet = decltype(kind)::value;
            const batch_ops::PlayPairingOp<G, kSet> op{bound, start, on_backend, in,
                                                       seed,  done,  max_plies,  out};
            detail::play_ops<G, kSet>(backend, n, op, 4);
        });
}

// A batch gathered from several tournaments: records[i] = play_pairing(game, start, players,
// pairings[i], keys[i].seed, keys[i].index, max_plies), so each game is the one its own batch
// would play (host/learn/gathered_play.hpp); in pieces as play_pairings. keys.size() must be
// pairings.size(), every pairing as for play_pairings (std::invalid_argument otherwise).
template <class G>
std::vector<GameRecord> play_keyed_pairings(const G& game, const typename G::Pos& start,
                                            const std::vector<Player<G>>& players,
                                            const std::vector<Pairing>& pairings,
                                            const std::vector<GameKey>& keys, uint32_t max_plies,
                                            const BackendChoice& backend) {
    if (keys.size() != pairings.size())
        throw std::invalid_argument("a gathered batch needs one key per pairing");
    return detail::play_pairing_pieces(
        game, start, players, pairings, sizeof(GameKey), backend,
        [&](auto kind, const G& bound, const Player<G>* on_backend, const Pairing* in,
            uint64_t done, uint64_t n, GameRecord* out) {
            constexpr PlayerSet kSet = decltype(kind)::value;
            const BackendInput<GameKey> in_keys(backend, keys.data() + done, n);
            const batch_ops::PlayKeyedPairingOp<G, kSet> op{
                bound, start, on_backend, in, in_keys.data(), max_plies, out};
            detail::play_ops<G, kSet>(backend, n, op, 4);
        });
}

// An evaluate-a-population batch: outputs[i] = op(inputs.data(), i) for i < n, one index per
// CPU iteration or GPU thread. Op is a trivially copyable struct of games/ listed in
// GAEVAL_FOR_EACH_BATCH_OP (games/registry.hpp), with
//   using Input = ...; using Output = ...;          (trivially copyable)
//   GAEVAL_HD Output operator()(const Input* inputs, uint64_t i) const;
// optionally a per-thread scratch form (a `struct Scratch` and
//   GAEVAL_HD Output operator()(const Input* inputs, uint64_t i, const ThreadScratch&) const;
// the same value, played in that scratch on both backends: kernels/batch_ops.hpp evaluate_shape),
// and, when it reads lookup tables in host memory, the table hooks of games/core/game.hpp (the
// CUDA backend copies them and `inputs` to the device for the call). `inputs` holds everything
// the op reads by index: a population and whatever it is compared against.
template <class Op>
std::vector<typename Op::Output> evaluate(const Op& op,
                                          const std::vector<typename Op::Input>& inputs, uint64_t n,
                                          const BackendChoice& backend) {
    std::vector<typename Op::Output> outputs(n);
    if (n == 0) return outputs;
    const BackendBound<Op> bound(backend, op);  // the op's lookup tables, if it has any
    const BackendInput<typename Op::Input> in(backend, inputs.data(), inputs.size());
    BackendOutput<typename Op::Output> out(backend, outputs.data(), n);
    for_each_task<batch_ops::evaluate_shape_t<Op>>(
        backend, 0, n, batch_ops::EvaluateOp<Op>{bound.get(), in.data(), out.data()});
    out.finish();
    return outputs;
}

}  // namespace gaeval::batch
