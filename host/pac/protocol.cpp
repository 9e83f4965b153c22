#include "host/pac/protocol.hpp"

#include <cstdlib>
#include <sstream>

#include "host/core/error.hpp"

namespace gaeval::pac {

const char* type_name(int type) {
    switch (type) {
        case kRock:
            return "ROCK";
        case kPaper:
            return "PAPER";
        case kScissors:
            return "SCISSORS";
        default:
            return "DEAD";
    }
}

Observation observe(const Map& map, const Pos& p, int seat) {
    Observation obs;
    obs.turn = p.turn;
    obs.my_score = p.score[seat];
    obs.their_score = p.score[1 - seat];
    const BB seen = visible(map, p, seat);
    for (int side : {seat, 1 - seat})
        for (int k = 0; k < p.pacs; ++k) {
            const Pac& a = p.pac[side][k];
            if (side != seat && a.alive && !seen.test(a.cell)) continue;
            PacView v;
            v.id = k;
            v.mine = side == seat;
            v.cell = a.cell;
            v.type = a.alive ? a.type : kDead;
            v.speed_turns = a.speed_turns;
            v.cooldown = a.cooldown;
            obs.pacs.push_back(v);
        }
    for_each_cell(p.pellets & seen, [&](int c) { obs.pellets.push_back({c, kPelletValue}); });
    for_each_cell(p.supers, [&](int c) { obs.pellets.push_back({c, kSuperValue}); });
    return obs;
}

std::string initial_text(const std::vector<std::string>& rows) {
    std::string s = std::to_string(rows[0].size()) + " " + std::to_string(rows.size()) + "\n";
    for (const std::string& r : rows) s += r + "\n";
    return s;
}

std::string turn_text(const Map& map, const Observation& obs) {
    std::ostringstream s;
    s << obs.my_score << ' ' << obs.their_score << '\n' << obs.pacs.size() << '\n';
    for (const PacView& v : obs.pacs)
        s << v.id << ' ' << (v.mine ? 1 : 0) << ' ' << map.x_of(v.cell) << ' ' << map.y_of(v.cell)
          << ' ' << type_name(v.type) << ' ' << v.speed_turns << ' ' << v.cooldown << '\n';
    s << obs.pellets.size() << '\n';
    for (const auto& [c, value] : obs.pellets)
        s << map.x_of(c) << ' ' << map.y_of(c) << ' ' << value << '\n';
    return s.str();
}

std::string TextReader::line(const char* what) {
    std::string text;
    if (!std::getline(in_, text))
        throw InputError("stdin: line " + std::to_string(line_number_ + 1) + ": expected " + what +
                         ", got the end of the input");
    ++line_number_;
    if (!text.empty() && text.back() == '\r') text.pop_back();
    return text;
}

namespace {

// Whitespace-separated integers of a line; InputError naming the line when there are not
// exactly `count` or one is not an integer.
std::vector<long> integers(const std::string& text, std::size_t count, int line_number,
                           const char* what) {
    std::istringstream in(text);
    std::vector<long> values;
    std::string word;
    while (in >> word) {
        char* end = nullptr;
        const long v = std::strtol(word.c_str(), &end, 10);
        if (word.empty() || *end != '\0')
            throw InputError("stdin: line " + std::to_string(line_number) + ": '" + word +
                             "' is not an integer (" + what + ")");
        values.push_back(v);
    }
    if (values.size() != count)
        throw InputError("stdin: line " + std::to_string(line_number) + ": expected " + what);
    return values;
}

}  // namespace

std::vector<std::string> TextReader::read_map() {
    // The line is read before line_number_ is passed (argument order is unspecified).
    const std::string size_line = line("the map size");
    const auto size = integers(size_line, 2, line_number_, "width height");
    if (size[0] < 3 || size[0] > kMaxWidth || size[1] < 3 || size[1] > kMaxHeight)
        throw InputError("stdin: line " + std::to_string(line_number_) + ": a " +
                         std::to_string(size[0]) + " x " + std::to_string(size[1]) +
                         " map; maps are 3 x 3 to 35 x 17 cells");
    std::vector<std::string> rows;
    for (long y = 0; y < size[1]; ++y) {
        std::string row = line("a map row");
        if (static_cast<long>(row.size()) != size[0])
            throw InputError("stdin: line " + std::to_string(line_number_) + ": a row of " +
                             std::to_string(row.size()) + " cells, expected " +
                             std::to_string(size[0]));
        for (char c : row)
            if (c != '#' && c != ' ')
                throw InputError("stdin: line " + std::to_string(line_number_) +
                                 ": only '#' and ' ' in map rows");
        rows.push_back(row);
    }
    return rows;
}

bool TextReader::read_turn(const Map& map, Observation* obs) {
    std::string first;
    if (!std::getline(in_, first)) return false;
    ++line_number_;
    if (!first.empty() && first.back() == '\r') first.pop_back();
    if (first.find_first_not_of(" \t") == std::string::npos) return false;
    *obs = Observation{};
    obs->turn = turn_++;
    const auto scores = integers(first, 2, line_number_, "myScore opponentScore");
    obs->my_score = static_cast<int>(scores[0]);
    obs->their_score = static_cast<int>(scores[1]);
    auto cell_of = [&](const std::string& xs, const std::string& ys) {
        const auto xy = integers(xs + " " + ys, 2, line_number_, "x y");
        if (xy[0] < 0 || xy[0] >= map.width || xy[1] < 0 || xy[1] >= map.height ||
            !map.floor.test(map.cell_at(static_cast<int>(xy[0]), static_cast<int>(xy[1]))))
            throw InputError("stdin: line " + std::to_string(line_number_) + ": (" + xs + ", " +
                             ys + ") is not a floor cell of the map");
        return map.cell_at(static_cast<int>(xy[0]), static_cast<int>(xy[1]));
    };
    const std::string pac_line = line("the visible pac count");
    const long pac_count = integers(pac_line, 1, line_number_, "a count")[0];
    if (pac_count < 0 || pac_count > 2 * kMaxPacs)
        throw InputError("stdin: line " + std::to_string(line_number_) + ": " +
                         std::to_string(pac_count) + " pacs (at most 10)");
    for (long i = 0; i < pac_count; ++i) {
        std::istringstream in(line("a pac line"));
        std::string id, mine, x, y, type, speed, cooldown, extra;
        if (!(in >> id >> mine >> x >> y >> type >> speed >> cooldown) || (in >> extra))
            throw InputError("stdin: line " + std::to_string(line_number_) +
                             ": expected 'pacId mine x y typeId speedTurnsLeft abilityCooldown'");
        PacView v;
        const auto numbers = integers(id + " " + mine + " " + speed + " " + cooldown, 4,
                                      line_number_, "pacId mine x y typeId speed cooldown");
        if (numbers[0] < 0 || numbers[0] >= kMaxPacs || (numbers[1] != 0 && numbers[1] != 1) ||
            numbers[2] < 0 || numbers[2] > kCooldown || numbers[3] < 0 || numbers[3] > kCooldown)
            throw InputError("stdin: line " + std::to_string(line_number_) +
                             ": a pac field is out of range");
        v.id = static_cast<int>(numbers[0]);
        v.mine = numbers[1] == 1;
        v.speed_turns = static_cast<int>(numbers[2]);
        v.cooldown = static_cast<int>(numbers[3]);
        v.cell = cell_of(x, y);
        v.type = -1;
        for (int t = 0; t <= kDead; ++t)
            if (type == type_name(t)) v.type = t;
        if (v.type < 0)
            throw InputError("stdin: line " + std::to_string(line_number_) + ": unknown type '" +
                             type + "' (ROCK, PAPER, SCISSORS or DEAD)");
        obs->pacs.push_back(v);
    }
    const std::string pellet_line = line("the visible pellet count");
    const long pellet_count = integers(pellet_line, 1, line_number_, "a count")[0];
    if (pellet_count < 0 || pellet_count > kMaxCells)
        throw InputError("stdin: line " + std::to_string(line_number_) + ": " +
                         std::to_string(pellet_count) + " pellets");
    for (long i = 0; i < pellet_count; ++i) {
        std::istringstream in(line("a pellet line"));
        std::string x, y, value, extra;
        if (!(in >> x >> y >> value) || (in >> extra))
            throw InputError("stdin: line " + std::to_string(line_number_) +
                             ": expected 'x y value'");
        const int c = cell_of(x, y);
        const long v = integers(value, 1, line_number_, "a pellet value")[0];
        if (v != kPelletValue && v != kSuperValue)
            throw InputError("stdin: line " + std::to_string(line_number_) + ": pellet value " +
                             value + " (1 or 10)");
        obs->pellets.push_back({c, static_cast<int>(v)});
    }
    return true;
}

std::string command_text(const Map& map, const Move& move, const std::vector<PacView>& own) {
    std::string out;
    for (const PacView& v : own) {
        if (!v.mine || v.type == kDead) continue;
        const Command& c = move.pac[v.id];
        std::string one;
        switch (c.kind) {
            case kSpeed:
                one = "SPEED " + std::to_string(v.id);
                break;
            case kSwitch:
                one = "SWITCH " + std::to_string(v.id) + " " + type_name(c.type);
                break;
            case kMoveTo:
                one = "MOVE " + std::to_string(v.id) + " " + std::to_string(map.x_of(c.target)) +
                      " " + std::to_string(map.y_of(c.target));
                break;
            default:
                one = "MOVE " + std::to_string(v.id) + " " + std::to_string(map.x_of(v.cell)) +
                      " " + std::to_string(map.y_of(v.cell));
        }
        out += (out.empty() ? "" : " | ") + one;
    }
    return out;
}

}  // namespace gaeval::pac
