// `--backend auto` by cost (host/backend/cost_model.hpp): at every size the bench measured on
// both backends, the model picks the backend the bench found faster. The truth is the committed
// bench table itself (bench/results/gpu-h100-check2/bench.csv), read here row by row.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "host/backend/cost_model.hpp"
#include "host/islands/learn_islands.hpp"
#include "host/learn/learn.hpp"

namespace {

using namespace gaeval;

// Splits one CSV line whose quoted fields hold no quotes.
std::vector<std::string> csv_fields(const std::string& line) {
    std::vector<std::string> out;
    std::string field;
    bool quoted = false;
    for (char c : line) {
        if (c == '"') {
            quoted = !quoted;
        } else if (c == ',' && !quoted) {
            out.push_back(field);
            field.clear();
        } else {
            field += c;
        }
    }
    out.push_back(field);
    return out;
}

struct Measured {
    double cpu_s = -1, cuda_s = -1;
    uint64_t games = 0;
};

// game -> size label -> the two medians of the "tournament generation" rows.
std::map<std::string, std::map<std::string, Measured>> tournament_rows() {
    std::ifstream in(GAEVAL_SOURCE_DIR "/bench/results/gpu-h100-check2/bench.csv");
    std::map<std::string, std::map<std::string, Measured>> rows;
    std::string line;
    std::getline(in, line);  // header
    while (std::getline(in, line)) {
        const auto f = csv_fields(line);
        if (f.size() < 17 || f[0] != "tournament generation") continue;
        const std::string game = f[16].substr(0, f[16].find(','));
        Measured& m = rows[game][f[1]];
        m.games = std::stoull(f[1].substr(f[1].find("games=") + 6));
        (f[2] == "cpu" ? m.cpu_s : m.cuda_s) = std::stod(f[4]);
    }
    return rows;
}

TEST(CostModel, PicksTheBackendTheBenchMeasuredFasterAtEverySizeMeasuredOnBoth) {
    const auto rows = tournament_rows();
    ASSERT_EQ(rows.size(), 3u) << "expected the ataxx, gomoku and risk tournament rows";
    int compared = 0;
    for (const auto& [game, sizes] : rows) {
        const GameBatchCosts* costs = game_batch_costs(game);
        ASSERT_NE(costs, nullptr) << game;
        for (const auto& [size, m] : sizes) {
            if (m.cpu_s < 0 || m.cuda_s < 0) continue;
            const BatchEstimate e = estimate_batch(*costs, m.games, 16);
            EXPECT_EQ(e.gpu_s < e.cpu_s, m.cuda_s < m.cpu_s) << game << " " << size;
            // The estimates are the measured times at the measured points (within 1%).
            EXPECT_NEAR(e.cpu_s, m.cpu_s, 0.01 * m.cpu_s) << game << " " << size;
            EXPECT_NEAR(e.gpu_s, m.cuda_s, 0.01 * m.cuda_s) << game << " " << size;
            ++compared;
        }
        // The cuda-only large rows: the GPU estimate is their time.
        for (const auto& [size, m] : sizes) {
            if (m.cpu_s >= 0 || m.cuda_s <= 0) continue;
            EXPECT_NEAR(estimate_batch(*costs, m.games, 16).gpu_s, m.cuda_s, 0.01 * m.cuda_s)
                << game << " " << size;
        }
    }
    EXPECT_EQ(compared, 3);
}

TEST(CostModel, SmallTournamentsGoToTheCpuAndLargeOnesToTheGpu) {
    const GameBatchCosts* risk = game_batch_costs("risk");
    const GameBatchCosts* ataxx = game_batch_costs("ataxx");
    ASSERT_NE(risk, nullptr);
    ASSERT_NE(ataxx, nullptr);
    // 24 Risk members (552 games of one-thread alpha-beta players) on 16 threads: the CPU (40 ms
    // against 548 ms measured).
    EXPECT_LT(estimate_batch(*risk, 552, 16).cpu_s, estimate_batch(*risk, 552, 16).gpu_s);
    // 24 Ataxx members on the one-ply lane groups: the GPU (9.7 ms against 41.6 ms measured).
    EXPECT_GT(estimate_batch(*ataxx, 552, 16).cpu_s, estimate_batch(*ataxx, 552, 16).gpu_s);
    // 256 Ataxx members (65280 games): the GPU, even against 64 threads.
    EXPECT_GT(estimate_batch(*ataxx, 65280, 64).cpu_s, estimate_batch(*ataxx, 65280, 64).gpu_s);
    // Fewer threads move the crossover down: where 16 threads win, 2 may not.
    uint64_t crossover16 = 0, crossover2 = 0;
    for (uint64_t g = 2; g < 200000 && (!crossover16 || !crossover2); g += 2) {
        if (!crossover16 && estimate_batch(*risk, g, 16).gpu_s < estimate_batch(*risk, g, 16).cpu_s)
            crossover16 = g;
        if (!crossover2 && estimate_batch(*risk, g, 2).gpu_s < estimate_batch(*risk, g, 2).cpu_s)
            crossover2 = g;
    }
    EXPECT_GT(crossover16, 552u);
    EXPECT_LT(crossover2, crossover16);
    EXPECT_EQ(game_batch_costs("no-such-game"), nullptr);
}

// With islands, a generation is one call of every island's games (issue 30): the model sizes
// that batch. One island of 24 Risk members (552 games) is the CPU's on 16 threads; 16 and 64
// islands of them, one call of 8832 and 35328 games, are the GPU's.
TEST(CostModel, IslandsAreSizedAsTheWholeGenerationsBatch) {
    const GameBatchCosts* risk = game_batch_costs("risk");
    ASSERT_NE(risk, nullptr);
    learn::LearnConfig config = learn::default_config(learn::kDefaultScheme, 6);
    config.population = 24;
    config.tournament = learn::parse_tournament("round-robin:2");
    islands::IslandConfig islands;
    for (uint32_t count : {1u, 16u, 64u}) {
        islands.count = count;
        const uint64_t games = islands::learn_islands_games_per_call(config, islands, 1);
        EXPECT_EQ(games, 552u * count);
        const BatchEstimate e = estimate_batch(*risk, games, 16);
        EXPECT_EQ(e.gpu_s<e.cpu_s, count> 1) << count << " islands";
    }
    // Over 4 ranks each rank's call holds its own islands (64 / 4 = 16).
    EXPECT_EQ(islands::learn_islands_games_per_call(config, islands, 4), 552u * 16);
}

TEST(CostModel, ExplicitBackendsAreKeptAndAutoWithoutAGpuIsTheCpu) {
    const BackendChoice cpu = resolve_backend_for_games("cpu", 2, "ataxx", 65280, true);
    EXPECT_EQ(cpu.kind, BackendKind::Cpu);
    EXPECT_EQ(cpu.note, "cpu backend requested");
    if (!cuda_device_present()) {
        const BackendChoice a = resolve_backend_for_games("auto", 2, "ataxx", 65280, true);
        EXPECT_EQ(a.kind, BackendKind::Cpu);
    } else {
        const BackendChoice small = resolve_backend_for_games("auto", 16, "risk", 552, true);
        EXPECT_EQ(small.kind, BackendKind::Cpu) << small.note;
        EXPECT_NE(small.note.find("estimated"), std::string::npos) << small.note;
        const BackendChoice search = resolve_backend_for_games("auto", 16, "risk", 552, false);
        EXPECT_EQ(search.kind, BackendKind::Cuda) << search.note;
    }
}

// `learn --backend cuda` notes the CPU only where the model estimates it faster.
TEST(CostModel, ACudaRunNamesTheCpuOnlyWhereTheBenchFoundItFaster) {
    const std::string risk = cuda_slower_note("risk", 552, true, 16);
    EXPECT_NE(risk.find("estimated at"), std::string::npos) << risk;
    EXPECT_NE(risk.find("--backend cpu may be faster"), std::string::npos) << risk;
    EXPECT_EQ(cuda_slower_note("ataxx", 552, true, 16), "");  // the lane groups' 9.7 ms
    EXPECT_EQ(cuda_slower_note("risk", 65280, true, 16), "");
    EXPECT_EQ(cuda_slower_note("risk", 552, false, 16), "");  // searching players: not measured
    EXPECT_EQ(cuda_slower_note("no-such-game", 552, true, 16), "");
}

}  // namespace
