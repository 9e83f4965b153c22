// GameSetup: a position described independently of the bitboard size (what a FEN string holds:
// shape, rule set, per-cell content, side, counters), and its conversion to the typed Board<W>
// + Position<W, P> of the table geometry or to the 7x7 fast path. Trivially copyable, fixed size.
#pragma once

#include <cstdint>

#include "games/core/hd.hpp"
#include "games/ataxx/geometry.hpp"
#include "games/ataxx/position.hpp"
#include "games/core/topology.hpp"

namespace gaeval::ataxx {

// Cell contents in GameSetup::cell: a player index 0..3, or one of these.
constexpr int8_t kEmptyCell = -1;
constexpr int8_t kBlockedCell = -2;

struct GameSetup {
    Shape shape;
    RuleSet rules = RuleSet::Ataxx;
    uint8_t players = 2;
    uint8_t side = 0;
    uint16_t halfmove = 0;
    uint32_t fullmove = 1;
    int8_t cell[kMaxCells];  // cells [0, shape_cells(shape)) in layout order (row 0 = bottom)
};

// Whether the setup can take the 7x7 fast path: square8:7x7 with two players.
GAEVAL_HD_INLINE bool fits_square7(const GameSetup& s) {
    return s.shape.topology == Topology::Square8 && s.shape.width == 7 && s.shape.height == 7 &&
           s.players == 2;
}

// Board<W> for the setup's shape with its blocked cells; false when the shape does not fit W.
template <int W>
GAEVAL_HD bool setup_board(const GameSetup& s, Board<W>* board) {
    if (!build_board(s.shape, board)) return false;
    Bitboard<W> blocked = Bitboard<W>::none();
    for (int c = 0; c < board->cells; ++c)
        if (s.cell[c] == kBlockedCell) blocked.set(c);
    set_blocked(board, blocked);
    return true;
}

// Position<W, P> of the setup, cells numbered as the table geometry numbers them (requires
// players <= P and a shape that fits W). `to_bit` maps a layout index to a bit index.
template <int W, int P, class ToBit>
GAEVAL_HD_INLINE Position<W, P> setup_position_mapped(const GameSetup& s, ToBit to_bit) {
    Position<W, P> p;
    for (int i = 0; i < P; ++i) p.pieces[i] = Bitboard<W>::none();
    const int cells = shape_cells(s.shape);
    for (int c = 0; c < cells; ++c)
        if (s.cell[c] >= 0) p.pieces[s.cell[c]].set(to_bit(c));
    p.side = s.side;
    p.players = s.players;
    p.halfmove = s.halfmove;
    p.fullmove = s.fullmove;
    return p;
}

// Position<W, P> of the setup in the table geometry's numbering (layout index = bit index).
template <int W, int P>
GAEVAL_HD_INLINE Position<W, P> setup_position(const GameSetup& s) {
    return setup_position_mapped<W, P>(s, [](int c) { return c; });
}

// The 7x7 fast path's geometry (gaps removed from the playable mask) and position of a setup
// for which fits_square7 holds.
GAEVAL_HD_INLINE Square7Geometry setup_square7_geometry(const GameSetup& s) {
    Square7Geometry geo;
    for (int c = 0; c < 49; ++c)
        if (s.cell[c] == kBlockedCell)
            geo.playable_mask &= ~(uint64_t{1} << Square7Geometry::from_compact(c));
    return geo;
}
GAEVAL_HD_INLINE Position<1, 2> setup_square7_position(const GameSetup& s) {
    return setup_position_mapped<1, 2>(s, [](int c) { return Square7Geometry::from_compact(c); });
}

// The setup of a typed position (inverse of the conversions above): `blocked` and `pieces` are
// read through `to_bit` (layout index -> bit index).
template <int W, int P, class ToBit>
GAEVAL_HD_INLINE GameSetup position_setup_mapped(const Shape& shape, RuleSet rules,
                                                 const Bitboard<W>& blocked,
                                                 const Position<W, P>& p, ToBit to_bit) {
    GameSetup s;
    s.shape = shape;
    s.rules = rules;
    s.players = p.players;
    s.side = p.side;
    s.halfmove = p.halfmove;
    s.fullmove = p.fullmove;
    for (int c = 0; c < kMaxCells; ++c) s.cell[c] = kEmptyCell;
    const int cells = shape_cells(shape);
    for (int c = 0; c < cells; ++c) {
        const int bit = to_bit(c);
        if (blocked.test(bit)) s.cell[c] = kBlockedCell;
        for (int i = 0; i < P; ++i)
            if (p.pieces[i].test(bit)) s.cell[c] = static_cast<int8_t>(i);
    }
    return s;
}

// The setup of a table-geometry position on `board`.
template <int W, int P>
GAEVAL_HD_INLINE GameSetup position_setup(const Board<W>& board, RuleSet rules,
                                          const Position<W, P>& p) {
    return position_setup_mapped(board.shape, rules, board.blocked, p, [](int c) { return c; });
}

// The setup of a 7x7 fast-path position (gaps read from the geometry's playable mask).
GAEVAL_HD_INLINE GameSetup square7_setup(const Square7Geometry& geo, RuleSet rules,
                                         const Position<1, 2>& p) {
    const Bitboard<1> blocked{{Square7Geometry::kAll & ~geo.playable_mask}};
    return position_setup_mapped(Shape{}, rules, blocked, p,
                                 [](int c) { return Square7Geometry::from_compact(c); });
}

}  // namespace gaeval::ataxx
