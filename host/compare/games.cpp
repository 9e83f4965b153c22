#include "host/compare/games.hpp"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <memory>
#include <vector>

#include "host/core/error.hpp"
#include "host/learn/learn_problems.hpp"
#include "host/learn/scheme.hpp"
#include "host/learn/word_population.hpp"

namespace gaeval {

std::string float_with_bits(float v) {
    uint32_t bits;
    std::memcpy(&bits, &v, sizeof bits);
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.9g (0x%08x)", v, bits);
    return buf;
}

Difference compare_perft(const games::GameSession& session, int depth, const BackendChoice& a,
                         const BackendChoice& b) {
    Difference d;
    d.generation = static_cast<uint32_t>(depth);
    if (depth == 0) return d;  // one node on any backend
    const std::vector<uint64_t> ca = session.perft_divide(depth, a);
    const std::vector<uint64_t> cb = session.perft_divide(depth, b);
    if (ca.size() != cb.size()) {
        d.identical = false;
        d.field = "number of root moves";
        d.a_value = std::to_string(ca.size());
        d.b_value = std::to_string(cb.size());
        return d;
    }
    for (std::size_t i = 0; i < ca.size(); ++i) {
        if (ca[i] != cb[i]) {
            d.identical = false;
            d.individual = i;
            d.field = "subtree nodes of root move " + std::to_string(i);
            d.a_value = std::to_string(ca[i]);
            d.b_value = std::to_string(cb[i]);
            return d;
        }
    }
    d.generations_compared = static_cast<uint32_t>(ca.size());
    return d;
}

namespace {

std::string hex64(uint64_t v) {
    char buf[24];
    std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(v));
    return buf;
}

std::string record_text(const GameRecord& r) {
    return "plies " + std::to_string(r.plies) + ", winner seat " + std::to_string(r.winner) +
           ", A seat " + std::to_string(r.a_seat) + ", A result " + std::to_string(r.a_result) +
           (r.stopped ? ", stopped" : "") + ", move hash " + hex64(r.move_hash);
}

bool same_record(const GameRecord& x, const GameRecord& y) {
    return x.plies == y.plies && x.winner == y.winner && x.a_seat == y.a_seat &&
           x.a_result == y.a_result && x.stopped == y.stopped && x.move_hash == y.move_hash;
}

bool same_float(float x, float y) { return std::memcmp(&x, &y, sizeof x) == 0; }

std::string double_with_bits(double v) {
    uint64_t bits;
    std::memcpy(&bits, &v, sizeof bits);
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.17g (0x%016llx)", v, static_cast<unsigned long long>(bits));
    return buf;
}

// The first member whose weights (genes) or value differ, into d; false when there is none.
bool weights_or_values_differ(const learn::LearnState& sa, const learn::LearnState& sb,
                              uint32_t dims, Difference& d) {
    for (size_t i = 0; i < std::min(sa.words.size(), sb.words.size()); ++i)
        if (sa.words[i] != sb.words[i]) {
            d.identical = false;
            d.individual = i / dims;
            d.field = "gene " + std::to_string(i % dims);
            d.a_value = std::to_string(sa.words[i]);
            d.b_value = std::to_string(sb.words[i]);
            return true;
        }
    for (size_t i = 0; i < sa.weights.size(); ++i)
        if (!same_float(sa.weights[i], sb.weights[i])) {
            d.identical = false;
            d.individual = i / dims;
            d.field = "weight " + std::to_string(i % dims);
            d.a_value = float_with_bits(sa.weights[i]);
            d.b_value = float_with_bits(sb.weights[i]);
            return true;
        }
    for (size_t i = 0; i < sa.value.size(); ++i)
        if (std::memcmp(&sa.value[i], &sb.value[i], sizeof(double)) != 0) {
            d.identical = false;
            d.individual = i;
            d.field = "value";
            d.a_value = std::to_string(sa.value[i]);
            d.b_value = std::to_string(sb.value[i]);
            return true;
        }
    return false;
}

// A problem run (LearnConfig::problem) stepped on a and b in lockstep: every evaluation's
// fitness bits (generation, genome index in the call), then every member's genes and value.
Difference compare_problem_learn(const learn::LearnJob& job_a, const learn::LearnJob& job_b,
                                 const BackendChoice& a, const BackendChoice& b) {
    const learn::LearnConfig& c = job_a.config;
    const learn::LearnConfig& cb = job_b.config;
    Difference d;
    learn::LearnState sa = learn::initial_state(c), sb = learn::initial_state(cb);
    if (weights_or_values_differ(sa, sb, c.dims(), d)) {
        d.field = "initial " + d.field;
        return d;
    }
    // A word run whose scheme breeds on the backend keeps its genomes there, as `gaeval learn`
    // does (host/learn/word_population.hpp); nullptr otherwise.
    const auto resident_of = [](const learn::LearnConfig& config, const learn::LearnState& s,
                                const BackendChoice& backend) {
        std::unique_ptr<learn::WordPopulation> population;
        if (config.instance && learn::scheme_of(config).breeds_words_on_backend()) {
            population = std::make_unique<learn::WordPopulation>(backend, config);
            population->write_words(s.words);
        }
        return population;
    };
    const auto ra = resident_of(c, sa, a), rb = resident_of(cb, sb, b);
    // One generation's step of `config` on `backend`, every evaluation's fitness into `calls`:
    // real genomes through the problem's entry, word genomes through the resident population
    // (read back after the step) or the setup's instance.
    const auto step = [](const learn::LearnConfig& config, learn::LearnState& s,
                         const BackendChoice& backend, learn::WordPopulation* resident,
                         std::vector<std::vector<double>>& calls) {
        if (resident) {
            learn::step(config, s, *resident);
            calls.push_back(resident->last_fitness());
            resident->read_words(s.words);
            return;
        }
        if (config.instance) {
            learn::step(
                config, s,
                learn::EvaluateWordsFn([&](std::vector<uint32_t>& genomes, uint32_t count) {
                    calls.push_back(config.instance->evaluate_rewriting(backend, genomes, count));
                    return calls.back();
                }));
            return;
        }
        const learn::ProblemEntry& problem = learn::find_problem(config.problem);
        learn::step(config, s, learn::PlayFn(),
                    learn::EvaluateFn([&](const std::vector<float>& genomes, uint32_t count) {
                        calls.push_back(problem.evaluate(backend, genomes, count, config.dims()));
                        return calls.back();
                    }));
    };
    for (uint32_t g = 0; g < c.generations; ++g) {
        std::vector<std::vector<double>> calls_a, calls_b;
        step(c, sa, a, ra.get(), calls_a);
        step(cb, sb, b, rb.get(), calls_b);
        d.generation = g;
        d.generations_compared = g + 1;
        for (size_t k = 0; k < std::min(calls_a.size(), calls_b.size()); ++k)
            for (size_t i = 0; i < std::min(calls_a[k].size(), calls_b[k].size()); ++i)
                if (std::memcmp(&calls_a[k][i], &calls_b[k][i], sizeof(double)) != 0) {
                    d.identical = false;
                    d.individual = i;
                    d.field = "fitness (evaluation " + std::to_string(k) + ")";
                    d.a_value = double_with_bits(calls_a[k][i]);
                    d.b_value = double_with_bits(calls_b[k][i]);
                    return d;
                }
        if (weights_or_values_differ(sa, sb, c.dims(), d)) return d;
    }
    return d;
}

}  // namespace

