// Batches of matches on the device for the Ataxx variants Table2Game2 Table2Game4
// (games/ataxx/variants.hpp; one file per board kind, so that they compile side by side):
// kernels/batch_play.cuh.
#include "kernels/batch_play.cuh"

namespace gaeval::batch_ops {

GAEVAL_INSTANTIATE_PLAY(::gaeval::ataxx::Table2Game2)
GAEVAL_INSTANTIATE_PLAY(::gaeval::ataxx::Table2Game4)

}  // namespace gaeval::batch_ops
