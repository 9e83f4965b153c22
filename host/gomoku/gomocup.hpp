// A Gomocup brain: the Piskvork "pbrain" protocol that Gomocup managers (Piskvork, liskvork,
// gomocup's own manager) speak on a brain's stdin/stdout, one command per line:
//   START n            -> OK (n = 15 or 20) | ERROR ...
//   RECTSTART w,h      -> OK (square and 15 or 20) | ERROR ...
//   RESTART            -> OK (a new game on the same board)
//   BEGIN              -> x,y (the brain opens)
//   TURN x,y           -> x,y (the opponent's move, then the brain's)
//   BOARD / x,y,f ... / DONE -> x,y (a whole position: f = 1 own stone, 2 opponent's, 3 a
//                         stone of a finished line in continuous games: treated as the
//                         opponent's; then the brain moves)
//   TAKEBACK x,y       -> OK (removes the stone)
//   PLAY x,y           -> x,y (the brain must play there)
//   INFO key value     -> nothing (timeout_turn, timeout_match, time_left, max_memory, rule,
//                         game_type, ... recorded; rule bit 1 = exactly five (standard), other
//                         bits (renju, caro, continuous) are answered by a MESSAGE and the
//                         nearest rule we play; unknown keys are ignored)
//   ABOUT              -> name="...", version="...", author="...", country="..."
//   END                -> the brain stops
// Coordinates are 0-based x,y (x the column). Lines may end in CR LF; empty lines are ignored.
// A malformed or impossible command (bad numbers, an occupied or off-board cell, a move before
// START) is answered by one `ERROR ...` line and the brain keeps running; an unknown command by
// `UNKNOWN ...`; text echoed from the input is quoted, its control and non-ASCII bytes written
// as \xHH, and cut after 40 characters. Every answer is flushed at once. A weighted player
// thinks within the INFO time limits (move_budget_ms) with the engine, whose transposition
// table takes half of INFO max_memory; the others answer at once. With BrainConfig::messages
// each engine move is preceded by one MESSAGE line on its search (depth, nodes, nps, PV).
#pragma once

#include <cstdint>
#include <istream>
#include <map>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "games/gomoku/board.hpp"
#include "host/games/session.hpp"
#include "host/gomoku/engine.hpp"

namespace gaeval::gomoku {

struct BrainConfig {
    games::PlayerData player;  // random, a policy, or a weighted player (a player file)
    uint64_t seed = 1;         // key of the player's draws: counter (game, stones on board)
    // A weighted player's table plays inside the clocked engine (engine.hpp) when true, as
    // the fixed-depth training player (weighted-search or the table alone) when false.
    bool clock = true;
    // With the engine: a `MESSAGE` line before each move (depth, nodes, nps, time, reason,
    // score, PV), which managers show and the match runner records.
    bool messages = false;
    // The engine's line-shape weights (engine.hpp; a player file's "shape_weights"); empty:
    // none, the learned table's value alone.
    std::vector<float> shape_weights;
    // The engine's main-search nodes a move (0: the clock alone); fixed-work games for learning.
    uint64_t max_nodes = 0;
};

// The thinking time of one move in milliseconds from the INFO values (absent: -1):
// timeout_turn (0: as fast as possible), timeout_match (0: no limit) and time_left; a safety
// margin for the answer's way out is taken off (docs/gomoku.md, "Time").
int64_t move_budget_ms(long timeout_turn, long timeout_match, long time_left);

class GomocupBrain {
  public:
    explicit GomocupBrain(BrainConfig config);

    // Handles one input line (without or with its CR / LF); appends the answer lines (none,
    // one, or a move) to `answers`. Returns false after END.
    bool handle(const std::string& line, std::vector<std::string>& answers);

    int size() const { return size_; }
    RuleSet rule() const { return rule_; }
    // 0 empty, 1 own, 2 opponent; size() * size() cells, row by row (index y * size + x).
    const std::vector<int8_t>& cells() const { return cells_; }
    const std::map<std::string, std::string>& info() const { return info_; }

  private:
    std::string start(int size);
    std::string place(const std::string& args, int8_t owner, bool* ok);
    std::string move();
    std::string info_line(const std::string& args);
    long info_number(const std::string& key) const;  // an INFO value, -1 when absent

    BrainConfig config_;
    int size_ = 0;  // 0 until START
    RuleSet rule_ = RuleSet::Freestyle;
    std::vector<int8_t> cells_;
    uint32_t game_ = 0;                     // games started (draw counter)
    std::unique_ptr<GomokuEngine> engine_;  // weighted players with clock: the search
    bool in_board_ = false;                 // between BOARD and DONE
    std::string message_;                   // the last move's MESSAGE line (config.messages)
    std::map<std::string, std::string> info_;
};

// Runs a brain on `in` until END or end of input, writing each answer line to `out` and
// flushing it at once.
void run_brain(std::istream& in, std::ostream& out, const BrainConfig& config);

}  // namespace gaeval::gomoku
