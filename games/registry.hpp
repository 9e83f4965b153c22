// Every compiled game type, the one list that the CUDA kernels (kernels/batch_*.cu) instantiate
// the batch layer for and that the host registry (host/games/registry.cpp) makes an entry for
// (a type that names itself with kName gets a generic entry; Ataxx's variants are served by
// host/ataxx, Pac-Man by host/pac). Adding a game: its include, its X(...) line, and its
// instantiation line in one of kernels/batch_play_*.cu.
// GAEVAL_FOR_EACH_BATCH_OP lists the evaluate-a-population operations of batch::evaluate
// (host/batch/batch.hpp), instantiated for the device in kernels/batch_evaluate.cu.
#pragma once

#include "games/ataxx/variants.hpp"
#include "games/gomoku/game.hpp"
#include "games/pac/game.hpp"
#include "games/pac/rollout.hpp"
#include "games/risk/game.hpp"
#include "games/tictactoe/tictactoe.hpp"

#define GAEVAL_FOR_EACH_GAME_TYPE(X) \
    GAEVAL_ATAXX_VARIANTS(X)         \
    X(::gaeval::tictactoe::Game)     \
    X(::gaeval::gomoku::Game15)      \
    X(::gaeval::gomoku::Game20)      \
    X(::gaeval::risk::Game)          \
    X(::gaeval::pac::Game)

#define GAEVAL_FOR_EACH_BATCH_OP(X) X(::gaeval::pac::RolloutOp)
