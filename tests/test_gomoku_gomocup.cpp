// gaeval gomocup: the Piskvork "pbrain" protocol. A scripted manager session (every command,
// CR LF line ends, malformed lines answered by ERROR while the brain keeps running), whole games
// between two brains run by a manager written here that checks every answer against its own
// board and ends games by the cell-by-cell rules of gomoku_test_support.hpp, and the binary
// through a pipe.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "cli_util.hpp"
#include "gomoku_test_support.hpp"
#include "host/games/player_file.hpp"
#include "host/games/registry.hpp"
#include "host/gomoku/default_player.hpp"
#include "host/gomoku/gomocup.hpp"

namespace gaeval::gomoku {
namespace {

using gaeval::testing::run_cli;
using gaeval::testing::temp_file;

// The fixed players (a weighted file plays its fixed-depth player, not the clocked engine).
BrainConfig brain_of(const std::string& name, uint64_t seed = 1) {
    BrainConfig c;
    c.clock = false;
    c.player = games::parse_player(name, "--player", games::find_game("gomoku").info());
    c.seed = seed;
    return c;
}

// The answers to one line.
std::vector<std::string> say(GomocupBrain& brain, const std::string& line) {
    std::vector<std::string> answers;
    brain.handle(line, answers);
    return answers;
}

// Whether `answer` is "x,y" on an n x n board; sets x and y.
bool parse_move(const std::string& answer, int n, int* x, int* y) {
    const auto comma = answer.find(',');
    if (comma == std::string::npos) return false;
    try {
        std::size_t a = 0, b = 0;
        *x = std::stoi(answer.substr(0, comma), &a);
        *y = std::stoi(answer.substr(comma + 1), &b);
        if (a != comma || b != answer.size() - comma - 1) return false;
    } catch (const std::exception&) {
        return false;
    }
    return *x >= 0 && *y >= 0 && *x < n && *y < n;
}

TEST(GomokuGomocup, AScriptedManagerSession) {
    GomocupBrain brain(brain_of("threat-search"));
    using V = std::vector<std::string>;
    EXPECT_EQ(say(brain, "BEGIN"), V{"ERROR no board yet (START first)"});
    EXPECT_EQ(say(brain, "TURN 3,3\r"), V{"ERROR no board yet (START first)"});
    const V about = say(brain, "ABOUT\r");
    ASSERT_EQ(about.size(), 1u);
    EXPECT_EQ(about[0].rfind("name=\"gaeval-gomoku\", version=\"", 0), 0u) << about[0];
    EXPECT_EQ(say(brain, "START 19\r"),
              V{"ERROR unsupported board size 19 (gaeval plays 15 and 20)"});
    EXPECT_EQ(say(brain, "START x"), V{"ERROR START needs a board size, got 'x'"});
    EXPECT_EQ(say(brain, "RECTSTART 15,20"), V{"ERROR rectangular boards are not supported"});
    EXPECT_EQ(say(brain, "RECTSTART 15"), V{"ERROR RECTSTART needs width,height, got '15'"});
    EXPECT_EQ(say(brain, "RECTSTART 15,15\r"), V{"OK"});
    EXPECT_EQ(say(brain, "START 20\r"), V{"OK"});
    EXPECT_EQ(brain.size(), 20);
    EXPECT_EQ(say(brain, "START 15"), V{"OK"});
    // INFO answers nothing (unknown keys too); the rule's bit 1 is exactly five.
    EXPECT_TRUE(say(brain, "INFO timeout_turn 5000\r").empty());
    EXPECT_TRUE(say(brain, "INFO timeout_match 180000").empty());
    EXPECT_TRUE(say(brain, "INFO time_left 179000").empty());
    EXPECT_TRUE(say(brain, "INFO max_memory 83886080").empty());
    EXPECT_TRUE(say(brain, "INFO folder C:\\tmp").empty());
    EXPECT_TRUE(say(brain, "INFO rule 1").empty());
    EXPECT_EQ(brain.rule(), RuleSet::Standard);
    EXPECT_EQ(say(brain, "INFO time_left soon"),
              V{"ERROR INFO time_left: 'soon' is not a non-negative integer"});
    const V renju = say(brain, "INFO rule 4");
    ASSERT_EQ(renju.size(), 1u);
    EXPECT_EQ(renju[0].rfind("MESSAGE rule 4:", 0), 0u) << renju[0];
    EXPECT_EQ(brain.rule(), RuleSet::Freestyle);
    EXPECT_EQ(brain.info().at("timeout_turn"), "5000");
    // BEGIN: an opening move on the empty board (the centre).
    EXPECT_EQ(say(brain, "BEGIN\r"), V{"7,7"});
    // TURN: the opponent's stone, then an answer on an empty cell.
    V answer = say(brain, "TURN 8,8\r");
    int x = -1, y = -1;
    ASSERT_EQ(answer.size(), 1u);
    ASSERT_TRUE(parse_move(answer[0], 15, &x, &y)) << answer[0];
    EXPECT_EQ(brain.cells()[y * 15 + x], 1);
    EXPECT_EQ(brain.cells()[8 * 15 + 8], 2);
    EXPECT_EQ(say(brain, "TURN 8,8"), V{"ERROR 8,8 is occupied"});
    EXPECT_EQ(say(brain, "TURN 15,2"), V{"ERROR 15,2 is off the board"});
    EXPECT_EQ(say(brain, "TURN 1;2"), V{"ERROR expected x,y but got '1;2'"});
    EXPECT_EQ(say(brain, "TURN -1,2"), V{"ERROR expected x,y but got '-1,2'"});
    EXPECT_EQ(say(brain, "SWAP2BOARD"), V{"UNKNOWN command 'SWAP2BOARD'"});
    // TAKEBACK removes a stone.
    EXPECT_EQ(say(brain, "TAKEBACK 8,8"), V{"OK"});
    EXPECT_EQ(brain.cells()[8 * 15 + 8], 0);
    EXPECT_EQ(say(brain, "TAKEBACK 8,8"), V{"ERROR TAKEBACK 8,8: no stone there"});
    // BOARD: a whole position. Own four on row 0 (0..3): the brain completes it at 4,0.
    EXPECT_TRUE(say(brain, "BOARD\r").empty());
    for (const char* line : {"0,0,1\r", "1,0,1", "2,0,1", "3,0,1", "0,5,2", "1,5,2", "2,5,2"})
        EXPECT_TRUE(say(brain, line).empty()) << line;
    EXPECT_EQ(say(brain, "7,7"),
              V{"ERROR expected x,y,field (field 1, 2 or 3) or DONE but got '7,7'"});
    EXPECT_EQ(say(brain, "9,9,4"),
              V{"ERROR expected x,y,field (field 1, 2 or 3) or DONE but got '9,9,4'"});
    EXPECT_EQ(say(brain, "0,0,2"), V{"ERROR 0,0 is occupied"});
    EXPECT_EQ(say(brain, "DONE\r"), V{"4,0"});
    // The opponent's four is blocked when the brain has none: 4,5 after O O O O on row 5.
    EXPECT_TRUE(say(brain, "BOARD").empty());
    for (const char* line : {"0,5,2", "1,5,2", "2,5,2", "3,5,2", "9,9,1", "10,10,1"})
        EXPECT_TRUE(say(brain, line).empty());
    EXPECT_EQ(say(brain, "done"), V{"4,5"});
    // PLAY: the brain must play the given cell.
    EXPECT_EQ(say(brain, "PLAY 12,12"), V{"12,12"});
    EXPECT_EQ(brain.cells()[12 * 15 + 12], 1);
    // RESTART: a new game on the same board; empty lines are ignored; END stops.
    EXPECT_EQ(say(brain, "RESTART"), V{"OK"});
    for (int8_t c : brain.cells()) EXPECT_EQ(c, 0);
    EXPECT_TRUE(say(brain, "\r").empty());
    std::vector<std::string> ignored;
    EXPECT_FALSE(brain.handle("END\r", ignored));
    EXPECT_TRUE(ignored.empty());
}

// A manager: A opens with BEGIN, then each brain gets the other's move by TURN (every seventh
// move, the whole position by BOARD instead); every answer must be an empty cell of the
// manager's board; the game ends by the cell-by-cell rules (gomoku_test_support.hpp).
template <int N>
int manage_game(const std::string& a_name, const std::string& b_name, int rule, uint64_t seed) {
    GomocupBrain brains[2] = {GomocupBrain(brain_of(a_name, seed)),
                              GomocupBrain(brain_of(b_name, seed + 1))};
    using V = std::vector<std::string>;
    for (auto& brain : brains) {
        EXPECT_EQ(say(brain, "START " + std::to_string(N) + "\r"), V{"OK"});
        EXPECT_TRUE(say(brain, "INFO rule " + std::to_string(rule) + "\r").empty());
        EXPECT_TRUE(say(brain, "INFO timeout_turn 1000\r").empty());
    }
    Game<N> rules;
    rules.rule = rule & 1 ? RuleSet::Standard : RuleSet::Freestyle;
    Pos<N> board = rules.start();
    std::vector<std::pair<int, int>> moves;
    int last_x = -1, last_y = -1;
    for (int ply = 0; ply < N * N; ++ply) {
        const int mover = ply % 2;
        GomocupBrain& brain = brains[mover];
        V answer;
        if (ply == 0) {
            answer = say(brain, "BEGIN\r");
        } else if (ply % 7 == 0) {
            EXPECT_TRUE(say(brain, "BOARD\r").empty());
            for (std::size_t i = 0; i < moves.size(); ++i) {
                const int owner = int(i % 2) == mover ? 1 : 2;
                EXPECT_TRUE(say(brain, std::to_string(moves[i].first) + "," +
                                           std::to_string(moves[i].second) + "," +
                                           std::to_string(owner) + "\r")
                                .empty());
            }
            answer = say(brain, "DONE\r");
        } else {
            answer =
                say(brain, "TURN " + std::to_string(last_x) + "," + std::to_string(last_y) + "\r");
        }
        int x = -1, y = -1;
        if (answer.size() != 1 || !parse_move(answer[0], N, &x, &y)) {
            ADD_FAILURE() << "ply " << ply << ": not a move: " << ::testing::PrintToString(answer);
            return -2;
        }
        const int cell = Geometry<N>::cell(x, y);
        if (board.stones[0].test(cell) || board.stones[1].test(cell)) {
            ADD_FAILURE() << "ply " << ply << ": illegal move " << answer[0] << " (occupied)";
            return -2;
        }
        board.stones[mover].set(cell);
        moves.push_back({x, y});
        last_x = x;
        last_y = y;
        if (testing::Naive<N>(board, rule & 1).has_five(mover)) {
            for (auto& b : brains) say(b, "END");
            return mover;
        }
    }
    return -1;  // full board: a draw
}

TEST(GomokuGomocup, WholeGamesAgainstAManagerWithoutAnIllegalMove) {
    const std::string dir = ::testing::TempDir();
    // A player file (the seed table with its weights spelled out), as `gaeval learn` writes.
    games::PlayerFile file;
    for (int r = 0; r < kWeightCount; ++r) file.weights.push_back(seed_reward(r));
    const std::string weights = temp_file("gomocup_weights.json", "");
    games::write_player_file(weights, games::find_game("gomoku").info(), file);
    int decided = 0;
    for (int game = 0; game < 3; ++game) {
        decided += manage_game<15>("threat-search", weights, 0, 10 + game) >= 0;
        decided += manage_game<15>(weights, "seed-table", 1, 20 + game) >= 0;
        decided += manage_game<20>("seed-table", "threat-search", 1, 30 + game) >= 0;
    }
    // weighted-search: a player file of depth 2 (the seed table inside the threat search).
    const std::string search =
        std::string(GAEVAL_SOURCE_DIR) + "/data/gomoku/seed-table-search.json";
    decided += manage_game<15>(search, "seed-table", 0, 40) >= 0;
    decided += manage_game<20>("threat-search", search, 1, 41) >= 0;
    EXPECT_GE(decided, 6) << "most games end with a five";
    // A random brain against a random brain fills much of the board: still never illegal.
    EXPECT_GE(manage_game<15>("random", "random", 0, 5), -1);
    EXPECT_GE(manage_game<20>("random", "random", 1, 6), -1);
}

TEST(GomokuGomocup, TheBinaryThroughAPipe) {
    const std::string script = temp_file(
        "manager.txt",
        "START 15\r\nINFO rule 0\r\nABOUT\r\nBEGIN\r\nTURN 0,0\r\nTURN x,y\r\nBOARD\r\n1,1,1\r\n"
        "2,2,1\r\n3,3,1\r\n4,4,1\r\n14,14,2\r\nDONE\r\nEND\r\nBEGIN\r\n");
    auto r = run_cli("gomocup --player seed-table < " + script);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    std::istringstream out(r.out);
    std::vector<std::string> lines;
    for (std::string line; std::getline(out, line);) lines.push_back(line);
    ASSERT_EQ(lines.size(), 6u) << r.out;
    EXPECT_EQ(lines[0], "OK");
    EXPECT_EQ(lines[1].rfind("name=", 0), 0u);
    EXPECT_EQ(lines[2], "7,7");
    int x = -1, y = -1;
    EXPECT_TRUE(parse_move(lines[3], 15, &x, &y)) << lines[3];
    EXPECT_EQ(lines[4], "ERROR expected x,y but got 'x,y'");
    EXPECT_TRUE(lines[5] == "0,0" || lines[5] == "5,5") << "completes the diagonal: " << lines[5];
    EXPECT_TRUE(r.err.empty()) << r.err;
    // Bad players: one line, exit 2, before speaking.
    r = run_cli("gomocup --player capture < " + script);
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_EQ(r.err_lines(), 1) << r.err;
    EXPECT_TRUE(r.out.empty());
    r = run_cli("gomocup --search deep < " + script);
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_EQ(r.err_lines(), 1) << r.err;
    const std::string ataxx = temp_file(
        "ataxx_player.json",
        R"({"format": "gaeval-player", "version": 1, "game": "ataxx", "features": [], "weights": []})");
    r = run_cli("gomocup --player " + ataxx + " < " + script);
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("a player for ataxx, expected gomoku"), std::string::npos) << r.err;
}

// A player file with line-shape weights plays through the pipe (at a node limit); a malformed
// "shape_weights" is one line on stderr, exit 2, before speaking.
TEST(GomokuGomocup, AShapePlayerFileThroughAPipe) {
    const std::string script =
        temp_file("shape_manager.txt",
                  "START 15\r\nINFO timeout_turn 2000\r\nBOARD\r\n7,7,1\r\n8,8,2\r\n7,8,1\r\n"
                  "9,9,2\r\nDONE\r\nTURN 10,10\r\nEND\r\n");
    const std::string head =
        R"({"format": "gaeval-player", "version": 2, "game": "gomoku", "depth": 2, )"
        R"("features": ["r1_own1", "r2_enemy1", "r3_1_own2_enemy2", "r3_2_own2_enemy3", )"
        R"("r3_3_own2_enemy4", "r4_1_own3_enemy2", "r4_2_own4_enemy2", "r5_1_own3_enemy3", )"
        R"("r5_2_own3_enemy4", "r6_1_own4_enemy3", "r6_2_own4_enemy4", "k_acceptance"], )"
        R"("weights": [1196258.5, 82106.3, 7668.7, 4205.2, 2427.3, 556.5, 226.8, 83.0, 15.4, )"
        R"(4.05, 1.16, 0.116], )";
    const std::string good = temp_file(
        "shape_player.json",
        head + R"("shape_weights": [0, 1, 4, 3, 12, 10, 40, 100, 0, 1, 4, 3, 10, 8, 30, 80]})");
    auto r = run_cli("gomocup --nodes 3000 --player " + good + " < " + script);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    std::istringstream out(r.out);
    std::vector<std::string> lines;
    for (std::string line; std::getline(out, line);) lines.push_back(line);
    ASSERT_EQ(lines.size(), 3u) << r.out;
    EXPECT_EQ(lines[0], "OK");
    int x = -1, y = -1;
    EXPECT_TRUE(parse_move(lines[1], 15, &x, &y)) << lines[1];
    EXPECT_TRUE(parse_move(lines[2], 15, &x, &y)) << lines[2];
    for (const char* taken : {"7,7", "8,8", "7,8", "9,9", "10,10", lines[1].c_str()})
        EXPECT_NE(lines[2], taken);
    const std::string bad = temp_file("shape_bad.json", head + R"("shape_weights": [1, 2, 3]})");
    r = run_cli("gomocup --player " + bad + " < " + script);
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_EQ(r.err_lines(), 1) << r.err;
    EXPECT_NE(r.err.find("shape_weights"), std::string::npos) << r.err;
    EXPECT_TRUE(r.out.empty());
}

// A brain started the way a manager starts one: `gaeval gomocup ARGS` (or a launcher script)
// with its stdin and stdout on pipes; lines are written and read as the manager does.
class BrainProcess {
  public:
    explicit BrainProcess(const std::vector<std::string>& argv) {
        int to_child[2], from_child[2];
        if (pipe(to_child) != 0 || pipe(from_child) != 0) return;
        pid_ = fork();
        if (pid_ == 0) {
            dup2(to_child[0], 0);
            dup2(from_child[1], 1);
            close(to_child[1]);
            close(from_child[0]);
            std::vector<char*> args;
            for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
            args.push_back(nullptr);
            execv(args[0], args.data());
            _exit(127);
        }
        close(to_child[0]);
        close(from_child[1]);
        in_ = to_child[1];
        out_ = from_child[0];
        signal(SIGPIPE, SIG_IGN);
    }
    ~BrainProcess() {
        if (in_ >= 0) close(in_);
        if (out_ >= 0) close(out_);
        if (pid_ > 0) {
            int status = 0;
            for (int i = 0; i < 50 && waitpid(pid_, &status, WNOHANG) == 0; ++i) usleep(20000);
            if (waitpid(pid_, &status, WNOHANG) == 0) {
                kill(pid_, SIGKILL);
                waitpid(pid_, &status, 0);
            }
        }
    }
    bool started() const { return pid_ > 0 && in_ >= 0; }
    void send(const std::string& line) {
        const std::string text = line + "\r\n";
        EXPECT_EQ(write(in_, text.data(), text.size()), static_cast<ssize_t>(text.size()));
    }
    // The next line without its CR LF; "<timeout>" after `ms` milliseconds, "<eof>" at the end.
    std::string read_line(int ms) {
        const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(ms);
        while (true) {
            const auto nl = buffer_.find('\n');
            if (nl != std::string::npos) {
                std::string line = buffer_.substr(0, nl);
                buffer_.erase(0, nl + 1);
                if (!line.empty() && line.back() == '\r') line.pop_back();
                return line;
            }
            const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                                  until - std::chrono::steady_clock::now())
                                  .count();
            if (left <= 0) return "<timeout>";
            pollfd p{out_, POLLIN, 0};
            if (poll(&p, 1, static_cast<int>(left)) <= 0) continue;
            char chunk[4096];
            const ssize_t n = read(out_, chunk, sizeof chunk);
            if (n <= 0) return "<eof>";
            buffer_.append(chunk, static_cast<std::size_t>(n));
        }
    }
    // Waits for the brain to exit; its exit code, or -1.
    int wait_exit() {
        close(in_);
        in_ = -1;
        int status = 0;
        waitpid(pid_, &status, 0);
        pid_ = -1;
        return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    }

