// What one side of a Pac-Man game sees (the contest's per-turn input), on both roads the bots
// take: observe() cuts it from a position for the engine's matches, and the text reader parses
// the contest's stdin for `gaeval pac-bot`, so the bot sees the same thing either way. Also the
// contest's output line for a move.
//
// Contest input (Spring Challenge 2020): "width height" and `height` rows once, then per turn
// "myScore opponentScore", the visible pac count and one line per pac "pacId mine x y typeId
// speedTurnsLeft abilityCooldown" (typeId ROCK | PAPER | SCISSORS | DEAD; own pacs always,
// enemy pacs in sight, dead pacs of both sides), the visible pellet count and one line per
// pellet "x y value" (pellets in sight and every super pellet).
#pragma once

#include <istream>
#include <string>
#include <utility>
#include <vector>

#include "games/pac/map.hpp"
#include "games/pac/rules.hpp"

namespace gaeval::pac {

constexpr int kDead = 3;  // PacView::type of a dead pac

struct PacView {
    int id = 0;
    bool mine = false;
    int cell = 0;
    int type = kRock;  // kRock, kPaper, kScissors or kDead
    int speed_turns = 0;
    int cooldown = 0;
};

struct Observation {
    int turn = 0;  // turns already played
    int my_score = 0, their_score = 0;
    std::vector<PacView> pacs;
    std::vector<std::pair<int, int>> pellets;  // (cell, value)
};

// What seat `seat` sees in p (never Pos::pending): its pacs, enemy pacs in its sight, dead pacs
// of both sides, the pellets in its sight and every super pellet.
Observation observe(const Map& map, const Pos& p, int seat);

// The contest's text of the map (first lines) and of one turn's observation.
std::string initial_text(const std::vector<std::string>& rows);
std::string turn_text(const Map& map, const Observation& obs);

// Reads the contest's input from a stream: the map once, then one observation per turn.
class TextReader {
  public:
    explicit TextReader(std::istream& in) : in_(in) {}
    // The map's rows; InputError naming the line on malformed input.
    std::vector<std::string> read_map();
    // The next turn's observation, or false at the end of the input; InputError when malformed.
    bool read_turn(const Map& map, Observation* obs);

  private:
    std::string line(const char* what);
    std::istream& in_;
    int line_number_ = 0;
    int turn_ = 0;
};

// The contest's command line for `pacs` pacs (alive ones only; a waiting pac is told to move to
// its own cell): "MOVE 0 5 7 | SPEED 1 | SWITCH 2 PAPER".
std::string command_text(const Map& map, const Move& move, const std::vector<PacView>& own);

// "ROCK", "PAPER", "SCISSORS", "DEAD".
const char* type_name(int type);

}  // namespace gaeval::pac
