// modern: tournament selection (k), elitism (e), BLX-alpha or SBX crossover, gaussian mutation;
// fitness is the score fraction of the generation's tournament, or a problem's fitness (--problem).
#include <algorithm>
#include <cmath>

#include "host/core/error.hpp"
#include "host/io/json_fields.hpp"
#include "host/learn/scheme.hpp"

namespace gaeval::learn {

namespace {

class Modern final : public Scheme {
  public:
    const char* name() const override { return "modern"; }
    const char* description() const override {
        return "tournament selection, elitism, BLX-alpha or SBX crossover, gaussian mutation";
    }

    std::vector<SchemeOption> options() const override {
        return {
            tournament_option(),
            {"mutation", "per-gene probability (0.2)",
             [](LearnConfig& c, const std::string& t, const games::GameInfo&) {
                 c.gene_mutation = parse_real_flag("mutation", t);
             }},
            {"tournament-size", "k (3)",
             [](LearnConfig& c, const std::string& t, const games::GameInfo&) {
                 c.tournament_size =
                     static_cast<uint32_t>(parse_integer_flag("tournament-size", t, 1, 100000));
             }},
            {"elites", "e (4)",
             [](LearnConfig& c, const std::string& t, const games::GameInfo&) {
                 c.elites = static_cast<uint32_t>(parse_integer_flag("elites", t, 0, 100000));
             }},
            {"crossover", "blx | sbx (blx)",
             [](LearnConfig& c, const std::string& t, const games::GameInfo&) { c.crossover = t; }},
            {"crossover-rate", "(0.9)",
             [](LearnConfig& c, const std::string& t, const games::GameInfo&) {
                 c.crossover_rate = parse_real_flag("crossover-rate", t);
             }},
            {"blx-alpha", "(0.5)",
             [](LearnConfig& c, const std::string& t, const games::GameInfo&) {
                 c.blx_alpha = parse_real_flag("blx-alpha", t);
             }},
            {"sbx-eta", "(15)",
             [](LearnConfig& c, const std::string& t, const games::GameInfo&) {
                 c.sbx_eta = parse_real_flag("sbx-eta", t);
             }},
            {"sigma", "gaussian step (0.5)",
             [](LearnConfig& c, const std::string& t, const games::GameInfo&) {
                 c.sigma = parse_real_flag("sigma", t);
             }},
            {"init-range", "LOW:HIGH of the first weights (-1:1)",
             [](LearnConfig& c, const std::string& t, const games::GameInfo&) {
                 parse_init_range(c, t);
             }},
        };
    }

    void set_defaults(LearnConfig& c) const override {
        c.population = 32;
        c.tournament = TournamentSpec{};
    }

    void validate(const LearnConfig& c) const override {
        auto in = [](double v, double lo, double hi) { return v >= lo && v <= hi; };
        validate_tournament(c);
        if (c.tournament_size < 1 || c.tournament_size > c.population)
            throw InputError("--tournament-size: must be in [1, population]");
        if (c.elites >= c.population) throw InputError("--elites: must be below the population");
        if (c.crossover != "blx" && c.crossover != "sbx")
            throw InputError("--crossover: '" + c.crossover + "' is not blx or sbx");
        if (!in(c.crossover_rate, 0.0, 1.0))
            throw InputError("--crossover-rate: must be in [0, 1]");
        if (!in(c.gene_mutation, 0.0, 1.0)) throw InputError("--mutation: must be in [0, 1]");
        if (!in(c.sigma, 0.0, 16.0)) throw InputError("--sigma: must be in [0, 16]");
        if (!in(c.blx_alpha, 0.0, 10.0)) throw InputError("--blx-alpha: must be in [0, 10]");
        if (!in(c.sbx_eta, 0.0, 1000.0)) throw InputError("--sbx-eta: must be in [0, 1000]");
    }

    uint64_t games_per_generation(const LearnConfig& c) const override {
        return tournament_games(c);
    }

    // Selection reads only each member's score (score_population): a problem's fitness serves.
    bool runs_on_problems() const override { return true; }

