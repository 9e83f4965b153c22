// The registry entry of the Ataxx family: flags --board, --rules, --players, --fen (and the
// hidden --generic: the per-cell tables even where the 7x7 fast path applies), the compiled
// variant that serves a setup, the feature and policy names of player files, and the bench cases.
#pragma once

#include <memory>
#include <string>

#include "games/ataxx/setup.hpp"
#include "host/games/registry.hpp"

namespace gaeval::ataxx {

std::unique_ptr<games::GameEntry> make_entry();

// The session of a setup (the variant that serves it: the 7x7 fast path unless `generic`).
std::unique_ptr<games::GameSession> open_session(const GameSetup& setup, bool generic = false);

// Human-readable name of the variant a setup runs on ("square7 fast path", "table W=2 P=4").
std::string variant_name(const GameSetup& setup, bool generic = false);

// The file-format name of feature i ("own_pieces", ...); i in [0, kFeatureCount).
const char* feature_name(int i);

}  // namespace gaeval::ataxx
