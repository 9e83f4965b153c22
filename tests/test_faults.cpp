// Faults from the outside: runs killed with SIGKILL at random moments (checkpoint writes
// included) resume to the result of an uninterrupted run; a file size limit (a full disk) while
// writing a checkpoint is a one-line error that leaves the previous checkpoint intact;
// truncated, corrupted and foreign checkpoints and player files are one line, exit 2, nothing
// written. The CUDA twins of the resume checks run when a GPU is present.
#include <gtest/gtest.h>

#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "cli_util.hpp"
#include "gpu_test_support.hpp"
#include "host/core/error.hpp"
#include "host/io/checkpoint.hpp"

namespace {

using gaeval::testing::folder_snapshot;
using gaeval::testing::read_text;
using gaeval::testing::run_cli;
using gaeval::testing::temp_file;
namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

const std::string kS1 = std::string(GAEVAL_TEST_DATA_DIR) + "/pile_in/s1.json";
const std::string kPileIn =
    "--scenario " + kS1 + " --population 4000 --seed 11 --threads 1 --quiet";
const std::string kLearn =
    "--scheme genetic-game --population 6 --tournament round-robin --max-plies 200 "
    "--verify-games 4 --verify-every 2 --threads 1 --seed 5 --quiet";

std::string out_dir(const std::string& name) {
    const fs::path p =
        fs::path(::testing::TempDir()) / ("faults_" + std::to_string(getpid()) + "_" + name);
    fs::remove_all(p);
    return p.string();
}

// Starts `gaeval ARGS` in a child (stdout and stderr to /dev/null), optionally under a file size
// limit, and returns its pid.
pid_t spawn(const std::string& args, rlim_t file_size_limit = RLIM_INFINITY) {
    const std::string cmd = "exec " + std::string(GAEVAL_BINARY) + " " + args + " >/dev/null 2>&1";
    const pid_t pid = fork();
    if (pid == 0) {
        if (file_size_limit != RLIM_INFINITY) {
            rlimit limit{file_size_limit, file_size_limit};
            setrlimit(RLIMIT_FSIZE, &limit);
        }
        execl("/bin/sh", "sh", "-c", cmd.c_str(), nullptr);
        _exit(127);
    }
    return pid;
}

// Waits for the child up to `ms` milliseconds; returns its exit code, or -1 when it is still
// running (then it is killed with SIGKILL and reaped).
int run_for(pid_t pid, int ms) {
    const auto until = Clock::now() + std::chrono::milliseconds(ms);
    int status = 0;
    while (Clock::now() < until) {
        if (waitpid(pid, &status, WNOHANG) == pid)
            return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
        std::this_thread::sleep_for(std::chrono::microseconds(500));
    }
    kill(pid, SIGKILL);
    waitpid(pid, &status, 0);
    return -1;
}

// Runs `start` and then `resume` again and again, each killed with SIGKILL after a random delay
// (fixed seed) of up to a third of `run_ms` (an uninterrupted run's time), until `min_kills`
// kills hit a resumable run; then lets it finish. Returns the kills of resumable runs. A start
// killed before its first checkpoint is repeated in a fresh folder with twice the delay (a
// CUDA start spends its first second creating the context).
int run_with_kills(const std::string& start, const std::string& resume, const std::string& dir,
                   uint32_t seed, int min_kills, int run_ms) {
    std::mt19937 rng(seed);
    int kills = 0, extra_ms = 0;
    bool started = false;
    for (int attempt = 0; attempt < 80; ++attempt) {
        if (!started) fs::remove_all(dir);
        const std::string args = started ? resume : start;
        const int delay = kills >= min_kills
                              ? 300000
                              : extra_ms + 5 + static_cast<int>(rng() % (10 + run_ms / 3));
        const int rc = run_for(spawn(args), delay);
        if (rc == -1) {
            started = started || fs::exists(fs::path(dir) / "checkpoint.bin");
            if (started)
                ++kills;
            else
                extra_ms = 2 * extra_ms + 50;
            continue;
        }
        EXPECT_EQ(rc, 0) << args;
        if (kills < min_kills) {  // finished before enough kills: start over, a little sooner
            started = false;
            continue;
        }
        return kills;
    }
    ADD_FAILURE() << "the run never finished";
    return kills;
}

int elapsed_ms(Clock::time_point since) {
    return static_cast<int>(
        std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - since).count());
}

// Generation numbers of a generations.csv (header skipped): each generation once, in order.
std::vector<unsigned long> csv_generations(const std::string& path) {
    std::vector<unsigned long> out;
    std::ifstream in(path);
    std::string line;
    std::getline(in, line);
    while (std::getline(in, line))
        if (!line.empty()) out.push_back(std::stoul(line.substr(0, line.find(','))));
    return out;
}

