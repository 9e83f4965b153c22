// `gaeval learn` from the outside: a tiny run writes run.json, generations.csv (a line per
// generation), verification.csv, learning.svg and a weights.json that `gaeval play` reads;
// --resume extends a run to where an uninterrupted one ends; bad input is one line on stderr,
// exit code 2 and no file written or overwritten.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli_util.hpp"

namespace {

using gaeval::testing::folder_snapshot;
using gaeval::testing::read_text;
using gaeval::testing::run_cli;
namespace fs = std::filesystem;

std::string out_dir(const std::string& name) {
    const fs::path p =
        fs::path(::testing::TempDir()) / ("cli_learn_" + std::to_string(getpid()) + "_" + name);
    fs::remove_all(p);
    return p.string();
}

std::vector<std::string> lines_of(const std::string& text) {
    std::vector<std::string> out;
    std::stringstream in(text);
    for (std::string line; std::getline(in, line);) out.push_back(line);
    return out;
}

std::vector<std::string> cells_of(const std::string& line) {
    std::vector<std::string> out;
    std::stringstream in(line);
    for (std::string cell; std::getline(in, cell, ',');) out.push_back(cell);
    return out;
}

// A run small enough for a test: 6 members, 15 games per generation.
const std::string kTiny =
    "--scheme genetic-game --population 6 --tournament round-robin --max-plies 200 "
    "--verify-games 4 --verify-every 2 --backend cpu --threads 2 --seed 3 --quiet";

TEST(LearnCli, TinyRunWritesItsFilesAndWeightsThatPlayReads) {
    const std::string dir = out_dir("tiny");
    const auto r = run_cli("learn " + kTiny + " --generations 3 --out " + dir);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("learned genetic-game weights in 3 generations"), std::string::npos)
        << r.out;

    const auto run = nlohmann::json::parse(read_text(dir + "/run.json"));
    EXPECT_EQ(run["kind"], "learn");
    EXPECT_EQ(run["config"]["scheme"], "genetic-game");
    EXPECT_EQ(run["config"]["population"], 6);
    EXPECT_EQ(run["config"]["generations"], 3);
    EXPECT_EQ(run["config"]["seed"], 3);
    EXPECT_EQ(run["config"]["tournament"], "round-robin");

    // generations.csv: the header and one line per generation, 6 * 5 / 2 games each.
    const auto gens = lines_of(read_text(dir + "/generations.csv"));
    ASSERT_EQ(gens.size(), 4u);
    const auto header = cells_of(gens[0]);
    ASSERT_GE(header.size(), 2u);
    EXPECT_EQ(header[0], "generation");
    EXPECT_EQ(header[1], "games");
    for (int g = 1; g <= 3; ++g) {
        const auto cells = cells_of(gens[g]);
        ASSERT_EQ(cells.size(), header.size()) << gens[g];
        EXPECT_EQ(cells[0], std::to_string(g));
        EXPECT_EQ(cells[1], "15");
    }

    // verification.csv: generation 2 (every 2) and 3 (the last), three opponents each.
    const auto verify = lines_of(read_text(dir + "/verification.csv"));
    ASSERT_EQ(verify.size(), 7u);
    const char* opponents[] = {"random", "capture", "most-pieces"};
    for (int i = 0; i < 6; ++i) {
        const auto cells = cells_of(verify[1 + i]);
        ASSERT_GE(cells.size(), 6u) << verify[1 + i];
        EXPECT_EQ(cells[0], i < 3 ? "2" : "3");
        EXPECT_EQ(cells[1], opponents[i % 3]);
        EXPECT_EQ(cells[2], "4");
        EXPECT_EQ(std::stoi(cells[3]) + std::stoi(cells[4]) + std::stoi(cells[5]), 4);
    }

    EXPECT_EQ(read_text(dir + "/learning.svg").rfind("<svg", 0), 0u);

