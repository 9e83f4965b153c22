// paired-blend (the Gomoku seed's scheme): real weights; N_R rounds of random pairs; the bottom
// half blended toward the top half; a local vs global best match; the bottom s share replaced
// by the global and local bests; multiplicative mutation W_j <- W_j (1 + m_j).
#include <algorithm>
#include <cmath>

#include "host/core/error.hpp"
#include "host/io/json_fields.hpp"
#include "host/learn/scheme.hpp"

namespace gaeval::learn {

namespace {

class PairedBlend final : public Scheme {
  public:
    const char* name() const override { return "paired-blend"; }
    const char* description() const override {
        return "random pairs, blend toward the top half, local vs global best, scaled mutation";
    }

    std::vector<SchemeOption> options() const override {
        return {
            {"replace", "share replaced by the global best, s (0.05)",
             [](LearnConfig& c, const std::string& t, const games::GameInfo&) {
                 c.replace_best = parse_real_flag("replace", t);
             }},
            {"mutation", "m (0.05)",
             [](LearnConfig& c, const std::string& t, const games::GameInfo&) {
                 c.scale_mutation = parse_real_flag("mutation", t);
             }},
            {"rounds", "N_R rounds per generation (10)",
             [](LearnConfig& c, const std::string& t, const games::GameInfo&) {
                 c.rounds = static_cast<uint32_t>(parse_integer_flag("rounds", t, 1, 100000));
             }},
            {"blend", "c (0.1)",
             [](LearnConfig& c, const std::string& t, const games::GameInfo&) {
                 c.blend = parse_real_flag("blend", t);
             }},
            {"init-range", "LOW:HIGH of the first weights (-1:1)",
             [](LearnConfig& c, const std::string& t, const games::GameInfo&) {
                 parse_init_range(c, t);
             }},
            {"init",
             "range (first weights uniform in --init-range) | game (the game's start weights "
             "perturbed by the mutation rule)",
             [](LearnConfig& c, const std::string& init, const games::GameInfo& info) {
                 if (init == "game") {
                     if (info.initial_weights.size() != info.weight_names.size())
                         throw InputError("--init game: " + info.name + " has no start weights");
                     for (int f : c.features) c.start_weights.push_back(info.initial_weights[f]);
                 } else if (init != "range") {
                     throw InputError("--init '" + init + "': expected range or game");
                 }
             }},
        };
    }

    void set_defaults(LearnConfig& c) const override {
        c.population = 24;
        c.rounds = 10;
    }

    void validate(const LearnConfig& c) const override {
        auto in = [](double v, double lo, double hi) { return v >= lo && v <= hi; };
        if (c.population < 4 || c.population % 2)
            throw InputError(
                "--population: paired-blend pairs members 1-2, 3-4, ...: needs an even number "
                ">= 4, got " +
                std::to_string(c.population));
        if (c.rounds < 1 || c.rounds > 100000) throw InputError("--rounds: must be in [1, 100000]");
        if (!in(c.blend, 0.0, 1.0) || c.blend <= 0) throw InputError("--blend: must be in (0, 1]");
        if (!in(c.replace_best, 0.0, 0.5) || c.replace_best <= 0)
            throw InputError("--replace: paired-blend's share must be in (0, 0.5]");
        if (!in(c.scale_mutation, 0.0, 1.0)) throw InputError("--mutation: must be in [0, 1]");
    }

    uint64_t games_per_generation(const LearnConfig& c) const override {
        return uint64_t(c.rounds) * (c.population / 2) + c.rounds;  // no duel in generation 0
    }

    // Uniform in the init range, or (--init game) the game's weights under the mutation rule.
    void initialize(const LearnConfig& c, LearnState& s) const override {
        if (c.start_weights.empty()) return Scheme::initialize(c, s);
        const uint32_t n = c.population, d = c.dims();
        for (uint32_t m = 0; m < n; ++m)
            for (uint32_t j = 0; j < d; ++j) {
                const double u = unit(philox(c.seed, Purpose::SchemeInit, m, j, 0, 0), 0);
                s.weights[size_t(m) * d + j] = static_cast<float>(
                    c.start_weights[j] * (1.0 + c.scale_mutation * (2.0 * u - 1.0)));
            }
    }

