// Risk: the rules of the classic board game on any map of at most 64 territories (docs/risk.md
// states every rule choice). Territory sets are one-word bitboards; a position is a trivially
// copyable struct that one GPU thread keeps while it plays a whole game. A move is one decision
// step: one placement, one card trade (or keeping the cards), one attack (from, to, armies
// committed: the battle is rolled to its end), stopping the attacks, one fortification (or
// none). Every die and card is an addressed Philox draw keyed by the match (start_match stores
// the key and a draw counter in the position).
#pragma once

#include <cstdint>

#include "games/core/bits.hpp"
#include "games/core/hd.hpp"
#include "games/core/rng.hpp"

namespace gaeval::risk {

constexpr int kMaxTerritories = 64;  // one 64-bit word per territory set
constexpr int kMaxContinents = 16;
constexpr int kMaxSeats = 6;
constexpr int kOddsSize = 128;  // battle odds tabulated for 0..127 committed and defending armies
constexpr int kWildCards = 2;
constexpr int kForcedTrade = 5;  // a hand this large must be traded
constexpr int kMaxArmies = 65535;

// The board: borders and continents (host/risk/map.cpp loads and validates it).
struct Map {
    int32_t territories;
    int32_t continents;
    uint64_t all;                              // territories 0 .. territories-1
    uint64_t borders[kMaxTerritories];         // the neighbours of each territory
    uint64_t continent_cells[kMaxContinents];  // the territories of each continent
    int32_t bonus[kMaxContinents];             // armies a seat holding the continent receives
};

// Exact battle odds (host/risk/tables.cpp): an attack committing a armies against d defenders
// is rolled until the defenders or the committed armies are gone.
struct Odds {
    float win[kOddsSize][kOddsSize];               // P(conquest), [a][d]
    uint8_t won_survivors[kOddsSize][kOddsSize];   // E[committed survivors | conquest], rounded
    uint8_t lost_defenders[kOddsSize][kOddsSize];  // E[defenders left | failure], rounded
};

// What the game reads in memory: copied to the device once per batch (game.hpp's tables hook).
struct Tables {
    Map map;
    Odds odds;
};

// The rule settings a game carries besides its tables.
struct Config {
    const Tables* tables;
    float threshold;   // agents attack only with at least this conquest probability
    int32_t turn_cap;  // rounds after which the game ends (docs/risk.md: the result then)
};

enum class Phase : uint8_t { Setup = 0, Trade = 1, Place = 2, Attack = 3, Fortify = 4, Over = 5 };
// Values are part of recorded games: append, never renumber.
enum class Act : uint8_t {
    Place = 0,
    Trade = 1,
    Keep = 2,
    Attack = 3,
    Stop = 4,
    Fortify = 5,
    Pass = 6
};

struct Move {
    Act act = Act::Stop;
    uint8_t from = 0, to = 0;  // Place: to; Attack and Fortify: from -> to
    uint16_t count = 0;        // armies placed, committed to the attack, or moved
};

struct Pos {
    uint64_t owned[kMaxSeats];  // territories of each seat
    uint64_t hand[kMaxSeats];   // territory cards of each seat (card t shows territory t)
    uint16_t armies[kMaxTerritories];
    uint64_t key;                   // the match's draw key (the batch seed)
    uint32_t match;                 // the match's index in its batch
    uint32_t draws;                 // dice rolls and card draws made so far (the draw counter)
    uint16_t pending;               // armies the mover still places this turn
    uint16_t trades;                // sets traded so far by all seats (sets the next set's value)
    uint16_t round;                 // rounds completed
    uint8_t wilds[kMaxSeats];       // wild cards of each seat
    uint8_t setup_left[kMaxSeats];  // starting armies each seat has not placed yet
    uint8_t seats;
    uint8_t mover;
    Phase phase;
    uint8_t conquered;  // the mover conquered a territory this turn (a card at its end)
};

// ---- dice -------------------------------------------------------------------------------------

// Armies the attacker loses in one roll of na dice (1..3) against nd (1..2), the dice given as
// values: the attacker's a0, a1, a2 and the defender's d0, d1 (faces 1..6; those past na and nd
// are ignored). The highest dice are compared pairwise, ties to the defender; the defender loses
// min(na, nd) minus that. The dice stay values (a sort network over three, the unused dice as
// zeros, which sort last), so that on the device nothing is indexed at run time.
GAEVAL_HD_INLINE int losses_of_dice(int a0, int a1, int a2, int d0, int d1, int na, int nd) {
    if (na < 2) a1 = 0;
    if (na < 3) a2 = 0;
    if (nd < 2) d1 = 0;
    if (a0 < a1) swap(a0, a1);
    if (a1 < a2) swap(a1, a2);
    if (a0 < a1) swap(a0, a1);
    if (d0 < d1) swap(d0, d1);
    const int lost = a0 > d0 ? 0 : 1;
    return min(na, nd) >= 2 ? lost + (a1 > d1 ? 0 : 1) : lost;
}

// losses_of_dice of the attacker's na dice att[] against the defender's nd dice def[].
GAEVAL_HD_INLINE int attacker_losses(const int* att, int na, const int* def, int nd) {
    return losses_of_dice(att[0], na >= 2 ? att[1] : 0, na >= 3 ? att[2] : 0, def[0],
                          nd >= 2 ? def[1] : 0, na, nd);
}

// The five dice of roll `draw` of a match (three for the attacker, then two for the defender):
// one 32-bit Philox word mapped onto the 6^5 outcomes, read as base-6 digits.
GAEVAL_HD_INLINE void roll_dice(uint64_t key, uint32_t match, uint32_t draw, int* dice) {
    uint32_t code = below(philox(key, Purpose::RiskDice, match, draw, 0, 0).v[0], 7776u);
    for (int i = 0; i < 5; ++i) {
        dice[i] = static_cast<int>(code % 6u) + 1;
        code /= 6u;
    }
}

// Armies the attacker loses in roll `draw` of a match with na attacking dice against nd
// defending ones: roll_dice's dice through losses_of_dice (the five-die loop unrolls, so the
// dice live in registers).
GAEVAL_HD_INLINE int roll_losses(uint64_t key, uint32_t match, uint32_t draw, int na, int nd) {
    int dice[5];
    roll_dice(key, match, draw, dice);
    return losses_of_dice(dice[0], dice[1], dice[2], dice[3], dice[4], na, nd);
}

// ---- cards ------------------------------------------------------------------------------------

// Territories whose card shows symbol s: territory index mod 3 (0 infantry, 1 cavalry,
// 2 artillery; 14 of each on the classic map).
GAEVAL_HD_INLINE uint64_t symbol_cells(int s) { return 0x9249249249249249ull << s; }

// Whether a hand (territory cards and wild cards) holds a set: three of a symbol, one of
// each, or any two with a wild card.
GAEVAL_HD_INLINE bool has_set(uint64_t hand, int wilds) {
    const int c0 = popcount64(hand & symbol_cells(0)), c1 = popcount64(hand & symbol_cells(1)),
              c2 = popcount64(hand & symbol_cells(2));
    if (wilds > 0 && c0 + c1 + c2 + wilds >= 3) return true;
    return c0 >= 3 || c1 >= 3 || c2 >= 3 || (c0 > 0 && c1 > 0 && c2 > 0);
}

// The set a trade takes (has_set must hold): one of each symbol if possible (the lowest card of
// each), else three of the first symbol that has three (its three lowest), else the two lowest
// cards (or the one card) with wild cards.
GAEVAL_HD_INLINE void pick_set(uint64_t hand, int wilds, uint64_t* cards, int* wilds_used) {
    uint64_t by_symbol[3];
    for (int s = 0; s < 3; ++s) by_symbol[s] = hand & symbol_cells(s);
    *wilds_used = 0;
    if (by_symbol[0] && by_symbol[1] && by_symbol[2]) {
        *cards = 0;
        for (int s = 0; s < 3; ++s) *cards |= by_symbol[s] & (~by_symbol[s] + 1);
        return;
    }
    for (int s = 0; s < 3; ++s) {
        if (popcount64(by_symbol[s]) >= 3) {
            const uint64_t first = by_symbol[s] & (~by_symbol[s] + 1);
            const uint64_t rest = by_symbol[s] ^ first;
            const uint64_t second = rest & (~rest + 1);
            const uint64_t third = (rest ^ second) & (~(rest ^ second) + 1);
            *cards = first | second | third;
            return;
        }
    }
    const uint64_t first = hand & (~hand + 1);
    const uint64_t rest = hand ^ first;
    *cards = first | (rest & (~rest + 1));
    *wilds_used = 3 - popcount64(*cards);
    (void)wilds;
}

// Armies the n-th set traded in the game (from 0) is worth: 4, 6, 8, 10, 12, 15, then 5 more
// each.
GAEVAL_HD_INLINE int set_value(int n) { return n < 5 ? 4 + 2 * n : 15 + 5 * (n - 5); }

// ---- counting ---------------------------------------------------------------------------------

// a + b capped at kMaxArmies (armies are 16-bit counts; docs/risk.md).
GAEVAL_HD_INLINE uint16_t add_armies(int a, int b) {
    return static_cast<uint16_t>(min(kMaxArmies, a + b));
}

// Starting armies per seat: 40, 35, 30, 25, 20 for 2..6 seats.
GAEVAL_HD_INLINE int starting_armies(int seats) { return 50 - 5 * seats; }

// Reinforcements of a seat holding `owned`: max(3, territories / 3) plus the bonus of every
// continent it holds whole.
GAEVAL_HD_INLINE int reinforcements(const Map& m, uint64_t owned) {
    int armies = max(3, popcount64(owned) / 3);
    for (int c = 0; c < m.continents; ++c)
        if ((owned & m.continent_cells[c]) == m.continent_cells[c]) armies += m.bonus[c];
    return armies;
}

// The seat owning territory t (-1 for a territory no one owns: none after the deal).
GAEVAL_HD_INLINE int owner_of(const Pos& p, int t) {
    for (int s = 0; s < p.seats; ++s)
        if ((p.owned[s] >> t) & 1) return s;
    return -1;
}

// Cards in the hand of seat s, wild cards included.
GAEVAL_HD_INLINE int hand_size(const Pos& p, int s) { return popcount64(p.hand[s]) + p.wilds[s]; }

// Sum of the armies on the territories of `cells`.
GAEVAL_HD_INLINE int armies_on(const Pos& p, uint64_t cells) {
    int total = 0;
    for (uint64_t x = cells; x; x = clear_lowest(x)) total += p.armies[lowest_bit(x)];
    return total;
}

// ---- turn structure ---------------------------------------------------------------------------

// Seat `seat` begins its turn: reinforcements to place, and the card phase first when it holds
// a set.
GAEVAL_HD_INLINE void start_turn(const Map& m, Pos& p, int seat) {
    p.mover = static_cast<uint8_t>(seat);
    p.conquered = 0;
    p.pending = static_cast<uint16_t>(reinforcements(m, p.owned[seat]));
    p.phase = has_set(p.hand[seat], p.wilds[seat]) ? Phase::Trade : Phase::Place;
}

// A card from the deck (the cards no seat holds: territory cards and the two wild cards, drawn
// uniformly; traded cards go back to the deck) for the mover; none when the deck is empty.
GAEVAL_HD_INLINE void draw_card(const Map& m, Pos& p) {
    uint64_t held = 0;
    int wilds_held = 0;
    for (int s = 0; s < p.seats; ++s) {
        held |= p.hand[s];
        wilds_held += p.wilds[s];
    }
    const uint64_t deck = m.all & ~held;
    const int territory_cards = popcount64(deck);
    const int size = territory_cards + kWildCards - wilds_held;
    if (size <= 0) return;
    const uint32_t r = philox(p.key, Purpose::RiskCard, p.match, p.draws, 0, 0).v[0];
    ++p.draws;
    const int k = static_cast<int>(below(r, static_cast<uint32_t>(size)));
    if (k < territory_cards)
        p.hand[p.mover] |= uint64_t{1} << nth_set_bit(deck, k);
    else
        ++p.wilds[p.mover];
}

// Ends the mover's turn: a card if it conquered (draw_card false: no card, for agents that
// look ahead without knowing the deck), then the next seat still on the board; a completed
// round at the turn cap ends the game.
GAEVAL_HD_INLINE void end_turn(const Config& c, Pos& p, bool draw) {
    const Map& m = c.tables->map;
    if (draw && p.conquered) draw_card(m, p);
    const int from = p.mover;
    int next = from;
    do {
        next = next + 1 == p.seats ? 0 : next + 1;
    } while (p.owned[next] == 0 && next != from);
    if (next <= from) ++p.round;
    if (p.round >= c.turn_cap) {
        p.phase = Phase::Over;
        return;
    }
    start_turn(m, p, next);
}

// The mover trades the set pick_set chooses: its value joins the armies to place, 2 armies go
// on the lowest traded territory the mover owns (if any), and the card phase goes on while
// the hand still has kForcedTrade cards.
GAEVAL_HD_INLINE void trade_set(Pos& p) {
    const int s = p.mover;
    uint64_t cards = 0;
    int wilds_used = 0;
    pick_set(p.hand[s], p.wilds[s], &cards, &wilds_used);
    p.hand[s] &= ~cards;
    p.wilds[s] = static_cast<uint8_t>(p.wilds[s] - wilds_used);
    p.pending = add_armies(p.pending, set_value(p.trades));
    if (p.trades < 65535) ++p.trades;
    const uint64_t own_traded = cards & p.owned[s];
    if (own_traded) {
        const int t = lowest_bit(own_traded);
        p.armies[t] = add_armies(p.armies[t], 2);
    }
    p.phase = hand_size(p, s) >= kForcedTrade && has_set(p.hand[s], p.wilds[s]) ? Phase::Trade
                                                                                : Phase::Place;
}

// The end of a battle from `from` to `to` that committed `committed` armies: `survivors` of them
// are left (moved into `to` on a conquest) and `defenders` defenders. A conquest takes the
// territory; a seat losing its last territory gives the mover its cards (the mover trades at
// once while it holds kForcedTrade cards, then places, then attacks on); the mover holding
// every territory ends the game. Both the dice (make) and the agents' look-ahead land here.
GAEVAL_HD_INLINE void end_battle(const Map& m, Pos& p, int from, int to, int committed,
                                 int survivors, int defenders) {
    const int s = p.mover;
    p.armies[from] = static_cast<uint16_t>(p.armies[from] - committed);
    if (defenders > 0) {
        p.armies[to] = static_cast<uint16_t>(defenders);
        return;
    }
    const int loser = owner_of(p, to);
    const uint64_t bit = uint64_t{1} << to;
    p.owned[loser] &= ~bit;
    p.owned[s] |= bit;
    p.armies[to] = static_cast<uint16_t>(survivors);
    p.conquered = 1;
    if (p.owned[loser] != 0) return;
    p.hand[s] |= p.hand[loser];
    p.wilds[s] = static_cast<uint8_t>(p.wilds[s] + p.wilds[loser]);
    p.hand[loser] = 0;
    p.wilds[loser] = 0;
    if (p.owned[s] == m.all) {
        p.phase = Phase::Over;
        return;
    }
    if (hand_size(p, s) >= kForcedTrade) {
        p.pending = 0;
        p.phase = Phase::Trade;
    }
}

// The next seat with starting armies left after `seat` (-1: setup is over).
GAEVAL_HD_INLINE int next_in_setup(const Pos& p, int seat) {
    for (int k = 1; k <= p.seats; ++k) {
        const int s = (seat + k) % p.seats;
        if (p.setup_left[s] > 0) return s;
    }
    return -1;
}

// ---- moves -----------------------------------------------------------------------------------

// Applies a move that rolls no dice (every act but Attack). `draw`: whether a turn that ends
// here draws its card (false for agents looking ahead).
GAEVAL_HD_INLINE void apply(const Config& c, Pos& p, const Move& mv, bool draw) {
    const Map& m = c.tables->map;
    switch (mv.act) {
        case Act::Place:
            p.armies[mv.to] = add_armies(p.armies[mv.to], mv.count);
            if (p.phase == Phase::Setup) {
                --p.setup_left[p.mover];
                const int next = next_in_setup(p, p.mover);
                if (next < 0)
                    start_turn(m, p, 0);
                else
                    p.mover = static_cast<uint8_t>(next);
            } else {
                p.pending = static_cast<uint16_t>(p.pending - mv.count);
                if (p.pending == 0) p.phase = Phase::Attack;
            }
            break;
        case Act::Trade:
            trade_set(p);
            break;
        case Act::Keep:
            p.phase = Phase::Place;
            break;
        case Act::Stop:
            p.phase = Phase::Fortify;
            break;
        case Act::Fortify:
            p.armies[mv.from] = static_cast<uint16_t>(p.armies[mv.from] - mv.count);
            p.armies[mv.to] = add_armies(p.armies[mv.to], mv.count);
            end_turn(c, p, draw);
            break;
        case Act::Pass:
            end_turn(c, p, draw);
            break;
        case Act::Attack:
            break;  // rolled by roll_attack
    }
}

// An attack rolled with the match's dice: rolls of min(3, committed armies left) dice against
// min(2, defenders) until one side is gone, then end_battle.
GAEVAL_HD_INLINE void roll_attack(const Config& c, Pos& p, const Move& mv) {
    int attackers = mv.count, defenders = p.armies[mv.to];
    while (attackers > 0 && defenders > 0) {
        const int na = min(3, attackers), nd = min(2, defenders);
        const int lost = roll_losses(p.key, p.match, p.draws, na, nd);
        ++p.draws;
        attackers -= lost;
        defenders -= min(na, nd) - lost;
    }
    end_battle(c.tables->map, p, mv.from, mv.to, mv.count, attackers, defenders);
}

// ---- the deal ---------------------------------------------------------------------------------

// Match `match` keyed by `key` dealt into p from an empty position of `seats` seats: the
// territories are shuffled (Fisher-Yates, addressed draws, in `order`: kMaxTerritories bytes)
// and dealt round the table from seat 0, one army each; the seats then place their other
// starting armies one at a time, seat 0 first.
GAEVAL_HD_INLINE void deal_into(const Map& m, int seats, uint64_t key, uint32_t match, Pos& p,
                                uint8_t* order) {
    for (int s = 0; s < kMaxSeats; ++s) {
        p.owned[s] = p.hand[s] = 0;
        p.wilds[s] = p.setup_left[s] = 0;
    }
    for (int t = 0; t < kMaxTerritories; ++t) p.armies[t] = 0;
    p.key = key;
    p.match = match;
    p.draws = 0;
    p.pending = p.trades = p.round = 0;
    p.seats = static_cast<uint8_t>(seats);
    p.mover = 0;
    p.conquered = 0;
    p.phase = Phase::Setup;
    for (int t = 0; t < m.territories; ++t) order[t] = static_cast<uint8_t>(t);
    for (int i = m.territories - 1; i > 0; --i) {
        const uint32_t r =
            philox(key, Purpose::RiskDeal, match, static_cast<uint32_t>(i), 0, 0).v[0];
        swap(order[i], order[below(r, static_cast<uint32_t>(i + 1))]);
    }
    for (int i = 0; i < m.territories; ++i) {
        p.owned[i % seats] |= uint64_t{1} << order[i];
        p.armies[order[i]] = 1;
    }
    for (int s = 0; s < seats; ++s)
        p.setup_left[s] =
            static_cast<uint8_t>(max(0, starting_armies(seats) - popcount64(p.owned[s])));
    if (p.setup_left[0] == 0) {
        const int first = next_in_setup(p, 0);
        if (first < 0)
            start_turn(m, p, 0);
        else
            p.mover = static_cast<uint8_t>(first);
    }
}

// deal_into a new position.
GAEVAL_HD_INLINE Pos deal(const Map& m, int seats, uint64_t key, uint32_t match) {
    Pos p;
    uint8_t order[kMaxTerritories];
    deal_into(m, seats, key, match, p, order);
    return p;
}

}  // namespace gaeval::risk
