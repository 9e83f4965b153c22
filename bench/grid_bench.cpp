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

std::vector<Backend> resolve_labels(const std::vector<std::string>& labels) {
    std::vector<Backend> list;
    for (const std::string& label : labels) {
        if (label == "cpu1") list.push_back({label, resolve_backend("cpu", 1)});
        if (label == "cpu") list.push_back({label, resolve_backend("cpu", 0)});
        if (label == "cuda" && cuda_device_present())
            list.push_back({label, resolve_backend("cuda", 0)});
    }
    return list;
}

grid::GameSetup setup_of(const std::string& board, const std::string& fen) {
    return io::parse_fen(fen, io::parse_board_spec(board), grid::RuleSet::Ataxx, 2);
}

// Weights for the weighted-player benchmark: material, safety, risk.
grid::Player bench_weighted_player() {
    grid::Player p;
    p.kind = grid::PlayerKind::Weighted;
    const float weights[grid::kFeatureCount] = {1.0f,  -1.0f,  0.5f,    0.25f, 0.125f,
                                                0.0f,  -0.5f,  -1.0f,   -1.5f, 0.1f,
                                                -0.5f, -0.25f, -0.125f, 0.0f,  -0.1f};
    for (int i = 0; i < grid::kFeatureCount; ++i) p.weights[i] = weights[i];
    return p;
}

grid::Player builtin(grid::PlayerKind kind) {
    grid::Player p;
    p.kind = kind;
    return p;
}

}  // namespace

void grid_perft_rows(const Settings& settings, const std::vector<std::string>& backends,
                     const std::vector<GridPerftCase>& cases, std::vector<Row>& rows,
                     uint64_t* signature) {
    for (const Backend& backend : resolve_labels(backends)) {
        for (const GridPerftCase& c : cases) {
            const grid::GameSetup setup = setup_of(c.board, c.fen);
            uint64_t nodes = grid::perft(setup, c.depth, backend.choice);  // sizes the row
            Row row = measure(settings, "perft", c.name + " d=" + std::to_string(c.depth),
                              backend.label, static_cast<double>(nodes), "nodes/s", [&] {
                                  Sample s;
                                  s.seconds = time_seconds(
                                      [&] { nodes = grid::perft(setup, c.depth, backend.choice); });
                                  return s;
                              });
            row.signature = nodes;
            row.note = c.board + ", " + grid::variant_name(setup);
            *signature = fnv1a(&nodes, sizeof nodes, *signature);
            rows.push_back(row);
        }
    }
}

void grid_playout_rows(const Settings& settings, const std::vector<std::string>& backends,
                       const std::vector<GridPlayoutCase>& cases, std::vector<Row>& rows,
                       uint64_t* signature) {
    for (const Backend& backend : resolve_labels(backends)) {
        for (const GridPlayoutCase& c : cases) {
            const grid::GameSetup setup = setup_of(c.board, "startpos");
            grid::PlayRequest request;
            request.a = c.a;
            request.b = c.b;
            request.games = backend.label == "cuda" ? c.cuda_games : c.cpu_games;
            std::vector<grid::GameRecord> records;
            // One measurement, two rows with distinct workloads (plies/s and games/s), so that
            // ratios compare like with like.
            Row row = measure(settings, "playout " + c.name + " plies",
                              c.board + " games=" + std::to_string(request.games), backend.label, 0,
                              "plies/s", [&] {
                                  Sample s;
                                  s.seconds = time_seconds([&] {
                                      records = grid::play_batch(setup, request, backend.choice);
                                  });
                                  return s;
                              });
            const grid::PlaySummary summary = grid::summarize(records);
            row.signature = fnv1a(records.data(), records.size() * sizeof(grid::GameRecord));
            *signature = fnv1a(&row.signature, sizeof row.signature, *signature);
            char note[160];
            std::snprintf(note, sizeof note, "%s, mean plies %.1f, A score %.3f",
                          grid::variant_name(setup).c_str(), summary.mean_plies(), summary.score());
            row.note = note;
            row.items = static_cast<double>(summary.plies);
            rows.push_back(row);
            row.workload = "playout " + c.name + " games";
            row.unit = "games/s";
            row.items = static_cast<double>(summary.games);
            rows.push_back(row);
        }
    }
}

std::vector<GridPerftCase> default_grid_perft_cases(bool quick) {
    std::vector<GridPerftCase> cases = {{"startpos", "square8:7x7", "startpos", quick ? 5 : 6}};
    if (!quick) cases.push_back({"startpos", "square8:7x7", "startpos", 7});
    const int gap_depth = quick ? 4 : 5;
    cases.push_back({"gaps-a", "square8:7x7", "x5o/7/2-1-2/7/2-1-2/7/o5x x 0 1", gap_depth});
    cases.push_back({"gaps-b", "square8:7x7", "x5o/7/2-1-2/3-3/2-1-2/7/o5x x 0 1", gap_depth});
    cases.push_back({"gaps-c", "square8:7x7", "x5o/7/3-3/2-1-2/3-3/7/o5x x 0 1", gap_depth});
    cases.push_back({"hex:4 startpos", "hex:4", "startpos", quick ? 3 : 4});
    return cases;
}

std::vector<GridPlayoutCase> default_grid_playout_cases(bool quick) {
    const uint64_t cpu = quick ? 500 : 5000, cuda = quick ? 1u << 16 : 1u << 20;
    const grid::Player random = builtin(grid::PlayerKind::Random);
    // Weighted against most-pieces (random tie-breaks): two identical deterministic players
    // would replay one game, and random opponents are wiped out in about 11 plies.
    return {
        {"random", "square8:7x7", random, random, cpu, cuda},
        {"random", "hex:4", random, random, cpu, cuda},
        {"weighted-vs-most-pieces", "square8:7x7", bench_weighted_player(),
         builtin(grid::PlayerKind::MostPieces), cpu / 12, cuda / 16},
    };
}

std::vector<Row> grid_benchmarks(const Settings& settings, const GridBenchOptions& options) {
    std::vector<Row> rows;
    uint64_t signature = 0xcbf29ce484222325ull;
    const std::vector<std::string> backends = {"cpu1", "cpu", "cuda"};
    grid_perft_rows(settings, backends, default_grid_perft_cases(options.quick), rows, &signature);
    if (!options.quick)  // the GPU target: startpos perft(8) under a second
        grid_perft_rows(settings, {"cuda"}, {{"startpos", "square8:7x7", "startpos", 8}}, rows,
                        &signature);
    grid_playout_rows(settings, backends, default_grid_playout_cases(options.quick), rows,
                      &signature);
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
