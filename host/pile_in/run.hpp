// A whole pile-in job: engine + backend + the run folder (run.json, generations.csv,
// best.json, picture.svg, checkpoint.bin), progress on stderr, graceful interruption and
// resume. The CLI parses flags into PileInJob; tests and `gaeval compare` call run_job directly.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "host/backend/backend.hpp"
#include "host/pile_in/engine.hpp"
#include "host/pile_in/scenario_io.hpp"

namespace gaeval::pile_in {

struct PileInJob {
    ScenarioFile scenario;
    GaConfig ga;
    std::string rules = "gapi1";  // gapi1 or a preset aos1..aos4 (host/pile_in/rules.hpp)
    RuleOverrides overrides;      // rule flags: --reach, --coherency, --direction, ...
    std::string solver = "ga";    // ga, or greedy (rules presets: the baseline alone)
    BackendChoice backend;
    std::string out_dir;
    double checkpoint_every_seconds = 60;  // 0: every generation
    bool checkpoint_at_end = true;
    uint32_t log_every = 1;  // generations.csv keeps every N-th generation (and the last)
    bool quiet = false;  // no progress lines
    std::string command_line;
    bool resume = false;  // continue from out_dir/checkpoint.bin
};

struct JobResult {
    BestPlan best;
    uint32_t generations_done = 0;  // generations evaluated in total (resumed runs included)
    bool interrupted = false;
    double seconds = 0;  // this invocation
    double evaluations_per_second = 0;
    GenerationStats last;  // statistics of the last evaluated generation
    // Rules presets: the validator's verdict on the returned plan, and the greedy baseline's.
    bool rules = false;
    bool legal = true;
    int in_range_count = 0;  // validated
    std::vector<std::string> violations;
    int greedy_in_range_count = -1;  // -1: no baseline (GAPI1)
    bool greedy_legal = true;
};

// Runs (or resumes) the job. Bad input (unwritable folder, a checkpoint that does not match)
// is an InputError raised before any result file is written.
JobResult run_job(const PileInJob& job);

// Reads a run folder's run.json back into a job (for --resume); InputError when missing or
// not a pile-in run.
PileInJob job_from_run_folder(const std::string& dir);

// Fingerprint of everything that determines the results (scenario in mm, GA settings, seed,
// rules); a checkpoint only resumes a run with the same fingerprint.
uint64_t job_fingerprint(const PileInJob& job);

// The scenario a job plays (GAPI1 with its --reach / --coherency overrides) and its rules
// problem (a preset) or nullopt (GAPI1); InputError on rule flags GAPI1 has no use for.
std::optional<RulesProblem> prepare_problem(const PileInJob& job, Scenario* scenario);

// best.json and picture.svg in job.out_dir for result.best (result.generations_done set); a
// rules preset also judges the plan (and takes the greedy plan when the validator prefers it),
// filling result's rules fields.
void write_best_outputs(const PileInJob& job, const Scenario& scenario, const RulesProblem* rules,
                        JobResult& result);

// run.json of a job as a run starts (status running); resumed_at: 0 or the generation resumed.
nlohmann::json job_manifest(const PileInJob& job, const RulesProblem* problem,
                            uint32_t resumed_at);

// The JSON object --json prints for a finished job.
nlohmann::json result_json(const PileInJob& job, const JobResult& result);

}  // namespace gaeval::pile_in
