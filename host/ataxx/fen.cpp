#include "host/ataxx/fen.hpp"

#include <cctype>
#include <sstream>
#include <vector>

#include "host/core/error.hpp"

namespace gaeval::ataxx {

namespace {

constexpr char kPlayerLetters[] = "xoyz";

struct TopologyName {
    Topology topology;
    const char* name;
    bool rectangular;
};
const TopologyName kTopologies[] = {
    {Topology::Square8, "square8", true}, {Topology::Square4, "square4", true},
    {Topology::Hex, "hex", false},        {Topology::Tri, "tri", false},
    {Topology::Offset, "offset", true},
};

// A positive decimal integer of at most 4 digits, or -1.
int parse_size(const std::string& text) {
    if (text.empty() || text.size() > 4) return -1;
    for (char c : text)
        if (!std::isdigit(static_cast<unsigned char>(c))) return -1;
    const int value = std::stoi(text);
    return value >= 1 ? value : -1;
}

// The whole of `text` as a non-negative integer <= max, or -1.
long parse_counter(const std::string& text, long max) {
    if (text.empty() || text.size() > 10) return -1;
    for (char c : text)
        if (!std::isdigit(static_cast<unsigned char>(c))) return -1;
    const long value = std::stol(text);
    return value <= max ? value : -1;
}

std::vector<std::string> split(const std::string& text, char separator) {
    std::vector<std::string> parts;
    std::string::size_type start = 0;
    while (true) {
        const auto end = text.find(separator, start);
        parts.push_back(text.substr(start, end == std::string::npos ? end : end - start));
        if (end == std::string::npos) return parts;
        start = end + 1;
    }
}

std::string player_letters(int players) { return std::string(kPlayerLetters, players); }

std::string letter_list(int players) {
    std::string list;
    for (int i = 0; i < players; ++i) {
        if (i) list += i + 1 == players ? " or " : ", ";
        list += kPlayerLetters[i];
    }
    return list;
}

}  // namespace

Shape parse_board_spec(const std::string& text) {
    const auto colon = text.find(':');
    const std::string name = text.substr(0, colon);
    const TopologyName* topology = nullptr;
    for (const auto& t : kTopologies)
        if (name == t.name) topology = &t;
    if (!topology)
        throw InputError("--board '" + text + "': unknown topology '" + name +
                         "' (expected square8, square4, hex, tri or offset, e.g. square8:7x7)");
    if (colon == std::string::npos)
        throw InputError("--board '" + text + "': missing size (e.g. " + name +
                         (topology->rectangular ? ":7x7)" : ":4)"));
    const std::string size = text.substr(colon + 1);
    Shape shape;
    shape.topology = topology->topology;
    if (topology->rectangular) {
        const auto x = size.find('x');
        shape.width = parse_size(size.substr(0, x));
        shape.height = x == std::string::npos ? shape.width : parse_size(size.substr(x + 1));
        if (shape.width < 1 || shape.height < 1)
            throw InputError("--board '" + text + "': size must be WxH or N with positive " +
                             "integers (e.g. " + name + ":7x7)");
    } else {
        shape.width = shape.height = parse_size(size);
        if (shape.width < 1)
            throw InputError("--board '" + text +
                             "': " + (shape.topology == Topology::Hex ? "radius" : "side") +
                             " must be a positive integer (e.g. " + name + ":4)");
    }
    // Sizes have at most 4 digits, so the count fits an int.
    const int cells = shape_cells(shape);
    if (cells > kMaxCells)
        throw InputError("--board '" + text + "': " + std::to_string(cells) +
                         " cells; the largest bitboard holds " + std::to_string(kMaxCells));
    return shape;
}

std::string board_spec(const Shape& shape) {
    for (const auto& t : kTopologies) {
        if (t.topology != shape.topology) continue;
        if (t.rectangular)
            return std::string(t.name) + ":" + std::to_string(shape.width) + "x" +
                   std::to_string(shape.height);
        return std::string(t.name) + ":" + std::to_string(shape.width);
    }
    return "unknown";
}

RuleSet parse_rule_set(const std::string& text) {
    if (text == "ataxx") return RuleSet::Ataxx;
    if (text == "genetic-game") return RuleSet::GeneticGame;
    throw InputError("--rules '" + text + "': unknown rule set (expected ataxx or genetic-game)");
}

std::string rule_set_name(RuleSet rules) {
    return rules == RuleSet::Ataxx ? "ataxx" : "genetic-game";
}

void check_players(RuleSet rules, int players) {
    if (rules == RuleSet::Ataxx && players != 2)
        throw InputError("--players " + std::to_string(players) +
                         ": the ataxx rules are for 2 players (use --rules genetic-game for 3-4)");
    if (players < 2 || players > kMaxPlayers)
        throw InputError("--players " + std::to_string(players) + ": expected 2 to 4");
}

namespace {

GameSetup empty_setup(const Shape& shape, RuleSet rules, int players) {
    GameSetup s;
    s.shape = shape;
    s.rules = rules;
    s.players = static_cast<uint8_t>(players);
    for (auto& c : s.cell) c = kEmptyCell;
    return s;
}

}  // namespace

GameSetup start_setup(const Shape& shape, RuleSet rules, int players) {
    check_players(rules, players);
    GameSetup s = empty_setup(shape, rules, players);
    const int rows = shape_rows(shape);
    const int top = rows - 1;
    const int candidates[4] = {shape_cell(shape, top, 0),
                               shape_cell(shape, top, shape_row_length(shape, top) - 1),
                               shape_cell(shape, 0, shape_row_length(shape, 0) - 1),
                               shape_cell(shape, 0, 0)};
    std::vector<int> corners;
    for (int c : candidates) {
        bool seen = false;
        for (int d : corners) seen = seen || d == c;
        if (!seen) corners.push_back(c);
    }
    const int used = static_cast<int>(corners.size()) / players * players;
    if (used == 0)
        throw InputError("board " + board_spec(shape) + " has " + std::to_string(corners.size()) +
                         " corner(s): no start position for " + std::to_string(players) +
                         " players (give --fen)");
    for (int k = 0; k < used; ++k) s.cell[corners[k]] = static_cast<int8_t>(k % players);
    return s;
}

GameSetup parse_fen(const std::string& fen, const Shape& shape, RuleSet rules, int players) {
    check_players(rules, players);
    std::istringstream in(fen);
    std::vector<std::string> fields;
    for (std::string f; in >> f;) fields.push_back(f);
    if (fields.size() == 1 && fields[0] == "startpos") return start_setup(shape, rules, players);
    if (fields.size() != 2 && fields.size() != 4)
        throw InputError("FEN '" + fen + "': expected 4 fields (board, side, halfmove, fullmove)" +
                         " or 2 (board, side), got " + std::to_string(fields.size()));
    GameSetup s = empty_setup(shape, rules, players);
    const std::string board = board_spec(shape);
    const std::vector<std::string> ranks = split(fields[0], '/');
    const int rows = shape_rows(shape);
    if (static_cast<int>(ranks.size()) != rows)
        throw InputError("FEN '" + fields[0] + "': " + std::to_string(ranks.size()) +
                         " ranks, board " + board + " has " + std::to_string(rows));
    const std::string letters = player_letters(players);
    for (int i = 0; i < rows; ++i) {
        const int row = rows - 1 - i;  // FEN lists the top row first
        const int length = shape_row_length(shape, row);
        const std::string& rank = ranks[i];
        const std::string where = "FEN rank " + std::to_string(i + 1) + " '" + rank + "'";
        int col = 0;
        for (std::size_t k = 0; k < rank.size();) {
            const char ch = rank[k];
            if (std::isdigit(static_cast<unsigned char>(ch))) {
                std::size_t end = k;
                while (end < rank.size() && std::isdigit(static_cast<unsigned char>(rank[end])))
                    ++end;
                const int run = parse_size(rank.substr(k, end - k));
                if (run < 1) throw InputError(where + ": bad run of empty cells");
                col += run;
                k = end;
                if (col > length) break;
                continue;
            }
            int8_t content;
            if (ch == '-') {
                content = kBlockedCell;
            } else if (letters.find(ch) != std::string::npos) {
                content = static_cast<int8_t>(letters.find(ch));
            } else if (std::string(kPlayerLetters).find(ch) != std::string::npos) {
                throw InputError(where + ": piece '" + std::string(1, ch) + "' is player " +
                                 std::to_string(std::string(kPlayerLetters).find(ch) + 1) +
                                 " but the game has " + std::to_string(players) + " players");
            } else {
                throw InputError(where + ": unknown piece letter '" + std::string(1, ch) +
                                 "' (expected " + letter_list(players) +
                                 ", - for a gap, or a digit)");
            }
            if (col < length) s.cell[shape_cell(shape, row, col)] = content;
            ++col;
            ++k;
        }
        if (col != length)
            throw InputError(where + ": " + std::to_string(col) + " cells, board " + board +
                             " has " + std::to_string(length) + " in this rank");
    }
    const std::string& side = fields[1];
    if (side.size() != 1 || letters.find(side[0]) == std::string::npos)
        throw InputError("FEN side to move '" + side + "': expected " + letter_list(players));
    s.side = static_cast<uint8_t>(letters.find(side[0]));
    if (fields.size() == 4) {
        const long halfmove = parse_counter(fields[2], 65535);
        if (halfmove < 0)
            throw InputError("FEN halfmove clock '" + fields[2] +
                             "': expected an integer in [0, 65535]");
        const long fullmove = parse_counter(fields[3], 2147483647L);
        if (fullmove < 1)
            throw InputError("FEN fullmove number '" + fields[3] +
                             "': expected an integer in [1, 2147483647]");
        s.halfmove = static_cast<uint16_t>(halfmove);
        s.fullmove = static_cast<uint32_t>(fullmove);
    }
    return s;
}

std::string write_fen(const GameSetup& s) {
    std::string out;
    const int rows = shape_rows(s.shape);
    for (int i = 0; i < rows; ++i) {
        const int row = rows - 1 - i;
        if (i) out += '/';
        int empty_run = 0;
        for (int col = 0; col < shape_row_length(s.shape, row); ++col) {
            const int8_t content = s.cell[shape_cell(s.shape, row, col)];
            if (content == kEmptyCell) {
                ++empty_run;
                continue;
            }
            if (empty_run) out += std::to_string(empty_run);
            empty_run = 0;
            out += content == kBlockedCell ? '-' : kPlayerLetters[content];
        }
        if (empty_run) out += std::to_string(empty_run);
    }
    out += ' ';
    out += kPlayerLetters[s.side];
    out += ' ' + std::to_string(s.halfmove) + ' ' + std::to_string(s.fullmove);
    return out;
}

}  // namespace gaeval::ataxx
