#include "host/learn/word_population.hpp"

#include <algorithm>
#include <stdexcept>

#include "host/backend/parallel.hpp"
#include "host/learn/learn_problems.hpp"
#include "host/learn/scheme.hpp"

namespace gaeval::learn {

WordPopulation::WordPopulation(const BackendChoice& backend, const LearnConfig& c,
                               Chunking chunking)
    : backend_(backend), config_(c), scheme_(&scheme_of(c)), chunking_(chunking) {
    if (!config_.instance) throw std::logic_error("WordPopulation: the run has no word genomes");
    if (!scheme_->breeds_words_on_backend())
        throw std::logic_error(std::string("WordPopulation: scheme ") + scheme_->name() +
                               " does not breed word genomes on a backend");
    config_.threads = backend_.threads;  // the scheme's host work (initialize) on its threads
    if (chunking_.survivors_only) {
        start_streamed();
        return;
    }
    const size_t words = size_t(config_.population) * config_.dims();
    // Chunked: the genomes in host memory, one chunk of them on the backend.
    const BackendChoice home =
        chunking_.members ? host_threads_backend(backend_.threads) : backend_;
    words_ = BackendArray<uint32_t>(home, words);
    spare_ = BackendArray<uint32_t>(home, words);
    if (!chunking_.members) return;
    chunking_.members = std::min<uint64_t>(chunking_.members, config_.population);
    chunk_words_ = BackendArray<uint32_t>(backend_, chunking_.members * config_.dims());
    chunk_hits_ = BackendArray<uint8_t>(backend_, chunking_.members);
}

void WordPopulation::initialize() {
    if (chunking_.survivors_only) {
        made_with_ = config_;
        source_ = Source::Seed;
        scored_ = false;
        words_ = BackendArray<uint32_t>();
        return;
    }
    LearnState s;
    s.words.resize(words_.size());
    scheme_->initialize(config_, s);
    words_.upload(s.words.data(), s.words.size());
}

std::vector<double> WordPopulation::evaluate() {
    if (chunking_.survivors_only)
        evaluate_streamed();
    else if (chunking_.members)
        evaluate_chunks();
    else
        fitness_ = config_.instance->evaluate_on(backend_, words_.data(), config_.population);
    return fitness_;
}

void WordPopulation::evaluate_chunks() {
    const uint64_t n = config_.population, k = chunking_.members, d = config_.dims();
    const bool rewrites = config_.instance->rewrites_genomes();
    fitness_.resize(n);
    for (uint64_t first = 0; first < n; first += k) {
        const uint64_t count = std::min(k, n - first);
        uint32_t* genomes = words_.data() + first * d;
        chunk_words_.upload(genomes, count * d);
        const std::vector<double> part = config_.instance->evaluate_on(
            backend_, chunk_words_.data(), static_cast<uint32_t>(count));
        std::copy(part.begin(), part.end(), fitness_.begin() + static_cast<std::ptrdiff_t>(first));
        if (rewrites) chunk_words_.download(genomes, count * d);  // the genomes as scored
    }
}

uint32_t WordPopulation::breed(uint32_t made, const std::vector<uint32_t>& ranked,
                               bool count_mutants) {
    const uint32_t n = config_.population;
    if (ranked.size() != n) throw std::logic_error("WordPopulation::breed: not one rank a member");
    if (chunking_.survivors_only) return breed_streamed(made, ranked, count_mutants);
    std::vector<uint8_t> hit(n);
    if (chunking_.members && !chunking_.parents_on_host) {
        breed_chunks(made, ranked, hit);
    } else {
        // Resident: on the backend; chunked with parents on the host: on the host's threads.
        const BackendChoice& where =
            chunking_.members ? host_threads_backend(backend_.threads) : backend_;
        const BackendInput<uint32_t> order(where, ranked.data(), n);
        BackendOutput<uint8_t> hits(where, hit.data(), n);
        scheme_->breed_words_on(where, config_, made, order.data(), words_.data(),
                                whole_generation(config_), spare_.data(), hits.data());
        hits.finish();
    }
    words_.swap(spare_);
    uint32_t mutants = 0;
    for (uint8_t h : hit) mutants += h;
    return mutants;
}

void WordPopulation::breed_chunks(uint32_t made, const std::vector<uint32_t>& ranked,
                                  std::vector<uint8_t>& hit) {
    send_parents(ranked);
    const uint32_t n = config_.population, d = config_.dims();
    const uint32_t k = static_cast<uint32_t>(chunking_.members);
    for (uint32_t first = 0; first < n; first += std::min(k, n - first)) {
        const ChildSpan span{first, std::min(k, n - first)};
        scheme_->breed_words_on(backend_, config_, made, parent_order_.data(), parents_.data(),
                                span, chunk_words_.data(), chunk_hits_.data());
        chunk_words_.download(spare_.data() + uint64_t{first} * d, uint64_t{span.count} * d);
        chunk_hits_.download(hit.data() + first, span.count);
    }
}

void WordPopulation::send_parents(const std::vector<uint32_t>& ranked) {
    const uint32_t s = scheme_->ranks_bred_from(config_), d = config_.dims();
    if (s < 1 || s > config_.population)
        throw std::logic_error("WordPopulation::breed: the scheme breeds from no parents");
    std::vector<uint32_t> best(size_t(s) * d), order(s);
    const uint32_t* words = words_.data();  // host memory in the chunked layout
    parallel_for(s, backend_.threads, [&](int64_t r) {
        order[r] = static_cast<uint32_t>(r);
        std::copy_n(words + uint64_t{ranked[r]} * d, d, best.data() + uint64_t(r) * d);
    });
    if (parents_.size() != best.size()) parents_ = BackendArray<uint32_t>(backend_, best.size());
    if (parent_order_.size() != s) parent_order_ = BackendArray<uint32_t>(backend_, s);
    parents_.upload(best.data(), best.size());
    parent_order_.upload(order.data(), s);
}

void WordPopulation::read_member(uint64_t i, uint32_t* out) const {
    const uint32_t d = config_.dims();
    if (chunking_.survivors_only) return read_streamed(i, 1, out);
    words_.download(out, d, i * d);
}

void WordPopulation::read_words(std::vector<uint32_t>& out) const {
    const size_t n = size_t(config_.population) * config_.dims();
    out.resize(n);
    if (chunking_.survivors_only) return read_streamed(0, config_.population, out.data());
    words_.download(out.data(), out.size());
}

void WordPopulation::write_words(const std::vector<uint32_t>& in) {
    const size_t n = size_t(config_.population) * config_.dims();
    if (in.size() != n)
        throw std::logic_error("WordPopulation::write_words: not one population of genomes");
    if (chunking_.survivors_only) {  // kept in host memory until the next breed
        words_ = BackendArray<uint32_t>(host_threads_backend(backend_.threads), n);
        source_ = Source::Words;
        scored_ = false;
    }
    words_.upload(in.data(), in.size());
}

}  // namespace gaeval::learn
