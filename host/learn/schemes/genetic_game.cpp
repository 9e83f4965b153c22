// genetic-game: 9-bit fixed-point weights in one bitstring, an estimated value per member
// (the winner takes P% of the loser's value, or value += K x (win% - 50%)), truncation by
// value, one-point crossover anywhere in the bitstring, bit-flip mutation, offspring value =
// the parents' mean.
#include <algorithm>
#include <cmath>

#include "host/core/error.hpp"
#include "host/io/json_fields.hpp"
#include "host/learn/scheme.hpp"

namespace gaeval::learn {

namespace {

int code_bit(const std::vector<uint16_t>& codes, size_t member_base, uint32_t bit) {
    const uint16_t code = codes[member_base + bit / kCodeBits];
    return (code >> (kCodeBits - 1 - bit % kCodeBits)) & 1;
}

void set_code_bit(std::vector<uint16_t>& codes, size_t member_base, uint32_t bit, int value) {
    uint16_t& code = codes[member_base + bit / kCodeBits];
    const uint16_t mask = static_cast<uint16_t>(1u << (kCodeBits - 1 - bit % kCodeBits));
    code = static_cast<uint16_t>(value ? (code | mask) : (code & ~mask));
}

class GeneticGame final : public Scheme {
  public:
    const char* name() const override { return "genetic-game"; }
    const char* description() const override {
        return "fixed-point bitstrings, estimated values, truncation, one-point crossover";
    }

    std::vector<SchemeOption> options() const override {
        return {
            tournament_option(),
            {"value-update", "take:P | winrate:K",
             [](LearnConfig& c, const std::string& t, const games::GameInfo&) {
                 c.update = parse_value_update(t);
             }},
            {"initial-value", "estimated value of the first members",
             [](LearnConfig& c, const std::string& t, const games::GameInfo&) {
                 c.initial_value = parse_real_flag("initial-value", t);
             }},
            {"replace", "share replaced by offspring (0.5)",
             [](LearnConfig& c, const std::string& t, const games::GameInfo&) {
                 c.replace = parse_real_flag("replace", t);
             }},
            {"mutation", "per-bit flip (0.01)",
             [](LearnConfig& c, const std::string& t, const games::GameInfo&) {
                 c.bit_mutation = parse_real_flag("mutation", t);
             }},
        };
    }

    void set_defaults(LearnConfig& c) const override {
        c.population = 24;
        c.tournament = TournamentSpec{};  // round-robin
    }

    void validate(const LearnConfig& c) const override {
        validate_tournament(c);
        if (c.population < 3)
            throw InputError("--population: " + std::to_string(c.population) +
                             " is too small (genetic-game keeps 2 survivors and breeds 1: "
                             "needs 3)");
        if (!(c.replace > 0 && c.replace < 1))
            throw InputError("--replace: the replaced share must be in (0, 1)");
        if (!(c.bit_mutation >= 0 && c.bit_mutation <= 1))
            throw InputError("--mutation: must be in [0, 1]");
        if (!std::isfinite(c.initial_value) || c.initial_value <= 0)
            throw InputError("--initial-value: must be > 0");
    }

    uint64_t games_per_generation(const LearnConfig& c) const override {
        return tournament_games(c);
    }

    bool bit_codes() const override { return true; }

    void initialize(const LearnConfig& c, LearnState& s) const override {
        const uint32_t n = c.population, d = c.dims();
        s.value.assign(n, c.initial_value);
        s.codes.resize(size_t(n) * d);
        for (uint32_t m = 0; m < n; ++m)
            for (uint32_t j = 0; j < d; ++j) {
                const uint32_t r = philox(c.seed, Purpose::SchemeInit, m, j, 0, 0).v[0];
                s.codes[size_t(m) * d + j] = static_cast<uint16_t>(r & 0x1FFu);
                s.weights[size_t(m) * d + j] = decode_weight(s.codes[size_t(m) * d + j]);
            }
    }