Difference compare_learn(const learn::LearnJob& job_a, const learn::LearnJob& job_b,
                         const BackendChoice& a, const BackendChoice& b) {
    const learn::LearnJob& job = job_a;
    const learn::LearnConfig& c = job_a.config;
    const learn::LearnConfig& cb = job_b.config;
    learn::validate(c);
    learn::validate(cb);
    if (c.population != cb.population || c.dims() != cb.dims())
        throw InputError("compare learn: the jobs differ in population or features");
    if (c.problem != cb.problem)
        throw InputError("compare learn: the jobs differ in their problem");
    if (!c.problem.empty()) return compare_problem_learn(job_a, job_b, a, b);
    Difference d;
    learn::LearnState sa = learn::initial_state(c), sb = learn::initial_state(cb);
    for (size_t i = 0; i < sa.weights.size(); ++i)
        if (!same_float(sa.weights[i], sb.weights[i])) {
            d.identical = false;
            d.individual = i / c.dims();
            d.field = "initial weight " + std::to_string(i % c.dims());
            d.a_value = float_with_bits(sa.weights[i]);
            d.b_value = float_with_bits(sb.weights[i]);
            return d;
        }
    for (uint32_t g = 0; g < c.generations; ++g) {
        std::vector<std::vector<GameRecord>> batches_a, batches_b;
        auto player = [&](const learn::LearnJob& j, const BackendChoice& backend,
                          std::vector<std::vector<GameRecord>>& batches) {
            return [&, backend](const std::vector<games::PlayerData>& players,
                                const std::vector<Pairing>& pairings, uint64_t seed) {
                batches.push_back(
                    j.session->play_pairings(players, pairings, seed, j.config.max_plies, backend));
                return batches.back();
            };
        };
        learn::step(c, sa, player(job_a, a, batches_a));
        learn::step(cb, sb, player(job_b, b, batches_b));
        d.generation = g;
        d.generations_compared = g + 1;
        for (size_t k = 0; k < std::min(batches_a.size(), batches_b.size()); ++k)
            for (size_t i = 0; i < std::min(batches_a[k].size(), batches_b[k].size()); ++i)
                if (!same_record(batches_a[k][i], batches_b[k][i])) {
                    d.identical = false;
                    d.individual = i;
                    d.field = "game record (batch " + std::to_string(k) + ")";
                    d.a_value = record_text(batches_a[k][i]);
                    d.b_value = record_text(batches_b[k][i]);
                    return d;
                }
        if (weights_or_values_differ(sa, sb, c.dims(), d)) return d;
    }
    if (job.verify_games > 0) {
        const std::vector<std::string> opponents = learn::verify_opponents(job_a);
        for (std::size_t o = 0; o < opponents.size(); ++o) {
            const auto ra = games::play(*learn::verify_session(job_a, int(o)),
                                        learn::verify_request(job_a, sa, int(o)), a);
            const auto rb = games::play(*learn::verify_session(job_b, int(o)),
                                        learn::verify_request(job_b, sb, int(o)), b);
            for (size_t i = 0; i < std::min(ra.size(), rb.size()); ++i)
                if (!same_record(ra[i], rb[i])) {
                    d.identical = false;
                    d.generation = sa.generation;
                    d.individual = i;
                    d.field = "verification game vs " + opponents[o];
                    d.a_value = record_text(ra[i]);
                    d.b_value = record_text(rb[i]);
                    return d;
                }
        }
    }
    return d;
}

}  // namespace gaeval
