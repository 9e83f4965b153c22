#include "host/gomoku/gomocup.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <utility>

#include "games/core/players.hpp"
#include "games/gomoku/game.hpp"

namespace gaeval::gomoku {

namespace {

// The transposition table without an INFO max_memory (or with 0: no limit): 16 MiB.
constexpr std::size_t kDefaultTableBytes = std::size_t{16} << 20;

std::string trim(const std::string& text) {
    std::size_t begin = 0, end = text.size();
    while (begin < end && std::isspace(static_cast<unsigned char>(text[begin]))) ++begin;
    while (end > begin && std::isspace(static_cast<unsigned char>(text[end - 1]))) --end;
    return text.substr(begin, end - begin);
}

std::string upper(std::string text) {
    for (char& c : text) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return text;
}

// `text` for an answer line: in single quotes, bytes outside printable ASCII as \xHH, at most
// 40 characters of it (then "..." and the length), so garbage never reaches the manager raw.
std::string quoted(const std::string& text) {
    constexpr std::size_t kShown = 40;
    std::string out = "'";
    std::size_t shown = 0;
    for (unsigned char c : text) {
        if (shown == kShown) break;
        if (c >= 0x20 && c < 0x7f && c != '\\') {
            out += static_cast<char>(c);
        } else {
            static const char* hex = "0123456789abcdef";
            out += "\\x";
            out += hex[c >> 4];
            out += hex[c & 15];
        }
        ++shown;
    }
    out += "'";
    if (text.size() > kShown) out += "... (" + std::to_string(text.size()) + " bytes)";
    return out;
}

// A non-negative decimal integer (at most 9 digits, spaces around it allowed), or -1.
long parse_number(const std::string& text) {
    const std::string t = trim(text);
    if (t.empty() || t.size() > 9) return -1;
    for (char c : t)
        if (c < '0' || c > '9') return -1;
    return std::strtol(t.c_str(), nullptr, 10);
}

// "a,b" or "a,b,c" into numbers; false when malformed.
bool parse_numbers(const std::string& text, std::size_t count, std::vector<long>* out) {
    out->clear();
    std::size_t start = 0;
    while (true) {
        const std::size_t comma = text.find(',', start);
        const long value = parse_number(
            text.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
        if (value < 0) return false;
        out->push_back(value);
        if (comma == std::string::npos) break;
        start = comma + 1;
    }
    return out->size() == count;
}

template <int N>
Player<Game<N>> typed_player(const games::PlayerData& data) {
    Player<Game<N>> p;
    p.kind = data.kind;
    p.policy = static_cast<uint8_t>(data.policy);
    p.depth = static_cast<uint8_t>(data.depth);
    for (int i = 0; i < kWeightCount && i < static_cast<int>(data.weights.size()); ++i)
        p.weights[i] = data.weights[i];
    return p;
}

// The brain's cell (index y * N + x) in `cells` (1 own, 2 opponent), which has an empty cell.
template <int N>
int choose_cell(const BrainConfig& config, RuleSet rule, const std::vector<int8_t>& cells,
                uint32_t game_number) {
    using Geo = Geometry<N>;
    Game<N> game;
    game.rule = rule;
    game.opening = Opening::None;
    Pos<N> p = game.start();
    for (int y = 0; y < N; ++y)
        for (int x = 0; x < N; ++x) {
            const int8_t owner = cells[y * N + x];
            if (owner == 0) continue;
            p.stones[owner == 1 ? 0 : 1].set(Geo::cell(x, y));
            ++p.count;
        }
    p.side = 0;  // the brain is seat 0 whatever its colour: the rules are symmetric
    const Move m = choose_move(game, p, typed_player<N>(config.player),
                               DrawAddress{config.seed, game_number, p.count});
    return Geo::row_of(m.cell) * N + Geo::column_of(m.cell);
}

}  // namespace

int64_t move_budget_ms(long timeout_turn, long timeout_match, long time_left) {
    // Absent timeout_turn: 5 s, the usual tournament turn; 0: as fast as possible (10 ms).
    if (timeout_turn == 0 && timeout_match <= 0) return 10;
    int64_t budget = timeout_turn < 0 ? 5000 : timeout_turn == 0 ? 10 : timeout_turn;
    // A match clock: at most a tenth of what is left (games rarely last 10 more own moves
    // once the clock is short; the search ends early in forced positions).
    if (timeout_match > 0 && time_left >= 0) budget = std::min<int64_t>(budget, time_left / 10);
    // The margin for the answer's way to the manager and a busy machine's scheduling: a fifth,
    // at least 30 ms.
    budget -= std::max<int64_t>(30, budget / 5);
    return std::max<int64_t>(budget, 1);
}

GomocupBrain::GomocupBrain(BrainConfig config) : config_(std::move(config)) {
    if (config_.clock && config_.player.kind == PlayerKind::Weighted)
        engine_ = std::make_unique<GomokuEngine>(config_.player.weights, kDefaultTableBytes / 16,
                                                 config_.shape_weights);
}

long GomocupBrain::info_number(const std::string& key) const {
    const auto it = info_.find(key);
    return it == info_.end() ? -1 : parse_number(it->second);
}

std::string GomocupBrain::start(int size) {
    if (size != 15 && size != 20)
        return "ERROR unsupported board size " + std::to_string(size) + " (gaeval plays 15 and 20)";
    size_ = size;
    cells_.assign(static_cast<std::size_t>(size * size), 0);
    if (engine_) engine_->clear();
    ++game_;
    in_board_ = false;
    return "OK";
}

// Puts a stone of `owner` on "x,y"; an error line when malformed, off the board or occupied.
std::string GomocupBrain::place(const std::string& args, int8_t owner, bool* ok) {
    *ok = false;
    if (size_ == 0) return "ERROR no board yet (START first)";
    std::vector<long> xy;
    if (!parse_numbers(args, 2, &xy)) return "ERROR expected x,y but got " + quoted(trim(args));
    if (xy[0] >= size_ || xy[1] >= size_)
        return "ERROR " + std::to_string(xy[0]) + "," + std::to_string(xy[1]) + " is off the board";
    int8_t& cell = cells_[static_cast<std::size_t>(xy[1] * size_ + xy[0])];
    if (cell != 0)
        return "ERROR " + std::to_string(xy[0]) + "," + std::to_string(xy[1]) + " is occupied";
    cell = owner;
    *ok = true;
    return "";
}

std::string GomocupBrain::move() {
    message_.clear();
    bool any_empty = false;
    for (int8_t c : cells_) any_empty = any_empty || c == 0;
    if (!any_empty) return "ERROR the board is full";
    int index = -1;
    if (engine_) {
        EngineLimits limits;
        limits.time_ms = move_budget_ms(info_number("timeout_turn"), info_number("timeout_match"),
                                        info_number("time_left"));
        limits.max_nodes = config_.max_nodes;
        const EngineResult r = engine_->think(size_, rule_, cells_, limits);
        if (r.x >= 0 && r.x < size_ && r.y >= 0 && r.y < size_) index = r.y * size_ + r.x;
        if (config_.messages) {
            const double seconds = std::max(r.elapsed_ms, 0.001) / 1000.0;
            std::string line = "MESSAGE depth " + std::to_string(r.depth) + "-" +
                               std::to_string(r.seldepth) + " nodes " + std::to_string(r.nodes) +
                               " threat " + std::to_string(r.threat_nodes) + " nps " +
                               std::to_string(static_cast<long>(r.nodes / seconds)) + " time " +
                               std::to_string(static_cast<long>(r.elapsed_ms)) + "/" +
                               std::to_string(limits.time_ms) + " reason " + r.reason + " score " +
                               std::to_string(r.score) + " pv";
            for (int c : r.pv)
                line += " " + std::to_string(c % size_) + "," + std::to_string(c / size_);
            message_ = line;
        }
    }
    // The fixed-depth player (and the engine's guard: never an occupied cell).
    if (index < 0 || cells_[static_cast<std::size_t>(index)] != 0)
        index = size_ == 20 ? choose_cell<20>(config_, rule_, cells_, game_)
                            : choose_cell<15>(config_, rule_, cells_, game_);
    cells_[static_cast<std::size_t>(index)] = 1;
    return std::to_string(index % size_) + "," + std::to_string(index / size_);
}

std::string GomocupBrain::info_line(const std::string& args) {
    const std::string text = trim(args);
    const std::size_t space = text.find(' ');
    const std::string key = text.substr(0, space);
    const std::string value = space == std::string::npos ? "" : trim(text.substr(space + 1));
    if (key.empty()) return "ERROR INFO needs a key and a value";
    const bool numeric = key == "timeout_turn" || key == "timeout_match" || key == "time_left" ||
                         key == "max_memory" || key == "game_type" || key == "rule";
    if (numeric && parse_number(value) < 0)
        return "ERROR INFO " + key + ": " + quoted(value) + " is not a non-negative integer";
    info_[key] = value;
    if (key == "max_memory" && engine_) {
        // Half of the allowed memory for the transposition table (0: no limit, the default).
        const long bytes = parse_number(value);
        engine_->resize_table(bytes > 0 ? static_cast<std::size_t>(bytes) / 2 : kDefaultTableBytes);
    }
    if (key != "rule") return "";
    const long rule = parse_number(value);
    rule_ = (rule & 1) ? RuleSet::Standard : RuleSet::Freestyle;
    if (rule & ~1L)
        return std::string("MESSAGE rule ") + value + ": only freestyle and exactly five are " +
               "played; playing " + ((rule & 1) ? "exactly five" : "freestyle");
    return "";
}

bool GomocupBrain::handle(const std::string& raw, std::vector<std::string>& answers) {
    const std::string line = trim(raw);
    message_.clear();
    if (line.empty()) return true;
    const std::size_t space = line.find(' ');
    const std::string word = upper(line.substr(0, space));
    const std::string args = space == std::string::npos ? "" : line.substr(space + 1);
    bool ok = false;
    if (in_board_) {
        if (word == "DONE") {
            in_board_ = false;
            const std::string m = move();
            if (!message_.empty()) answers.push_back(message_);
            answers.push_back(m);
            return true;
        }
        std::vector<long> xyf;
        if (!parse_numbers(line, 3, &xyf) || xyf[2] < 1 || xyf[2] > 3) {
            answers.push_back("ERROR expected x,y,field (field 1, 2 or 3) or DONE but got " +
                              quoted(line));
            return true;
        }
        const std::string error = place(std::to_string(xyf[0]) + "," + std::to_string(xyf[1]),
                                        static_cast<int8_t>(xyf[2] == 1 ? 1 : 2), &ok);
        if (!ok) answers.push_back(error);
        return true;
    }
    if (word == "END") return false;
    if (word == "ABOUT") {
        answers.push_back(std::string("name=\"gaeval-gomoku\", version=\"") + GAEVAL_VERSION +
                          "\", author=\"gaeval\", country=\"-\", www=\"docs/gomoku.md\"");
    } else if (word == "START") {
        const long size = parse_number(args);
        answers.push_back(size < 0 ? "ERROR START needs a board size, got " + quoted(trim(args))
                                   : start(static_cast<int>(size)));
    } else if (word == "RECTSTART") {
        std::vector<long> wh;
        if (!parse_numbers(args, 2, &wh))
            answers.push_back("ERROR RECTSTART needs width,height, got " + quoted(trim(args)));
        else if (wh[0] != wh[1])
            answers.push_back("ERROR rectangular boards are not supported");
        else
            answers.push_back(start(static_cast<int>(wh[0])));
    } else if (word == "RESTART") {
        answers.push_back(size_ == 0 ? "ERROR no board yet (START first)" : start(size_));
    } else if (word == "BEGIN") {
        if (size_ == 0)
            answers.push_back("ERROR no board yet (START first)");
        else
            answers.push_back(move());
        if (!message_.empty()) answers.insert(answers.end() - 1, message_);
    } else if (word == "TURN") {
        const std::string error = place(args, 2, &ok);
        if (!ok) {
            answers.push_back(error);
        } else {
            const std::string m = move();
            if (!message_.empty()) answers.push_back(message_);
            answers.push_back(m);
        }
    } else if (word == "PLAY") {
        const std::string error = place(args, 1, &ok);
        answers.push_back(ok ? trim(args) : error);
    } else if (word == "BOARD") {
        if (size_ == 0) {
            answers.push_back("ERROR no board yet (START first)");
        } else {
            cells_.assign(cells_.size(), 0);
            in_board_ = true;
        }
    } else if (word == "TAKEBACK") {
        std::vector<long> xy;
        if (size_ == 0) {
            answers.push_back("ERROR no board yet (START first)");
        } else if (!parse_numbers(args, 2, &xy) || xy[0] >= size_ || xy[1] >= size_) {
            answers.push_back("ERROR TAKEBACK needs x,y on the board, got " + quoted(trim(args)));
        } else {
            int8_t& cell = cells_[static_cast<std::size_t>(xy[1] * size_ + xy[0])];
            if (cell == 0) {
                answers.push_back("ERROR TAKEBACK " + trim(args) + ": no stone there");
            } else {
                cell = 0;
                answers.push_back("OK");
            }
        }
    } else if (word == "INFO") {
        const std::string answer = info_line(args);
        if (!answer.empty()) answers.push_back(answer);
    } else {
        answers.push_back("UNKNOWN command " + quoted(line.substr(0, space)));
    }
    return true;
}

void run_brain(std::istream& in, std::ostream& out, const BrainConfig& config) {
    GomocupBrain brain(config);
    std::string line;
    std::vector<std::string> answers;
    while (std::getline(in, line)) {
        answers.clear();
        const bool more = brain.handle(line, answers);
        for (const std::string& a : answers) out << a << '\n';
        out.flush();
        if (!more) break;
    }
}

}  // namespace gaeval::gomoku
