// Islands (host/islands/): the pure parts against hand-derived answers (topology, emigrant
// selection, immigrant placement, rank blocks, seeds); one island is the plain run of every
// learn scheme; unconnected islands are plain runs with the islands' seeds (pile-in); migration
// changes results and is logged; a resumed island run equals an uninterrupted one; bad input is
// one line, exit 2. Over MPI (skipped with a reason without an MPI build or mpirun): 2 ranks
// give the files of the one-process run, and a rank killed with SIGKILL ends the run in bounded
// time, after which a resume gives the uninterrupted result.
#include <gtest/gtest.h>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "ataxx_test_support.hpp"
#include "cli_util.hpp"
#include "host/games/registry.hpp"
#include "host/islands/archipelago.hpp"
#include "host/islands/islands.hpp"
#include "host/islands/learn_islands.hpp"
#include "host/learn/learn_problems.hpp"
#include "host/learn/learn_run.hpp"

namespace {

using namespace gaeval;
namespace islands = gaeval::islands;
using namespace gaeval::islands;
using gaeval::testing::folder_snapshot;
using gaeval::testing::read_text;
using gaeval::testing::run_cli;
namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

std::string temp_dir(const std::string& name) {
    const fs::path p =
        fs::path(::testing::TempDir()) / ("islands_" + std::to_string(getpid()) + "_" + name);
    fs::remove_all(p);
    return p.string();
}

const std::string kS1 = std::string(GAEVAL_TEST_DATA_DIR) + "/pile_in/s1.json";
// A small learn run: 6 generations of modern with 8 members per island.
const std::string kLearn =
    "learn --scheme modern --population 8 --elites 2 --tournament round-robin --max-plies 120 "
    "--generations 6 --verify-games 4 --threads 1 --seed 7 --quiet";
const std::string kLearnIslands = kLearn + " --islands 3 --migrate-every 2 --migrants 2";

// ---- the pure parts -------------------------------------------------------------------------

TEST(Islands, SourcesFollowTheTopology) {
    IslandConfig c;
    c.count = 4;
    c.topology = islands::Topology::Ring;
    EXPECT_EQ(migration_sources(c, 0), (std::vector<uint32_t>{3}));
    EXPECT_EQ(migration_sources(c, 2), (std::vector<uint32_t>{1}));
    c.topology = islands::Topology::FullyConnected;
    EXPECT_EQ(migration_sources(c, 2), (std::vector<uint32_t>{0, 1, 3}));
    c.topology = islands::Topology::Unconnected;
    EXPECT_TRUE(migration_sources(c, 2).empty());
    c.count = 1;
    c.topology = islands::Topology::Ring;
    EXPECT_TRUE(migration_sources(c, 0).empty());
}

TEST(Islands, MigrationEveryGthGenerationButNotAfterTheLast) {
    IslandConfig c;
    c.count = 2;
    c.migrate_every = 3;
    std::vector<uint32_t> after;
    for (uint32_t g = 0; g < 9; ++g)
        if (migrates_after(c, g, 9)) after.push_back(g);
    EXPECT_EQ(after, (std::vector<uint32_t>{2, 5}));  // not after generation 8, the last
    c.topology = islands::Topology::Unconnected;
    EXPECT_FALSE(migrates_after(c, 2, 9));
}

TEST(Islands, BestKAndPlacementByHand) {
    const std::vector<double> fitness{0.5, 0.9, 0.1, 0.9, 0.1};
    // Best first, ties by lower index.
    EXPECT_EQ(best_members(fitness, 3), (std::vector<uint64_t>{1, 3, 0}));
    // Worst first, ties by higher index: 4 (0.1), 2 (0.1), 0 (0.5).
    EXPECT_EQ(place_immigrants(fitness, {0.3, 0.05, 0.7}, Replacement::Worst),
              (std::vector<int64_t>{4, 2, 0}));
    // If-better: 0.05 does not beat 0.1 (member 2); 0.7 beats 0.5.
    EXPECT_EQ(place_immigrants(fitness, {0.3, 0.05, 0.7}, Replacement::IfBetter),
              (std::vector<int64_t>{4, -1, 0}));
    // Equal is not better.
    EXPECT_EQ(place_immigrants(fitness, {0.1}, Replacement::IfBetter), (std::vector<int64_t>{-1}));
}

TEST(Islands, RanksHoldContiguousBlocksAndSeedsDependOnTheIslandOnly) {
    // 7 islands on 3 ranks: 3, 2, 2.
    std::vector<int> owner;
    for (uint32_t i = 0; i < 7; ++i) owner.push_back(island_rank(i, 7, 3));
    EXPECT_EQ(owner, (std::vector<int>{0, 0, 0, 1, 1, 2, 2}));
    for (uint32_t i = 0; i < 5; ++i) EXPECT_EQ(island_rank(i, 5, 1), 0);
    for (uint32_t i = 0; i < 4; ++i) EXPECT_EQ(island_rank(i, 4, 4), int(i));
    EXPECT_EQ(island_seed(42, 0), 42u);
    EXPECT_NE(island_seed(42, 1), island_seed(42, 2));
    EXPECT_NE(island_seed(42, 1), 42u);
    EXPECT_EQ(island_seed(42, 1), island_seed(42, 1));
}

TEST(Islands, ValidationNamesTheFlag) {
    IslandConfig c;
    c.count = 4;
    c.topology = islands::Topology::FullyConnected;
    c.migrants = 3;  // 3 sources x 3 = 9 immigrants
    EXPECT_THROW(validate(c, 9), InputError);
    EXPECT_NO_THROW(validate(c, 10));
    c.count = 0;
    EXPECT_THROW(validate(c, 10), InputError);
}

// ---- learn: one island is the plain run, for every scheme ----------------------------------

learn::LearnJob small_job(const std::string& scheme, uint32_t generations) {
    learn::LearnJob job;
    job.config = learn::default_config(scheme, 15);
    learn::LearnConfig& c = job.config;
    c.population = scheme == "ten-tournaments" ? 12 : 6;
    c.generations = generations;
    c.seed = 5;
    c.max_plies = 40;
    c.rounds = 3;
    c.tournament = learn::parse_tournament("round-robin");
    job.session = games::find_game("ataxx").open({});
    job.backend = ataxx::testing::cpu_backend(1);
    job.verify_games = 0;
    job.panel_games = 0;
    job.quiet = true;
    return job;
}

std::vector<uint32_t> bits_of(const std::vector<float>& v) {
    std::vector<uint32_t> b(v.size());
    if (!v.empty()) std::memcpy(b.data(), v.data(), v.size() * sizeof(float));
    return b;
}

TEST(IslandsLearn, OneIslandIsThePlainRunForEveryScheme) {
    for (std::string scheme : {"genetic-game", "paired-blend", "ten-tournaments", "modern"}) {
        SCOPED_TRACE(scheme);
        const learn::LearnJob job = small_job(scheme, 2);
        const learn::LearnResult plain = learn::run_learn(job);
        LocalTransport t;
        IslandConfig one;  // one island, no migration
        const LearnIslandsResult r = run_learn_islands(job, one, t);
        EXPECT_EQ(bits_of(r.best_weights), bits_of(plain.state.best_weights));
        ASSERT_EQ(r.archipelago.rows.size(), plain.generations.size());
        for (size_t g = 0; g < plain.generations.size(); ++g) {
            EXPECT_EQ(r.archipelago.rows[g].best, plain.generations[g].best_value) << g;
            EXPECT_EQ(r.archipelago.rows[g].mean, plain.generations[g].mean_value) << g;
        }
    }
}

std::vector<std::vector<std::string>> csv_rows(const std::string& path);
std::string untimed(const std::string& path);

// Every game with a weighted player learns on islands (its own default scheme), exporting a
// player file of its own game.
TEST(IslandsLearn, EveryGameWithAWeightedPlayer) {
    for (const char* game : {"tictactoe", "gomoku", "risk"}) {
        SCOPED_TRACE(game);
        const std::string dir = temp_dir(std::string("game_") + game);
        const auto r = run_cli(std::string("learn --game ") + game +
                               " --islands 2 --generations 2 --population 10 --migrate-every 1 "
                               "--verify-games 2 --max-plies 60 --threads 1 --quiet --out " +
                               dir);
        ASSERT_EQ(r.exit_code, 0) << r.err;
        EXPECT_NE(read_text(dir + "/weights.json").find(game), std::string::npos);
        EXPECT_EQ(csv_rows(dir + "/islands.csv").size(), 4u);     // 2 generations x 2 islands
        EXPECT_EQ(csv_rows(dir + "/migrations.csv").size(), 2u);  // after generation 0: 1 each
    }
}

// ---- CSV helpers ------------------------------------------------------------------------------

// A generations.csv with its timing columns emptied (wall times differ from run to run).
std::string untimed(const std::string& path) {
    static const std::vector<std::string> timed = {
        "seconds",  "games_per_s", "evals_per_s",  "evaluate_s",
        "select_s", "vary_s",      "statistics_s", "evaluations_per_s"};
    std::istringstream in(read_text(path));
    std::string line, out;
    std::vector<bool> timing;  // by column, from the header
    for (bool header = true; std::getline(in, line); header = false) {
        std::stringstream cs(line);
        std::string cell;
        for (size_t k = 0; std::getline(cs, cell, ','); ++k) {
            if (header)
                timing.push_back(std::find(timed.begin(), timed.end(), cell) != timed.end());
            out += (!header && k < timing.size() && timing[k] ? "" : cell) + ",";
        }
        out += "\n";
    }
    return out;
}

std::vector<std::vector<std::string>> csv_rows(const std::string& path) {
    std::vector<std::vector<std::string>> rows;
    std::istringstream in(read_text(path));
    std::string line;
    std::getline(in, line);  // header
    while (std::getline(in, line)) {
        std::vector<std::string> cells;
        std::stringstream cs(line);
        std::string cell;
        while (std::getline(cs, cell, ',')) cells.push_back(cell);
        rows.push_back(cells);
    }
    return rows;
}

// ---- pile-in: unconnected islands are plain runs with the islands' seeds -------------------

TEST(IslandsPileIn, UnconnectedIslandsArePlainRunsWithTheirSeeds) {
    const std::string common =
        "pile-in --scenario " + kS1 + " --population 300 --generations 8 --threads 1 --quiet";
    const std::string dir = temp_dir("unconnected");
    auto r = run_cli(common + " --seed 3 --islands 2 --topology unconnected --out " + dir);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto islands = csv_rows(dir + "/islands.csv");
    ASSERT_EQ(islands.size(), 16u);
    for (uint32_t island = 0; island < 2; ++island) {
        const std::string plain = temp_dir("plain" + std::to_string(island));
        r = run_cli(common + " --seed " + std::to_string(island_seed(3, island)) + " --out " +
                    plain);
        ASSERT_EQ(r.exit_code, 0) << r.err;
        const auto gens = csv_rows(plain + "/generations.csv");
        ASSERT_EQ(gens.size(), 8u);
        for (size_t g = 0; g < 8; ++g) {
            const auto& row = islands[g * 2 + island];
            EXPECT_EQ(row[0], gens[g][0]);
            EXPECT_EQ(row[1], std::to_string(island));
            EXPECT_EQ(std::stod(row[2]), std::stod(gens[g][1])) << "best, generation " << g;
            EXPECT_EQ(std::stod(row[3]), std::stod(gens[g][2])) << "mean, generation " << g;
        }
    }
    EXPECT_TRUE(read_text(dir + "/migrations.csv").find('\n') ==
                read_text(dir + "/migrations.csv").size() - 1);  // the header alone
    EXPECT_TRUE(fs::exists(dir + "/best.json"));
}

// ---- the files every run has: generations.csv per island and of the archipelago, a picture --

// Unconnected islands are plain runs with the islands' seeds: island-K/generations.csv is the
// plain run's generations.csv (timing columns aside), for learn and for pile-in.
TEST(IslandsFiles, UnconnectedIslandsWriteThePlainRunsGenerations) {
    const std::string learn_args = kLearn + " --panel-games 0";
    const std::string apart = temp_dir("files_apart");
    auto r = run_cli(learn_args + " --islands 2 --topology unconnected --out " + apart);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(read_text(apart + "/learning.svg").find("archipelago best"), std::string::npos);
    const std::string pile =
        "pile-in --scenario " + kS1 + " --population 300 --generations 5 --threads 1 --quiet";
    const std::string p_apart = temp_dir("files_papart");
    r = run_cli(pile + " --seed 3 --islands 2 --topology unconnected --out " + p_apart);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(read_text(p_apart + "/islands.svg").find("archipelago best"), std::string::npos);
    for (uint32_t island = 0; island < 2; ++island) {
        SCOPED_TRACE("island " + std::to_string(island));
        const std::string k = "/island-" + std::to_string(island) + "/generations.csv";
        std::string seeded = learn_args;  // kLearn's "--seed 7" made the island's seed
        seeded.replace(seeded.find("--seed 7"), 8,
                       "--seed " + std::to_string(island_seed(7, island)));
        const std::string plain = temp_dir("files_plain" + std::to_string(island));
        ASSERT_EQ(run_cli(seeded + " --out " + plain).exit_code, 0);
        EXPECT_EQ(csv_rows(plain + "/generations.csv").size(), 6u);
        EXPECT_EQ(untimed(apart + k), untimed(plain + "/generations.csv"));
        const std::string p_plain = temp_dir("files_pplain" + std::to_string(island));
        ASSERT_EQ(run_cli(pile + " --seed " + std::to_string(island_seed(3, island)) + " --out " +
                          p_plain)
                      .exit_code,
                  0);
        EXPECT_EQ(csv_rows(p_plain + "/generations.csv").size(), 5u);
        // (untimed also empties the phase columns, 0 on islands: breeding follows migration)
        EXPECT_EQ(untimed(p_apart + k), untimed(p_plain + "/generations.csv"));
    }
}

// Several islands: each island's file holds its own best and mean (as islands.csv says), and
// the archipelago's file each generation's line of the island with the best value.
TEST(IslandsFiles, EveryIslandAndTheArchipelagosBest) {
    const std::string dir = temp_dir("files_four");
    auto r = run_cli(kLearnIslands + " --out " + dir);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto islands = csv_rows(dir + "/islands.csv");  // generation, island, best, mean
    ASSERT_EQ(islands.size(), 6u * 3);
    std::vector<std::vector<std::vector<std::string>>> per(3);
    for (int i = 0; i < 3; ++i) {
        per[i] = csv_rows(dir + "/island-" + std::to_string(i) + "/generations.csv");
        ASSERT_EQ(per[i].size(), 6u) << i;
    }
    const auto best = csv_rows(dir + "/generations.csv");
    ASSERT_EQ(best.size(), 6u);
    for (size_t g = 0; g < 6; ++g) {
        size_t top = 0;
        for (size_t i = 0; i < 3; ++i) {
            const auto& row = islands[g * 3 + i];
            const auto& line = per[i][g];
            EXPECT_EQ(std::stoul(line[0]), g + 1);  // generations completed
            char best[32], mean[32];                // generations.csv prints values with 6 digits
            std::snprintf(best, sizeof best, "%.6g", std::stod(row[2]));
            std::snprintf(mean, sizeof mean, "%.6g", std::stod(row[3]));
            EXPECT_EQ(line[7], best) << "best, island " << i;
            EXPECT_EQ(line[8], mean) << "mean, island " << i;
            if (std::stod(row[2]) > std::stod(islands[g * 3 + top][2])) top = i;
        }
        std::vector<std::string> expected = per[top][g];
        expected.push_back(std::to_string(top));
        EXPECT_EQ(best[g], expected) << "generation " << g;
    }
    const std::string svg = read_text(dir + "/learning.svg");
    EXPECT_NE(svg.find("island 2"), std::string::npos);
    EXPECT_EQ(r.out.find("generations.csv") != std::string::npos, true) << r.out;
}

// ---- learn: migration is logged, happens at boundaries and changes the run -----------------

TEST(IslandsLearn, MigrationIsLoggedAtGenerationBoundaries) {
    const std::string ring = temp_dir("ring"), alone = temp_dir("alone");
    auto r = run_cli(kLearnIslands + " --out " + ring);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    r = run_cli(kLearnIslands + " --topology unconnected --out " + alone);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto with = csv_rows(ring + "/islands.csv"), without = csv_rows(alone + "/islands.csv");
    ASSERT_EQ(with.size(), 18u);  // 6 generations x 3 islands
    ASSERT_EQ(without.size(), 18u);
    // Generations 0 and 1 come before the first migration (after generation 1).
    for (size_t k = 0; k < 6; ++k) EXPECT_EQ(with[k], without[k]) << k;
    bool differs = false;
    for (size_t k = 6; k < 18; ++k) differs = differs || with[k] != without[k];
    EXPECT_TRUE(differs) << "migration changed nothing";
    // After generations 1 and 3 (not 5, the last): 3 islands x 2 migrants from the previous
    // island. Modern's best members after a step are its elites, whose value is the
    // generation's best: the first migrant of each source carries the source's best.
    const auto moved = csv_rows(ring + "/migrations.csv");
    ASSERT_EQ(moved.size(), 12u);
    for (size_t k = 0; k < moved.size(); ++k) {
        const uint32_t g = std::stoul(moved[k][0]), from = std::stoul(moved[k][1]),
                       to = std::stoul(moved[k][2]);
        EXPECT_TRUE(g == 1 || g == 3) << g;
        EXPECT_EQ(from, (to + 2) % 3);
        EXPECT_GE(std::stol(moved[k][4]), 0);  // worst: always placed
        if (k % 2 == 0) {
            EXPECT_EQ(std::stod(moved[k][3]), std::stod(with[g * 3 + from][2])) << k;
        }
    }
    const std::string weights = read_text(ring + "/weights.json");
    EXPECT_NE(weights.find("weights"), std::string::npos);
    EXPECT_EQ(csv_rows(ring + "/verification.csv").size(), 3u);  // random and two policies
}

// ---- faults: a killed run resumes to the uninterrupted result ------------------------------

pid_t spawn(const std::string& command) {
    const pid_t pid = fork();
    if (pid == 0) {
        const std::string cmd = "exec " + command + " >/dev/null 2>&1";
        execl("/bin/sh", "sh", "-c", cmd.c_str(), nullptr);
        _exit(127);
    }
    return pid;
}

// The generation of the folder's last complete checkpoint (-1: none yet).
int checkpoint_generation_of(const std::string& dir) {
    const std::string text = read_text(dir + "/checkpoint.json");
    const auto at = text.find("\"generation\":");
    if (at == std::string::npos) return -1;
    return std::atoi(text.c_str() + at + 13);
}

// Waits for `pid` up to `seconds`; its exit code, 128 + signal, or -1 (still running).
int wait_for(pid_t pid, double seconds) {
    const auto until = Clock::now() + std::chrono::duration<double>(seconds);
    int status = 0;
    while (Clock::now() < until) {
        if (waitpid(pid, &status, WNOHANG) == pid)
            return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    return -1;
}

// Starts `command` (writing `dir`) and SIGKILLs `victim()` once a checkpoint of generation
// >= 2 exists; true when the kill hit a running run (false: it finished first).
template <class Victim>
bool start_and_kill(const std::string& command, const std::string& dir, Victim victim) {
    fs::remove_all(dir);
    const pid_t pid = spawn(command);
    while (true) {
        int status = 0;
        if (waitpid(pid, &status, WNOHANG) == pid) return false;
        if (checkpoint_generation_of(dir) >= 2) break;
        std::this_thread::sleep_for(std::chrono::microseconds(200));
    }
    const pid_t target = victim(pid);
    if (target <= 0) {  // never kill(0): that is our own process group
        kill(pid, SIGKILL);
        waitpid(pid, nullptr, 0);
        ADD_FAILURE() << "no process to kill";
        return true;
    }
    kill(target, SIGKILL);
    const auto t0 = Clock::now();
    const int rc = wait_for(pid, 60);
    if (rc == -1) {
        kill(pid, SIGKILL);
        waitpid(pid, nullptr, 0);
        ADD_FAILURE() << "the run did not stop within 60 s of the kill";
        return true;
    }
    EXPECT_NE(rc, 0) << "a killed run must not report success";
    EXPECT_LT(std::chrono::duration<double>(Clock::now() - t0).count(), 60.0);
    return true;
}

void expect_same_results(const std::string& a, const std::string& b) {
    for (const char* f : {"islands.csv", "migrations.csv", "weights.json", "verification.csv",
                          "best.json", "learning.svg", "islands.svg"}) {
        if (!fs::exists(fs::path(a) / f) && !fs::exists(fs::path(b) / f)) continue;
        EXPECT_EQ(read_text(a + "/" + f), read_text(b + "/" + f)) << f;
    }
    // generations.csv of the archipelago and of every island, timing columns aside.
    ASSERT_TRUE(fs::exists(a + "/generations.csv"));
    EXPECT_EQ(untimed(a + "/generations.csv"), untimed(b + "/generations.csv"));
    for (int i = 0; fs::exists(a + "/island-" + std::to_string(i)); ++i) {
        const std::string f = "/island-" + std::to_string(i) + "/generations.csv";
        EXPECT_EQ(untimed(a + f), untimed(b + f)) << f;
    }
}

const std::string kLongLearn =
    "learn --scheme modern --population 12 --elites 2 --tournament round-robin --max-plies 120 "
    "--generations 16 --verify-games 4 --threads 1 --seed 9 --quiet --islands 2 "
    "--migrate-every 3 --migrants 2 --immigrants-replace if-better";

TEST(IslandsFaults, KilledRunResumesToTheUninterruptedResult) {
    const std::string whole = temp_dir("whole"), killed = temp_dir("killed");
    auto r = run_cli(kLongLearn + " --out " + whole);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    bool hit = false;
    for (int attempt = 0; attempt < 5 && !hit; ++attempt)
        hit = start_and_kill(std::string(GAEVAL_BINARY) + " " + kLongLearn + " --out " + killed,
                             killed, [](pid_t p) { return p; });
    ASSERT_TRUE(hit) << "the run always finished before the kill";
    r = run_cli("learn --resume " + killed + " --quiet --threads 1");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    expect_same_results(whole, killed);
}

TEST(IslandsFaults, PileInIslandsResume) {
    const std::string args =
        "pile-in --scenario " + kS1 +
        " --population 400 --generations 12 --seed 4 --threads 1 --quiet --checkpoint-every 0 "
        "--islands 3 --migrate-every 2 --migrants 3 --topology "
        "fully-connected";
    const std::string whole = temp_dir("pwhole"), killed = temp_dir("pkilled");
    auto r = run_cli(args + " --out " + whole);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    bool hit = false;
    for (int attempt = 0; attempt < 5 && !hit; ++attempt)
        hit = start_and_kill(std::string(GAEVAL_BINARY) + " " + args + " --out " + killed, killed,
                             [](pid_t p) { return p; });
    ASSERT_TRUE(hit) << "the run always finished before the kill";
    r = run_cli("pile-in --resume " + killed + " --quiet --threads 1");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    expect_same_results(whole, killed);
    EXPECT_EQ(csv_rows(whole + "/migrations.csv").size(), 5u * 3 * 2 * 3);
}

// ---- islands on a problem (gaeval learn --problem NAME --islands N) ----------------------------

// A problem job of modern on sphere: `population` members of `dimension` genes.
learn::LearnJob sphere_job(uint32_t generations, uint32_t threads = 1) {
    learn::LearnJob job;
    job.config = learn::problem_config("modern", "sphere", 4);
    job.config.population = 8;
    job.config.elites = 2;
    job.config.generations = generations;
    job.config.seed = 11;
    job.backend = resolve_backend("cpu", static_cast<int>(threads));
    job.quiet = true;
    return job;
}

// The learn GA's hooks, with every immigration read back through genome() and fitness() right
// after it was written: a migration that only logs, or writes where the next step does not
// read, fails here.
class WatchedGa : public IslandGa {
  public:
    explicit WatchedGa(IslandGa& inner) : inner_(inner) {}
    void start(uint32_t i) override { inner_.start(i); }
    IslandRow evaluate(uint32_t i) override { return inner_.evaluate(i); }
    std::vector<std::pair<IslandRow, std::string>> evaluate_islands(
        const std::vector<uint32_t>& islands, bool lines) override {
        return inner_.evaluate_islands(islands, lines);
    }
    std::vector<double> fitness(uint32_t i) override { return inner_.fitness(i); }
    std::vector<uint32_t> genome(uint32_t i, uint64_t m) override { return inner_.genome(i, m); }
    void immigrate(uint32_t i, const std::vector<int64_t>& slots,
                   const std::vector<Migrant>& in) override {
        inner_.immigrate(i, slots, in);
        const std::vector<double> after = inner_.fitness(i);
        for (size_t j = 0; j < slots.size(); ++j) {
            EXPECT_EQ(inner_.genome(i, uint64_t(slots[j])), in[j].words) << i << " " << j;
            EXPECT_EQ(after[size_t(slots[j])], in[j].fitness) << i << " " << j;
            ++arrived;
        }
    }
    void advance(uint32_t i) override { inner_.advance(i); }
    Migrant best(uint32_t i) override { return inner_.best(i); }
    void save(uint32_t i, Checkpoint& c, const std::string& p) override { inner_.save(i, c, p); }
    void load(uint32_t i, const Checkpoint& c, const std::string& p,
              const std::string& o) override {
        inner_.load(i, c, p, o);
    }
    int arrived = 0;

  private:
    IslandGa& inner_;
};

// Fully connected, one migrant after each generation: every immigrant is in its receiving
// island (read back), and since modern scores the whole population before it breeds, the
// receiving island's next best is at least the immigrant's value (the same genome, re-scored):
// islands that were behind the sender catch up at once.
TEST(IslandsProblem, ImmigrantsArriveInTheReceivingIsland) {
    const learn::LearnJob job = sphere_job(4);
    const auto learn_ga = make_learn_island_ga(job);
    WatchedGa ga(*learn_ga);
    ArchipelagoJob a;
    a.islands.count = 4;
    a.islands.topology = islands::Topology::FullyConnected;
    a.islands.migrate_every = 1;
    a.islands.migrants = 1;
    a.generations = job.config.generations;
    a.quiet = true;
    LocalTransport transport;
    const ArchipelagoResult result = run_archipelago(ga, transport, a);
    ASSERT_EQ(result.migrations.size(), 3u * 4 * 3);  // 3 migrations x 4 islands x 3 sources
    EXPECT_EQ(ga.arrived, 3 * 4 * 3);
    const auto best_at = [&](uint32_t g, uint32_t island) {
        for (const IslandRow& r : result.rows)
            if (r.generation == g && r.island == island) return r.best;
        ADD_FAILURE() << "no row " << g << " " << island;
        return 0.0;
    };
    int caught_up = 0;
    for (const MigrationRow& m : result.migrations) {
        ASSERT_GE(m.slot, 0);
        EXPECT_GE(best_at(m.generation + 1, m.to), m.fitness) << m.generation << " " << m.to;
        caught_up += best_at(m.generation, m.to) < m.fitness;
    }
    EXPECT_GT(caught_up, 0) << "no island was behind a sender: the test shows nothing";
}

// The gathered call (one evaluation of every island's genomes a generation) on 1 thread gives
// the bits of one call per island on 2 threads; unconnected islands are plain runs with the
// islands' seeds (island 0: the run's seed).
TEST(IslandsProblem, GatheredEqualsPerIslandAndUnconnectedIslandsArePlainRuns) {
    IslandConfig islands;
    islands.count = 3;
    islands.migrate_every = 2;
    islands.migrants = 2;
    LocalTransport t1, t2;
    const learn::LearnJob one = sphere_job(6, 1), two = sphere_job(6, 2);
    const LearnIslandsResult gathered = run_learn_islands(one, islands, t1, IslandPlay::Gathered);
    const LearnIslandsResult per = run_learn_islands(two, islands, t2, IslandPlay::PerIsland);
    ASSERT_EQ(gathered.archipelago.rows.size(), per.archipelago.rows.size());
    for (size_t k = 0; k < gathered.archipelago.rows.size(); ++k)
        EXPECT_EQ(gathered.archipelago.rows[k].best, per.archipelago.rows[k].best) << k;
    ASSERT_EQ(gathered.archipelago.migrations.size(), 2u * 3 * 2);  // after 1, 3: 2 each
    EXPECT_EQ(gathered.best_weights, per.best_weights);
    EXPECT_EQ(gathered.games, uint64_t{6} * 3 * 8);

    islands.topology = islands::Topology::Unconnected;
    LocalTransport t3;
    const LearnIslandsResult apart = run_learn_islands(one, islands, t3);
    for (uint32_t i = 0; i < 3; ++i) {
        learn::LearnConfig c = one.config;
        c.seed = island_seed(one.config.seed, i);
        const learn::ProblemEntry& problem = learn::find_problem(c.problem);
        const learn::EvaluateFn evaluate = [&](const std::vector<float>& g, uint32_t n) {
            return problem.evaluate(one.backend, g, n, c.dims());
        };
        learn::LearnState s = learn::initial_state(c);
        for (uint32_t g = 0; g < c.generations; ++g) {
            learn::step(c, s, learn::PlayFn(), evaluate);
            for (const IslandRow& r : apart.archipelago.rows)
                if (r.generation == g && r.island == i) {
                    EXPECT_EQ(r.best, s.best_value) << g;
                }
        }
    }
}

const std::string kProblemIslands =
    "learn --problem rastrigin --dimension 6 --population 32 --generations 8 --seed 5 --quiet "
    "--islands 3 --migrate-every 2 --migrants 2";

// Through the CLI: the files of an island run; 1 and 2 threads give the same files (timing
// columns aside).
TEST(IslandsProblem, CliFilesAtOneAndTwoThreads) {
    const std::string a = temp_dir("problem_t1"), b = temp_dir("problem_t2");
    auto r = run_cli(kProblemIslands + " --backend cpu --threads 1 --out " + a);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("optimised rastrigin (dimension 6) with modern on 3 islands in 8 "
                         "generations, 768 evaluations"),
              std::string::npos)
        << r.out;
    r = run_cli(kProblemIslands + " --backend cpu --threads 2 --json --out " + b);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    for (const char* f : {"run.json", "best.json", "islands.csv", "migrations.csv",
                          "generations.csv", "learning.svg", "island-2/generations.csv"})
        EXPECT_TRUE(fs::exists(fs::path(a) / f)) << f;
    EXPECT_FALSE(fs::exists(fs::path(a) / "weights.json"));
    expect_same_results(a, b);
    const auto best = nlohmann::json::parse(read_text(b + "/best.json"));
    EXPECT_EQ(best["problem"], "rastrigin");
    EXPECT_EQ(best["genome"].size(), 6u);
    EXPECT_GE(best["fitness"].get<double>(), 0.0);
    EXPECT_EQ(csv_rows(a + "/islands.csv").size(), 8u * 3);
    EXPECT_EQ(csv_rows(a + "/migrations.csv").size(), 3u * 3 * 2);  // after 1, 3, 5
    EXPECT_EQ(read_text(a + "/generations.csv").rfind("generation,evaluations,", 0), 0u);
}

// A problem island run killed (SIGKILL) after a checkpoint resumes to the uninterrupted files.
TEST(IslandsFaults, ProblemIslandsKilledRunResumes) {
    const std::string args =
        "learn --problem rastrigin --dimension 64 --population 3000 --generations 30 --seed 3 "
        "--quiet --islands 3 --migrate-every 4 --migrants 3 --backend cpu --threads 1";
    const std::string whole = temp_dir("prwhole"), killed = temp_dir("prkilled");
    auto r = run_cli(args + " --out " + whole);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    bool hit = false;
    for (int attempt = 0; attempt < 5 && !hit; ++attempt)
        hit = start_and_kill(std::string(GAEVAL_BINARY) + " " + args + " --out " + killed, killed,
                             [](pid_t p) { return p; });
    ASSERT_TRUE(hit) << "the run always finished before the kill";
    r = run_cli("learn --resume " + killed + " --quiet --threads 2");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    expect_same_results(whole, killed);
}

// ---- bad input: one line, exit 2, nothing written -------------------------------------------

TEST(IslandsCli, BadInputIsOneLineAndWritesNothing) {
    const std::string dir = temp_dir("bad");
    for (const std::string flags : {"--islands 0", "--islands 2 --topology star", "--migrants 2",
                                    "--islands 2 --immigrants-replace best",
                                    "--islands 3 --migrants 8", "--islands 2 --migrate-every 0"}) {
        const auto r = run_cli(kLearn + " " + flags + " --out " + dir);
        EXPECT_EQ(r.exit_code, 2) << flags << ": " << r.err;
        EXPECT_EQ(r.err_lines(), 1) << flags << ": " << r.err;
        EXPECT_FALSE(fs::exists(dir)) << flags;
    }
    // Two generations: kLearnIslands' "--generations 6" respelled (a flag given twice is refused).
    std::string two_generations = kLearnIslands;
    two_generations.replace(two_generations.find("--generations 6"), 15, "--generations 2");
    auto r = run_cli(two_generations + " --out " + dir);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto before = folder_snapshot(dir);
    r = run_cli(kLearnIslands + " --out " + dir);  // occupied
    EXPECT_EQ(r.exit_code, 2);
    r = run_cli("learn --resume " + dir + " --islands 4");
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_EQ(r.err_lines(), 1) << r.err;
    EXPECT_EQ(folder_snapshot(dir), before);
}

// ---- MPI --------------------------------------------------------------------------------------

// mpirun's path, or empty.
std::string find_mpirun() {
    const char* path = std::getenv("PATH");
    std::stringstream dirs(path ? path : "");
    std::string d;
    while (std::getline(dirs, d, ':'))
        if (!d.empty() && access((d + "/mpirun").c_str(), X_OK) == 0) return d + "/mpirun";
    return "";
}

// What a container needs: root is allowed, 2 ranks on fewer cores, shared memory and TCP only
// (no InfiniBand probing), no single-copy mechanism (ptrace is not allowed in containers).
std::string mpirun(int ranks) {
    // Under the asan preset: whole stacks at every allocation, so that Open MPI's own leaks
    // (its components have no frame pointers) match tests/asan/lsan.supp.
    const char* asan = std::getenv("ASAN_OPTIONS");
    const std::string sanitizer =
        asan ? " ASAN_OPTIONS=" + std::string(asan) + ":fast_unwind_on_malloc=0" : "";
    return "env OMPI_MCA_btl_vader_single_copy_mechanism=none" + sanitizer + " " + find_mpirun() +
           " -np " + std::to_string(ranks) +
           " --oversubscribe --allow-run-as-root --mca btl self,vader,tcp " + GAEVAL_BINARY;
}

#define SKIP_WITHOUT_MPI()                                                                \
    do {                                                                                  \
        if (!mpi_compiled()) GTEST_SKIP() << "gaeval was built without MPI (GAEVAL_MPI)"; \
        if (find_mpirun().empty()) GTEST_SKIP() << "no mpirun on PATH (apt openmpi-bin)"; \
    } while (0)

int shell(const std::string& command) {
    const int status = std::system((command + " >/dev/null 2>&1").c_str());
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

TEST(IslandsMpi, TwoRanksGiveTheFilesOfOneProcess) {
    SKIP_WITHOUT_MPI();
    const std::string one = temp_dir("mpi_one"), two = temp_dir("mpi_two");
    ASSERT_EQ(run_cli(kLearnIslands + " --out " + one).exit_code, 0);
    ASSERT_EQ(shell(mpirun(2) + " " + kLearnIslands + " --out " + two), 0);
    expect_same_results(one, two);
    EXPECT_NE(read_text(two + "/run.json").find("\"mpi\""), std::string::npos);
    // Pile-in too, 3 islands on 2 ranks (2 + 1).
    const std::string p_args = "pile-in --scenario " + kS1 +
                               " --population 300 --generations 6 --seed 2 --threads 1 --quiet "
                               "--islands 3 --migrate-every 2 --migrants 2";
    const std::string p_one = temp_dir("mpi_pone"), p_two = temp_dir("mpi_ptwo");
    ASSERT_EQ(run_cli(p_args + " --out " + p_one).exit_code, 0);
    ASSERT_EQ(shell(mpirun(2) + " " + p_args + " --out " + p_two), 0);
    expect_same_results(p_one, p_two);
    // A resume with another rank count is refused.
    EXPECT_EQ(run_cli("learn --resume " + two + " --quiet").exit_code, 2);
}

// The pid of a gaeval rank that mpirun started for the run writing `dir` (0: none found).
pid_t rank_process(const std::string& dir) {
    for (const auto& e : fs::directory_iterator("/proc")) {
        const std::string name = e.path().filename().string();
        if (name.find_first_not_of("0123456789") != std::string::npos) continue;
        std::string cmd = read_text(e.path().string() + "/cmdline");
        for (char& c : cmd)
            if (c == '\0') c = ' ';
        if (cmd.rfind(GAEVAL_BINARY, 0) == 0 && cmd.find(dir) != std::string::npos)
            return static_cast<pid_t>(std::stol(name));
    }
    return 0;
}

TEST(IslandsMpi, KilledRankStopsTheRunAndResumeMatches) {
    SKIP_WITHOUT_MPI();
    const std::string whole = temp_dir("mpi_whole"), killed = temp_dir("mpi_killed");
    ASSERT_EQ(run_cli(kLongLearn + " --out " + whole).exit_code, 0);
    bool hit = false;
    for (int attempt = 0; attempt < 5 && !hit; ++attempt)
        hit = start_and_kill(mpirun(2) + " " + kLongLearn + " --out " + killed, killed,
                             [&](pid_t) { return rank_process(killed); });
    ASSERT_TRUE(hit) << "the run always finished before the kill";
    ASSERT_EQ(shell(mpirun(2) + " learn --resume " + killed + " --quiet --threads 1"), 0);
    expect_same_results(whole, killed);
}

}  // namespace
