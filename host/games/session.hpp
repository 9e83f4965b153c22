// A game as the subcommands see it: what it supports (GameInfo), and a session (one game with
// one start position) that plays batches and counts perft on a backend. A session hides the
// compiled game type behind a host-side interface; TypedSession<G> implements it once for every
// game of the interface (games/core/game.hpp) over the batch layer (host/batch/batch.hpp), so a
// game needs no code here. Sessions come from the registry (host/games/registry.hpp).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "games/core/match.hpp"
#include "games/core/players.hpp"
#include "host/backend/backend.hpp"
#include "games/core/perft.hpp"
#include "host/batch/batch.hpp"
#include "host/core/error.hpp"

namespace gaeval::games {

// A flag of a game's own (`--board` for Ataxx), with its default; flags take a value unless
// `is_switch` (present or not). Hidden flags are left out of --help.
struct GameOption {
    std::string name, help, default_value;
    bool is_switch = false;
    bool hidden = false;
};

// More verification for `gaeval learn` on another setup of the game (Risk: 3 to 6 seats): the
// best member plays each opponent there, A in seat i mod seats of game i, the opponent in every
// other seat. `options` override the learning session's setup; rows are "<opponent> <label>".
struct VerifyTable {
    std::string label;
    std::map<std::string, std::string> options;
    std::vector<std::string> opponents;  // built-in player names
};

// What `gaeval games` lists and every subcommand consults.
struct GameInfo {
    std::string name, summary;
    int min_seats = 2, max_seats = 2;
    std::vector<std::string> weight_names;  // of the weighted player, in weight order
    std::string weighted_player;            // how the weighted player uses its weights
    // Player files of version 1 (features as raw counts) are read with weight i multiplied by
    // factor i, the same player on today's features in [0, 1]; empty: the coding did not change.
    std::vector<float> version1_weight_factors;
    std::vector<std::string> policy_names;  // built-in policies 1..N (besides random)
    bool perft = false;
    std::vector<GameOption> options;
    // `gaeval learn` flags whose default differs for this game, by flag name without the dashes
    // ({"scheme": "ten-tournaments", "population": "100"}); a flag the user gives wins.
    std::map<std::string, std::string> learn_defaults;
    // Where `gaeval learn --init game` starts the weighted player from (one per weight name;
    // empty: the game offers none).
    std::vector<float> initial_weights;
    std::vector<VerifyTable> verify_tables;
};

// A player as data, game-independent: the session checks it against its game.
struct PlayerData {
    PlayerKind kind = PlayerKind::Random;
    int policy = 0;              // PlayerKind::Policy: 1..policy count
    int depth = 1;               // plies a weighted player looks ahead
    std::vector<float> weights;  // PlayerKind::Weighted: one per weight name
    std::string label;           // how the user named it ("random", "capture", a file)
};

class GameSession {
  public:
    virtual ~GameSession() = default;
    const GameInfo& info() const { return info_; }
    // The fields that name the game and its start position ({"game": ..., "board": ...}):
    // results, run.json and player files carry them; the registry reopens a session from them.
    const nlohmann::json& setup() const { return setup_; }
    // Which compiled variant serves the session ("square7 fast path"; the game name otherwise).
    const std::string& engine() const { return engine_; }
    // The switches that chose the engine (Ataxx's --generic: true), as given to the session.
    const nlohmann::json& reopen_switches() const { return engine_options_; }
    // setup() plus the switches that chose the engine (Ataxx's --generic): what reopens exactly
    // this session (run.json of learn).
    nlohmann::json reopen() const {
        nlohmann::json all = setup_;
        for (const auto& [key, value] : engine_options_.items()) all[key] = value;
        return all;
    }
    virtual int seats() const = 0;
    // A phrase for result lines: "on square8:7x7, ataxx rules, 2 players" (default "of NAME").
    const std::string& description() const { return description_; }
    void set_description(std::string text) { description_ = std::move(text); }

    // Leaf count of the move tree to `depth` from the start; InputError when the game has none.
    virtual uint64_t perft(int depth, const BackendChoice& backend) const = 0;
    // A session for each child of the start position, in move order (none when it is over).
    virtual std::vector<std::unique_ptr<GameSession>> children() const = 0;
    // Perft of each child of the start, in move order (depth >= 1).
    virtual std::vector<uint64_t> perft_divide(int depth, const BackendChoice& backend) const = 0;
    // Games first .. first+games-1 of a batch between A and B (game i: A in seat i mod seats,
    // draws keyed by seed and i); records[k] is game first + k.
    virtual std::vector<GameRecord> play(const PlayerData& a, const PlayerData& b, uint64_t first,
                                         uint64_t games, uint64_t seed, uint32_t max_plies,
                                         const BackendChoice& backend) const = 0;
    // A tournament batch: records[i] is game i between players[pairings[i].a] and [.b].
    virtual std::vector<GameRecord> play_pairings(const std::vector<PlayerData>& players,
                                                  const std::vector<Pairing>& pairings,
                                                  uint64_t seed, uint32_t max_plies,
                                                  const BackendChoice& backend) const = 0;
    // A batch gathered from several tournaments: records[i] is game keys[i].index of a batch
    // keyed by keys[i].seed between players[pairings[i].a] and [.b], in one backend call
    // (TypedSession). The default plays each run of games keyed (seed, 0), (seed, 1), ... with
    // play_pairings, one call each; std::invalid_argument for keys not of that shape.
    virtual std::vector<GameRecord> play_keyed_pairings(const std::vector<PlayerData>& players,
                                                        const std::vector<Pairing>& pairings,
                                                        const std::vector<GameKey>& keys,
                                                        uint32_t max_plies,
                                                        const BackendChoice& backend) const;

