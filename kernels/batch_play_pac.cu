// Batches of matches on the device for the Pac-Man grid game: kernels/batch_play.cuh.
#include "kernels/batch_play.cuh"

namespace gaeval::batch_ops {

GAEVAL_INSTANTIATE_PLAY(::gaeval::pac::Game)

}  // namespace gaeval::batch_ops