    void step(const LearnConfig& c, LearnState& s, Generation& games) const override {
        const uint32_t n = c.population, d = c.dims(), g = s.generation;
        GenerationReport& report = games.report;
        const auto pairs = tournament_schedule(c, g);
        const auto records = games.play(players_of(c, s.weights, n), pairs, 0);
        update_values(c, s, pairs, records);
        const auto order = rank_desc(s.value);
        s.best_weights = member(s, order[0], d);
        s.best_value = s.value[order[0]];
        s.mean_value = mean_of(s.value);

        // Truncation: the bottom `replace` share gives its places to offspring of two distinct
        // survivors picked uniformly; one-point crossover at any bit, bit-flip mutation.
        const uint32_t replaced =
            std::min(n - 2, std::max(1u, uint32_t(std::lround(c.replace * n))));
        const uint32_t survivors = n - replaced;
        const uint32_t bits = d * kCodeBits;
        std::vector<uint16_t> codes = s.codes;
        std::vector<double> value = s.value;
        for (uint32_t k = 0; k < replaced; ++k) {
            const uint32_t slot = order[survivors + k];
            const Random4 r = draw(c, Purpose::SchemeVariation, g, k, 0);
            const uint32_t p1 = order[below(r.v[0], survivors)];
            uint32_t p2 = order[below(r.v[1], survivors - 1)];
            if (p2 == p1) p2 = order[survivors - 1];
            const uint32_t point =
                1 + below(r.v[2], bits - 1);  // child = p1[0, point) p2[point, L)
            for (uint32_t b = 0; b < bits; ++b) {
                int bit = code_bit(s.codes, size_t(b < point ? p1 : p2) * d, b);
                if (unit(draw(c, Purpose::SchemeMutation, g, k, b), 0) < c.bit_mutation) {
                    bit ^= 1;
                    ++report.mutants;  // genetic-game: flipped bits
                }
                set_code_bit(codes, size_t(slot) * d, b, bit);
            }
            value[slot] = 0.5 * (s.value[p1] + s.value[p2]);
            ++report.children;
        }
        s.codes.swap(codes);
        s.value.swap(value);
        for (size_t i = 0; i < s.codes.size(); ++i) s.weights[i] = decode_weight(s.codes[i]);
    }

    void write_settings(const LearnConfig& c, nlohmann::json& j) const override {
        j["tournament"] = tournament_name(c.tournament);
        j["value_update"] = value_update_name(c.update);
        j["initial_value"] = c.initial_value;
        j["replace"] = c.replace;
        j["mutation"] = c.bit_mutation;
        j["crossover"] = "one-point (any bit)";
    }

    void read_settings(LearnConfig& c, const nlohmann::json& j,
                       const std::string& where) const override {
        c.tournament = parse_tournament(json_fields::string(j, "tournament", where));
        c.update = parse_value_update(json_fields::string(j, "value_update", where));
        c.initial_value = json_fields::number(j, "initial_value", where);
        c.replace = json_fields::number(j, "replace", where);
        c.bit_mutation = json_fields::number(j, "mutation", where);
    }

  private:
    // The winner takes P% of the loser's value, or value += K x (win% - 50%) after the
    // generation's games (draws count half).
    static void update_values(const LearnConfig& c, LearnState& s,
                              const std::vector<Pairing>& pairs,
                              const std::vector<GameRecord>& records) {
        if (c.update.kind == ValueUpdate::Take) {
            const double share = c.update.amount / 100.0;
            for (size_t i = 0; i < pairs.size(); ++i) {
                const int r = records[i].a_result;
                if (r == 0) continue;
                const uint32_t winner = r > 0 ? pairs[i].a : pairs[i].b;
                const uint32_t loser = r > 0 ? pairs[i].b : pairs[i].a;
                const double taken = share * s.value[loser];
                s.value[winner] += taken;
                s.value[loser] -= taken;
            }
            return;
        }
        Tally t(c.population);
        t.add(pairs, records);
        for (uint32_t m = 0; m < c.population; ++m)
            if (t.games[m]) s.value[m] += c.update.amount * (100.0 * t.fraction(m) - 50.0);
    }
};

}  // namespace

const Scheme& genetic_game_scheme() {
    static const GeneticGame scheme;
    return scheme;
}

}  // namespace gaeval::learn
