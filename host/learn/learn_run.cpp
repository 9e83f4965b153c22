#include "host/learn/learn_run.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>

#include "host/core/error.hpp"
#include "host/core/hash.hpp"
#include "host/core/interrupt.hpp"
#include "host/core/progress.hpp"
#include "host/games/player_file.hpp"
#include "host/games/registry.hpp"
#include "host/io/checkpoint.hpp"
#include "host/io/json_fields.hpp"
#include "host/io/run_folder.hpp"
#include "host/io/svg.hpp"
#include "host/learn/learn_problems.hpp"
#include "host/learn/scheme.hpp"
#include "host/learn/word_population.hpp"

namespace gaeval::learn {

namespace fs = std::filesystem;

namespace {

std::string path_in(const std::string& dir, const char* name) {
    return (fs::path(dir) / name).string();
}

nlohmann::json config_json(const games::GameInfo& game, const LearnConfig& c) {
    nlohmann::json features = nlohmann::json::array();
    for (int f : c.features) features.push_back(game.weight_names[f]);
    nlohmann::json j = {{"scheme", c.scheme},           {"population", c.population},
                        {"generations", c.generations}, {"seed", c.seed},
                        {"features", features},         {"max_plies", c.max_plies}};
    if (c.depth != 1) j["depth"] = c.depth;  // only searching players have another depth
    scheme_of(c).write_settings(c, j);
    return j;
}

// ---- a problem run (LearnConfig::problem): no game, no verification ----------------------

bool on_problem(const LearnJob& job) { return !job.config.problem.empty(); }

// The problem's fitness of a member's value (values are higher-is-better: -fitness when the
// problem is minimised; the negation is exact).
double fitness_of(const LearnConfig& c, double value) {
    return find_problem(c.problem).info.fitness_of(value);
}

// run.json's "config" of a problem run: the problem, its dimension, the scheme's settings.
nlohmann::json problem_config_json(const LearnConfig& c) {
    nlohmann::json j = {{"scheme", c.scheme},           {"problem", c.problem},
                        {"dimension", c.weight_count},  {"population", c.population},
                        {"generations", c.generations}, {"seed", c.seed}};
    // A setup's problem: the setup as loaded (its name, file and contents).
    if (c.instance)
        j[find_problem(c.problem).info.setup_flag] = {{"name", c.instance->setup_name()},
                                                      {"setup", c.instance->setup_json()}};
    scheme_of(c).write_settings(c, j);
    return j;
}

LearnConfig problem_config_from_json(const nlohmann::json& j, const std::string& where) {
    const ProblemEntry& problem = find_problem(json_fields::string(j, "problem", where));
    const std::string scheme = json_fields::string(j, "scheme", where);
    LearnConfig c =
        problem.info.words()
            ? problem_config(scheme, problem.rebuild(j.at(problem.info.setup_flag).at("setup"),
                                                     where + ": " + problem.info.setup_flag))
            : problem_config(scheme, problem.info.name,
                             static_cast<uint32_t>(json_fields::number(j, "dimension", where)));
    c.population = static_cast<uint32_t>(json_fields::number(j, "population", where));
    c.generations = static_cast<uint32_t>(json_fields::number(j, "generations", where));
    c.seed = j.at("seed").get<uint64_t>();
    scheme_of(c).read_settings(c, j, where);
    return c;
}

// generations.csv of a problem run (problem_generations_csv_header and _line).
std::string problem_generations_csv(const LearnConfig& c, const std::vector<GenerationRow>& rows) {
    std::string out = problem_generations_csv_header(c) + '\n';
    for (const GenerationRow& r : rows) out += problem_generations_csv_line(c, r) + '\n';
    return out;
}

// best.json of a problem run: the last generation's best member and its fitness, and the best
// of all generations.
std::string state_best_json(const LearnJob& job, const LearnResult& r) {
    const LearnState& s = r.state;
    return problem_best_json(job, s.generation, s.best_value, s.best_weights, s.best_words,
                             &r.generations);
}

LearnConfig config_from_json(const games::GameInfo& game, const nlohmann::json& j,
                             const std::string& where) {
    LearnConfig c = default_config(json_fields::string(j, "scheme", where),
                                   static_cast<uint32_t>(game.weight_names.size()));
    c.population = static_cast<uint32_t>(json_fields::number(j, "population", where));
    c.generations = static_cast<uint32_t>(json_fields::number(j, "generations", where));
    c.seed = j.at("seed").get<uint64_t>();
    c.max_plies = static_cast<uint32_t>(json_fields::number(j, "max_plies", where));
    c.depth = static_cast<uint32_t>(json_fields::number_or(j, "depth", where, 1));
    c.features.clear();
    for (const auto& f : j.at("features")) {
        const int index = games::weight_index(game, f.get<std::string>());
        if (index < 0) throw InputError(where + ": unknown feature " + f.dump());
        c.features.push_back(index);
    }
    scheme_of(c).read_settings(c, j, where);
    return c;
}

std::string verification_csv(const std::vector<VerifyRow>& rows) {
    std::ostringstream out;
    out << "generation,opponent,games,wins,draws,losses,win_rate,ci95_low,ci95_high\n";
    char line[256];
    for (const VerifyRow& r : rows) {
        std::snprintf(line, sizeof line, "%u,%s,%llu,%llu,%llu,%llu,%.4f,%.4f,%.4f\n", r.generation,
                      r.opponent.c_str(), (unsigned long long)r.games, (unsigned long long)r.wins,
                      (unsigned long long)r.draws, (unsigned long long)r.losses, r.win_rate, r.low,
                      r.high);
        out << line;
    }
    return out.str();
}

std::string generations_csv(const games::GameInfo& game, const LearnConfig& c,
                            const std::vector<GenerationRow>& rows) {
    std::string out = generations_csv_header(game, c) + '\n';
    for (const GenerationRow& r : rows) out += generations_csv_line(r) + '\n';
    return out;
}

std::string tick_label(double v) {
    char text[32];
    std::snprintf(text, sizeof text, "%.3g", v);
    return text;
}

// Two panels sharing the generation axis: the win rates of the verifications (one line per
// opponent, 0..1) and the best/mean value of each generation.
std::string learning_svg(const LearnJob& job, const std::vector<GenerationRow>& gens,
                         const std::vector<VerifyRow>& verify) {
    const double width = 760, panel = 220, left = 70, right = 150, top = 50, gap = 60;
    svg::Document doc(width, top + 2 * panel + gap + 50);
    auto& out = doc.body();
    const double plot_w = width - left - right;
    const double g_max = std::max<double>(1, job.config.generations);
    auto px = [&](double g) { return left + plot_w * g / g_max; };
    out << "<text x=\"" << svg::num(width / 2) << "\" y=\"24\" text-anchor=\"middle\" "
        << "font-size=\"16\" font-weight=\"bold\">"
        << svg::escape("gaeval learn: " + job.config.scheme + ", population " +
                       std::to_string(job.config.population) + ", " +
                       (on_problem(job) ? "problem " + job.config.problem + ", dimension " +
                                              std::to_string(job.config.dims())
                                        : job.session->engine()) +
                       ", seed " + std::to_string(job.config.seed))
        << "</text>\n";
    const char* colours[] = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b"};
    // A problem run: each generation's best fitness (top) and mean fitness (bottom), each
    // panel scaled to its values.
    const bool problem = on_problem(job);
    const auto fitness_points = [&](bool best) {
        std::vector<std::pair<double, double>> pts;
        for (const auto& r : gens)
            pts.push_back(
                {double(r.generation), fitness_of(job.config, best ? r.best_value : r.mean_value)});
        return pts;
    };
    for (int panel_index = 0; panel_index < 2; ++panel_index) {
        const double y0 = top + panel_index * (panel + gap);
        double lo = 0, hi = 1;
        if (problem && !gens.empty()) {
            const auto pts = fitness_points(panel_index == 0);
            lo = hi = pts[0].second;
            for (const auto& p : pts) lo = std::min(lo, p.second), hi = std::max(hi, p.second);
            if (!(hi > lo)) hi = lo + 1;
        }
        auto py = [&](double v) { return y0 + panel * (1 - (v - lo) / (hi - lo)); };
        out << "<rect x=\"" << svg::num(left) << "\" y=\"" << svg::num(y0) << "\" width=\""
            << svg::num(plot_w) << "\" height=\"" << svg::num(panel)
            << "\" fill=\"none\" stroke=\"#888\"/>\n";
        for (int t = 0; t <= 4; ++t) {
            const double v = lo + (hi - lo) * t / 4;
            out << "<line x1=\"" << svg::num(left) << "\" x2=\"" << svg::num(left + plot_w)
                << "\" y1=\"" << svg::num(py(v)) << "\" y2=\"" << svg::num(py(v))
                << "\" stroke=\"#eee\"/>\n<text x=\"" << svg::num(left - 6) << "\" y=\""
                << svg::num(py(v) + 4) << "\" text-anchor=\"end\" font-size=\"11\">"
                << tick_label(v) << "</text>\n";
        }
        out << "<text x=\"" << svg::num(left) << "\" y=\"" << svg::num(y0 - 8)
            << "\" font-size=\"13\">"
            << (problem            ? (panel_index == 0 ? "fitness of each generation's best member"
                                                       : "mean fitness of each generation")
                : panel_index == 0 ? "win rate of the best member (verification games)"
                                   : "score of each generation's best member against the panel "
                                     "(built-in players)")
            << "</text>\n";
        auto polyline = [&](const std::vector<std::pair<double, double>>& pts, const char* colour,
                            const char* label, int legend_row, bool dash) {
            if (pts.empty()) return;
            out << "<polyline fill=\"none\" stroke=\"" << colour << "\" stroke-width=\"2\""
                << (dash ? " stroke-dasharray=\"5,3\"" : "") << " points=\"";
            for (const auto& p : pts)
                out << svg::num(px(p.first)) << ',' << svg::num(py(p.second)) << ' ';
            out << "\"/>\n";
            for (const auto& p : pts)
                out << "<circle cx=\"" << svg::num(px(p.first)) << "\" cy=\""
                    << svg::num(py(p.second)) << "\" r=\"2.5\" fill=\"" << colour << "\"/>\n";
            const double ly = y0 + 16 + 18 * legend_row;
            out << "<line x1=\"" << svg::num(left + plot_w + 12) << "\" x2=\""
                << svg::num(left + plot_w + 36) << "\" y1=\"" << svg::num(ly) << "\" y2=\""
                << svg::num(ly) << "\" stroke=\"" << colour << "\" stroke-width=\"2\"/>\n"
                << "<text x=\"" << svg::num(left + plot_w + 40) << "\" y=\"" << svg::num(ly + 4)
                << "\" font-size=\"12\">" << label << "</text>\n";
        };
        if (problem) {
            polyline(fitness_points(panel_index == 0), colours[panel_index],
                     panel_index == 0 ? "best" : "mean", 0, false);
        } else if (panel_index == 0) {
            const std::vector<std::string> opponents = verify_opponents(job);
            for (std::size_t o = 0; o < opponents.size(); ++o) {
                std::vector<std::pair<double, double>> pts;
                for (const auto& r : verify)
                    if (r.opponent == opponents[o])
                        pts.push_back({double(r.generation), r.win_rate});
                const std::string label = "vs " + opponents[o];
                polyline(pts, colours[o % 6], label.c_str(), int(o), o >= 6);  // dashed past six
            }
        } else {
            std::vector<std::pair<double, double>> panel;
            for (const auto& r : gens)
                if (r.panel_score >= 0) panel.push_back({double(r.generation), r.panel_score});
            polyline(panel, "#222", "panel score", 0, false);
        }
    }
    const double axis_y = top + 2 * panel + gap;
    // Integer ticks: a step of 1, 2, 5, 10, 20, 50, ... generations, at most 10 ticks.
    long step = 1;
    for (long decade = 1; g_max / step > 10; decade *= 10)
        for (long m : {1, 2, 5})
            if (g_max / step > 10) step = m * decade;
    for (int t = 0; t * step <= g_max; ++t) {
        const double g = t * step;
        out << "<text x=\"" << svg::num(px(g)) << "\" y=\"" << svg::num(axis_y + 16)
            << "\" text-anchor=\"middle\" font-size=\"11\">"
            << svg::escape(std::to_string(int(std::lround(g)))) << "</text>\n";
    }
    out << "<text x=\"" << svg::num(left + plot_w / 2) << "\" y=\"" << svg::num(axis_y + 36)
        << "\" text-anchor=\"middle\" font-size=\"12\">generation</text>\n";
    return doc.str();
}

Checkpoint make_checkpoint(const LearnJob& job, const LearnResult& r) {
    Checkpoint c;
    const LearnState& s = r.state;
    nlohmann::json gens = nlohmann::json::array(), verify = nlohmann::json::array();
    for (const auto& g : r.generations) {
        gens.push_back({g.generation, g.report.games, g.report.plies, g.report.stopped,
                        g.report.children, g.report.mutants, g.report.global_replaced, g.best_value,
                        g.mean_value, g.seconds, g.best_weights, g.panel_score});
        if (!g.best_words.empty()) gens.back().push_back(g.best_words);
    }
    for (const auto& v : r.verification)
        verify.push_back({v.generation, v.opponent, v.games, v.wins, v.draws, v.losses});
    c.header = {{"kind", "learn"},
                {"fingerprint", learn_fingerprint(job)},
                {"generation", s.generation},
                {"population", job.config.population},
                {"dims", job.config.dims()},
                {"best_value", s.best_value},
                {"mean_value", s.mean_value},
                {"games", s.games},
                {"plies", s.plies},
                {"generations", gens},
                {"verification", verify}};
    c.put("weights", s.weights);
    c.put("codes", s.codes);
    c.put("value", s.value);
    c.put("global_best", s.global_best);
    c.put("best_weights", s.best_weights);
    if (job.config.instance) {  // a setup's problem: word genomes
        c.put("words", s.words);
        c.put("best_words", s.best_words);
    }
    return c;
}

void restore_checkpoint(const LearnJob& job, const std::string& path, LearnResult& r) {
    const Checkpoint c = load_checkpoint(path);
    const auto& h = c.header;
    if (h.value("kind", std::string()) != "learn")
        throw InputError(path + ": not a learn checkpoint");
    if (h.value("fingerprint", uint64_t{0}) != learn_fingerprint(job))
        throw InputError(path + ": checkpoint of a different configuration (run.json changed?)");
    try {
        LearnState& s = r.state;
        s.generation = h.at("generation").get<uint32_t>();
        s.best_value = h.at("best_value").get<double>();
        s.mean_value = h.at("mean_value").get<double>();
        s.games = h.at("games").get<uint64_t>();
        s.plies = h.at("plies").get<uint64_t>();
        c.get("weights", s.weights, path);
        c.get("codes", s.codes, path);
        c.get("value", s.value, path);
        c.get("global_best", s.global_best, path);
        c.get("best_weights", s.best_weights, path);
        const size_t n = job.config.population, d = job.config.dims();
        // A setup's problem keeps word genomes instead of weights.
        const bool words = job.config.instance != nullptr;
        if (words) {
            c.get("words", s.words, path);
            c.get("best_words", s.best_words, path);
        }
        const bool codes_ok =
            scheme_of(job.config).bit_codes() ? s.codes.size() == n * d : s.codes.empty();
        const bool genes_ok = words ? s.words.size() == n * d && s.best_words.size() == d &&
                                          s.weights.empty() && s.best_weights.empty()
                                    : s.weights.size() == n * d && s.best_weights.size() == d;
        if (!genes_ok || !codes_ok || s.value.size() != n ||
            (!s.global_best.empty() && s.global_best.size() != d))
            throw InputError(path + ": corrupt checkpoint (sizes do not match run.json)");
        if (s.generation > job.config.generations)
            throw InputError("--generations " + std::to_string(job.config.generations) +
                             ": the run already completed " + std::to_string(s.generation) +
                             " generations");
        for (const auto& g : h.at("generations")) {
            GenerationRow row;
            row.generation = g.at(0).get<uint32_t>();
            row.report.games = g.at(1).get<uint64_t>();
            row.report.plies = g.at(2).get<uint64_t>();
            row.report.stopped = g.at(3).get<uint64_t>();
            row.report.children = g.at(4).get<uint32_t>();
            row.report.mutants = g.at(5).get<uint32_t>();
            row.report.global_replaced = g.at(6).get<bool>();
            row.best_value = g.at(7).get<double>();
            row.mean_value = g.at(8).get<double>();
            row.seconds = g.at(9).get<double>();
            row.best_weights = g.at(10).get<std::vector<float>>();
            row.panel_score = g.size() > 11 ? g.at(11).get<double>() : -1;
            if (g.size() > 12) row.best_words = g.at(12).get<std::vector<uint32_t>>();
            r.generations.push_back(row);
        }
        for (const auto& v : h.at("verification")) {
            VerifyRow row;
            row.generation = v.at(0).get<uint32_t>();
            row.opponent = v.at(1).get<std::string>();
            row.games = v.at(2).get<uint64_t>();
            row.wins = v.at(3).get<uint64_t>();
            row.draws = v.at(4).get<uint64_t>();
            row.losses = v.at(5).get<uint64_t>();
            row.win_rate = row.games ? double(row.wins) / row.games : 0.0;
            wilson_interval(row.wins, row.games, &row.low, &row.high);
            r.verification.push_back(row);
        }
    } catch (const nlohmann::json::exception& e) {
        throw InputError(path + ": corrupt checkpoint header (" + std::string(e.what()) + ")");
    }
}

void write_outputs(const LearnJob& job, const LearnResult& r) {
    const std::string& dir = job.out_dir;
    if (on_problem(job)) {
        io::write_text_atomic(path_in(dir, "generations.csv"),
                              problem_generations_csv(job.config, r.generations));
        io::write_text_atomic(path_in(dir, "learning.svg"),
                              learning_svg(job, r.generations, r.verification));
        io::write_text_atomic(path_in(dir, "best.json"), state_best_json(job, r));
        save_checkpoint(make_checkpoint(job, r), path_in(dir, "checkpoint.bin"));
        return;
    }
    io::write_text_atomic(path_in(dir, "generations.csv"),
                          generations_csv(job.session->info(), job.config, r.generations));
    io::write_text_atomic(path_in(dir, "verification.csv"), verification_csv(r.verification));
    io::write_text_atomic(path_in(dir, "learning.svg"),
                          learning_svg(job, r.generations, r.verification));
    games::PlayerFile player;
    player.learned_on = job.session->setup();
    player.learned_on.erase("game");
    player.weights = player_of(job.config, r.state.best_weights.data()).weights;
    player.depth = static_cast<int>(job.config.depth);
    io::write_text_atomic(path_in(dir, "weights.json"),
                          games::player_file_json(job.session->info(), player));
    save_checkpoint(make_checkpoint(job, r), path_in(dir, "checkpoint.bin"));
}

}  // namespace

std::string problem_generations_csv_header(const LearnConfig& c) {
    std::string out =
        "generation,evaluations,children,mutants,best_fitness,mean_fitness,seconds,"
        "evaluations_per_s";
    // A column per gene: x (real) or g (a word, unsigned).
    for (uint32_t j = 0; j < c.dims(); ++j) out += (c.instance ? ",g" : ",x") + std::to_string(j);
    return out;
}

std::string problem_generations_csv_line(const LearnConfig& c, const GenerationRow& r) {
    char line[256];
    std::snprintf(line, sizeof line, "%u,%llu,%u,%u,%.17g,%.17g,%.4f,%.1f", r.generation,
                  (unsigned long long)r.report.games, r.report.children, r.report.mutants,
                  fitness_of(c, r.best_value), fitness_of(c, r.mean_value), r.seconds,
                  r.seconds > 0 ? r.report.games / r.seconds : 0.0);
    std::string out = line;
    for (float w : r.best_weights) {
        std::snprintf(line, sizeof line, ",%.9g", w);
        out += line;
    }
    for (uint32_t w : r.best_words) out += "," + std::to_string(w);
    return out;
}

std::string problem_best_json(const LearnJob& job, uint32_t generation, double best_value,
                              const std::vector<float>& genome,
                              const std::vector<uint32_t>& best_words,
                              const std::vector<GenerationRow>* rows) {
    const LearnConfig& c = job.config;
    const ProblemInfo& info = find_problem(c.problem).info;
    const auto genome_json = [&](const std::vector<float>& reals,
                                 const std::vector<uint32_t>& words) {
        return c.instance ? nlohmann::json(words) : nlohmann::json(reals);
    };
    nlohmann::json j = {{"problem", info.name},
                        {"dimension", c.dims()},
                        {"maximise", info.maximise},
                        {"optimum", info.optimum},
                        {"generation", generation},
                        {"fitness", info.fitness_of(best_value)},
                        {"genome", genome_json(genome, best_words)}};
    if (c.instance) {
        j[info.setup_flag] = c.instance->setup_name();
        j["plan"] = c.instance->describe(best_words);
    }
    // The best of all generations: the first row to reach the highest value.
    const GenerationRow* best = nullptr;
    if (rows)
        for (const GenerationRow& r : *rows)
            if (!best || r.best_value > best->best_value) best = &r;
    if (best) {
        j["best_ever"] = {{"generation_found", best->generation - 1},
                          {"fitness", info.fitness_of(best->best_value)},
                          {"genome", genome_json(best->best_weights, best->best_words)}};
        if (c.instance) j["best_ever"]["plan"] = c.instance->describe(best->best_words);
    }
    return j.dump(2) + "\n";
}

std::string generations_csv_header(const games::GameInfo& game, const LearnConfig& c) {
    std::string out =
        "generation,games,plies,stopped,children,mutants,global_replaced,best_value,"
        "mean_value,seconds,games_per_s,panel_score";
    for (int f : c.features) out += ",w_" + game.weight_names[f];
    return out;
}

std::string generations_csv_line(const GenerationRow& r) {
    char line[512];
    const double rate = r.seconds > 0 ? r.report.games / r.seconds : 0.0;
    std::snprintf(line, sizeof line, "%u,%llu,%llu,%llu,%u,%u,%d,%.6g,%.6g,%.4f,%.1f", r.generation,
                  (unsigned long long)r.report.games, (unsigned long long)r.report.plies,
                  (unsigned long long)r.report.stopped, r.report.children, r.report.mutants,
                  r.report.global_replaced ? 1 : 0, r.best_value, r.mean_value, r.seconds, rate);
    std::string out = line;
    if (r.panel_score < 0)
        out += ',';
    else {
        std::snprintf(line, sizeof line, ",%.4f", r.panel_score);
        out += line;
    }
    for (float w : r.best_weights) {
        std::snprintf(line, sizeof line, ",%.9g", w);
        out += line;
    }
    return out;
}

namespace {

// Verification batch o: the opponent's name and the verify table it plays in (-1: the job's
// own setup).
struct VerifyTarget {
    std::string opponent;
    int table = -1;
};

std::vector<VerifyTarget> verify_targets(const LearnJob& job) {
    const games::GameInfo& info = job.session->info();
    std::vector<VerifyTarget> targets{{"random", -1}};
    for (const std::string& p : info.policy_names) targets.push_back({p, -1});
    for (std::size_t t = 0; t < info.verify_tables.size(); ++t)
        for (const std::string& p : info.verify_tables[t].opponents) targets.push_back({p, int(t)});
    return targets;
}

}  // namespace

std::vector<std::string> verify_opponents(const LearnJob& job) {
    std::vector<std::string> names;
    for (const VerifyTarget& t : verify_targets(job))
        names.push_back(t.table < 0
                            ? t.opponent
                            : t.opponent + " " + job.session->info().verify_tables[t.table].label);
    return names;
}

std::shared_ptr<const games::GameSession> verify_session(const LearnJob& job, int opponent) {
    const VerifyTarget target = verify_targets(job).at(opponent);
    if (target.table < 0) return job.session;
    const games::GameInfo& info = job.session->info();
    nlohmann::json setup = job.session->reopen();
    for (const auto& [key, value] : info.verify_tables[target.table].options) setup[key] = value;
    return games::find_game(info.name).open_setup(setup, "verification setup");
}

games::PlayRequest verify_request(const LearnJob& job, const LearnState& state, int opponent) {
    games::PlayRequest request;
    request.a = player_of(job.config, state.best_weights.data());
    const std::string name = verify_targets(job).at(opponent).opponent;
    games::builtin_player(name, job.session->info(), &request.b);
    request.games = job.verify_games;
    request.seed = batch_seed(job.config.seed, state.generation, 16 + opponent);
    request.max_plies = job.config.max_plies;
    return request;
}

namespace {

VerifyRow verify_row(uint32_t generation, const std::string& opponent,
                     const games::PlaySummary& summary) {
    VerifyRow row;
    row.generation = generation;
    row.opponent = opponent;
    row.games = summary.games;
    row.wins = summary.wins;
    row.draws = summary.draws;
    row.losses = summary.losses;
    row.win_rate = summary.games ? double(summary.wins) / summary.games : 0.0;
    wilson_interval(row.wins, row.games, &row.low, &row.high);
    return row;
}

// What a generation plays after its step, for the best member of `s`.
struct AfterStep {
    double panel_score = -1;  // -1: no panel
    std::vector<VerifyRow> verification;
};

// The best member against the reference panel (every built-in player of the game,
// job.panel_games each, colours alternating; draws of phases 32 + opponent, so learning does not
// depend on it) when `panel`, and its verification (job.verify_games against each
// verify_opponents entry, phases 16 + opponent) when `verify`: the games on the job's own setup
// are one backend call (issue 30), game i of each batch keyed as in that batch alone (A in seat i
// mod seats: the games of GameSession::play); a verify table's opponents play on their setups.
// The panel score is the mean over the panel of the best member's score (wins + draws / 2).
AfterStep play_after_step(const LearnJob& job, const LearnState& s, bool panel, bool verify) {
    if (on_problem(job)) return {};  // a problem has no opponents
    const std::vector<VerifyTarget> targets = verify_targets(job);
    const std::vector<std::string> names = verify_opponents(job);
    const uint32_t seats = static_cast<uint32_t>(job.session->seats());
    std::vector<games::PlayerData> players{player_of(job.config, s.best_weights.data())};
    std::vector<Pairing> pairings;
    std::vector<GameKey> keys;
    struct Slice {
        size_t first = 0, games = 0;
    };
    const auto add_batch = [&](const std::string& opponent, uint64_t games, uint64_t seed) {
        games::PlayerData b;
        games::builtin_player(opponent, job.session->info(), &b);
        players.push_back(b);
        const Slice slice{pairings.size(), static_cast<size_t>(games)};
        for (uint64_t i = 0; i < games; ++i) {
            pairings.push_back(
                {0, static_cast<uint32_t>(players.size() - 1), static_cast<uint8_t>(i % seats)});
            keys.push_back({seed, static_cast<uint32_t>(i)});
        }
        return slice;
    };
    std::vector<Slice> panel_slices, verify_slices(targets.size());
    const bool panel_games = panel && job.panel_games > 0;
    const bool verify_games = verify && job.verify_games > 0;
    if (panel_games)
        for (size_t o = 0; o < names.size(); ++o)
            panel_slices.push_back(add_batch(names[o], job.panel_games,
                                             batch_seed(job.config.seed, s.generation, 32 + o)));
    if (verify_games)
        for (size_t o = 0; o < targets.size(); ++o)
            if (targets[o].table < 0)
                verify_slices[o] = add_batch(targets[o].opponent, job.verify_games,
                                             verify_request(job, s, int(o)).seed);
    std::vector<GameRecord> records;
    if (!pairings.empty())
        records = job.session->play_keyed_pairings(players, pairings, keys, job.config.max_plies,
                                                   job.backend);
    const auto summary_of = [&](const Slice& slice) {
        return games::summarize(std::vector<GameRecord>(
            records.begin() + slice.first, records.begin() + slice.first + slice.games));
    };
    AfterStep after;
    if (panel_games) {
        double total = 0;
        for (const Slice& slice : panel_slices) total += summary_of(slice).score();
        after.panel_score = total / static_cast<double>(names.size());
    }
    if (verify_games)
        for (size_t o = 0; o < targets.size(); ++o) {
            if (targets[o].table < 0) {
                after.verification.push_back(
                    verify_row(s.generation, names[o], summary_of(verify_slices[o])));
                continue;
            }
            const auto summary = games::summarize(games::play(
                *verify_session(job, int(o)), verify_request(job, s, int(o)), job.backend));
            after.verification.push_back(verify_row(s.generation, names[o], summary));
        }
    return after;
}

}  // namespace

std::vector<VerifyRow> verify_best(const LearnJob& job, const LearnState& s) {
    return play_after_step(job, s, false, true).verification;
}

void wilson_interval(uint64_t wins, uint64_t games, double* low, double* high) {
    if (games == 0) {
        *low = 0;
        *high = 1;
        return;
    }
    const double z = 1.96, n = double(games), p = double(wins) / n;
    const double centre = (p + z * z / (2 * n)) / (1 + z * z / n);
    const double half = z * std::sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n);
    *low = std::max(0.0, centre - half);
    *high = std::min(1.0, centre + half);
}

