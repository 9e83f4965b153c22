// The plug-in interface of a learning scheme and the toolkit its file may use.
//
// A scheme is one file, host/learn/schemes/<name>.cpp: a class derived from Scheme (selection,
// variation and replacement over the population of weight vectors, its defaults, name, one-line
// description and CLI flags) and a function returning its one instance, listed in one line of
// host/learn/scheme_list.cpp. The generic driver (host/learn/learn.cpp: step, initial_state,
// validate; host/learn/learn_run.cpp: verification, statistics, checkpoints) calls it through
// this interface; nothing else names a scheme. docs/adding-a-scheme.md walks through one.
//
// Determinism: a scheme draws every random number with draw() (Philox keyed by the run seed,
// counter = (purpose, generation, a, b, c)) and plays only through Generation::play, so the
// learned weights depend on nothing but the configuration and the game results, which are
// bit-identical across backends.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "games/core/rng.hpp"
#include "host/backend/backend.hpp"
#include "host/learn/learn.hpp"

namespace gaeval::learn {

class WordPopulation;  // host/learn/word_population.hpp

// Children [first, first + count) of a generation (a scheme's breed_words_on breeds them), or,
// with `children` (count of them, in the backend's memory), children[0 .. count).
struct ChildSpan {
    uint32_t first = 0;
    uint32_t count = 0;
    const uint32_t* children = nullptr;
};
// Every child of a generation of c.population members.
inline ChildSpan whole_generation(const LearnConfig& c) { return ChildSpan{0, c.population}; }

// One command-line flag of a scheme. Several schemes may share a flag name (--mutation): each
// sets its own field, and `gaeval learn --help` joins the helps.
struct SchemeOption {
    const char* flag;  // without "--"
    const char* help;  // what it sets and its default, e.g. "k (3)"
    // Parses `text` into `c` (InputError naming the flag on bad text); `game` is the game being
    // learned (for flags that read its start weights).
    void (*set)(LearnConfig& c, const std::string& text, const games::GameInfo& game);
    const char* cli_default = nullptr;  // a value applied when the flag is not given, if any
};

// What a scheme's step plays its games through: the run's PlayFn, with the generation's
// game-draw keys (batch `phase` of this generation) and the games counted in the report and
// the state.
// On a problem (LearnConfig::problem) it evaluates genomes instead: evaluate() runs the problem's
// fitness over them on the run's backend, counted as evaluations (report.games, state.games).
class Generation {
  public:
    Generation(const LearnConfig& c, LearnState& s, const PlayFn& play,
               const EvaluateFn* evaluate = nullptr,
               const EvaluateWordsFn* evaluate_words = nullptr, WordPopulation* resident = nullptr)
        : config_(c),
          state_(s),
          play_(play),
          evaluate_(evaluate),
          evaluate_words_(evaluate_words),
          resident_(resident) {}
    std::vector<GameRecord> play(const std::vector<games::PlayerData>& players,
                                 const std::vector<Pairing>& pairings, uint32_t phase);
    // Whether the run optimises a problem (evaluate) rather than a game's player (play).
    bool on_problem() const {
        return evaluate_ != nullptr || evaluate_words_ != nullptr || resident_ != nullptr;
    }
    // The problem's fitness of the first `count` genomes of `genomes` (count x dims floats);
    // with LearnConfig::blind_selection, uniform numbers in [0, 1) addressed by (generation,
    // genome) instead. std::logic_error on a game run.
    std::vector<double> evaluate(const std::vector<float>& genomes, uint32_t count);
    // The same over word genomes (count x dims words), on a problem built from a setup; a
    // problem that rewrites genomes as it scores them (repair constraints) rewrites `genomes`.
    std::vector<double> evaluate_words(std::vector<uint32_t>& genomes, uint32_t count);
    // A run whose word genomes stay on its backend (host/learn/word_population.hpp): the
    // population, which holds the genomes instead of LearnState::words (then stale until the
    // run copies them back); nullptr otherwise. A scheme that breeds_words_on_backend scores
    // it with score_population and breeds it with WordPopulation::breed.
    WordPopulation* resident() const { return resident_; }
    // Its members' fitness (the blind control's numbers with LearnConfig::blind_selection).
    std::vector<double> evaluate_resident();
    GenerationReport report;  // the scheme adds children, mutants, global_replaced

