#include "host/learn/learn.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <numeric>
#include <stdexcept>

#include "games/core/rng.hpp"
#include "host/core/error.hpp"
#include "host/learn/learn_problems.hpp"
#include "host/learn/scheme.hpp"
#include "host/learn/word_population.hpp"

namespace gaeval::learn {

// ---- toolkit for scheme files (host/learn/scheme.hpp) --------------------------------------

double unit(const Random4& r, int k) {
    const uint64_t bits = (uint64_t{r.v[k]} << 32) | r.v[k + 1];
    return static_cast<double>(bits >> 11) * 0x1.0p-53;
}

double normal(const Random4& r) {
    const double u1 = 1.0 - unit(r, 0);  // (0, 1]
    const double u2 = unit(r, 2);
    return std::sqrt(-2.0 * std::log(u1)) * std::cos(6.283185307179586 * u2);
}

std::vector<uint32_t> rank_desc(const std::vector<double>& key) {
    std::vector<uint32_t> order(key.size());
    std::iota(order.begin(), order.end(), 0u);
    std::stable_sort(order.begin(), order.end(),
                     [&](uint32_t x, uint32_t y) { return key[x] > key[y]; });
    return order;
}

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

void Tally::add(const std::vector<Pairing>& pairs, const std::vector<GameRecord>& rec,
                const std::vector<uint32_t>* member_of) {
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

namespace {

// The blind control (LearnConfig::blind_selection): every game's result is replaced by a fair
// coin, drawn from the run's seed (purpose SchemeVariation, counter (g, phase | 2^31, game, 7),
// a tag no scheme draws with), so that every scheme's selection, elitism and replacement see
// fitness that carries no information about the players, whatever the scheme does with it.
void blind_outcomes(const LearnConfig& c, uint32_t g, uint32_t phase,
                    std::vector<GameRecord>& records) {
    for (size_t i = 0; i < records.size(); ++i) {
        const Random4 coin =
            draw(c, Purpose::SchemeVariation, g, phase | 0x80000000u, uint32_t(i), 7);
        GameRecord& r = records[i];
        r.a_result = (coin.v[0] & 1) ? 1 : -1;
        r.winner = static_cast<int8_t>(r.a_result > 0 ? r.a_seat : 1 - r.a_seat);
    }
}

}  // namespace

std::vector<GameRecord> Generation::play(const std::vector<games::PlayerData>& players,
                                         const std::vector<Pairing>& pairings, uint32_t phase) {
    auto records = play_(players, pairings, batch_seed(config_.seed, state_.generation, phase));
    if (config_.blind_selection) blind_outcomes(config_, state_.generation, phase, records);
    for (const GameRecord& r : records) {
        ++report.games;
        report.plies += r.plies;
        report.stopped += r.stopped;
    }
    state_.games += records.size();
    for (const GameRecord& r : records) state_.plies += r.plies;
    return records;
}

std::vector<double> Generation::blind_fitness(uint32_t count) const {
    // The blind control on a problem: fitness that says nothing about the genome (purpose
    // SchemeVariation, counter (g, 2^31 + 1, genome, 7), a tag no scheme draws with).
    std::vector<double> fitness(count);
    for (uint32_t i = 0; i < count; ++i)
        fitness[i] =
            unit(draw(config_, Purpose::SchemeVariation, state_.generation, 0x80000001u, i, 7), 0);
    return fitness;
}

std::vector<double> Generation::evaluate(const std::vector<float>& genomes, uint32_t count) {
    if (!evaluate_) throw std::logic_error("Generation::evaluate: this run has no real genomes");
    std::vector<double> fitness =
        config_.blind_selection ? blind_fitness(count) : (*evaluate_)(genomes, count);
    report.games += count;
    state_.games += count;
    return fitness;
}

std::vector<double> Generation::evaluate_words(std::vector<uint32_t>& genomes, uint32_t count) {
    if (!evaluate_words_)
        throw std::logic_error("Generation::evaluate_words: this run has no word genomes");
    std::vector<double> fitness =
        config_.blind_selection ? blind_fitness(count) : (*evaluate_words_)(genomes, count);
    report.games += count;
    state_.games += count;
    return fitness;
}

std::vector<double> Generation::evaluate_resident() {
    if (!resident_) throw std::logic_error("Generation::evaluate_resident: no resident population");
    std::vector<double> fitness =
        config_.blind_selection ? blind_fitness(config_.population) : resident_->evaluate();
    report.games += config_.population;
    state_.games += config_.population;
    return fitness;
}

std::vector<uint32_t> score_population(const LearnConfig& c, LearnState& s, Generation& games) {
    if (!games.on_problem())
        return play_and_score(c, s, games, tournament_schedule(c, s.generation));
    const uint32_t n = c.population;
    const std::vector<double> fitness = games.resident() ? games.evaluate_resident()
                                        : c.instance     ? games.evaluate_words(s.words, n)
                                                         : games.evaluate(s.weights, n);
    const ProblemInfo& info = find_problem(c.problem).info;
    for (uint32_t m = 0; m < n; ++m) s.value[m] = info.value_of(fitness[m]);
    s.mean_value = mean_of(s.value);
    return rank_desc(s.value);
}

std::string problem_scheme_names() {
    std::string names;
    for (const Scheme* s : registered_schemes())
        if (s->runs_on_problems()) names += (names.empty() ? "" : ", ") + std::string(s->name());
    return names;
}

std::string word_scheme_names() {
    std::string names;
    for (const Scheme* s : registered_schemes())
        if (s->runs_on_words()) names += (names.empty() ? "" : ", ") + std::string(s->name());
    return names;
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

std::vector<float> member(const LearnState& s, uint32_t m, uint32_t d) {
    return std::vector<float>(s.weights.begin() + size_t(m) * d,
                              s.weights.begin() + size_t(m + 1) * d);
}

std::vector<uint32_t> play_and_score(const LearnConfig& c, LearnState& s, Generation& games,
                                     const std::vector<Pairing>& pairs) {
    const uint32_t n = c.population;
    const auto records = games.play(players_of(c, s.weights, n), pairs, 0);
    Tally t(n);
    t.add(pairs, records);
    for (uint32_t m = 0; m < n; ++m) s.value[m] = t.fraction(m);
    s.mean_value = mean_of(s.value);
    return rank_desc(s.value);
}

void validate_tournament(const LearnConfig& c) {
    if (c.population < 2)
        throw InputError("--population: " + std::to_string(c.population) +
                         " is too small (a tournament needs 2 members)");
    if (c.tournament.kind == TournamentSpec::RandomOpponents && c.tournament.m >= c.population)
        throw InputError("--tournament: random:" + std::to_string(c.tournament.m) +
                         " needs a population above " + std::to_string(c.tournament.m));
}

uint64_t tournament_games(const LearnConfig& c) {
    const uint64_t n = c.population;
    if (c.tournament.kind == TournamentSpec::RandomOpponents) return n * c.tournament.m;
    return n * (n - 1) / 2 * (c.tournament.both_colours ? 2 : 1);
}

double parse_real_flag(const std::string& flag, const std::string& text) {
    try {
        std::size_t used = 0;
        const double v = std::stod(text, &used);
        if (used == text.size()) return v;
    } catch (const std::exception&) {
    }
    throw InputError("--" + flag + " '" + text + "': expected a number");
}

int64_t parse_integer_flag(const std::string& flag, const std::string& text, int64_t min,
                           int64_t max) {
    const std::string range = "[" + std::to_string(min) + ", " + std::to_string(max) + "]";
    char* end = nullptr;
    errno = 0;
    const long long value = std::strtoll(text.c_str(), &end, 10);
    if (text.empty() || *end != '\0' || std::isspace(static_cast<unsigned char>(text[0])))
        throw InputError("--" + flag + " '" + text + "': expected an integer in " + range);
    if (errno == ERANGE || value < min || value > max)
        throw InputError("--" + flag + " " + text + ": must be in " + range);
    return value;
}

void parse_init_range(LearnConfig& c, const std::string& text) {
    const auto colon = text.find(':');
    const std::string what = "--init-range '" + text + "': expected LOW:HIGH";
    if (colon == std::string::npos) throw InputError(what);
    try {
        std::size_t a = 0, b = 0;
        c.init_low = std::stod(text.substr(0, colon), &a);
        c.init_high = std::stod(text.substr(colon + 1), &b);
        if (a != colon || b != text.size() - colon - 1) throw InputError(what);
    } catch (const std::logic_error&) {
        throw InputError(what);
    }
}

void read_init_range(LearnConfig& c, const nlohmann::json& j) {
    if (j.contains("init_range")) {
        c.init_low = j.at("init_range").at(0).get<double>();
        c.init_high = j.at("init_range").at(1).get<double>();
    }
}

bool Scheme::has_option(const std::string& flag) const {
    for (const SchemeOption& o : options())
        if (flag == o.flag) return true;
    return false;
}

uint32_t Scheme::breed_ranked(const LearnConfig&, uint32_t, const std::vector<uint32_t>&,
                              LearnState&) const {
    throw std::logic_error(std::string("scheme ") + name() + " does not breed from a ranking");
}

void Scheme::breed_words_on(const BackendChoice&, const LearnConfig&, uint32_t, const uint32_t*,
                            const uint32_t*, ChildSpan, uint32_t*, uint8_t*) const {
    throw std::logic_error(std::string("scheme ") + name() +
                           " does not breed word genomes on a backend");
}

void Scheme::initialize_words_on(const BackendChoice&, const LearnConfig&, ChildSpan,
                                 uint32_t*) const {
    throw std::logic_error(std::string("scheme ") + name() +
                           " does not make single members of generation 0 on a backend");
}

void Scheme::initialize(const LearnConfig& c, LearnState& s) const {
    const uint32_t n = c.population, d = c.dims();
    for (uint32_t m = 0; m < n; ++m)
        for (uint32_t j = 0; j < d; ++j) {
            const double u = unit(philox(c.seed, Purpose::SchemeInit, m, j, 0, 0), 0);
            s.weights[size_t(m) * d + j] =
                static_cast<float>(c.init_low + (c.init_high - c.init_low) * u);
        }
}

// ---- configuration ---------------------------------------------------------------------------

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

LearnConfig default_config(const std::string& scheme, uint32_t weight_count) {
    const Scheme& s = find_scheme(scheme);
    LearnConfig c;
    c.scheme = s.name();
    c.weight_count = weight_count;
    for (uint32_t i = 0; i < weight_count; ++i) c.features.push_back(static_cast<int>(i));
    s.set_defaults(c);
    return c;
}

LearnConfig problem_config(const std::string& scheme, const std::string& problem,
                           uint32_t dimension) {
    const ProblemInfo& info = find_problem(problem).info;
    LearnConfig c = default_config(scheme, dimension);
    c.problem = info.name;
    c.init_low = info.low;
    c.init_high = info.high;
    if (info.default_population) c.population = info.default_population;
    return c;
}

LearnConfig problem_config(const std::string& scheme,
                           std::shared_ptr<const ProblemInstance> instance) {
    LearnConfig c = default_config(scheme, instance->dimension());
    c.problem = instance->problem();
    const uint32_t population = find_problem(c.problem).info.default_population;
    if (population) c.population = population;
    c.instance = std::move(instance);
    return c;
}

namespace {

// The checks of a problem run: a scheme that runs on problems, a dimension in range, an initial
// range inside the problem's bounds.
void validate_problem(const LearnConfig& c, const Scheme& scheme) {
    const ProblemInfo& info = find_problem(c.problem).info;
    if (info.words()) {
        if (!scheme.runs_on_words())
            throw InputError("--scheme " + std::string(scheme.name()) +
                             ": its genomes are real numbers, it cannot run on problem " +
                             info.name +
                             " (integer genomes; schemes for it: " + word_scheme_names() + ")");
        if (!info.only_scheme.empty() && info.only_scheme != scheme.name())
            throw InputError("--scheme " + std::string(scheme.name()) +
                             ": the genomes of problem " + info.name + " are bred by scheme " +
                             info.only_scheme + " only");
        if (!c.instance || c.instance->problem() != info.name)
            throw InputError("--" + info.setup_flag + ": problem " + info.name +
                             " is built from a " + info.setup_flag + " (--" + info.setup_flag +
                             " " + info.setup_form + ")");
        if (c.weight_count != c.instance->dimension() || c.features.size() != c.weight_count)
            throw InputError("--problem " + info.name + ": its dimension comes from the " +
                             info.setup_flag + " (" + std::to_string(c.instance->dimension()) +
                             " genes)");
        return;
    }
    if (c.instance) throw InputError("--problem " + info.name + ": is not built from a setup");
    if (!scheme.runs_on_problems())
        throw InputError("--scheme " + std::string(scheme.name()) +
                         ": its selection is games between members, it cannot run on a problem "
                         "(schemes for --problem: " +
                         problem_scheme_names() + ")");
    if (c.weight_count < 1 || c.weight_count > info.max_dimension)
        throw InputError("--dimension: must be in [1, " + std::to_string(info.max_dimension) +
                         "] for problem " + info.name);
    if (c.features.size() != c.weight_count)
        throw InputError("--problem: every gene is learned (no --features)");
    if (static_cast<float>(c.init_low) < info.low || static_cast<float>(c.init_high) > info.high)
        throw InputError("--init-range: must lie within the problem's bounds [" +
                         std::to_string(info.low) + ", " + std::to_string(info.high) + "]");
}

}  // namespace

void validate(const LearnConfig& c) {
    const Scheme& scheme = scheme_of(c);
    if (!c.problem.empty()) validate_problem(c, scheme);
    if (c.weight_count == 0) throw InputError("this game has no weighted player to learn");
    if (c.features.empty()) throw InputError("--features: at least one feature is needed");
    for (int f : c.features)
        if (f < 0 || uint32_t(f) >= c.weight_count)
            throw InputError("--features: index " + std::to_string(f) + " is not a feature");
    if (c.generations < 1) throw InputError("--generations: at least 1");
    if (c.max_plies < 1) throw InputError("--max-plies: at least 1");
    if (c.depth < 1 || c.depth > 8) throw InputError("--depth: must be in [1, 8]");
    if (c.population > 100000) throw InputError("--population: at most 100000");
    scheme.validate(c);
    if (!c.start_weights.empty()) {
        if (!scheme.has_option("init")) {
            std::string readers;
            for (const Scheme* s : registered_schemes())
                if (s->has_option("init"))
                    readers += (readers.empty() ? "" : ", ") + std::string(s->name());
            throw InputError("--init game: only " + readers + " starts from the game's weights");
        }
        if (c.start_weights.size() != c.dims())
            throw InputError("--init game: one start weight per learned weight is needed");
        for (float w : c.start_weights)
            if (!std::isfinite(w)) throw InputError("--init game: start weights must be finite");
    }
    if (!std::isfinite(c.init_low) || !std::isfinite(c.init_high) || c.init_low > c.init_high ||
        c.init_low < -kCodeMax || c.init_high > kCodeMax)
        throw InputError("--init-range: LOW:HIGH with -15.9375 <= LOW <= HIGH <= 15.9375");
    if (games_per_generation(c) > (uint64_t{1} << 31))
        throw InputError("--population: a generation would play more than 2^31 games");
}

uint64_t games_per_generation(const LearnConfig& c) {
    return c.problem.empty() ? scheme_of(c).games_per_generation(c) : c.population;
}

// ---- the driver ------------------------------------------------------------------------------

LearnState initial_state(const LearnConfig& c) {
    LearnState s;
    const uint32_t n = c.population, d = c.dims();
    s.value.assign(n, 0.0);
    if (c.instance) {  // word genomes
        s.words.resize(size_t(n) * d);
        scheme_of(c).initialize(c, s);
        s.best_words.assign(s.words.begin(), s.words.begin() + d);
        return s;
    }
    s.weights.resize(size_t(n) * d);
    scheme_of(c).initialize(c, s);
    s.best_weights.assign(s.weights.begin(), s.weights.begin() + d);
    return s;
}

GenerationReport step(const LearnConfig& c, LearnState& state, const PlayFn& play) {
    if (!c.problem.empty())
        throw std::logic_error("learn::step: a problem run needs its EvaluateFn");
    Generation games(c, state, play);
    scheme_of(c).step(c, state, games);
    ++state.generation;
    return games.report;
}

GenerationReport step(const LearnConfig& c, LearnState& state, const EvaluateWordsFn& evaluate) {
    if (!c.instance) throw std::logic_error("learn::step: word genomes need a setup's problem");
    const PlayFn no_games;
    Generation games(c, state, no_games, nullptr, &evaluate);
    scheme_of(c).step(c, state, games);
    ++state.generation;
    return games.report;
}

GenerationReport step(const LearnConfig& c, LearnState& state, WordPopulation& population) {
    if (!c.instance) throw std::logic_error("learn::step: word genomes need a setup's problem");
    const PlayFn no_games;
    Generation games(c, state, no_games, nullptr, nullptr, &population);
    scheme_of(c).step(c, state, games);
    ++state.generation;
    return games.report;
}

GenerationReport step(const LearnConfig& c, LearnState& state, const PlayFn& play,
                      const EvaluateFn& evaluate) {
    if (c.problem.empty()) return step(c, state, play);
    if (c.instance) throw std::logic_error("learn::step: a setup's problem has word genomes");
    Generation games(c, state, play, &evaluate);
    scheme_of(c).step(c, state, games);
    // The problem's bounds: a child outside them is put back on the nearest bound.
    const ProblemInfo& info = find_problem(c.problem).info;
    for (float& w : state.weights) w = std::max(info.low, std::min(info.high, w));
    ++state.generation;
    return games.report;
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

}  // namespace gaeval::learn