namespace {
// run.json's "config" of either kind of run.
nlohmann::json job_config_json(const LearnJob& job) {
    return on_problem(job) ? problem_config_json(job.config)
                           : config_json(job.session->info(), job.config);
}
}  // namespace

uint64_t learn_fingerprint(const LearnJob& job) {
    if (on_problem(job)) {
        nlohmann::json j = problem_config_json(job.config);
        j.erase("generations");  // a resumed run may be extended
        const std::string text = j.dump();
        return fnv1a(text.data(), text.size());
    }
    nlohmann::json j = config_json(job.session->info(), job.config);
    j.erase("generations");  // a resumed run may be extended
    j["game"] = job.session->reopen();
    j["verify_every"] = job.verify_every;
    j["verify_games"] = job.verify_games;
    const std::string text = j.dump();
    return fnv1a(text.data(), text.size());
}

nlohmann::json learn_run_json(const LearnJob& job) {
    if (on_problem(job))
        return {{"kind", "learn"},
                {"format", "gaeval-learn-run"},
                {"version", 3},
                {"command", job.command_line},
                {"problem", job.config.problem},
                {"config", job_config_json(job)},
                {"fingerprint", learn_fingerprint(job)},
                {"backend", job.backend.name},
                {"device", job.backend.device}};
    return {{"kind", "learn"},
            {"format", "gaeval-learn-run"},
            {"version", 3},  // 3: Ataxx and tic-tac-toe features in [0, 1] (issue 14)
            {"command", job.command_line},
            {"game", job.session->info().name},
            {"setup", job.session->reopen()},
            {"verify_every", job.verify_every},
            {"verify_games", job.verify_games},
            {"panel_games", job.panel_games},
            {"config", config_json(job.session->info(), job.config)},
            {"fingerprint", learn_fingerprint(job)},
            {"backend", job.backend.name},
            {"device", job.backend.device}};
}

