#include "host/ataxx/uai.hpp"

#include <atomic>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdlib>
#include <mutex>
#include <sstream>
#include <thread>
#include <utility>
#include <vector>

#include "games/ataxx/variants.hpp"
#include "games/core/players.hpp"
#include "games/core/search.hpp"
#include "host/ataxx/engine.hpp"
#include "host/ataxx/fen.hpp"
#include "host/core/error.hpp"

namespace gaeval::ataxx {

namespace {

using Clock = std::chrono::steady_clock;

std::vector<std::string> split(const std::string& line) {
    std::vector<std::string> words;
    std::istringstream in(line);
    for (std::string w; in >> w;) words.push_back(w);
    return words;
}

// "a1".."g7" -> bit (rank * 8 + file) of the 7x7 fast path, or -1.
int parse_square(const std::string& text) {
    if (text.size() != 2) return -1;
    const int file = text[0] - 'a', rank = text[1] - '1';
    if (file < 0 || file > 6 || rank < 0 || rank > 6) return -1;
    return rank * 8 + file;
}

std::string square_name(int bit) {
    return std::string(1, static_cast<char>('a' + (bit & 7))) +
           std::string(1, static_cast<char>('1' + (bit >> 3)));
}

std::string move_text(const Move& m) {
    if (m.is_pass()) return "0000";
    if (m.is_grow()) return square_name(m.to);
    return square_name(m.from) + square_name(m.to);
}

// A non-negative decimal integer below 2^53 (a leading '-' reads as 0: managers may send a
// clock that ran below zero), or false.
bool parse_count(const std::string& text, int64_t* out) {
    std::size_t i = 0;
    bool negative = false;
    if (!text.empty() && text[0] == '-') negative = true, i = 1;
    if (i == text.size() || text.size() - i > 15) return false;
    int64_t value = 0;
    for (; i < text.size(); ++i) {
        if (text[i] < '0' || text[i] > '9') return false;
        value = value * 10 + (text[i] - '0');
    }
    *out = negative ? 0 : value;
    return true;
}

}  // namespace

struct UaiEngine::State {
    UaiConfig config;
    std::ostream& out;
    std::mutex out_mutex;

    Square7Game game{};
    Position<1, 2> pos{};
    uint32_t game_number = 0;
    int default_depth = 1;

    std::unique_ptr<Engine> engine;  // weighted players: the clock search around their weights

    std::thread worker;
    std::atomic<bool> stop{false};
    bool infinite = false;
    std::mutex wait_mutex;
    std::condition_variable wait_cv;

    State(UaiConfig c, std::ostream& o) : config(std::move(c)), out(o) {
        default_depth = config.depth > 0 ? config.depth : config.player.depth;
        if (default_depth < 1) default_depth = 1;
        if (default_depth > kUaiMaxDepth) default_depth = kUaiMaxDepth;
        if (config.player.kind == PlayerKind::Weighted)
            engine = std::make_unique<Engine>(config.player.weights);
        set_position(parse_fen("startpos", parse_board_spec("square8:7x7"), RuleSet::Ataxx, 2));
    }

    void write(const std::string& line) {
        std::lock_guard<std::mutex> lock(out_mutex);
        out << line << '\n';
        out.flush();
    }
    void error(const std::string& what) { write("info string error: " + what); }

    void set_position(const GameSetup& s) {
        game = Square7Game{{setup_square7_geometry(s), RuleSet::Ataxx}};
        pos = setup_square7_position(s);
    }

    bool searching() const { return worker.joinable(); }
    void halt() {
        if (!worker.joinable()) return;
        {
            std::lock_guard<std::mutex> lock(wait_mutex);
            stop = true;
        }
        wait_cv.notify_all();
        worker.join();
    }
    void finish() {
        if (!worker.joinable()) return;
        if (infinite) {
            halt();
            return;
        }
        worker.join();
    }

    // The legal move of p that `text` names, or false.
    bool parse_move(const Position<1, 2>& p, const std::string& text, Move* out_move) const {
        Move wanted;
        if (text == "0000") {
            wanted = Move::pass();
        } else if (text.size() == 2) {
            const int to = parse_square(text);
            if (to < 0) return false;
            wanted = Move::grow(to);
        } else if (text.size() == 4) {
            const int from = parse_square(text.substr(0, 2)), to = parse_square(text.substr(2));
            if (from < 0 || to < 0) return false;
            const int df = std::abs((from & 7) - (to & 7)), dr = std::abs((from >> 3) - (to >> 3));
            wanted = (df <= 1 && dr <= 1) ? Move::grow(to) : Move::jump(from, to);
        } else {
            return false;
        }
        bool legal = false;
        game.for_each_move(p, [&](const Move& m) { legal = legal || m == wanted; });
        if (legal) *out_move = wanted;
        return legal;
    }

