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
        const learn::GenerationReport report = learn::step(config(island), s, play_);
        return stepped(island, report, before, seconds_since(t0));
    }

    // Every island's step at once: their games are gathered into one backend call a round
    // (host/learn/gathered_play.hpp); each island's line has the generation's seconds.
    std::vector<std::pair<IslandRow, std::string>> evaluate_islands(
        const std::vector<uint32_t>& islands, bool lines) override {
        if (how_ == IslandPlay::PerIsland) return IslandGa::evaluate_islands(islands, lines);
        std::vector<uint64_t> before;
        for (uint32_t i : islands) before.push_back(states_.at(i).games);
        std::vector<learn::GenerationReport> reports(islands.size());
        const auto t0 = std::chrono::steady_clock::now();
        learn::play_steps_together(
            static_cast<uint32_t>(islands.size()),
            [&](uint32_t k, const learn::PlayFn& play) {
                reports[k] = learn::step(config(islands[k]), states_.at(islands[k]), play);
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

    std::vector<double> fitness(uint32_t island) override { return states_.at(island).value; }

    std::vector<uint32_t> genome(uint32_t island, uint64_t member) override {
        const learn::LearnState& s = states_.at(island);
        const size_t d = job_.config.dims();
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
            if (learn::scheme_of(job_.config).bit_codes()) {
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
        if (scalars.size() != 2 || counters.size() != 3 || s.weights.size() != n * d ||
            s.value.size() != n || s.best_weights.size() != d)
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
        return learn::generations_csv_header(job_.session->info(), job_.config);
    }
    std::string generation_line(uint32_t island) override {
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

}  // namespace

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
    a.picture_title = "gaeval learn islands: " + job.config.scheme + ", " +
                      std::to_string(islands.count) + " islands of " +
                      std::to_string(job.config.population) + ", " + job.session->engine() +
                      ", seed " + std::to_string(job.config.seed);
    LearnIslandsResult result;
    result.archipelago = run_archipelago(ga, t, a);
    result.best_weights = words_float(result.archipelago.best.words);
    result.games = ga.games();
    if (!root) return result;

    // ---- rank 0: the exported player, its verification, the manifest
    const bool done = !result.archipelago.interrupted;
    if (done && job.verify_games > 0) {
        learn::LearnState best;
        best.generation = result.archipelago.generation;
        best.best_weights = result.best_weights;
        result.verification = learn::verify_best(job, best);
    }
    if (files) {
        if (done) {
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
                std::snprintf(line, sizeof line, "%u,%s,%llu,%llu,%llu,%llu,%.4f,%.4f,%.4f\n",
                              r.generation, r.opponent.c_str(), (unsigned long long)r.games,
                              (unsigned long long)r.wins, (unsigned long long)r.draws,
                              (unsigned long long)r.losses, r.win_rate, r.low, r.high);
                csv << line;
            }
            io::write_text_atomic(path_in(job.out_dir, "verification.csv"), csv.str());
        }
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