  private:
    pid_t pid_ = -1;
    int in_ = -1, out_ = -1;
    std::string buffer_;
};

// A game through real pipes against the shipped brain started with no arguments (as a manager
// starts pbrain-gaeval): START, INFO, BEGIN or TURN back to back with the opponent's moves
// (a fixed player of this process), a BOARD now and then; every answer must be an empty cell
// and come within timeout_turn, measured here on the wall clock.
TEST(GomokuGomocup, TheShippedBrainOverPipesAnswersLegallyWithinTheTurnTime) {
    constexpr int kTurnMs = 300;
    // Game 0: the binary with no arguments; game 1: the pbrain-gaeval launcher.
    setenv("GAEVAL_BIN", GAEVAL_BINARY, 1);
    for (int game = 0; game < 2; ++game) {
        BrainProcess brain(
            game == 0 ? std::vector<std::string>{GAEVAL_BINARY, "gomocup"}
                      : std::vector<std::string>{
                            "/bin/sh", std::string(GAEVAL_SOURCE_DIR) + "/scripts/pbrain-gaeval"});
        ASSERT_TRUE(brain.started());
        brain.send("START 15");
        ASSERT_EQ(brain.read_line(5000), "OK");
        brain.send("INFO timeout_match 100000");
        brain.send("INFO timeout_turn " + std::to_string(kTurnMs));
        brain.send("INFO time_left 100000");
        brain.send("INFO rule 0");
        Game<15> rules;
        rules.opening = Opening::None;
        Pos<15> board = rules.start();  // seat 0: the brain; seat 1: the opponent
        std::vector<std::pair<int, int>> moves;
        const int brain_seat = game % 2 == 0 ? 0 : 1;
        int answers = 0, worst_ms = 0;
        for (int ply = 0; ply < 40 && !rules.is_over(board); ++ply) {
            board.side = static_cast<uint8_t>(ply % 2);
            const bool brains_turn = ply % 2 == brain_seat;
            if (!brains_turn) {
                const Move m = rules.policy_move(board, kThreatSearch,
                                                 DrawAddress{9, uint32_t(game), board.count});
                board = rules.make(board, m);
                moves.push_back({Geometry<15>::column_of(m.cell), Geometry<15>::row_of(m.cell)});
                continue;
            }
            const auto start = std::chrono::steady_clock::now();
            if (ply == 0) {
                brain.send("BEGIN");
            } else if (answers % 9 == 8) {
                brain.send("BOARD");
                for (std::size_t i = 0; i < moves.size(); ++i)
                    brain.send(std::to_string(moves[i].first) + "," +
                               std::to_string(moves[i].second) + "," +
                               (int(i % 2) == brain_seat ? "1" : "2"));
                brain.send("DONE");
            } else {
                brain.send("TURN " + std::to_string(moves.back().first) + "," +
                           std::to_string(moves.back().second));
            }
            const std::string answer = brain.read_line(5000);
            const int ms = static_cast<int>(
                std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
                    .count());
            worst_ms = std::max(worst_ms, ms);
            int x = -1, y = -1;
            ASSERT_TRUE(parse_move(answer, 15, &x, &y)) << "ply " << ply << ": " << answer;
            const int cell = Geometry<15>::cell(x, y);
            ASSERT_FALSE(board.stones[0].test(cell) || board.stones[1].test(cell))
                << "ply " << ply << ": " << answer << " is occupied";
            EXPECT_LE(ms, kTurnMs) << "ply " << ply << ": answered after " << ms << " ms";
            board = rules.make(board, Move{static_cast<int16_t>(cell)});
            moves.push_back({x, y});
            ++answers;
        }
        EXPECT_GE(answers, 5);
        brain.send("END");
        EXPECT_EQ(brain.wait_exit(), 0);
    }
}

