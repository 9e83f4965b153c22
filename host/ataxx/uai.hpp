// An Ataxx engine speaking UAI (the Universal Ataxx Interface: UCI with "a" for "c") on stdin
// and stdout, as Ataxx tournament managers (cuteataxx and its kin) drive engines. One command
// per line (CR LF accepted, empty lines ignored):
//   uai                  -> id name / id author / option lines / uaiok
//   isready              -> readyok (also while searching)
//   setoption name depth value N   the search depth of a `go` with no limit (1..kUaiMaxDepth)
//   uainewgame           a new game: the start position, draws keyed by a new game number
//   position startpos|fen F [moves M ...]   (a full FEN every move, with no moves, is fine)
//   go [depth N] [nodes N] [movetime MS] [wtime MS btime MS winc MS binc MS movestogo N]
//      [infinite]        searches on a second thread (host/ataxx/engine.hpp); `info depth ...
//                        score cp ... nodes ... nps ... time ... pv M ...` after every
//                        completed depth, then `bestmove M`. A depth beyond kUaiMaxDepth is
//                        clamped to it and said so in an `info string` line.
//   stop                 ends the search; its bestmove follows
//   quit                 ends the engine once the running search has answered (an infinite
//                        search is stopped first)
// Moves: `f1` a grow (also `f1f1` or any 4-letter form whose squares touch), `g1e3` a jump,
// `0000` a pass. x (the first player) is black: its clock is btime/binc, o's is wtime/winc.
// Without a limit `go` searches to the player's depth (--depth, else the player file's).
// A command that changes the position, starts a search or quits while a search runs waits for
// it to end (an infinite search is stopped), so a piped script works as a manager's session
// does; `stop` ends a search at once.
// Anything malformed or illegal (an unknown command, a bad FEN, an illegal move, go in a
// finished game) is answered by one `info string error: ...` line; the engine keeps running
// and the position stays what it was before the bad command. Built-in players (random,
// capture, most-pieces) answer at once with their own choice (no search).
#pragma once

#include <cstdint>
#include <istream>
#include <memory>
#include <ostream>
#include <string>

#include "host/ataxx/engine.hpp"
#include "host/games/session.hpp"

namespace gaeval::ataxx {

constexpr int kUaiMaxDepth = kEngineMaxDepth;

struct UaiConfig {
    games::PlayerData player;  // a built-in player or a weighted player (a player file)
    int depth = 0;             // default search depth (0: the player's own)
    uint64_t seed = 1;         // key of the tie-break draws: counter (game, ply)
    bool cpu_clock = false;    // time limits count process CPU time (EngineLimits::cpu_clock)
};

class UaiEngine {
  public:
    UaiEngine(UaiConfig config, std::ostream& out);
    ~UaiEngine();  // stops and joins a running search
    UaiEngine(const UaiEngine&) = delete;
    UaiEngine& operator=(const UaiEngine&) = delete;

    // Handles one input line; false after `quit`.
    bool handle(const std::string& line);
    // Waits for a running search to end (its bestmove written).
    void wait();

  private:
    struct State;
    std::unique_ptr<State> state_;
};

// Reads commands from `in` until quit or end of input; returns when the last search is done.
void run_uai(std::istream& in, std::ostream& out, const UaiConfig& config);

}  // namespace gaeval::ataxx
