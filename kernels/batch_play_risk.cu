// Batches of matches on the device for Risk: kernels/batch_play.cuh.
#include "kernels/batch_play.cuh"

namespace gaeval::batch_ops {

GAEVAL_INSTANTIATE_PLAY(::gaeval::risk::Game)

}  // namespace gaeval::batch_ops
