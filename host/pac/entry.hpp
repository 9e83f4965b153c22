// The registry entry of Pac-Man: flags --map FILE or a generated map (--map-seed, --width,
// --height), --pacs, --map-per-game, the bots' budget (--bot-population, --bot-generations,
// --ms) and --record DIR; players random, greedy, coevo and single; bench cases. Its session
// plays per-thread players (random, greedy) through the batch layer and matches with a
// searching bot, a recording or a map per game on the host, one match after another.
#pragma once

#include <memory>

#include "host/games/registry.hpp"

namespace gaeval::pac {

std::unique_ptr<games::GameEntry> make_entry();

}  // namespace gaeval::pac
