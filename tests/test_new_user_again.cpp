// A fresh clone tried as a new user would, again (issue 27): each test drives the scripts or the
// binary as a user does (a real process, a real signal, a real file) and failed before the fix:
// a CPU-only test command, a build estimate, one Ctrl-C in perft, huge scenario numbers, resumes
// shorter than the run, flags given twice, one vocabulary of flags, quiet CPU builds and the
// wording of errors and intervals.
#include <gtest/gtest.h>

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include "cli_util.hpp"

namespace {

namespace fs = std::filesystem;
using gaeval::testing::CliResult;
using gaeval::testing::folder_snapshot;
using gaeval::testing::read_text;
using gaeval::testing::run_cli;
using gaeval::testing::temp_file;

const std::string kSource = GAEVAL_SOURCE_DIR;
const std::string kS1 = std::string(GAEVAL_TEST_DATA_DIR) + "/pile_in/s1.json";
const std::string kS4 = std::string(GAEVAL_TEST_DATA_DIR) + "/pile_in/s4.json";

std::string fresh_dir(const std::string& name) {
    const fs::path p =
        fs::path(::testing::TempDir()) / ("again_" + std::to_string(getpid()) + "_" + name);
    fs::remove_all(p);
    return p.string();
}

void expect_one_line_error(const CliResult& r, const std::string& expected) {
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_EQ(r.err_lines(), 1) << r.err;
    EXPECT_NE(r.err.find(expected), std::string::npos) << r.err;
}

// A shell command (not the binary): exit code, stdout, stderr.
CliResult run_shell(const std::string& command) {
    const std::string out = temp_file("shell.out", ""), err = temp_file("shell.err", "");
    const std::string cmd = "(" + command + ") >" + out + " 2>" + err;
    const int status = std::system(cmd.c_str());
    CliResult r;
    r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    r.out = read_text(out);
    r.err = read_text(err);
    return r;
}

// A folder of fake tools put first on PATH: each `name` prints `output` and exits `code`.
std::string fake_tools(const std::string& tag,
                       const std::vector<std::tuple<std::string, std::string, int>>& tools) {
    const std::string dir = fresh_dir("tools_" + tag);
    fs::create_directories(dir);
    for (const auto& [name, output, code] : tools) {
        const std::string path = dir + "/" + name;
        std::ofstream(path) << "#!/bin/sh\necho '" << output << "'\nexit " << code << "\n";
        chmod(path.c_str(), 0755);
    }
    return dir;
}

// ---- 1. the test command: CPU-only where no GPU is present; CI asks for CUDA ----------------

TEST(NewUserAgain, TheTestCommandBuildsTheCpuBackendAloneWithoutAGpu) {
    const std::string script = kSource + "/scripts/test.sh --which";
    // nvidia-smi present but without a device (as on a machine with a driver and no GPU).
    const std::string no_gpu =
        fake_tools("nogpu", {{"nvidia-smi", "No devices were found", 6}, {"nvcc", "nvcc fake", 0}});
    CliResult r = run_shell("PATH=" + no_gpu + ":$PATH " + script);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.err.find("test: preset cpu (no GPU found"), std::string::npos) << r.err;
    // A GPU listed: the CUDA preset.
    const std::string gpu = fake_tools(
        "gpu", {{"nvidia-smi", "GPU 0: Fake H100 (UUID: GPU-0)", 0}, {"nvcc", "nvcc fake", 0}});
    r = run_shell("PATH=" + gpu + ":$PATH " + script);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.err.find("test: preset cuda (a GPU is present"), std::string::npos) << r.err;
    // A preset named wins; CI names cuda so that the CUDA code keeps compiling.
    r = run_shell("PATH=" + no_gpu + ":$PATH " + kSource + "/scripts/test.sh cuda --which");
    EXPECT_NE(r.err.find("test: preset cuda (asked for)"), std::string::npos) << r.err;
    EXPECT_NE(read_text(kSource + "/.ci/run").find("\nscripts/test.sh cuda\n"), std::string::npos);
    // The README's first screen shows the CPU-only command.
    const std::string readme = read_text(kSource + "/README.md");
    EXPECT_LT(readme.find("scripts/test.sh cpu "), readme.find("\n## "));
}

// ---- 5. an estimate before a long build --------------------------------------------------------

