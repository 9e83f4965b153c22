#include "host/islands/learn_islands.hpp"

#include <chrono>
#include <cstring>
#include <filesystem>
#include <map>
#include <sstream>

#include "host/core/error.hpp"
#include "host/core/hash.hpp"
#include "host/core/progress.hpp"
#include "host/games/player_file.hpp"
#include "host/io/json_fields.hpp"
#include "host/io/run_folder.hpp"
#include "host/learn/gathered_play.hpp"
#include "host/learn/learn_problems.hpp"
#include "host/learn/scheme.hpp"

namespace gaeval::islands {

namespace fs = std::filesystem;

namespace {

std::vector<uint32_t> float_words(const float* w, size_t n) {
    std::vector<uint32_t> words(n);
    if (n) std::memcpy(words.data(), w, n * sizeof(float));
    return words;
}

std::vector<float> words_float(const std::vector<uint32_t>& words) {
    std::vector<float> w(words.size());
    if (!w.empty()) std::memcpy(w.data(), words.data(), w.size() * sizeof(float));
    return w;
}

class LearnIslands : public IslandGa {
  public:
    LearnIslands(const learn::LearnJob& job, IslandPlay how) : job_(job), how_(how) {
        play_ = [this](const std::vector<games::PlayerData>& players,
                       const std::vector<Pairing>& pairings, uint64_t seed) {
            return job_.session->play_pairings(players, pairings, seed, job_.config.max_plies,
                                               job_.backend);
        };
        play_keyed_ = [this](const std::vector<games::PlayerData>& players,
                             const std::vector<Pairing>& pairings,
                             const std::vector<GameKey>& keys) {
            return job_.session->play_keyed_pairings(players, pairings, keys, job_.config.max_plies,
                                                     job_.backend);
        };
        // A problem run (job.config.problem): the problem's op on the job's backend, one call
        // for every genome it is given.
        // A problem built from a setup (word genomes): its instance's op.
        if (job_.config.instance) {
            // Gathered evaluations score copies: plans rewritten as they are scored (repair
            // constraints) would not come back (the CLI refuses them first).
            if (job_.config.instance->rewrites_genomes())
                throw InputError(learn::kRewritingOnIslands);
            evaluate_words_ = [this](const std::vector<uint32_t>& genomes, uint32_t count) {
                return job_.config.instance->evaluate(job_.backend, genomes, count);
            };
        } else if (!job_.config.problem.empty()) {
            const learn::ProblemEntry* problem = &learn::find_problem(job_.config.problem);
            evaluate_ = [this, problem](const std::vector<float>& genomes, uint32_t count) {
                return problem->evaluate(job_.backend, genomes, count, job_.config.dims());
            };
        }
    }

    bool words() const { return static_cast<bool>(evaluate_words_); }
    bool on_problem() const { return static_cast<bool>(evaluate_) || words(); }

    // Island `island`'s step of its generation: games through `play`, or a problem's
    // evaluations through `evaluate` (real genomes) or `evaluate_words` (word genomes).
    learn::GenerationReport step(uint32_t island, const learn::PlayFn& play,
                                 const learn::EvaluateFn& evaluate,
                                 const learn::EvaluateWordsFn& evaluate_words) {
        learn::LearnState& s = states_.at(island);
        if (words()) return learn::step(config(island), s, evaluate_words);
        return on_problem() ? learn::step(config(island), s, play, evaluate)
                            : learn::step(config(island), s, play);
    }

    learn::LearnConfig config(uint32_t island) const {
        learn::LearnConfig c = job_.config;
        c.seed = island_seed(job_.config.seed, island);
        return c;
    }

    void start(uint32_t island) override { states_[island] = learn::initial_state(config(island)); }

    IslandRow evaluate(uint32_t island) override {
        learn::LearnState& s = states_.at(island);
        const uint64_t before = s.games;
        const auto t0 = std::chrono::steady_clock::now();
        const learn::GenerationReport report = step(island, play_, evaluate_, evaluate_words_);
        return stepped(island, report, before, seconds_since(t0));
    }

