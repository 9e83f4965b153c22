// Whole runs: the same seed gives the same best.json bytes on any thread count; a resumed run
// ends exactly where an uninterrupted one does; S1 reaches its optimum with default settings.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "host/pile_in/run.hpp"
#include "host/core/error.hpp"

namespace gaeval::pile_in {
namespace {

namespace fs = std::filesystem;

std::string slurp(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

// generations.csv without the timing columns (everything from evals_per_s on, except best_ever).
std::string csv_results(const fs::path& p) {
    std::ifstream in(p);
    std::string line, out;
    while (std::getline(in, line)) {
        std::stringstream ss(line);
        std::string cell;
        for (int c = 0; std::getline(ss, cell, ','); ++c)
            if (c <= 4 || c == 6) out += cell + ",";
        out += "\n";
    }
    return out;
}

PileInJob make_job(const std::string& scenario, const std::string& out, int threads) {
    PileInJob job;
    job.scenario = load_scenario(std::string(GAEVAL_TEST_DATA_DIR) + "/" + scenario);
    job.backend = resolve_backend("cpu", threads);
    job.out_dir = (fs::path(::testing::TempDir()) / (std::to_string(getpid()) + "_" + out)).string();
    fs::remove_all(job.out_dir);  // runs never overwrite one another
    job.quiet = true;
    job.checkpoint_every_seconds = 1e9;
    return job;
}

TEST(PileInRun, SameSeedSameBestJsonOnAnyThreadCount) {
    std::string reference;
    for (int threads : {1, 2, 5}) {
        PileInJob job = make_job("pile_in/s1.json", "det_" + std::to_string(threads), threads);
        job.ga.generations = 40;
        job.ga.population = 300;
        job.ga.seed = 77;
        run_job(job);
        const std::string best = slurp(fs::path(job.out_dir) / "best.json");
        ASSERT_FALSE(best.empty());
        if (reference.empty()) reference = best;
        EXPECT_EQ(best, reference) << threads << " threads";
    }
}

TEST(PileInRun, ResumedRunEndsWhereAnUninterruptedOneDoes) {
    PileInJob whole = make_job("pile_in/s1.json", "whole", 2);
    whole.ga.generations = 30;
    whole.ga.seed = 5;
    run_job(whole);

    PileInJob part = make_job("pile_in/s1.json", "part", 2);
    part.ga.generations = 12;
    part.ga.seed = 5;
    run_job(part);
    PileInJob resumed = job_from_run_folder(part.out_dir);
    resumed.ga.generations = 30;
    resumed.quiet = true;
    resumed.backend = resolve_backend("cpu", 3);
    JobResult r = run_job(resumed);
    EXPECT_EQ(r.generations_done, 30u);
    EXPECT_EQ(slurp(fs::path(resumed.out_dir) / "best.json"),
              slurp(fs::path(whole.out_dir) / "best.json"));
    EXPECT_EQ(csv_results(fs::path(resumed.out_dir) / "generations.csv"),
              csv_results(fs::path(whole.out_dir) / "generations.csv"));
}

TEST(PileInRun, ResumeRefusesACheckpointFromAnotherConfiguration) {
    PileInJob job = make_job("pile_in/s1.json", "other", 1);
    job.ga.generations = 3;
    run_job(job);
    PileInJob resumed = job_from_run_folder(job.out_dir);
    resumed.ga.seed = 999;  // not the run's seed
    resumed.backend = resolve_backend("cpu", 1);
    EXPECT_THROW(run_job(resumed), InputError);
    // A corrupt checkpoint is refused too, and leaves the folder's results alone.
    const fs::path ck = fs::path(job.out_dir) / "checkpoint.bin";
    {
        std::fstream f(ck, std::ios::in | std::ios::out | std::ios::binary);
        f.seekp(40);
        f.put('\x5a');
    }
    const std::string best_before = slurp(fs::path(job.out_dir) / "best.json");
    PileInJob again = job_from_run_folder(job.out_dir);
    again.backend = resolve_backend("cpu", 1);
    again.ga.generations = 5;
    EXPECT_THROW(run_job(again), InputError);
    EXPECT_EQ(slurp(fs::path(job.out_dir) / "best.json"), best_before);
}

TEST(PileInRun, S1ReachesItsOptimumWithDefaultSettings) {
    for (uint64_t seed : {1, 2, 3}) {
        PileInJob job = make_job("pile_in/s1.json", "s1_" + std::to_string(seed), 2);
        job.ga.seed = seed;  // population 200, 500 generations, crossover 0.8, mutation 0.2
        JobResult r = run_job(job);
        EXPECT_EQ(r.best.breakdown.in_range_count, 5) << "seed " << seed;
        EXPECT_EQ(r.best.breakdown.overlap_count, 0);
        EXPECT_EQ(r.best.breakdown.isolated_count, 0);
        // All five in range and within 10 mm in total of base contact (maximum 1000).
        EXPECT_GT(r.best.breakdown.fitness, 990.0f) << "seed " << seed;
    }
}

TEST(PileInRun, WritesTheResultFiles) {
    PileInJob job = make_job("pile_in/s1.json", "files", 1);
    job.ga.generations = 5;
    run_job(job);
    for (const char* f :
         {"run.json", "generations.csv", "best.json", "picture.svg", "checkpoint.bin"})
        EXPECT_TRUE(fs::exists(fs::path(job.out_dir) / f)) << f;
    auto best = nlohmann::json::parse(slurp(fs::path(job.out_dir) / "best.json"));
    for (const char* key : {"fitness", "in_range_count", "breakdown", "models"})
        EXPECT_TRUE(best.contains(key)) << key;
    ASSERT_EQ(best["models"].size(), 5u);
    for (const char* key : {"start", "end", "base", "in_range", "overlaps", "has_friend"})
        EXPECT_TRUE(best["models"][0].contains(key)) << key;
    const auto& b = best["breakdown"];
    EXPECT_NEAR(b["in_range"].get<double>() + b["overlap"].get<double>() +
                    b["coherency"].get<double>() + b["distance"].get<double>(),
                best["fitness"].get<double>(), 1e-3);
    auto run = nlohmann::json::parse(slurp(fs::path(job.out_dir) / "run.json"));
    EXPECT_EQ(run["status"], "complete");
    EXPECT_EQ(run["backend"]["name"], "cpu");
    const std::string svg = slurp(fs::path(job.out_dir) / "picture.svg");
    EXPECT_NE(svg.find("<svg"), std::string::npos);
    EXPECT_NE(svg.find("models in combat range"), std::string::npos);
}

}  // namespace
}  // namespace gaeval::pile_in