  private:
    const LearnConfig& config_;
    LearnState& state_;
    const PlayFn& play_;
    const EvaluateFn* evaluate_;
    const EvaluateWordsFn* evaluate_words_;
    WordPopulation* resident_;
    // The blind control's fitness of `count` genomes (LearnConfig::blind_selection).
    std::vector<double> blind_fitness(uint32_t count) const;
};

class Scheme {
  public:
    virtual ~Scheme() = default;
    virtual const char* name() const = 0;         // the --scheme value
    virtual const char* description() const = 0;  // one line for --help
    virtual std::vector<SchemeOption> options() const { return {}; }
    // Sets the fields the scheme reads to its defaults (default_config has set the rest).
    virtual void set_defaults(LearnConfig&) const {}
    // InputError naming the flag for a setting out of range; the generic checks have run.
    virtual void validate(const LearnConfig&) const {}
    // Games one generation plays (every batch), for sizing and progress lines.
    virtual uint64_t games_per_generation(const LearnConfig& c) const = 0;
    // The first population: weights (and codes, values); default: every weight uniform in
    // [init_low, init_high] from draw (SchemeInit, m, j), values 0.
    virtual void initialize(const LearnConfig& c, LearnState& s) const;
    // Plays generation s.generation through `games` and replaces s's population with the next
    // one; sets s.best_weights, s.best_value, s.mean_value and s.value (one per member).
    virtual void step(const LearnConfig& c, LearnState& s, Generation& games) const = 0;
    // Whether step() runs on a problem (scores members with score_population, so that on a
    // problem it evaluates instead of playing); schemes whose selection is games between members
    // (pairs, value updates, duels) leave it false and `--problem` refuses them.
    virtual bool runs_on_problems() const { return false; }
    // Whether step() also runs on a problem built from a setup, whose genomes are words
    // (LearnState::words; problems/problem.hpp: P::Gene): gapi1. Such a problem refuses the
    // other schemes.
    virtual bool runs_on_words() const { return false; }
    // Whether the scheme's selection is a ranking of the members by value, best first, ties by
    // index (gapi1, rules), so that breed_ranked() (or breed_words_on) can make the next
    // population from any such ranking: `gaeval pile-in` drives the scheme so
    // (host/pile_in/engine_population.cpp, through host/learn/word_population.hpp).
    virtual bool breeds_by_rank() const { return false; }
    // Replaces s's genomes with generation `made` bred from the current ones ranked by `order`
    // (best first; the scheme's variation and replacement, c.threads threads); returns the
    // members a mutation hit (0 where the scheme does not count them). std::logic_error where
    // breeds_by_rank() is false.
    virtual uint32_t breed_ranked(const LearnConfig& c, uint32_t made,
                                  const std::vector<uint32_t>& order, LearnState& s) const;
    // Whether breed_words_on runs: the scheme breeds word genomes (LearnConfig::instance) as an
    // executor op over children (kernels/breed_ops.hpp), so a population may stay in its
    // backend's memory between generations (host/learn/word_population.hpp): gapi1, rules.
    virtual bool breeds_words_on_backend() const { return false; }
    // Writes children [span.first, span.first + span.count) of generation `made`, bred from
    // `src` ranked by `ranked` (best first), into slots 0 .. span.count - 1 of `dst` (c.dims()
    // words a slot, member-major) and hit[slot], whether a mutation hit the child: one executor
    // call on `backend`, every pointer in its memory; the bits breed_ranked gives. A whole
    // generation is whole_generation(c); a chunk of it reads the same parents (ranks below
    // ranks_bred_from(c)). std::logic_error where breeds_words_on_backend() is false.
    virtual void breed_words_on(const BackendChoice& backend, const LearnConfig& c, uint32_t made,
                                const uint32_t* ranked, const uint32_t* src, ChildSpan span,
                                uint32_t* dst, uint8_t* hit) const;
    // How many of the best ranks breed_words_on reads parents from (gapi1, rules: the
    // survivors); c.population where the scheme does not say.
    virtual uint32_t ranks_bred_from(const LearnConfig& c) const { return c.population; }
    // Writes members `span` of generation 0 (what initialize gives them, config c) into slots
    // 0 .. span.count - 1 of `dst` (member-major, dst in the backend's memory): one executor
    // call. std::logic_error where streams_survivors() is false.
    virtual void initialize_words_on(const BackendChoice& backend, const LearnConfig& c,
                                     ChildSpan span, uint32_t* dst) const;
    // Whether a population of word genomes may keep only its survivors between generations and
    // make any member again from the seed and them (host/learn/word_population.hpp's streamed
    // layout): initialize_words_on runs, and breed_words_on reads only the ranks below
    // ranks_bred_from. gapi1 and rules; not a scheme whose breeding reads every member.
    virtual bool streams_survivors() const { return false; }
    // Genomes are 9-bit codes (LearnState::codes, weights decoded from them), not floats:
    // islands migrate the codes, checkpoints must hold them.
    virtual bool bit_codes() const { return false; }
    // The scheme's settings in run.json's "config" object, and back (InputError naming
    // `where` and the field on a missing or bad one).
    virtual void write_settings(const LearnConfig&, nlohmann::json&) const {}
    virtual void read_settings(LearnConfig&, const nlohmann::json&, const std::string&) const {}

