// Batches of matches on the device for Gomoku 20x20: kernels/batch_play.cuh.
#include "kernels/batch_play.cuh"

namespace gaeval::batch_ops {

GAEVAL_INSTANTIATE_PLAY(::gaeval::gomoku::Game20)

}  // namespace gaeval::batch_ops
