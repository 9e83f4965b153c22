// Perft against the published Ataxx counts (the project's copy of the table in tests/data), on
// both engines (7x7 fast path, table geometry), any thread count, and the GPU when present;
// other topologies against an independent reference that knows only cell coordinates.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "ataxx_test_support.hpp"
#include "gpu_test_support.hpp"

namespace {

using namespace gaeval;
using namespace gaeval::ataxx;
using namespace gaeval::ataxx::testing;

struct PerftRow {
    std::string fen;
    std::vector<uint64_t> counts;  // counts[d] = perft(d)
};

// Rows of the markdown table: | `FEN` | perft(0), perft(1), ... |
std::vector<PerftRow> read_perft_table() {
    std::ifstream in(std::string(GAEVAL_TEST_DATA_DIR) + "/ataxx_perft.md");
    std::vector<PerftRow> rows;
    for (std::string line; std::getline(in, line);) {
        if (line.rfind("| `", 0) != 0) continue;
        const auto fen_end = line.find('`', 3);
        PerftRow row;
        row.fen = line.substr(3, fen_end - 3);
        std::string counts = line.substr(line.find('|', fen_end) + 1);
        for (char& c : counts)
            if (c == ',' || c == '|') c = ' ';
        std::istringstream list(counts);
        for (uint64_t n; list >> n;) row.counts.push_back(n);
        rows.push_back(row);
    }
    return rows;
}

// Counts above this stay in the benchmark (startpos perft(7) and perft(8)).
constexpr uint64_t kTestedNodes = 200'000'000;

TEST(AtaxxPerft, TableIsReadWhole) {
    const auto rows = read_perft_table();
    ASSERT_EQ(rows.size(), 19u);
    EXPECT_EQ(rows[2].fen, "x5o/7/7/7/7/7/o5x x 0 1");
    ASSERT_EQ(rows[2].counts.size(), 9u);
    EXPECT_EQ(rows[2].counts[8], 176821532236ull);
    for (const auto& row : rows) EXPECT_GE(row.counts.size(), 4u) << row.fen;
}

void check_table(bool engine, const BackendChoice& backend, uint64_t limit) {
    int checked = 0;
    for (const auto& row : read_perft_table()) {
        const GameSetup setup = fen_setup(row.fen);
        for (std::size_t depth = 0; depth < row.counts.size(); ++depth) {
            if (row.counts[depth] > limit) continue;
            EXPECT_EQ(perft(setup, static_cast<int>(depth), backend, engine), row.counts[depth])
                << row.fen << " depth " << depth << " on " << variant_name(setup, engine);
            ++checked;
        }
    }
    EXPECT_GE(checked, 90);
}

TEST(AtaxxPerft, WholeTableOnTheFastPath) { check_table({}, cpu_backend(0), kTestedNodes); }

TEST(AtaxxPerft, WholeTableOnTheTableGeometry) { check_table(true, cpu_backend(0), kTestedNodes); }

TEST(AtaxxPerft, GappedRankCaseEndsWhenRankOneFills) {
    // Ranks 4-7 are unreachable: an engine that ends only on a full board counts 175.
    const GameSetup setup = fen_setup("7/7/7/7/-------/-------/x5o x 0 1");
    EXPECT_EQ(perft(setup, 6, cpu_backend(1)), 174u);
    EXPECT_EQ(perft(setup, 6, cpu_backend(1), true), 174u);
}

TEST(AtaxxPerft, ThreadCountDoesNotChangeCounts) {
    const GameSetup setup = fen_setup("x5o/7/2-1-2/3-3/2-1-2/7/o5x x 0 1");
    const uint64_t one = perft(setup, 5, cpu_backend(1));
    EXPECT_EQ(one, 2114588u);
    for (int threads : {2, 3, 8}) EXPECT_EQ(perft(setup, 5, cpu_backend(threads)), one);
}

// ---- other topologies against a reference that only knows coordinates -----------------------

// Grow-step distances between all cells from their coordinates alone (no neighbour tables).
std::vector<int> coordinate_distances(const Shape& s) {
    std::vector<int> row, col;
    for (int r = 0; r < shape_rows(s); ++r)
        for (int c = 0; c < shape_row_length(s, r); ++c) {
            row.push_back(r);
            col.push_back(c);
        }
    // Axial hex coordinate q of a cell for hex and offset boards (r is the row).
    auto axial_q = [&](int r, int c) {
        if (s.topology == Topology::Hex) return c + std::max(-s.width, -r);
        return c - (r - (r & 1)) / 2;  // odd rows shifted right: "odd-r" offset coordinates
    };
    const int n = static_cast<int>(row.size());
    std::vector<int> dist(n * n);
    for (int a = 0; a < n; ++a)
        for (int b = 0; b < n; ++b) {
            const int dr = row[a] - row[b], dc = col[a] - col[b];
            int d = -1;
            switch (s.topology) {
                case Topology::Square8:
                    d = std::max(std::abs(dr), std::abs(dc));
                    break;
                case Topology::Square4:
                    d = std::abs(dr) + std::abs(dc);
                    break;
                case Topology::Hex:
                case Topology::Offset: {
                    const int dq = axial_q(row[a], col[a]) - axial_q(row[b], col[b]);
                    d = (std::abs(dq) + std::abs(dr) + std::abs(dq + dr)) / 2;
                    break;
                }
                default:
                    break;
            }
            dist[a * n + b] = d;
        }
    return dist;
}

// Reference perft under ataxx rules with per-cell vectors (-1 empty, -2 blocked, else the
// player) and a distance matrix.
uint64_t reference_perft(const std::vector<int>& dist, const std::vector<int>& cells, int side,
                         int halfmove, int depth) {
    if (depth == 0) return 1;
    const int n = static_cast<int>(cells.size());
    int pieces[2] = {0, 0};
    for (int c : cells)
        if (c >= 0) ++pieces[c];
    if (!pieces[0] || !pieces[1] || halfmove >= 100) return 0;
    struct M {
        int from, to;
    };
    std::vector<M> moves;
    bool anyone = false;
    for (int to = 0; to < n; ++to) {
        if (cells[to] != -1) continue;
        bool grow = false;
        for (int from = 0; from < n; ++from) {
            if (cells[from] < 0) continue;
            const int d = dist[from * n + to];
            if (d > 2) continue;
            anyone = true;
            if (cells[from] != side) continue;
            if (d == 1) grow = true;
            if (d == 2) moves.push_back({from, to});
        }
        if (grow) moves.push_back({to, to});
    }
    if (moves.empty())
        return anyone ? reference_perft(dist, cells, 1 - side, halfmove + 1, depth - 1) : 0;
    if (depth == 1) return moves.size();
    uint64_t nodes = 0;
    for (const M& m : moves) {
        std::vector<int> next = cells;
        next[m.to] = side;
        if (m.from != m.to) next[m.from] = -1;
        for (int c = 0; c < n; ++c)
            if (next[c] == 1 - side && dist[c * n + m.to] == 1) next[c] = side;
        nodes +=
            reference_perft(dist, next, 1 - side, m.from == m.to ? 0 : halfmove + 1, depth - 1);
    }
    return nodes;
}

TEST(AtaxxPerft, OtherTopologiesMatchACoordinateReference) {
    std::mt19937 rng(11);
    const char* boards[] = {"square4:5x5",   "square8:9x8", "hex:3",        "offset:6x5",
                            "square8:16x16", "hex:8",       "offset:12x10", "square4:12x11"};
    for (const char* board : boards) {
        const Shape shape = parse_board_spec(board);
        const std::vector<int> dist = coordinate_distances(shape);
        for (int trial = 0; trial < 3; ++trial) {
            GameSetup s = random_setup(rng, shape, RuleSet::Ataxx, 2, trial == 0 ? 4 : 25, 8);
            std::vector<int> cells;
            for (int c = 0; c < shape_cells(shape); ++c)
                cells.push_back(s.cell[c] == kBlockedCell ? -2 : s.cell[c]);
            const int depth = shape_cells(shape) > 100 ? 2 : 3;
            EXPECT_EQ(perft(s, depth, cpu_backend(0)),
                      reference_perft(dist, cells, s.side, s.halfmove, depth))
                << board << " " << write_fen(s);
        }
    }
}

// Hand counts of the start position's first ply on boards the reference does not cover.
TEST(AtaxxPerft, HandCountedFirstPlies) {
    // tri:4 (16 cells; 3 corners, so x takes the apex and o the bottom-right corner). The apex
    // (an up triangle) touches one cell, the down triangle below it, whose other two
    // neighbours are the apex's jump range: 1 grow + 2 jumps.
    const GameSetup tri = start_setup(parse_board_spec("tri:4"), RuleSet::Ataxx, 2);
    EXPECT_EQ(write_fen(tri), "x/3/5/6o x 0 1");
    EXPECT_EQ(perft(tri, 1, cpu_backend(1)), 3u);
    // square4:5x5 x in the centre, o in a corner: 4 grows + 8 jumps (Manhattan distance 2).
    EXPECT_EQ(perft(fen_setup("o4/5/2x2/5/5 x 0 1", "square4:5x5"), 1, cpu_backend(1)), 12u);
    // hex:2 x in the centre, o on a corner (distance 2): 6 grows + 12 - 1 jumps.
    EXPECT_EQ(perft(fen_setup("o2/4/2x2/4/3 x 0 1", "hex:2"), 1, cpu_backend(1)), 17u);
}

TEST(AtaxxPerft, CudaMatchesCpu) {
    GAEVAL_REQUIRE_DEVICE_OR_SKIP();
    const BackendChoice gpu = resolve_backend("cuda", 0);
    for (const auto& row : read_perft_table()) {
        const GameSetup setup = fen_setup(row.fen);
        for (std::size_t depth = 0; depth < row.counts.size(); ++depth) {
            if (row.counts[depth] >
                gaeval::testing::gpu_test_size(10 * kTestedNodes, uint64_t{200'000}))
                continue;
            EXPECT_EQ(perft(setup, static_cast<int>(depth), gpu), row.counts[depth]) << row.fen;
            if (row.counts[depth] < kTestedNodes / 10) {
                EXPECT_EQ(perft(setup, static_cast<int>(depth), gpu, true), row.counts[depth])
                    << row.fen << " (table geometry)";
            }
        }
    }
    std::mt19937 rng(5);
    for (const char* board : {"hex:8", "square8:11x11", "tri:9", "offset:8x7"}) {
        for (int players : {2, 3}) {
            const GameSetup s =
                random_setup(rng, parse_board_spec(board), RuleSet::GeneticGame, players, 10, 5);
            const int depth = gaeval::testing::gpu_test_size(3, 2);
            EXPECT_EQ(perft(s, depth, gpu), perft(s, depth, cpu_backend(0))) << board << players;
        }
    }
}

}  // namespace

// The device perft's chunked branches (kernels/perft_chunks.hpp) on small trees: a budget of a
// few KB per level (GAEVAL_PERFT_BUDGET) forces parents into many runs; the counts must stay the
// published ones.
TEST(AtaxxPerft, CudaChunkedUnderASmallBudgetMatchesTheTable) {
    GAEVAL_REQUIRE_DEVICE_OR_SKIP();
    const BackendChoice gpu = resolve_backend("cuda", 0);
    int checked = 0;
    for (const char* budget : {"4096", "65536"}) {
        ::setenv("GAEVAL_PERFT_BUDGET", budget, 1);
        for (const auto& row : read_perft_table()) {
            const GameSetup setup = fen_setup(row.fen);
            for (std::size_t depth = 3; depth < row.counts.size(); ++depth) {
                if (row.counts[depth] >
                    gaeval::testing::gpu_test_size(uint64_t{5'000'000}, uint64_t{20'000}))
                    break;
                EXPECT_EQ(perft(setup, static_cast<int>(depth), gpu), row.counts[depth])
                    << row.fen << " depth " << depth << " budget " << budget;
                ++checked;
            }
        }
    }
    ::unsetenv("GAEVAL_PERFT_BUDGET");
    EXPECT_GT(checked, 10);
}
