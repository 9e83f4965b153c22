// The registered problems (problems/problems.cmake, problems/problem.hpp) on the host: what
// `gaeval learn --problem NAME` optimises with the schemes that run on problems, each problem's
// facts and its evaluation of a population through the executor on the run's backend.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "host/backend/backend.hpp"

namespace gaeval::learn {

struct ProblemInfo {
    std::string name, description;
    bool maximise = false;
    uint32_t default_dimension = 1, max_dimension = 1;
    float low = 0, high = 1;  // every gene's bounds
    double optimum = 0;       // the best fitness
    // A member's value (higher is better) from its fitness, and the fitness back from a value:
    // the same exact negation for a minimised problem.
    double value_of(double fitness) const { return maximise ? fitness : -fitness; }
    double fitness_of(double value) const { return maximise ? value : -value; }
};

struct ProblemEntry {
    ProblemInfo info;
    // fitness[i] of genome i of `genomes` (count x dimension floats, genome-major) on `backend`:
    // one executor call (host/backend/executor.hpp), the same bits on either backend and at any
    // thread count.
    std::vector<double> (*evaluate)(const BackendChoice& backend, const std::vector<float>& genomes,
                                    uint32_t count, uint32_t dimension);
};

// In the order of problems/problems.cmake.
const std::vector<ProblemEntry>& registered_problems();
// "rastrigin, sphere" (for help and errors).
std::string problem_names();
// The problem named `name`; InputError listing the registered ones otherwise.
const ProblemEntry& find_problem(const std::string& name);

}  // namespace gaeval::learn
