#include "bench/game_bench.hpp"

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>

#include "host/backend/backend.hpp"
#include "host/core/error.hpp"
#include "host/games/play.hpp"
#include "host/games/registry.hpp"
#include "host/learn/learn.hpp"

namespace gaeval::bench {

namespace {

// The games whose cases run: those named by --games, else those in the default workload.
std::vector<const games::GameEntry*> chosen_games(const Axes& axes) {
    std::vector<const games::GameEntry*> list;
    if (!axes.games.empty()) {
        for (const std::string& name : axes.games) list.push_back(&games::find_game(name));
        return list;
    }
    for (const auto& entry : games::all_games())
        if (entry->bench_cases().in_default) list.push_back(entry.get());
    return list;
}

// FNV-1a over the outcome bytes of records[0 .. n) (GameRecord's first kRecordOutcomeBytes): the
// bytes the signature hashed before records carried a move hash, so the signature is unchanged.
uint64_t outcome_hash(const GameRecord* records, std::size_t n) {
    uint64_t h = kFnvOffset;
    for (std::size_t i = 0; i < n; ++i) h = fnv1a(&records[i], kRecordOutcomeBytes, h);
    return h;
}

// The move hashes of records[0 .. n) folded onto `h`: what the backends' rows must also agree on.
uint64_t move_check(const GameRecord* records, std::size_t n, uint64_t h = kFnvOffset) {
    for (std::size_t i = 0; i < n; ++i) h = fnv1a(&records[i].move_hash, sizeof(uint64_t), h);
    return h;
}

std::unique_ptr<games::GameSession> open_case(const games::GameEntry& game,
                                              const nlohmann::json& setup) {
    return game.open_setup(setup, "bench case");
}

// "name" or "name d=N" of a game's case, or GAME|key=value,...|depth, or board|fen|depth
// (Ataxx). Sets *game to the case's game.
games::PerftCase perft_case(const std::string& entry, const games::GameEntry** game) {
    for (const auto& g : games::all_games())
        for (const games::PerftCase& c : g->bench_cases().perft)
            if (!c.cuda_only &&
                (c.name + " d=" + std::to_string(c.depth) == entry || c.name == entry)) {
                *game = g.get();
                return c;
            }
    const auto a = entry.find('|'), b = entry.rfind('|');
    if (a == std::string::npos || a == b)
        throw InputError("--positions: '" + entry +
                         "' is neither a case name nor GAME|key=value,...|depth");
    games::PerftCase c;
    const std::string first = entry.substr(0, a), middle = entry.substr(a + 1, b - a - 1);
    bool named_game = false;
    for (const auto& g : games::all_games()) named_game = named_game || g->info().name == first;
    if (named_game) {
        *game = &games::find_game(first);
        c.setup = nlohmann::json::object();
        std::size_t start = 0;
        while (start < middle.size()) {
            const std::size_t comma = middle.find(',', start);
            const std::string item =
                middle.substr(start, comma == std::string::npos ? comma : comma - start);
            const std::size_t eq = item.find('=');
            if (eq == std::string::npos)
                throw InputError("--positions: '" + item + "' is not key=value in '" + entry + "'");
            c.setup[item.substr(0, eq)] = item.substr(eq + 1);
            if (comma == std::string::npos) break;
            start = comma + 1;
        }
    } else {
        *game = &games::find_game("ataxx");  // board|fen|depth: Ataxx's own position syntax
        c.setup = {{"board", first}, {"fen", middle}};
    }
    c.depth = std::atoi(entry.substr(b + 1).c_str());
    if (c.depth < 1 || c.depth > 12)
        throw InputError("--positions: depth must be 1 to 12 in '" + entry + "'");
    c.name = middle == "startpos" ? first + " startpos" : middle;
    return c;
}

}  // namespace

void perft_workload(const Axes& axes, std::vector<Row>& rows, uint64_t* signature) {
    std::vector<std::pair<const games::GameEntry*, games::PerftCase>> cases;
    if (!axes.positions.empty()) {
        for (const std::string& p : axes.positions) {
            const games::GameEntry* game = nullptr;
            games::PerftCase c = perft_case(p, &game);
            cases.push_back({game, c});
        }
    } else {
        for (const games::GameEntry* game : chosen_games(axes))
            for (const games::PerftCase& c : game->bench_cases().perft) cases.push_back({game, c});
    }
    const Settings settings = axes.signature_only ? signature_settings() : axes.settings;
    for (const auto& [game, c] : cases) {
        if (!game->info().perft) continue;
        // GPU targets run on cuda alone, outside the signature (CPU runs would take minutes).
        if (c.cuda_only && axes.signature_only) continue;
        const auto session = open_case(*game, c.setup);
        CaseResults results(c.cuda_only ? nullptr : signature);
        for (const BenchBackend& backend : bench_backends(axes.backends)) {
            if (c.cuda_only && backend.label != "cuda") continue;
            uint64_t nodes = 0;
            Row row = measure(
                c.cuda_only ? axes.settings : settings, "perft",
                c.name + " d=" + std::to_string(c.depth), backend.label, 0, "nodes/s", [&] {
                    Sample s;
                    s.seconds =
                        time_seconds([&] { nodes = session->perft(c.depth, backend.choice); });
                    return s;
                });
            row.items = static_cast<double>(nodes);
            row.note = session->description() + "; " + session->engine();
            if (c.cuda_only) {
                row.signature = nodes;
                row.mismatch = c.expected && nodes != c.expected;
                row.note = row.mismatch
                               ? "WRONG COUNT (published: " + std::to_string(c.expected) + ")"
                               : "published count matches";
            } else {
                results.add(row, nodes);
            }
            rows.push_back(row);
        }
    }
}

void playout_workload(const Axes& axes, std::vector<Row>& rows, uint64_t* signature) {
    const Settings settings = axes.signature_only ? signature_settings() : axes.settings;
    for (const games::GameEntry* game : chosen_games(axes)) {
        for (games::PlayoutCase c : game->bench_cases().playouts) {
            if (!axes.populations.empty()) c.cpu_games = c.cuda_games = axes.populations.front();
            const auto session = open_case(*game, c.setup);
            CaseResults results(signature);
            for (const BenchBackend& backend : bench_backends(axes.backends)) {
                games::PlayRequest request;
                request.a = c.a;
                request.b = c.b;
                request.games =
                    backend.label == "cuda" && !axes.signature_only ? c.cuda_games : c.cpu_games;
                std::vector<GameRecord> records;
                // One measurement, two rows (plies/s and games/s), so that ratios compare like
                // with like.
                Row row = measure(settings, "playout " + c.name + " plies",
                                  c.where + " games=" + std::to_string(request.games),
                                  backend.label, 0, "plies/s", [&] {
                                      Sample s;
                                      s.seconds = time_seconds([&] {
                                          records = games::play(*session, request, backend.choice);
                                      });
                                      return s;
                                  });
                const games::PlaySummary summary = games::summarize(records);
                char note[160];
                std::snprintf(note, sizeof note, "%s, mean plies %.1f, A score %.3f",
                              session->engine().c_str(), summary.mean_plies(), summary.score());
                row.note = note;
                row.items = static_cast<double>(summary.plies);
                row.bytes_per_item = 0;
                // Matches are addressed by index: every backend's first cpu_games games are the
                // same games, so that prefix is what the signature and the check cover.
                results.add(row, outcome_hash(records.data(), c.cpu_games),
                            move_check(records.data(), c.cpu_games));
                rows.push_back(row);
                row.workload = "playout " + c.name + " games";
                row.unit = "games/s";
                row.items = static_cast<double>(summary.games);
                rows.push_back(row);
            }
        }
    }
}

void tournament_workload(const Axes& axes, std::vector<Row>& rows, uint64_t* signature) {
    const Settings settings = axes.signature_only ? signature_settings() : axes.settings;
    std::vector<uint64_t> sizes =
        axes.populations.empty() ? std::vector<uint64_t>{24} : axes.populations;
    std::vector<std::pair<uint64_t, bool>> cases;  // (population, cuda only)
    for (uint64_t n : sizes) cases.push_back({n, false});
    if (!axes.signature_only)
        for (uint64_t n : axes.cuda_extra_populations) cases.push_back({n, true});
    for (const games::GameEntry* game : chosen_games(axes)) {
        const games::BenchCases game_cases = game->bench_cases();
        const nlohmann::json setup = game_cases.tournament_setup;
        if (setup.is_null() || game->info().weight_names.empty()) continue;
        const auto session = open_case(*game, setup);
        for (const auto& [members, cuda_only] : cases) {
            if (members < 2 || members > 4096)
                throw InputError("--population " + std::to_string(members) +
                                 ": the tournament workload takes 2 to 4096 members");
            learn::LearnConfig config = learn::default_config(
                learn::kDefaultScheme, uint32_t(game->info().weight_names.size()));
            config.population = static_cast<uint32_t>(members);
            config.tournament = learn::parse_tournament("round-robin:2");
            config.generations = 1;
            if (game_cases.tournament_max_plies > 0)
                config.max_plies = game_cases.tournament_max_plies;
            learn::validate(config);
            CaseResults results(cuda_only ? nullptr : signature);
            for (const BenchBackend& backend : bench_backends(axes.backends)) {
                if (cuda_only && backend.label != "cuda") continue;
                learn::LearnState state;
                std::vector<GameRecord> records;
                const learn::PlayFn play = [&](const std::vector<games::PlayerData>& players,
                                               const std::vector<Pairing>& pairings,
                                               uint64_t seed) {
                    records = session->play_pairings(players, pairings, seed, config.max_plies,
                                                     backend.choice);
                    return records;
                };
                const uint64_t games = learn::games_per_generation(config);
                // Other games name themselves in the size, so that each game's cpu row is
                // compared with its own cpu1 row (the ratios are keyed on workload and size).
                const std::string& name = game->info().name;
                Row row = measure(settings, "tournament generation",
                                  (name == games::default_game().info().name ? std::string()
                                                                             : name + " ") +
                                      "members=" + std::to_string(members) +
                                      " games=" + std::to_string(games),
                                  backend.label, static_cast<double>(games), "games/s", [&] {
                                      Sample s;
                                      s.seconds = time_seconds([&] {
                                          state = learn::initial_state(config);
                                          learn::step(config, state, play);
                                      });
                                      return s;
                                  });
                uint64_t plies = 0;
                for (const auto& r : records) plies += r.plies;
                char note[160];
                std::snprintf(note, sizeof note, "%s, modern round-robin:2, mean plies %.1f",
                              game->info().name.c_str(),
                              records.empty() ? 0.0 : double(plies) / records.size());
                row.note = note;
                uint64_t hash = outcome_hash(records.data(), records.size());
                hash = fnv1a(state.weights.data(), state.weights.size() * sizeof(float), hash);
                if (cuda_only)
                    row.signature = hash;
                else
                    results.add(row, hash, move_check(records.data(), records.size(), hash));
                rows.push_back(row);
                // The same measurement in plies/s (games differ in length between games).
                row.workload = "tournament generation plies";
                row.unit = "plies/s";
                row.items = static_cast<double>(plies);
                rows.push_back(row);
            }
        }
    }
}

void batch_workload(const Axes& axes, std::vector<Row>& rows, uint64_t* signature) {
    const Settings settings = axes.signature_only ? signature_settings() : axes.settings;
    for (const games::GameEntry* game : chosen_games(axes)) {
        for (const games::BatchCase& c : game->bench_cases().batches) {
            CaseResults results(signature);
            for (const BenchBackend& backend : bench_backends(axes.backends)) {
                games::BatchSample last;
                Row row = measure(settings, c.name, c.where, backend.label, 0, c.unit, [&] {
                    Sample s;
                    s.seconds = time_seconds([&] { last = c.run(backend.choice); });
                    return s;
                });
                row.items = last.items;
                row.note = last.note;
                results.add(row, last.digest);
                rows.push_back(row);
            }
        }
    }
}

}  // namespace gaeval::bench
