// The copy arithmetic of the chunked CUDA population (plans in host memory, streamed through a
// device buffer of `chunk` plans): plain C++, so that the CPU tests check it at any population.
// Genes are structure-of-arrays: gene m of plan i lives at m * population + i on the host and at
// m * chunk + (i - first) in the chunk buffer. Each gene row of a chunk is one contiguous 1-D
// copy; a 2-D copy with a pitch of population * 4 bytes is what the driver rejects once the
// pitch passes its maximum (populations of 2^29 plans and more), exactly where chunks are needed.
#pragma once

#include <cstdint>

namespace gaeval::pile_in {

// Plans [first, first + count) of one chunk.
struct ChunkSpan {
    uint64_t first = 0;
    uint64_t count = 0;
};

// One contiguous copy, in elements (uint32_t genes) from the start of each array.
struct RowCopy {
    uint64_t host_offset = 0;
    uint64_t buffer_offset = 0;
    uint64_t count = 0;
};

// How many chunks of at most `chunk` plans cover `population` plans (chunk >= 1).
constexpr uint64_t chunk_count(uint64_t population, uint64_t chunk) {
    return population / chunk + (population % chunk != 0);
}

// The plans of chunk k (k < chunk_count): all full chunks, the last one holds the rest.
constexpr ChunkSpan chunk_span(uint64_t population, uint64_t chunk, uint64_t k) {
    const uint64_t first = k * chunk;
    const uint64_t rest = population - first;
    return ChunkSpan{first, rest < chunk ? rest : chunk};
}

// The copy of gene row `gene` of the plans in `span` between the host population and the
// chunk buffer (the same copy serves both directions).
constexpr RowCopy chunk_row_copy(uint64_t population, uint64_t chunk, ChunkSpan span,
                                 uint64_t gene) {
    return RowCopy{gene * population + span.first, gene * chunk, span.count};
}

}  // namespace gaeval::pile_in
