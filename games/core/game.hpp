// The game interface: what a game under games/<name>/ provides so that the batch layer written
// once (players, matches, tournaments, perft; host/batch on the CPU, kernels/ on the GPU) can
// play it. A game is a trivially copyable struct G whose member functions are GAEVAL_HD; the
// requirements below are checked by `static_assert(gaeval::check_game<G>())` in the game's own
// header, so a missing piece is a compile error that names it (docs/adding-a-game.md).
//
// Required:
//   using Pos  = ...;                    trivially copyable position (whatever the rules need:
//                                        pieces, side to move, counters, chance-draw state)
//   using Move = ...;                    trivially copyable move
//   static constexpr int kMaxSeats;      most seats a position can have (>= 2)
//   static constexpr int kWeightCount;   weights of the `weighted` player (0: none)
//   static constexpr int kPolicyCount;   built-in policies besides `random` (numbered 1..N)
//
//   int  seats(const Pos&) const;        seats in this position, 2..kMaxSeats
//   int  to_move(const Pos&) const;      the seat that moves now
//   bool is_over(const Pos&) const;
//   int  count_moves(const Pos&) const;  legal moves of to_move; >= 1 unless over (a forced pass
//                                        is a move)
//   template <class F> void for_each_move(const Pos&, F&& f) const;
//                                        f(Move) for every legal move, in one fixed order
//   Move nth_move(const Pos&, int k) const;  the k-th move of that order, 0 <= k < count_moves
//   Pos  make(const Pos&, const Move&) const;  the position after a legal move
//   int  winner(const Pos&) const;       the winning seat of a finished (or stopped) game, or -1
//   SeatResult seat_result(const Pos&, int seat) const;  how `seat` did
//   Move policy_move(const Pos&, int policy, const DrawAddress&) const;
//                                        built-in policy 1..kPolicyCount (never called when
//                                        kPolicyCount == 0 or when only one move is legal)
//
// Optional (detected; games/core/players.hpp and perft.hpp supply the defaults):
//   static constexpr int kFeatureCount;  features per seat; with
//   void features(const Pos&, int seat, float* out) const;
//                                        the default `weighted` player scores each move by
//                                        sum_i weights[i] * features(after the move, mover)[i]
//                                        (one ply, ties broken at random), and kWeightCount must
//                                        equal kFeatureCount
//   Move weighted_move(const Pos&, const float* weights, const DrawAddress&) const;
//                                        a game's own parametric player instead (e.g. Gomoku's
//                                        reward table and acceptance factor)
//   Move weighted_move(const Pos&, const float* weights, int depth, const DrawAddress&) const;
//                                        the same for a player that searches: depth is the
//                                        player's PlayerSpec::depth (Risk's alpha-beta)
//   uint64_t child_count(const Pos&) const;  and
//   template <class F> void for_each_child(const Pos&, F&& f) const;
//                                        perft's leaf count and children when the game has a
//                                        faster way than count_moves / for_each_move + make
//   static constexpr bool kHasPerft;     the batch layer offers perft (default true)
//   Pos start_match(const Pos& start, uint64_t seed, uint32_t index) const;
//                                        the position match `index` of a batch keyed by `seed`
//                                        starts from: an opening drawn from a set, or the key of
//                                        the match's chance draws (dice) stored in the position
//                                        so that make() can address them (default: start)
//   using PlayoutScratch = ...;          playouts in per-thread scratch (games/core/scratch.hpp):
//                                        a trivially copyable struct holding the position
//                                        (`pos`) and the policies' working arrays; with it
//   void start_match_in(PlayoutScratch&, const Pos& start, uint64_t seed, uint32_t index) const;
//   void make_in_place(Pos&, const Move&) const;
//   Move policy_move(const Pos&, int policy, const DrawAddress&, PlayoutScratch&) const;
//                                        the same as start_match, make and policy_move, written
//                                        in place: random and policy playouts run in the scratch
//                                        (games/core/match.hpp: play_match_in_scratch), so that a
//                                        position indexed at run time needs no local memory
//   Move weighted_move(const Pos&, const float* weights, const DrawAddress&, PlayoutScratch&)
//       const;                           the one-ply weighted player's move (weighted_move
//                                        above), the same move, written in the scratch: then
//                                        the one-ply weighted players (PlayerSet::Weighted) run
//                                        in the scratch too (Gomoku's reward table)
//   struct WeightedScratch : PlayoutScratch {...};
//                                        a larger scratch for those weighted players (the
//                                        best move so far, the features' working words), so
//                                        that the playouts' slices stay small; weighted_move
//                                        then takes a WeightedScratch (Ataxx's table boards)
//   static constexpr bool kPlayoutsInScratch;
//                                        false: the random and policy playouts stay in
//                                        registers (they fit the bounds there) while the
//                                        weighted player plays in the scratch (7x7 Ataxx)
//   int count_moves_in(const Pos&, PlayoutScratch&) const;  and
//   Move nth_move_in(const Pos&, int k, PlayoutScratch&) const;
//                                        count_moves and nth_move for those playouts, the same
//                                        moves generated from the scratch (Ataxx's table boards
//                                        a word at a time: games/ataxx/table_playouts.hpp)
//   static constexpr bool policy_searches(int policy);
//                                        a policy that searches: its players are of the
//                                        searching set (players.hpp player_set), so the playout
//                                        kernels do not carry it (Gomoku's threat-search)
//   std::size_t table_bytes() const; const void* tables() const; G with_tables(const void*) const;
//                                        a game that points at lookup tables in host memory
//                                        (Ataxx's board masks): the CUDA backend copies
//                                        table_bytes() bytes from tables() to the device and
//                                        plays with_tables(device copy)
//
// Simultaneous moves (Pac-Man) fit the same interface: a turn is one ply per seat in seat
// order; the position collects each seat's command and the turn's last ply resolves them all.
// A seat's policy must not read the commands collected before its own ply in that turn.
//
// Results must not depend on which thread or device computes them: every random number is an
// addressed Philox draw (games/core/rng.hpp), floating point uses only + - * / and sqrt without
// contraction, and sums run in a fixed order. This is the one rule that makes the two backends
// agree bit for bit; code in games/ follows it without saying so each time.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

