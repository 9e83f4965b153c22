// ten-tournaments (the Risk seed's scheme): 10 round-robin tournaments of 10 random members,
// every pair in both seats; the top 3 of each are 30 parents; 12 averaged children and 3
// one-weight redraws replace the 15 weakest members of the generation.
#include <algorithm>
#include <numeric>

#include "host/core/error.hpp"
#include "host/learn/scheme.hpp"

namespace gaeval::learn {

namespace {

constexpr uint32_t kTournaments = 10, kEntrants = 10, kTopPerTournament = 3, kChildren = 12,
                   kMutants = 3;

class TenTournaments final : public Scheme {
  public:
    const char* name() const override { return "ten-tournaments"; }
    const char* description() const override {
        return "10 tournaments of 10, top 3 of each breed, 15 weakest replaced";
    }

    std::vector<SchemeOption> options() const override {
        return {
            {"init-range", "LOW:HIGH of the first weights (0:10)",
             [](LearnConfig& c, const std::string& t, const games::GameInfo&) {
                 parse_init_range(c, t);
             }},
        };
    }

    void set_defaults(LearnConfig& c) const override {
        c.population = 50;
        c.init_low = 0;
        c.init_high = 10;
    }

    void validate(const LearnConfig& c) const override {
        if (c.population < 10)
            throw InputError("--population: " + std::to_string(c.population) +
                             " is too small (ten-tournaments draws 10 members)");
    }

    uint64_t games_per_generation(const LearnConfig&) const override {
        return kTournaments * kEntrants * (kEntrants - 1);
    }

    void step(const LearnConfig& c, LearnState& s, Generation& games) const override {
        const uint32_t n = c.population, d = c.dims(), g = s.generation;
        GenerationReport& report = games.report;
        // Entrant e of tournament t is player t * 10 + e of the batch; every pair plays twice, A in
        // seat 0 and then in seat 1.
        std::vector<uint32_t> member_of;
        for (uint32_t t = 0; t < kTournaments; ++t) {
            const auto entrants = permutation(c, g, t, n, kEntrants);
            member_of.insert(member_of.end(), entrants.begin(), entrants.end());
        }
        std::vector<Pairing> pairs;
        for (uint32_t t = 0; t < kTournaments; ++t)
            for (uint32_t i = 0; i < kEntrants; ++i)
                for (uint32_t j = i + 1; j < kEntrants; ++j)
                    for (uint8_t seat = 0; seat < 2; ++seat)
                        pairs.push_back({t * kEntrants + i, t * kEntrants + j, seat});
        std::vector<games::PlayerData> players;
        for (uint32_t m : member_of) players.push_back(player_of(c, &s.weights[size_t(m) * d]));
        const auto records = games.play(players, pairs, 0);

        // Fitness within each tournament (wins / games), top 3 of each are parents.
        Tally seat(member_of.size());
        seat.add(pairs, records);
        std::vector<uint32_t> parents;
        for (uint32_t t = 0; t < kTournaments; ++t) {
            std::vector<uint32_t> idx(kEntrants);
            std::iota(idx.begin(), idx.end(), t * kEntrants);
            std::stable_sort(idx.begin(), idx.end(), [&](uint32_t x, uint32_t y) {
                const double fx = double(seat.wins[x]) / seat.games[x];
                const double fy = double(seat.wins[y]) / seat.games[y];
                if (fx != fy) return fx > fy;
                return member_of[x] < member_of[y];
            });
            for (uint32_t k = 0; k < kTopPerTournament; ++k) parents.push_back(member_of[idx[k]]);
        }
        // Generation fitness of a member: wins / games over all its tournaments.
        Tally total(n);
        total.add(pairs, records, &member_of);
        std::vector<double> fitness(n, -1.0);  // -1: played no game
        for (uint32_t m = 0; m < n; ++m)
            if (total.games[m]) fitness[m] = double(total.wins[m]) / total.games[m];
        const auto order = rank_desc(fitness);
        s.best_weights = member(s, order[0], d);
        s.best_value = fitness[order[0]];
        double sum = 0;
        uint32_t played = 0;
        for (double f : fitness)
            if (f >= 0) sum += f, ++played;
        s.mean_value = played ? sum / played : 0;
        for (uint32_t m = 0; m < n; ++m) s.value[m] = fitness[m];

        // 12 children: averages of random pairs of (distinct places among) the 30 parents;
        // 3 mutants: copies of 3 distinct parents with one weight redrawn in the initial range.
        std::vector<float> fresh;
        const uint32_t p = uint32_t(parents.size());
        for (uint32_t k = 0; k < kChildren; ++k) {
            const Random4 r = draw(c, Purpose::SchemeVariation, g, k, 0);
            const uint32_t i = below(r.v[0], p);
            uint32_t j = below(r.v[1], p - 1);
            if (j >= i) ++j;
            for (uint32_t w = 0; w < d; ++w)
                fresh.push_back(0.5f * (s.weights[size_t(parents[i]) * d + w] +
                                        s.weights[size_t(parents[j]) * d + w]));
        }
        const auto chosen = permutation(c, g, kTournaments + 1, p, kMutants);
        for (uint32_t k = 0; k < kMutants; ++k) {
            const Random4 r = draw(c, Purpose::SchemeMutation, g, k, 0);
            const size_t base = size_t(parents[chosen[k]]) * d;
            const size_t at = fresh.size();
            fresh.insert(fresh.end(), s.weights.begin() + base, s.weights.begin() + base + d);
            fresh[at + below(r.v[0], d)] =
                static_cast<float>(c.init_low + (c.init_high - c.init_low) * unit(r, 2));
        }
        // The newcomers take the places of the weakest members of the generation (lowest fitness
        // first, ties by higher index; members that played no game are kept), at most n - 3 so
        // that three members always stay.
        std::vector<uint32_t> weakest;
        for (uint32_t k = n; k-- > 0;)
            if (fitness[order[k]] >= 0) weakest.push_back(order[k]);
        const uint32_t newcomers =
            std::min<uint32_t>({kChildren + kMutants, uint32_t(weakest.size()), n - 3});
        for (uint32_t k = 0; k < newcomers; ++k) {
            std::copy(fresh.begin() + size_t(k) * d, fresh.begin() + size_t(k + 1) * d,
                      s.weights.begin() + size_t(weakest[k]) * d);
            s.value[weakest[k]] = -1.0;
            if (k < kChildren)
                ++report.children;
            else
                ++report.mutants;
        }
    }

    void write_settings(const LearnConfig& c, nlohmann::json& j) const override {
        j["init_range"] = {c.init_low, c.init_high};
    }

    void read_settings(LearnConfig& c, const nlohmann::json& j, const std::string&) const override {
        read_init_range(c, j);
    }
};

}  // namespace

const Scheme& ten_tournaments_scheme() {
    static const TenTournaments scheme;
    return scheme;
}

}  // namespace gaeval::learn