    // weights.json holds the last generation's best member (generations.csv's w_ columns).
    const auto weights = nlohmann::json::parse(read_text(dir + "/weights.json"));
    const auto last = cells_of(gens[3]);
    int compared = 0;
    for (size_t col = 0; col < header.size(); ++col) {
        if (header[col].rfind("w_", 0) != 0) continue;
        const std::string feature = header[col].substr(2);
        const auto& names = weights["features"];
        for (size_t f = 0; f < names.size(); ++f)
            if (names[f] == feature) {
                EXPECT_EQ(weights["weights"][f].get<float>(), std::stof(last[col])) << feature;
                ++compared;
            }
    }
    EXPECT_EQ(compared, 15);

    const auto play =
        run_cli("play --a " + dir + "/weights.json --b random --games 4 --backend cpu");
    EXPECT_EQ(play.exit_code, 0) << play.err;
    EXPECT_NE(play.out.find("4 games"), std::string::npos) << play.out;
}

TEST(LearnCli, ResumeExtendsARunToWhereAnUninterruptedOneEnds) {
    const std::string whole = out_dir("whole"), part = out_dir("part");
    auto r = run_cli("learn " + kTiny + " --generations 4 --out " + whole);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    r = run_cli("learn " + kTiny + " --generations 2 --out " + part);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    r = run_cli("learn --resume " + part + " --generations 4 --threads 1 --backend cpu --quiet");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(read_text(part + "/weights.json"), read_text(whole + "/weights.json"));
    EXPECT_EQ(read_text(part + "/verification.csv"), read_text(whole + "/verification.csv"));
    EXPECT_EQ(lines_of(read_text(part + "/generations.csv")).size(), 5u);
}

struct BadFlags {
    std::string args;
    std::string expected;
};

void PrintTo(const BadFlags& c, std::ostream* os) { *os << c.args; }

class LearnCliErrors : public ::testing::TestWithParam<BadFlags> {};

TEST_P(LearnCliErrors, OneLineExitCode2AndNoFolder) {
    static int counter = 0;
    const std::string dir = out_dir("bad_" + std::to_string(counter++));
    const auto r = run_cli("learn " + GetParam().args + " --generations 1 --quiet --out " + dir);
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_EQ(r.err_lines(), 1) << r.err;
    EXPECT_NE(r.err.find(GetParam().expected), std::string::npos) << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;
    EXPECT_FALSE(fs::exists(dir)) << "bad input created " << dir;
}

INSTANTIATE_TEST_SUITE_P(
    BadInput, LearnCliErrors,
    ::testing::Values(BadFlags{"--scheme foo", "--scheme: unknown scheme 'foo'"},
                      BadFlags{"--tournament foo", "--tournament"},
                      BadFlags{"--scheme genetic-game --tournament random:0", "--tournament"},
                      BadFlags{"--scheme modern --population 6 --tournament random:6", "random:6"},
                      BadFlags{"--scheme paired-blend --population 3", "--population"},
                      BadFlags{"--scheme paired-blend --population 7", "--population"},
                      BadFlags{"--scheme ten-tournaments --population 5", "--population"},
                      BadFlags{"--scheme genetic-game --population 2", "--population"},
                      BadFlags{"--scheme modern --population 1", "--population"},
                      BadFlags{"--scheme genetic-game --mutation 2", "--mutation"},
                      BadFlags{"--scheme paired-blend --mutation 2", "--mutation"},
                      BadFlags{"--scheme modern --mutation -0.5", "--mutation"},
                      BadFlags{"--scheme genetic-game --replace 1", "--replace"},
                      BadFlags{"--scheme paired-blend --blend 0", "--blend"},
                      BadFlags{"--scheme genetic-game --value-update take:150", "--value-update"},
                      BadFlags{"--scheme genetic-game --value-update winrate:-1", "--value-update"},
                      BadFlags{"--scheme modern --blend 0.2", "--blend"},
                      BadFlags{"--scheme paired-blend --elites 2", "--elites"},
                      BadFlags{"--scheme genetic-game --rounds 4", "--rounds"},
                      BadFlags{"--scheme ten-tournaments --value-update take:10", "--value-update"},
                      BadFlags{"--scheme modern --crossover uniform", "--crossover"},
                      BadFlags{"--scheme modern --init-range 2:1", "--init-range"},
                      BadFlags{"--scheme modern --features own_pieces,nothing", "--features"}));

