// The batch layer, written once over the game interface (games/core/game.hpp): perft, matches
// between two players, tournaments of many pairings and evaluate-a-population batches of any
// operation listed in GAEVAL_FOR_EACH_BATCH_OP, on the backend the caller chose. The cpu
// backend runs the games/ functions over OpenMP threads (host/backend/parallel.hpp), the cuda
// backend the same functions in kernels (kernels/batch.hpp); both give the same bits. Every call
// is synchronous.
#pragma once

#include <atomic>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "games/core/match.hpp"
#include "games/core/perft.hpp"
#include "games/core/players.hpp"
#include "host/backend/backend.hpp"
#include "host/backend/parallel.hpp"
#include "host/core/error.hpp"
#include "kernels/batch.hpp"

namespace gaeval::batch {

namespace detail {

// Batches of games played (play, play_pairings, play_keyed_pairings; a batch played in pieces
// counts once), by every thread of the process.
inline std::atomic<uint64_t> game_batches{0};

// Trees with fewer leaves than this (an estimate) are counted on one thread: about 0.3 ms of
// work at 3 G nodes/s, a few times the cost of waking sleeping OpenMP threads.
constexpr uint64_t kPerftParallelLeaves = uint64_t{1} << 20;

// Perft on the cpu backend: serial on one thread; otherwise the tree is expanded breadth-first
// until there are a few dozen subtrees per thread (each still a real search, not a ~100 ns
// leaf: a dynamic schedule pays an atomic per task), which the threads count (dynamic
// schedule), and the counts are summed in index order. A tree too small to gain (its leaves
// estimated from the frontier's branching) is counted on one thread.
template <class G>
uint64_t perft_cpu(const G& game, const typename G::Pos& root, int depth, int threads) {
    using Pos = typename G::Pos;
    if (threads <= 1 || depth <= 3) return gaeval::perft(game, root, depth);
    std::vector<Pos> frontier{root};
    int remaining = depth;
    const std::size_t enough = 32 * static_cast<std::size_t>(threads);
    while (remaining > 3 && frontier.size() < enough) {
        std::vector<Pos> next;
        for (const Pos& p : frontier)
            for_each_child(game, p, [&](const Pos& c) { next.push_back(c); });
        frontier.swap(next);
        --remaining;
        if (frontier.empty()) return 0;
    }
    // Leaves ~ frontier * b^remaining with b the branching one level below the frontier.
    uint64_t children = 0;
    for (const Pos& p : frontier) children += child_count(game, p);
    const double frontier_nodes = static_cast<double>(frontier.size());
    const double branching = static_cast<double>(children) / frontier_nodes;
    double leaves = frontier_nodes;
    for (int level = 0; level < remaining && leaves < kPerftParallelLeaves; ++level)
        leaves *= branching;
    std::vector<uint64_t> nodes(frontier.size());
    const int use = leaves < static_cast<double>(kPerftParallelLeaves) ? 1 : threads;
    parallel_for_dynamic(static_cast<int64_t>(frontier.size()), use, [&](int64_t i) {
        nodes[i] = gaeval::perft(game, frontier[i], remaining);
    });
    uint64_t total = 0;
    for (uint64_t n : nodes) total += n;
    return total;
}

}  // namespace detail

// Game batches this process has played so far (each call of play, play_pairings or
// play_keyed_pairings is one, on either backend): tests count a generation's backend calls.
inline uint64_t game_batch_calls() { return detail::game_batches.load(); }

// GAEVAL_PERFT_BUDGET=BYTES caps the device perft's positions per level (to test its chunked
// branches on small trees); unset: a quarter of the device memory free at each level (0).
inline std::size_t perft_budget_override() {
    const char* text = std::getenv("GAEVAL_PERFT_BUDGET");
    if (!text || !*text) return 0;
    char* end = nullptr;
    errno = 0;
    const unsigned long long bytes = std::strtoull(text, &end, 10);
    if (errno || *end || text[0] == '-' || bytes == 0)
        throw InputError(std::string("GAEVAL_PERFT_BUDGET: '") + text +
                         "' is not a positive number of bytes");
    return static_cast<std::size_t>(bytes);
}

// Leaf count of the move tree of `root` to `depth` (>= 0); exact on any backend.
template <class G>
uint64_t perft(const G& game, const typename G::Pos& root, int depth,
               const BackendChoice& backend) {
    static_assert(has_perft_v<G>, "this game has no perft");
    if (backend.kind == BackendKind::Cuda)
        return cuda::perft(game, root, depth, perft_budget_override());
    return detail::perft_cpu(game, root, depth, backend.threads);
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

// A batch of games larger than the device's memory is played in pieces, each piece one device
// call over games first .. first + n (the records are those of the whole batch: a game's draws are
// addressed by its index in the batch, not by its piece). GAEVAL_CUDA_GAME_CHUNK=N (cuda) or
// GAEVAL_CPU_GAME_CHUNK=N (cpu: the same loop through host memory, for the tests) forces pieces of
// N games; otherwise the cpu plays the batch at once and the cuda backend takes as many games as
// fit in the free device memory less a 10% margin, after `fixed_bytes` (the players).
inline uint64_t game_chunk(BackendKind kind, uint64_t games, uint64_t bytes_per_game,
                           uint64_t fixed_bytes) {
    const char* name =
        kind == BackendKind::Cuda ? "GAEVAL_CUDA_GAME_CHUNK" : "GAEVAL_CPU_GAME_CHUNK";
    if (const char* text = std::getenv(name); text && *text) {
        char* end = nullptr;
        errno = 0;
        const unsigned long long chunk = std::strtoull(text, &end, 10);
        if (errno || *end || text[0] == '-' || text[0] == '+' || chunk == 0)
            throw InputError(std::string(name) + ": '" + text + "' is not a positive game count");
        return chunk < games ? chunk : games;
    }
    if (kind != BackendKind::Cuda || games == 0) return games;
    const uint64_t usable = cuda::batch_free_device_memory() / 10 * 9;
    if (usable <= fixed_bytes || (usable - fixed_bytes) / bytes_per_game == 0)
        throw InputError("a batch of " + std::to_string(games) + " games: the device has " +
                         std::to_string(usable) + " usable bytes free, too few for its players (" +
                         std::to_string(fixed_bytes) + " bytes) and one game");
    const uint64_t fit = (usable - fixed_bytes) / bytes_per_game;
    if (fit >= games) return games;
    static bool said = false;  // once a process: a learn run plays such a batch every generation
    if (!said) {
        said = true;
        std::fprintf(stderr,
                     "gaeval: a batch of %llu games does not fit in the device's free memory "
                     "less a 10%% margin: played %llu games at a time\n",
                     static_cast<unsigned long long>(games), static_cast<unsigned long long>(fit));
    }
    return fit;
}

}  // namespace detail

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
    const Player<G> both[2] = {a, b};
    const PlayerSet set = detail::batch_player_set<G>(both, 2);
    const uint64_t chunk = detail::game_chunk(backend.kind, games, sizeof(GameRecord), 0);
    for (uint64_t done = 0; done < games; done += chunk) {
        const uint64_t n = games - done < chunk ? games - done : chunk;
        GameRecord* out = records.data() + done;
        if (backend.kind == BackendKind::Cuda) {
            cuda::play_matches(game, start, a, b, seed, first + done, n, max_plies, set, out);
            continue;
        }
        with_player_set(set, [&](auto kind) {
            parallel_for_dynamic(
                static_cast<int64_t>(n), backend.threads,
                [&](int64_t i) {
                    out[i] = play_match<G, decltype(kind)::value>(
                        game, start, a, b, seed, static_cast<uint32_t>(first + done + i),
                        max_plies);
                },
                16);
        });
    }
    return records;
}

