// The Risk engine for play: a host-side search around the seed's agent (games/risk/agent.hpp),
// with the same features, weights, drafting, setup, trading and fortification, so a learned
// player file is used unchanged. It never runs on the GPU and is no part of any training result:
// the GA keeps learning with agent.hpp's fixed-depth search.
//
// Three searches over the agent's attack edges (attack_edges: the likeliest attacks at odds of
// at least the threshold):
//   Rollout (play) every root edge (stop, the attack edges) played round by round with the
//          real battle rolled by dice of a rollout key (never the match's: nothing reads a
//          future die or card), the same key for every edge of a round; then the rest of the
//          turn by the agent's depth-1 search, the fortification and every other seat's turn as
//          the reply model plays it, scored by the weighted features when the turn comes back.
//          The agent's own choice (its depth-2 search) stays unless the rollouts prefer another
//          edge by more than kRolloutConfidence standard errors of the paired difference.
//   Agent  exactly agent.hpp's paranoid alpha-beta (two outcomes per attack at the expected
//          counts; stop plays the fortification and the next seats' cards and drafting, their
//          attacks are min nodes); at a fixed depth it returns agent.hpp's value and move
//          (tests/test_risk_engine.cpp checks it on random positions and whole games).
//   Turn   an expectimax over the searching seat's own turn: `depth` counts its attack
//          edges (two outcomes each, as the agent's); every leaf (a stop, or the horizon, where
//          it is taken to stop) plays its fortification and the reply model's turns at the
//          expected survivors and is scored when the turn comes back.
// The reply model: cards, the seed's drafting, the likeliest conquest while its odds are above
// 1/2, fortification.
// Limits: rollouts:N rounds (deterministic) or rounds until a clock runs out (ms:N); the turn
// tree at a fixed depth or deepening under a node budget (each expanded child is a node; an
// iteration over the budget is dropped and the last complete one's move is played:
// deterministic).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "games/core/match.hpp"
#include "games/risk/game.hpp"

namespace gaeval::risk {

enum class EngineTree : uint8_t { Agent, Turn, Rollout };

// How long an attack decision is searched. Agent and Turn: `depth` > 0 searches that depth
// only; else iterative deepening up to kEngineMaxDepth while `nodes` (> 0) allows. Rollout:
// `depth` rounds, or (depth 0) rounds until `ms` milliseconds pass (at least one).
struct EngineLimits {
    EngineTree tree = EngineTree::Turn;
    int depth = 0;
    int64_t nodes = 0;
    double ms = 0;
    int agent_depth = 2;  // rollouts: the depth of the agent's search they may overrule
};

constexpr int kEngineMaxDepth = 16;

struct EngineResult {
    Move move;
    int edge = 0;       // 0: stop; k: the attack edges[k - 1] of attack_edges
    float value = 0;    // of the deepest complete iteration
    int depth = 0;      // deepest complete iteration
    int64_t nodes = 0;  // children expanded, all iterations
};

class Engine {
  public:
    Engine(const Config& config, const float* weights);

    // The engine's move in p (a game not over, any phase): the agent's planned move outside the
    // attacks, the only move when there is one, else the search's.
    Move choose(const Pos& p, const EngineLimits& limits, EngineResult* result = nullptr);
    // The search of an attack decision (p.phase == Attack) under `limits`.
    EngineResult search(const Pos& p, const EngineLimits& limits);
    // The turn tree's leaf value of p (an attack decision of `us`): stop there, the reply
    // model's turns, then the weighted features of `us`.
    float reply_value(const Pos& p, int us);
    // The end-game rules of the rollouts and the turn tree (docs/risk.md, "The end game"): in
    // p (an attack decision), whether they decide, and then their move.
    bool endgame_move(const Pos& p, Move* move);
    // The share of samples (rollout dice) in which the finishing line of p (the likeliest
    // conquest while any attack is left) wins the game this turn.
    float finish_share(const Pos& p);
    // Follows the game (choose calls it at every attack decision): counts the turns in which an
    // opponent put armies where the reply model never does (off_model()).
    void observe(const Pos& p);
    int off_model() const { return off_model_; }

  private:
    float agent_node(const Pos& p, int depth, float alpha, float beta, int* best_edge);
    float agent_child(const Pos& p, const Edge* edges, int k, bool won, int depth, float alpha,
                      float beta);
    float turn_node(const Pos& p, int depth, int* best_edge);
    float rollout(const Pos& p, const Move& first, uint64_t key, bool random_replies);
    EngineResult rollout_search(const Pos& p, int samples, double deadline, int agent_depth);
    bool out_of_budget();

    Config config_;
    float weights_[kFeatureCount];
    int us_ = 0;
    int64_t nodes_ = 0, node_limit_ = 0;
    double deadline_ = 0;
    bool aborted_ = false, budget_active_ = false;
    // The opponents' model (observe): the first attack decision of the last turn seen, and
    // how many turns showed an opponent off the reply model.
    Pos seen_{};
    bool seen_valid_ = false;
    int off_model_ = 0;
};

// One side of an engine match: a built-in or weighted player, played by the engine when
// `engine` (then `player` is a weighted player: its weights).
struct EngineSide {
    Player<Game> player;
    bool engine = false;
    EngineLimits limits;
};

// Parses an --engine-a/--engine-b value: "rollouts:N" (1 to 100000 rounds) or "ms:N" (1 to
// 600000) for rollouts, "depth:N" (1 to kEngineMaxDepth) or "nodes:N" (1 to 10^9) for the turn
// tree, "agent:N" (1 to kMaxSearchDepth) for the agent's tree. InputError naming `flag`
// otherwise.
EngineLimits parse_engine_limits(const std::string& text, const std::string& flag);

// Games first .. first+games-1 between A and B as games::play numbers them (A in seat
// i mod seats of game i, dice keyed by seed and i), on `threads` threads (>= 1); the same
// records on any thread count when neither side plays on the clock.
std::vector<GameRecord> play_engine_games(const Game& game, const Pos& start, const EngineSide& a,
                                          const EngineSide& b, uint64_t first, uint64_t games,
                                          uint64_t seed, uint32_t max_plies, int threads);

}  // namespace gaeval::risk
