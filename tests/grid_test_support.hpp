// Helpers shared by the grid-game tests: setups from FEN, typed games bound to a host board,
// backends, and random positions.
#pragma once

#include <memory>
#include <random>
#include <string>

#include "games/grid/variants.hpp"
#include "host/backend/backend.hpp"
#include "host/io/fen.hpp"

namespace gaeval::grid::testing {

inline GameSetup fen_setup(const std::string& fen, const std::string& board = "square8:7x7",
                           const std::string& rules = "ataxx", int players = 2) {
    return io::parse_fen(fen, io::parse_board_spec(board), io::parse_rule_set(rules), players);
}

inline BackendChoice cpu_backend(int threads) {
    BackendChoice b;
    b.kind = BackendKind::Cpu;
    b.threads = threads;
    b.name = "cpu";
    return b;
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
        : game{setup_square7_geometry(s), s.rules}, pos(setup_square7_position(s)) {}
};

// A random setup on `shape`: each playable cell empty, a piece of a random player, or (with
// gap_percent) blocked; random side to move and a halfmove clock below 100.
inline GameSetup random_setup(std::mt19937& rng, const Shape& shape, RuleSet rules, int players,
                              int piece_percent, int gap_percent) {
    GameSetup s = io::start_setup(shape, rules, players);
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

}  // namespace gaeval::grid::testing