TEST(LearnCli, ResumeOfAFolderWithoutARunIsRefused) {
    const std::string dir = out_dir("no_run");
    fs::create_directories(dir);
    std::ofstream(dir + "/notes.txt") << "not a run";
    const auto before = folder_snapshot(dir);
    const auto r = run_cli("learn --resume " + dir + " --quiet");
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_EQ(r.err_lines(), 1) << r.err;
    EXPECT_NE(r.err.find("run.json"), std::string::npos) << r.err;
    EXPECT_EQ(folder_snapshot(dir), before);
    const auto missing = run_cli("learn --resume " + dir + "/missing --quiet");
    EXPECT_EQ(missing.exit_code, 2) << missing.err;
    EXPECT_FALSE(fs::exists(dir + "/missing"));
}

TEST(LearnCli, ResumeWithAFixedFlagIsRefusedAndTheRunIsUntouched) {
    const std::string dir = out_dir("fixed");
    ASSERT_EQ(run_cli("learn " + kTiny + " --generations 1 --out " + dir).exit_code, 0);
    const auto before = folder_snapshot(dir);
    for (const char* flag : {"--seed 4", "--population 8", "--scheme modern"}) {
        const auto r = run_cli("learn --resume " + dir + " --quiet " + flag);
        EXPECT_EQ(r.exit_code, 2) << flag << ": " << r.err;
        EXPECT_EQ(r.err_lines(), 1) << r.err;
        EXPECT_NE(r.err.find(std::string(flag).substr(0, std::string(flag).find(' '))),
                  std::string::npos)
            << r.err;
        EXPECT_EQ(folder_snapshot(dir), before) << flag;
    }
    const std::string elsewhere = out_dir("fixed_elsewhere");
    const auto r = run_cli("learn --resume " + dir + " --quiet --out " + elsewhere);
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_EQ(r.err_lines(), 1) << r.err;
    EXPECT_NE(r.err.find("--out"), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(elsewhere));
    EXPECT_EQ(folder_snapshot(dir), before);
}

// Errors in the run folder (an occupied folder, a corrupt or foreign checkpoint, fewer
// generations than already done) are one line, before the backend is announced, and leave the
// folder's files as they were.
TEST(LearnCli, OccupiedFolderCorruptOrForeignCheckpointAreOneLineAndTouchNothing) {
    const std::string dir = out_dir("occupied");
    ASSERT_EQ(run_cli("learn " + kTiny + " --generations 2 --out " + dir).exit_code, 0);
    auto expect_refused = [&](const std::string& args, const std::string& expected) {
        const auto before = folder_snapshot(dir);
        const auto r = run_cli(args);
        EXPECT_EQ(r.exit_code, 2) << args << ": " << r.err;
        EXPECT_EQ(r.err_lines(), 1) << args << ": " << r.err;
        EXPECT_NE(r.err.find(expected), std::string::npos) << r.err;
        EXPECT_EQ(folder_snapshot(dir), before) << args;
    };
    // A fresh run into a folder that holds a run.
    expect_refused("learn " + kTiny + " --generations 2 --out " + dir, "already holds");
    // A corrupt checkpoint.
    const std::string ck = dir + "/checkpoint.bin", good = read_text(ck);
    std::string bad = good;
    bad[bad.size() / 2] = static_cast<char>(bad[bad.size() / 2] ^ 0x21);
    std::ofstream(ck, std::ios::binary | std::ios::trunc) << bad;
    expect_refused("learn --resume " + dir + " --generations 3 --backend cpu --quiet", "corrupt");
    // A checkpoint of another configuration (run.json's seed edited).
    std::ofstream(ck, std::ios::binary | std::ios::trunc) << good;
    const std::string run_text = read_text(dir + "/run.json");
    auto run = nlohmann::json::parse(run_text);
    run["config"]["seed"] = 99;
    std::ofstream(dir + "/run.json", std::ios::trunc) << run.dump(2);
    expect_refused("learn --resume " + dir + " --generations 3 --backend cpu --quiet",
                   "different configuration");
    // Fewer generations than the run already completed.
    std::ofstream(dir + "/run.json", std::ios::trunc) << run_text;
    expect_refused("learn --resume " + dir + " --generations 1 --backend cpu",
                   "already completed 2 generations");
}

}  // namespace
