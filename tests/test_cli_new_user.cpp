// What a new user runs into, as the user meets it: run folders that are never overwritten, bad
// numbers and files answered by one line and exit 2 with nothing written, progress that is
// rate-limited, Ctrl-C in any command, and learning that shows it learns.
#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli_util.hpp"

namespace {

namespace fs = std::filesystem;
using gaeval::testing::folder_snapshot;
using gaeval::testing::read_text;
using gaeval::testing::run_cli;
using gaeval::testing::temp_file;

const std::string kS1 = std::string(GAEVAL_TEST_DATA_DIR) + "/pile_in/s1.json";

std::string fresh_dir(const std::string& name) {
    const fs::path p =
        fs::path(::testing::TempDir()) / ("new_user_" + std::to_string(getpid()) + "_" + name);
    fs::remove_all(p);
    return p.string();
}

// Every file under `dir` with its bytes, to prove a refused command touched nothing.
void expect_one_line_error(const gaeval::testing::CliResult& r, const std::string& expected) {
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_EQ(r.err_lines(), 1) << r.err;
    EXPECT_NE(r.err.find(expected), std::string::npos) << r.err;
}

const std::string kTinyLearn =
    "learn --population 6 --generations 2 --verify-games 10 --panel-games 10 --max-plies 200 "
    "--backend cpu --quiet";
const std::string kTinyPileIn =
    "pile-in --scenario " + kS1 + " --generations 5 --backend cpu --quiet";

TEST(NewUser, ARunFolderIsNeverOverwritten) {
    const std::string pile = fresh_dir("pile"), learn = fresh_dir("learn");
    ASSERT_EQ(run_cli(kTinyPileIn + " --out " + pile).exit_code, 0);
    ASSERT_EQ(run_cli(kTinyLearn + " --out " + learn).exit_code, 0);
    const auto pile_before = folder_snapshot(pile), learn_before = folder_snapshot(learn);
    // The same command twice, and each command into the other's folder.
    expect_one_line_error(run_cli(kTinyPileIn + " --out " + pile),
                          "already holds a pile-in run (resume it with gaeval pile-in --resume");
    expect_one_line_error(run_cli(kTinyPileIn + " --out " + learn),
                          "already holds a learn run (resume it with gaeval learn --resume");
    expect_one_line_error(run_cli(kTinyLearn + " --out " + pile), "already holds a pile-in run");
    expect_one_line_error(run_cli("learn --resume " + pile + " --quiet"),
                          "holds a pile-in run, not a learn run");
    expect_one_line_error(run_cli("pile-in --resume " + learn + " --quiet"),
                          "holds a learn run, not a pile-in run");
    // A folder with something else in it.
    const std::string other = fresh_dir("other");
    fs::create_directories(other);
    std::ofstream(other + "/notes.txt") << "mine";
    expect_one_line_error(run_cli(kTinyPileIn + " --out " + other), "is not empty");
    EXPECT_EQ(folder_snapshot(pile), pile_before);
    EXPECT_EQ(folder_snapshot(learn), learn_before);
    EXPECT_EQ(read_text(other + "/notes.txt"), "mine");
    // The learn run resumes after all of that.
    EXPECT_EQ(run_cli("learn --resume " + learn + " --generations 3 --quiet").exit_code, 0);
}

TEST(NewUser, WithoutOutEachRunGetsANewNumberedFolder) {
    const std::string work = fresh_dir("numbered");
    fs::create_directories(work);
    const std::string in_work = "cd " + work + " && " + GAEVAL_BINARY + " ";
    for (int i = 0; i < 2; ++i) {
        const std::string cmd = in_work + "pile-in --scenario " + kS1 +
                                " --generations 3 --backend cpu >/dev/null 2>" + work + "/err";
        ASSERT_EQ(std::system(cmd.c_str()), 0) << read_text(work + "/err");
        EXPECT_NE(
            read_text(work + "/err").find("run folder runs/pile-in-00" + std::to_string(i + 1)),
            std::string::npos)
            << read_text(work + "/err");
    }
    EXPECT_TRUE(fs::exists(work + "/runs/pile-in-001/best.json"));
    EXPECT_TRUE(fs::exists(work + "/runs/pile-in-002/best.json"));
}

TEST(NewUser, RejectedFlagsCreateNoFolder) {
    const std::string dir = fresh_dir("rejected");
    for (const std::string& bad :
         {kTinyPileIn + " --population 1", kTinyPileIn + " --threads 100000",
          kTinyPileIn + " --generations 5000000000", kTinyLearn + " --population 1",
          kTinyLearn + " --scheme nonsense", kTinyLearn + " --threads 60000"}) {
        const auto r = run_cli(bad + " --out " + dir);
        EXPECT_EQ(r.exit_code, 2) << bad << "\n" << r.err;
        EXPECT_EQ(r.err_lines(), 1) << bad << "\n" << r.err;
        EXPECT_FALSE(fs::exists(dir)) << bad;
    }
}

TEST(NewUser, BadNumbersAndFilesEverywhere) {
    struct Case {
        std::string args, expected;
    };
    const std::string dup = temp_file(
        "dup.json", R"({"name": "dup", "units": "mm", "friendly": [{"x": 0, "y": 0, "base": 32}],
                        "enemy": [{"x": 0, "y": 60, "base": 32}], "units": "inch"})");
    const Case cases[] = {
        {"play --a random --b random --games 5000000000", "--games 5000000000: must be in"},
        {"play --a random --b random --threads 100000", "--threads 100000: must be in [0, 1024]"},
        {"play --a random --b random --seed 1.5", "--seed '1.5': expected an integer"},
        {"perft --depth 21", "--depth 21: must be in [0, 20]"},
        {"perft --depth 3 --threads -2", "--threads -2"},
        {"learn --generations 5000000000", "--generations 5000000000: must be in"},
        {"learn --panel-games -1", "--panel-games -1: must be in"},
        {"bench --what perft --min-samples 0", "--min-samples: must be 1 to 1000"},
        {"pile-in --scenario " + dup, "key \"units\" appears twice"},
        {"pile-in --scenario " + std::string(GAEVAL_TEST_DATA_DIR), "is a folder"},
        {"bench --what perft --positions startpos --csv /proc/no/such.csv",
         "--csv /proc/no/such.csv"},
        {"bench --what perft --positions startpos --markdown " + std::string(GAEVAL_TEST_DATA_DIR),
         "is a folder, not a file"},
        {"compare pile-in --scenario " + kS1 + " --out /tmp/x",
         "--out: compare writes no run folder"},
        {"compare learn --resume /tmp/x", "--resume: compare writes no run folder"},
    };
    for (const Case& c : cases) expect_one_line_error(run_cli(c.args), c.expected);
}

