// Every compiled game type, the one list that the CUDA kernels instantiate the batch layer for
// (kernels/batch_perft.cu over GAEVAL_FOR_EACH_GAME_TYPE; the play kernels one generated
// kernels/batch_play_<unit>.cu per family) and that the host registry (host/games/registry.cpp)
// makes an entry for (a type that names itself with kName gets a generic entry; the families
// with a host entry, host/<game>/entry.cpp, are served by it). GAEVAL_FOR_EACH_BATCH_OP lists the
// evaluate-a-population operations of batch::evaluate (host/batch/batch.hpp), instantiated for
// the device in kernels/batch_evaluate.cu.
//
// The list is games/games.cmake: the build generates generated/game_list.hpp (the headers and
// both macros) from it. Adding a game is its header, its test and one line there.
#pragma once

#include "generated/game_list.hpp"
