// The Gomoku engine for play on the clock (Gomocup brains): iterative-deepening principal-
// variation search with a transposition table (Zobrist keys), candidate moves near the stones
// pruned to the few best by their move value (both sides' line shapes through the cell,
// patterns.hpp), move ordering (hash move, threat cells, killers, move value, history), forced
// replies to fours and open threes (ordered by the learned table's ranks), late move
// reductions, late move pruning 1 to 3 plies above the horizon, and threat-space search (VCF
// first, then VCT, in a fifth of the time) at the root; the answer is checked against the
// opponent's VCF and VCT. Threat patterns are kept move by move
// (patterns.hpp: the same cell sets as threats.hpp's whole-board functions). The evaluation is the
// learned player's own (the 11 rewards and K of players.hpp, unchanged from the player file, with
// its positional term):
//   - the move order at forced replies is the table's rank order (highest reward first),
//   - the leaf value is the positional term's threat potentials (4 / 2 / 1 per cell of level
//     1 / 2 / 3, the mover's minus the opponent's) plus the normalised reward of the best rank
//     the mover can reach, plus (not learned) a move-value term: both sides' sums of their
//     line shapes' move values over the empty cells (kValueTotalOwn below).
// Host only (it allocates its table and reads the clock); training keeps the fixed-depth
// GAEVAL_HD player (table_search_move), which uses the same weights.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "games/gomoku/board.hpp"

namespace gaeval::gomoku {

struct EngineLimits {
    int64_t time_ms = 0;        // thinking time for this move; 0: no clock (depth / nodes only)
    int max_depth = 64;         // deepest iteration of the main search
    uint64_t max_nodes = 0;     // main-search nodes; 0: no limit (the threat search has budgets)
    bool threat_search = true;  // root VCF / VCT, and the defence against the opponent's
    // Late move pruning: quiet nodes 1 to 3 plies above the horizon search fewer of their
    // moves by move value (engine.cpp, kLateMoves); false: every node up to kMaxScored.
    bool prune_late_moves = true;
};

struct EngineResult {
    int x = -1, y = -1;  // the move (0-based column, row)
    int score = 0;       // from the mover's view; at or above kEngineWin - 1000: a forced win
    int depth = 0;       // deepest completed iteration (0: decided before the main search)
    uint64_t nodes = 0;  // main-search and threat-search nodes
    uint64_t threat_nodes = 0;  // of which threat-search (VCF / VCT) nodes
    int seldepth = 0;           // deepest ply the main search reached
    double elapsed_ms = 0;
    std::string reason;   // five | block | vcf | vct | search | only
    std::vector<int> pv;  // cells y * size + x, the move first
};

constexpr int kEngineWin = 1000000;
// The leaf value's move-value term (issue 29's seventh round): the sum of the move values of
// every empty cell (IncrementalPatterns::value_total) of the mover times kValueTotalOwn, minus
// the opponent's times kValueTotalOpponent, divided by 16 (truncated toward zero); the
// mover, who plays next, weighs his own more.
constexpr int kValueTotalOwn = 8, kValueTotalOpponent = 4;

class GomokuEngine {
  public:
    // weights: the 12 numbers of a gomoku player (11 rewards and K). tt_entries: a power of 2.
    // shape_weights: the line-shape weights (patterns.hpp, kShapeWeightCount, rounded to
    // integers; missing ones 0); empty: no shape term, the value exactly as before.
    explicit GomokuEngine(const std::vector<float>& weights, std::size_t tt_entries = 1u << 20,
                          const std::vector<float>& shape_weights = {});
    ~GomokuEngine();
    GomokuEngine(const GomokuEngine&) = delete;
    GomokuEngine& operator=(const GomokuEngine&) = delete;

    // The move for the side to move in `cells` (size * size, row by row, index y * size + x:
    // 0 empty, 1 the mover's stone, 2 the opponent's); size 15 or 20; at least one empty cell.
    EngineResult think(int size, RuleSet rule, const std::vector<int8_t>& cells,
                       const EngineLimits& limits);
    // The engine's static value of `cells` (as in think) for the side to move: the learned
    // table's leaf value (see the header comment), from the incremental patterns.
    int evaluate(int size, RuleSet rule, const std::vector<int8_t>& cells);
    // Resizes the transposition table to the largest power of 2 of entries within `bytes`
    // (at least 4096 entries, at most 2^24), forgetting it.
    void resize_table(std::size_t bytes);
    std::size_t table_bytes() const;
    // Forgets the transposition table and history (a new game).
    void clear();

  private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace gaeval::gomoku