#include "games/core/hd.hpp"

namespace gaeval {

// How a finished game ended for one seat.
enum class SeatResult : int8_t { Loss = -1, Draw = 0, Win = 1 };

// Where a player's draws come from: key = seed, counter = (game, ply, draw index, 0).
struct DrawAddress {
    uint64_t seed = 0;
    uint32_t game = 0;
    uint32_t ply = 0;
};

namespace detail {

template <class...>
using void_t = void;

// Whether G has the member or constant the name says (expression SFINAE).
template <class G, class = void>
struct has_features : std::false_type {};
template <class G>
struct has_features<G,
                    void_t<decltype(G::kFeatureCount),
                           decltype(std::declval<const G&>().features(
                               std::declval<const typename G::Pos&>(), 0, std::declval<float*>()))>>
    : std::true_type {};

template <class G, class = void>
struct has_weighted_move : std::false_type {};
template <class G>
struct has_weighted_move<G, void_t<decltype(std::declval<const G&>().weighted_move(
                                std::declval<const typename G::Pos&>(),
                                std::declval<const float*>(), std::declval<const DrawAddress&>()))>>
    : std::true_type {};

template <class G, class = void>
struct has_searching_move : std::false_type {};
template <class G>
struct has_searching_move<G,
                          void_t<decltype(std::declval<const G&>().weighted_move(
                              std::declval<const typename G::Pos&>(), std::declval<const float*>(),
                              0, std::declval<const DrawAddress&>()))>> : std::true_type {};

// A game some of whose policies search says which: static constexpr bool policy_searches(int).
template <class G, class = void>
struct has_searching_policy : std::false_type {};
template <class G>
struct has_searching_policy<G, void_t<decltype(G::policy_searches(1))>> : std::true_type {};

template <class G, class = void>
struct has_child_count : std::false_type {};
template <class G>
struct has_child_count<G, void_t<decltype(std::declval<const G&>().child_count(
                              std::declval<const typename G::Pos&>()))>> : std::true_type {};

template <class G, class = void>
struct has_tables : std::false_type {};
template <class G>
struct has_tables<G, void_t<decltype(std::declval<const G&>().table_bytes()),
                            decltype(std::declval<const G&>().tables()),
                            decltype(std::declval<const G&>().with_tables(nullptr))>>
    : std::true_type {};

template <class G, class = void>
struct has_start_match : std::false_type {};
template <class G>
struct has_start_match<G, void_t<decltype(std::declval<const G&>().start_match(
                              std::declval<const typename G::Pos&>(), uint64_t{0}, uint32_t{0}))>>
    : std::true_type {};

template <class G, class = void>
struct has_playout_scratch : std::false_type {};
template <class G>
struct has_playout_scratch<G, void_t<typename G::PlayoutScratch>> : std::true_type {};

template <class G, class = void>
struct playouts_in_scratch : has_playout_scratch<G> {};
template <class G>
struct playouts_in_scratch<G, void_t<decltype(G::kPlayoutsInScratch)>>
    : std::bool_constant<has_playout_scratch<G>::value && G::kPlayoutsInScratch> {};

template <class G, class = void>
struct has_scratch_moves : std::false_type {};
template <class G>
struct has_scratch_moves<G, void_t<decltype(std::declval<const G&>().count_moves_in(
                                       std::declval<const typename G::Pos&>(),
                                       std::declval<typename G::PlayoutScratch&>())),
                                   decltype(std::declval<const G&>().nth_move_in(
                                       std::declval<const typename G::Pos&>(), 0,
                                       std::declval<typename G::PlayoutScratch&>()))>>
    : std::true_type {};

// The weighted players' scratch of a game with a PlayoutScratch (none without one: no `type`).
template <class G, class = void>
struct weighted_or_playout_scratch {
    using type = typename G::PlayoutScratch;
};
template <class G>
struct weighted_or_playout_scratch<G, void_t<typename G::WeightedScratch>> {
    using type = typename G::WeightedScratch;
};
template <class G, class = void>
struct weighted_scratch {};
template <class G>
struct weighted_scratch<G, void_t<typename G::PlayoutScratch>> : weighted_or_playout_scratch<G> {};

template <class G, class = void>
struct has_scratch_weighted_move : std::false_type {};
template <class G>
struct has_scratch_weighted_move<
    G,
    void_t<decltype(std::declval<const G&>().weighted_move(
        std::declval<const typename G::Pos&>(), std::declval<const float*>(),
        std::declval<const DrawAddress&>(), std::declval<typename weighted_scratch<G>::type&>()))>>
    : std::true_type {};

template <class G, class = void>
struct perft_flag : std::true_type {};
template <class G>
struct perft_flag<G, void_t<decltype(G::kHasPerft)>> : std::bool_constant<G::kHasPerft> {};

struct AnyMoveSink {
    template <class M>
    GAEVAL_HD_INLINE void operator()(const M&) const {}
};

// One detector per required piece, so that check_game names each missing one.
#define GAEVAL_GAME_PIECE(name, ...)  \
    template <class G, class = void>  \
    struct name : std::false_type {}; \
    template <class G>                \
    struct name<G, void_t<__VA_ARGS__>> : std::true_type {};
#define GAEVAL_GAME_CALL(member, ...) \
    decltype(std::declval<const G&>().member(std::declval<const typename G::Pos&>() __VA_ARGS__))
GAEVAL_GAME_PIECE(has_pos, typename G::Pos)
GAEVAL_GAME_PIECE(has_move, typename G::Move)
GAEVAL_GAME_PIECE(has_max_seats, decltype(G::kMaxSeats))
GAEVAL_GAME_PIECE(has_weight_count, decltype(G::kWeightCount))
GAEVAL_GAME_PIECE(has_policy_count, decltype(G::kPolicyCount))
GAEVAL_GAME_PIECE(has_seats, GAEVAL_GAME_CALL(seats, ))
GAEVAL_GAME_PIECE(has_to_move, GAEVAL_GAME_CALL(to_move, ))
GAEVAL_GAME_PIECE(has_is_over, GAEVAL_GAME_CALL(is_over, ))
GAEVAL_GAME_PIECE(has_count_moves, GAEVAL_GAME_CALL(count_moves, ))
GAEVAL_GAME_PIECE(has_for_each_move, GAEVAL_GAME_CALL(for_each_move, , AnyMoveSink{}))
GAEVAL_GAME_PIECE(has_nth_move, GAEVAL_GAME_CALL(nth_move, , 0))
GAEVAL_GAME_PIECE(has_make, GAEVAL_GAME_CALL(make, , std::declval<const typename G::Move&>()))
GAEVAL_GAME_PIECE(has_winner, GAEVAL_GAME_CALL(winner, ))
GAEVAL_GAME_PIECE(has_seat_result, GAEVAL_GAME_CALL(seat_result, , 0))
GAEVAL_GAME_PIECE(has_policy_move,
                  GAEVAL_GAME_CALL(policy_move, , 1, std::declval<const DrawAddress&>()))
#undef GAEVAL_GAME_CALL
#undef GAEVAL_GAME_PIECE

template <class G>
constexpr bool has_required_v = has_pos<G>::value&& has_move<G>::value&& has_max_seats<G>::value&&
    has_weight_count<G>::value&& has_policy_count<G>::value&& has_seats<G>::value&&
        has_to_move<G>::value&& has_is_over<G>::value&& has_count_moves<G>::value&&
            has_for_each_move<G>::value&& has_nth_move<G>::value&& has_make<G>::value&&
                has_winner<G>::value&& has_seat_result<G>::value&& has_policy_move<G>::value;

}  // namespace detail

template <class G>
constexpr bool has_features_v = detail::has_features<G>::value;
template <class G>
constexpr bool has_searching_move_v = detail::has_searching_move<G>::value;
template <class G>
constexpr bool has_weighted_move_v =
    detail::has_weighted_move<G>::value || detail::has_searching_move<G>::value;
template <class G>
constexpr bool has_searching_policy_v = detail::has_searching_policy<G>::value;
template <class G>
constexpr bool has_child_count_v = detail::has_child_count<G>::value;
template <class G>
constexpr bool has_tables_v = detail::has_tables<G>::value;
template <class G>
constexpr bool has_perft_v = detail::perft_flag<G>::value;
template <class G>
constexpr bool has_start_match_v = detail::has_start_match<G>::value;
template <class G>
constexpr bool has_playout_scratch_v = detail::has_playout_scratch<G>::value;
template <class G>
constexpr bool has_scratch_weighted_move_v = detail::has_scratch_weighted_move<G>::value;
// The scratch of G's one-ply weighted players in scratch: its WeightedScratch, else its
// PlayoutScratch (a game with a PlayoutScratch only).
template <class G>
using weighted_scratch_t = typename detail::weighted_scratch<G>::type;
template <class G>
constexpr bool playouts_in_scratch_v = detail::playouts_in_scratch<G>::value;

// Checks every requirement; a game asserts `static_assert(check_game<G>())` after its definition
// and gets one message per missing piece, naming it.
template <class G>
constexpr bool check_game() {
    using namespace detail;
    static_assert(has_pos<G>::value, "a game needs `using Pos = ...;` (its position type)");
    static_assert(has_move<G>::value, "a game needs `using Move = ...;` (its move type)");
    static_assert(has_max_seats<G>::value, "a game needs `static constexpr int kMaxSeats`");
    static_assert(has_weight_count<G>::value,
                  "a game needs `static constexpr int kWeightCount` (0: no weighted player)");
    static_assert(has_policy_count<G>::value,
                  "a game needs `static constexpr int kPolicyCount` (built-in policies)");
    static_assert(has_seats<G>::value, "a game needs `int seats(const Pos&) const`");
    static_assert(has_to_move<G>::value, "a game needs `int to_move(const Pos&) const`");
    static_assert(has_is_over<G>::value, "a game needs `bool is_over(const Pos&) const`");
    static_assert(has_count_moves<G>::value, "a game needs `int count_moves(const Pos&) const`");
    static_assert(has_for_each_move<G>::value,
                  "a game needs `template <class F> void for_each_move(const Pos&, F&&) const`");
    static_assert(has_nth_move<G>::value, "a game needs `Move nth_move(const Pos&, int) const`");
    static_assert(has_make<G>::value, "a game needs `Pos make(const Pos&, const Move&) const`");
    static_assert(has_winner<G>::value, "a game needs `int winner(const Pos&) const`");
    static_assert(has_seat_result<G>::value,
                  "a game needs `SeatResult seat_result(const Pos&, int seat) const`");
    static_assert(has_policy_move<G>::value,
                  "a game needs `Move policy_move(const Pos&, int policy, const DrawAddress&) "
                  "const` (policy 0 is random; a game without policies of its own may return "
                  "nth_move of a draw)");
    if constexpr (has_required_v<G>) {
        static_assert(std::is_trivially_copyable_v<G>, "a game goes to the device by value");
        static_assert(std::is_trivially_copyable_v<typename G::Pos>, "positions go to the device");
        static_assert(std::is_trivially_copyable_v<typename G::Move>, "moves go to the device");
        static_assert(G::kMaxSeats >= 2, "a game has at least two seats");
        static_assert(G::kWeightCount >= 0 && G::kPolicyCount >= 0, "counts are not negative");
        if constexpr (!has_weighted_move_v<G> && has_features_v<G>)
            static_assert(G::kWeightCount == G::kFeatureCount,
                          "the default weighted player has one weight per feature");
        static_assert(has_weighted_move_v<G> || has_features_v<G> || G::kWeightCount == 0,
                      "weights need features (or the game's own weighted_move)");
    }
    return has_required_v<G>;
}

}  // namespace gaeval
