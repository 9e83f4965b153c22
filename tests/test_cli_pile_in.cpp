// `gaeval pile-in` from the outside: bad input is one line on stderr and exit 2, a good run
// writes its files and --json ends stdout with one JSON object; SIGINT leaves a checkpoint
// from which --resume ends exactly where an uninterrupted run does.
#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>
#include <csignal>

#include <chrono>
#include <filesystem>
#include <set>
#include <string>
#include <thread>

#include <nlohmann/json.hpp>

#include "cli_util.hpp"
#include "host/backend/backend.hpp"

namespace {

using gaeval::testing::read_text;
using gaeval::testing::run_cli;
namespace fs = std::filesystem;

const std::string kS1 = std::string(GAEVAL_TEST_DATA_DIR) + "/pile_in/s1.json";

// A fresh folder for this process (runs never overwrite one another).
std::string out_dir(const std::string& name) {
    const fs::path p =
        fs::path(::testing::TempDir()) / ("cli_pile_in_" + std::to_string(getpid()) + "_" + name);
    static std::set<std::string> cleaned;  // emptied the first time this process names it
    if (cleaned.insert(name).second) fs::remove_all(p);
    return p.string();
}

struct BadFlags {
    std::string args;
    std::string expected;
};

void PrintTo(const BadFlags& c, std::ostream* os) { *os << c.expected; }

class PileInCliErrors : public ::testing::TestWithParam<BadFlags> {};

TEST_P(PileInCliErrors, OneLineAndExitCode2) {
    auto r = run_cli("pile-in " + GetParam().args + " --quiet");
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_EQ(r.err_lines(), 1) << r.err;
    EXPECT_NE(r.err.find(GetParam().expected), std::string::npos) << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;
}

INSTANTIATE_TEST_SUITE_P(
    BadInput, PileInCliErrors,
    ::testing::Values(
        BadFlags{"", "--scenario FILE is required"},
        BadFlags{"--scenario /nonexistent.json", "/nonexistent.json: cannot open file"},
        BadFlags{"--scenario " + kS1 + " --population 1", "--population 1: must be in [2, 4294967295]"},
        BadFlags{"--scenario " + kS1 + " --crossover 1.0", "no survivors"},
        BadFlags{"--scenario " + kS1 + " --crossover 1.5", "--crossover 1.5: must be in [0, 1]"},
        BadFlags{"--scenario " + kS1 + " --mutation -0.1", "--mutation -0.1: must be in [0, 1]"},
        BadFlags{"--scenario " + kS1 + " --population many", "population"},
        BadFlags{"--scenario " + kS1 + " --generations 0", "--generations 0: must be in [1, 1000000000]"},
        BadFlags{"--scenario " + kS1 + " --rules aos9", "--rules: unknown rules 'aos9'"},
        BadFlags{"--scenario " + kS1 + " --backend tpu", "--backend: unknown backend 'tpu'"},
        BadFlags{"--scenario " + kS1 + " --bogus 3", "bogus"},
        BadFlags{"--scenario " + kS1 + " --out /proc/gaeval-cannot-write",
                 "--out /proc/gaeval-cannot-write: cannot create the folder"},
        BadFlags{"--resume /nonexistent-run", "--resume /nonexistent-run: no such folder"},
        // Numbers that once wrapped, crashed or slipped through.
        BadFlags{"--scenario " + kS1 + " --generations 5000000000",
                 "--generations 5000000000: must be in [1, 1000000000]"},
        BadFlags{"--scenario " + kS1 + " --generations 4294967296", "must be in [1, 1000000000]"},
        BadFlags{"--scenario " + kS1 + " --threads 100000", "--threads 100000: must be in [0, 1024]"},
        BadFlags{"--scenario " + kS1 + " --threads 60000", "--threads 60000: must be in [0, 1024]"},
        BadFlags{"--scenario " + kS1 + " --threads -1", "--threads -1: must be in [0, 1024]"},
        BadFlags{"--scenario " + kS1 + " --seed -1", "--seed '-1': expected an integer"},
        BadFlags{"--scenario " + kS1 + " --seed 18446744073709551616", "--seed 18446744073709551616"},
        BadFlags{"--scenario " + kS1 + " --mutation nan", "--mutation 'nan': expected a number"},
        BadFlags{"--scenario " + kS1 + " --crossover 0.5x", "--crossover '0.5x': expected a number"},
        BadFlags{"--scenario " + kS1 + " --checkpoint-every inf", "--checkpoint-every 'inf'"},
        BadFlags{"--scenario " + kS1 + " --population 1e6", "--population '1e6': expected an integer"},
        BadFlags{"--scenario " + kS1 + " --log-every 0", "--log-every 0: must be in"},
        BadFlags{"--scenario " + kS1 + " --reach -1", "--reach -1: must be in [0, 1000]"},
        BadFlags{"--scenario " + std::string(GAEVAL_TEST_DATA_DIR), "is a folder, not a JSON file"}));

TEST(PileInCli, CudaWithoutDeviceIsBadInput) {
    std::string reason;
    if (gaeval::cuda_device_present(&reason)) GTEST_SKIP() << "a GPU is present";
    auto r =
        run_cli("pile-in --scenario " + kS1 + " --backend cuda --quiet --out " + out_dir("nocuda"));
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_EQ(r.err_lines(), 1) << r.err;
    EXPECT_NE(r.err.find("--backend cuda"), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(fs::path(out_dir("nocuda")) / "best.json"));
}

TEST(PileInCli, JsonRunWritesFilesAndOneJsonLine) {
    const std::string dir = out_dir("json");
    auto r = run_cli("pile-in --scenario " + kS1 +
                     " --generations 20 --seed 3 --backend cpu "
                     "--json --out " +
                     dir);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const std::string last = r.out.substr(r.out.rfind('\n', r.out.size() - 2) + 1);
    auto j = nlohmann::json::parse(last);
    EXPECT_EQ(j["generations"], 20);
    EXPECT_EQ(j["seed"], 3);
    EXPECT_EQ(j["backend"], "cpu");
    EXPECT_TRUE(j.contains("in_range_count"));
    // Progress lines at most a few per second, the last generation always: a run of a few
    // milliseconds prints its first and last generation.
    int progress = 0;
    for (std::size_t p = 0; (p = r.err.find("\ngen ", p)) != std::string::npos; ++p) ++progress;
    EXPECT_GE(progress, 1) << r.err;
    EXPECT_LE(progress, 3) << r.err;
    EXPECT_NE(r.err.find("gen    20/20"), std::string::npos) << r.err;
    auto best = nlohmann::json::parse(read_text(dir + "/best.json"));
    EXPECT_EQ(best["fitness"], j["fitness"]);
}

TEST(PileInCli, InterruptedRunResumesToTheSameResult) {
    const std::string whole = out_dir("whole"), cut = out_dir("cut");
    // Reference: an uninterrupted run of the length the interrupted one will be resumed to.
    // The interrupted run is started with a huge generation count; it is stopped by SIGINT.
    const std::string cmd = std::string(GAEVAL_BINARY) + " pile-in --scenario " + kS1 +
                            " --population 2000 --generations 1000000 --seed 9 --backend cpu "
                            "--threads 2 --quiet --out " +
                            cut;
    pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
        execl("/bin/sh", "sh", "-c", ("exec " + cmd + " >/dev/null 2>&1").c_str(), nullptr);
        _exit(127);
    }
    // Wait until it has run a few generations, then interrupt it.
    for (int i = 0; i < 200 && !fs::exists(fs::path(cut) / "generations.csv"); ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    std::this_thread::sleep_for(std::chrono::milliseconds(400));
    kill(pid, SIGINT);
    int status = 0;
    waitpid(pid, &status, 0);
    ASSERT_TRUE(WIFEXITED(status));
    EXPECT_EQ(WEXITSTATUS(status), 130);
    auto run = nlohmann::json::parse(read_text(cut + "/run.json"));
    EXPECT_EQ(run["status"], "interrupted");
    const unsigned done = run["result"]["generations"].get<unsigned>();
    ASSERT_GT(done, 0u);
    const unsigned total = done + 3;

    auto resumed = run_cli("pile-in --resume " + cut + " --generations " + std::to_string(total) +
                           " --quiet --threads 1");
    ASSERT_EQ(resumed.exit_code, 0) << resumed.err;
    auto reference =
        run_cli("pile-in --scenario " + kS1 + " --population 2000 --generations " +
                std::to_string(total) + " --seed 9 --backend cpu --quiet --out " + whole);
    ASSERT_EQ(reference.exit_code, 0) << reference.err;
    EXPECT_EQ(read_text(cut + "/best.json"), read_text(whole + "/best.json"));
}

}  // namespace
