// One whole game between two players (a match), as one GPU thread or one CPU loop iteration
// plays it, and the pairings of a tournament. With more than two seats, A takes its seat and B
// every other one. A match is a pure function of (game, start, players, seat, seed, index, cap).
#pragma once

#include <cstdint>
#include <type_traits>

#include "games/core/game.hpp"
#include "games/core/hd.hpp"
#include "games/core/players.hpp"

namespace gaeval {

// What one match left: plies played, A's seat, the winning seat (-1: none) and A's result.
struct GameRecord {
    uint32_t plies = 0;
    int8_t a_seat = 0;
    int8_t winner = -1;
    int8_t a_result = 0;  // SeatResult: -1 loss, 0 draw, 1 win
    uint8_t stopped = 0;  // 1 when the ply cap ended the game before its rules did
};
static_assert(sizeof(GameRecord) == 8, "records are hashed as bytes (bench signature)");

// One game of a tournament: players[a] against players[b], A in seat a_seat.
struct Pairing {
    uint32_t a = 0, b = 0;
    uint8_t a_seat = 0;
};
static_assert(std::is_trivially_copyable_v<Pairing>, "pairings go to the device");

// Plays match `index` from `start` until the game is over or `max_plies` plies were played,
// then scores it. Draws use key `seed` and counter (index, ply, ...).
template <class G>
GAEVAL_HD GameRecord play_match_seated(const G& game, const typename G::Pos& start,
                                       const Player<G>& a, const Player<G>& b, int a_seat,
                                       uint64_t seed, uint32_t index, uint32_t max_plies) {
    GameRecord record;
    record.a_seat = static_cast<int8_t>(a_seat);
    typename G::Pos p = start;
    if constexpr (has_start_match_v<G>) p = game.start_match(start, seed, index);
    uint32_t ply = 0;
    while (!game.is_over(p)) {
        if (ply >= max_plies) {
            record.stopped = 1;
            break;
        }
        const Player<G>& mover = game.to_move(p) == a_seat ? a : b;
        p = game.make(p, choose_move(game, p, mover, DrawAddress{seed, index, ply}));
        ++ply;
    }
    record.plies = ply;
    record.winner = static_cast<int8_t>(game.winner(p));
    record.a_result = static_cast<int8_t>(game.seat_result(p, a_seat));
    return record;
}

// play_match_seated with A in seat index % seats: colours alternate with the index.
template <class G>
GAEVAL_HD GameRecord play_match(const G& game, const typename G::Pos& start, const Player<G>& a,
                                const Player<G>& b, uint64_t seed, uint32_t index,
                                uint32_t max_plies) {
    const int seat = static_cast<int>(index % static_cast<uint32_t>(game.seats(start)));
    return play_match_seated(game, start, a, b, seat, seed, index, max_plies);
}

// Game `index` of a tournament (draws keyed by seed and index), so a game's moves depend on its
// place in the schedule, not on who plays it.
template <class G>
GAEVAL_HD GameRecord play_pairing(const G& game, const typename G::Pos& start,
                                  const Player<G>* players, const Pairing& pairing, uint64_t seed,
                                  uint32_t index, uint32_t max_plies) {
    return play_match_seated(game, start, players[pairing.a], players[pairing.b], pairing.a_seat,
                             seed, index, max_plies);
}

}  // namespace gaeval
