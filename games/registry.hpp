// Every compiled game type, the one list that the CUDA kernels (kernels/batch_*.cu) instantiate
// the batch layer for and that the host registry (host/games/registry.cpp) makes an entry for
// (a type that names itself with kName gets a generic entry; Ataxx's variants are served by
// host/ataxx). Adding a game: its include and its X(...) line.
#pragma once

#include "games/ataxx/variants.hpp"
#include "games/gomoku/game.hpp"
#include "games/risk/game.hpp"
#include "games/tictactoe/tictactoe.hpp"

#define GAEVAL_FOR_EACH_GAME_TYPE(X) \
    GAEVAL_ATAXX_VARIANTS(X)         \
    X(::gaeval::tictactoe::Game)     \
    X(::gaeval::gomoku::Game15)      \
    X(::gaeval::gomoku::Game20) \
    X(::gaeval::risk::Game)