    bool has_option(const std::string& flag) const;
};

// The registered schemes in the order of host/learn/scheme_list.cpp.
const std::vector<const Scheme*>& registered_schemes();
// "genetic-game, paired-blend, ..." (for help and errors).
std::string scheme_names();
// The scheme named `name`; InputError listing the registered ones otherwise.
const Scheme& find_scheme(const std::string& name);
// The scheme of a configuration.
inline const Scheme& scheme_of(const LearnConfig& c) { return find_scheme(c.scheme); }

// ---- toolkit for scheme files ----------------------------------------------------------------

// Draw (purpose, generation g; a, b, d) of the run: key = seed, counter = (g, a, b, d).
inline Random4 draw(const LearnConfig& c, Purpose p, uint32_t g, uint32_t a, uint32_t b,
                    uint32_t d = 0) {
    return philox(c.seed, p, g, a, b, d);
}
// Uniform in [0, 1) from words k, k+1 of a draw (53 bits).
double unit(const Random4& r, int k);
// A standard normal variate from words 0..3 of a draw (Box-Muller, first output).
double normal(const Random4& r);
// Member indexes sorted by key descending, ties by index ascending.
std::vector<uint32_t> rank_desc(const std::vector<double>& key);
// The first `take` entries of a uniformly random permutation of 0..n-1 (Fisher-Yates; draw i
// from (Schedule, g, tag, i, 1)).
std::vector<uint32_t> permutation(const LearnConfig& c, uint32_t g, uint32_t tag, uint32_t n,
                                  uint32_t take);
double mean_of(const std::vector<double>& v);
// The weights of member m (d of them).
std::vector<float> member(const LearnState& s, uint32_t m, uint32_t d);
// The weighted players of the first `count` members.
std::vector<games::PlayerData> players_of(const LearnConfig& c, const std::vector<float>& weights,
                                          uint32_t count);

// Per-player score (wins + draws / 2), games and wins of a batch; member_of maps batch players
// to members.
struct Tally {
    std::vector<double> score;
    std::vector<uint32_t> games, wins;
    explicit Tally(size_t n) : score(n, 0), games(n, 0), wins(n, 0) {}
    void add(const std::vector<Pairing>& pairs, const std::vector<GameRecord>& rec,
             const std::vector<uint32_t>* member_of = nullptr);
    double fraction(uint32_t m) const { return games[m] ? score[m] / games[m] : 0.0; }
};

// Plays `pairs` among the population as batch 0, sets every member's value to its score
// fraction and the mean value; returns the members ranked by value.
std::vector<uint32_t> play_and_score(const LearnConfig& c, LearnState& s, Generation& games,
                                     const std::vector<Pairing>& pairs);

// The generation's fitness of every member, for selection: on a problem the problem's fitness
// (over LearnState::words on a problem built from a setup, or the resident population's)
// (value = fitness when maximised, -fitness when minimised: higher is better), otherwise
// play_and_score over tournament_schedule(c, generation). Sets s.value and s.mean_value; returns
// the members ranked by value (rank_desc).
std::vector<uint32_t> score_population(const LearnConfig& c, LearnState& s, Generation& games);
// Schemes that run on problems: "modern, truncation-es, gapi1"; on word genomes: "gapi1".
std::string problem_scheme_names();
std::string word_scheme_names();

// genetic-game's and modern's (and any scheme reading c.tournament) checks: the population is
// at least 2 and random:M has M below it (InputError naming the flag).
void validate_tournament(const LearnConfig& c);
// Games of tournament_schedule (learn.hpp) per generation.
uint64_t tournament_games(const LearnConfig& c);
// The --tournament flag of every scheme that reads c.tournament (default round-robin:2).
inline SchemeOption tournament_option() {
    return {"tournament", "round-robin | round-robin:2 (both colours; the default) | random:M",
            [](LearnConfig& c, const std::string& t, const games::GameInfo&) {
                c.tournament = parse_tournament(t);
            },
            "round-robin:2"};
}

// Flag parsers with the CLI's messages ("--NAME 'TEXT': expected a number", ...).
double parse_real_flag(const std::string& flag, const std::string& text);
int64_t parse_integer_flag(const std::string& flag, const std::string& text, int64_t min,
                           int64_t max);
// "--init-range LOW:HIGH" into c.init_low, c.init_high.
void parse_init_range(LearnConfig& c, const std::string& text);
// run.json's optional "init_range": [low, high] into c.
void read_init_range(LearnConfig& c, const nlohmann::json& j);

}  // namespace gaeval::learn