TEST(NewUser, ProgressIsRateLimitedAndEveryCommandShowsIt) {
    // 300 generations in well under a second on an idle machine: a few lines, not one per
    // generation. At most one line per 0.25 s (host/core/progress.hpp) and the last, so the
    // bound grows with the run's wall time on a loaded machine.
    const std::string dir = fresh_dir("progress");
    const auto start = std::chrono::steady_clock::now();
    auto r = run_cli("pile-in --scenario " + kS1 + " --generations 300 --backend cpu --out " + dir);
    const double wall =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    ASSERT_EQ(r.exit_code, 0) << r.err;
    int lines = 0;
    for (std::size_t p = 0; (p = r.err.find("\ngen ", p)) != std::string::npos; ++p) ++lines;
    EXPECT_GE(lines, 1);
    EXPECT_LE(lines, 2 + static_cast<int>(wall / 0.25)) << wall << " s\n" << r.err;
    EXPECT_LT(lines, 300) << r.err;
    EXPECT_NE(r.err.find("gen   300/300"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("checkpoint (end of run) written:"), std::string::npos) << r.err;
    // generations.csv keeps every 50th generation with --log-every 50.
    const std::string thin = fresh_dir("thin");
    ASSERT_EQ(run_cli("pile-in --scenario " + kS1 +
                      " --generations 300 --log-every 50 --backend cpu --quiet --out " + thin)
                  .exit_code,
              0);
    const std::string csv = read_text(thin + "/generations.csv");
    EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 1 + 6) << csv;
    // play: done / total, rate and ETA on stderr.
    r = run_cli("play --a random --b random --games 20000 --backend cpu");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.err.find("gaeval play: 20000/20000 games (100%)"), std::string::npos) << r.err;
}

// Starts a command, sends SIGINT after `delay`, and returns its exit code and stderr.
gaeval::testing::CliResult interrupt_after(const std::string& args, double delay) {
    const std::string err = temp_file("interrupt.err", "");
    const pid_t pid = fork();
    if (pid == 0) {
        const std::string cmd =
            std::string("exec ") + GAEVAL_BINARY + " " + args + " >/dev/null 2>" + err;
        execl("/bin/sh", "sh", "-c", cmd.c_str(), static_cast<char*>(nullptr));
        _exit(127);
    }
    std::this_thread::sleep_for(std::chrono::duration<double>(delay));
    kill(pid, SIGINT);
    int status = 0;
    waitpid(pid, &status, 0);
    gaeval::testing::CliResult r;
    r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    r.err = read_text(err);
    return r;
}

