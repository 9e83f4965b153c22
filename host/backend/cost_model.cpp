#include "host/backend/cost_model.hpp"

#include <algorithm>
#include <cstdio>

namespace gaeval {

namespace {

// bench/results/gpu-h100-check2/bench.csv, rows "tournament generation" (modern scheme,
// round-robin:2): the cpu rows at 24 members (552 games) on the machine's 16 threads, the cuda
// rows at 24 members (latency) and 256 members (65280 games, rate). Since the one-ply lane groups
// (a warp a game in a small batch) a 24-member Ataxx generation is the GPU's (9.7 ms against
// 41.6 ms); Risk's alpha-beta players still run one game a thread (548 ms against 39.8 ms).
constexpr const char* kH100 = "NVIDIA H100 and its 16 CPU threads, 2026-11-27, main ca2ab07";
constexpr GameBatchCosts kCosts[] = {
    {"ataxx", 13274.3 / 16, 0.00967069, 99863.3, kH100},
    {"gomoku", 19000.3 / 16, 0.0196168, 680828, kH100},
    {"risk", 13863.3 / 16, 0.548172, 53740.1, kH100},
};

std::string seconds_text(double s) {
    char buf[32];
    if (s < 1)
        std::snprintf(buf, sizeof buf, "%.3g ms", s * 1e3);
    else
        std::snprintf(buf, sizeof buf, "%.3g s", s);
    return buf;
}

}  // namespace

const GameBatchCosts* game_batch_costs(const std::string& game) {
    for (const GameBatchCosts& c : kCosts)
        if (game == c.game) return &c;
    return nullptr;
}

BatchEstimate estimate_batch(const GameBatchCosts& costs, uint64_t games, int threads) {
    BatchEstimate e;
    const double g = static_cast<double>(games);
    const double used = std::max(1.0, std::min(static_cast<double>(threads), g));
    e.cpu_s = g / (costs.cpu_games_per_thread_s * used);
    e.gpu_s = std::max(costs.gpu_latency_s, g / costs.gpu_games_per_s);
    return e;
}

namespace {

std::string estimates_text(const GameBatchCosts& costs, const BatchEstimate& e,
                           const std::string& game, uint64_t games, int threads) {
    return "a batch of " + std::to_string(games) + " " + game + " games is estimated at " +
           seconds_text(e.cpu_s) + " on " + std::to_string(threads) + " cpu threads and " +
           seconds_text(e.gpu_s) + " on the GPU (bench rows of " + costs.measured + ")";
}

}  // namespace

std::string cuda_slower_note(const std::string& game, uint64_t games, bool one_ply,
                             int cpu_threads) {
    const GameBatchCosts* costs = one_ply ? game_batch_costs(game) : nullptr;
    if (!costs) return "";
    const BatchEstimate e = estimate_batch(*costs, games, cpu_threads);
    if (e.gpu_s <= e.cpu_s) return "";
    return estimates_text(*costs, e, game, games, cpu_threads) + ": --backend cpu may be faster";
}

BackendChoice resolve_backend_for_games(const std::string& flag, int threads,
                                        const std::string& game, uint64_t games, bool one_ply) {
    BackendChoice choice = resolve_backend(flag, threads);
    if (flag != "auto" || choice.kind != BackendKind::Cuda) return choice;
    const GameBatchCosts* costs = one_ply ? game_batch_costs(game) : nullptr;
    if (!costs) {
        choice.note = "auto: CUDA device found (no measured batch cost for " + game +
                      (one_ply ? "" : " with searching players") + ")";
        return choice;
    }
    const BatchEstimate e = estimate_batch(*costs, games, choice.threads);
    const std::string estimates = estimates_text(*costs, e, game, games, choice.threads);
    if (e.gpu_s <= e.cpu_s) {
        choice.note = "auto: cuda: " + estimates;
        return choice;
    }
    BackendChoice cpu = resolve_backend("cpu", threads);
    cpu.note = "auto: cpu: " + estimates;
    return cpu;
}

}  // namespace gaeval