// With `messages` (gaeval gomocup --messages), each engine move comes after one MESSAGE line
// that says what the search did; without it, the move alone.
TEST(GomokuGomocup, TheEngineReportsItsSearchInAMessageLine) {
    for (bool messages : {true, false}) {
        BrainConfig config;
        config.player = default_player();
        config.messages = messages;
        GomocupBrain brain(config);
        EXPECT_EQ(say(brain, "START 15"), std::vector<std::string>{"OK"});
        EXPECT_TRUE(say(brain, "INFO timeout_turn 100").empty());
        EXPECT_TRUE(say(brain, "INFO max_memory 8388608").empty());
        for (const char* line : {"BEGIN", "TURN 6,6"}) {
            const auto answers = say(brain, line);
            ASSERT_EQ(answers.size(), messages ? 2u : 1u) << line;
            int x = -1, y = -1;
            EXPECT_TRUE(parse_move(answers.back(), 15, &x, &y)) << answers.back();
            if (!messages) continue;
            const std::string& m = answers[0];
            EXPECT_EQ(m.rfind("MESSAGE depth ", 0), 0u) << m;
            for (const char* field : {" nodes ", " nps ", " time ", " reason ", " pv "})
                EXPECT_NE(m.find(field), std::string::npos) << field << " in " << m;
            EXPECT_NE(m.find(answers.back()), std::string::npos) << "the PV starts with the move";
        }
        // An error answers without a MESSAGE line.
        EXPECT_EQ(say(brain, "TURN 6,6").size(), 1u);
    }
}

