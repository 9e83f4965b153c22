// A pile-in population streamed in chunks, for populations larger than their backend's memory:
// only the survivors' genes, the fitness values and the ranking are kept. A generation's plans
// are made a chunk at a time (the GAPI1 or rules step over the survivors, or generation 0's
// random plans, with the same addressed draws as everywhere) and scored at once; after ranking,
// the new survivors are made again by rank from the old ones. No genome crosses between host and
// device during a generation: on CUDA everything stays on the device (about 2 x survivors plans
// where a resident population holds 2 x N). Only `gaeval pile-in --backend cuda` runs it, until
// that runs on the one GA engine, whose streamed layout is the CPU's (docs/pile_in.md: the
// switch); the GPU tests check it against the CPU's engine population.
//
// A plan is a pure function of (seed, generation, individual, the survivors it was bred from);
// in repair mode its repaired form is a pure function of the plan, so a plan made again (the
// best plan, the survivors, a checkpoint) is the same bits as when it was scored.
//
// Exec: the backend's memory and launches (CudaStreamExec in cuda_population.cpp): Array<T>(n) with
// data() and size(); to_host(dst, src, n) and to_backend(dst, src, n) (element counts,
// synchronous); run(op, n) (op(i) for i < n, finished on return); rank(fitness, ranked, n) and
// fixed_point_sum(fitness, n) as every backend ranks.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "host/core/clock.hpp"
#include "host/pile_in/population.hpp"
#include "problems/pile_in/gapi1_fitness.hpp"
#include "problems/pile_in/gapi1_scheme.hpp"
#include "problems/pile_in/rules_fitness.hpp"
#include "problems/pile_in/rules_scheme.hpp"

namespace gaeval::pile_in {

template <class Exec>
class StreamedPopulation final : public Population {
  public:
    template <class T>
    using Array = typename Exec::template Array<T>;

    // chunk: plans made and scored per launch (1 .. size).
    StreamedPopulation(Exec exec, const Scenario& scenario, uint64_t size,
                       const RulesProblem* rules, uint64_t chunk)
        : Population(size, rules ? rules->layout.words : scenario.friendly_count),
          exec_(std::move(exec)),
          scenario_(scenario),
          chunk_(std::max<uint64_t>(1, std::min(chunk, size))),
          chunk_genes_(chunk_ * gene_count_),
          scratch_fitness_(chunk_),
          fitness_(size),
          ranked_(size) {
        if (rules) rules_ = *rules;
    }

    std::string backend_name() const override { return exec_.name(); }
    uint64_t chunk() const { return chunk_; }

    void randomize(uint64_t seed) override {
        source_ = Source::Random;
        seed_ = seed;
        scored_ = false;
    }

    void evaluate() override {
        const double t0 = now_seconds();
        for (uint64_t first = 0; first < size_; first += chunk_) {
            const uint64_t n = std::min(chunk_, size_ - first);
            const PlanView plans{chunk_genes_.data(), chunk_, gene_count_};
            make(IndexMap{nullptr, first}, n, plans);
            score(plans, n, fitness_.data() + first);
        }
        scored_ = true;
        times_.evaluate += now_seconds() - t0;
    }

    GenerationStats rank() override {
        if (!scored_) throw std::logic_error("rank: the generation has not been evaluated");
        const double t0 = now_seconds();
        exec_.rank(fitness_.data(), ranked_.data(), size_);
        const double t1 = now_seconds();
        uint32_t first = 0, last = 0;
        exec_.to_host(&first, ranked_.data(), 1);
        exec_.to_host(&last, ranked_.data() + (size_ - 1), 1);
        float best = 0, worst = 0;
        exec_.to_host(&best, fitness_.data() + first, 1);
        exec_.to_host(&worst, fitness_.data() + last, 1);
        const GenerationStats s = generation_stats(
            best, worst, first, exec_.fixed_point_sum(fitness_.data(), size_), size_);
        ranked_valid_ = true;
        times_.select += t1 - t0;
        times_.statistics += now_seconds() - t1;
        return s;
    }

    // The new survivors (the ranking's first p.survivors plans, as scored) are made again into
    // the spare survivor buffer; the next generation is then the step over them.
    void breed(const BreedParams& p) override {
        if (p.survivors < 1 || p.survivors > size_)
            throw std::logic_error("breed: survivors must be 1 to the population size");
        if (!ranked_valid_) throw std::logic_error("breed: the generation has not been ranked");
        const double t0 = now_seconds();
        const uint64_t words = static_cast<uint64_t>(gene_count_);
        Array<uint32_t>& next = survivors_[spare_];
        if (next.size() != p.survivors * words) next = Array<uint32_t>(p.survivors * words);
        for (uint64_t first = 0; first < p.survivors; first += chunk_) {
            const uint64_t n = std::min(chunk_, p.survivors - first);
            const PlanView into = plan_major_view(next.data() + first * words, gene_count_);
            make(IndexMap{ranked_.data() + first, 0}, n, into);
            if (repairs()) score(into, n, scratch_fitness_.data());
        }
        spare_ ^= 1;
        step_ = gapi1_step(p, size_, nullptr,
                           plan_major_view(survivors_[spare_ ^ 1].data(), gene_count_), PlanView{});
        source_ = Source::Bred;
        explicit_.clear();
        explicit_.shrink_to_fit();
        scored_ = false;
        ranked_valid_ = false;
        times_.vary += now_seconds() - t0;
    }