LearnJob learn_job_from_folder(const std::string& dir) {
    io::check_run_folder_kind(dir, "learn");
    const std::string path = path_in(dir, "run.json");
    if (!fs::exists(path)) throw InputError("--resume " + dir + ": no run.json in that folder");
    LearnJob job;
    try {
        const nlohmann::json run = json_fields::read_file(path);
        if (run.value("kind", std::string()) != "learn")
            throw InputError(path + ": not a learn run");
        if (run.value("version", 0) != 3)
            throw InputError(path + ": a learn run of another gaeval version (run.json version " +
                             run.value("version", nlohmann::json()).dump() +
                             ", expected 3: features in [0, 1])");
        job.command_line = run.value("command", std::string());
        if (run.contains("problem")) {
            job.config = problem_config_from_json(run.at("config"), path + ": config");
            validate(job.config);
            job.out_dir = dir;
            job.resume = true;
            return job;
        }
        const games::GameEntry& entry = games::find_game(json_fields::string(run, "game", path));
        job.session = entry.open_setup(run.at("setup"), path + ": setup");
        job.verify_every = static_cast<uint32_t>(json_fields::number(run, "verify_every", path));
        job.verify_games = static_cast<uint32_t>(json_fields::number(run, "verify_games", path));
        job.panel_games = static_cast<uint32_t>(json_fields::number(run, "panel_games", path));
        job.config = config_from_json(job.session->info(), run.at("config"), path + ": config");
    } catch (const nlohmann::json::exception& e) {
        throw InputError(path + ": not a readable learn run.json (" + std::string(e.what()) + ")");
    }
    validate(job.config);
    job.out_dir = dir;
    job.resume = true;
    return job;
}

