// Helpers shared by the Ataxx tests: setups from FEN, typed games bound to a host board,
// backends, players by their former kind numbers, and random positions.
#pragma once

#include <memory>
#include <random>
#include <string>

#include "games/ataxx/variants.hpp"
#include "games/core/match.hpp"
#include "games/core/perft.hpp"
#include "games/core/players.hpp"
#include "host/ataxx/entry.hpp"
#include "host/ataxx/fen.hpp"
#include "host/backend/backend.hpp"
#include "host/games/play.hpp"

namespace gaeval::ataxx::testing {

inline GameSetup fen_setup(const std::string& fen, const std::string& board = "square8:7x7",
                           const std::string& rules = "ataxx", int players = 2) {
    return parse_fen(fen, parse_board_spec(board), parse_rule_set(rules), players);
}

inline BackendChoice cpu_backend(int threads) {
    BackendChoice b;
    b.kind = BackendKind::Cpu;
    b.threads = threads;
    b.name = "cpu";
    return b;
}

// The start position of a board with every `gap`-th empty cell blocked (0: none).
inline GameSetup start_with_gaps(const std::string& board, const std::string& rules, int players,
                                 int gap) {
    GameSetup s = start_setup(parse_board_spec(board), parse_rule_set(rules), players);
    const int cells = shape_cells(s.shape);
    for (int c = 0, empty = 0; c < cells && gap > 0; ++c)
        if (s.cell[c] == kEmptyCell && ++empty % gap == 0) s.cell[c] = kBlockedCell;
    return s;
}

// A table-geometry game for a setup, owning its board.
template <int W, int P>
struct TableFixture {
    std::unique_ptr<Board<W>> board = std::make_unique<Board<W>>();
    Game<TableGeometry<W>, P> game;
    Position<W, P> pos;
    explicit TableFixture(const GameSetup& s) {
        setup_board(s, board.get());
        game.geo.board = board.get();
        game.rules = s.rules;
        pos = setup_position<W, P>(s);
    }
};

// The 7x7 fast path for a setup.
struct Square7Fixture {
    Square7Game game;
    Position<1, 2> pos;
    explicit Square7Fixture(const GameSetup& s)
        : game{{setup_square7_geometry(s), s.rules}}, pos(setup_square7_position(s)) {}
};

// The players by their former kind numbers: 0 random, 1 capture, 2 most-pieces, 3 weighted.
inline gaeval::PlayerSpec<kFeatureCount> player_of_kind(int kind) {
    gaeval::PlayerSpec<kFeatureCount> p;
    p.kind = kind == 0 ? PlayerKind::Random : kind == 3 ? PlayerKind::Weighted : PlayerKind::Policy;
    p.policy = static_cast<uint8_t>(kind == 1 ? kCapture : kind == 2 ? kMostPieces : 0);
    return p;
}
inline games::PlayerData player_data(int kind) {
    games::PlayerData p;
    const auto typed = player_of_kind(kind);
    p.kind = typed.kind;
    p.policy = typed.policy;
    if (kind == 3) p.weights.assign(kFeatureCount, 0.0f);
    return p;
}

// Perft of a setup on a backend (the session of the setup; `generic`: tables).
inline uint64_t perft(const GameSetup& s, int depth, const BackendChoice& backend,
                      bool generic = false) {
    return open_session(s, generic)->perft(depth, backend);
}

// A batch of games of a setup on a backend (the session of the setup; `generic`: tables).
inline std::vector<GameRecord> play_batch(const GameSetup& s, const games::PlayRequest& request,
                                          const BackendChoice& backend, bool generic = false) {
    return games::play(*open_session(s, generic), request, backend);
}

// A random setup on `shape`: each playable cell empty, a piece of a random player, or (with
// gap_percent) blocked; random side to move and a halfmove clock below 100.
inline GameSetup random_setup(std::mt19937& rng, const Shape& shape, RuleSet rules, int players,
                              int piece_percent, int gap_percent) {
    GameSetup s = start_setup(shape, rules, players);
    const int cells = shape_cells(shape);
    for (int c = 0; c < cells; ++c) {
        const int roll = static_cast<int>(rng() % 100);
        if (roll < gap_percent)
            s.cell[c] = kBlockedCell;
        else if (roll < gap_percent + piece_percent)
            s.cell[c] = static_cast<int8_t>(rng() % players);
        else
            s.cell[c] = kEmptyCell;
    }
    s.side = static_cast<uint8_t>(rng() % players);
    s.halfmove = static_cast<uint16_t>(rng() % 100);
    s.fullmove = 1 + rng() % 50;
    return s;
}

}  // namespace gaeval::ataxx::testing