TEST(NewUserAgain, TheBuildSaysWhatItCompilesAndHowLongItTakes) {
    // The preset this test binary was built with: build/PRESET/gaeval.
    const fs::path binary_dir = fs::path(GAEVAL_BINARY).parent_path();
    const std::string preset = binary_dir.filename().string();
    if (binary_dir.parent_path() != fs::path(kSource) / "build" ||
        (preset != "cpu" && preset != "cuda" && preset != "gpu"))
        GTEST_SKIP() << "built outside the presets' folders (" << binary_dir << ")";
    const CliResult r = run_shell(kSource + "/scripts/build.sh --plan " + preset + " gaeval");
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_TRUE(std::regex_search(r.err, std::regex("build: " + preset +
                                                    " preset, gaeval: .*a first build is [0-9]+ "
                                                    "steps .*about [0-9]+ min on [0-9]+ idle")))
        << r.err;
    if (GAEVAL_HAVE_CUDA) {  // the kernels are part of this build
        EXPECT_NE(r.err.find("CUDA files (nvcc)"), std::string::npos) << r.err;
    }
}

// ---- 2. one Ctrl-C stops perft at any depth -----------------------------------------------------

TEST(NewUserAgain, OneCtrlCStopsADeepPerftPromptly) {
    const std::string err = temp_file("perft.err", "");
    const pid_t pid = fork();
    if (pid == 0) {
        const std::string cmd = std::string("exec ") + GAEVAL_BINARY +
                                " perft --depth 12 --backend cpu --threads 2 >/dev/null 2>" + err;
        execl("/bin/sh", "sh", "-c", cmd.c_str(), static_cast<char*>(nullptr));
        _exit(127);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(1500));
    kill(pid, SIGINT);  // once
    const auto sent = std::chrono::steady_clock::now();
    int status = 0;
    bool ended = false;
    while (std::chrono::steady_clock::now() - sent < std::chrono::seconds(20)) {
        if (waitpid(pid, &status, WNOHANG) == pid) {
            ended = true;
            break;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    if (!ended) {
        kill(pid, SIGKILL);
        waitpid(pid, &status, 0);
    }
    ASSERT_TRUE(ended) << "perft --depth 12 still ran 20 s after one SIGINT";
    ASSERT_TRUE(WIFEXITED(status));
    EXPECT_EQ(WEXITSTATUS(status), 130);
    const std::string text = read_text(err);
    EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 1) << text;
    EXPECT_NE(text.find("gaeval perft: interrupted: 0 of 16 root moves counted"), std::string::npos)
        << text;
}

// ---- 3. huge numbers in a scenario --------------------------------------------------------------

TEST(NewUserAgain, HugeScenarioNumbersAreRefusedAtTheEdge) {
    const std::string enemy = R"("enemy": [{"x": 0, "y": 60, "base": 32}])";
    struct Case {
        std::string text, expected;
    };
    for (const Case& c : {
             Case{R"({"units": "mm", "friendly": [{"x": 1e308, "y": 0, "base": 32}], )" + enemy +
                      "}",
                  "friendly[0].x: must be in [-10000, 10000] mm, got 1e+308"},
             Case{R"({"units": "mm", "friendly": [{"x": 0, "y": -3e38, "base": 32}], )" + enemy +
                      "}",
                  "friendly[0].y: must be in [-10000, 10000] mm, got -3e+38"},
             Case{
                 R"({"units": "inch", "friendly": [{"x": 0, "y": 0, "base": 1e6}], )" + enemy + "}",
                 "friendly[0].base: must be in [0, 39.3701] inch, got 1e+06"},
             Case{
                 R"({"units": "mm", "reach": 1e300, "friendly": [{"x": 0, "y": 0, "base": 32}], )" +
                     enemy + "}",
                 "reach: must be in [0, 25400] mm, got 1e+300"},
             Case{R"({"units": "mm", "friendly": [{"x": 0, "y": 0, "base": 32}], "enemy": [{"x": )"
                  R"(0, "y": 90, "base": [60, 35], "angle": 1e30}]})",
                  "enemy[0].angle: must be in [-360, 360] degrees, got 1e+30"},
         }) {
        const std::string file = temp_file("huge.json", c.text);
        const std::string out = fresh_dir("huge");
        const CliResult r =
            run_cli("pile-in --scenario " + file + " --generations 2 --backend cpu --out " + out);
        expect_one_line_error(r, file + ": " + c.expected);
        EXPECT_FALSE(fs::exists(out)) << "nothing written";
    }
}

// ---- 4. resumes shorter than the run, flags given twice -----------------------------------------

TEST(NewUserAgain, AResumeWithFewerGenerationsThanRunTouchesNothing) {
    const std::string pile = fresh_dir("short_pile"), learn = fresh_dir("short_learn");
    ASSERT_EQ(run_cli("pile-in --scenario " + kS1 +
                      " --population 20 --generations 6 --backend cpu --quiet --out " + pile)
                  .exit_code,
              0);
    ASSERT_EQ(run_cli("learn --population 6 --generations 2 --verify-games 10 --panel-games 10 "
                      "--max-plies 200 --backend cpu --quiet --out " +
                      learn)
                  .exit_code,
              0);
    const auto pile_before = folder_snapshot(pile), learn_before = folder_snapshot(learn);
    expect_one_line_error(
        run_cli("pile-in --resume " + pile + " --generations 3 --backend cpu --quiet"),
        "--generations 3: the run already completed 6 generations");
    expect_one_line_error(
        run_cli("learn --resume " + learn + " --generations 1 --backend cpu --quiet"),
        "--generations 1: the run already completed 2 generations");
    EXPECT_EQ(folder_snapshot(pile), pile_before) << "every file byte-identical";
    EXPECT_EQ(folder_snapshot(learn), learn_before);
    // As many generations as were run is still a resume of a finished run.
    EXPECT_EQ(
        run_cli("pile-in --resume " + pile + " --generations 6 --backend cpu --quiet").exit_code,
        0);
}

TEST(NewUserAgain, AFlagGivenTwiceIsRefused) {
    expect_one_line_error(run_cli("perft --depth 3 --depth 4"),
                          "--depth given twice ('3', then '4'): give it once");
    expect_one_line_error(run_cli("play --a random --b random --games 2 --games=3"),
                          "--games given twice");
}

// ---- 6. one flag, one meaning -------------------------------------------------------------------

TEST(NewUserAgain, OldSpellingsWorkAndSayOnceThatTheyAreOld) {
    const std::string bench =
        "bench --what perft --positions 'ataxx||3' --backend cpu1 --max-seconds 0.05 "
        "--min-samples 1 ";
    CliResult now = run_cli(bench + "--game ataxx");
    EXPECT_EQ(now.exit_code, 0) << now.err;
    EXPECT_EQ(now.err.find("note:"), std::string::npos) << now.err;
    CliResult old = run_cli(bench + "--games ataxx");
    EXPECT_EQ(old.exit_code, 0) << old.err;
    EXPECT_NE(old.err.find("gaeval bench: note: --games LIST in bench is now --game LIST"),
              std::string::npos)
        << old.err;
    // Lengths carry their unit; a bare number is inches, as before, with a note.
    const std::string a = fresh_dir("reach_mm"), b = fresh_dir("reach_bare");
    const std::string pile = "pile-in --scenario " + kS4 +
                             " --rules aos4 --population 20 --generations 3 --backend cpu "
                             "--quiet --coherency 25.4mm --reach ";
    now = run_cli(pile + "12.7mm --out " + a);
    ASSERT_EQ(now.exit_code, 0) << now.err;
    EXPECT_EQ(now.err.find("note:"), std::string::npos) << now.err;
    old = run_cli(pile + "0.5 --out " + b);
    ASSERT_EQ(old.exit_code, 0) << old.err;
    EXPECT_NE(old.err.find("--reach 0.5: a bare number is read in inches; write 0.5in (or "
                           "12.7mm)"),
              std::string::npos)
        << old.err;
    EXPECT_EQ(read_text(a + "/best.json"), read_text(b + "/best.json"));
    expect_one_line_error(run_cli(pile + "30000mm --out " + fresh_dir("reach_big")),
                          "--reach 30000mm: must be in [0, 25400] mm");
    // Search depth is --depth in play too (both players); --depth-a overrides per player.
    const std::string player = kSource + "/data/gomoku/seed-table-search.json";
    const std::string play =
        "play --game gomoku --a " + player + " --b random --games 4 --backend cpu --seed 5 ";
    const CliResult depth = run_cli(play + "--depth 1");
    const CliResult depth_a = run_cli(play + "--depth-a 1");
    const CliResult file_depth = run_cli(play);  // the file says depth 2
    ASSERT_EQ(depth.exit_code, 0) << depth.err;
    ASSERT_EQ(depth_a.exit_code, 0) << depth_a.err;
    ASSERT_EQ(file_depth.exit_code, 0) << file_depth.err;
    // The results and the mean game length: the same for --depth 1 and --depth-a 1, and the
    // file's own depth plays other games (seed 5: 7.5 plies a game against 9.5).
    const auto results = [](const std::string& out) {
        const auto a = out.find("\nA: ");
        const auto end = out.find(';', out.find("\nmean plies", a));
        return a == std::string::npos || end == std::string::npos ? out : out.substr(a, end - a);
    };
    EXPECT_EQ(results(depth.out), results(depth_a.out));
    EXPECT_NE(results(depth.out), results(file_depth.out));
    expect_one_line_error(run_cli("play --a random --b random --games 2 --depth 2"),
                          "--depth: neither player is a player file");
    // One table documents it, linked from the README.
    const std::string table = read_text(kSource + "/docs/cli.md");
    for (const char* word :
         {"`--game NAME`", "`--games N`", "`--rules NAME`", "`--depth D`", "`12.7mm` or `0.5in`"})
        EXPECT_NE(table.find(word), std::string::npos) << word;
    EXPECT_NE(read_text(kSource + "/README.md").find("docs/cli.md"), std::string::npos);
}

// ---- 8. noise
// ------------------------------------------------------------------------------------

TEST(NewUserAgain, ACpuBuildSaysOnceThatItHasNoCuda) {
    CliResult r = run_cli("perft --depth 2 --backend cpu");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.err, "") << "a named backend needs no note";
    if (GAEVAL_HAVE_CUDA) GTEST_SKIP() << "this gaeval has the CUDA backend";
    r = run_cli("perft --depth 2");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.err, "") << "auto has no choice to explain in a CPU-only build";
    const std::string pile = fresh_dir("quiet_pile");
    r = run_cli("pile-in --scenario " + kS1 + " --generations 2 --out " + pile);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.err.find("built without the CUDA backend"), std::string::npos) << r.err;
    r = run_cli("--help");
    EXPECT_NE(r.out.find("built without the CUDA backend"), std::string::npos) << r.out;
    r = run_cli("games");
    EXPECT_NE(r.out.find("built without the CUDA backend"), std::string::npos) << r.out;
}

