#include <vector>

#include "games/core/rng.hpp"
#include "kernels/core_kernels.hpp"
#include "kernels/cuda_api.hpp"
#include "kernels/launch.cuh"

namespace gaeval::cuda {

namespace {
struct PhiloxRawOp {
    const uint32_t* in;
    uint32_t* out;
    __device__ void operator()(uint64_t i) const {
        const uint32_t* w = in + 6 * i;
        Random4 r = philox_raw(w[0], w[1], w[2], w[3], w[4], w[5]);
        for (int k = 0; k < 4; ++k) out[4 * i + k] = r.v[k];
    }
};
}  // namespace

void philox_raw_batch(const uint32_t* in, uint32_t* out, std::size_t n) {
    DeviceArray<uint32_t> d_in(6 * n), d_out(4 * n);
    d_in.upload(in, 6 * n);
    for_each_index(PhiloxRawOp{d_in.data(), d_out.data()}, n);
    synchronize();
    d_out.download(out, 4 * n);
}

}  // namespace gaeval::cuda
