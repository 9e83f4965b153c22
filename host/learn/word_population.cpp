#include "host/learn/word_population.hpp"

#include <algorithm>
#include <stdexcept>

#include "host/backend/executor.hpp"
#include "host/backend/parallel.hpp"
#include "host/learn/learn_problems.hpp"
#include "host/learn/scheme.hpp"
#include "kernels/problem_ops.hpp"

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
    if (!chunking_.members) {
        words_ = BackendArray<uint32_t>(backend_, words);
        spare_ = BackendArray<uint32_t>(backend_, words);
        return;
    }
    // Chunked: the genomes in host memory, two chunks of them on the backend.
    words_ = BackendArray<uint32_t>::in_host_memory(backend_, words);
    spare_ = BackendArray<uint32_t>::in_host_memory(backend_, words);
    chunking_.members = std::min<uint64_t>(chunking_.members, config_.population);
    // A second chunk buffer only where there is a next chunk to copy while one is worked on.
    for (int b = 0; b < (chunking_.members < config_.population ? 2 : 1); ++b) {
        chunk_words_[b] = BackendArray<uint32_t>(backend_, chunking_.members * config_.dims());
        chunk_hits_[b] = BackendArray<uint8_t>(backend_, chunking_.members);
        copies_[b] = CopyQueue(backend_);
    }
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
    fitness_.resize(config_.population);
    evaluate_each([this](uint64_t first, uint64_t count, const double*) {
        wide_fitness_.download(fitness_.data() + first, count);
    });
    return fitness_;
}

void WordPopulation::evaluate_narrowed(float* fitness) {
    evaluate_each([&](uint64_t first, uint64_t count, const double* wide) {
        // The device one thread a value, the cpu blocks of values (one task for most).
        const problem_ops::NarrowFitness one{wide, fitness + first};
        const problem_ops::NarrowFitnessBlocks cpu{wide, fitness + first, count};
        for_each_index_split(backend_, count, one, cpu.blocks(count), cpu);
    });
}

void WordPopulation::evaluate_each(const FitnessSink& sink) {
    if (chunking_.survivors_only) return evaluate_streamed(sink);
    if (chunking_.members) return evaluate_chunks(sink);
    const uint32_t n = config_.population;
    config_.instance->evaluate_into(backend_, words_.data(), n, wide_fitness(n));
    sink(0, n, wide_fitness_.data());
}

double* WordPopulation::wide_fitness(uint64_t n) {
    if (wide_fitness_.size() != n) wide_fitness_ = BackendArray<double>(backend_, n);
    return wide_fitness_.data();
}

void WordPopulation::evaluate_chunks(const FitnessSink& sink) {
    const uint64_t n = config_.population, k = chunking_.members, d = config_.dims();
    const bool rewrites = config_.instance->rewrites_genomes();
    double* wide = wide_fitness(k);
    copies_[0].upload(chunk_words_[0], 0, words_.data(), std::min(k, n) * d);
    for (uint64_t first = 0, c = 0; first < n; first += k, ++c) {
        const uint64_t count = std::min(k, n - first), next = first + k;
        const int b = static_cast<int>(c & 1);
        copies_[b].wait();  // this chunk is in (and the last copy out of its buffer made)
        if (next < n)       // the next chunk copied in while this one is evaluated
            copies_[b ^ 1].upload(chunk_words_[b ^ 1], 0, words_.data() + next * d,
                                  std::min(k, n - next) * d);
        config_.instance->evaluate_into(backend_, chunk_words_[b].data(),
                                        static_cast<uint32_t>(count), wide);
        sink(first, count, wide);
        if (rewrites)  // the genomes as scored, copied out while the next chunk is evaluated
            copies_[b].download(words_.data() + first * d, chunk_words_[b], 0, count * d);
    }
    copies_[0].wait();
    copies_[1].wait();
}

