// Learning the weights of a game's weighted player (games/core/players.hpp) with a genetic
// algorithm whose fitness is the outcome of games between members of the population. Every
// generation's games are played in batches by a PlayFn, which the run gives to a backend;
// everything else (schedules, value updates, selection, variation) is host code driven by addressed
// Philox draws keyed by (seed, generation, member, draw), so the learned weights depend on nothing
// but the configuration and the game results, which are bit-identical across backends.
//
// This file is the generic part: the configuration, the state and the driver (initial_state,
// validate, step). The schemes are plug-ins (host/learn/scheme.hpp), one file each under
// host/learn/schemes/, listed in host/learn/scheme_list.cpp:
//   genetic-game     9-bit fixed-point weights in one bitstring, an estimated value per member
//                    (take:P or winrate:K), truncation by value, one-point crossover anywhere
//                    in the bitstring, bit-flip mutation, offspring value = parents' mean.
//   paired-blend     real weights; N_R rounds of random pairs; bottom half blended toward the
//                    top half; local vs global best match; bottom s share <- global and local
//                    best; multiplicative mutation W_j <- W_j (1 + m_j).
//   ten-tournaments  10 round-robin tournaments of 10 random members, every pair in both
//                    seats; the top 3 of each are 30 parents; 12 averaged children and 3
//                    one-weight redraws replace the 15 weakest members of the generation.
//   modern           tournament selection (k), elitism (e), BLX-alpha or SBX crossover,
//                    gaussian mutation.
//   truncation-es    the example of docs/adding-a-scheme.md: the best share survives, the rest
//                    are gaussian steps from the survivors.
// docs/learn.md has the details and the reasons for each choice the seeds left open.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "games/core/match.hpp"
#include "host/games/session.hpp"

namespace gaeval::learn {

class ProblemInstance;  // host/learn/learn_problems.hpp

// ---- fixed point (genetic-game): 1 sign bit, 4 integer bits, 4 fraction bits ----------------
constexpr int kCodeBits = 9;
constexpr float kCodeMax = 15.9375f;  // 255 / 16
// The weight of a 9-bit code: (-1)^bit8 * (code & 0xff) / 16 (code 0x100 is -0.0).
float decode_weight(uint16_t code);
// The code nearest to w (|w| clamped to 15.9375, halves rounded away from zero); the sign bit
// is w's sign bit, so decode(encode(decode(c))) == decode(c) bit for bit for every code c.
uint16_t encode_weight(float w);

// ---- configuration ------------------------------------------------------------------------
// The scheme `gaeval learn` runs without --scheme.
constexpr const char* kDefaultScheme = "modern";

// Who plays whom (genetic-game and modern): every pair once (colours alternating by pair index),
// every pair twice with both colours, or each member against M opponents drawn at random.
struct TournamentSpec {
    enum Kind { RoundRobin, RandomOpponents } kind = RoundRobin;
    bool both_colours = false;
    uint32_t m = 0;  // RandomOpponents
};
// "round-robin", "round-robin:2" (both colours) or "random:M"; InputError otherwise.
TournamentSpec parse_tournament(const std::string& text);
std::string tournament_name(const TournamentSpec& t);

// genetic-game value update: the winner takes P% of the loser's value, or
// value += K x (win% - 50%) after the generation's games (draws count half).
struct ValueUpdate {
    enum Kind { Take, Winrate } kind = Take;
    double amount = 10;
};
ValueUpdate parse_value_update(const std::string& text);  // "take:P" or "winrate:K"
std::string value_update_name(const ValueUpdate& v);

struct LearnConfig {
    std::string scheme = kDefaultScheme;  // a registered scheme's name (host/learn/scheme.hpp)
    uint32_t population = 24;
    uint32_t generations = 40;
    uint64_t seed = 1;
    uint32_t weight_count = 0;  // weights of the game's weighted player
    std::vector<int> features;  // indexes of the weights the genome holds (others weigh 0)
    uint32_t max_plies = 400;   // a game still running is scored as it stands
    uint32_t depth = 1;         // plies the weighted player searches (a searching player's)
    // genetic-game and modern
    TournamentSpec tournament;
    // genetic-game
    ValueUpdate update;
    double initial_value = 100;
    double replace = 0.5;        // bottom share replaced by offspring each generation
    double bit_mutation = 0.01;  // per-bit flip probability of an offspring
    // paired-blend
    uint32_t rounds = 10;          // N_R
    double blend = 0.1;            // c
    double replace_best = 0.05;    // s
    double scale_mutation = 0.05;  // m
    // modern
    uint32_t tournament_size = 3;   // k
    uint32_t elites = 4;            // e
    std::string crossover = "blx";  // blx | sbx
    double crossover_rate = 0.9;
    double blx_alpha = 0.5;
    double sbx_eta = 15;
    double gene_mutation = 0.2;  // per-gene probability of a gaussian step
    double sigma = 0.5;          // step size
    // real-valued schemes: initial weights uniform in [init_low, init_high]
    double init_low = -1, init_high = 1;
    // paired-blend `--init game`: member m starts from start_weights[j] * (1 + m_j), m_j
    // uniform in (-m, m) (the scheme's mutation rule), one per genome weight; empty: uniform
    // in the init range.
    std::vector<float> start_weights;
    // Tests only (no flag, not saved): every game's result is a fair coin (Generation::play), so
    // any scheme's selection is blind: the broken learner the learning tests must tell apart.
    bool blind_selection = false;
    // Settings of schemes that have no field above (plug-ins: docs/adding-a-scheme.md), by name.
    std::map<std::string, double> params;
    // A registered problem's name (host/learn/learn_problems.hpp; `gaeval learn --problem`):
    // the genome is weight_count floats in the problem's bounds, scored by its fitness through
    // Generation::evaluate instead of games; empty: a game's weighted player.
    std::string problem;
    // A problem built from a setup (ProblemInfo::words: pile-in from --scenario): the problem
    // itself; its genomes are weight_count words (LearnState::words), evaluated through
    // Generation::evaluate_words. Null otherwise.
    std::shared_ptr<const ProblemInstance> instance;
    // Host threads a scheme may initialize and breed on (<= 0: every core), e.g. the cpu
    // backend's threads; every draw is addressed, so the results do not depend on it. Not saved.
    int threads = 1;

