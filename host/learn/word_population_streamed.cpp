// WordPopulation's streamed layout (host/learn/word_population.hpp): only the survivors kept,
// every other member made again from the seed, the survivors or the words given.
#include <algorithm>
#include <numeric>
#include <stdexcept>

#include "host/learn/learn_problems.hpp"
#include "host/learn/scheme.hpp"
#include "host/learn/word_population.hpp"

namespace gaeval::learn {

void WordPopulation::start_streamed() {
    if (!scheme_->streams_survivors())
        throw std::logic_error(std::string("WordPopulation: scheme ") + scheme_->name() +
                               " cannot keep only its survivors");
    if (!chunking_.members) throw std::logic_error("WordPopulation: streamed without a chunk");
    chunking_.members = std::min<uint64_t>(chunking_.members, config_.population);
    chunk_words_[0] = BackendArray<uint32_t>(backend_, chunking_.members * config_.dims());
    chunk_hits_[0] = BackendArray<uint8_t>(backend_, chunking_.members);
}

void WordPopulation::evaluate_streamed(const FitnessSink& sink) {
    const uint32_t n = config_.population, k = static_cast<uint32_t>(chunking_.members);
    double* wide = wide_fitness(k);
    for (uint32_t first = 0; first < n; first += std::min(k, n - first)) {
        const uint32_t count = std::min(k, n - first);
        make(ChildSpan{first, count}, nullptr, chunk_words_[0], 0, chunk_hits_[0].data());
        config_.instance->evaluate_into(backend_, chunk_words_[0].data(), count, wide);
        sink(first, count, wide);
    }
    scored_ = true;
}

uint32_t WordPopulation::breed_streamed(uint32_t made, const Ranks& ranked, bool count) {
    const uint32_t s = scheme_->ranks_bred_from(config_), d = config_.dims();
    const uint32_t k = static_cast<uint32_t>(chunking_.members);
    if (s < 1 || s > config_.population)
        throw std::logic_error("WordPopulation::breed: the scheme breeds from no parents");
    // The S best of this generation, made again (as scored) into the spare survivor array.
    BackendArray<uint32_t>& next = survivors_[bred_from_ ^ 1];
    if (next.size() != size_t(s) * d) next = BackendArray<uint32_t>(backend_, size_t(s) * d);
    const uint32_t* best = ranks_there(ranked, s);
    // The Words source gathers the survivors on the host.
    const uint32_t* listed = source_ == Source::Words ? ranks_on_host(ranked, s) : nullptr;
    for (uint32_t first = 0; first < s; first += std::min(k, s - first)) {
        const ChildSpan span{0, std::min(k, s - first), best + first};
        make(span, listed ? listed + first : nullptr, next, first, chunk_hits_[0].data());
    }
    // The next generation: bred from them, best first (their order 0 .. S - 1).
    std::vector<uint32_t> order(s);
    std::iota(order.begin(), order.end(), 0u);
    if (parent_order_.size() != s) parent_order_ = BackendArray<uint32_t>(backend_, s);
    parent_order_.upload(order.data(), s);
    made_with_ = config_;
    made_ = made;
    bred_from_ ^= 1;
    source_ = Source::Survivors;
    scored_ = false;
    words_ = BackendArray<uint32_t>();
    return count ? count_mutants_streamed() : 0;
}

void WordPopulation::make(ChildSpan span, const uint32_t* listed, BackendArray<uint32_t>& dst,
                          uint64_t slot, uint8_t* hit) const {
    const uint32_t d = config_.dims();
    uint32_t* into = dst.data() + slot * d;
    switch (source_) {
        case Source::Seed:
            scheme_->initialize_words_on(backend_, made_with_, span, into);
            break;
        case Source::Survivors:
            scheme_->breed_words_on(backend_, made_with_, made_, parent_order_.data(),
                                    survivors_[bred_from_].data(), span, into, hit);
            break;
        case Source::Words: {  // gathered in host memory, then copied to the backend
            std::vector<uint32_t> staged(size_t(span.count) * d);
            for (uint32_t i = 0; i < span.count; ++i) {
                const uint64_t member = listed ? listed[i] : uint64_t{span.first} + i;
                std::copy_n(words_.data() + member * d, d, staged.data() + size_t(i) * d);
            }
            dst.upload(staged.data(), staged.size(), slot * d);
            break;
        }
    }
    if (scored_) rewrite_as_scored(dst, slot, span.count);
}

void WordPopulation::rewrite_as_scored(BackendArray<uint32_t>& genomes, uint64_t slot,
                                       uint32_t count) const {
    if (!config_.instance->rewrites_genomes()) return;
    config_.instance->evaluate_on(backend_, genomes.data() + slot * config_.dims(), count);
}

uint32_t WordPopulation::count_mutants_streamed() const {
    const uint32_t n = config_.population, k = static_cast<uint32_t>(chunking_.members);
    std::vector<uint8_t> hit(k);
    uint32_t mutants = 0;
    for (uint32_t first = 0; first < n; first += std::min(k, n - first)) {
        const uint32_t count = std::min(k, n - first);
        make(ChildSpan{first, count}, nullptr, chunk_words_[0], 0, chunk_hits_[0].data());
        chunk_hits_[0].download(hit.data(), count);
        for (uint32_t i = 0; i < count; ++i) mutants += hit[i];
    }
    return mutants;
}

void WordPopulation::read_streamed(uint64_t first, uint64_t count, uint32_t* out) const {
    const uint64_t k = chunking_.members, d = config_.dims();
    for (uint64_t done = 0; done < count; done += std::min(k, count - done)) {
        const uint32_t part = static_cast<uint32_t>(std::min(k, count - done));
        const ChildSpan span{static_cast<uint32_t>(first + done), part};
        make(span, nullptr, chunk_words_[0], 0, chunk_hits_[0].data());
        chunk_words_[0].download(out + done * d, part * d);
    }
}

}  // namespace gaeval::learn
