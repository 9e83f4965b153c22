// Games of the registry (`gaeval games` lists them) through the public API: perft, and batches of
// games between players, as `gaeval perft` and `gaeval learn` play them.
//
//   gaeval::Game ataxx = gaeval::Game::open("ataxx");                   // default options
//   uint64_t nodes = ataxx.perft(4, gaeval::Backend::cpu());           // 155888
//   (tests/data/ataxx_perft.md) std::vector<gaeval::GamePlayer> players =
//   {gaeval::GamePlayer::weighted(w), gaeval::GamePlayer::random()};
//   std::vector<gaeval::GamePairing> pairings = {{0, 1, 0}, {1, 0, 0}};
//   std::vector<gaeval::GameResult> r = ataxx.play_pairings(players, pairings, 7, 400, cpu);
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "backend.hpp"
#include "pile_in.hpp"  // BetweenPieces

namespace gaeval {

// A player as data: random moves, one of the game's built-in policies (1..policy count), or the
// game's weighted player (one weight per Game::weight_names(), looking `depth` plies ahead).
struct GamePlayer {
    enum class Kind { Random = 0, Policy = 1, Weighted = 2 };
    Kind kind = Kind::Random;
    int policy = 0;
    int depth = 1;
    std::vector<float> weights;

    static GamePlayer random() { return GamePlayer{}; }
    static GamePlayer builtin(int policy) { return GamePlayer{Kind::Policy, policy, 1, {}}; }
    static GamePlayer weighted(std::vector<float> weights, int depth = 1) {
        return GamePlayer{Kind::Weighted, 0, depth, std::move(weights)};
    }
};

// Game i of a batch: players[a] against players[b], a in seat a_seat (the others fill the rest).
struct GamePairing {
    uint32_t a = 0, b = 0;
    uint8_t a_seat = 0;
};

// What game i of a batch came to, from a's side.
struct GameResult {
    uint32_t plies = 0;
    int8_t a_seat = 0;
    int8_t winner = -1;      // seat, -1 for a draw
    int8_t a_result = 0;     // -1 loss, 0 draw, 1 win
    bool stopped = false;    // the ply cap ended the game before its rules did
    uint64_t move_hash = 0;  // a hash of the moves played (equal on every backend)
};

// A learning run of `gaeval learn` (docs/learn.md): the scheme, its population and generations,
// the seed, the ply cap and the weighted player's search depth; 0 or "" take the game's learn
// defaults (`gaeval games`), else the scheme's.
struct LearnSettings {
    std::string scheme;
    uint32_t population = 0;
    uint32_t generations = 10;
    uint64_t seed = 1;
    uint32_t max_plies = 400;
    uint32_t depth = 1;
};

// What a generation of a learning run came to (generations.csv's columns).
struct LearnGeneration {
    uint32_t generation = 0;  // generations completed (1-based)
    double best_value = 0, mean_value = 0;
    std::vector<float> best_weights;  // one per Game::weight_names()
    uint64_t games = 0, plies = 0;    // played this generation
};

// Called after every generation; return false to stop the run there.
using OnGeneration = std::function<bool(const LearnGeneration&)>;

class Game {
  public:
    // The registered game `name` with its options by flag name ({"board": "square8:7x7"} for Ataxx;
    // `gaeval games` lists them); InputError naming the game or the option otherwise.
    static Game open(const std::string& name,
                     const std::map<std::string, std::string>& options = {});
    // Every registered game's name, in listing order.
    static std::vector<std::string> names();

    std::string name() const;
    std::string description() const;  // the game's one-line summary
    int seats() const;
    std::vector<std::string> weight_names() const;  // of the weighted player
    std::vector<std::string> policy_names() const;  // built-in policies 1..N
    std::vector<float> initial_weights() const;     // where `gaeval learn --init game` starts
    bool has_perft() const;

    // Leaf count of the move tree from the start position to `depth` (>= 0); exact on any
    // backend; InputError when the game has no perft or depth is negative.
    uint64_t perft(int depth, const Backend& backend) const;

    // A batch: result i is game i (draws keyed by `seed` and i) between players[pairings[i].a]
    // and players[pairings[i].b], capped at max_plies plies (a running game is scored as it
    // stands). The same games `gaeval learn` plays for the same players, seed and cap. Played in
    // pieces of 2^16 games, `between_pieces` between them. InputError for a player the game does
    // not have or a pairing out of range.
    std::vector<GameResult> play_pairings(const std::vector<GamePlayer>& players,
                                          const std::vector<GamePairing>& pairings, uint64_t seed,
                                          uint32_t max_plies, const Backend& backend,
                                          const BetweenPieces& between_pieces = {}) const;

    // Learns the weighted player's weights as `gaeval learn` does for the same settings (the same
    // generations: the scheme's step over this backend's batches), calling on_generation after
    // each; returns the last generation's best weights. InputError for bad settings.
    std::vector<float> learn(const LearnSettings& settings, const Backend& backend,
                             const OnGeneration& on_generation = {}) const;

    struct Impl;
    const Impl& impl() const { return *impl_; }

  private:
    explicit Game(std::shared_ptr<const Impl> impl) : impl_(std::move(impl)) {}
    std::shared_ptr<const Impl> impl_;
};

}  // namespace gaeval