TEST(NewUser, CtrlCInAnyCommandIsOneLineAndExit130) {
    auto r = interrupt_after("play --a random --b random --games 4000000000 --backend cpu --seed 2",
                             1.0);
    EXPECT_EQ(r.exit_code, 130) << r.err;
    EXPECT_NE(r.err.find("gaeval play: interrupted: "), std::string::npos) << r.err;
    EXPECT_NE(r.err.find(" of 4000000000 games played"), std::string::npos) << r.err;
    r = interrupt_after("bench --what playout --max-seconds 30 --backend cpu1", 1.0);
    EXPECT_EQ(r.exit_code, 130) << r.err;
    EXPECT_NE(r.err.find("gaeval bench: interrupted: bench stopped at playout"), std::string::npos)
        << r.err;
}

TEST(NewUser, LearningShowsThatItLearns) {
    // From zero weights (a player that cannot tell moves apart), 12 generations of 16 members
    // (2,880 games, a few seconds): the panel score of the best member must rise, and the
    // learned player must beat capture, a reference it never trained against. Measured when the
    // test was written (seed 1): panel 0.150 after generation 1, 0.942 after generation 12;
    // 33 of 40 games won against capture.
    const std::string dir = fresh_dir("learning");
    auto r = run_cli(
        "learn --population 16 --generations 12 --init-range 0:0 --verify-games 40 "
        "--panel-games 40 --seed 1 --backend cpu --out " +
        dir);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    // The panel score of the best member (fixed reference players) in the progress, the CSV and
    // the picture; the picture's generation axis has integer ticks only.
    EXPECT_NE(r.err.find("panel 0."), std::string::npos) << r.err;
    const std::string csv = read_text(dir + "/generations.csv");
    EXPECT_NE(csv.find(",panel_score"), std::string::npos);
    std::vector<double> panel;
    {
        std::istringstream lines(csv);
        std::string line, header;
        std::getline(lines, header);
        size_t column = 0;
        for (size_t at = 0; at < header.find("panel_score"); ++at) column += header[at] == ',';
        while (std::getline(lines, line)) {
            std::istringstream cells(line);
            std::string cell;
            for (size_t k = 0; k <= column; ++k) std::getline(cells, cell, ',');
            panel.push_back(std::stod(cell));
        }
    }
    ASSERT_EQ(panel.size(), 12u) << csv;
    EXPECT_LT(panel.front(), 0.4) << "a zero-weight start should score low on the panel";
    EXPECT_GE(panel.back(), panel.front() + 0.3) << "the panel score did not rise";
    const std::string verification = read_text(dir + "/verification.csv");
    const size_t at = verification.find("\n12,capture,40,");
    ASSERT_NE(at, std::string::npos) << verification;
    const uint32_t wins =
        std::stoul(verification.substr(at + std::string("\n12,capture,40,").size()));
    EXPECT_GE(wins, 24u) << "the learned player should beat capture: " << verification;
    const std::string svg = read_text(dir + "/learning.svg");
    EXPECT_NE(svg.find("panel score"), std::string::npos);
    for (const char* tick : {">0</text>", ">2</text>", ">6</text>", ">12</text>"})
        EXPECT_NE(svg.find(tick), std::string::npos) << tick;
    // run.json says how the run ended and when, as pile-in's does.
    const auto run = nlohmann::json::parse(read_text(dir + "/run.json"));
    EXPECT_EQ(run["status"], "complete");
    EXPECT_TRUE(run.contains("started"));
    EXPECT_TRUE(run.contains("finished"));
}

TEST(NewUser, OpenMpThreadsSpinBrieflyThenSleep) {
    // The tool restarts itself with a short spin count unless the user chose a wait setting.
    const std::string out = temp_file("policy.md", "");
    const std::string cmd = std::string("env -u OMP_WAIT_POLICY -u GOMP_SPINCOUNT ") +
                            GAEVAL_BINARY +
                            " bench --what perft --positions 'startpos d=6' --backend cpu1 "
                            "--max-seconds 0.1 --min-samples 1 --markdown " +
                            out + " >/dev/null 2>&1";
    ASSERT_EQ(std::system(cmd.c_str()), 0);
    EXPECT_NE(read_text(out).find("OpenMP wait policy spin 30000 rounds, then sleep"),
              std::string::npos)
        << read_text(out);
}

}  // namespace
