#include "host/learn/learn.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

#include "games/core/rng.hpp"
#include "host/core/error.hpp"

namespace gaeval::learn {

namespace {

// Uniform in [0, 1) from words k, k+1 of a draw (53 bits).
double unit(const Random4& r, int k) {
    const uint64_t bits = (uint64_t{r.v[k]} << 32) | r.v[k + 1];
    return static_cast<double>(bits >> 11) * 0x1.0p-53;
}

// A standard normal variate from words 0..3 of a draw (Box-Muller, first output).
double normal(const Random4& r) {
    const double u1 = 1.0 - unit(r, 0);  // (0, 1]
    const double u2 = unit(r, 2);
    return std::sqrt(-2.0 * std::log(u1)) * std::cos(6.283185307179586 * u2);
}

// Draws of generation g: key = seed, counter = (generation, a, b, c).
Random4 draw(const LearnConfig& c, Purpose p, uint32_t g, uint32_t a, uint32_t b, uint32_t d = 0) {
    return philox(c.seed, p, g, a, b, d);
}

// Member indexes sorted by key descending, ties by index ascending.
std::vector<uint32_t> rank_desc(const std::vector<double>& key) {
    std::vector<uint32_t> order(key.size());
    std::iota(order.begin(), order.end(), 0u);
    std::stable_sort(order.begin(), order.end(),
                     [&](uint32_t x, uint32_t y) { return key[x] > key[y]; });
    return order;
}

// A uniformly random permutation of 0..n-1 (Fisher-Yates; draw i from counter (g, tag, i)).
std::vector<uint32_t> permutation(const LearnConfig& c, uint32_t g, uint32_t tag, uint32_t n,
                                  uint32_t take) {
    std::vector<uint32_t> p(n);
    std::iota(p.begin(), p.end(), 0u);
    for (uint32_t i = 0; i < take && i + 1 < n; ++i) {
        const uint32_t r = draw(c, Purpose::Schedule, g, tag, i, 1).v[0];
        std::swap(p[i], p[i + below(r, n - i)]);
    }
    p.resize(take);
    return p;
}

// Per-member score (wins + draws / 2) and games of a batch.
struct Tally {
    std::vector<double> score;
    std::vector<uint32_t> games, wins;
    explicit Tally(size_t n) : score(n, 0), games(n, 0), wins(n, 0) {}
    void add(const std::vector<Pairing>& pairs, const std::vector<GameRecord>& rec,
             const std::vector<uint32_t>* member_of = nullptr) {
        for (size_t i = 0; i < pairs.size(); ++i) {
            uint32_t a = pairs[i].a, b = pairs[i].b;
            if (member_of) {
                a = (*member_of)[a];
                b = (*member_of)[b];
            }
            const int r = rec[i].a_result;
            ++games[a];
            ++games[b];
            score[a] += r > 0 ? 1.0 : r == 0 ? 0.5 : 0.0;
            score[b] += r < 0 ? 1.0 : r == 0 ? 0.5 : 0.0;
            wins[a] += r > 0;
            wins[b] += r < 0;
        }
    }
    double fraction(uint32_t m) const { return games[m] ? score[m] / games[m] : 0.0; }
};

void count_games(GenerationReport& report, LearnState& s,
                 const std::vector<GameRecord>& records) {
    for (const GameRecord& r : records) {
        ++report.games;
        report.plies += r.plies;
        report.stopped += r.stopped;
    }
    s.games += records.size();
    for (const GameRecord& r : records) s.plies += r.plies;
}

std::vector<games::PlayerData> players_of(const LearnConfig& c, const std::vector<float>& weights,
                                     uint32_t count) {
    std::vector<games::PlayerData> players(count);
    for (uint32_t i = 0; i < count; ++i) players[i] = player_of(c, &weights[size_t(i) * c.dims()]);
    return players;
}

double mean_of(const std::vector<double>& v) {
    double total = 0;
    for (double x : v) total += x;
    return v.empty() ? 0.0 : total / v.size();
}

// The weights of member m.
std::vector<float> member(const LearnState& s, uint32_t m, uint32_t d) {
    return std::vector<float>(s.weights.begin() + size_t(m) * d,
                              s.weights.begin() + size_t(m + 1) * d);
}

// Plays `pairs` among the population, sets every member's value to its score fraction and the
// mean value; returns the members ranked by value.
std::vector<uint32_t> play_and_score(const LearnConfig& c, LearnState& s, GenerationReport& report,
                                     const std::vector<Pairing>& pairs, const PlayFn& play) {
    const uint32_t n = c.population;
    const auto records =
        play(players_of(c, s.weights, n), pairs, batch_seed(c.seed, s.generation, 0));
    count_games(report, s, records);
    Tally t(n);
    t.add(pairs, records);
    for (uint32_t m = 0; m < n; ++m) s.value[m] = t.fraction(m);
    s.mean_value = mean_of(s.value);
    return rank_desc(s.value);
}

// ---- genetic-game --------------------------------------------------------------------------

int code_bit(const std::vector<uint16_t>& codes, size_t member_base, uint32_t bit) {
    const uint16_t code = codes[member_base + bit / kCodeBits];
    return (code >> (kCodeBits - 1 - bit % kCodeBits)) & 1;
}

void set_code_bit(std::vector<uint16_t>& codes, size_t member_base, uint32_t bit, int value) {
    uint16_t& code = codes[member_base + bit / kCodeBits];
    const uint16_t mask = static_cast<uint16_t>(1u << (kCodeBits - 1 - bit % kCodeBits));
    code = static_cast<uint16_t>(value ? (code | mask) : (code & ~mask));
}

GenerationReport step_genetic_game(const LearnConfig& c, LearnState& s, const PlayFn& play) {
    const uint32_t n = c.population, d = c.dims(), g = s.generation;
    GenerationReport report;
    const auto pairs = tournament_schedule(c, g);
    const auto records = play(players_of(c, s.weights, n), pairs, batch_seed(c.seed, g, 0));
    count_games(report, s, records);
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
    } else {
        Tally t(n);
        t.add(pairs, records);
        for (uint32_t m = 0; m < n; ++m)
            if (t.games[m]) s.value[m] += c.update.amount * (100.0 * t.fraction(m) - 50.0);
    }
    const auto order = rank_desc(s.value);
    s.best_weights = member(s, order[0], d);
    s.best_value = s.value[order[0]];
    s.mean_value = mean_of(s.value);

