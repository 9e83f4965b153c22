#include "host/learn/learn_problems.hpp"

#include <limits>
#include <type_traits>
#include <utility>

#include "generated/problem_list.hpp"
#include "host/backend/backend_array.hpp"
#include "host/backend/executor.hpp"
#include "host/backend/parallel.hpp"
#include "host/core/error.hpp"
#include "host/learn/problem_setups.hpp"
#include "kernels/problem_ops.hpp"

namespace gaeval::learn {

namespace {

template <class P>
std::vector<double> evaluate_problem(const BackendChoice& backend,
                                     const std::vector<float>& genomes, uint32_t count,
                                     uint32_t dimension) {
    std::vector<double> fitness(count);
    if (count == 0) return fitness;
    const BackendInput<float> in(backend, genomes.data(), size_t(count) * dimension);
    BackendOutput<double> out(backend, fitness.data(), count);
    for_each_index(backend, 0, count,
                   problem_ops::EvaluateProblem<P>{P{}, in.data(), out.data(), dimension}, 16);
    out.finish();
    return fitness;
}

using problem_ops::rewrites_of;

// A word problem P made from its setup (problems/problem.hpp: P::from_setup).
template <class P>
class Instance final : public ProblemInstance {
  public:
    using Setup = typename P::Setup;
    Instance(const LoadedSetup<Setup>& loaded)
        : ProblemInstance(P::kName, loaded.name, loaded.json),
          setup_(loaded.setup),
          problem_(P::from_setup(loaded.setup)) {}

    uint32_t dimension() const override { return problem_.dimension(); }

    std::vector<double> evaluate(const BackendChoice& backend, const std::vector<uint32_t>& genomes,
                                 uint32_t count) const override {
        std::vector<double> fitness(count);
        if (count == 0) return fitness;
        const BackendInput<uint32_t> in(backend, genomes.data(), size_t(count) * dimension());
        BackendOutput<double> out(backend, fitness.data(), count);
        score(backend, in.data(), count, out.data());
        out.finish();
        return fitness;
    }

    bool rewrites_genomes() const override {
        if constexpr (rewrites_of<P>::value)
            return problem_.rewrites();
        else
            return false;
    }

    std::vector<double> evaluate_rewriting(const BackendChoice& backend,
                                           std::vector<uint32_t>& genomes,
                                           uint32_t count) const override {
        if (!rewrites_genomes()) return evaluate(backend, genomes, count);
        if (genomes.size() < size_t(count) * dimension())
            throw std::logic_error("evaluate_rewriting: fewer genomes than the count");
        // On the device the genomes go there and come back rewritten.
        BackendInOut<uint32_t> there(backend, genomes.data(), size_t(count) * dimension());
        std::vector<double> fitness = evaluate_on(backend, there.data(), count);
        there.finish();
        return fitness;
    }

    std::vector<double> evaluate_on(const BackendChoice& backend, uint32_t* genomes,
                                    uint32_t count) const override {
        std::vector<double> fitness(count);
        if (count == 0) return fitness;
        BackendOutput<double> out(backend, fitness.data(), count);
        evaluate_into(backend, genomes, count, out.data());
        out.finish();
        return fitness;
    }

    void evaluate_into(const BackendChoice& backend, uint32_t* genomes, uint32_t count,
                       double* fitness) const override {
        if (count == 0) return;
        if (rewrites_genomes())
            score_rewriting(backend, genomes, count, fitness);
        else
            score(backend, genomes, count, fitness);
    }

    uint32_t random_gene(uint64_t seed, Purpose purpose, uint32_t c0, uint32_t c1,
                         uint32_t c2) const override {
        return problem_.random_gene(seed, purpose, c0, c1, c2);
    }

    nlohmann::json describe(const std::vector<uint32_t>& genome) const override {
        return describe_genome(setup_, genome);
    }

  protected:
    const void* setup_if(const std::type_info& type) const override {
        return type == typeid(Setup) ? &setup_ : nullptr;
    }

  private:
    Setup setup_;
    P problem_;

    // fitness[0 .. count) of the first `count` genomes at `genomes` (both in the backend's
    // memory): one executor call.
    void score(const BackendChoice& backend, const uint32_t* genomes, uint32_t count,
               double* fitness) const {
        const uint32_t d = dimension();
        const problem_ops::EvaluateWordProblem<P> one{problem_, genomes, fitness, d};
        if constexpr (problem_ops::has_lanes<P>::value) {
            // The cpu scores blocks of P::kLanes genomes in SIMD lanes, the device one a thread.
            const uint64_t blocks = (uint64_t{count} + P::kLanes - 1) / P::kLanes;
            for_each_index_split(
                backend, count, one, blocks,
                problem_ops::EvaluateWordBlocks<P>{problem_, genomes, fitness, d, count}, 4);
        } else {
            for_each_index(backend, 0, count, one, 16);
        }
    }

