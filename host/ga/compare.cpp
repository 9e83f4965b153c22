#include "host/ga/compare.hpp"

#include <cstdio>
#include <cstring>
#include <vector>

#include "games/pile_in/genome.hpp"
#include "host/backend/pile_in_population.hpp"
#include "host/ga/pile_in_rules.hpp"
#include "host/io/error.hpp"

namespace gaeval {

std::string float_with_bits(float v) {
    uint32_t bits;
    std::memcpy(&bits, &v, sizeof bits);
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.9g (0x%08x)", v, bits);
    return buf;
}

namespace {

std::string gene_text(uint32_t gene) {
    pile_in::Move m = pile_in::unpack_move(gene);
    char buf[64];
    std::snprintf(buf, sizeof buf, "move (%d, %d) (0x%08x)", m.dx, m.dy, gene);
    return buf;
}

// First index where two gene arrays ([gene * n + individual]) differ, reported by individual.
bool compare_genes(const std::vector<uint32_t>& a, const std::vector<uint32_t>& b, uint64_t n,
                   uint32_t generation, Difference& d) {
    const uint64_t genes = n ? a.size() / n : 0;
    for (uint64_t i = 0; i < n; ++i) {
        for (uint64_t m = 0; m < genes; ++m) {
            const uint64_t k = m * n + i;
            if (a[k] != b[k]) {
                d.identical = false;
                d.generation = generation;
                d.individual = i;
                d.field = "gene " + std::to_string(m);
                d.a_value = gene_text(a[k]);
                d.b_value = gene_text(b[k]);
                return false;
            }
        }
    }
    return true;
}

bool compare_floats(const std::vector<float>& a, const std::vector<float>& b, uint32_t generation,
                    const char* field, Difference& d) {
    for (std::size_t i = 0; i < a.size(); ++i) {
        if (std::memcmp(&a[i], &b[i], sizeof(float)) != 0) {
            d.identical = false;
            d.generation = generation;
            d.individual = i;
            d.field = field;
            d.a_value = float_with_bits(a[i]);
            d.b_value = float_with_bits(b[i]);
            return false;
        }
    }
    return true;
}

// The job's population on `backend`: GAPI1, or its rules preset's problem.
std::unique_ptr<pile_in::Population> make_job_population(const pile_in::PileInJob& job,
                                                         const BackendChoice& backend) {
    if (job.rules == "gapi1")
        return pile_in::make_population(backend, job.scenario.scenario, job.ga.population);
    return pile_in::make_population(
        backend, pile_in::build_rules_problem(job.rules, job.scenario, job.overrides),
        job.ga.population);
}

}  // namespace

Difference compare_pile_in(const pile_in::PileInJob& job_a, const pile_in::PileInJob& job_b,
                           const BackendChoice& a, const BackendChoice& b) {
    using namespace pile_in;
    validate(job_a.ga);
    validate(job_b.ga);
    const pile_in::PileInJob& job = job_a;
    const uint64_t n = job.ga.population;
    if (job_b.ga.population != n ||
        job_b.scenario.scenario.friendly_count != job.scenario.scenario.friendly_count)
        throw InputError("compare: the two jobs differ in population or unit size");
    auto pa = make_job_population(job, a);
    auto pb = make_job_population(job_b, b);
    Difference d;
    std::vector<uint32_t> ga, gb, ra, rb;
    std::vector<float> fa, fb;
    pa->randomize(job.ga.seed);
    pb->randomize(job_b.ga.seed);
    pa->read_genes(ga);
    pb->read_genes(gb);
    if (!compare_genes(ga, gb, n, 0, d)) return d;
    const uint64_t survivors_a = survivor_count(job.ga), survivors_b = survivor_count(job_b.ga);
    for (uint32_t g = 0; g < job.ga.generations; ++g) {
        pa->evaluate();
        pb->evaluate();
        pa->read_fitness(fa);
        pb->read_fitness(fb);
        if (!compare_floats(fa, fb, g, "fitness", d)) return d;
        GenerationStats sa = pa->rank(), sb = pb->rank();
        pa->read_ranking(ra);
        pb->read_ranking(rb);
        for (uint64_t r = 0; r < n; ++r) {
            if (ra[r] != rb[r]) {
                d.identical = false;
                d.generation = g;
                d.individual = r;
                d.field = "ranking (position " + std::to_string(r) + ")";
                d.a_value = "individual " + std::to_string(ra[r]);
                d.b_value = "individual " + std::to_string(rb[r]);
                return d;
            }
        }
        if (sa.mean != sb.mean) {
            d.identical = false;
            d.generation = g;
            d.field = "mean fitness";
            char x[64], y[64];
            std::snprintf(x, sizeof x, "%.17g", sa.mean);
            std::snprintf(y, sizeof y, "%.17g", sb.mean);
            d.a_value = x;
            d.b_value = y;
            return d;
        }
        pa->breed(BreedParams{job.ga.seed, g + 1, survivors_a, job.ga.mutation});
        pb->breed(BreedParams{job_b.ga.seed, g + 1, survivors_b, job_b.ga.mutation});
        pa->read_genes(ga);
        pb->read_genes(gb);
        if (!compare_genes(ga, gb, n, g + 1, d)) return d;
        d.generations_compared = g + 1;
    }
    return d;
}

Difference compare_perft(const grid::GameSetup& setup, int depth, const BackendChoice& a,
                         const BackendChoice& b, grid::EngineChoice engine) {
    Difference d;
    d.generation = static_cast<uint32_t>(depth);
    if (depth == 0) return d;  // one node on any backend
    const std::vector<uint64_t> ca = grid::perft_divide(setup, depth, a, engine);
    const std::vector<uint64_t> cb = grid::perft_divide(setup, depth, b, engine);
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

std::string record_text(const grid::GameRecord& r) {
    return "plies " + std::to_string(r.plies) + ", winner seat " + std::to_string(r.winner) +
           ", A seat " + std::to_string(r.a_seat) + ", A result " + std::to_string(r.a_result) +
           (r.stopped ? ", stopped" : "");
}

bool same_record(const grid::GameRecord& x, const grid::GameRecord& y) {
    return x.plies == y.plies && x.winner == y.winner && x.a_seat == y.a_seat &&
           x.a_result == y.a_result && x.stopped == y.stopped;
}

bool same_float(float x, float y) { return std::memcmp(&x, &y, sizeof x) == 0; }

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
        std::vector<std::vector<grid::GameRecord>> batches_a, batches_b;
        auto player = [&](const learn::LearnJob& j, const BackendChoice& backend,
                          std::vector<std::vector<grid::GameRecord>>& batches) {
            return [&, backend](const std::vector<grid::Player>& players,
                                const std::vector<grid::Pairing>& pairings, uint64_t seed) {
                batches.push_back(grid::play_pairings(j.setup, players, pairings, seed,
                                                      j.config.max_plies, backend, j.engine));
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
        const uint32_t dims = c.dims();
        for (size_t i = 0; i < sa.weights.size(); ++i)
            if (!same_float(sa.weights[i], sb.weights[i])) {
                d.identical = false;
                d.individual = i / dims;
                d.field = "weight " + std::to_string(i % dims);
                d.a_value = float_with_bits(sa.weights[i]);
                d.b_value = float_with_bits(sb.weights[i]);
                return d;
            }
        for (size_t i = 0; i < sa.value.size(); ++i)
            if (std::memcmp(&sa.value[i], &sb.value[i], sizeof(double)) != 0) {
                d.identical = false;
                d.individual = i;
                d.field = "value";
                d.a_value = std::to_string(sa.value[i]);
                d.b_value = std::to_string(sb.value[i]);
                return d;
            }
    }
    if (job.verify_games > 0) {
        for (int o = 0; o < learn::kVerifyOpponents; ++o) {
            const auto ra =
                grid::play_batch(job_a.setup, learn::verify_request(job_a, sa, o), a, job_a.engine);
            const auto rb =
                grid::play_batch(job_b.setup, learn::verify_request(job_b, sb, o), b, job_b.engine);
            for (size_t i = 0; i < std::min(ra.size(), rb.size()); ++i)
                if (!same_record(ra[i], rb[i])) {
                    d.identical = false;
                    d.generation = sa.generation;
                    d.individual = i;
                    d.field = std::string("verification game vs ") + learn::verify_opponent_name(o);
                    d.a_value = record_text(ra[i]);
                    d.b_value = record_text(rb[i]);
                    return d;
                }
        }
    }
    return d;
}

}  // namespace gaeval
