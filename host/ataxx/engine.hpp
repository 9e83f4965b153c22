// The Ataxx engine for play on the clock (UAI): a host-side search around the same learned
// evaluation the GA trains with (the weighted features of games/ataxx/features.hpp, seen by the
// searching seat, summed as games/core/search.hpp's weighted_score does). It does not run on
// the GPU and is not part of any training result.
//
// Search: iterative deepening, principal-variation search with aspiration windows at the root,
// a transposition table keyed by Zobrist hashes, move ordering by the hash move, two killers per
// ply, the static value of the child (or its net material near the leaves) and a history
// table. Without EngineLimits::reductions nothing is pruned beyond what alpha-beta itself
// proves: the value of a completed depth D is exactly the depth-D minimax value of the root
// (transposition entries cut off only at the same remaining depth), the value the fixed-depth
// search of games/core/search.hpp returns (tests/test_ataxx_engine.cpp checks both). With it
// (play on the clock) late moves are reduced by an even number of plies growing with depth
// and move number (late_move_reduction), a null move is tried (two plies less), moves two and
// three plies above the leaves whose child's static value is far below alpha are not searched
// (futility pruning), and null-window nodes one and two plies above the leaves whose static value
// is well above beta are not searched either (reverse futility pruning).
//
// One ply above the leaves no move list is made: the moves come in stages (hash move, then by
// pieces gained, grows before jumps), so a cutoff costs only the moves tried. The table asks
// for huge pages (its probes were a quarter of the search's time with 4 KiB pages).
//
// Evaluation: the 15 feature counts by bit-sliced neighbour counts over whole bitboards (about
// a hundred word operations per leaf instead of one loop per piece), then one table lookup per
// feature holding weight * unit value as the float product the training evaluator computes, so
// a leaf's score is the same float as games/core/search.hpp's static value.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "games/ataxx/variants.hpp"

namespace gaeval::ataxx {

// Deepest iteration (plies from the root); positions below it are never searched.
constexpr int kEngineMaxDepth = 64;
// Upper bound of the grows and jumps of one 7x7 position (jumps: at most 16 per own piece and
// per empty cell, with pieces + empty cells <= 49, so <= 16 * 24; grows <= 49).
constexpr int kEngineMaxMoves = 512;

// Plies by which the clock search (EngineLimits::reductions) first searches the move at
// `move_index` in search order (0: the first) of a node `depth` plies above the leaves: 0 for
// the first kLateMove = 3 moves and below depth 3, else ln(depth) * ln(index + 1) / 1.5 + 1
// rounded down to even, at least 2, at most depth - 1; two less (at least 2) in a full window.
int late_move_reduction(int depth, int move_index, bool null_window);

// The leaf score of a weighted player for one seat: weights[i] * unit value of feature i,
// summed in index order from 0.0f (games/core/search.hpp's weighted_score over unit_features),
// with every product read from a table built once per weights and board.
class Evaluator {
  public:
    Evaluator(const float* weights, int playable_cells);
    float score(const Square7Game& game, const Position<1, 2>& p, int seat) const;

  private:
    std::vector<float> terms_;  // [feature][count], (cells + 1) entries per feature
    int stride_;
};

struct EngineLimits {
    int depth = kEngineMaxDepth;  // deepest iteration, 1 .. kEngineMaxDepth
    uint64_t nodes = 0;           // positions made before stopping (0: none); depth 1 completes
    double soft_ms = -1;          // no new iteration starts after this (-1: no clock)
    double hard_ms = -1;          // a running iteration is abandoned at this (-1: no clock)
    // Late move reductions: deeper in the same time, but a depth's value is no longer the
    // exact minimax value (off: the value of depth D is exact).
    bool reductions = false;
    // The limits (and the times reported) count this process's CPU time instead of wall time:
    // for measuring against engines that count CPU time (clock()) on a machine shared with
    // other work, where wall time would hand them several times more computing.
    bool cpu_clock = false;
};

// After each completed depth (and once for the move played when an iteration was cut short).
struct EngineReport {
    int depth = 0;
    float value = 0.0f;  // for the side to move at the root
    uint64_t nodes = 0;  // positions made, all iterations
    double ms = 0;       // since the search began (CPU ms with EngineLimits::cpu_clock)
    std::vector<Move> pv;
};

struct EngineResult {
    Move move{};
    float value = 0.0f;  // of the deepest completed depth
    int depth = 0;       // deepest completed depth
    uint64_t nodes = 0;
    bool stopped = false;  // a limit or stop() ended an iteration early
};

// One engine per game being played; not thread-safe (the UAI loop runs one search at a time).
class Engine {
  public:
    // weights: one per feature (kFeatureCount); tt_megabytes: transposition table size.
    explicit Engine(const std::vector<float>& weights, int tt_megabytes = 64);
    ~Engine();
    Engine(const Engine&) = delete;
    Engine& operator=(const Engine&) = delete;

    // Forgets everything learned about earlier positions (a new game).
    void clear();
    // Searches `root` (not over) of `game` for its side to move. `stop` is read every 1024
    // positions (an external stop ends the search like a hard limit). `report` is called after
    // every completed depth.
    EngineResult search(const Square7Game& game, const Position<1, 2>& root,
                        const EngineLimits& limits, const std::atomic<bool>& stop,
                        const std::function<void(const EngineReport&)>& report = nullptr);

  private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace gaeval::ataxx