    uint32_t dims() const { return static_cast<uint32_t>(features.size()); }
};

// The scheme's defaults for the fields it reads (ten-tournaments: initial weights in [0, 10]).
// Every weight of the game (weight_count of them) in the genome. InputError for a scheme that
// is not registered.
LearnConfig default_config(const std::string& scheme, uint32_t weight_count);
// The defaults of `scheme` on problem `problem` (a registered one) of `dimension` genes: the
// first population uniform in the problem's bounds. InputError for an unknown scheme or problem.
LearnConfig problem_config(const std::string& scheme, const std::string& problem,
                           uint32_t dimension);
// The defaults of `scheme` on a problem built from a setup (`instance`): its dimension, word
// genomes.
LearnConfig problem_config(const std::string& scheme,
                           std::shared_ptr<const ProblemInstance> instance);

// Checks every field against its range and the population against the scheme (round-robin
// needs 2, paired-blend an even number >= 4, ten-tournaments at least 10, random:M needs M <
// population); InputError naming the flag otherwise.
void validate(const LearnConfig& c);

// Games one generation plays (both batches for paired-blend); for sizing and progress lines.
// On a problem: the population (one evaluation a member).
uint64_t games_per_generation(const LearnConfig& c);

// ---- state --------------------------------------------------------------------------------
struct LearnState {
    uint32_t generation = 0;          // generations completed
    std::vector<float> weights;       // population x dims, member-major
    std::vector<uint16_t> codes;      // genetic-game: population x dims 9-bit codes
    std::vector<double> value;        // genetic-game: estimated values; else last fitness
    std::vector<float> global_best;   // paired-blend: dims weights once a generation ran
    std::vector<float> best_weights;  // the last generation's best member (what is exported)
    double best_value = 0;            // its value (genetic-game) or fitness (score in [0, 1])
    double mean_value = 0;            // mean over the evaluated population
    uint64_t games = 0, plies = 0;    // played in total (resumed runs included)
    // A problem built from a setup (LearnConfig::instance): the population's word genomes
    // (population x dims, member-major; `weights` is then empty) and the last generation's best.
    std::vector<uint32_t> words, best_words;
    // Scratch a scheme breeds the next word genomes into before swapping it with `words`: kept
    // between generations so that a large population's memory is not allocated (and faulted in)
    // again every generation. Not saved; its contents mean nothing.
    std::vector<uint32_t> spare_words;
};

LearnState initial_state(const LearnConfig& c);

// Plays `pairings` among `players` with game draws keyed by `seed`; records[i] is game i.
using PlayFn =
    std::function<std::vector<GameRecord>(const std::vector<games::PlayerData>& players,
                                          const std::vector<Pairing>& pairings, uint64_t seed)>;

// The fitness of the first `count` genomes of `genomes` (count x dims floats, member-major)
// under the run's problem: fitness[i] is genome i's.
using EvaluateFn =
    std::function<std::vector<double>(const std::vector<float>& genomes, uint32_t count)>;

// The same over word genomes (a problem built from a setup: LearnConfig::instance); a problem
// whose scoring rewrites genomes (ProblemInstance::rewrites_genomes: repair constraints) leaves
// each genome in `genomes` as it scored it.
using EvaluateWordsFn =
    std::function<std::vector<double>(std::vector<uint32_t>& genomes, uint32_t count)>;

// Per-generation facts for generations.csv and the progress line.
struct GenerationReport {
    uint64_t games = 0, plies = 0, stopped = 0;
    uint32_t children = 0, mutants = 0;  // new members this generation
    bool global_replaced = false;        // paired-blend: the local best beat the global best
};

// Plays generation state.generation and advances the state by one generation.
GenerationReport step(const LearnConfig& c, LearnState& state, const PlayFn& play);
// The same on a problem (c.problem): the scheme scores members through `evaluate`, and every
// gene of the next population is clamped into the problem's bounds.
GenerationReport step(const LearnConfig& c, LearnState& state, const PlayFn& play,
                      const EvaluateFn& evaluate);
// The same on a problem built from a setup (word genomes, no bounds to clamp to).
GenerationReport step(const LearnConfig& c, LearnState& state, const EvaluateWordsFn& evaluate);

// The weighted player of a weight vector over c.features (c.weight_count weights in all).
games::PlayerData player_of(const LearnConfig& c, const float* weights);

// The game-draw key of batch `phase` of generation `generation` (verification uses phases
// 16 + opponent).
uint64_t batch_seed(uint64_t seed, uint32_t generation, uint32_t phase);

// Schedules (exposed for tests).
std::vector<Pairing> tournament_schedule(const LearnConfig& c, uint32_t generation);
std::vector<Pairing> paired_rounds_schedule(const LearnConfig& c, uint32_t generation);

}  // namespace gaeval::learn