// `gaeval gomocup --messages` as a manager drives it over real pipes: START, the INFO lines and
// Plays up to `plies` plies over the pipes of a brain that was sent BEGIN (seat 0): the
// opponent (a threat-aware policy of this process) answers by TURN as soon as the brain moved.
// Every brain move must be an empty cell, after exactly one MESSAGE line when `messages`.
// Returns the brain's moves.
int play_over_pipes(BrainProcess& brain, int plies, bool messages) {
    Game<15> rules;
    rules.opening = Opening::None;
    Pos<15> board = rules.start();  // seat 0: the brain
    int answers = 0;
    for (int ply = 0; ply < plies && !rules.is_over(board); ++ply) {
        board.side = static_cast<uint8_t>(ply % 2);
        if (ply % 2 == 1) {
            const Move m = rules.policy_move(board, kThreatSearch, DrawAddress{11, 0, board.count});
            board = rules.make(board, m);
            brain.send("TURN " + std::to_string(Geometry<15>::column_of(m.cell)) + "," +
                       std::to_string(Geometry<15>::row_of(m.cell)));
            continue;
        }
        if (messages) {
            const std::string message = brain.read_line(5000);
            EXPECT_EQ(message.rfind("MESSAGE depth ", 0), 0u) << "ply " << ply << ": " << message;
            if (message.rfind("MESSAGE depth ", 0) != 0) return answers;
        }
        const std::string answer = brain.read_line(5000);
        int x = -1, y = -1;
        EXPECT_TRUE(parse_move(answer, 15, &x, &y)) << "ply " << ply << ": " << answer;
        if (x < 0) return answers;
        const int cell = Geometry<15>::cell(x, y);
        EXPECT_FALSE(board.stones[0].test(cell) || board.stones[1].test(cell))
            << "ply " << ply << ": " << answer << " is occupied";
        board = rules.make(board, Move{static_cast<int16_t>(cell)});
        ++answers;
    }
    return answers;
}