namespace {

// The state a job starts from: its checkpoint (resume) or a fresh population; every check on
// the run folder, made before anything is written.
LearnResult starting_point(const LearnJob& job) {
    validate(job.config);
    LearnResult result;
    const bool files = !job.out_dir.empty();
    const std::string checkpoint = files ? path_in(job.out_dir, "checkpoint.bin") : "";
    if (job.resume) {
        if (!files) throw InputError("--resume: needs a run folder");
        io::check_run_folder_kind(job.out_dir, "learn");
        if (!fs::exists(checkpoint))
            throw InputError("--resume " + job.out_dir + ": no checkpoint.bin in that folder");
        restore_checkpoint(job, checkpoint, result);
    } else {
        if (files) io::check_run_folder_free(job.out_dir);
        result.state = initial_state(job.config);
    }
    return result;
}

// A word problem's population kept on the job's backend between generations (the scheme breeds
// word genomes as an executor op; repair constraints, which rewrite the genomes as they are
// scored, run on the cpu backend only, refused before), from the state's words; nullptr for
// every other run.
std::unique_ptr<WordPopulation> resident_population(const LearnJob& job, const LearnConfig& c,
                                                    const LearnState& s) {
    if (!c.instance || !scheme_of(c).breeds_words_on_backend()) return nullptr;
    auto population = std::make_unique<WordPopulation>(job.backend, c);
    population->write_words(s.words);
    return population;
}

}  // namespace

