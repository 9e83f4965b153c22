// Batches of matches on the device for Gomoku 15x15 (20x20: batch_play_gomoku20.cu, apart because
// each takes minutes to compile): kernels/batch_play.cuh.
#include "kernels/batch_play.cuh"

namespace gaeval::batch_ops {

GAEVAL_INSTANTIATE_PLAY(::gaeval::gomoku::Game15)

}  // namespace gaeval::batch_ops
