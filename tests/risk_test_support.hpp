// Helpers shared by the Risk tests: games on the classic map and on a small test map, blank
// positions to build by hand, and the CPU backend.
#pragma once

#include <cstring>
#include <memory>
#include <string>

#include "games/risk/game.hpp"
#include "host/backend/backend.hpp"
#include "host/risk/map.hpp"

namespace gaeval::risk::testing {

// Eight territories, three continents:
//   W0 - W1 - N0 - N1
//   |    |    |    |
//   W2 - W3 - S0 - S1
// West (W0..W3) bonus 3, North (N0, N1) bonus 2, South (S0, S1) bonus 1.
inline const char* small_map_text() {
    return R"({"format": "gaeval-risk-map", "version": 1, "name": "small",
  "continents": [{"name": "West", "bonus": 3}, {"name": "North", "bonus": 2},
                 {"name": "South", "bonus": 1}],
  "territories": [
    {"name": "W0", "continent": "West", "borders": ["W1", "W2"]},
    {"name": "W1", "continent": "West", "borders": ["W0", "W3", "N0"]},
    {"name": "W2", "continent": "West", "borders": ["W0", "W3"]},
    {"name": "W3", "continent": "West", "borders": ["W1", "W2", "S0"]},
    {"name": "N0", "continent": "North", "borders": ["W1", "N1", "S0"]},
    {"name": "N1", "continent": "North", "borders": ["N0", "S1"]},
    {"name": "S0", "continent": "South", "borders": ["W3", "N0", "S1"]},
    {"name": "S1", "continent": "South", "borders": ["S0", "N1"]}]})";
}
enum SmallTerritory { W0, W1, W2, W3, N0, N1, S0, S1 };

// A game with its tables (owned here).
struct Fixture {
    std::shared_ptr<Tables> tables;
    Game game;
    explicit Fixture(bool small = false, float threshold = 0.5f, int turn_cap = 100) {
        if (small) {
            tables = std::make_shared<Tables>();
            parse_map(small_map_text(), "small map", &tables->map, nullptr);
            compute_odds(&tables->odds);
        } else {
            tables = load_tables("classic");
        }
        game.config.tables = tables.get();
        game.config.threshold = threshold;
        game.config.turn_cap = turn_cap;
    }
    const Map& map() const { return tables->map; }
};

// A position with `seats` seats, nothing owned, no cards, seat 0 to attack; fill it by hand.
inline Pos blank(int seats, uint64_t key = 1) {
    Pos p;
    std::memset(&p, 0, sizeof p);
    p.seats = static_cast<uint8_t>(seats);
    p.key = key;
    p.phase = Phase::Attack;
    return p;
}

// Gives territory t to seat s with `armies` armies.
inline void put(Pos& p, int t, int s, int armies) {
    for (int o = 0; o < kMaxSeats; ++o) p.owned[o] &= ~(uint64_t{1} << t);
    p.owned[s] |= uint64_t{1} << t;
    p.armies[t] = static_cast<uint16_t>(armies);
}

inline BackendChoice cpu(int threads) { return resolve_backend("cpu", threads); }

}  // namespace gaeval::risk::testing