// A tournament batch: records[i] = play_pairing(game, start, players, pairings[i], seed, i,
// max_plies), in pieces where the batch does not fit on the device (detail::game_chunk). Every
// pairing must name two players and a seat of the start position (std::invalid_argument otherwise).
template <class G>
std::vector<GameRecord> play_pairings(const G& game, const typename G::Pos& start,
                                      const std::vector<Player<G>>& players,
                                      const std::vector<Pairing>& pairings, uint64_t seed,
                                      uint32_t max_plies, const BackendChoice& backend) {
    const int seats = game.seats(start);
    for (const Pairing& p : pairings)
        if (p.a >= players.size() || p.b >= players.size() || p.a_seat >= seats)
            throw std::invalid_argument("a pairing names a player or seat that is not there");
    const uint64_t games = pairings.size();
    detail::check_game_indices(0, games);
    ++detail::game_batches;
    std::vector<GameRecord> records(games);
    const PlayerSet set = detail::batch_player_set<G>(players.data(), players.size());
    const uint64_t chunk =
        detail::game_chunk(backend.kind, games, sizeof(Pairing) + sizeof(GameRecord),
                           players.size() * sizeof(Player<G>));
    for (uint64_t done = 0; done < games; done += chunk) {
        const uint64_t n = games - done < chunk ? games - done : chunk;
        const Pairing* in = pairings.data() + done;
        GameRecord* out = records.data() + done;
        if (backend.kind == BackendKind::Cuda) {
            cuda::play_pairings(game, start, players.data(), players.size(), in, done, n, seed,
                                max_plies, set, out);
            continue;
        }
        with_player_set(set, [&](auto kind) {
            parallel_for_dynamic(
                static_cast<int64_t>(n), backend.threads,
                [&](int64_t i) {
                    out[i] = play_pairing<G, decltype(kind)::value>(
                        game, start, players.data(), in[i], seed, static_cast<uint32_t>(done + i),
                        max_plies);
                },
                4);
        });
    }
    return records;
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
    const int seats = game.seats(start);
    if (keys.size() != pairings.size())
        throw std::invalid_argument("a gathered batch needs one key per pairing");
    for (const Pairing& p : pairings)
        if (p.a >= players.size() || p.b >= players.size() || p.a_seat >= seats)
            throw std::invalid_argument("a pairing names a player or seat that is not there");
    const uint64_t games = pairings.size();
    ++detail::game_batches;
    std::vector<GameRecord> records(games);
    const PlayerSet set = detail::batch_player_set<G>(players.data(), players.size());
    const uint64_t chunk = detail::game_chunk(
        backend.kind, games, sizeof(Pairing) + sizeof(GameKey) + sizeof(GameRecord),
        players.size() * sizeof(Player<G>));
    for (uint64_t done = 0; done < games; done += chunk) {
        const uint64_t n = games - done < chunk ? games - done : chunk;
        const Pairing* in = pairings.data() + done;
        const GameKey* key = keys.data() + done;
        GameRecord* out = records.data() + done;
        if (backend.kind == BackendKind::Cuda) {
            cuda::play_keyed_pairings(game, start, players.data(), players.size(), in, key, n,
                                      max_plies, set, out);
            continue;
        }
        with_player_set(set, [&](auto kind) {
            parallel_for_dynamic(
                static_cast<int64_t>(n), backend.threads,
                [&](int64_t i) {
                    out[i] = play_pairing<G, decltype(kind)::value>(
                        game, start, players.data(), in[i], key[i].seed, key[i].index, max_plies);
                },
                4);
        });
    }
    return records;
}

