#include "bench/grid_bench.hpp"

#include <cstdio>

#include "host/backend/backend.hpp"
#include "host/backend/parallel.hpp"
#include "host/grid/grid.hpp"
#include "host/io/fen.hpp"

namespace gaeval::bench {

namespace {

struct Backend {
    std::string label;  // cpu1, cpu, cuda
    BackendChoice choice;
};

std::vector<Backend> bench_backends() {
    std::vector<Backend> list;
    list.push_back({"cpu1", resolve_backend("cpu", 1)});
    if (default_thread_count() > 1) list.push_back({"cpu", resolve_backend("cpu", 0)});
    if (cuda_device_present()) list.push_back({"cuda", resolve_backend("cuda", 0)});
    return list;
}

grid::GameSetup setup_of(const std::string& board, const std::string& fen) {
    return io::parse_fen(fen, io::parse_board_spec(board), grid::RuleSet::Ataxx, 2);
}

void perft_rows(const Settings& settings, const Backend& backend, const std::string& name,
                const grid::GameSetup& setup, int depth, std::vector<Row>& rows) {
    uint64_t nodes = grid::perft(setup, depth, backend.choice);  // also the warm-up
    Row row = measure(
        settings, "perft", name + " d=" + std::to_string(depth), backend.label,
        static_cast<double>(nodes), "nodes/s", [&] {
            Sample s;
            s.seconds = time_seconds([&] { nodes = grid::perft(setup, depth, backend.choice); });
            return s;
        });
    row.signature = nodes;
    row.note = grid::variant_name(setup);
    rows.push_back(row);
}

// One measurement, two rows: "<workload> plies" in plies/s and "<workload> games" in games/s
// (distinct workloads, so that ratios compare like with like).
void playout_rows(const Settings& settings, const Backend& backend, const std::string& workload,
                  const std::string& name, const grid::GameSetup& setup,
                  const grid::PlayRequest& request, std::vector<Row>& rows) {
    std::vector<grid::GameRecord> records;
    Row row = measure(
        settings, workload + " plies", name + " games=" + std::to_string(request.games),
        backend.label, 0, "plies/s", [&] {
            Sample s;
            s.seconds =
                time_seconds([&] { records = grid::play_batch(setup, request, backend.choice); });
            return s;
        });
    const grid::PlaySummary summary = grid::summarize(records);
    row.signature = fnv1a(records.data(), records.size() * sizeof(grid::GameRecord));
    row.note = grid::variant_name(setup) + ", mean plies " + std::to_string(summary.mean_plies());
    row.items = static_cast<double>(summary.plies);
    rows.push_back(row);
    row.workload = workload + " games";
    row.unit = "games/s";
    row.items = static_cast<double>(summary.games);
    rows.push_back(row);
}

// Default weights for the weighted-player benchmark: material, safety, risk.
grid::Player bench_weighted_player() {
    grid::Player p;
    p.kind = grid::PlayerKind::Weighted;
    const float weights[grid::kFeatureCount] = {1.0f,  -1.0f,  0.5f,    0.25f, 0.125f,
                                                0.0f,  -0.5f,  -1.0f,   -1.5f, 0.1f,
                                                -0.5f, -0.25f, -0.125f, 0.0f,  -0.1f};
    for (int i = 0; i < grid::kFeatureCount; ++i) p.weights[i] = weights[i];
    return p;
}

}  // namespace

std::vector<Row> grid_benchmarks(const Settings& settings, const GridBenchOptions& options) {
    std::vector<Row> rows;
    const bool quick = options.quick;
    const grid::GameSetup startpos = setup_of("square8:7x7", "startpos");
    const std::pair<const char*, const char*> gapped[] = {
        {"gaps-a", "x5o/7/2-1-2/7/2-1-2/7/o5x x 0 1"},
        {"gaps-b", "x5o/7/2-1-2/3-3/2-1-2/7/o5x x 0 1"},
        {"gaps-c", "x5o/7/3-3/2-1-2/3-3/7/o5x x 0 1"},
    };
    const grid::GameSetup hex = setup_of("hex:4", "startpos");
    for (const Backend& backend : bench_backends()) {
        const bool cuda = backend.label == "cuda";
        perft_rows(settings, backend, "startpos", startpos, quick ? 5 : 6, rows);
        if (!quick) perft_rows(settings, backend, "startpos", startpos, 7, rows);
        if (cuda && !quick) perft_rows(settings, backend, "startpos", startpos, 8, rows);
        for (const auto& [name, fen] : gapped)
            perft_rows(settings, backend, name, setup_of("square8:7x7", fen), quick ? 4 : 5, rows);
        perft_rows(settings, backend, "hex:4 startpos", hex, quick ? 3 : 4, rows);

        // The same batch on both cpu rows (ratios need equal sizes); more on the GPU.
        grid::PlayRequest random;
        random.games = cuda ? (quick ? 1u << 16 : 1u << 20) : (quick ? 500 : 5000);
        playout_rows(settings, backend, "playout random", "7x7 startpos", startpos, random, rows);
        playout_rows(settings, backend, "playout random", "hex:4 startpos", hex, random, rows);

        // Weighted against most-pieces (random tie-breaks): two identical deterministic players
        // would replay one game, and random opponents are wiped out in about 11 plies.
        grid::PlayRequest weighted;
        weighted.a = bench_weighted_player();
        weighted.b.kind = grid::PlayerKind::MostPieces;
        weighted.games = cuda ? (quick ? 1u << 12 : 1u << 16) : (quick ? 40 : 400);
        playout_rows(settings, backend, "playout weighted-vs-most-pieces", "7x7 startpos", startpos,
                     weighted, rows);
    }
    fill_ratios(rows);
    return rows;
}

std::string grid_table_markdown(const std::vector<Row>& rows) {
    std::string out =
        "| backend | workload | size | samples | median s | noise | throughput | unit | x cpu1 "
        "| x cpu | signature | note |\n|---|---|---|---|---|---|---|---|---|---|---|---|\n";
    char line[512];
    for (const Row& r : rows) {
        std::snprintf(line, sizeof line,
                      "| %s | %s | %s | %d | %.4g | %.1f%% | %.4g | %s | %.2f | %.2f | %016llx | "
                      "%s |\n",
                      r.backend.c_str(), r.workload.c_str(), r.size.c_str(), r.samples,
                      r.median_seconds, 100 * r.noise, r.throughput(), r.unit.c_str(), r.ratio_cpu1,
                      r.ratio_cpu, static_cast<unsigned long long>(r.signature), r.note.c_str());
        out += line;
    }
    return out;
}

}  // namespace gaeval::bench
