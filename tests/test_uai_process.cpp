// `gaeval uai` as a real process over pipes, driven as tournament managers drive an engine: the
// built binary is started with its stdin and stdout on pipes (std::cin then stays tied to
// std::cout, which a string stream never shows), sent `position` + `go` and read back line by
// line. Every answer is checked against the rules here (legal moves of the position it
// answers, found by the tests' own decoding).
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <chrono>
#include <random>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "ataxx_test_support.hpp"

namespace gaeval::ataxx {
namespace {

using testing::fen_setup;
using testing::Square7Fixture;

// A child process running `gaeval <args>` with pipes on its stdin and stdout.
class EngineProcess {
  public:
    explicit EngineProcess(const std::vector<std::string>& args) {
        int in[2], out[2];
        if (pipe(in) != 0 || pipe(out) != 0) return;
        pid_ = fork();
        if (pid_ == 0) {
            dup2(in[0], 0);
            dup2(out[1], 1);
            close(in[0]), close(in[1]), close(out[0]), close(out[1]);
            std::vector<char*> argv;
            std::string binary = GAEVAL_BINARY;
            argv.push_back(binary.data());
            std::vector<std::string> copy = args;
            for (std::string& a : copy) argv.push_back(a.data());
            argv.push_back(nullptr);
            execv(binary.c_str(), argv.data());
            _exit(127);
        }
        close(in[0]);
        close(out[1]);
        to_ = in[1];
        from_ = out[0];
    }
    ~EngineProcess() {
        if (to_ >= 0) close(to_);
        if (from_ >= 0) close(from_);
        if (pid_ > 0) {
            kill(pid_, SIGKILL);
            waitpid(pid_, nullptr, 0);
        }
    }
    bool started() const { return pid_ > 0 && to_ >= 0; }

    void send(const std::string& text) {
        std::size_t done = 0;
        while (done < text.size()) {
            const ssize_t n = write(to_, text.data() + done, text.size() - done);
            if (n <= 0) return;
            done += static_cast<std::size_t>(n);
        }
    }
    // The next line (without its newline), or false after `timeout_ms` or at end of output.
    bool read_line(std::string* line, int timeout_ms = 10000) {
        const auto deadline =
            std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
        while (true) {
            const std::size_t nl = buffer_.find('\n');
            if (nl != std::string::npos) {
                *line = buffer_.substr(0, nl);
                buffer_.erase(0, nl + 1);
                return true;
            }
            const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                                  deadline - std::chrono::steady_clock::now())
                                  .count();
            if (left <= 0) return false;
            pollfd p{from_, POLLIN, 0};
            if (poll(&p, 1, static_cast<int>(left)) <= 0) return false;
            char chunk[4096];
            const ssize_t n = read(from_, chunk, sizeof chunk);
            if (n <= 0) return false;
            buffer_.append(chunk, static_cast<std::size_t>(n));
        }
    }
    // Lines up to and including the first that starts with `prefix`.
    std::vector<std::string> read_until(const std::string& prefix, int timeout_ms = 10000) {
        std::vector<std::string> lines;
        for (std::string l; read_line(&l, timeout_ms);) {
            lines.push_back(l);
            if (l.compare(0, prefix.size(), prefix) == 0) break;
        }
        return lines;
    }
    // Closes stdin and returns the exit status (-1 when it did not end in time).
    int finish(int timeout_ms = 10000) {
        close(to_);
        to_ = -1;
        const auto deadline =
            std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
        while (std::chrono::steady_clock::now() < deadline) {
            int status = 0;
            if (waitpid(pid_, &status, WNOHANG) == pid_) {
                pid_ = -1;
                return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
            }
            usleep(2000);
        }
        return -1;
    }
    // Everything still to come until end of output.
    std::string rest(int timeout_ms = 10000) {
        std::string all;
        for (std::string l; read_line(&l, timeout_ms);) all += l + "\n";
        return all;
    }