// BEGIN written back to back before any answer is read, then TURN after TURN. Every move must
// come after exactly one MESSAGE line and be an empty cell; a doubled line, or one left over
// from the turn before, would put a MESSAGE where a move belongs or the reverse.
TEST(GomokuGomocup, MessagesOverPipesComeOneBeforeEachMove) {
    BrainProcess brain({GAEVAL_BINARY, "gomocup", "--messages"});
    ASSERT_TRUE(brain.started());
    for (const char* line : {"START 15", "INFO timeout_match 100000", "INFO timeout_turn 60",
                             "INFO time_left 100000", "INFO rule 0", "BEGIN"})
        brain.send(line);
    ASSERT_EQ(brain.read_line(5000), "OK");
    EXPECT_GE(play_over_pipes(brain, 60, true), 5);
    brain.send("END");
    EXPECT_EQ(brain.wait_exit(), 0);
}

// The shipped shape player (data/gomoku/shape-player.json) under a node limit, started and
// driven over pipes as a manager drives a brain: its line-shape term and `--nodes` through the
// real protocol loop, every move legal, MESSAGE and move lines never out of step.
TEST(GomokuGomocup, TheShapePlayerAtANodeLimitOverPipes) {
    BrainProcess brain({GAEVAL_BINARY, "gomocup", "--messages", "--nodes", "2000", "--player",
                        std::string(GAEVAL_SOURCE_DIR) + "/data/gomoku/shape-player.json"});
    ASSERT_TRUE(brain.started());
    for (const char* line : {"START 15", "INFO timeout_turn 5000", "INFO rule 0", "BEGIN"})
        brain.send(line);
    ASSERT_EQ(brain.read_line(5000), "OK");
    EXPECT_GE(play_over_pipes(brain, 40, true), 5);
    brain.send("END");
    EXPECT_EQ(brain.wait_exit(), 0);
}

