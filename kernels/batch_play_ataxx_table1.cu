// Batches of matches on the device for the Ataxx variants Table1Game2 Table1Game4
// (games/ataxx/variants.hpp; one file per board kind, so that they compile side by side):
// kernels/batch_play.cuh.
#include "kernels/batch_play.cuh"

namespace gaeval::batch_ops {

GAEVAL_INSTANTIATE_PLAY(::gaeval::ataxx::Table1Game2)
GAEVAL_INSTANTIATE_PLAY(::gaeval::ataxx::Table1Game4)

}  // namespace gaeval::batch_ops
