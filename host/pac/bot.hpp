// The Pac-Man bots that search every turn: `coevo`, the Spring Challenge 2020 winner's design
// (two populations of plans, one for each side, evolved in alternate generations, each
// individual played against the other side's current best), and `single`, the same search with
// one population against a fixed prediction of the opponent (each enemy pac walking to its
// nearest believed pellet). docs/pac.md describes the genes, the operators, the evaluation and
// what the bot infers under fog.
//
// A bot sees only an Observation (host/pac/protocol.hpp), in the engine's matches and under the
// contest's referee alike. Each generation's rollouts are one batch::evaluate call on the
// backend (a CPU iteration or a GPU thread per individual). Every random choice is an addressed
// draw keyed by (seed, match, turn, seat, population, generation, individual, draw): with a
// budget in generations, the same seed gives the same moves on any thread count and backend;
// a budget in milliseconds (ms > 0) runs as many generations as fit, which is not reproducible.
#pragma once

#include <cstdint>
#include <vector>

#include "games/pac/game.hpp"
#include "games/pac/rollout.hpp"
#include "host/backend/backend.hpp"
#include "host/pac/protocol.hpp"

namespace gaeval::pac {

struct BotSettings {
    bool coevolution = true;  // coevo (two populations) or single (one)
    int population = 16;      // plans per population
    int generations = 12;     // batches per turn (both populations together)
    double ms = 0;            // > 0: a time budget per turn instead (at least 2 generations)
    float voronoi_weight = 0.2f;
};

class Bot {
  public:
    // `map` must outlive the bot. Draws use key `seed` and counter (match, ...).
    Bot(const Map& map, const BotSettings& settings, uint64_t seed, uint32_t match, int seat,
        const BackendChoice& backend);

    // The commands for this turn's observation (turns come in order, from turn 0).
    Move choose(const Observation& obs);

    // What the bot believes: cells that may still hold a pellet, and where it places each enemy
    // pac (cell -1: unknown or dead).
    const BB& belief() const { return belief_; }
    int enemy_cell(int k) const { return enemy_[k].known ? enemy_[k].pac.cell : -1; }
    // Where this turn's search expects enemy pac k after the turn (-1: dead or not placed): one
    // turn of the opponent's best plan (coevo) or of the greedy prediction (single).
    int predicted_cell(int k) const { return predicted_[k].alive ? predicted_[k].cell : -1; }
    uint64_t rollouts() const { return rollouts_; }
    uint64_t generations() const { return generations_; }
    // The fitness of every individual of the last generation evaluated.
    const std::vector<float>& last_fitness() const { return last_fitness_; }

  private:
    struct Enemy {
        bool known = false, dead = false;
        Pac pac;            // its believed state
        int seen_turn = 0;  // last turn it was seen (its start counts as seen)
        Pac seen;           // its state then
    };
    struct Chain {
        std::vector<int> cells;
        bool open_start = false, open_end = false;
    };

    void start(const Observation& obs);
    void update(const Observation& obs);
    void infer_path(const Enemy& before, int turn, int cell);
    void infer_corridors(const BB& seen_pellets);
    Pos believed_position(const Observation& obs) const;
    void walk(const Pos& p, int side, Plan* plan, int pac, int from, int population,
              uint32_t generation, uint32_t individual, uint32_t salt) const;
    Plan random_plan(const Pos& p, int side, int population, uint32_t individual) const;
    Plan greedy_plan(const Pos& p, int side) const;
    Plan shifted_plan(const Plan& last, const Pos& p, int side, int population) const;
    std::vector<Plan> breed(const std::vector<Plan>& parents, const std::vector<float>& fitness,
                            const Pos& p, int side, int population, uint32_t generation) const;
    RolloutOp make_op(const Pos& p, const Observation& obs) const;

    const Map& map_;
    Game game_;
    BotSettings settings_;
    uint64_t seed_;
    uint32_t match_;
    int seat_;
    BackendChoice backend_;

    bool started_ = false;
    int pacs_ = 0;
    int turn_ = 0;
    int initial_pellets_ = 0;
    BB belief_;
    BB seen_;  // cells in sight this turn
    BB supers_;
    Pac own_[kMaxPacs];
    int expected_cell_[kMaxPacs];
    Enemy enemy_[kMaxPacs];
    Pac predicted_[kMaxPacs];
    bool have_last_ = false;
    Plan last_plans_[2];
    std::vector<Chain> chains_;
    uint64_t rollouts_ = 0, generations_ = 0;
    std::vector<float> last_fitness_;
};

}  // namespace gaeval::pac
