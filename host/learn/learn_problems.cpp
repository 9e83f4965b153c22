#include "host/learn/learn_problems.hpp"

#include "generated/problem_list.hpp"
#include "host/backend/executor.hpp"
#include "host/core/error.hpp"
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

template <class P>
ProblemEntry entry_of() {
    static_assert(problems::check_problem<P>());
    ProblemEntry e;
    e.info.name = P::kName;
    e.info.description = P::kDescription;
    e.info.maximise = P::kMaximise;
    e.info.default_dimension = P::kDefaultDimension;
    e.info.max_dimension = P::kMaxDimension;
    e.info.low = P::kLow;
    e.info.high = P::kHigh;
    e.info.optimum = P::kOptimum;
    e.evaluate = &evaluate_problem<P>;
    return e;
}

}  // namespace

const std::vector<ProblemEntry>& registered_problems() {
#define GAEVAL_LIST_PROBLEM(P) entry_of<P>(),
    static const std::vector<ProblemEntry> problems = {
        GAEVAL_FOR_EACH_PROBLEM(GAEVAL_LIST_PROBLEM)};
#undef GAEVAL_LIST_PROBLEM
    return problems;
}

std::string problem_names() {
    std::string names;
    for (const ProblemEntry& p : registered_problems())
        names += (names.empty() ? "" : ", ") + p.info.name;
    return names;
}

const ProblemEntry& find_problem(const std::string& name) {
    for (const ProblemEntry& p : registered_problems())
        if (p.info.name == name) return p;
    throw InputError("--problem: unknown problem '" + name + "' (registered: " + problem_names() +
                     ")");
}

}  // namespace gaeval::learn