    // Every island's step at once: their games (a problem's genomes) are gathered into one
    // backend call a round (host/learn/gathered_play.hpp); each island's line has the
    // generation's seconds.
    std::vector<std::pair<IslandRow, std::string>> evaluate_islands(
        const std::vector<uint32_t>& islands, bool lines) override {
        if (how_ == IslandPlay::PerIsland) return IslandGa::evaluate_islands(islands, lines);
        std::vector<uint64_t> before;
        for (uint32_t i : islands) before.push_back(states_.at(i).games);
        std::vector<learn::GenerationReport> reports(islands.size());
        const auto t0 = std::chrono::steady_clock::now();
        const uint32_t count = static_cast<uint32_t>(islands.size());
        if (words())
            learn::evaluate_steps_together(
                count,
                [&](uint32_t k, const learn::EvaluateWordsFn& evaluate) {
                    reports[k] = step(islands[k], play_, evaluate_, evaluate);
                },
                evaluate_words_, job_.config.dims());
        else if (on_problem())
            learn::evaluate_steps_together(
                count,
                [&](uint32_t k, const learn::EvaluateFn& evaluate) {
                    reports[k] = step(islands[k], play_, evaluate, evaluate_words_);
                },
                evaluate_, job_.config.dims());
        else
            learn::play_steps_together(
                count,
                [&](uint32_t k, const learn::PlayFn& play) {
                    reports[k] = step(islands[k], play, evaluate_, evaluate_words_);
                },
                play_, play_keyed_);
        const double seconds = seconds_since(t0);
        std::vector<std::pair<IslandRow, std::string>> out;
        for (size_t k = 0; k < islands.size(); ++k) {
            const IslandRow row = stepped(islands[k], reports[k], before[k], seconds);
            out.emplace_back(row, lines ? generation_line(islands[k]) : std::string());
        }
        return out;
    }

    // The members' values at the migration point. A scheme's step leaves the value a child
    // will have until it is scored (0: the worst score of a game); a problem's values may be
    // below 0, so there every member is scored again here (one evaluation per island and
    // migration, not counted in the evaluations), and emigrants are the truly best; the next
    // step scores them all anyway.
    std::vector<double> fitness(uint32_t island) override {
        learn::LearnState& s = states_.at(island);
        // Once per island and generation: placement asks again for the values emigration read
        // (immigrants then bring their own).
        const auto scored = rescored_.find(island);
        if (on_problem() && (scored == rescored_.end() || scored->second != s.generation)) {
            rescored_[island] = s.generation;
            const uint32_t n = job_.config.population;
            const std::vector<double> f =
                words() ? evaluate_words_(s.words, n) : evaluate_(s.weights, n);
            const learn::ProblemInfo& info = learn::find_problem(job_.config.problem).info;
            for (size_t m = 0; m < f.size(); ++m) s.value[m] = info.value_of(f[m]);
        }
        return s.value;
    }

    std::vector<uint32_t> genome(uint32_t island, uint64_t member) override {
        const learn::LearnState& s = states_.at(island);
        const size_t d = job_.config.dims();
        if (words())
            return std::vector<uint32_t>(s.words.begin() + member * d,
                                         s.words.begin() + (member + 1) * d);
        if (learn::scheme_of(job_.config).bit_codes())
            return std::vector<uint32_t>(s.codes.begin() + member * d,
                                         s.codes.begin() + (member + 1) * d);
        return float_words(&s.weights[member * d], d);
    }

    void immigrate(uint32_t island, const std::vector<int64_t>& slots,
                   const std::vector<Migrant>& in) override {
        learn::LearnState& s = states_.at(island);
        const size_t d = job_.config.dims();
        for (size_t j = 0; j < slots.size(); ++j) {
            const size_t base = size_t(slots[j]) * d;
            if (words()) {
                std::copy(in[j].words.begin(), in[j].words.end(), s.words.begin() + base);
            } else if (learn::scheme_of(job_.config).bit_codes()) {
                for (size_t k = 0; k < d; ++k) {
                    s.codes[base + k] = static_cast<uint16_t>(in[j].words[k]);
                    s.weights[base + k] = learn::decode_weight(s.codes[base + k]);
                }
            } else {
                const std::vector<float> w = words_float(in[j].words);
                std::copy(w.begin(), w.end(), s.weights.begin() + base);
            }
            s.value[slots[j]] = in[j].fitness;
        }
    }

    void advance(uint32_t) override {}

    Migrant best(uint32_t island) override {
        const learn::LearnState& s = states_.at(island);
        if (words()) return Migrant{island, s.best_value, s.best_words, s.generation};
        return Migrant{island, s.best_value,
                       float_words(s.best_weights.data(), s.best_weights.size()), s.generation};
    }

    void save(uint32_t island, Checkpoint& c, const std::string& p) override {
        const learn::LearnState& s = states_.at(island);
        c.put(p + "weights", s.weights);
        c.put(p + "codes", s.codes);
        c.put(p + "value", s.value);
        c.put(p + "global_best", s.global_best);
        c.put(p + "best_weights", s.best_weights);
        c.put(p + "scalars", std::vector<double>{s.best_value, s.mean_value});
        c.put(p + "counters", std::vector<uint64_t>{s.generation, s.games, s.plies});
        if (words()) {
            c.put(p + "words", s.words);
            c.put(p + "best_words", s.best_words);
        }
    }