  protected:
    GameSession(GameInfo info, nlohmann::json setup, std::string engine,
                nlohmann::json engine_options)
        : info_(std::move(info)),
          setup_(std::move(setup)),
          engine_(std::move(engine)),
          engine_options_(std::move(engine_options)),
          description_("of " + info_.name) {}

  private:
    GameInfo info_;
    nlohmann::json setup_;
    std::string engine_;
    nlohmann::json engine_options_;
    std::string description_;
};

// The session of one compiled game type G with a start position. `owner` keeps alive whatever
// the game points at (Ataxx's board tables).
template <class G>
class TypedSession final : public GameSession {
  public:
    using Pos = typename G::Pos;
    TypedSession(GameInfo info, nlohmann::json setup, std::string engine, const G& game,
                 const Pos& start, std::shared_ptr<const void> owner = nullptr,
                 nlohmann::json engine_options = nlohmann::json::object())
        : GameSession(std::move(info), std::move(setup), std::move(engine),
                      std::move(engine_options)),
          game_(game),
          start_(start),
          owner_(std::move(owner)) {}

    int seats() const override { return game_.seats(start_); }

    uint64_t perft(int depth, const BackendChoice& backend) const override {
        if constexpr (has_perft_v<G>) {
            return batch::perft(game_, start_, depth, backend);
        } else {
            throw InputError("perft: " + info().name + " has no perft");
        }
    }
    std::vector<uint64_t> perft_divide(int depth, const BackendChoice& backend) const override {
        if constexpr (has_perft_v<G>) {
            return batch::perft_divide(game_, start_, depth, backend);
        } else {
            throw InputError("perft: " + info().name + " has no perft");
        }
    }
    std::vector<std::unique_ptr<GameSession>> children() const override {
        std::vector<std::unique_ptr<GameSession>> out;
        for_each_child(game_, start_, [&](const Pos& child) {
            out.push_back(std::make_unique<TypedSession>(info(), setup(), engine(), game_, child,
                                                         owner_, reopen_switches()));
        });
        return out;
    }
    std::vector<GameRecord> play(const PlayerData& a, const PlayerData& b, uint64_t first,
                                 uint64_t games, uint64_t seed, uint32_t max_plies,
                                 const BackendChoice& backend) const override {
        return batch::play(game_, start_, typed(a), typed(b), first, games, seed, max_plies,
                           backend);
    }
    std::vector<GameRecord> play_pairings(const std::vector<PlayerData>& players,
                                          const std::vector<Pairing>& pairings, uint64_t seed,
                                          uint32_t max_plies,
                                          const BackendChoice& backend) const override {
        std::vector<Player<G>> typed_players;
        typed_players.reserve(players.size());
        for (const PlayerData& p : players) typed_players.push_back(typed(p));
        return batch::play_pairings(game_, start_, typed_players, pairings, seed, max_plies,
                                    backend);
    }
    std::vector<GameRecord> play_keyed_pairings(const std::vector<PlayerData>& players,
                                                const std::vector<Pairing>& pairings,
                                                const std::vector<GameKey>& keys,
                                                uint32_t max_plies,
                                                const BackendChoice& backend) const override {
        std::vector<Player<G>> typed_players;
        typed_players.reserve(players.size());
        for (const PlayerData& p : players) typed_players.push_back(typed(p));
        return batch::play_keyed_pairings(game_, start_, typed_players, pairings, keys, max_plies,
                                          backend);
    }

    const G& game() const { return game_; }
    const Pos& start() const { return start_; }

  private:
    // The typed player; std::invalid_argument for a policy or weights the game does not have
    // (players are checked against GameInfo where they are read).
    Player<G> typed(const PlayerData& p) const {
        Player<G> out;
        out.kind = p.kind;
        out.depth = static_cast<uint8_t>(p.depth);
        if (p.kind == PlayerKind::Policy) {
            if (p.policy < 1 || p.policy > G::kPolicyCount)
                throw std::invalid_argument("player policy out of range for " + info().name);
            out.policy = static_cast<uint8_t>(p.policy);
        } else if (p.kind == PlayerKind::Weighted) {
            if (G::kWeightCount == 0 || p.weights.size() != std::size_t(G::kWeightCount))
                throw std::invalid_argument("player weights do not fit " + info().name);
            for (int i = 0; i < G::kWeightCount; ++i) out.weights[i] = p.weights[i];
        }
        return out;
    }

    G game_;
    Pos start_;
    std::shared_ptr<const void> owner_;
};

}  // namespace gaeval::games
