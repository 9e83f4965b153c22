#include "host/gomoku/entry.hpp"

#include <string>

#include "host/core/error.hpp"

namespace gaeval::gomoku {

namespace {

// Indexed by rank (players.hpp), then K; part of the player file format: append, never rename.
constexpr const char* kWeightNames[kWeightCount] = {
    "r1_own1",          "r2_enemy1",        "r3_1_own2_enemy2", "r3_2_own2_enemy3",
    "r3_3_own2_enemy4", "r4_1_own3_enemy2", "r4_2_own4_enemy2", "r5_1_own3_enemy3",
    "r5_2_own3_enemy4", "r6_1_own4_enemy3", "r6_2_own4_enemy4", "k_acceptance",
};

// K of the first members of `gaeval learn --init game`: the seed table's K is 0, which the
// multiplicative mutation W (1 + m) could never move.
constexpr float kLearnStartAcceptance = 0.1f;

games::GameInfo make_info() {
    games::GameInfo info;
    info.name = "gomoku";
    info.summary =
        "Gomoku (five in a row) on 15x15 and 20x20, freestyle and standard rules, opening set; "
        "the seed's reward-table player";
    for (const char* name : kWeightNames) info.weight_names.push_back(name);
    info.weighted_player =
        "reward table: a move is worth the reward of its (own level, enemy level) rank; K "
        "accepts ranks within K |best| of the best; depth 2 or more: weighted-search, the same "
        "table inside a threat search (fives, blocks, VCF for both sides) with a positional term";
    info.policy_names = {"seed-table", "threat-search"};
    info.perft = false;
    info.options = {
        {"board", "board size: 15 | 20 (15x15, 20x20)", "15"},
        {"rules", "freestyle (five or more wins) | standard (exactly five)", "freestyle"},
        {"opening",
         "centre (2-4 random stones in the central 7x7, both colours per opening) | "
         "none (empty board)",
         "centre"},
    };
    // The seed's scheme and settings (docs/gomoku.md: ranges N 10-100 even, N_R 10-100,
    // T 20-500, c 0.01-0.3, s 0.02-0.1, m 0.01-0.1), learning the table inside the threat
    // search (depth 2: the table alone, depth 1, cannot beat its own seed table, "The targets").
    info.learn_defaults = {{"scheme", "paired-blend"}, {"depth", "2"},        {"population", "30"},
                           {"rounds", "10"},           {"generations", "60"}, {"blend", "0.1"},
                           {"replace", "0.1"},         {"mutation", "0.05"},  {"init", "game"},
                           {"verify-every", "10"}};
    for (int r = 0; r < kRanks; ++r) info.initial_weights.push_back(seed_reward(r));
    info.initial_weights.push_back(kLearnStartAcceptance);
    return info;
}

const games::GameInfo& info() {
    static const games::GameInfo value = make_info();
    return value;
}

nlohmann::json setup_json(const Setup& setup) {
    return {{"game", "gomoku"},
            {"board", std::to_string(setup.size)},
            {"rules", rules_name(setup.rule)},
            {"opening", opening_name(setup.opening)}};
}

template <int N>
std::unique_ptr<games::GameSession> make_session(const Setup& setup) {
    Game<N> game;
    game.rule = setup.rule;
    game.opening = setup.opening;
    auto session = std::make_unique<games::TypedSession<Game<N>>>(
        info(), setup_json(setup),
        "gomoku " + std::to_string(N) + "x" + std::to_string(N) +
            " (W=" + std::to_string(Geometry<N>::kWords) + ")",
        game, game.start());
    session->set_description("on " + std::to_string(N) + "x" + std::to_string(N) + ", " +
                             rules_name(setup.rule) + " rules, " + opening_name(setup.opening) +
                             " openings");
    return session;
}

class Entry final : public games::GameEntry {
  public:
    const games::GameInfo& info() const override { return gomoku::info(); }

    std::unique_ptr<games::GameSession> open(
        const std::map<std::string, std::string>& options) const override {
        auto value = [&](const std::string& name) { return option(options, name); };
        Setup setup;
        setup.size = parse_board(value("board"));
        setup.rule = parse_rules(value("rules"));
        setup.opening = parse_opening(value("opening"));
        return open_session(setup);
    }

    games::BenchCases bench_cases() const override {
        games::BenchCases cases;
        cases.in_default = true;
        const nlohmann::json board15 = {{"board", "15"}};
        games::PlayerData random;
        random.label = "random";
        games::PlayerData seed_table;
        seed_table.kind = PlayerKind::Policy;
        seed_table.policy = kSeedTable;
        seed_table.label = "seed-table";
        games::PlayerData threat_search = seed_table;
        threat_search.policy = kThreatSearch;
        threat_search.label = "threat-search";
        cases.playouts = {
            {"random", "gomoku 15x15", board15, random, random, 2000, 1u << 20},
            {"seed-table-vs-threat-search", "gomoku 15x15", board15, seed_table, threat_search, 100,
             1u << 16},
        };
        cases.tournament_setup = board15;
        return cases;
    }
};

}  // namespace

int parse_board(const std::string& text) {
    if (text == "15" || text == "15x15") return 15;
    if (text == "20" || text == "20x20") return 20;
    throw InputError("--board '" + text + "': gomoku plays 15 (15x15) or 20 (20x20)");
}

RuleSet parse_rules(const std::string& text) {
    if (text == "freestyle") return RuleSet::Freestyle;
    if (text == "standard") return RuleSet::Standard;
    throw InputError("--rules '" + text + "': expected freestyle or standard");
}

const char* rules_name(RuleSet rule) {
    return rule == RuleSet::Standard ? "standard" : "freestyle";
}

Opening parse_opening(const std::string& text) {
    if (text == "centre") return Opening::Centre;
    if (text == "none") return Opening::None;
    throw InputError("--opening '" + text + "': expected centre or none");
}

const char* opening_name(Opening opening) { return opening == Opening::None ? "none" : "centre"; }

const char* weight_name(int i) { return kWeightNames[i]; }

std::unique_ptr<games::GameEntry> make_entry() { return std::make_unique<Entry>(); }

std::unique_ptr<games::GameSession> open_session(const Setup& setup) {
    if (setup.size == 20) return make_session<20>(setup);
    return make_session<15>(setup);
}

}  // namespace gaeval::gomoku
