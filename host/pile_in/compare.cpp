#include "host/pile_in/compare.hpp"

#include <cstdio>
#include <cstring>
#include <vector>

#include "host/core/error.hpp"
#include "host/pile_in/population.hpp"
#include "host/pile_in/rules.hpp"
#include "problems/pile_in/genome.hpp"

namespace gaeval {

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
    const uint64_t survivors = pile_in::survivor_count(job.ga);
    if (job.rules == "gapi1")
        return pile_in::make_population(backend, job.scenario.scenario, job.ga.population,
                                        survivors);
    return pile_in::make_population(
        backend, pile_in::build_rules_problem(job.rules, job.scenario, job.overrides),
        job.ga.population, survivors);
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

}  // namespace gaeval
