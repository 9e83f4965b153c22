// The compiled game variants: the 7x7 fast path and the table geometry per size class (1, 2, 4
// words) with 2 or 4 player slots. The host picks one per setup; the CUDA kernels are
// instantiated for exactly these: games/games.cmake lists them, one generated play unit per
// board kind (ataxx_square7, ataxx_table1, ataxx_table2, ataxx_table4).
#pragma once

#include "games/ataxx/features.hpp"
#include "games/ataxx/game.hpp"
#include "games/ataxx/geometry.hpp"
#include "games/ataxx/rules.hpp"
#include "games/ataxx/setup.hpp"
#include "games/core/game.hpp"

namespace gaeval::ataxx {

using Square7Game = Game<Square7Geometry, 2>;
using Table1Game2 = Game<TableGeometry<1>, 2>;
using Table1Game4 = Game<TableGeometry<1>, 4>;
using Table2Game2 = Game<TableGeometry<2>, 2>;
using Table2Game4 = Game<TableGeometry<2>, 4>;
using Table4Game2 = Game<TableGeometry<4>, 2>;
using Table4Game4 = Game<TableGeometry<4>, 4>;

static_assert(check_game<Square7Game>() && check_game<Table1Game2>() && check_game<Table4Game4>());

}  // namespace gaeval::ataxx