    void position(const std::vector<std::string>& words) {
        std::size_t i = 1;
        GameSetup setup;
        const Shape shape = parse_board_spec("square8:7x7");
        if (i < words.size() && words[i] == "startpos") {
            setup = parse_fen("startpos", shape, RuleSet::Ataxx, 2);
            ++i;
        } else if (i < words.size() && words[i] == "fen") {
            std::string fen;
            for (++i; i < words.size() && words[i] != "moves"; ++i)
                fen += (fen.empty() ? "" : " ") + words[i];
            try {
                setup = parse_fen(fen, shape, RuleSet::Ataxx, 2);
            } catch (const InputError& e) {
                error(std::string("position: ") + e.what());
                return;
            }
        } else {
            error("position: expected 'startpos' or 'fen <FEN>'");
            return;
        }
        Square7Game saved_game = game;
        const Position<1, 2> saved_pos = pos;
        set_position(setup);
        if (i < words.size()) {
            if (words[i] != "moves") {
                error("position: expected 'moves', got '" + words[i] + "'");
                game = saved_game, pos = saved_pos;
                return;
            }
            for (++i; i < words.size(); ++i) {
                Move m;
                if (game.is_over(pos) || !parse_move(pos, words[i], &m)) {
                    error("position: illegal move '" + words[i] + "' in " +
                          write_fen(square7_setup(game.geo, RuleSet::Ataxx, pos)));
                    game = saved_game, pos = saved_pos;
                    return;
                }
                pos = game.make(pos, m);
            }
        }
    }

    void go(const std::vector<std::string>& words) {
        int64_t depth = 0, nodes = 0, movetime = -1, movestogo = 0;
        int64_t clock[2] = {-1, -1}, increment[2] = {0, 0};  // by seat: x (black), o (white)
        bool infinite_go = false;
        for (std::size_t i = 1; i < words.size(); ++i) {
            const std::string& key = words[i];
            if (key == "infinite") {
                infinite_go = true;
                continue;
            }
            int64_t* target = key == "depth"       ? &depth
                              : key == "nodes"     ? &nodes
                              : key == "movetime"  ? &movetime
                              : key == "movestogo" ? &movestogo
                              : key == "btime"     ? &clock[0]
                              : key == "wtime"     ? &clock[1]
                              : key == "binc"      ? &increment[0]
                              : key == "winc"      ? &increment[1]
                                                   : nullptr;
            if (!target) {
                error("go: unknown parameter '" + key + "'");
                return;
            }
            if (i + 1 >= words.size() || !parse_count(words[i + 1], target)) {
                error("go: '" + key + "' needs a number");
                return;
            }
            ++i;
        }
        if (game.is_over(pos)) {
            error("go: the game is over");
            write("bestmove 0000");
            return;
        }
        // Time for this move in ms (-1: none): a soft limit (no new depth starts after it) and a
        // hard one (the running depth is abandoned).
        const int us = pos.side;
        EngineLimits limits;
        if (movetime >= 0) {
            const double budget =
                static_cast<double>(movetime) - std::min<double>(50.0, movetime / 10.0);
            limits.soft_ms = limits.hard_ms = std::max(1.0, budget);
        } else if (clock[us] >= 0) {
            const double left = static_cast<double>(clock[us]);
            const double moves = movestogo > 0 ? static_cast<double>(movestogo) : 30.0;
            const double target =
                std::min(left / moves + 0.75 * static_cast<double>(increment[us]), left / 2.0);
            limits.soft_ms = std::max(1.0, 0.6 * target);
            limits.hard_ms = std::max(1.0, std::min(1.5 * target, left / 2.0));
        }
        limits.nodes = static_cast<uint64_t>(nodes);
        limits.cpu_clock = config.cpu_clock;
        // Late move reductions whenever a clock, a node budget or stop ends the search; a
        // search to a given depth stays exact.
        limits.reductions = depth == 0 && (infinite_go || limits.hard_ms >= 0 || nodes > 0);
        const bool open_ended = infinite_go || limits.hard_ms >= 0 || nodes > 0;
        if (depth > kUaiMaxDepth) {
            write("info string go: depth " + std::to_string(depth) + " is beyond the maximum " +
                  std::to_string(kUaiMaxDepth) + "; searching to depth " +
                  std::to_string(kUaiMaxDepth));
            depth = kUaiMaxDepth;
        }
        limits.depth =
            depth > 0 ? static_cast<int>(depth) : (open_ended ? kUaiMaxDepth : default_depth);
        stop = false;
        infinite = infinite_go;
        const DrawAddress at{config.seed, game_number,
                             static_cast<uint32_t>(2 * pos.fullmove + pos.side)};
        const Square7Game g = game;
        const Position<1, 2> p = pos;
        worker = std::thread(
            [this, g, p, limits, at, infinite_go] { run_search(g, p, limits, at, infinite_go); });
    }