    void read_plan(uint64_t index, uint32_t* out) const override {
        Array<uint32_t> one(static_cast<uint64_t>(gene_count_));
        const PlanView plan = plan_major_view(one.data(), gene_count_);
        make(IndexMap{nullptr, index}, 1, plan);
        if (scored_ && repairs()) score(plan, 1, scratch_fitness_.data());
        exec_.to_host(out, one.data(), static_cast<uint64_t>(gene_count_));
    }
    void read_fitness(std::vector<float>& out) const override {
        out.resize(size_);
        exec_.to_host(out.data(), fitness_.data(), size_);
    }
    void read_ranking(std::vector<uint32_t>& out) const override {
        out.resize(size_);
        exec_.to_host(out.data(), ranked_.data(), size_);
    }
    // Every plan as it stands ([gene * size + individual]), made a chunk at a time.
    void read_genes(std::vector<uint32_t>& out) const override {
        out.resize(size_ * gene_count_);
        std::vector<uint32_t> rows(chunk_ * gene_count_);
        for (uint64_t first = 0; first < size_; first += chunk_) {
            const uint64_t n = std::min(chunk_, size_ - first);
            const PlanView plans{chunk_genes_.data(), chunk_, gene_count_};
            make(IndexMap{nullptr, first}, n, plans);
            if (scored_ && repairs()) score(plans, n, scratch_fitness_.data());
            exec_.to_host(rows.data(), chunk_genes_.data(), chunk_ * gene_count_);
            for (int m = 0; m < gene_count_; ++m)
                std::copy_n(rows.data() + m * chunk_, n, out.data() + m * size_ + first);
        }
    }
    // A population given whole (a checkpoint): kept in host memory until the next breed.
    void write_genes(const std::vector<uint32_t>& in) override {
        if (in.size() != size_ * gene_count_)
            throw std::logic_error("write_genes: wrong number of genes");
        explicit_ = in;
        source_ = Source::Explicit;
        scored_ = false;
        ranked_valid_ = false;
    }

  private:
    enum class Source { Random, Bred, Explicit };

    bool repairs() const { return rules_ && rules_->rules.repair; }

    // Plans made(0 .. n-1) of the current generation, before repair, into slots 0 .. n-1 of dst.
    void make(IndexMap made, uint64_t n, PlanView dst) const {
        switch (source_) {
            case Source::Random:
                if (rules_)
                    exec_.run(RandomizeRulesPlans{seed_, *rules_, dst, made}, n);
                else
                    exec_.run(RandomizePlans{seed_, dst, made}, n);
                return;
            case Source::Bred: {
                Gapi1Step step = step_;
                step.dst = dst;
                step.made = made;
                if (rules_)
                    exec_.run(RulesStep{*rules_, step}, n);
                else
                    exec_.run(step, n);
                return;
            }
            case Source::Explicit: {
                // Gathered on the host into dst's layout, then copied to the backend.
                // dst is gene-major (a chunk: slot i of gene m at m * stride + i) or plan-major
                // (survivors: at i * words + m); either way the span below covers slots 0 .. n-1.
                const uint64_t words = static_cast<uint64_t>(gene_count_);
                const uint64_t span = (words - 1) * dst.stride + (n - 1) * dst.step + 1;
                std::vector<uint32_t> staged(span);
                std::vector<uint32_t> order(n);
                if (made.order)
                    exec_.to_host(order.data(), made.order, n);
                else
                    for (uint64_t i = 0; i < n; ++i)
                        order[i] = static_cast<uint32_t>(made.first + i);
                const PlanView into{staged.data(), dst.stride, gene_count_, dst.step};
                for (uint64_t i = 0; i < n; ++i)
                    for (int m = 0; m < gene_count_; ++m)
                        into.set_gene(i, m, explicit_[m * size_ + order[i]]);
                exec_.to_backend(dst.genes, staged.data(), span);
                return;
            }
        }
    }

    // Scores (and in repair mode repairs) plans 0 .. n-1 of `plans` into fitness[0 .. n-1].
    void score(const PlanView& plans, uint64_t n, float* fitness) const {
        if (rules_)
            exec_.run(EvaluateRules{*rules_, plans, fitness}, n);
        else
            exec_.run(EvaluateGapi1{scenario_, plans, fitness}, n);
    }

    Exec exec_;
    Scenario scenario_;
    std::optional<RulesProblem> rules_;
    uint64_t chunk_;
    mutable Array<uint32_t> chunk_genes_;
    mutable Array<float> scratch_fitness_;
    Array<float> fitness_;
    Array<uint32_t> ranked_;
    Array<uint32_t> survivors_[2];  // plan-major, best first; [spare_ ^ 1] is the step's source
    int spare_ = 0;
    Source source_ = Source::Random;
    uint64_t seed_ = 0;
    Gapi1Step step_{};
    std::vector<uint32_t> explicit_;  // Source::Explicit: every gene, [gene * size + individual]
    bool scored_ = false;             // fitness_ is this generation's (plans stand repaired)
    bool ranked_valid_ = false;
};

}  // namespace gaeval::pile_in
