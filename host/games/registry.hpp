// The registry of games: every subcommand (play, perft, learn, bench, compare, games) finds a
// game here by name and never names one itself. An entry describes its game (GameInfo, shown by
// `gaeval games`), opens sessions from its flags or from a saved setup, and offers benchmark
// cases. Every game of games/registry.hpp that names itself (kName) gets a generic entry; others
// have host/<game>/entry.cpp (make_entry(), named by ENTRY on the game's games/games.cmake line).
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "host/games/session.hpp"

namespace gaeval::games {

// Benchmark cases a game offers to `gaeval bench` (bench/workloads.cpp runs them). A setup is a
// session's setup() (the game's fields; "game" may be left out).
struct PerftCase {
    std::string name;  // row label: "startpos", "gaps-a", ...
    nlohmann::json setup;
    int depth = 1;
    bool cuda_only = false;  // a GPU target outside the signature
    uint64_t expected = 0;   // a published count the row must match (0: none)
};
struct PlayoutCase {
    std::string name;   // "random", "weighted-vs-most-pieces"
    std::string where;  // size column of the row: "square8:7x7"
    nlohmann::json setup;
    PlayerData a, b;
    uint64_t cpu_games = 5000;  // on cpu1 and cpu (equal, so ratios compare)
    uint64_t cuda_games = 1u << 20;
};
// A game's own batch workload (Pac-Man: its bot's rollouts and generations), timed on each
// backend by the "batch" workload: one call of run() is one sample; it returns the items it
// processed and a digest of every result it computed (folded into the signature; every
// backend must give the same).
struct BatchSample {
    double items = 0;
    uint64_t digest = 0;
    std::string note;
};
struct BatchCase {
    std::string name;   // row workload: "pac rollouts"
    std::string where;  // size column: "31x15 pop=64"
    std::string unit;   // "rollouts/s"
    std::function<BatchSample(const BackendChoice&)> run;
};
struct BenchCases {
    bool in_default = false;  // part of `gaeval bench` with no arguments (and its signature)
    std::vector<PerftCase> perft;
    std::vector<PlayoutCase> playouts;
    nlohmann::json tournament_setup;  // the tournament workload's game (null: none)
    uint32_t tournament_max_plies =
        0;  // its ply cap (0: learn's default; Risk: the rules end games)
    std::vector<BatchCase> batches;
};

class GameEntry {
  public:
    virtual ~GameEntry() = default;
    virtual const GameInfo& info() const = 0;
    // A session from option values by flag name (missing ones take their defaults); InputError
    // naming the flag for a bad value.
    virtual std::unique_ptr<GameSession> open(
        const std::map<std::string, std::string>& options) const = 0;
    virtual BenchCases bench_cases() const { return {}; }

    // A session from a setup() or reopen() object (run.json, player files, bench cases);
    // InputError naming `origin` and the field.
    std::unique_ptr<GameSession> open_setup(const nlohmann::json& setup,
                                            const std::string& origin) const;

  protected:
    // The value of flag `name` in `options`, else its default in info().options ("" if none).
    std::string option(const std::map<std::string, std::string>& options,
                       const std::string& name) const;
};

// Every registered game, in listing order (Ataxx first).
const std::vector<std::unique_ptr<GameEntry>>& all_games();
// The game named `name`; InputError listing the names otherwise.
const GameEntry& find_game(const std::string& name);
// "ataxx, tictactoe".
std::string game_names();
// The game a command plays without --game: the first registered.
const GameEntry& default_game();

}  // namespace gaeval::games
