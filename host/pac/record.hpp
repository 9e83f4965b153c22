// --record DIR of `gaeval play --game pac`: each match as JSON (match-NNNN.json) and one
// self-contained HTML replay viewer (replay.html: every recorded match embedded, a map, the
// pacs, the pellets, a turn slider; no network).
//
// Match JSON: {"format": "gaeval-pac-match", "version": 1, "index", "seed", "players" (by
// seat), "width", "height", "map" (rows), "pacs", "super_pellets" and "pellets" ([x, y] at the
// start), "turns": [{"turn", "score": [s0, s1], "pacs": [[{"x", "y", "type", "speed_turns",
// "cooldown", "alive"}, ...] per seat], "eaten": [[x, y], ...]}] (turn 0 is the start),
// "result": {"score", "winner" (seat or -1), "stopped"}}.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "games/core/match.hpp"
#include "host/pac/map_io.hpp"
#include "host/pac/match.hpp"

namespace gaeval::pac {

nlohmann::json match_json(const Map& map, const Setup& setup, const Pos& start, const MatchLog& log,
                          const std::string players[2], uint64_t seed, uint32_t index,
                          const GameRecord& record);

// The viewer page with the matches embedded.
std::string replay_html(const std::vector<nlohmann::json>& matches);

}  // namespace gaeval::pac
