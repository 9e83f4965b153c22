// truncation-es: a (mu + lambda) evolution strategy with truncation selection, the example
// scheme of docs/adding-a-scheme.md. Each generation the population plays a tournament (on a
// problem: is evaluated); the best `survivors` share (mu members) is kept as it is, and every
// other place gets a child of a survivor (taken in rank order, round robin) with a gaussian
// step on every weight.
// Its settings live in LearnConfig::params, so adding it touched no other file than
// host/learn/scheme_list.cpp (one line).
#include <algorithm>
#include <cmath>

#include "host/core/error.hpp"
#include "host/io/json_fields.hpp"
#include "host/learn/scheme.hpp"

namespace gaeval::learn {

namespace {

constexpr double kDefaultSurvivors = 0.25, kDefaultStep = 0.5;

// A setting from LearnConfig::params, or its default where the config came from elsewhere.
double param(const LearnConfig& c, const char* name, double fallback) {
    const auto it = c.params.find(name);
    return it == c.params.end() ? fallback : it->second;
}
double survivors_share(const LearnConfig& c) { return param(c, "survivors", kDefaultSurvivors); }
double step_size(const LearnConfig& c) { return param(c, "step", kDefaultStep); }

// mu: at least one survivor and at least one child.
uint32_t survivor_count(const LearnConfig& c) {
    const uint32_t mu = uint32_t(std::lround(survivors_share(c) * c.population));
    return std::min(c.population - 1, std::max(1u, mu));
}

class TruncationEs final : public Scheme {
  public:
    const char* name() const override { return "truncation-es"; }
    const char* description() const override {
        return "(mu + lambda) ES: the best share survives, the rest are gaussian steps from them";
    }

    std::vector<SchemeOption> options() const override {
        return {
            tournament_option(),
            {"survivors", "share kept each generation, mu / population (0.25)",
             [](LearnConfig& c, const std::string& t, const games::GameInfo&) {
                 c.params["survivors"] = parse_real_flag("survivors", t);
             }},
            {"step", "gaussian step on every weight of a child (0.5)",
             [](LearnConfig& c, const std::string& t, const games::GameInfo&) {
                 c.params["step"] = parse_real_flag("step", t);
             }},
            {"init-range", "LOW:HIGH of the first weights (-1:1)",
             [](LearnConfig& c, const std::string& t, const games::GameInfo&) {
                 parse_init_range(c, t);
             }},
        };
    }

    void set_defaults(LearnConfig& c) const override {
        c.population = 16;
        c.params["survivors"] = kDefaultSurvivors;
        c.params["step"] = kDefaultStep;
    }

    void validate(const LearnConfig& c) const override {
        validate_tournament(c);
        const double share = survivors_share(c), step = step_size(c);
        if (!(share > 0 && share < 1)) throw InputError("--survivors: must be in (0, 1)");
        if (!(step >= 0 && step <= 16)) throw InputError("--step: must be in [0, 16]");
    }

    uint64_t games_per_generation(const LearnConfig& c) const override {
        return tournament_games(c);
    }

    // Selection reads only each member's score (score_population): a problem's fitness serves.
    bool runs_on_problems() const override { return true; }

    // Initial weights: the default, uniform in [init_low, init_high].

    void step(const LearnConfig& c, LearnState& s, Generation& games) const override {
        const uint32_t n = c.population, d = c.dims(), g = s.generation;
        // Selection: fitness is the score fraction of the tournament, or the problem's fitness
        // (score_population sets s.value and s.mean_value).
        const auto order = score_population(c, s, games);
        s.best_weights = member(s, order[0], d);
        s.best_value = s.value[order[0]];

        // Replacement: the mu best move to places 0..mu-1; place k >= mu is a child of the
        // survivor of rank (k - mu) mod mu.
        const uint32_t mu = survivor_count(c);
        const double step = step_size(c);
        std::vector<float> next(s.weights.size());
        std::vector<double> next_value(n, 0.0);
        for (uint32_t k = 0; k < n; ++k) {
            const uint32_t parent = order[k < mu ? k : (k - mu) % mu];
            for (uint32_t j = 0; j < d; ++j) {
                double w = s.weights[size_t(parent) * d + j];
                // Variation: a gaussian step from draw (SchemeMutation, g, k, j).
                if (k >= mu) w += step * normal(draw(c, Purpose::SchemeMutation, g, k, j));
                next[size_t(k) * d + j] =
                    static_cast<float>(std::max(-double(kCodeMax), std::min(double(kCodeMax), w)));
            }
            if (k < mu) {
                next_value[k] = s.value[parent];
            } else {
                ++games.report.children;
            }
        }
        games.report.mutants = games.report.children;
        s.weights.swap(next);
        s.value.swap(next_value);
    }

    void write_settings(const LearnConfig& c, nlohmann::json& j) const override {
        j["tournament"] = tournament_name(c.tournament);
        j["survivors"] = survivors_share(c);
        j["step"] = step_size(c);
        j["init_range"] = {c.init_low, c.init_high};
    }

    void read_settings(LearnConfig& c, const nlohmann::json& j,
                       const std::string& where) const override {
        c.tournament = parse_tournament(json_fields::string(j, "tournament", where));
        c.params["survivors"] = json_fields::number(j, "survivors", where);
        c.params["step"] = json_fields::number(j, "step", where);
        read_init_range(c, j);
    }
};

}  // namespace

const Scheme& truncation_es_scheme() {
    static const TruncationEs scheme;
    return scheme;
}

}  // namespace gaeval::learn