    void step(const LearnConfig& c, LearnState& s, Generation& games) const override {
        const uint32_t n = c.population, d = c.dims(), g = s.generation;
        GenerationReport& report = games.report;
        const auto order = play_and_score(c, s, games, paired_rounds_schedule(c, g));
        const std::vector<float> local = member(s, order[0], d);
        if (s.global_best.empty()) {
            s.global_best = local;
        } else {
            // Local vs global: N_R games, colours alternating; the local best replaces the
            // global best only with more than half the points.
            std::vector<games::PlayerData> duel{player_of(c, local.data()),
                                                player_of(c, s.global_best.data())};
            std::vector<Pairing> match(c.rounds);
            for (uint32_t i = 0; i < c.rounds; ++i) match[i] = Pairing{0, 1, uint8_t(i % 2)};
            const auto duel_records = games.play(duel, match, 1);
            double points = 0;
            for (const auto& r : duel_records)
                points += r.a_result > 0 ? 1.0 : r.a_result == 0 ? 0.5 : 0;
            if (2 * points > c.rounds) {
                s.global_best = local;
                report.global_replaced = true;
            }
        }
        s.best_weights = s.global_best;
        s.best_value = s.value[order[0]];

        // Bottom half blended toward a random top-half member (from the weights before
        // blending).
        const std::vector<float> before = s.weights;
        const uint32_t half = n / 2;
        for (uint32_t k = half; k < n; ++k) {
            const uint32_t m = order[k];
            const uint32_t top =
                order[below(draw(c, Purpose::SchemeVariation, g, k, 0).v[0], half)];
            for (uint32_t j = 0; j < d; ++j) {
                const float w = before[size_t(m) * d + j];
                s.weights[size_t(m) * d + j] =
                    static_cast<float>(w + c.blend * (before[size_t(top) * d + j] - w));
            }
            ++report.children;
        }
        // The bottom s share (at least two members) is replaced by the two bests: its worse
        // half (rounded up) by copies of the global best, the rest by copies of the local best.
        const uint32_t copies = std::max(2u, uint32_t(std::lround(c.replace_best * n)));
        const uint32_t global_copies = (copies + 1) / 2;
        for (uint32_t k = n - copies; k < n; ++k) {
            const std::vector<float>& best = k >= n - global_copies ? s.global_best : local;
            std::copy(best.begin(), best.end(), s.weights.begin() + size_t(order[k]) * d);
        }
        // Every weight of every member: W_j <- W_j (1 + m_j), m_j uniform in (-m, m).
        for (uint32_t m = 0; m < n; ++m)
            for (uint32_t j = 0; j < d; ++j) {
                const double u = unit(draw(c, Purpose::SchemeMutation, g, m, j), 0);
                float& w = s.weights[size_t(m) * d + j];
                w = static_cast<float>(w * (1.0 + c.scale_mutation * (2.0 * u - 1.0)));
            }
        report.mutants = n;
    }

    void write_settings(const LearnConfig& c, nlohmann::json& j) const override {
        j["rounds"] = c.rounds;
        j["blend"] = c.blend;
        j["replace"] = c.replace_best;
        j["mutation"] = c.scale_mutation;
        j["init_range"] = {c.init_low, c.init_high};
        if (!c.start_weights.empty()) {  // --init game
            j["init"] = "game";
            j["start_weights"] = c.start_weights;
        }
    }

    void read_settings(LearnConfig& c, const nlohmann::json& j,
                       const std::string& where) const override {
        c.rounds = static_cast<uint32_t>(json_fields::number(j, "rounds", where));
        c.blend = json_fields::number(j, "blend", where);
        c.replace_best = json_fields::number(j, "replace", where);
        c.scale_mutation = json_fields::number(j, "mutation", where);
        read_init_range(c, j);
        if (j.contains("start_weights"))
            c.start_weights = j.at("start_weights").get<std::vector<float>>();
    }
};

}  // namespace

std::vector<Pairing> paired_rounds_schedule(const LearnConfig& c, uint32_t generation) {
    std::vector<Pairing> pairs;
    for (uint32_t r = 0; r < c.rounds; ++r) {
        const auto p = permutation(c, generation, 1000 + r, c.population, c.population);
        for (uint32_t k = 0; k + 1 < c.population; k += 2)
            pairs.push_back({p[k], p[k + 1], uint8_t((r + k / 2) % 2)});
    }
    return pairs;
}

const Scheme& paired_blend_scheme() {
    static const PairedBlend scheme;
    return scheme;
}

}  // namespace gaeval::learn
