// Batches of matches on the device for tic-tac-toe: kernels/batch_play.cuh.
#include "kernels/batch_play.cuh"

namespace gaeval::cuda {

GAEVAL_INSTANTIATE_PLAY(::gaeval::tictactoe::Game)

}  // namespace gaeval::cuda
