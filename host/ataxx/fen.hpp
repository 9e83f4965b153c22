// Text forms of the Ataxx family, validated at the edge: board specs (`square8:7x7`, `hex:4`, ...),
// rule-set names and FEN strings (read and written). Every parse error is an InputError whose
// one-line message names the field and the rule broken. Formats: docs/ataxx.md.
#pragma once

#include <string>

#include "games/ataxx/setup.hpp"

namespace gaeval::ataxx {

// "square8:7x7", "square4:8x8", "offset:6x5", "hex:4", "tri:6"; square8/square4/offset also
// accept a single N for NxN. Throws InputError for an unknown topology, a malformed or zero
// size, or a board of more than kMaxCells cells.
Shape parse_board_spec(const std::string& text);
std::string board_spec(const Shape& shape);

// "ataxx" or "genetic-game".
RuleSet parse_rule_set(const std::string& text);
std::string rule_set_name(RuleSet rules);

// Checks the player count against the rule set (ataxx: 2; genetic-game: 2 to 4).
void check_players(RuleSet rules, int players);

// The start position: each player's pieces on the board's corners (top-left, top-right,
// bottom-right, bottom-left, in turn order; with 2 players and 4 corners, Ataxx's x5o/.../o5x).
GameSetup start_setup(const Shape& shape, RuleSet rules, int players);

// A FEN string for a board shape: ranks from the top, '/'-separated; in a rank `x`, `o`, `y`,
// `z` are players 1-4, `-` a blocked cell, a decimal number a run of empty cells; then the side
// to move, and optionally the halfmove clock and the fullmove number (default 0 and 1).
// "startpos" gives start_setup. Throws InputError naming the rank, letter or field.
GameSetup parse_fen(const std::string& fen, const Shape& shape, RuleSet rules,
                          int players);
std::string write_fen(const GameSetup& setup);

}  // namespace gaeval::ataxx