    void load(uint32_t island, const Checkpoint& c, const std::string& p,
              const std::string& origin) override {
        learn::LearnState s;
        c.get(p + "weights", s.weights, origin);
        c.get(p + "codes", s.codes, origin);
        c.get(p + "value", s.value, origin);
        c.get(p + "global_best", s.global_best, origin);
        c.get(p + "best_weights", s.best_weights, origin);
        std::vector<double> scalars;
        std::vector<uint64_t> counters;
        c.get(p + "scalars", scalars, origin);
        c.get(p + "counters", counters, origin);
        const size_t n = job_.config.population, d = job_.config.dims();
        if (words()) {
            c.get(p + "words", s.words, origin);
            c.get(p + "best_words", s.best_words, origin);
        }
        const bool genes_ok = words() ? s.words.size() == n * d && s.best_words.size() == d
                                      : s.weights.size() == n * d && s.best_weights.size() == d;
        if (scalars.size() != 2 || counters.size() != 3 || !genes_ok || s.value.size() != n)
            throw InputError(origin + ": corrupt checkpoint part (sizes of island " +
                             std::to_string(island) + ")");
        s.best_value = scalars[0];
        s.mean_value = scalars[1];
        s.generation = static_cast<uint32_t>(counters[0]);
        s.games = counters[1];
        s.plies = counters[2];
        states_[island] = s;
    }

    std::string generations_header() const override {
        if (on_problem()) return learn::problem_generations_csv_header(job_.config);
        return learn::generations_csv_header(job_.session->info(), job_.config);
    }
    std::string generation_line(uint32_t island) override {
        if (on_problem())
            return learn::problem_generations_csv_line(job_.config, lines_.at(island));
        return learn::generations_csv_line(lines_.at(island));
    }
    uint32_t first_generation_number() const override { return 1; }

    uint64_t games() const { return games_; }

  private:
    static double seconds_since(std::chrono::steady_clock::time_point t0) {
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    }

    // The island's line and row after its step; `before`: its games before the step.
    IslandRow stepped(uint32_t island, const learn::GenerationReport& report, uint64_t before,
                      double seconds) {
        const learn::LearnState& s = states_.at(island);
        learn::GenerationRow& line = lines_[island];
        line.report = report;
        line.seconds = seconds;
        line.generation = s.generation;
        line.best_value = s.best_value;
        line.mean_value = s.mean_value;
        line.best_weights = s.best_weights;
        line.best_words = s.best_words;
        games_ += s.games - before;
        IslandRow row;
        row.best = s.best_value;
        row.mean = s.mean_value;
        return row;
    }

