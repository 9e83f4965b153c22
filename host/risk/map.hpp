// Risk maps and the tables the game reads (games/risk/rules.hpp: Map, Odds, Tables).
//
// A map is a JSON file (docs/risk.md; data/risk/classic.json is the classic board, compiled
// into gaeval):
//   {"format": "gaeval-risk-map", "version": 1, "name": "...",
//    "continents": [{"name": "Europe", "bonus": 5}, ...],
//    "territories": [{"name": "Iceland", "continent": "Europe",
//                     "borders": ["Greenland", "Great Britain", "Scandinavia"]}, ...]}
// Checked at the edge, every error one line naming the file and the field: 2 to 64 territories
// and 1 to 16 continents with unique non-empty names, bonuses integers from 0 to 1000, every
// territory in a known continent and every continent with a territory, borders naming other
// territories once each and listed on both sides, and one connected board.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "games/risk/rules.hpp"

namespace gaeval::risk {

// The names of a map's territories and continents (host only).
struct MapNames {
    std::string name;  // the map's "name"
    std::vector<std::string> territories, continents;
};

// Parses and checks map text; `origin` names it in errors (InputError).
void parse_map(const std::string& text, const std::string& origin, Map* map, MapNames* names);

// The text of data/risk/classic.json as compiled into gaeval.
const char* classic_map_text();

// The tables of a map: "classic" or a map file's path (InputError for a bad file), with the
// exact battle odds.
std::shared_ptr<Tables> load_tables(const std::string& spec, MapNames* names = nullptr);

// Exact battle odds for 0 .. kOddsSize-1 committed armies and defenders: the one-roll outcome
// probabilities by enumerating every die (attacker_losses), then the battle to its end by
// dynamic programming in double precision.
void compute_odds(Odds* odds);

// The probabilities of one roll of na attacking dice (1..3) against nd defending dice (1..2):
// out[i] = P(the attacker loses i armies), i = 0 .. min(na, nd); by enumerating all 6^(na+nd)
// rolls. Also returns the count of rolls per outcome in counts (may be null).
void roll_odds(int na, int nd, double* out, long* counts);

}  // namespace gaeval::risk