    void run_search(const Square7Game& g, const Position<1, 2>& p, const EngineLimits& limits,
                    const DrawAddress& at, bool infinite_go) {
        const Clock::time_point start = Clock::now();
        auto elapsed_ms = [&] {
            return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
        };
        Move best;
        if (config.player.kind != PlayerKind::Weighted) {
            Player<Square7Game> typed;
            typed.kind = config.player.kind;
            typed.policy = static_cast<uint8_t>(config.player.policy);
            best = choose_move(g, p, typed, at);
            write("info depth 1 nodes 1 time " +
                  std::to_string(static_cast<int64_t>(elapsed_ms())) + " pv " + move_text(best));
        } else {
            auto report = [&](const EngineReport& r) {
                std::string score;
                if (std::fabs(r.value) >= kAlphaBetaWin - 1000.0f) {
                    const int plies = static_cast<int>(kAlphaBetaWin - std::fabs(r.value));
                    const int moves = (plies + 1) / 2;
                    score = "mate " + std::to_string(r.value > 0 ? moves : -moves);
                } else {
                    score = "cp " + std::to_string(std::lround(r.value * 100.0));
                }
                const double nps = r.ms > 0 ? r.nodes / (r.ms / 1000.0) : 0.0;
                std::string pv;
                for (const Move& m : r.pv) pv += " " + move_text(m);
                write("info depth " + std::to_string(r.depth) + " score " + score + " nodes " +
                      std::to_string(r.nodes) + " nps " +
                      std::to_string(static_cast<uint64_t>(nps)) + " time " +
                      std::to_string(static_cast<int64_t>(r.ms)) + " pv" + pv);
            };
            best = engine->search(g, p, limits, stop, report).move;
        }
        if (infinite_go) {  // UAI: no bestmove before stop in an infinite search
            std::unique_lock<std::mutex> lock(wait_mutex);
            wait_cv.wait(lock, [&] { return stop.load(); });
        }
        write("bestmove " + move_text(best));
    }
};

UaiEngine::UaiEngine(UaiConfig config, std::ostream& out)
    : state_(std::make_unique<State>(std::move(config), out)) {}

UaiEngine::~UaiEngine() { state_->halt(); }

void UaiEngine::wait() { state_->finish(); }

bool UaiEngine::handle(const std::string& line) {
    State& s = *state_;
    const std::vector<std::string> words = split(line);
    if (words.empty()) return true;
    const std::string& command = words[0];
    if (command == "uai") {
        s.write("id name gaeval");
        s.write("id author gaeval");
        s.write("option name depth type spin default " + std::to_string(s.default_depth) +
                " min 1 max " + std::to_string(kUaiMaxDepth));
        s.write("uaiok");
    } else if (command == "isready") {
        s.write("readyok");
    } else if (command == "quit") {
        s.finish();
        return false;
    } else if (command == "stop") {
        s.halt();
    } else if (command == "uainewgame") {
        s.finish();
        ++s.game_number;
        if (s.engine) s.engine->clear();
        s.set_position(parse_fen("startpos", parse_board_spec("square8:7x7"), RuleSet::Ataxx, 2));
    } else if (command == "position") {
        s.finish();
        s.position(words);
    } else if (command == "go") {
        s.finish();
        s.go(words);
    } else if (command == "setoption") {
        s.finish();
        // setoption name <id> [value <x>]
        std::string name, value;
        std::size_t i = 1;
        if (i < words.size() && words[i] == "name") ++i;
        for (; i < words.size() && words[i] != "value"; ++i)
            name += (name.empty() ? "" : " ") + words[i];
        if (i < words.size()) ++i;
        for (; i < words.size(); ++i) value += (value.empty() ? "" : " ") + words[i];
        int64_t depth = 0;
        if (name == "depth") {
            if (!parse_count(value, &depth) || depth < 1 || depth > kUaiMaxDepth)
                s.error("setoption depth: expected 1 to " + std::to_string(kUaiMaxDepth));
            else
                s.default_depth = static_cast<int>(depth);
        } else {
            s.error("setoption: no option '" + name + "' (options: depth)");
        }
    } else {
        s.error("unknown command '" + command + "'");
    }
    return true;
}

void run_uai(std::istream& in, std::ostream& out, const UaiConfig& config) {
    // Reading must never flush `out` (std::cin is tied to std::cout): that flush would run on
    // this thread, outside the output lock, while the search thread writes, and the stream's
    // buffer could then be emptied twice (a bestmove line sent again) or lose lines.
    in.tie(nullptr);
    UaiEngine engine(config, out);
    for (std::string line; std::getline(in, line);) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (!engine.handle(line)) return;
    }
    engine.wait();
}

}  // namespace gaeval::ataxx
