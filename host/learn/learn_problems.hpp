// The registered problems (problems/problems.cmake, problems/problem.hpp) on the host: what
// `gaeval learn --problem NAME` optimises with the schemes that run on problems, each problem's
// facts and its evaluation of a population through the executor on the run's backend.
//
// Two kinds: problems over real genes with fixed bounds (rastrigin, sphere: registered_problems),
// and problems built from a setup over word genomes (pile-in: setup_problems), whose entry builds
// a ProblemInstance from the setup flag's text (--scenario NAME|FILE) on the host.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <typeinfo>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "games/core/rng.hpp"
#include "host/backend/backend.hpp"

namespace gaeval::learn {

// Flags that shape a setup beyond the setup flag's text (pile-in-rules: --reach, --coherency,
// ...): a flag's name (without "--") to its text as typed.
using SetupOptions = std::map<std::string, std::string>;

struct ProblemInfo {
    std::string name, description;
    bool maximise = false;
    uint32_t default_dimension = 1, max_dimension = 1;
    float low = 0, high = 1;  // every gene's bounds (real genes)
    double optimum = 0;       // the best fitness (real genes; a setup's problem: NaN, unknown)
    // A problem built from a setup over 32-bit word genomes (P::Gene): the flag naming the
    // setup ("scenario"); empty for real genes.
    std::string setup_flag;
    bool words() const { return !setup_flag.empty(); }
    // Members when --population is not given (P::kDefaultPopulation); 0: the scheme's default.
    uint32_t default_population = 0;
    // How the setup flag's text reads (P::kSetupForm; default "NAME|FILE").
    std::string setup_form = "NAME|FILE";
    // The one scheme that breeds its genomes (P::kOnlyScheme: a genome with structure, such as
    // pile-in-rules' move order); empty: every scheme that runs on its kind of genome.
    std::string only_scheme;
    // The flags that shape the setup besides the setup flag (name without "--", help line):
    // pile-in-rules' rule flags, as `gaeval pile-in` has them; empty for most problems.
    std::vector<std::pair<std::string, std::string>> setup_options;
    // A member's value (higher is better) from its fitness, and the fitness back from a value:
    // the same exact negation for a minimised problem.
    double value_of(double fitness) const { return maximise ? fitness : -fitness; }
    double fitness_of(double value) const { return maximise ? value : -value; }
};

// A problem built from its setup (word genomes): the problem value and what made it.
class ProblemInstance {
  public:
    virtual ~ProblemInstance() = default;
    const std::string& problem() const { return problem_; }
    // What the setup flag named (a scenario's name) and the setup as run.json keeps it (the
    // entry's rebuild reads it back).
    const std::string& setup_name() const { return setup_name_; }
    const nlohmann::json& setup_json() const { return setup_json_; }
    // Genes of a genome (from the setup).
    virtual uint32_t dimension() const = 0;
    // fitness[i] of genome i of `genomes` (count x dimension words, genome-major) on `backend`:
    // one executor call, the same bits on either backend and at any thread count.
    virtual std::vector<double> evaluate(const BackendChoice& backend,
                                         const std::vector<uint32_t>& genomes,
                                         uint32_t count) const = 0;
    // Whether scoring rewrites the genomes it scores (pile-in-rules with repair constraints:
    // each plan repaired as it is scored); then the population must be scored through
    // evaluate_rewriting (or evaluate_on).
    virtual bool rewrites_genomes() const { return false; }
    // The fitness as evaluate(), each genome rewritten in place into the one it scored where
    // rewrites_genomes(); the same bits at any thread count and on either backend (the device
    // runs the rewriting op of kernels/problem_ops.cu; `gaeval learn` still refuses --backend
    // cuda with repair constraints until a GPU has run its tests).
    virtual std::vector<double> evaluate_rewriting(const BackendChoice& backend,
                                                   std::vector<uint32_t>& genomes,
                                                   uint32_t count) const {
        return evaluate(backend, genomes, count);
    }
    // The fitness of the first `count` genomes of `genomes`, which are in `backend`'s memory
    // (a population kept there: host/learn/word_population.hpp): one executor call, no copy of
    // the genomes; a problem that rewrites them (rewrites_genomes) rewrites them in place.
    virtual std::vector<double> evaluate_on(const BackendChoice& backend, uint32_t* genomes,
                                            uint32_t count) const = 0;
    // The same into fitness[0 .. count), also in the backend's memory: nothing copied to the
    // host (a population whose ranking reads its fitness where it lies).
    virtual void evaluate_into(const BackendChoice& backend, uint32_t* genomes, uint32_t count,
                               double* fitness) const = 0;
    // A fresh random gene addressed by (seed, purpose, c0, c1, c2) (the problem's random_gene).
    virtual uint32_t random_gene(uint64_t seed, Purpose purpose, uint32_t c0, uint32_t c1,
                                 uint32_t c2) const = 0;
    // The setup the problem was built from when it is a `Setup` (a scheme that breeds with the
    // setup's own operators: rules reads the pile_in::RulesProblem); nullptr otherwise.
    template <class Setup>
    const Setup* setup_as() const {
        return static_cast<const Setup*>(setup_if(typeid(Setup)));
    }
    // A genome as best.json describes it (pile-in: each model's start, move and end and the
    // score's breakdown).
    virtual nlohmann::json describe(const std::vector<uint32_t>& genome) const = 0;

