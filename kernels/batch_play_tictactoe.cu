// Batches of matches on the device for tic-tac-toe: kernels/batch_play.cuh.
#include "kernels/batch_play.cuh"

namespace gaeval::batch_ops {

GAEVAL_INSTANTIATE_PLAY(::gaeval::tictactoe::Game)

}  // namespace gaeval::batch_ops