TEST(NewUserAgain, CtestLinesAreShort) {
    const fs::path build = fs::path(GAEVAL_BINARY).parent_path();
    const CliResult r = run_shell("ctest -N --test-dir " + build.string());
    ASSERT_EQ(r.exit_code, 0) << r.err;
    std::istringstream lines(r.out);
    std::string line, longest;
    int tests = 0;
    while (std::getline(lines, line)) {
        if (line.find("Test #") != std::string::npos) ++tests;
        if (line.size() > longest.size()) longest = line;
    }
    EXPECT_GT(tests, 100);
    EXPECT_LE(longest.size(), 150u) << longest;
}

// ---- 9. wording
// ----------------------------------------------------------------------------------

TEST(NewUserAgain, ErrorsAreWordedForPeople) {
    CliResult r = run_cli("pile-in --frob");
    expect_one_line_error(r, "error: unknown option --frob; gaeval pile-in --help lists them");
    EXPECT_EQ(r.err.find("\xe2\x80"), std::string::npos) << "straight quotes only";
    r = run_cli("perft --depth");
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_EQ(r.err.find("\xe2\x80"), std::string::npos) << r.err;
    expect_one_line_error(run_cli("play --a frob --b random --games 2"),
                          "--a 'frob': not an ataxx player");
    // pac-bot counts lines from 1.
    const std::string bad = temp_file("pac_first.txt", "wide 12\n");
    expect_one_line_error(run_cli("pac-bot --backend cpu <" + bad), "stdin: line 1:");
    // Bad island flags are refused before any line names a run folder.
    const std::string out = fresh_dir("migrants");
    r = run_cli(
        "learn --islands 4 --migrants 1000 --population 6 --generations 2 --backend cpu --out " +
        out);
    expect_one_line_error(r, "--migrants 1000: an island would take");
    EXPECT_EQ(r.err.find(out), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(out));
}

// play's interval is Wilson's, as learn's: never 1.0000 - 1.0000 for all games won.
TEST(NewUserAgain, PlayPrintsTheWilsonInterval) {
    const CliResult r = run_cli("play --a capture --b random --games 200 --backend cpu --seed 4");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    std::smatch m;
    ASSERT_TRUE(std::regex_search(
        r.out, m,
        std::regex(
            R"(A: (\d+) wins, (\d+) draws, (\d+) losses; score ([0-9.]+) \(95% CI ([0-9.]+) - ([0-9.]+)\))")))
        << r.out;
    const double n = std::stod(m[1]) + std::stod(m[2]) + std::stod(m[3]);
    const double p = (std::stod(m[1]) + 0.5 * std::stod(m[2])) / n, z = 1.96;
    const double centre = (p + z * z / (2 * n)) / (1 + z * z / n);
    const double half = z * std::sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n);
    EXPECT_NEAR(std::stod(m[5]), centre - half, 6e-5) << r.out;
    EXPECT_NEAR(std::stod(m[6]), std::min(1.0, centre + half), 6e-5) << r.out;
    EXPECT_LT(std::stod(m[5]), std::stod(m[6]));
}

}  // namespace
