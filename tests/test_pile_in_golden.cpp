// `gaeval pile-in --backend cpu` against golden files recorded from the binary of commit 7467476,
// when pile-in still ran on its own CPU population (before it ran on the one GA engine):
// GAPI1 and every rules preset, penalty and repair constraints, a rule flag, at 1 and 2
// threads; every generations.csv line (the results: everything but the timing columns),
// best.json byte for byte and checkpoint.bin by its FNV-1a 64 hash. The cases are
// tests/data/pile_in/golden/cases.txt; record.sh there wrote the files.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "cli_util.hpp"

namespace gaeval {
namespace {

namespace fs = std::filesystem;
using gaeval::testing::read_text;
using gaeval::testing::run_cli;

const std::string kGolden = std::string(GAEVAL_TEST_DATA_DIR) + "/pile_in/golden/";

struct GoldenCase {
    std::string name, args;
};

std::vector<GoldenCase> golden_cases() {
    std::ifstream in(kGolden + "cases.txt");
    std::vector<GoldenCase> cases;
    std::string line;
    while (std::getline(in, line)) {
        if (line.empty() || line[0] == '#') continue;
        const size_t space = line.find(' ');
        std::string args = line.substr(space + 1);
        // Scenario paths are written from the source root.
        for (size_t at = args.find(" scenarios/"); at != std::string::npos;
             at = args.find(" scenarios/", at + 1))
            args.insert(at + 1, std::string(GAEVAL_SOURCE_DIR) + "/");
        cases.push_back({line.substr(0, space), args});
    }
    return cases;
}

std::string binary_file(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

// generations.csv's columns 1-5 and 7 (record.sh: cut -d, -f1-5,7).
std::string csv_results(const std::string& text) {
    std::stringstream lines(text);
    std::string line, out;
    while (std::getline(lines, line)) {
        std::stringstream cells(line);
        std::string cell, row;
        for (int c = 0; std::getline(cells, cell, ','); ++c)
            if (c <= 4 || c == 6) row += (row.empty() ? "" : ",") + cell;
        out += row + "\n";
    }
    return out;
}

std::string fnv1a_hex(const std::string& bytes) {
    uint64_t h = 0xcbf29ce484222325ull;
    for (unsigned char ch : bytes) {
        h ^= ch;
        h *= 0x100000001b3ull;
    }
    char text[17];
    std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(h));
    return std::string(text) + "\n";
}

TEST(PileInGolden, CpuRunsGiveTheRecordedFiles) {
    const std::vector<GoldenCase> cases = golden_cases();
    ASSERT_GE(cases.size(), 9u) << kGolden << "cases.txt";
    for (const GoldenCase& c : cases)
        for (int threads : {1, 2}) {
            const std::string what = c.name + " at " + std::to_string(threads) + " threads";
            const fs::path out =
                fs::path(::testing::TempDir()) / ("golden_" + std::to_string(getpid()) + "_" +
                                                  c.name + "_" + std::to_string(threads));
            fs::remove_all(out);
            const auto r = run_cli("pile-in " + c.args + " --backend cpu --threads " +
                                   std::to_string(threads) + " --quiet --out " + out.string());
            ASSERT_EQ(r.exit_code, 0) << what << ": " << r.err;
            EXPECT_EQ(csv_results(read_text((out / "generations.csv").string())),
                      read_text(kGolden + c.name + ".csv"))
                << what << ": generations.csv";
            EXPECT_EQ(read_text((out / "best.json").string()),
                      read_text(kGolden + c.name + ".json"))
                << what << ": best.json";
            EXPECT_EQ(fnv1a_hex(binary_file(out / "checkpoint.bin")),
                      read_text(kGolden + c.name + ".checkpoint"))
                << what << ": checkpoint.bin";
            fs::remove_all(out);
        }
}

// The judge can fail: another seed gives other files.
TEST(PileInGolden, AnotherSeedGivesOtherFiles) {
    GoldenCase c = golden_cases().at(0);
    const size_t seed = c.args.find("--seed ");
    ASSERT_NE(seed, std::string::npos) << c.args;
    c.args.insert(seed + 7, "1");  // --seed 3 -> --seed 13
    const fs::path out =
        fs::path(::testing::TempDir()) / ("golden_" + std::to_string(getpid()) + "_seed");
    fs::remove_all(out);
    const auto r =
        run_cli("pile-in " + c.args + " --backend cpu --threads 2 --quiet --out " + out.string());
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(csv_results(read_text((out / "generations.csv").string())),
              read_text(kGolden + c.name + ".csv"));
    EXPECT_NE(fnv1a_hex(binary_file(out / "checkpoint.bin")),
              read_text(kGolden + c.name + ".checkpoint"));
    fs::remove_all(out);
}

}  // namespace
}  // namespace gaeval