    // The same where scoring rewrites the genomes (P::fitness_rewriting), each rewritten in
    // place: one executor call (on the device the repair op of kernels/problem_ops.cu).
    void score_rewriting(const BackendChoice& backend, uint32_t* genomes, uint32_t count,
                         double* fitness) const {
        if constexpr (rewrites_of<P>::value) {
            // Cost varies per genome (repair rounds): dynamic chunks, as gaeval pile-in's.
            for_each_index(backend, 0, count,
                           problem_ops::EvaluateWordProblemRewriting<P>{problem_, genomes, fitness,
                                                                        dimension()},
                           64);
        } else {
            (void)backend, (void)genomes, (void)count, (void)fitness;
            throw std::logic_error("score_rewriting: the problem does not rewrite genomes");
        }
    }
};

// P's optional member P::MEMBER (problems/problem.hpp), or `fallback`: NAME<P>::value.
#define GAEVAL_OPTIONAL_MEMBER(NAME, MEMBER, TYPE, FALLBACK) \
    template <class P, class = void>                         \
    struct NAME {                                            \
        static constexpr TYPE value = FALLBACK;              \
    };                                                       \
    template <class P>                                       \
    struct NAME<P, std::void_t<decltype(P::MEMBER)>> {       \
        static constexpr TYPE value = P::MEMBER;             \
    };
GAEVAL_OPTIONAL_MEMBER(default_population_of, kDefaultPopulation, uint32_t, 0)
GAEVAL_OPTIONAL_MEMBER(only_scheme_of, kOnlyScheme, const char*, "")
GAEVAL_OPTIONAL_MEMBER(setup_form_of, kSetupForm, const char*, "NAME|FILE")
#undef GAEVAL_OPTIONAL_MEMBER

template <class P>
ProblemEntry entry_of() {
    ProblemEntry e;
    e.info.name = P::kName;
    e.info.description = P::kDescription;
    e.info.maximise = P::kMaximise;
    e.info.default_population = default_population_of<P>::value;
    e.info.only_scheme = only_scheme_of<P>::value;
    if constexpr (problems::is_word_problem_v<P>) {
        static_assert(problems::check_word_problem<P>());
        e.info.setup_flag = P::kSetupFlag;
        e.info.setup_form = setup_form_of<P>::value;
        e.info.setup_options = setup_options<typename P::Setup>();
        e.info.default_dimension = 0;
        e.info.max_dimension = 0;
        e.info.optimum = std::numeric_limits<double>::quiet_NaN();
        e.make = [](const std::string& text,
                    const SetupOptions& options) -> std::shared_ptr<const ProblemInstance> {
            return std::make_shared<Instance<P>>(load_setup<typename P::Setup>(text, options));
        };
        e.rebuild = [](const nlohmann::json& setup,
                       const std::string& where) -> std::shared_ptr<const ProblemInstance> {
            return std::make_shared<Instance<P>>(reload_setup<typename P::Setup>(setup, where));
        };
        e.setup_type = &typeid(typename P::Setup);
        e.adopt = [](const void* setup,
                     const std::string& name) -> std::shared_ptr<const ProblemInstance> {
            using Setup = typename P::Setup;
            return std::make_shared<Instance<P>>(
                LoadedSetup<Setup>{*static_cast<const Setup*>(setup), name, nlohmann::json()});
        };
    } else {
        static_assert(problems::check_problem<P>());
        e.info.default_dimension = P::kDefaultDimension;
        e.info.max_dimension = P::kMaxDimension;
        e.info.low = P::kLow;
        e.info.high = P::kHigh;
        e.info.optimum = P::kOptimum;
        e.evaluate = &evaluate_problem<P>;
    }
    return e;
}

// Every problem of problems/problems.cmake, in its order.
const std::vector<ProblemEntry>& all_problems() {
#define GAEVAL_LIST_PROBLEM(P) entry_of<P>(),
    static const std::vector<ProblemEntry> problems = {
        GAEVAL_FOR_EACH_PROBLEM(GAEVAL_LIST_PROBLEM)};
#undef GAEVAL_LIST_PROBLEM
    return problems;
}

std::vector<ProblemEntry> of_kind(bool words) {
    std::vector<ProblemEntry> out;
    for (const ProblemEntry& p : all_problems())
        if (p.info.words() == words) out.push_back(p);
    return out;
}

}  // namespace

const std::vector<ProblemEntry>& registered_problems() {
    static const std::vector<ProblemEntry> problems = of_kind(false);
    return problems;
}

const std::vector<ProblemEntry>& setup_problems() {
    static const std::vector<ProblemEntry> problems = of_kind(true);
    return problems;
}

std::string problem_names() {
    std::string names;
    for (const ProblemEntry& p : all_problems()) names += (names.empty() ? "" : ", ") + p.info.name;
    return names;
}

const ProblemEntry& find_problem(const std::string& name) {
    for (const auto* list : {&registered_problems(), &setup_problems()})
        for (const ProblemEntry& p : *list)
            if (p.info.name == name) return p;
    throw InputError("--problem: unknown problem '" + name + "' (registered: " + problem_names() +
                     ")");
}

}  // namespace gaeval::learn
