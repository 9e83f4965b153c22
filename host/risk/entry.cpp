#include "host/risk/entry.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "host/core/error.hpp"
#include "host/risk/map.hpp"

namespace gaeval::risk {

namespace {

constexpr int kMaxTurnCap = 10000;

games::GameInfo make_info() {
    games::GameInfo info;
    info.name = "risk";
    info.summary =
        "Risk: the classic map or a map file, 2 to 6 seats, cards, dice from addressed draws";
    info.min_seats = 2;
    info.max_seats = kMaxSeats;
    for (const char* name : Game::kWeightNames) info.weight_names.push_back(name);
    info.weighted_player =
        "alphabeta: drafting, then alpha-beta over attacks to the player's depth, leaves scored "
        "by the weighted features";
    for (const char* name : Game::kPolicyNames) info.policy_names.push_back(name);
    info.perft = false;
    info.options = {
        {"map", "classic | a map file (docs/risk.md)", "classic"},
        {"players", "seats, 2 to 6", "2"},
        {"turn-cap", "rounds after which the leader wins, 1 to 10000", "100"},
        {"threshold", "least conquest odds the agents attack with (alpha-beta, drafter), 0 to 1",
         "0.2"},
    };
    // The seed's scheme: ten tournaments of ten among 100 members, weights first in [0, 10],
    // 4 generations. Games end by the rules (conquest or --turn-cap), not by the ply cap.
    info.learn_defaults = {{"scheme", "ten-tournaments"}, {"population", "100"},
                           {"generations", "4"},          {"init-range", "0:10"},
                           {"max-plies", "1000000"},      {"depth", "2"}};
    for (int seats = 3; seats <= kMaxSeats; ++seats)
        info.verify_tables.push_back({std::to_string(seats) + "p",
                                      {{"players", std::to_string(seats)}},
                                      {"aggressive", "drafter"}});
    return info;
}

const games::GameInfo& info() {
    static const games::GameInfo value = make_info();
    return value;
}

int parse_int(const std::string& text, const std::string& flag, int low, int high) {
    char* end = nullptr;
    const long value = std::strtol(text.c_str(), &end, 10);
    if (text.empty() || *end != '\0' || value < low || value > high)
        throw InputError("--" + flag + " '" + text + "': expected an integer from " +
                         std::to_string(low) + " to " + std::to_string(high));
    return static_cast<int>(value);
}

float parse_threshold(const std::string& text) {
    char* end = nullptr;
    const double value = std::strtod(text.c_str(), &end);
    if (text.empty() || *end != '\0' || !(value >= 0 && value <= 1))
        throw InputError("--threshold '" + text + "': expected a probability from 0 to 1");
    return static_cast<float>(value);
}

std::string number_text(float value) {
    char text[32];
    std::snprintf(text, sizeof text, "%g", double(value));
    return text;
}

class Entry final : public games::GameEntry {
  public:
    const games::GameInfo& info() const override { return risk::info(); }

    std::unique_ptr<games::GameSession> open(
        const std::map<std::string, std::string>& options) const override {
        auto value = [&](const std::string& name) { return option(options, name); };
        const std::string map_spec = value("map");
        const int players = parse_int(value("players"), "players", 2, kMaxSeats);
        const int turn_cap = parse_int(value("turn-cap"), "turn-cap", 1, kMaxTurnCap);
        const float threshold = parse_threshold(value("threshold"));
        MapNames names;
        std::shared_ptr<Tables> tables = load_tables(map_spec, &names);
        if (players > tables->map.territories)
            throw InputError("--players " + std::to_string(players) + ": the map has only " +
                             std::to_string(tables->map.territories) + " territories");
        Game game;
        game.config.tables = tables.get();
        game.config.threshold = threshold;
        game.config.turn_cap = turn_cap;
        const nlohmann::json setup = {{"game", "risk"},
                                      {"map", map_spec},
                                      {"players", players},
                                      {"turn-cap", turn_cap},
                                      {"threshold", number_text(threshold)}};
        auto session = std::make_unique<games::TypedSession<Game>>(
            info(), setup, "risk", game, game.start(players), tables);
        session->set_description("on the " + names.name + " map (" +
                                 std::to_string(tables->map.territories) + " territories), " +
                                 std::to_string(players) + " players");
        return session;
    }

    games::BenchCases bench_cases() const override {
        games::BenchCases cases;
        cases.in_default = true;
        const nlohmann::json classic = {{"map", "classic"}, {"players", 2}};
        auto builtin = [](const char* name, int policy) {
            games::PlayerData p;
            p.label = name;
            if (policy > 0) {
                p.kind = PlayerKind::Policy;
                p.policy = policy;
            }
            return p;
        };
        games::PlayerData alphabeta;
        alphabeta.kind = PlayerKind::Weighted;
        alphabeta.depth = 2;
        alphabeta.weights = {1.0f, 1.0f, 1.0f, 1.0f};
        alphabeta.label = "alphabeta";
        cases.playouts = {
            {"random", "classic 2p", classic, builtin("random", 0), builtin("random", 0), 1000,
             1u << 16},
            {"drafter-vs-aggressive", "classic 2p", classic, builtin("drafter", kDrafter),
             builtin("aggressive", kAggressive), 1000, 1u << 16},
            {"alphabeta-d2-vs-drafter", "classic 2p", classic, alphabeta,
             builtin("drafter", kDrafter), 100, 1u << 14},
        };
        cases.tournament_setup = classic;
        cases.tournament_max_plies = 1000000;  // games end by conquest or the turn cap
        return cases;
    }
};

}  // namespace

std::unique_ptr<games::GameEntry> make_entry() { return std::make_unique<Entry>(); }

}  // namespace gaeval::risk