  protected:
    ProblemInstance(std::string problem, std::string setup_name, nlohmann::json setup_json)
        : problem_(std::move(problem)),
          setup_name_(std::move(setup_name)),
          setup_json_(std::move(setup_json)) {}
    // The setup when its type is `type`, else nullptr (setup_as).
    virtual const void* setup_if(const std::type_info& type) const = 0;

  private:
    std::string problem_, setup_name_;
    nlohmann::json setup_json_;
};

struct ProblemEntry {
    ProblemInfo info;
    // Real genes: fitness[i] of genome i of `genomes` (count x dimension floats, genome-major)
    // on `backend`: one executor call (host/backend/executor.hpp), the same bits on either
    // backend and at any thread count. Null for a setup's problem.
    std::vector<double> (*evaluate)(const BackendChoice& backend, const std::vector<float>& genomes,
                                    uint32_t count, uint32_t dimension) = nullptr;
    // A setup's problem: the instance of the setup the flag's text and `options` (of
    // info.setup_options) name (InputError naming the flag or the file), and the instance of a
    // setup saved in run.json (InputError naming `where`). Null for real genes.
    std::shared_ptr<const ProblemInstance> build(const std::string& text,
                                                 const SetupOptions& options = {}) const {
        return make(text, options);
    }
    std::shared_ptr<const ProblemInstance> (*make)(const std::string& text,
                                                   const SetupOptions& options) = nullptr;
    std::shared_ptr<const ProblemInstance> (*rebuild)(const nlohmann::json& setup,
                                                      const std::string& where) = nullptr;
    // A setup's problem: its setup's type, and the instance of a setup already in memory named
    // `name` (`gaeval pile-in`'s population builds its problem so: instance_of_setup). Null for
    // real genes.
    const std::type_info* setup_type = nullptr;
    std::shared_ptr<const ProblemInstance> (*adopt)(const void* setup,
                                                    const std::string& name) = nullptr;
};

// Why islands refuse a problem that rewrites its genomes (the CLI before anything is written,
// the islands themselves for every other caller).
inline constexpr const char* kRewritingOnIslands =
    "--islands: repair constraints rewrite each plan as it is scored, and islands' gathered "
    "evaluations do not give the rewritten plans back (run one population)";

// The problems over real genes, in the order of problems/problems.cmake.
const std::vector<ProblemEntry>& registered_problems();
// The problems built from a setup (word genomes), in the order of problems/problems.cmake.
const std::vector<ProblemEntry>& setup_problems();
// "rastrigin, sphere, pile-in" (every problem, for help and errors).
std::string problem_names();
// The problem named `name` (either kind); InputError listing every problem otherwise.
const ProblemEntry& find_problem(const std::string& name);

// Problem `problem`, a setup's problem whose setup is a Setup, built from `setup` as it is
// (no file read, no check); std::logic_error when the problem has another kind of setup.
template <class Setup>
std::shared_ptr<const ProblemInstance> instance_of_setup(const std::string& problem,
                                                         const Setup& setup,
                                                         const std::string& name = "") {
    const ProblemEntry& e = find_problem(problem);
    if (!e.adopt || *e.setup_type != typeid(Setup))
        throw std::logic_error("problem " + problem + " is not built from this kind of setup");
    return e.adopt(&setup, name);
}

}  // namespace gaeval::learn
