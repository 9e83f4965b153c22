// Flags shared by the subcommands that play a game (play, perft, learn): --game NAME picks a
// registered game (default ataxx) whose own flags (Ataxx: --board, --rules, --players, --fen)
// join the command's, and the session they open. Integer flags with range checks.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <cxxopts.hpp>
#include <nlohmann/json.hpp>

#include "host/backend/backend.hpp"
#include "host/cli/common.hpp"
#include "host/games/registry.hpp"

namespace gaeval::cli {

// The game named by --game NAME / --game=NAME in argv (ataxx when absent); InputError for a
// name that is not registered.
const games::GameEntry& game_from_args(int argc, char** argv);

// Adds --game and the game's own flags (group "Game"; hidden flags in group "Hidden").
void add_game_options(cxxopts::Options& options, const games::GameEntry& game);

// The session of the parsed flags (InputError naming the flag for a bad value).
std::unique_ptr<games::GameSession> open_game(const cxxopts::ParseResult& result,
                                              const games::GameEntry& game);

// The resolved backend; where --backend auto made a choice (a build with CUDA), its note goes
// to stderr as "gaeval <command>: <note>". Call after every input is validated.
BackendChoice start_backend(const CommonOptions& common, const std::string& command);

// The same for a run whose backend calls are batches of `games` games of `game` (one_ply: the
// default one-ply players): --backend auto chooses by the measured cost of such a batch on each
// backend (host/backend/cost_model.hpp) and says both estimates. `quiet`: nothing said.
BackendChoice start_backend_for_games(const CommonOptions& common, const std::string& command,
                                      const std::string& game, uint64_t games, bool one_ply,
                                      bool quiet);

// The fields every game result's JSON carries: command, the session's setup (game, and Ataxx's
// board, rules, players, fen), backend, threads, device, engine.
nlohmann::json game_result_json(const std::string& command, const games::GameSession& session,
                                const BackendChoice& backend);

// Arguments with the one-letter long flags `--a X` / `--a=X` (and b) respelled `--player-a`
// (cxxopts needs two letters after "--"); argv[0] unchanged.
std::vector<std::string> respell_player_flags(int argc, char** argv);

}  // namespace gaeval::cli