    const learn::LearnJob& job_;
    const IslandPlay how_;
    learn::PlayFn play_;
    learn::KeyedPlayFn play_keyed_;
    learn::EvaluateFn evaluate_;             // a problem run's (real genomes); else empty
    learn::EvaluateWordsFn evaluate_words_;  // a setup's problem's (word genomes); else empty
    std::map<uint32_t, uint32_t> rescored_;  // island -> generation its members were last scored
    std::map<uint32_t, learn::LearnState> states_;
    std::map<uint32_t, learn::GenerationRow> lines_;  // each island's last generation
    uint64_t games_ = 0;
};

std::string path_in(const std::string& dir, const char* name) {
    return (fs::path(dir) / name).string();
}

nlohmann::json run_json(const learn::LearnJob& job, const IslandConfig& islands,
                        const Transport& t) {
    nlohmann::json run = learn::learn_run_json(job);
    run["islands"] = config_json(islands);
    run["transport"] = {{"name", t.name()}, {"ranks", t.size()}};
    return run;
}

// weights.json (the best player) and verification.csv of a game's island run.
void write_player_files(const learn::LearnJob& job, const LearnIslandsResult& result) {
    games::PlayerFile player;
    player.learned_on = job.session->setup();
    player.learned_on.erase("game");
    player.weights = learn::player_of(job.config, result.best_weights.data()).weights;
    player.depth = static_cast<int>(job.config.depth);
    io::write_text_atomic(path_in(job.out_dir, "weights.json"),
                          games::player_file_json(job.session->info(), player));
    std::ostringstream csv;
    csv << "generation,opponent,games,wins,draws,losses,win_rate,ci95_low,ci95_high\n";
    for (const learn::VerifyRow& r : result.verification) {
        char line[256];
        std::snprintf(line, sizeof line, "%u,%s,%llu,%llu,%llu,%llu,%.4f,%.4f,%.4f\n", r.generation,
                      r.opponent.c_str(), (unsigned long long)r.games, (unsigned long long)r.wins,
                      (unsigned long long)r.draws, (unsigned long long)r.losses, r.win_rate, r.low,
                      r.high);
        csv << line;
    }
    io::write_text_atomic(path_in(job.out_dir, "verification.csv"), csv.str());
}

}  // namespace

std::unique_ptr<IslandGa> make_learn_island_ga(const learn::LearnJob& job, IslandPlay how) {
    return std::make_unique<LearnIslands>(job, how);
}

uint64_t learn_islands_fingerprint(const learn::LearnJob& job, const IslandConfig& islands) {
    const std::string text = std::to_string(learn::learn_fingerprint(job)) + "|" +
                             std::to_string(job.config.generations) + "|" +
                             config_json(islands).dump();
    return fnv1a(text.data(), text.size());
}

uint64_t learn_islands_games_per_call(const learn::LearnConfig& config, const IslandConfig& islands,
                                      int ranks) {
    const uint64_t r = ranks < 1 ? 1 : static_cast<uint64_t>(ranks);
    const uint64_t most_islands = (uint64_t{islands.count} + r - 1) / r;
    return learn::games_per_generation(config) * most_islands;
}

LearnIslandsResult run_learn_islands(const learn::LearnJob& job, const IslandConfig& islands,
                                     Transport& t, IslandPlay how) {
    const bool files = !job.out_dir.empty();
    const bool root = t.rank() == 0;
    agree(t, [&] {
        learn::validate(job.config);
        validate(islands, job.config.population);
        if (!files) return;
        if (job.resume) {
            io::check_run_folder_kind(job.out_dir, "learn");
            checkpoint_generation(job.out_dir, t.size(), learn_islands_fingerprint(job, islands));
        } else {
            io::check_run_folder_free(job.out_dir);
        }
    });
    const std::string started = iso_time_now();
    agree(t, [&] {
        if (!files || !root) return;
        io::create_run_folder(job.out_dir);
        nlohmann::json run = run_json(job, islands, t);
        run["started"] = started;
        run["status"] = "running";
        io::write_text_atomic(path_in(job.out_dir, "run.json"), run.dump(2) + "\n");
    });

    LearnIslands ga(job, how);
    ArchipelagoJob a;
    a.islands = islands;
    a.generations = job.config.generations;
    a.fingerprint = learn_islands_fingerprint(job, islands);
    a.out_dir = job.out_dir;
    a.resume = job.resume;
    a.quiet = job.quiet;
    a.label = "learn islands";
    a.picture = "learning.svg";
    const std::string what =
        job.config.problem.empty()
            ? job.session->engine()
            : "problem " + job.config.problem + ", dimension " + std::to_string(job.config.dims());
    a.picture_title = "gaeval learn islands: " + job.config.scheme + ", " +
                      std::to_string(islands.count) + " islands of " +
                      std::to_string(job.config.population) + ", " + what + ", seed " +
                      std::to_string(job.config.seed);
    LearnIslandsResult result;
    result.archipelago = run_archipelago(ga, t, a);
    if (job.config.instance)
        result.best_words = result.archipelago.best.words;
    else
        result.best_weights = words_float(result.archipelago.best.words);
    result.games = ga.games();
    if (!root) return result;

    // ---- rank 0: the exported player (a problem's best genome), its verification, the manifest
    const bool done = !result.archipelago.interrupted;
    const bool problem = !job.config.problem.empty();
    if (done && !problem && job.verify_games > 0) {
        learn::LearnState best;
        best.generation = result.archipelago.generation;
        best.best_weights = result.best_weights;
        result.verification = learn::verify_best(job, best);
    }
    if (files && done && problem)
        io::write_text_atomic(path_in(job.out_dir, "best.json"),
                              learn::problem_best_json(job, result.archipelago.generation,
                                                       result.archipelago.best.fitness,
                                                       result.best_weights, result.best_words));
    else if (files && done)
        write_player_files(job, result);
    if (files) {
        nlohmann::json run = run_json(job, islands, t);
        run["started"] = started;
        run["status"] = done ? "complete" : "interrupted";
        run["finished"] = iso_time_now();
        run["generations_done"] = result.archipelago.generation;
        run["best_island"] = result.archipelago.best.from;
        run["best_value"] = result.archipelago.best.fitness;
        io::write_text_atomic(path_in(job.out_dir, "run.json"), run.dump(2) + "\n");
    }
    return result;
}

}  // namespace gaeval::islands
