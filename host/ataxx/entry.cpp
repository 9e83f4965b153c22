#include "host/ataxx/entry.hpp"

#include <cstdlib>
#include <string>

#include "games/ataxx/variants.hpp"
#include "host/ataxx/fen.hpp"
#include "host/core/error.hpp"

namespace gaeval::ataxx {

namespace {

// Indexed by Feature; part of the player file format: append, never rename.
constexpr const char* kFeatureNames[kFeatureCount] = {
    "own_pieces",
    "opponent_pieces",
    "own_safe",
    "own_near_safe_1",
    "own_near_safe_2",
    "own_near_safe_3",
    "risky_holes_1",
    "risky_holes_2",
    "risky_holes_3plus",
    "own_holes",
    "opponent_safe",
    "opponent_near_safe_1",
    "opponent_near_safe_2",
    "opponent_near_safe_3",
    "opponent_holes",
};

games::GameInfo make_info() {
    games::GameInfo info;
    info.name = "ataxx";
    info.summary =
        "the Ataxx family: Ataxx and the Genetic Game on square, hex, triangle and offset boards "
        "of up to 256 cells";
    info.min_seats = 2;
    info.max_seats = kMaxPlayers;
    for (const char* name : kFeatureNames) info.weight_names.push_back(name);
    // Version 1 files weighted the raw counts; unit_features divides every count by the playable
    // cells (a common factor: no choice changes) and complements the bad ones (negated weight).
    for (int i = 0; i < kFeatureCount; ++i)
        info.version1_weight_factors.push_back(bad_for_owner(i) ? -1.0f : 1.0f);
    info.weighted_player =
        "one ply: the move whose position scores highest; depth > 1: alpha-beta to that depth";
    info.policy_names = {"capture", "most-pieces"};
    info.perft = true;
    info.options = {
        {"board", "square8:WxH | square4:WxH | offset:WxH | hex:R | tri:N (at most 256 cells)",
         "square8:7x7"},
        {"rules", "ataxx | genetic-game", "ataxx"},
        {"players", "players (ataxx: 2; genetic-game: 2 to 4)", "2"},
        {"fen", "position (FEN; see docs/ataxx.md) or startpos", "startpos"},
        {"generic", "use the table geometry even where the 7x7 fast path applies", "", true, true},
    };
    return info;
}

const games::GameInfo& info() {
    static const games::GameInfo value = make_info();
    return value;
}

nlohmann::json setup_json(const GameSetup& setup) {
    return {{"game", "ataxx"},
            {"board", board_spec(setup.shape)},
            {"rules", rule_set_name(setup.rules)},
            {"players", int(setup.players)},
            {"fen", write_fen(setup)}};
}

template <class G>
std::unique_ptr<games::GameSession> make_session(const GameSetup& setup, bool generic,
                                                 const G& game, const typename G::Pos& start,
                                                 std::shared_ptr<const void> owner) {
    auto session = std::make_unique<games::TypedSession<G>>(
        info(), setup_json(setup), variant_name(setup, generic), game, start, std::move(owner),
        generic ? nlohmann::json{{"generic", true}} : nlohmann::json::object());
    session->set_description("on " + board_spec(setup.shape) + ", " + rule_set_name(setup.rules) +
                             " rules, " + std::to_string(setup.players) + " players");
    return session;
}

template <int W>
std::unique_ptr<games::GameSession> table_session(const GameSetup& setup, bool generic) {
    auto board = std::make_shared<Board<W>>();
    if (!setup_board(setup, board.get()))
        throw std::logic_error("ataxx: setup does not fit its size class");  // checked at the edge
    if (setup.players == 2) {
        const Game<TableGeometry<W>, 2> game{{TableGeometry<W>{board.get()}, setup.rules}};
        return make_session(setup, generic, game, setup_position<W, 2>(setup), board);
    }
    const Game<TableGeometry<W>, 4> game{{TableGeometry<W>{board.get()}, setup.rules}};
    return make_session(setup, generic, game, setup_position<W, 4>(setup), board);
}

int parse_players(const std::string& text) {
    char* end = nullptr;
    const long value = std::strtol(text.c_str(), &end, 10);
    if (text.empty() || *end != '\0' || value < 1 || value > 99)
        throw InputError("--players '" + text + "': expected an integer from 2 to 4");
    return static_cast<int>(value);
}

class Entry final : public games::GameEntry {
  public:
    const games::GameInfo& info() const override { return ataxx::info(); }

