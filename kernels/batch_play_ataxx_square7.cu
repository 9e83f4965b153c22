// Batches of matches on the device for the Ataxx variants Square7Game (games/ataxx/variants.hpp;
// one file per board kind, so that they compile side by side): kernels/batch_play.cuh.
#include "kernels/batch_play.cuh"

namespace gaeval::batch_ops {

GAEVAL_INSTANTIATE_PLAY(::gaeval::ataxx::Square7Game)

}  // namespace gaeval::batch_ops