uint32_t WordPopulation::breed(uint32_t made, const std::vector<uint32_t>& ranked,
                               bool count_mutants) {
    if (ranked.size() != config_.population)
        throw std::logic_error("WordPopulation::breed: not one rank a member");
    return breed_ranked(made, Ranks{&ranked, nullptr}, count_mutants);
}

uint32_t WordPopulation::breed_from(uint32_t made, const BackendArray<uint32_t>& ranked,
                                    bool count_mutants) {
    if (ranked.size() != config_.population)
        throw std::logic_error("WordPopulation::breed_from: not one rank a member");
    return breed_ranked(made, Ranks{nullptr, &ranked}, count_mutants);
}

const uint32_t* WordPopulation::ranks_there(const Ranks& ranked, uint32_t count) {
    if (ranked.there) return ranked.there->data();
    if (!memory_apart_from_host(backend_)) return ranked.host->data();
    if (ranks_staged_.size() != count) ranks_staged_ = BackendArray<uint32_t>(backend_, count);
    ranks_staged_.upload(ranked.host->data(), count);
    return ranks_staged_.data();
}

const uint32_t* WordPopulation::ranks_on_host(const Ranks& ranked, uint32_t count) {
    if (ranked.host) return ranked.host->data();
    if (!memory_apart_from_host(backend_)) return ranked.there->data();
    ranks_host_.resize(count);
    ranked.there->download(ranks_host_.data(), count);
    return ranks_host_.data();
}

uint32_t WordPopulation::breed_ranked(uint32_t made, const Ranks& ranked, bool count_mutants) {
    const uint32_t n = config_.population;
    if (chunking_.survivors_only) return breed_streamed(made, ranked, count_mutants);
    std::vector<uint8_t> hit(count_mutants ? n : 0);
    if (chunking_.members && !chunking_.parents_on_host) {
        breed_chunks(made, ranks_on_host(ranked, scheme_->ranks_bred_from(config_)), hit);
    } else if (chunking_.members) {  // parents on the host: on the host's threads
        const BackendChoice where = host_threads_backend(backend_.threads);
        const uint32_t* order = ranks_on_host(ranked, scheme_->ranks_bred_from(config_));
        std::vector<uint8_t> hits(n);
        scheme_->breed_words_on(where, config_, made, order, words_.data(),
                                whole_generation(config_), spare_.data(), hits.data());
        if (count_mutants) hit.swap(hits);
    } else {  // resident: on the backend, from the ranking there
        if (hits_.size() != n) hits_ = BackendArray<uint8_t>(backend_, n);
        scheme_->breed_words_on(backend_, config_, made, ranks_there(ranked, n), words_.data(),
                                whole_generation(config_), spare_.data(), hits_.data());
        if (count_mutants) hits_.download(hit.data(), n);
    }
    words_.swap(spare_);
    uint32_t mutants = 0;
    for (uint8_t h : hit) mutants += h;
    return mutants;
}

void WordPopulation::breed_chunks(uint32_t made, const uint32_t* ranked,
                                  std::vector<uint8_t>& hit) {
    send_parents(ranked);
    const uint32_t n = config_.population, d = config_.dims();
    const uint32_t k = static_cast<uint32_t>(chunking_.members);
    uint64_t c = 0;
    for (uint32_t first = 0; first < n; first += std::min(k, n - first), ++c) {
        const ChildSpan span{first, std::min(k, n - first)};
        const int b = static_cast<int>(c & 1);
        copies_[b].wait();  // the buffer's last chunk is out
        scheme_->breed_words_on(backend_, config_, made, parent_order_.data(), parents_.data(),
                                span, chunk_words_[b].data(), chunk_hits_[b].data());
        // Copied out while the next chunk is bred.
        copies_[b].download(spare_.data() + uint64_t{first} * d, chunk_words_[b], 0,
                            uint64_t{span.count} * d);
        if (!hit.empty()) copies_[b].download(hit.data() + first, chunk_hits_[b], 0, span.count);
    }
    copies_[0].wait();
    copies_[1].wait();
}

void WordPopulation::send_parents(const uint32_t* ranked) {
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