void check_pile_in_kills(const std::string& backend, uint32_t seed) {
    const std::string whole = out_dir("pile_whole_" + backend), cut = out_dir("pile_cut_" + backend);
    const std::string gens = " --generations 40";
    const auto t0 = Clock::now();
    const auto reference = run_cli("pile-in " + kPileIn + gens + " --backend cpu --out " + whole);
    ASSERT_EQ(reference.exit_code, 0) << reference.err;
    const int run_ms = elapsed_ms(t0);
    const int kills = run_with_kills(
        "pile-in " + kPileIn + gens + " --checkpoint-every 0 --backend " + backend + " --out " + cut,
        "pile-in --resume " + cut + gens + " --checkpoint-every 0 --threads 1 --quiet --backend " +
            backend,
        cut, seed, 6, run_ms);
    EXPECT_GE(kills, 6);
    ::testing::Test::RecordProperty("kills", kills);
    EXPECT_EQ(read_text(cut + "/best.json"), read_text(whole + "/best.json"));
    const auto g = csv_generations(cut + "/generations.csv");
    ASSERT_EQ(g.size(), 40u);
    for (unsigned long i = 0; i < g.size(); ++i) EXPECT_EQ(g[i], i);
    EXPECT_FALSE(fs::exists(cut + "/checkpoint.bin.tmp"));
}

TEST(Faults, PileInKilledAtRandomMomentsResumesToTheSameResult) {
    check_pile_in_kills("cpu", 16);
}

void check_learn_kills(const std::string& backend, uint32_t seed) {
    const std::string whole = out_dir("learn_whole_" + backend),
                      cut = out_dir("learn_cut_" + backend);
    const std::string gens = " --generations 10";
    const auto t0 = Clock::now();
    const auto reference = run_cli("learn " + kLearn + gens + " --backend cpu --out " + whole);
    ASSERT_EQ(reference.exit_code, 0) << reference.err;
    const int run_ms = elapsed_ms(t0);
    const int kills =
        run_with_kills("learn " + kLearn + gens + " --backend " + backend + " --out " + cut,
                       "learn --resume " + cut + gens + " --threads 1 --quiet --backend " + backend,
                       cut, seed, 5, run_ms);
    EXPECT_GE(kills, 5);
    ::testing::Test::RecordProperty("kills", kills);
    EXPECT_EQ(read_text(cut + "/weights.json"), read_text(whole + "/weights.json"));
    EXPECT_EQ(read_text(cut + "/verification.csv"), read_text(whole + "/verification.csv"));
}

TEST(Faults, LearnKilledAtRandomMomentsResumesToTheSameResult) { check_learn_kills("cpu", 17); }

// Runs `pile-in` on `backend` with `env_var` set (VAR=VALUE, or ""), 5 generations,
// then resumes it to 12, and checks that its best.json is the uninterrupted CPU run's.
void check_resume_ends_where_the_cpu_run_ends(const std::string& backend, const char* env_var,
                                              const std::string& tag) {
    const std::string whole = out_dir(backend + "_whole_" + tag),
                      part = out_dir(backend + "_part_" + tag);
    auto r = run_cli("pile-in " + kPileIn + " --generations 12 --backend cpu --out " + whole);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const std::string env = std::string("env ") + env_var + " " + GAEVAL_BINARY;
    const std::string cmd_part =
        "pile-in " + kPileIn + " --generations 5 --backend " + backend + " --out " + part;
    ASSERT_EQ(std::system((env + " " + cmd_part + " >/dev/null 2>&1").c_str()), 0) << tag;
    ASSERT_EQ(std::system((env + " pile-in --resume " + part + " --generations 12 --backend " +
                           backend + " --quiet >/dev/null 2>&1")
                              .c_str()),
              0)
        << tag;
    EXPECT_EQ(read_text(part + "/best.json"), read_text(whole + "/best.json")) << tag;
}

// The CPU backend streaming its population in chunks (what a population larger than memory
// gets) resumes from its checkpoint and ends where the resident run ends.
TEST(Faults, CpuStreamedResumeEndsWhereTheResidentRunEnds) {
    check_resume_ends_where_the_cpu_run_ends("cpu", "GAEVAL_CPU_CHUNK=700", "streamed");
}

// A resumed run on CUDA ends where an uninterrupted CPU run does: the gene read/write paths of
// resume (checkpoint -> device population: resident, streamed, plans in host memory) run on
// the GPU.
TEST(Faults, CudaResumeEndsWhereTheCpuRunEnds) {
    GAEVAL_REQUIRE_DEVICE_OR_SKIP();
    check_resume_ends_where_the_cpu_run_ends("cuda", "", "resident");
    check_resume_ends_where_the_cpu_run_ends("cuda", "GAEVAL_CUDA_CHUNK=700", "streamed");
    check_resume_ends_where_the_cpu_run_ends("cuda", "GAEVAL_CUDA_HOST_CHUNK=700", "host_chunked");
    check_pile_in_kills("cuda", 18);
    check_learn_kills("cuda", 19);
}