void check_job(const LearnJob& job) { starting_point(job); }

LearnResult run_learn(const LearnJob& job) {
    LearnResult result = starting_point(job);
    // The scheme breeds on the backend's host threads (--threads; every core when unset); every
    // draw is addressed, so the results do not depend on it.
    LearnConfig config = job.config;
    config.threads = job.backend.threads;
    const bool files = !job.out_dir.empty();
    const std::string started = iso_time_now();
    if (files) {
        io::create_run_folder(job.out_dir);
        nlohmann::json run = learn_run_json(job);
        run["started"] = started;
        run["status"] = "running";
        io::write_text_atomic(path_in(job.out_dir, "run.json"), run.dump(2) + "\n");
        if (!job.resume) write_outputs(job, result);
    }
    const PlayFn play = [&](const std::vector<games::PlayerData>& players,
                            const std::vector<Pairing>& pairings, uint64_t seed) {
        return job.session->play_pairings(players, pairings, seed, job.config.max_plies,
                                          job.backend);
    };
    // A problem run evaluates through the problem's op on the job's backend (one executor call
    // a generation).
    const ProblemEntry* problem = on_problem(job) ? &find_problem(job.config.problem) : nullptr;
    const EvaluateFn evaluate = [&](const std::vector<float>& genomes, uint32_t count) {
        return problem->evaluate(job.backend, genomes, count, job.config.dims());
    };
    // Repair constraints rewrite the population's genomes as they are scored.
    const EvaluateWordsFn evaluate_words = [&](std::vector<uint32_t>& genomes, uint32_t count) {
        return job.config.instance->evaluate_rewriting(job.backend, genomes, count);
    };
    const auto start = std::chrono::steady_clock::now();
    RateLimiter progress;
    LearnState& s = result.state;
    // Word genomes stay on the backend; s.words is brought back for each checkpoint and at the end.
    const std::unique_ptr<WordPopulation> resident = resident_population(job, config, s);
    const uint32_t first_generation = s.generation;
    while (s.generation < job.config.generations) {
        if (interrupted()) {
            result.interrupted = true;
            break;
        }
        const auto t0 = std::chrono::steady_clock::now();
        GenerationRow row;
        row.report = resident              ? step(config, s, *resident)
                     : !problem            ? step(config, s, play)
                     : job.config.instance ? step(config, s, evaluate_words)
                                           : step(config, s, play, evaluate);
        row.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        row.generation = s.generation;
        row.best_value = s.best_value;
        row.mean_value = s.mean_value;
        row.best_weights = s.best_weights;
        row.best_words = s.best_words;
        const bool last = s.generation == job.config.generations;
        // The panel and any verification due: one call after the step's.
        const AfterStep after = play_after_step(
            job, s, true, last || (job.verify_every > 0 && s.generation % job.verify_every == 0));
        row.panel_score = after.panel_score;
        result.generations.push_back(row);
        std::string verified;
        if (!after.verification.empty()) {
            for (const VerifyRow& v : after.verification) {
                result.verification.push_back(v);
                char text[64];
                std::snprintf(text, sizeof text, " %s %.1f%%", v.opponent.c_str(),
                              100 * v.win_rate);
                verified += text;
            }
        }
        const bool stop = interrupted();
        if (!job.quiet && progress.due(last || stop || !verified.empty())) {
            // ETA from this invocation's pace (verification included).
            const double elapsed =
                std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
            const uint32_t done_here = s.generation - first_generation;
            const double eta = elapsed / done_here * (job.config.generations - s.generation);
            char line[320];
            if (problem)
                std::snprintf(
                    line, sizeof line,
                    "learn: generation %u/%u  best fitness %.9g  mean %.6g  %llu "
                    "evaluations  %.0f evaluations/s  ETA %s\n",
                    s.generation, job.config.generations, fitness_of(job.config, s.best_value),
                    fitness_of(job.config, s.mean_value), (unsigned long long)row.report.games,
                    row.seconds > 0 ? row.report.games / row.seconds : 0.0,
                    duration_text(eta).c_str());
            else
                std::snprintf(
                    line, sizeof line,
                    "learn: generation %u/%u  panel %s  best value %.4g  %llu games  %.0f "
                    "games/s  ETA %s%s%s\n",
                    s.generation, job.config.generations,
                    row.panel_score < 0 ? "-"
                                        : std::to_string(row.panel_score).substr(0, 5).c_str(),
                    s.best_value, (unsigned long long)row.report.games,
                    row.seconds > 0 ? row.report.games / row.seconds : 0.0,
                    duration_text(eta).c_str(),
                    verified.empty() ? "" : "  verify:", verified.c_str());
            std::cerr << line << std::flush;
        }
        if (resident && files) resident->read_words(s.words);
        if (files) write_outputs(job, result);
    }
    if (resident) resident->read_words(s.words);
    result.seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (files) {
        nlohmann::json run = learn_run_json(job);
        run["started"] = started;
        run["status"] = result.interrupted ? "interrupted" : "complete";
        run["finished"] = iso_time_now();
        run["generations_done"] = s.generation;
        io::write_text_atomic(path_in(job.out_dir, "run.json"), run.dump(2) + "\n");
    }
    return result;
}

}  // namespace gaeval::learn