  private:
    pid_t pid_ = -1;
    int to_ = -1, from_ = -1;
    std::string buffer_;
};

// The move named by UAI text if it is legal in f's position, else a move with to == -2.
Move decode(const Square7Fixture& f, const std::string& text) {
    Move wanted;
    auto square = [](const std::string& s) { return (s[1] - '1') * 8 + (s[0] - 'a'); };
    if (text == "0000") {
        wanted = Move::pass();
    } else if (std::regex_match(text, std::regex("[a-g][1-7]"))) {
        wanted = Move::grow(square(text));
    } else if (std::regex_match(text, std::regex("[a-g][1-7][a-g][1-7]"))) {
        const int from = square(text.substr(0, 2)), to = square(text.substr(2));
        const bool touch = std::abs(from % 8 - to % 8) <= 1 && std::abs(from / 8 - to / 8) <= 1;
        wanted = touch ? Move::grow(to) : Move::jump(from, to);
    } else {
        return Move{-2, -2};
    }
    bool legal = false;
    f.game.for_each_move(f.pos, [&](const Move& m) { legal = legal || m == wanted; });
    return legal ? wanted : Move{-2, -2};
}

std::string move_text(const Move& m) {
    auto name = [](int bit) {
        return std::string(1, static_cast<char>('a' + bit % 8)) +
               std::string(1, static_cast<char>('1' + bit / 8));
    };
    if (m.is_pass()) return "0000";
    return m.is_grow() ? name(m.to) : name(m.from) + name(m.to);
}

// `count` positions (as `position startpos moves ...` commands) of random games, each with the
// fixture it names; games restart from the start position when they end.
struct Scripted {
    std::vector<std::string> commands;
    std::vector<Square7Fixture> fixtures;
};
Scripted random_positions(int count, uint32_t seed) {
    std::mt19937 rng(seed);
    Scripted s;
    Square7Fixture f(fen_setup("startpos"));
    std::string moves;
    while (static_cast<int>(s.fixtures.size()) < count) {
        if (f.game.is_over(f.pos)) {
            f = Square7Fixture(fen_setup("startpos"));
            moves.clear();
        }
        s.commands.push_back("position startpos" + (moves.empty() ? "" : " moves" + moves));
        s.fixtures.push_back(f);
        const int n = f.game.count_moves(f.pos);
        const int pick = static_cast<int>(rng() % static_cast<unsigned>(n));
        int k = 0;
        Move chosen;
        f.game.for_each_move(f.pos, [&](const Move& m) {
            if (k++ == pick) chosen = m;
        });
        f.pos = f.game.make(f.pos, chosen);
        moves += " " + move_text(chosen);
    }
    return s;
}

// The reproduction: 1000 `position` + `go` pairs written at once, no isready between
// them. Exactly 1000 bestmove lines must come back, the i-th legal in the i-th position, one
// info line per depth-1 search, and no line twice in a row.
TEST(UaiProcess, ThousandGoCommandsWithoutIsreadyGiveThousandLegalAnswers) {
    EngineProcess engine({"uai"});
    ASSERT_TRUE(engine.started());
    engine.send("uai\nisready\n");
    ASSERT_FALSE(engine.read_until("readyok").empty());
    const Scripted s = random_positions(1000, 29);
    std::string script;
    for (std::size_t i = 0; i < s.commands.size(); ++i)
        script += s.commands[i] + "\n" + (i % 2 ? "go depth 1\n" : "go nodes 50\n");
    script += "quit\n";
    engine.send(script);
    const std::string out = engine.rest();
    EXPECT_EQ(engine.finish(), 0);
    std::vector<std::string> best;
    int depth1_infos = 0;
    std::string previous;
    std::size_t go = 0;
    int repeated = 0;
    for (std::size_t at = 0; at < out.size();) {
        const std::size_t nl = out.find('\n', at);
        const std::string line = out.substr(at, nl - at);
        at = nl + 1;
        if (line == previous) ++repeated;
        previous = line;
        if (line.rfind("info depth 1 ", 0) == 0) ++depth1_infos;
        if (line.rfind("bestmove ", 0) == 0) {
            ASSERT_LT(go, s.fixtures.size()) << "more bestmove lines than go commands";
            EXPECT_NE(decode(s.fixtures[go], line.substr(9)).to, -2)
                << "answer " << go << " '" << line << "' is illegal in its position";
            ++go;
            best.push_back(line);
        }
        ASSERT_EQ(line.find("error"), std::string::npos) << line;
    }
    EXPECT_EQ(best.size(), 1000u);
    EXPECT_EQ(depth1_infos, 1000);  // each search completes depth 1 exactly once
    EXPECT_EQ(repeated, 0);
}

// As a manager plays: position + go, wait for bestmove, play it, and so on for 1000 moves;
// every answer legal in the position just sent, and exactly one per go.
TEST(UaiProcess, ManagerLoopGetsOneLegalAnswerPerGo) {
    EngineProcess engine({"uai"});
    ASSERT_TRUE(engine.started());
    engine.send("uai\nisready\n");
    ASSERT_FALSE(engine.read_until("readyok").empty());
    Square7Fixture f(fen_setup("startpos"));
    std::string moves;
    int games = 0;
    engine.send("uainewgame\n");
    for (int i = 0; i < 1000; ++i) {
        if (f.game.is_over(f.pos)) {
            f = Square7Fixture(fen_setup("startpos"));
            moves.clear();
            ++games;
            engine.send("uainewgame\n");
        }
        engine.send("position startpos" + (moves.empty() ? "" : " moves" + moves) + "\n" +
                    (i % 3 == 0 ? "go nodes 200\n" : "go depth 1\n"));
        const auto lines = engine.read_until("bestmove ");
        ASSERT_FALSE(lines.empty());
        const std::string& last = lines.back();
        ASSERT_EQ(last.rfind("bestmove ", 0), 0u) << "no answer to go " << i;
        for (std::size_t k = 0; k + 1 < lines.size(); ++k)
            ASSERT_EQ(lines[k].rfind("info depth ", 0), 0u) << lines[k];
        const Move m = decode(f, last.substr(9));
        ASSERT_NE(m.to, -2) << "answer " << i << " '" << last << "' is illegal";
        f.pos = f.game.make(f.pos, m);
        moves += " " + last.substr(9);
    }
    engine.send("isready\n");
    const auto tail = engine.read_until("readyok");
    ASSERT_EQ(tail.size(), 1u) << "a line after the last bestmove: " << tail[0];
    EXPECT_GE(games, 0);
    EXPECT_EQ(engine.finish(), 0);
}

// `stop` during `go infinite` answers once, and only after the stop; depth 99 is clamped to
// the advertised maximum and said so.
TEST(UaiProcess, StopAnswersOnceAndADepthBeyondTheMaximumIsClamped) {
    EngineProcess engine({"uai"});
    ASSERT_TRUE(engine.started());
    engine.send("uai\n");
    const auto hello = engine.read_until("uaiok");
    std::string max_depth;
    for (const std::string& l : hello) {
        std::smatch m;
        if (std::regex_search(l, m, std::regex("^option name depth .* max ([0-9]+)$")))
            max_depth = m[1];
    }
    ASSERT_FALSE(max_depth.empty());
    for (int round = 0; round < 3; ++round) {
        engine.send("position startpos\ngo infinite\n");
        std::string line;
        // Nothing but info lines before the stop.
        const auto t0 = std::chrono::steady_clock::now();
        while (std::chrono::steady_clock::now() - t0 < std::chrono::milliseconds(150))
            if (engine.read_line(&line, 20)) {
                ASSERT_EQ(line.rfind("info ", 0), 0u) << line;
            }
        engine.send("stop\nisready\n");
        const auto after = engine.read_until("readyok");
        int best = 0;
        for (const std::string& l : after) best += l.rfind("bestmove ", 0) == 0;
        EXPECT_EQ(best, 1) << "round " << round;
        ASSERT_FALSE(after.empty());
        EXPECT_EQ(after.back(), "readyok");
    }
    engine.send("position fen x5o/7/7/7/7/7/o5x x 0 1\ngo depth 99 nodes 3000\n");
    const auto lines = engine.read_until("bestmove ");
    ASSERT_FALSE(lines.empty());
    EXPECT_EQ(lines.front(), "info string go: depth 99 is beyond the maximum " + max_depth +
                                 "; searching to depth " + max_depth);
    EXPECT_EQ(lines.back().rfind("bestmove ", 0), 0u);
    engine.send("quit\n");
    EXPECT_EQ(engine.finish(), 0);
}

}  // namespace
}  // namespace gaeval::ataxx
