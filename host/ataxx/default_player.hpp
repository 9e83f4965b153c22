// The Ataxx player `gaeval uai` runs when started with no --player: data/ataxx/default-player.json,
// compiled into gaeval (CMake copies the file's text; a manager may start gaeval from any
// folder). The file records the command that learned it.
#pragma once

namespace gaeval::ataxx {

constexpr const char* kDefaultPlayerPath = "data/ataxx/default-player.json";
// The text of data/ataxx/default-player.json at build time.
const char* default_player_text();

}  // namespace gaeval::ataxx
