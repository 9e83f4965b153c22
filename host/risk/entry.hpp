// The registry entry of Risk: flags --map (classic or a map file), --players, --turn-cap and
// --threshold, the player and weight names, the bench cases and the seed's learn defaults.
#pragma once

#include <memory>
#include <string>

#include "games/risk/game.hpp"
#include "host/games/registry.hpp"

namespace gaeval::risk {

std::unique_ptr<games::GameEntry> make_entry();

}  // namespace gaeval::risk
