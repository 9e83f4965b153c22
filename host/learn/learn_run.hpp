// A whole `gaeval learn` job: the scheme (host/learn/learn.hpp), games on a backend, the run
// folder (run.json, generations.csv, verification.csv, learning.svg, weights.json,
// checkpoint.bin written every generation), progress lines on stderr, verification of the best
// member against the game's built-in players (random and each policy), graceful interruption
// and resume.
// The CLI parses flags into a LearnJob; tests and `gaeval compare learn` call run_learn directly.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "host/backend/backend.hpp"
#include "host/games/play.hpp"
#include "host/games/session.hpp"
#include "host/learn/learn.hpp"

namespace gaeval::learn {

struct LearnJob {
    LearnConfig config;
    // The game and its start position (the CLI or the run folder opens it); null on a problem
    // (config.problem: no games, no panel or verification; the run folder holds run.json,
    // generations.csv, learning.svg, best.json and checkpoint.bin).
    std::shared_ptr<const games::GameSession> session;
    BackendChoice backend;
    uint32_t verify_every = 10;    // 0: only after the last generation
    uint32_t verify_games = 1000;  // per opponent; 0: no verification
    uint32_t panel_games = 50;     // per built-in player each generation (panel_score); 0: none
    std::string out_dir;           // empty: no files (tests, compare)
    bool quiet = false;
    bool resume = false;  // continue from out_dir/checkpoint.bin
    std::string command_line;
};

// One verification: the best member (A) against an opponent, colours alternating.
struct VerifyRow {
    uint32_t generation = 0;
    std::string opponent;
    uint64_t games = 0, wins = 0, draws = 0, losses = 0;
    double win_rate = 0, low = 0, high = 0;  // wins / games and its 95% Wilson interval
};

// One generation's line of generations.csv.
struct GenerationRow {
    uint32_t generation = 0;  // 1-based: generations completed
    GenerationReport report;
    double best_value = 0, mean_value = 0, seconds = 0;
    double panel_score = -1;  // the best member against the reference panel (-1: none)
    std::vector<float> best_weights;
    std::vector<uint32_t> best_words;  // a setup's problem (word genomes): the best genome
};

// generations.csv: its header (no newline; a weight column per feature) and one row's line.
std::string generations_csv_header(const games::GameInfo& game, const LearnConfig& c);
std::string generations_csv_line(const GenerationRow& row);
// The same for a problem run (LearnConfig::problem): evaluations instead of games, the
// problem's fitness (its own sign) instead of values, a column x0.. per gene.
std::string problem_generations_csv_header(const LearnConfig& c);
std::string problem_generations_csv_line(const LearnConfig& c, const GenerationRow& row);
// best.json of a problem run: the best member's genome, its fitness (from its value,
// best_value) and the generation count done; with `rows` (a plain run's generations) also
// "best_ever": the best genome of all generations (the first to reach its value) and the
// generation that evaluated it (0-based, as `gaeval pile-in` counts). A setup's problem (word
// genomes) writes best_words as its genome and the problem's description of it ("plan").
std::string problem_best_json(const LearnJob& job, uint32_t generation, double best_value,
                              const std::vector<float>& genome,
                              const std::vector<uint32_t>& best_words = {},
                              const std::vector<GenerationRow>* rows = nullptr);

struct LearnResult {
    LearnState state;
    std::vector<GenerationRow> generations;  // every generation of the run (resumes included)
    std::vector<VerifyRow> verification;
    bool interrupted = false;
    double seconds = 0;  // this invocation
};

// Runs (or resumes) the job. Bad input (unwritable folder, a checkpoint that does not match
// or is corrupt, a folder that already holds a run when not resuming) is an InputError raised
// before any file is written.
LearnResult run_learn(const LearnJob& job);

// The checks run_learn makes before writing anything (configuration, run folder, checkpoint),
// without running: the CLI calls it before it announces the backend.
void check_job(const LearnJob& job);

// Everything that determines the learned weights (configuration, game, seed); a checkpoint only
// resumes a job with the same fingerprint.
uint64_t learn_fingerprint(const LearnJob& job);

// run.json of a job, and the job back from a run folder (for --resume; InputError when missing
// or not a learn run). The backend is not part of it: --resume takes the current flags'.
nlohmann::json learn_run_json(const LearnJob& job);
LearnJob learn_job_from_folder(const std::string& dir);

// The verification opponents (random, then the game's policies in order, then each verify
// table's, GameInfo::verify_tables, named "<opponent> <label>"), the request of verification
// batch `opponent` for the best member of `state` (draws keyed by seed, generation, opponent)
// and the session it plays on (the job's, or the verify table's setup).
std::vector<std::string> verify_opponents(const LearnJob& job);
games::PlayRequest verify_request(const LearnJob& job, const LearnState& state, int opponent);
std::shared_ptr<const games::GameSession> verify_session(const LearnJob& job, int opponent);
// The verification of the best member of `state` (its best_weights, at its generation): one
// row per verify_opponents entry; the batches on the job's setup are one backend call (a
// generation's panel games join them: run_learn), a verify table's one call each.
std::vector<VerifyRow> verify_best(const LearnJob& job, const LearnState& state);

// Wilson 95% interval of a proportion (wins out of games).
void wilson_interval(uint64_t wins, uint64_t games, double* low, double* high);

}  // namespace gaeval::learn