// An evaluate-a-population batch: outputs[i] = op(inputs.data(), i) for i < n, one index per
// CPU iteration or GPU thread. Op is a trivially copyable struct of games/ listed in
// GAEVAL_FOR_EACH_BATCH_OP (games/registry.hpp), with
//   using Input = ...; using Output = ...;          (trivially copyable)
//   GAEVAL_HD Output operator()(const Input* inputs, uint64_t i) const;
// and, when it reads lookup tables in host memory, the table hooks of games/core/game.hpp (the
// CUDA backend copies them and `inputs` to the device for the call). `inputs` holds everything
// the op reads by index: a population and whatever it is compared against.
template <class Op>
std::vector<typename Op::Output> evaluate(const Op& op,
                                          const std::vector<typename Op::Input>& inputs, uint64_t n,
                                          const BackendChoice& backend) {
    std::vector<typename Op::Output> outputs(n);
    if (backend.kind == BackendKind::Cuda) {
        cuda::evaluate(op, inputs.data(), inputs.size(), n, outputs.data());
        return outputs;
    }
    parallel_for_dynamic(static_cast<int64_t>(n), backend.threads, [&](int64_t i) {
        outputs[i] = op(inputs.data(), static_cast<uint64_t>(i));
    });
    return outputs;
}

}  // namespace gaeval::batch