    std::unique_ptr<games::GameSession> open(
        const std::map<std::string, std::string>& options) const override {
        auto value = [&](const std::string& name) { return option(options, name); };
        const Shape shape = parse_board_spec(value("board"));
        const RuleSet rules = parse_rule_set(value("rules"));
        const int players = parse_players(value("players"));
        const GameSetup setup = parse_fen(value("fen"), shape, rules, players);
        return open_session(setup, options.count("generic") > 0);
    }

    games::BenchCases bench_cases() const override {
        games::BenchCases cases;
        cases.in_default = true;
        auto at = [](const std::string& board, const std::string& fen) {
            return nlohmann::json{{"board", board}, {"fen", fen}};
        };
        // Depths chosen so that every CPU row counts tens of millions of nodes (20-50 ms on one
        // thread): shorter rows (the gaps at d=5 took about 1 ms, hex:4 at d=4 43 us) timed
        // the wake-up of the second thread rather than the counting.
        cases.perft = {
            {"startpos", at("square8:7x7", "startpos"), 6},
            {"gaps-a", at("square8:7x7", "x5o/7/2-1-2/7/2-1-2/7/o5x x 0 1"), 6},
            {"gaps-b", at("square8:7x7", "x5o/7/2-1-2/3-3/2-1-2/7/o5x x 0 1"), 6},
            {"gaps-c", at("square8:7x7", "x5o/7/3-3/2-1-2/3-3/7/o5x x 0 1"), 6},
            {"hex:4 startpos", at("hex:4", "startpos"), 6},
            // The GPU target (CPU runs would take minutes): the published startpos perft(8).
            {"startpos", at("square8:7x7", "startpos"), 8, true, 176821532236ull},
        };
        games::PlayerData random;
        random.label = "random";
        games::PlayerData most_pieces;
        most_pieces.kind = PlayerKind::Policy;
        most_pieces.policy = kMostPieces;
        most_pieces.label = "most-pieces";
        // Weights for the weighted-player benchmark: material, safety, risk.
        games::PlayerData weighted;
        weighted.kind = PlayerKind::Weighted;
        // (The weights of issue 9's raw counts times version1_weight_factors: features in [0, 1]
        // since issue 14, higher is better, so every weight is non-negative.)
        weighted.weights = {1.0f, 1.0f, 0.5f, 0.25f, 0.125f, 0.0f, 0.5f, 1.0f,
                            1.5f, 0.1f, 0.5f, 0.25f, 0.125f, 0.0f, 0.1f};
        weighted.label = "weighted";
        const uint64_t cpu = 5000, cuda = 1u << 20;
        // Weighted against most-pieces (random tie-breaks): two identical deterministic players
        // would replay one game, and random opponents are wiped out in about 11 plies.
        cases.playouts = {
            {"random", "square8:7x7", at("square8:7x7", "startpos"), random, random, cpu, cuda},
            {"random", "hex:4", at("hex:4", "startpos"), random, random, cpu, cuda},
            {"weighted-vs-most-pieces", "square8:7x7", at("square8:7x7", "startpos"), weighted,
             most_pieces, cpu / 12, cuda / 16},
        };
        cases.tournament_setup = at("square8:7x7", "startpos");
        return cases;
    }
};

}  // namespace

std::unique_ptr<games::GameEntry> make_entry() { return std::make_unique<Entry>(); }

std::string variant_name(const GameSetup& setup, bool generic) {
    if (!generic && fits_square7(setup)) return "square7 fast path";
    return "table W=" + std::to_string(words_for_cells(shape_cells(setup.shape))) +
           " P=" + std::to_string(setup.players == 2 ? 2 : 4);
}

std::unique_ptr<games::GameSession> open_session(const GameSetup& setup, bool generic) {
    if (!generic && fits_square7(setup)) {
        const Square7Game game{{setup_square7_geometry(setup), setup.rules}};
        return make_session(setup, generic, game, setup_square7_position(setup), nullptr);
    }
    switch (words_for_cells(shape_cells(setup.shape))) {
        case 1:
            return table_session<1>(setup, generic);
        case 2:
            return table_session<2>(setup, generic);
        case 4:
            return table_session<4>(setup, generic);
        default:
            throw std::logic_error("ataxx: board larger than the largest bitboard");
    }
}

const char* feature_name(int i) { return kFeatureNames[i]; }

}  // namespace gaeval::ataxx