    // Truncation: the bottom `replace` share gives its places to offspring of two distinct
    // survivors picked uniformly; one-point crossover at any bit, bit-flip mutation.
    const uint32_t replaced = std::min(n - 2, std::max(1u, uint32_t(std::lround(c.replace * n))));
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
        const uint32_t point = 1 + below(r.v[2], bits - 1);  // child = p1[0, point) p2[point, L)
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
    return report;
}

// ---- paired-blend -------------------------------------------------------------------------

GenerationReport step_paired_blend(const LearnConfig& c, LearnState& s, const PlayFn& play) {
    const uint32_t n = c.population, d = c.dims(), g = s.generation;
    GenerationReport report;
    const auto order = play_and_score(c, s, report, paired_rounds_schedule(c, g), play);
    const std::vector<float> local = member(s, order[0], d);
    if (s.global_best.empty()) {
        s.global_best = local;
    } else {
        // Local vs global: N_R games, colours alternating; the local best replaces the global
        // best only with more than half the points.
        std::vector<games::PlayerData> duel{player_of(c, local.data()),
                                       player_of(c, s.global_best.data())};
        std::vector<Pairing> match(c.rounds);
        for (uint32_t i = 0; i < c.rounds; ++i) match[i] = Pairing{0, 1, uint8_t(i % 2)};
        const auto duel_records = play(duel, match, batch_seed(c.seed, g, 1));
        count_games(report, s, duel_records);
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

    // Bottom half blended toward a random top-half member (from the weights before blending).
    const std::vector<float> before = s.weights;
    const uint32_t half = n / 2;
    for (uint32_t k = half; k < n; ++k) {
        const uint32_t m = order[k];
        const uint32_t top = order[below(draw(c, Purpose::SchemeVariation, g, k, 0).v[0], half)];
        for (uint32_t j = 0; j < d; ++j) {
            const float w = before[size_t(m) * d + j];
            s.weights[size_t(m) * d + j] =
                static_cast<float>(w + c.blend * (before[size_t(top) * d + j] - w));
        }
        ++report.children;
    }
    // The bottom s share (at least two members) is replaced by the two bests: its worse half
    // (rounded up) by copies of the global best, the rest by copies of the local best.
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
    return report;
}

// ---- ten-tournaments ----------------------------------------------------------------------

constexpr uint32_t kTournaments = 10, kEntrants = 10, kTopPerTournament = 3, kChildren = 12,
                   kMutants = 3;

GenerationReport step_ten_tournaments(const LearnConfig& c, LearnState& s, const PlayFn& play) {
    const uint32_t n = c.population, d = c.dims(), g = s.generation;
    GenerationReport report;
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
    const auto records = play(players, pairs, batch_seed(c.seed, g, 0));
    count_games(report, s, records);

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
    return report;
}

// ---- modern -------------------------------------------------------------------------------

GenerationReport step_modern(const LearnConfig& c, LearnState& s, const PlayFn& play) {
    const uint32_t n = c.population, d = c.dims(), g = s.generation;
    GenerationReport report;
    auto order = play_and_score(c, s, report, tournament_schedule(c, g), play);
    s.best_weights = member(s, order[0], d);
    s.best_value = s.value[order[0]];
    if (c.blind_selection)
        for (uint32_t r = 0; r < n; ++r) order[r] = r;
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
    return report;
}

}  // namespace

float decode_weight(uint16_t code) {
    const float magnitude = static_cast<float>(code & 0xFFu) / 16.0f;
    return (code & 0x100u) ? -magnitude : magnitude;
}

uint16_t encode_weight(float w) {
    const bool negative = std::signbit(w);
    float a = std::fabs(w);
    if (!(a <= kCodeMax)) a = std::isnan(w) ? 0.0f : kCodeMax;
    const uint16_t magnitude = static_cast<uint16_t>(std::lround(a * 16.0f));
    return static_cast<uint16_t>((negative ? 0x100u : 0u) | std::min<uint16_t>(magnitude, 255));
}

const char* scheme_name(SchemeKind s) {
    switch (s) {
        case SchemeKind::GeneticGame:
            return "genetic-game";
        case SchemeKind::PairedBlend:
            return "paired-blend";
        case SchemeKind::TenTournaments:
            return "ten-tournaments";
        case SchemeKind::Modern:
        default:
            return "modern";
    }
}

SchemeKind parse_scheme(const std::string& text) {
    for (SchemeKind s : {SchemeKind::GeneticGame, SchemeKind::PairedBlend,
                         SchemeKind::TenTournaments, SchemeKind::Modern})
        if (text == scheme_name(s)) return s;
    throw InputError("--scheme: unknown scheme '" + text +
                     "' (genetic-game, paired-blend, ten-tournaments, modern)");
}

namespace {
uint64_t parse_count(const std::string& text, const std::string& what) {
    if (text.empty() || text.size() > 9 ||
        text.find_first_not_of("0123456789") != std::string::npos)
        throw InputError(what);
    return std::stoull(text);
}
double parse_number(const std::string& text, const std::string& what) {
    try {
        size_t used = 0;
        const double v = std::stod(text, &used);
        if (used != text.size() || !std::isfinite(v)) throw InputError(what);
        return v;
    } catch (const std::logic_error&) {
        throw InputError(what);
    }
}
}  // namespace

TournamentSpec parse_tournament(const std::string& text) {
    const std::string what =
        "--tournament: '" + text + "' is not round-robin, round-robin:2 or random:M (M >= 1)";
    TournamentSpec t;
    if (text == "round-robin") return t;
    if (text == "round-robin:2") {
        t.both_colours = true;
        return t;
    }
    if (text.rfind("random:", 0) == 0) {
        t.kind = TournamentSpec::RandomOpponents;
        t.m = static_cast<uint32_t>(parse_count(text.substr(7), what));
        if (t.m == 0) throw InputError(what);
        return t;
    }
    throw InputError(what);
}

std::string tournament_name(const TournamentSpec& t) {
    if (t.kind == TournamentSpec::RandomOpponents) return "random:" + std::to_string(t.m);
    return t.both_colours ? "round-robin:2" : "round-robin";
}

ValueUpdate parse_value_update(const std::string& text) {
    const std::string what =
        "--value-update: '" + text + "' is not take:P (0 < P <= 100) or winrate:K (K > 0)";
    ValueUpdate v;
    const auto colon = text.find(':');
    if (colon == std::string::npos) throw InputError(what);
    const std::string kind = text.substr(0, colon);
    v.amount = parse_number(text.substr(colon + 1), what);
    if (kind == "take") {
        v.kind = ValueUpdate::Take;
        if (!(v.amount > 0 && v.amount <= 100)) throw InputError(what);
    } else if (kind == "winrate") {
        v.kind = ValueUpdate::Winrate;
        if (!(v.amount > 0)) throw InputError(what);
    } else {
        throw InputError(what);
    }
    return v;
}

std::string value_update_name(const ValueUpdate& v) {
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%s:%g", v.kind == ValueUpdate::Take ? "take" : "winrate",
                  v.amount);
    return buffer;
}

