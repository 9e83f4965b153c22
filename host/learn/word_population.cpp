#include "host/learn/word_population.hpp"

#include <stdexcept>

#include "host/learn/learn_problems.hpp"
#include "host/learn/scheme.hpp"

namespace gaeval::learn {

WordPopulation::WordPopulation(const BackendChoice& backend, const LearnConfig& c)
    : backend_(backend), config_(c), scheme_(&scheme_of(c)) {
    if (!config_.instance) throw std::logic_error("WordPopulation: the run has no word genomes");
    if (!scheme_->breeds_words_on_backend())
        throw std::logic_error(std::string("WordPopulation: scheme ") + scheme_->name() +
                               " does not breed word genomes on a backend");
    config_.threads = backend_.threads;  // the scheme's host work (initialize) on its threads
    const size_t words = size_t(config_.population) * config_.dims();
    words_ = BackendArray<uint32_t>(backend_, words);
    spare_ = BackendArray<uint32_t>(backend_, words);
}

void WordPopulation::initialize() {
    LearnState s;
    s.words.resize(words_.size());
    scheme_->initialize(config_, s);
    words_.upload(s.words.data(), s.words.size());
}

std::vector<double> WordPopulation::evaluate() {
    fitness_ = config_.instance->evaluate_on(backend_, words_.data(), config_.population);
    return fitness_;
}

uint32_t WordPopulation::breed(uint32_t made, const std::vector<uint32_t>& ranked) {
    const uint32_t n = config_.population;
    if (ranked.size() != n) throw std::logic_error("WordPopulation::breed: not one rank a member");
    std::vector<uint8_t> hit(n);
    {
        const BackendInput<uint32_t> order(backend_, ranked.data(), n);
        BackendOutput<uint8_t> hits(backend_, hit.data(), n);
        scheme_->breed_words_on(backend_, config_, made, order.data(), words_.data(), spare_.data(),
                                hits.data());
        hits.finish();
    }
    words_.swap(spare_);
    uint32_t mutants = 0;
    for (uint8_t h : hit) mutants += h;
    return mutants;
}

void WordPopulation::read_member(uint64_t i, uint32_t* out) const {
    const uint32_t d = config_.dims();
    words_.download(out, d, i * d);
}

void WordPopulation::read_words(std::vector<uint32_t>& out) const {
    out.resize(words_.size());
    words_.download(out.data(), out.size());
}

void WordPopulation::write_words(const std::vector<uint32_t>& in) {
    if (in.size() != words_.size())
        throw std::logic_error("WordPopulation::write_words: not one population of genomes");
    words_.upload(in.data(), in.size());
}

}  // namespace gaeval::learn