// Raw binary garbage is answered by one line that quotes at most 40 of its bytes, escaped.
TEST(GomokuGomocup, GarbageIsQuotedAndCut) {
    GomocupBrain brain(brain_of("seed-table"));
    std::string garbage = "TURN ";
    for (int i = 0; i < 300; ++i)
        garbage += static_cast<char>((i * 37 + 1) % 256 == 10 ? 11 : (i * 37 + 1) % 256);
    const auto answer = say(brain, "START 15");
    ASSERT_EQ(answer, std::vector<std::string>{"OK"});
    const auto error = say(brain, garbage);
    ASSERT_EQ(error.size(), 1u);
    EXPECT_EQ(error[0].rfind("ERROR expected x,y but got '", 0), 0u) << error[0];
    EXPECT_LT(error[0].size(), 240u) << error[0];
    for (unsigned char c : error[0]) EXPECT_TRUE(c >= 0x20 && c < 0x7f) << int(c);
    EXPECT_NE(error[0].find("... (300 bytes)"), std::string::npos) << error[0];
    const auto unknown = say(brain, std::string("\x01\xff\x80junk"));
    ASSERT_EQ(unknown.size(), 1u);
    EXPECT_EQ(unknown[0], "UNKNOWN command '\\x01\\xff\\x80junk'");
}

// The clock: timeout_turn, the match clock and the margin (docs/gomoku.md, "Time").
TEST(GomokuGomocup, TheMoveBudgetKeepsAMargin) {
    EXPECT_EQ(move_budget_ms(200, 0, -1), 160);          // 200 - 40 (a fifth)
    EXPECT_EQ(move_budget_ms(100, -1, -1), 70);          // at least 30 ms of margin
    EXPECT_EQ(move_budget_ms(5000, 100000, 3000), 240);  // a tenth of the match time left
    EXPECT_EQ(move_budget_ms(-1, -1, -1), 4000);         // no INFO: 5 s
    EXPECT_EQ(move_budget_ms(0, -1, -1), 10);            // as fast as possible: 10 ms
    EXPECT_EQ(move_budget_ms(30, 1000, 0), 1);           // nothing left: answer at once
}

}  // namespace
}  // namespace gaeval::gomoku