    void step(const LearnConfig& c, LearnState& s, Generation& games) const override {
        const uint32_t n = c.population, d = c.dims(), g = s.generation;
        GenerationReport& report = games.report;
        const auto order = score_population(c, s, games);
        s.best_weights = member(s, order[0], d);
        s.best_value = s.value[order[0]];
        std::vector<uint32_t> rank_of(n);
        for (uint32_t r = 0; r < n; ++r) rank_of[order[r]] = r;

        std::vector<float> next(s.weights.size());
        std::vector<double> next_value(n, 0.0);
        for (uint32_t e = 0; e < c.elites; ++e) {
            std::copy(s.weights.begin() + size_t(order[e]) * d,
                      s.weights.begin() + size_t(order[e] + 1) * d, next.begin() + size_t(e) * d);
            next_value[e] = s.value[order[e]];
        }
        const uint32_t k_size = c.tournament_size;
        for (uint32_t child = c.elites; child < n; ++child) {
            // Tournament selection: k members drawn with replacement, the best ranked wins.
            auto pick = [&](uint32_t which) {
                uint32_t best = n;
                for (uint32_t i = 0; i < k_size; ++i) {
                    const uint32_t m = below(
                        draw(c, Purpose::SchemeVariation, g, child, which * k_size + i, 1).v[0], n);
                    if (best == n || rank_of[m] < rank_of[best]) best = m;
                }
                return best;
            };
            const uint32_t p1 = pick(0), p2 = pick(1);
            const Random4 hit = draw(c, Purpose::SchemeVariation, g, child, 0, 2);
            const bool cross = unit(hit, 0) < c.crossover_rate;
            for (uint32_t j = 0; j < d; ++j) {
                const double x1 = s.weights[size_t(p1) * d + j], x2 = s.weights[size_t(p2) * d + j];
                double y = x1;
                if (cross) {
                    const Random4 r = draw(c, Purpose::SchemeVariation, g, child, j, 3);
                    const double u = unit(r, 0);
                    if (c.crossover == "sbx") {
                        const double beta =
                            u <= 0.5 ? std::pow(2.0 * u, 1.0 / (c.sbx_eta + 1))
                                     : std::pow(1.0 / (2.0 * (1.0 - u)), 1.0 / (c.sbx_eta + 1));
                        y = 0.5 * ((1 + beta) * x1 + (1 - beta) * x2);
                    } else {
                        const double lo = std::min(x1, x2), hi = std::max(x1, x2);
                        const double span = hi - lo;
                        y = lo - c.blx_alpha * span + u * (1 + 2 * c.blx_alpha) * span;
                    }
                }
                const Random4 m = draw(c, Purpose::SchemeMutation, g, child, j);
                if (unit(m, 0) < c.gene_mutation) {
                    y += c.sigma * normal(Random4{{m.v[2], m.v[3], m.v[1], m.v[0]}});
                    ++report.mutants;
                }
                y = std::max(-double(kCodeMax), std::min(double(kCodeMax), y));
                next[size_t(child) * d + j] = static_cast<float>(y);
            }
            ++report.children;
        }
        s.weights.swap(next);
        s.value.swap(next_value);
    }

    void write_settings(const LearnConfig& c, nlohmann::json& j) const override {
        j["tournament"] = tournament_name(c.tournament);
        j["tournament_size"] = c.tournament_size;
        j["elites"] = c.elites;
        j["crossover"] = c.crossover;
        j["crossover_rate"] = c.crossover_rate;
        j["blx_alpha"] = c.blx_alpha;
        j["sbx_eta"] = c.sbx_eta;
        j["mutation"] = c.gene_mutation;
        j["sigma"] = c.sigma;
        j["init_range"] = {c.init_low, c.init_high};
    }

    void read_settings(LearnConfig& c, const nlohmann::json& j,
                       const std::string& where) const override {
        c.tournament = parse_tournament(json_fields::string(j, "tournament", where));
        c.tournament_size = static_cast<uint32_t>(json_fields::number(j, "tournament_size", where));
        c.elites = static_cast<uint32_t>(json_fields::number(j, "elites", where));
        c.crossover = json_fields::string(j, "crossover", where);
        c.crossover_rate = json_fields::number(j, "crossover_rate", where);
        c.blx_alpha = json_fields::number(j, "blx_alpha", where);
        c.sbx_eta = json_fields::number(j, "sbx_eta", where);
        c.gene_mutation = json_fields::number(j, "mutation", where);
        c.sigma = json_fields::number(j, "sigma", where);
        read_init_range(c, j);
    }
};

}  // namespace

const Scheme& modern_scheme() {
    static const Modern scheme;
    return scheme;
}

}  // namespace gaeval::learn