// A file size limit below the checkpoint's size (what a full disk does to the write): one line,
// exit 2, and the previous checkpoint still the one a plain resume continues from.
TEST(Faults, FileSizeLimitWhileWritingACheckpointKeepsThePreviousOne) {
    const std::string whole = out_dir("fsize_whole"), dir = out_dir("fsize");
    ASSERT_EQ(run_cli("pile-in " + kPileIn + " --generations 6 --backend cpu --out " + whole)
                  .exit_code,
              0);
    ASSERT_EQ(run_cli("pile-in " + kPileIn + " --generations 3 --backend cpu --out " + dir)
                  .exit_code,
              0);
    const std::string checkpoint = read_text(dir + "/checkpoint.bin");
    ASSERT_GT(checkpoint.size(), 4096u);
    const std::string err = temp_file("fsize.err", "");
    const std::string cmd = "pile-in --resume " + dir + " --generations 6 --quiet --backend cpu";
    const pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
        rlimit limit{checkpoint.size() / 2, checkpoint.size() / 2};
        setrlimit(RLIMIT_FSIZE, &limit);
        const std::string line = "exec " + std::string(GAEVAL_BINARY) + " " + cmd + " 2>" + err;
        execl("/bin/sh", "sh", "-c", line.c_str(), nullptr);
        _exit(127);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    ASSERT_TRUE(WIFEXITED(status)) << "killed by signal " << WTERMSIG(status);
    EXPECT_EQ(WEXITSTATUS(status), 2);
    const std::string message = read_text(err);
    EXPECT_EQ(std::count(message.begin(), message.end(), '\n'), 1) << message;
    EXPECT_NE(message.find("checkpoint.bin: cannot write"), std::string::npos) << message;
    EXPECT_NE(message.find("previous file is unchanged"), std::string::npos) << message;
    EXPECT_EQ(read_text(dir + "/checkpoint.bin"), checkpoint);
    EXPECT_FALSE(fs::exists(dir + "/checkpoint.bin.tmp"));
    // Without the limit the same resume ends where the uninterrupted run does.
    const auto r = run_cli(cmd);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(read_text(dir + "/best.json"), read_text(whole + "/best.json"));
}

// Bad files, each one line on stderr, exit 2, and the run folder byte for byte unchanged.
void expect_refused(const std::string& args, const std::string& dir, const std::string& expected) {
    const auto before = folder_snapshot(dir);
    const auto r = run_cli(args);
    EXPECT_EQ(r.exit_code, 2) << args << ": " << r.err;
    EXPECT_EQ(r.err_lines(), 1) << args << ": " << r.err;
    EXPECT_NE(r.err.find(expected), std::string::npos) << args << ": " << r.err;
    EXPECT_TRUE(r.out.empty()) << args << ": " << r.out;
    EXPECT_EQ(folder_snapshot(dir), before) << args;
}

void write_bytes(const std::string& path, const std::string& bytes) {
    std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
}

TEST(Faults, DamagedCheckpointsAreOneLineAndWriteNothing) {
    const std::string pile = out_dir("damaged_pile"), learn = out_dir("damaged_learn");
    ASSERT_EQ(run_cli("pile-in " + kPileIn + " --generations 2 --backend cpu --out " + pile)
                  .exit_code,
              0);
    ASSERT_EQ(run_cli("learn " + kLearn + " --generations 2 --backend cpu --out " + learn)
                  .exit_code,
              0);
    int cases = 0;
    for (const std::string& dir : {pile, learn}) {
        const std::string path = dir + "/checkpoint.bin", good = read_text(path);
        const std::string sub = dir == pile ? "pile-in" : "learn";
        const std::string resume = sub + " --resume " + dir + " --generations 4 --quiet --backend cpu";
        // Truncated: empty, inside the magic, inside the header, one byte short.
        for (std::size_t keep : {std::size_t{0}, std::size_t{5}, std::size_t{40}, good.size() - 1}) {
            write_bytes(path, good.substr(0, keep));
            expect_refused(resume, dir, keep < 8 ? "not a gaeval checkpoint" : "corrupt checkpoint");
            ++cases;
        }
        // One flipped bit: in the magic, the header, the genes, the checksum.
        for (std::size_t at : {std::size_t{2}, std::size_t{20}, good.size() / 2, good.size() - 3}) {
            std::string bad = good;
            bad[at] = static_cast<char>(bad[at] ^ 0x10);
            write_bytes(path, bad);
            expect_refused(resume, dir, at < 8 ? "not a gaeval checkpoint" : "corrupt checkpoint");
            ++cases;
        }
        // Not a checkpoint at all: text, and random bytes.
        write_bytes(path, "{\"checkpoint\": true}\n");
        expect_refused(resume, dir, "not a gaeval checkpoint");
        std::mt19937 rng(7);
        std::string noise(good.size(), '\0');
        for (char& c : noise) c = static_cast<char>(rng());
        write_bytes(path, noise);
        expect_refused(resume, dir, "not a gaeval checkpoint");
        cases += 2;
        write_bytes(path, good);
    }
    // Foreign: each run's checkpoint in the other kind's folder.
    const std::string pile_checkpoint = read_text(pile + "/checkpoint.bin");
    const std::string learn_checkpoint = read_text(learn + "/checkpoint.bin");
    write_bytes(learn + "/checkpoint.bin", pile_checkpoint);
    expect_refused("learn --resume " + learn + " --generations 4 --quiet", learn,
                   "not a learn checkpoint");
    write_bytes(pile + "/checkpoint.bin", learn_checkpoint);
    expect_refused("pile-in --resume " + pile + " --generations 4 --quiet", pile,
                   "different configuration");
    cases += 2;
    EXPECT_EQ(cases, 22);
}

