// The compiled game variants: the 7x7 fast path and the table geometry per size class (1, 2, 4
// words) with 2 or 4 player slots. The host picks one per setup; the CUDA kernels are
// instantiated for exactly this list (GAEVAL_GRID_FOR_EACH_VARIANT).
#pragma once

#include "games/grid/features.hpp"
#include "games/grid/geometry.hpp"
#include "games/grid/perft.hpp"
#include "games/grid/players.hpp"
#include "games/grid/playout.hpp"
#include "games/grid/rules.hpp"
#include "games/grid/setup.hpp"

namespace gaeval::grid {

using Square7Game = Game<Square7Geometry, 2>;
using Table1Game2 = Game<TableGeometry<1>, 2>;
using Table1Game4 = Game<TableGeometry<1>, 4>;
using Table2Game2 = Game<TableGeometry<2>, 2>;
using Table2Game4 = Game<TableGeometry<2>, 4>;
using Table4Game2 = Game<TableGeometry<4>, 2>;
using Table4Game4 = Game<TableGeometry<4>, 4>;

}  // namespace gaeval::grid

// X(type) for every variant above.
#define GAEVAL_GRID_FOR_EACH_VARIANT(X) \
    X(::gaeval::grid::Square7Game)      \
    X(::gaeval::grid::Table1Game2)      \
    X(::gaeval::grid::Table1Game4)      \
    X(::gaeval::grid::Table2Game2)      \
    X(::gaeval::grid::Table2Game4)      \
    X(::gaeval::grid::Table4Game2)      \
    X(::gaeval::grid::Table4Game4)
