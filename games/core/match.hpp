// One whole game between two players (a match), as one GPU thread or one CPU loop iteration
// plays it, and the pairings of a tournament. With more than two seats, A takes its seat and B
// every other one. A match is a pure function of (game, start, players, seat, seed, index, cap).
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

#include "games/core/game.hpp"
#include "games/core/hd.hpp"
#include "games/core/players.hpp"
#include "games/core/scratch.hpp"

namespace gaeval {

// What one match left: plies played, A's seat, the winning seat (-1: none), A's result, and a
// hash of the moves played (move_hash_step over every ply), so that two backends that played
// different games with the same outcome are told apart. The first kRecordOutcomeBytes bytes
// (the outcome) are what the bench signature hashes, as it did before the move hash existed.
struct GameRecord {
    uint32_t plies = 0;
    int8_t a_seat = 0;
    int8_t winner = -1;
    int8_t a_result = 0;  // SeatResult: -1 loss, 0 draw, 1 win
    uint8_t stopped = 0;  // 1 when the ply cap ended the game before its rules did
    uint64_t move_hash = 0;
};
constexpr std::size_t kRecordOutcomeBytes = 8;
static_assert(sizeof(GameRecord) == 16 && offsetof(GameRecord, move_hash) == kRecordOutcomeBytes,
              "records are hashed as bytes: the outcome (bench signature), then the move hash");
static_assert(std::is_trivially_copyable_v<GameRecord>, "records come back from the device");

// The move hash of a game before its first move.
constexpr uint64_t kMoveHashStart = 0xcbf29ce484222325ull;

namespace detail {

template <class G, class = void>
struct has_move_code : std::false_type {};
template <class G>
struct has_move_code<G, void_t<decltype(std::declval<const G&>().move_code(
                            std::declval<const typename G::Move&>()))>> : std::true_type {};

// One 64-bit word into the hash: xor, rotate, multiply by an odd constant. Each step is a
// bijection of h for a fixed word, so two move sequences of the same length that differ
// anywhere never hash alike.
GAEVAL_HD_INLINE uint64_t fold_word(uint64_t h, uint64_t word) {
    h ^= word;
    h = (h << 27) | (h >> 37);
    return h * 0x100000001b3ull;
}

}  // namespace detail

// The move hash after `move` (exact on both backends: integers only). A game whose Move has
// padding bytes gives `uint64_t move_code(const Move&) const` (a value that tells its moves
// apart); any other move is folded byte for byte, 8 bytes to a word.
template <class G>
GAEVAL_HD_INLINE uint64_t move_hash_step(const G& game, uint64_t h, const typename G::Move& move) {
    using Move = typename G::Move;
    if constexpr (detail::has_move_code<G>::value) {
        return detail::fold_word(h, game.move_code(move));
    } else {
        static_assert(
            std::has_unique_object_representations_v<Move>,
            "a Move with padding bytes needs the game's move_code (games/core/match.hpp)");
        const unsigned char* bytes = reinterpret_cast<const unsigned char*>(&move);
        for (std::size_t at = 0; at < sizeof(Move); at += 8) {
            uint64_t word = 0;
            for (std::size_t k = 0; k < 8 && at + k < sizeof(Move); ++k)
                word |= static_cast<uint64_t>(bytes[at + k]) << (8 * k);
            h = detail::fold_word(h, word);
        }
        return h;
    }
}

// One game of a tournament: players[a] against players[b], A in seat a_seat.
struct Pairing {
    uint32_t a = 0, b = 0;
    uint8_t a_seat = 0;
};
static_assert(std::is_trivially_copyable_v<Pairing>, "pairings go to the device");

// The draw key of one game: its batch's seed and its index in that batch. A batch gathered from
// several (the islands of a generation: host/learn/gathered_play.hpp) gives each game the key
// its own batch would have, so every game plays the moves it would play alone.
struct GameKey {
    uint64_t seed = 0;
    uint32_t index = 0;
};
static_assert(std::is_trivially_copyable_v<GameKey>, "keys go to the device");

// The match loop, written once: plays from p (the match's start, changed in place) until the
// game is over or `max_plies` plies were played, each move chosen by choose(p, mover's player,
// draw address) and made by make(p, move), then scores it. Draws use key `seed` and counter
// (index, ply, ...).
template <class G, class Choose, class Make>
GAEVAL_HD_INLINE GameRecord play_moves(const G& game, typename G::Pos& p, const Player<G>& a,
                                       const Player<G>& b, int a_seat, uint64_t seed,
                                       uint32_t index, uint32_t max_plies, Choose&& choose,
                                       Make&& make) {
    GameRecord record;
    record.a_seat = static_cast<int8_t>(a_seat);
    uint32_t ply = 0;
    uint64_t moves = kMoveHashStart;
    while (!game.is_over(p)) {
        if (ply >= max_plies) {
            record.stopped = 1;
            break;
        }
        const Player<G>& mover = game.to_move(p) == a_seat ? a : b;
        const typename G::Move m = choose(p, mover, DrawAddress{seed, index, ply});
        moves = move_hash_step(game, moves, m);
        make(p, m);
        ++ply;
    }
    record.plies = ply;
    record.move_hash = moves;
    record.winner = static_cast<int8_t>(game.winner(p));
    record.a_result = static_cast<int8_t>(game.seat_result(p, a_seat));
    return record;
}

// Match `index` from `start` with play_moves, on a copy of the position made by game.make.
template <class G, class Choose>
GAEVAL_HD_INLINE GameRecord play_match_by(const G& game, const typename G::Pos& start,
                                          const Player<G>& a, const Player<G>& b, int a_seat,
                                          uint64_t seed, uint32_t index, uint32_t max_plies,
                                          Choose&& choose) {
    typename G::Pos p = start;
    if constexpr (has_start_match_v<G>) p = game.start_match(start, seed, index);
    return play_moves(game, p, a, b, a_seat, seed, index, max_plies, choose,
                      [&](typename G::Pos& q, const typename G::Move& m) { q = game.make(q, m); });
}

// The same match with random and policy players (kSet Playout), and one-ply weighted players
// too where the game allows it (kSet Weighted: players.hpp plays_in_scratch_v), played in
// per-thread scratch (games/core/scratch.hpp; a game with a PlayoutScratch:
// games/core/game.hpp): the position is dealt into the scratch, moves are made in place and the
// players use the scratch's working arrays, so nothing is indexed in local memory. The same
// record as play_match_seated<G, kSet>. A player draws at address(at) for the match's address
// at: the same address (play_match_in_scratch), or one whose seed is read again where it is used
// (kernels/batch_ops.hpp: the keyed tournaments' weighted players).
template <class G, PlayerSet kSet, class Address>
GAEVAL_HD_INLINE GameRecord play_match_in_scratch_at(const G& game, const typename G::Pos& start,
                                                     const Player<G>& a, const Player<G>& b,
                                                     int a_seat, uint64_t seed, uint32_t index,
                                                     uint32_t max_plies,
                                                     const ThreadScratch& scratch,
                                                     const Address& address) {
    static_assert(plays_in_scratch_v<G, kSet>, "the game plays this player set in scratch");
    using Scratch = play_scratch_t<G, kSet>;
    Scratch& s = scratch.as<Scratch>();
    game.start_match_in(s, start, seed, index);
    return play_moves(
        game, s.pos, a, b, a_seat, seed, index, max_plies,
        [&](const typename G::Pos& p, const Player<G>& mover, const DrawAddress& at) {
            return choose_playout_move<G, kSet>(game, p, mover, address(at), s);
        },
        [&](typename G::Pos& q, const typename G::Move& m) { game.make_in_place(q, m); });
}
struct SameAddress {
    GAEVAL_HD_FORCEINLINE const DrawAddress& operator()(const DrawAddress& at) const { return at; }
};
template <class G, PlayerSet kSet>
GAEVAL_HD GameRecord play_match_in_scratch(const G& game, const typename G::Pos& start,
                                           const Player<G>& a, const Player<G>& b, int a_seat,
                                           uint64_t seed, uint32_t index, uint32_t max_plies,
                                           const ThreadScratch& scratch) {
    return play_match_in_scratch_at<G, kSet>(game, start, a, b, a_seat, seed, index, max_plies,
                                             scratch, SameAddress{});
}

// Match `index` with each player's own choice (choose_move), compiled for the player set kSet
// (players.hpp: PlayerSet; every player's player_set must be at most kSet).
template <class G, PlayerSet kSet = PlayerSet::Search>
GAEVAL_HD GameRecord play_match_seated(const G& game, const typename G::Pos& start,
                                       const Player<G>& a, const Player<G>& b, int a_seat,
                                       uint64_t seed, uint32_t index, uint32_t max_plies) {
    return play_match_by(
        game, start, a, b, a_seat, seed, index, max_plies,
        [&](const typename G::Pos& p, const Player<G>& mover, const DrawAddress& at) {
            return choose_move<G, kSet>(game, p, mover, at);
        });
}

// play_match_seated with A in seat index % seats: colours alternate with the index.
template <class G, PlayerSet kSet = PlayerSet::Search>
GAEVAL_HD GameRecord play_match(const G& game, const typename G::Pos& start, const Player<G>& a,
                                const Player<G>& b, uint64_t seed, uint32_t index,
                                uint32_t max_plies) {
    const int seat = static_cast<int>(index % static_cast<uint32_t>(game.seats(start)));
    return play_match_seated<G, kSet>(game, start, a, b, seat, seed, index, max_plies);
}

// Game `index` of a tournament (draws keyed by seed and index), so a game's moves depend on its
// place in the schedule, not on who plays it.
template <class G, PlayerSet kSet = PlayerSet::Search>
GAEVAL_HD GameRecord play_pairing(const G& game, const typename G::Pos& start,
                                  const Player<G>* players, const Pairing& pairing, uint64_t seed,
                                  uint32_t index, uint32_t max_plies) {
    return play_match_seated<G, kSet>(game, start, players[pairing.a], players[pairing.b],
                                      pairing.a_seat, seed, index, max_plies);
}

}  // namespace gaeval