TEST(Faults, DamagedPlayerFilesAreOneLineAndWriteNothing) {
    const std::string learn = out_dir("damaged_player");
    ASSERT_EQ(run_cli("learn " + kLearn + " --generations 2 --backend cpu --out " + learn)
                  .exit_code,
              0);
    const std::string good = read_text(learn + "/weights.json");
    // `play` reads player files (as --a or --b) and writes nothing: the check is one line, exit 2,
    // empty stdout, and the folder the good file lives in unchanged.
    auto play = [&](const std::string& file, bool as_b = false) {
        return std::string("play --games 2 --backend cpu ") +
               (as_b ? "--a random --b " : "--b random --a ") + file;
    };
    ASSERT_EQ(run_cli(play(learn + "/weights.json")).exit_code, 0);
    int cases = 0;
    auto refused = [&](const std::string& text, const std::string& expected) {
        const std::string file = temp_file("player.json", text);
        expect_refused(play(file, cases % 2 == 1), learn, expected);
        ++cases;
    };
    refused("", "");
    refused(good.substr(0, good.size() / 2), "");
    refused(good.substr(0, 1), "");
    std::string flipped = good;
    flipped[good.find('{')] = '[';
    refused(flipped, "");
    flipped = good;
    flipped[good.find("format") + 1] ^= 0x20;
    refused(flipped, "format");
    std::string other_game = good;
    const auto at = other_game.find("\"ataxx\"");
    if (at != std::string::npos) other_game.replace(at, 7, "\"gomoku\"");
    refused(other_game, "gomoku");
    std::string binary(200, '\0');
    for (std::size_t i = 0; i < binary.size(); ++i) binary[i] = static_cast<char>(i * 37);
    refused(binary, "");
    refused(read_text(learn + "/checkpoint.bin"), "");
    EXPECT_EQ(cases, 8);
}

// Found by scripts/fuzz.sh (tests/fuzz/regressions/checkpoint-empty-section.bin, a learn
// checkpoint): an empty section made the loader memcpy into a null pointer (undefined
// behaviour that UBSan reports; the asan preset runs this). Empty sections load as empty.
TEST(Faults, CheckpointWithEmptySectionsLoads) {
    gaeval::Checkpoint c;
    c.header = {{"kind", "test"}};
    c.put("empty", std::vector<uint32_t>{});
    c.put("words", std::vector<uint32_t>{1, 2, 3});
    c.put("also-empty", std::vector<float>{});
    const std::string path = temp_file("empty.ckpt", "");
    gaeval::save_checkpoint(c, path);
    const gaeval::Checkpoint back = gaeval::load_checkpoint(path);
    EXPECT_EQ(back.header, c.header);
    EXPECT_EQ(back.blobs, c.blobs);
    std::vector<uint32_t> words{9};
    back.get("empty", words, path);
    EXPECT_TRUE(words.empty());
    back.get("words", words, path);
    EXPECT_EQ(words, (std::vector<uint32_t>{1, 2, 3}));
    EXPECT_THROW(back.get("missing", words, path), gaeval::InputError);
    // The checkpoint the fuzzer found loads too (its sections are a real learn run's).
    const gaeval::Checkpoint found = gaeval::load_checkpoint(
        std::string(GAEVAL_SOURCE_DIR) + "/tests/fuzz/regressions/checkpoint-empty-section.bin");
    EXPECT_EQ(found.header.value("kind", ""), "learn");
}

}  // namespace