LearnConfig default_config(SchemeKind scheme, uint32_t weight_count) {
    LearnConfig c;
    c.scheme = scheme;
    c.weight_count = weight_count;
    for (uint32_t i = 0; i < weight_count; ++i) c.features.push_back(static_cast<int>(i));
    switch (scheme) {
        case SchemeKind::GeneticGame:
            c.population = 24;
            c.tournament = TournamentSpec{};  // round-robin
            break;
        case SchemeKind::PairedBlend:
            c.population = 24;
            c.rounds = 10;
            break;
        case SchemeKind::TenTournaments:
            c.population = 50;
            c.init_low = 0;
            c.init_high = 10;
            break;
        case SchemeKind::Modern:
        default:
            c.population = 32;
            c.tournament = TournamentSpec{};
            break;
    }
    return c;
}

void validate(const LearnConfig& c) {
    auto in = [](double v, double lo, double hi) { return v >= lo && v <= hi; };
    if (c.weight_count == 0) throw InputError("this game has no weighted player to learn");
    if (c.features.empty()) throw InputError("--features: at least one feature is needed");
    for (int f : c.features)
        if (f < 0 || uint32_t(f) >= c.weight_count)
            throw InputError("--features: index " + std::to_string(f) + " is not a feature");
    if (c.generations < 1) throw InputError("--generations: at least 1");
    if (c.max_plies < 1) throw InputError("--max-plies: at least 1");
    if (c.depth < 1 || c.depth > 8) throw InputError("--depth: must be in [1, 8]");
    if (c.population > 100000) throw InputError("--population: at most 100000");
    const std::string pop = "--population: " + std::to_string(c.population) + " is too small ";
    switch (c.scheme) {
        case SchemeKind::GeneticGame:
        case SchemeKind::Modern:
            if (c.population < 2) throw InputError(pop + "(a tournament needs 2 members)");
            if (c.scheme == SchemeKind::GeneticGame && c.population < 3)
                throw InputError(pop + "(genetic-game keeps 2 survivors and breeds 1: needs 3)");
            if (c.tournament.kind == TournamentSpec::RandomOpponents &&
                c.tournament.m >= c.population)
                throw InputError("--tournament: random:" + std::to_string(c.tournament.m) +
                                 " needs a population above " + std::to_string(c.tournament.m));
            break;
        case SchemeKind::PairedBlend:
            if (c.population < 4 || c.population % 2)
                throw InputError(
                    "--population: paired-blend pairs members 1-2, 3-4, ...: needs "
                    "an even number >= 4, got " +
                    std::to_string(c.population));
            break;
        case SchemeKind::TenTournaments:
            if (c.population < 10) throw InputError(pop + "(ten-tournaments draws 10 members)");
            break;
    }
    if (c.scheme == SchemeKind::GeneticGame) {
        if (!in(c.replace, 0.0, 1.0) || c.replace <= 0 || c.replace >= 1)
            throw InputError("--replace: the replaced share must be in (0, 1)");
        if (!in(c.bit_mutation, 0.0, 1.0)) throw InputError("--mutation: must be in [0, 1]");
        if (!std::isfinite(c.initial_value) || c.initial_value <= 0)
            throw InputError("--initial-value: must be > 0");
    }
    if (!c.start_weights.empty()) {
        if (c.scheme != SchemeKind::PairedBlend)
            throw InputError("--init game: only paired-blend starts from the game's weights");
        if (c.start_weights.size() != c.dims())
            throw InputError("--init game: one start weight per learned weight is needed");
        for (float w : c.start_weights)
            if (!std::isfinite(w)) throw InputError("--init game: start weights must be finite");
    }
    if (c.scheme == SchemeKind::PairedBlend) {
        if (c.rounds < 1 || c.rounds > 100000) throw InputError("--rounds: must be in [1, 100000]");
        if (!in(c.blend, 0.0, 1.0) || c.blend <= 0) throw InputError("--blend: must be in (0, 1]");
        if (!in(c.replace_best, 0.0, 0.5) || c.replace_best <= 0)
            throw InputError("--replace: paired-blend's share must be in (0, 0.5]");
        if (!in(c.scale_mutation, 0.0, 1.0)) throw InputError("--mutation: must be in [0, 1]");
    }
    if (c.scheme == SchemeKind::Modern) {
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
    if (!std::isfinite(c.init_low) || !std::isfinite(c.init_high) || c.init_low > c.init_high ||
        c.init_low < -kCodeMax || c.init_high > kCodeMax)
        throw InputError("--init-range: LOW:HIGH with -15.9375 <= LOW <= HIGH <= 15.9375");
    if (games_per_generation(c) > (uint64_t{1} << 31))
        throw InputError("--population: a generation would play more than 2^31 games");
}

uint64_t games_per_generation(const LearnConfig& c) {
    const uint64_t n = c.population;
    switch (c.scheme) {
        case SchemeKind::PairedBlend:
            return uint64_t(c.rounds) * (n / 2) + c.rounds;  // the duel is skipped in gen 0
        case SchemeKind::TenTournaments:
            return kTournaments * kEntrants * (kEntrants - 1);
        default:
            if (c.tournament.kind == TournamentSpec::RandomOpponents) return n * c.tournament.m;
            return n * (n - 1) / 2 * (c.tournament.both_colours ? 2 : 1);
    }
}

LearnState initial_state(const LearnConfig& c) {
    LearnState s;
    const uint32_t n = c.population, d = c.dims();
    s.weights.resize(size_t(n) * d);
    s.value.assign(n, c.scheme == SchemeKind::GeneticGame ? c.initial_value : 0.0);
    if (c.scheme == SchemeKind::GeneticGame) {
        s.codes.resize(size_t(n) * d);
        for (uint32_t m = 0; m < n; ++m)
            for (uint32_t j = 0; j < d; ++j) {
                const uint32_t r = philox(c.seed, Purpose::SchemeInit, m, j, 0, 0).v[0];
                s.codes[size_t(m) * d + j] = static_cast<uint16_t>(r & 0x1FFu);
                s.weights[size_t(m) * d + j] = decode_weight(s.codes[size_t(m) * d + j]);
            }
    } else {
        for (uint32_t m = 0; m < n; ++m)
            for (uint32_t j = 0; j < d; ++j) {
                const double u = unit(philox(c.seed, Purpose::SchemeInit, m, j, 0, 0), 0);
                float& w = s.weights[size_t(m) * d + j];
                if (c.start_weights.empty()) {
                    w = static_cast<float>(c.init_low + (c.init_high - c.init_low) * u);
                } else {  // paired-blend from the game's weights: its mutation rule
                    w = static_cast<float>(c.start_weights[j] *
                                           (1.0 + c.scale_mutation * (2.0 * u - 1.0)));
                }
            }
    }
    s.best_weights.assign(s.weights.begin(), s.weights.begin() + d);
    return s;
}

GenerationReport step(const LearnConfig& c, LearnState& state, const PlayFn& play) {
    GenerationReport report;
    switch (c.scheme) {
        case SchemeKind::GeneticGame:
            report = step_genetic_game(c, state, play);
            break;
        case SchemeKind::PairedBlend:
            report = step_paired_blend(c, state, play);
            break;
        case SchemeKind::TenTournaments:
            report = step_ten_tournaments(c, state, play);
            break;
        case SchemeKind::Modern:
            report = step_modern(c, state, play);
            break;
    }
    ++state.generation;
    return report;
}

games::PlayerData player_of(const LearnConfig& c, const float* weights) {
    games::PlayerData p;
    p.kind = PlayerKind::Weighted;
    p.depth = static_cast<int>(c.depth);
    p.label = "member";
    p.weights.assign(c.weight_count, 0.0f);
    for (uint32_t j = 0; j < c.dims(); ++j) p.weights[c.features[j]] = weights[j];
    return p;
}

uint64_t batch_seed(uint64_t seed, uint32_t generation, uint32_t phase) {
    const Random4 r = philox(seed, Purpose::Tournament, generation, phase, 0, 0);
    return (uint64_t{r.v[1]} << 32) | r.v[0];
}

std::vector<Pairing> tournament_schedule(const LearnConfig& c, uint32_t generation) {
    const uint32_t n = c.population;
    std::vector<Pairing> pairs;
    if (c.tournament.kind == TournamentSpec::RandomOpponents) {
        pairs.reserve(size_t(n) * c.tournament.m);
        for (uint32_t i = 0; i < n; ++i)
            for (uint32_t k = 0; k < c.tournament.m; ++k) {
                const uint32_t r = philox(c.seed, Purpose::Schedule, generation, i, k, 0).v[0];
                const uint32_t j = (i + 1 + below(r, n - 1)) % n;
                pairs.push_back({i, j, uint8_t(k % 2)});
            }
        return pairs;
    }
    for (uint32_t i = 0; i < n; ++i)
        for (uint32_t j = i + 1; j < n; ++j) {
            if (c.tournament.both_colours) {
                pairs.push_back({i, j, 0});
                pairs.push_back({i, j, 1});
            } else {
                pairs.push_back({i, j, uint8_t((i + j) % 2)});
            }
        }
    return pairs;
}

std::vector<Pairing> paired_rounds_schedule(const LearnConfig& c, uint32_t generation) {
    std::vector<Pairing> pairs;
    for (uint32_t r = 0; r < c.rounds; ++r) {
        const auto p = permutation(c, generation, 1000 + r, c.population, c.population);
        for (uint32_t k = 0; k + 1 < c.population; k += 2)
            pairs.push_back({p[k], p[k + 1], uint8_t((r + k / 2) % 2)});
    }
    return pairs;
}

}  // namespace gaeval::learn
