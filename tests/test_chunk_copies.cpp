// The chunked CUDA population's copy arithmetic (host/pile_in/chunk_copies.hpp), on the CPU:
// small populations by doing the copies and reading every plan back through PlanView (what the
// kernels read), large ones (2^29 plans and more, where a 2-D copy's pitch of population * 4
// bytes passes the driver's maximum) by tiling each gene row with exact 128-bit arithmetic.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "host/pile_in/chunk_copies.hpp"
#include "problems/pile_in/genome.hpp"

namespace gaeval::pile_in {
namespace {

using u128 = unsigned __int128;

// Does the copies of every chunk into a poisoned buffer and checks, plan by plan through the
// views the kernels use, that the buffer holds exactly that chunk's plans; then writes changed
// genes back (the repair path) and checks the host array changed at those plans alone.
void check_by_copying(uint64_t population, int genes, uint64_t chunk) {
    SCOPED_TRACE(testing::Message()
                 << "population " << population << ", genes " << genes << ", chunk " << chunk);
    std::vector<uint32_t> host(population * genes);
    for (std::size_t i = 0; i < host.size(); ++i) host[i] = static_cast<uint32_t>(i * 2654435761u);
    const std::vector<uint32_t> original = host;
    const PlanView host_view{host.data(), population, genes};
    std::vector<int> seen(population, 0);
    const uint64_t chunks = chunk_count(population, chunk);
    for (uint64_t k = 0; k < chunks; ++k) {
        const ChunkSpan span = chunk_span(population, chunk, k);
        ASSERT_GE(span.count, 1u);
        ASSERT_LE(span.count, chunk);
        std::vector<uint32_t> buffer(chunk * genes, 0xDEADBEEFu);
        for (int m = 0; m < genes; ++m) {
            const RowCopy c = chunk_row_copy(population, chunk, span, m);
            ASSERT_LE(c.host_offset + c.count, host.size());
            ASSERT_LE(c.buffer_offset + c.count, buffer.size());
            std::memcpy(buffer.data() + c.buffer_offset, host.data() + c.host_offset,
                        c.count * sizeof(uint32_t));
        }
        const PlanView chunk_view{buffer.data(), chunk, genes};
        for (uint64_t j = 0; j < chunk; ++j)
            for (int m = 0; m < genes; ++m) {
                if (j < span.count)
                    ASSERT_EQ(chunk_view.gene(j, m), host_view.gene(span.first + j, m))
                        << "chunk " << k << " plan " << j << " gene " << m;
                else
                    ASSERT_EQ(chunk_view.gene(j, m), 0xDEADBEEFu) << "beyond the chunk's plans";
            }
        for (uint64_t j = 0; j < span.count; ++j) {
            ++seen[span.first + j];
            for (int m = 0; m < genes; ++m) chunk_view.set_gene(j, m, ~chunk_view.gene(j, m));
        }
        for (int m = 0; m < genes; ++m) {  // back to the host (repaired plans)
            const RowCopy c = chunk_row_copy(population, chunk, span, m);
            std::memcpy(host.data() + c.host_offset, buffer.data() + c.buffer_offset,
                        c.count * sizeof(uint32_t));
        }
    }
    for (uint64_t i = 0; i < population; ++i) {
        ASSERT_EQ(seen[i], 1) << "plan " << i << " in " << seen[i] << " chunks";
        for (int m = 0; m < genes; ++m)
            ASSERT_EQ(host_view.gene(i, m), ~original[m * population + i]);
    }
}

TEST(ChunkCopies, SmallPopulationsCopiedPlanByPlan) {
    for (uint64_t population : {1u, 2u, 7u, 64u, 100u, 1000u})
        for (int genes : {1, 3, 20})
            for (uint64_t chunk :
                 {uint64_t{1}, uint64_t{3}, uint64_t{64}, population, population + 5})
                check_by_copying(population, genes, chunk);
}

// Every gene row of every chunk, without the arrays: each row is tiled exactly once by the
// chunks' copies, in order, and offsets and byte counts are computed in 128 bits for comparison
// (a 32-bit product anywhere would show here).
void check_tiling(uint64_t population, int genes, uint64_t chunk) {
    SCOPED_TRACE(testing::Message()
                 << "population " << population << ", genes " << genes << ", chunk " << chunk);
    const uint64_t chunks = chunk_count(population, chunk);
    ASSERT_EQ(u128(chunks - 1) * chunk < population, true);
    ASSERT_GE(u128(chunks) * chunk, u128(population));
    for (int m = 0; m < genes; ++m) {
        u128 next = u128(m) * population;  // where this row's next copy must begin on the host
        for (uint64_t k = 0; k < chunks; ++k) {
            const RowCopy c =
                chunk_row_copy(population, chunk, chunk_span(population, chunk, k), m);
            ASSERT_EQ(u128(c.host_offset), next) << "gene " << m << " chunk " << k;
            ASSERT_EQ(u128(c.buffer_offset), u128(m) * chunk);
            ASSERT_GE(c.count, 1u);
            ASSERT_LE(c.count, chunk);
            ASSERT_EQ(u128(c.count) * 4, u128(c.count * sizeof(uint32_t)));
            next += c.count;
        }
        ASSERT_EQ(next, u128(m + 1) * population) << "gene " << m << " not covered exactly";
    }
}

TEST(ChunkCopies, LargePopulationsTileEveryGeneRow) {
    const uint64_t two29 = uint64_t{1} << 29;
    check_tiling(two29, 20, uint64_t{1} << 24);
    check_tiling(two29 + 1, 20, uint64_t{1} << 24);
    check_tiling((uint64_t{1} << 31) + 12345, 7, 3000001);  // past 2^31 plans, ragged last chunk
    check_tiling((uint64_t{1} << 34) - 1, 3, uint64_t{1} << 24);
    check_tiling(1000000007, 20, 1000000006);  // two chunks, the second of one plan
}

}  // namespace
}  // namespace gaeval::pile_in
