#include "bench/grid_bench.hpp"

#include <cstdio>
#include <cstdlib>

#include "host/backend/backend.hpp"
#include "host/backend/parallel.hpp"
#include "host/grid/grid.hpp"
#include "host/io/error.hpp"
#include "host/io/fen.hpp"
#include "host/learn/learn.hpp"

namespace gaeval::bench {

namespace {

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

namespace {

// "name" of a default case, or "board|fen|depth".
GridPerftCase perft_case(const std::string& entry, const std::vector<GridPerftCase>& defaults) {
    for (const GridPerftCase& c : defaults)
        if (c.name + " d=" + std::to_string(c.depth) == entry || c.name == entry) return c;
    const auto a = entry.find('|'), b = entry.rfind('|');
    if (a == std::string::npos || a == b)
        throw InputError("--positions: '" + entry +
                         "' is neither a default position nor board|fen|depth");
    GridPerftCase c;
    c.board = entry.substr(0, a);
    c.fen = entry.substr(a + 1, b - a - 1);
    c.depth = std::atoi(entry.substr(b + 1).c_str());
    if (c.depth < 1 || c.depth > 12)
        throw InputError("--positions: depth must be 1 to 12 in '" + entry + "'");
    c.name = c.fen == "startpos" ? c.board + " startpos" : c.fen;
    return c;
}

}  // namespace

void perft_workload(const Axes& axes, std::vector<Row>& rows, uint64_t* signature) {
    std::vector<GridPerftCase> cases = default_grid_perft_cases();
    if (!axes.positions.empty()) {
        std::vector<GridPerftCase> chosen;
        for (const std::string& p : axes.positions) chosen.push_back(perft_case(p, cases));
        cases = chosen;
    }
    const Settings settings = axes.signature_only ? signature_settings() : axes.settings;
    for (const GridPerftCase& c : cases) {
        const grid::GameSetup setup = setup_of(c.board, c.fen);
        CaseResults results(signature);
        for (const BenchBackend& backend : bench_backends(axes.backends)) {
            uint64_t nodes = 0;
            Row row = measure(settings, "perft", c.name + " d=" + std::to_string(c.depth),
                              backend.label, 0, "nodes/s", [&] {
                                  Sample s;
                                  s.seconds = time_seconds(
                                      [&] { nodes = grid::perft(setup, c.depth, backend.choice); });
                                  return s;
                              });
            row.items = static_cast<double>(nodes);
            row.note = c.board + ", " + grid::variant_name(setup);
            results.add(row, nodes);
            rows.push_back(row);
        }
    }
    // The GPU target, apart from the signature (CPU runs would take minutes): startpos
    // perft(8) = 176,821,532,236 (published count), under a second on an H100.
    if (axes.signature_only || !axes.positions.empty()) return;
    for (const BenchBackend& backend : bench_backends(axes.backends)) {
        if (backend.label != "cuda") continue;
        const grid::GameSetup setup = setup_of("square8:7x7", "startpos");
        uint64_t nodes = 0;
        Row row = measure(axes.settings, "perft", "startpos d=8", backend.label, 0, "nodes/s", [&] {
            Sample s;
            s.seconds = time_seconds([&] { nodes = grid::perft(setup, 8, backend.choice); });
            return s;
        });
        row.items = static_cast<double>(nodes);
        row.signature = nodes;
        row.mismatch = nodes != 176821532236ull;
        row.note =
            row.mismatch ? "WRONG COUNT (published: 176821532236)" : "published count matches";
        rows.push_back(row);
    }
}

void playout_workload(const Axes& axes, std::vector<Row>& rows, uint64_t* signature) {
    const Settings settings = axes.signature_only ? signature_settings() : axes.settings;
    for (GridPlayoutCase c : default_grid_playout_cases()) {
        if (!axes.populations.empty()) c.cpu_games = c.cuda_games = axes.populations.front();
        const grid::GameSetup setup = setup_of(c.board, "startpos");
        CaseResults results(signature);
        for (const BenchBackend& backend : bench_backends(axes.backends)) {
            grid::PlayRequest request;
            request.a = c.a;
            request.b = c.b;
            request.games =
                backend.label == "cuda" && !axes.signature_only ? c.cuda_games : c.cpu_games;
            std::vector<grid::GameRecord> records;
            // One measurement, two rows (plies/s and games/s), so that ratios compare like
            // with like.
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
            char note[160];
            std::snprintf(note, sizeof note, "%s, mean plies %.1f, A score %.3f",
                          grid::variant_name(setup).c_str(), summary.mean_plies(), summary.score());
            row.note = note;
            row.items = static_cast<double>(summary.plies);
            row.bytes_per_item = 0;
            // Matches are addressed by index: every backend's first cpu_games games are the
            // same games, so that prefix is what the signature and the check cover.
            results.add(row, fnv1a(records.data(), c.cpu_games * sizeof(grid::GameRecord)));
            rows.push_back(row);
            row.workload = "playout " + c.name + " games";
            row.unit = "games/s";
            row.items = static_cast<double>(summary.games);
            rows.push_back(row);
        }
    }
}

void tournament_workload(const Axes& axes, std::vector<Row>& rows, uint64_t* signature) {
    const Settings settings = axes.signature_only ? signature_settings() : axes.settings;
    const grid::GameSetup setup = setup_of("square8:7x7", "startpos");
    std::vector<uint64_t> sizes =
        axes.populations.empty() ? std::vector<uint64_t>{24} : axes.populations;
    std::vector<std::pair<uint64_t, bool>> cases;  // (population, cuda only)
    for (uint64_t n : sizes) cases.push_back({n, false});
    if (!axes.signature_only)
        for (uint64_t n : axes.cuda_extra_populations) cases.push_back({n, true});
    for (const auto& [members, cuda_only] : cases) {
        if (members < 2 || members > 4096)
            throw InputError("--population " + std::to_string(members) +
                             ": the tournament workload takes 2 to 4096 members");
        learn::LearnConfig config = learn::default_config(learn::SchemeKind::Modern);
        config.population = static_cast<uint32_t>(members);
        config.tournament = learn::parse_tournament("round-robin:2");
        config.generations = 1;
        learn::validate(config);
        CaseResults results(cuda_only ? nullptr : signature);
        for (const BenchBackend& backend : bench_backends(axes.backends)) {
            if (cuda_only && backend.label != "cuda") continue;
            learn::LearnState state;
            std::vector<grid::GameRecord> records;
            uint64_t plies = 0;
            const learn::PlayFn play = [&](const std::vector<grid::Player>& players,
                                           const std::vector<grid::Pairing>& pairings,
                                           uint64_t seed) {
                records = grid::play_pairings(setup, players, pairings, seed, config.max_plies,
                                              backend.choice);
                return records;
            };
            Row row =
                measure(settings, "tournament generation",
                        "members=" + std::to_string(members) +
                            " games=" + std::to_string(learn::games_per_generation(config)),
                        backend.label, static_cast<double>(learn::games_per_generation(config)),
                        "games/s", [&] {
                            Sample s;
                            s.seconds = time_seconds([&] {
                                state = learn::initial_state(config);
                                learn::step(config, state, play);
                            });
                            return s;
                        });
            plies = 0;
            for (const auto& r : records) plies += r.plies;
            char note[160];
            std::snprintf(note, sizeof note, "modern round-robin:2, mean plies %.1f",
                          records.empty() ? 0.0 : double(plies) / records.size());
            row.note = note;
            uint64_t hash = fnv1a(records.data(), records.size() * sizeof(grid::GameRecord));
            hash = fnv1a(state.weights.data(), state.weights.size() * sizeof(float), hash);
            if (cuda_only)
                row.signature = hash;
            else
                results.add(row, hash);
            rows.push_back(row);
        }
    }
}

std::vector<GridPerftCase> default_grid_perft_cases() {
    return {
        {"startpos", "square8:7x7", "startpos", 6},
        {"gaps-a", "square8:7x7", "x5o/7/2-1-2/7/2-1-2/7/o5x x 0 1", 5},
        {"gaps-b", "square8:7x7", "x5o/7/2-1-2/3-3/2-1-2/7/o5x x 0 1", 5},
        {"gaps-c", "square8:7x7", "x5o/7/3-3/2-1-2/3-3/7/o5x x 0 1", 5},
        {"hex:4 startpos", "hex:4", "startpos", 4},
    };
}

std::vector<GridPlayoutCase> default_grid_playout_cases() {
    const uint64_t cpu = 5000, cuda = 1u << 20;
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

}  // namespace gaeval::bench
