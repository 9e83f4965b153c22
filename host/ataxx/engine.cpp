#include "host/ataxx/engine.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <new>

#if defined(__linux__)
#include <sys/mman.h>
#endif

#include "games/core/search.hpp"

namespace gaeval::ataxx {

namespace {

using Pos = Position<1, 2>;
using Clock = std::chrono::steady_clock;

// Bit-sliced counters: bit i of each word is one cell's count (0..8) in binary (the move
// ordering's captures a cell; the features' counts to 3 are features.hpp's NeighbourPlanes).
struct CellCounts {
    uint64_t b0 = 0, b1 = 0, b2 = 0, b3 = 0;

    void add(uint64_t x) {
        const uint64_t c0 = b0 & x;
        b0 ^= x;
        const uint64_t c1 = b1 & c0;
        b1 ^= c0;
        const uint64_t c2 = b2 & c1;
        b2 ^= c1;
        b3 |= c2;
    }
};

// For every cell of the 7x7 layout, how many of its 8 neighbours are in `cells` (a subset of
// Square7Geometry::kAll). A shift either lands on the true neighbour or off the board (the
// unused eighth file, rank or word; see Square7Geometry::dilate), where no count is read.
CellCounts neighbour_counts(uint64_t cells) { return add_neighbour_shifts<CellCounts>(cells); }

constexpr float kWinZone = kAlphaBetaWin - 1000.0f;  // values beyond: a finished game ahead

// The next float above x (x finite): the upper edge of a null window at x.
float float_above(float x) { return -float_below(-x); }

// Ply-independent form of a value for the table: a win or loss counted from this node.
float value_to_table(float v, int ply) {
    if (v >= kWinZone) return v + static_cast<float>(ply);
    if (v <= -kWinZone) return v - static_cast<float>(ply);
    return v;
}
float value_from_table(float v, int ply) {
    if (v >= kWinZone) return v - static_cast<float>(ply);
    if (v <= -kWinZone) return v + static_cast<float>(ply);
    return v;
}

uint64_t splitmix64(uint64_t* state) {
    uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

// Below this halfmove clock no position within kEngineMaxDepth plies can reach the 50-move
// limit, so the clock does not change a value and stays out of the key.
constexpr int kHalfmoveKeyed = kAtaxxHalfmoveLimit - kEngineMaxDepth;

// Nodes at least this many plies above the leaves order their moves by static value.
constexpr int kOrderByValueDepth = 2;
// Moves from this index on (in search order) are late: reduced under EngineLimits::reductions.
constexpr int kLateMove = 3;

enum Bound : uint8_t { kNoBound = 0, kUpper = 1, kLower = 2, kExact = 3 };

struct TableEntry {
    uint64_t key = 0;
    float value = 0.0f;
    int16_t from = -1, to = -1;
    int8_t depth = -1;
    uint8_t bound = kNoBound;
    uint8_t generation = 0;
    bool reduced = false;  // written by a search with reductions: not an exact value
};

struct MoveList {
    Move moves[kEngineMaxMoves];
    int32_t scores[kEngineMaxMoves];
    // The child's static value for the mover where moves are ordered by value, else
    // +infinity (unknown: never pruned by futility).
    float statics[kEngineMaxMoves];
    int count = 0;
};

// Futility pruning under EngineLimits::reductions, by plies above the leaves: a move other
// than the first whose child's static value (for the mover) plus this margin, in
// aspiration_unit()s (about one cell's worth of every feature), is at most alpha is not
// searched. Two plies up the child's value after the reply is mostly below its static value
// (the reply converts pieces), so no margin; three plies up the mover moves again below it.
// Negative: no pruning at that depth (kept off elsewhere: larger margins, depth 4, the
// skipping of jumps that convert nothing one ply up and larger late move reductions measured
// no better; bench/results/ataxx-engines.md).
constexpr float kFutilityMargin[] = {-1.0f, -1.0f, 0.0f, 1.0f};
constexpr int kFutilityDepths = static_cast<int>(sizeof kFutilityMargin / sizeof(float));

// Reverse futility pruning under EngineLimits::reductions: a null-window node at most this
// many plies above the leaves whose static value for the side to move, less
// kReverseFutilityMargin aspiration units per ply, is still at least beta returns that value
// unsearched (two plies up this skips the static value of every move the ordering makes).
constexpr int kReverseFutilityDepth = 2;
constexpr float kReverseFutilityMargin = 0.5f;

// Late move reductions grow with depth and move number (a move's index in search order):
// kLateReductionBase + ln(depth) * ln(index + 1) / kLateReductionDivisor plies, rounded down
// to even (the leaves stay the same seat's, as with the fixed two plies before).
constexpr double kLateReductionBase = 1.0;
constexpr double kLateReductionDivisor = 1.5;

// late_move_reduction's values before the full-window and depth limits, built once.
struct ReductionTable {
    int8_t plies[kEngineMaxDepth + 1][kEngineMaxMoves] = {};
    ReductionTable() {
        for (int depth = 3; depth <= kEngineMaxDepth; ++depth)
            for (int index = kLateMove; index < kEngineMaxMoves; ++index) {
                const double grown =
                    kLateReductionBase + std::log(static_cast<double>(depth)) *
                                             std::log(static_cast<double>(index + 1)) /
                                             kLateReductionDivisor;
                const int even = 2 * static_cast<int>(grown / 2.0);
                plies[depth][index] = static_cast<int8_t>(std::clamp(even, 2, 64));
            }
    }
};
const ReductionTable& reduction_table() {
    static const ReductionTable table;
    return table;
}

}  // namespace

int late_move_reduction(int depth, int move_index, bool null_window) {
    if (depth < 3 || depth > kEngineMaxDepth || move_index < kLateMove ||
        move_index >= kEngineMaxMoves)
        return 0;
    const int plies = reduction_table().plies[depth][move_index];
    const int window = null_window ? plies : std::max(2, plies - 2);
    return std::min(window, 2 * ((depth - 1) / 2));  // even, and the child at least a leaf
}

Evaluator::Evaluator(const float* weights, int playable_cells) : stride_(playable_cells + 1) {
    terms_.resize(static_cast<std::size_t>(kFeatureCount) * stride_);
    const float scale = static_cast<float>(playable_cells);
    for (int i = 0; i < kFeatureCount; ++i)
        for (int count = 0; count <= playable_cells; ++count) {
            // The product unit_features and weighted_score form: value / N, then weight * it.
            const int value = bad_for_owner(i) ? playable_cells - count : count;
            const float unit = static_cast<float>(value) / scale;
            terms_[i * stride_ + count] = weights[i] * unit;
        }
}

float Evaluator::score(const Square7Game& game, const Pos& p, int seat) const {
    int counts[kFeatureCount];
    features(game, p, seat, counts);  // on 7x7 bit-parallel (games/ataxx/features.hpp)
    float total = 0.0f;
    for (int i = 0; i < kFeatureCount; ++i) total = total + terms_[i * stride_ + counts[i]];
    return total;
}

struct Engine::Impl {
    std::vector<float> weights;
    // The table in 2 MiB-aligned memory the kernel is asked to back with huge pages: a probe
    // is a random access into tens of MiB, and with 4 KiB pages most probes also miss the TLB.
    struct FreeTable {
        void operator()(TableEntry* t) const { std::free(t); }
    };
    std::unique_ptr<TableEntry[], FreeTable> table;
    std::size_t table_entries = 0;
    uint64_t table_mask = 0;
    uint8_t generation = 0;

    uint64_t piece_keys[2][64];
    uint64_t side_key, root_seat_key;
    uint64_t halfmove_keys[kAtaxxHalfmoveLimit + 1];

    // Per search.
    Square7Game game{};
    uint64_t playable = 0;  // the board the table's entries belong to
    std::unique_ptr<Evaluator> evaluator;
    int evaluator_cells = -1;
    int root_seat = 0;
    uint64_t nodes = 0, node_limit = 0, next_check = 0;
    bool aborted = false;
    bool abortable = false;
    bool reduce = false;  // late move reductions (play on the clock), else exact minimax
                          // while depth 1 runs: it always completes
    Clock::time_point start;
    double cpu_start_ms = 0;
    bool cpu_clock = false;
    double hard_ms = -1;
    const std::atomic<bool>* stop = nullptr;
    float unit = 0.0f;  // aspiration_unit() of this search

    std::vector<MoveList> lists{kEngineMaxDepth + 1};
    Move killers[kEngineMaxDepth + 1][2];
    int32_t history[2][64][64];

    Impl(const std::vector<float>& w, int tt_megabytes) : weights(w) {
        weights.resize(kFeatureCount, 0.0f);
        std::size_t entries = 1;
        const std::size_t wanted =
            static_cast<std::size_t>(std::max(1, tt_megabytes)) * 1024 * 1024 / sizeof(TableEntry);
        while (entries * 2 <= wanted) entries *= 2;
        constexpr std::size_t kHugePage = std::size_t{2} << 20;
        const std::size_t bytes =
            (entries * sizeof(TableEntry) + kHugePage - 1) / kHugePage * kHugePage;
        void* memory = std::aligned_alloc(kHugePage, bytes);
        if (memory == nullptr) throw std::bad_alloc();
#if defined(__linux__) && defined(MADV_HUGEPAGE)
        madvise(memory, bytes, MADV_HUGEPAGE);  // a hint: failure only costs speed
#endif
        table.reset(static_cast<TableEntry*>(memory));
        table_entries = entries;
        table_mask = entries - 1;
        playable = Square7Geometry::kAll;  // the board of the first search, usually: no clear
        uint64_t seed = 0x5eed5eed2026ull;
        for (auto& side : piece_keys)
            for (uint64_t& k : side) k = splitmix64(&seed);
        side_key = splitmix64(&seed);
        root_seat_key = splitmix64(&seed);
        for (uint64_t& k : halfmove_keys) k = splitmix64(&seed);
        clear();
    }

    void clear() {
        std::fill(table.get(), table.get() + table_entries, TableEntry{});
        for (auto& k : killers) k[0] = k[1] = Move{};
        std::memset(history, 0, sizeof history);
        generation = 0;
    }

    uint64_t halfmove_key(int halfmove) const {
        if (halfmove < kHalfmoveKeyed) return 0;
        return halfmove_keys[std::min(halfmove, kAtaxxHalfmoveLimit)];
    }
    uint64_t key_of(const Pos& p) const {
        uint64_t k =
            (p.side ? side_key : 0) ^ (root_seat ? root_seat_key : 0) ^ halfmove_key(p.halfmove);
        for (int s = 0; s < 2; ++s)
            for (uint64_t x = p.pieces[s].w[0]; x; x = clear_lowest(x))
                k ^= piece_keys[s][lowest_bit(x)];
        return k;
    }
    // The key of child, made from p (whose key is `key`) by one move.
    uint64_t child_key(uint64_t key, const Pos& p, const Pos& child) const {
        uint64_t k = key ^ side_key ^ halfmove_key(p.halfmove) ^ halfmove_key(child.halfmove);
        for (int s = 0; s < 2; ++s)
            for (uint64_t x = p.pieces[s].w[0] ^ child.pieces[s].w[0]; x; x = clear_lowest(x))
                k ^= piece_keys[s][lowest_bit(x)];
        return k;
    }

    // Milliseconds of CPU time used by this process (all its threads).
    static double process_cpu_ms() {
        timespec t{};
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
        return static_cast<double>(t.tv_sec) * 1000.0 + static_cast<double>(t.tv_nsec) / 1.0e6;
    }
    double elapsed_ms() const {
        if (cpu_clock) return process_cpu_ms() - cpu_start_ms;
        return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
    }
    bool out_of_budget() {
        if (!abortable) return false;
        if (node_limit != 0 && nodes >= node_limit) return true;
        if (nodes < next_check) return false;
        next_check = nodes + 1024;
        if (stop->load(std::memory_order_relaxed)) return true;
        return hard_ms >= 0 && elapsed_ms() >= hard_ms;
    }

    // Value of a finished game for the root seat, `ply` plies below the root.
    float terminal_value(const Pos& p, int ply) const {
        const SeatResult r = game.seat_result(p, root_seat);
        const float win = kAlphaBetaWin - static_cast<float>(ply);
        return r == SeatResult::Win ? win : (r == SeatResult::Loss ? -win : 0.0f);
    }

    // Generates the moves of p into lists[ply], scored for ordering: the hash move, the
    // killers, then (with `by_value`) the static value of the position after the move for the
    // side to move, else its net material (captures, +1 for a grow), ties by history.
    void generate(const Pos& p, int ply, Move hash_move, bool by_value) {
        MoveList& list = lists[ply];
        list.count = 0;
        const uint64_t opp = p.pieces[p.side ^ 1].w[0];
        const Move k0 = killers[ply][0], k1 = killers[ply][1];
        const float sign = p.side == root_seat ? 1.0f : -1.0f;
        game.for_each_move(p, [&](const Move& m) {
            int32_t score;
            float static_value = kAlphaBetaInfinity;
            if (m == hash_move && !hash_move.is_pass()) {
                score = 1 << 30;
            } else if (m.is_pass()) {
                score = 0;
            } else if (m == k0) {
                score = (1 << 29) + 1;
            } else if (m == k1) {
                score = 1 << 29;
            } else if (by_value) {
                const Pos child = game.make(p, m);
                const float v = game.is_over(child)
                                    ? sign * terminal_value(child, ply + 1)
                                    : sign * evaluator->score(game, child, root_seat);
                static_value = v;
                const float scaled = std::clamp(v * 65536.0f, -268435456.0f, 268435456.0f);
                score = static_cast<int32_t>(scaled) + (history[p.side][m.from][m.to] >> 12);
            } else {
                const int gain =
                    popcount64(game.geo.grow_of(m.to).w[0] & opp) + (m.is_grow() ? 1 : 0);
                score = (gain << 20) + history[p.side][m.from][m.to];
            }
            list.moves[list.count] = m;
            list.scores[list.count] = score;
            list.statics[list.count] = static_value;
            ++list.count;
        });
    }
    // Swaps the best-scored of moves i.. to i and returns it.
    static Move pick(MoveList& list, int i) {
        int best = i;
        for (int j = i + 1; j < list.count; ++j)
            if (list.scores[best] < list.scores[j]) best = j;
        if (best != i) {
            std::swap(list.moves[i], list.moves[best]);
            std::swap(list.scores[i], list.scores[best]);
            std::swap(list.statics[i], list.statics[best]);
        }
        return list.moves[i];
    }

    void reward(const Pos& p, const Move& m, int depth, int ply) {
        if (m.is_pass()) return;
        if (!(killers[ply][0] == m)) {
            killers[ply][1] = killers[ply][0];
            killers[ply][0] = m;
        }
        int32_t& h = history[p.side][m.from][m.to];
        h += depth * depth;
        if (h >= (1 << 19))
            for (auto& side : history)
                for (auto& row : side)
                    for (int32_t& x : row) x /= 2;
    }

    void store(uint64_t key, int depth, int ply, float value, Bound bound, const Move& m) {
        TableEntry& e = table[key & table_mask];
        if (e.key != key && e.generation == generation && e.depth > depth + 2) return;
        e.key = key;
        e.value = value_to_table(value, ply);
        e.from = m.from;
        e.to = m.to;
        e.depth = static_cast<int8_t>(depth);
        e.bound = bound;
        e.generation = generation;
        e.reduced = reduce;
    }

    // The value (fail-soft) of p one ply deep, in (alpha, beta), its best move in *best_move:
    // the moves in stages without a move list: the hash move, then by pieces gained (a grow
    // converting k pieces gains k + 1, a jump converting k gains k), grows before jumps of the
    // same gain, each stage by ascending cell (tiktaxx's order: captures, singles first).
    float frontier(const Pos& p, int ply, float alpha, float beta, const Move& hash_move,
                   Move* best_move) {
        const uint64_t own = p.pieces[p.side].w[0];
        const uint64_t opp = p.pieces[p.side ^ 1].w[0];
        const uint64_t empty = game.geo.playable_mask & ~(own | opp);
        float best = -kAlphaBetaInfinity;
        *best_move = Move{};
        // Searches m; true at a cutoff.
        const auto visit = [&](const Move& m) {
            const Pos child = game.make(p, m);
            ++nodes;
            const float child_sign = child.side == root_seat ? 1.0f : -1.0f;
            const float v = game.is_over(child)
                                ? -(child_sign * terminal_value(child, ply + 1))
                                : -(child_sign * evaluator->score(game, child, root_seat));
            if (best < v) {
                best = v;
                *best_move = m;
                if (alpha < v) {
                    alpha = v;
                    if (!(alpha < beta)) return true;
                }
            }
            return false;
        };
        const uint64_t grows = Square7Geometry::dilate(own) & empty;
        const bool any_jump = Square7Geometry::dilate(Square7Geometry::dilate(own)) & empty;
        if (!grows && !any_jump) {
            visit(Move::pass());
            return best;
        }
        bool hash_legal = false;
        if (!hash_move.is_pass() && hash_move.to >= 0 && ((empty >> hash_move.to) & 1)) {
            if (hash_move.is_grow())
                hash_legal = (grows >> hash_move.to) & 1;
            else
                hash_legal = hash_move.from >= 0 && ((own >> hash_move.from) & 1) &&
                             ((Square7Geometry::jump_ring(hash_move.to) >> hash_move.from) & 1);
        }
        if (hash_legal && visit(hash_move)) return best;
        // Cells of `empty` by how many opponent pieces a move there converts.
        const CellCounts around = neighbour_counts(opp);
        uint64_t by_captures[9];
        for (int k = 0; k <= 8; ++k) {
            const uint64_t m0 = (k & 1) ? around.b0 : ~around.b0;
            const uint64_t m1 = (k & 2) ? around.b1 : ~around.b1;
            const uint64_t m2 = (k & 4) ? around.b2 : ~around.b2;
            const uint64_t m3 = (k & 8) ? around.b3 : ~around.b3;
            by_captures[k] = m0 & m1 & m2 & m3 & empty;
        }
        for (int gain = 9; gain >= 0; --gain) {
            if (gain >= 1)
                for (uint64_t x = by_captures[gain - 1] & grows; x; x = clear_lowest(x)) {
                    const Move m = Move::grow(lowest_bit(x));
                    if (hash_legal && m == hash_move) continue;
                    if (visit(m)) return best;
                }
            if (gain <= 8) {
                for (uint64_t x = by_captures[gain]; x; x = clear_lowest(x)) {
                    const int to = lowest_bit(x);
                    for (uint64_t y = Square7Geometry::jump_ring(to) & own; y;
                         y = clear_lowest(y)) {
                        const Move m = Move::jump(lowest_bit(y), to);
                        if (hash_legal && m == hash_move) continue;
                        if (visit(m)) return best;
                    }
                }
            }
        }
        return best;
    }

    // True when no line of `plies` (1 or 2) plies from p can finish the game: the side to
    // move cannot lose all its pieces to the one reply (they cannot all end up around one
    // cell: more than 8, or two of them 5 files or ranks apart, which a jump of 2 leaves 3
    // apart), more empty cells are left than `plies` grows can fill, and the 50-move rule is
    // more than `plies` plies away. (The opponent wiped out is a win: no value to keep.)
    bool game_cannot_end_within(const Pos& p, int plies) const {
        const uint64_t own = p.pieces[p.side].w[0], opp = p.pieces[p.side ^ 1].w[0];
        const int empty = popcount64(game.geo.playable_mask & ~(own | opp));
        if (empty <= plies || p.halfmove + plies >= kAtaxxHalfmoveLimit) return false;
        if (plies < 2 || popcount64(own) > 8) return true;
        uint64_t files = own;  // bit f: a piece on file f (cell = rank * 8 + file)
        files |= files >> 32;
        files |= files >> 16;
        files |= files >> 8;
        files &= 0xff;
        uint64_t ranks = 0;  // bit r: a piece on rank r
        for (int r = 0; r < 8; ++r)
            if ((own >> (8 * r)) & 0xff) ranks |= uint64_t{1} << r;
        const auto span = [](uint64_t bits) {
            return bits ? highest_bit(bits) - lowest_bit(bits) : 0;
        };
        return span(files) >= 5 || span(ranks) >= 5;
    }

    // Negamax value (fail-soft) of p for its side to move, `depth` plies deep, in (alpha, beta).
    // Meaningless once `aborted` is set.
    // static_value: p's static value for its side to move when the parent's ordering made it
    // (+infinity: not known).
    float negamax(const Pos& p, uint64_t key, int depth, int ply, float alpha, float beta,
                  bool null_allowed = true, float static_value = kAlphaBetaInfinity) {
        const float sign = p.side == root_seat ? 1.0f : -1.0f;
        if (game.is_over(p)) return sign * terminal_value(p, ply);
        if (depth <= 0) return sign * evaluator->score(game, p, root_seat);
        if (out_of_budget()) {
            aborted = true;
            return 0.0f;
        }
        Move hash_move{};
        const TableEntry& e = table[key & table_mask];
        if (e.key == key && e.bound != kNoBound) {
            hash_move = Move{e.from, e.to};
            // The same remaining depth keeps values exact minimax; with reductions (values no
            // longer exact anyway) a deeper entry serves too. An exact search never takes a
            // value written with reductions (its move only orders).
            if ((e.depth == depth || (reduce && e.depth > depth)) && (reduce || !e.reduced)) {
                const float v = value_from_table(e.value, ply);
                if (e.bound == kExact) return v;
                if (e.bound == kLower && v >= beta) return v;
                if (e.bound == kUpper && v <= alpha) return v;
            }
        }
        const bool null_window = float_above(alpha) == beta;
        // Reverse futility pruning (with reductions only): a side to move this far ahead of
        // beta a few plies above the leaves is taken to stay there. Not where the game can end
        // within those plies (a static value does not see it): the mover wiped out (one reply
        // converts at most 8), the board filled (a grow fills one cell), the 50-move rule.
        if (reduce && depth <= kReverseFutilityDepth && ply > 0 && null_window && beta < kWinZone &&
            beta > -kWinZone && game_cannot_end_within(p, depth)) {
            const float here = static_value < kAlphaBetaInfinity
                                   ? static_value
                                   : sign * evaluator->score(game, p, root_seat);
            const float v = here - kReverseFutilityMargin * unit * static_cast<float>(depth);
            if (!(v < beta)) return v;
        }
        // Null move (with reductions only): when passing and searching two plies less still
        // fails high, the node is taken to fail high. Two plies: the same seat moves at the
        // leaves. Not twice in a row, not in a full-window node, not without a move to pass.
        if (reduce && null_allowed && depth >= 4 && ply > 0 && null_window) {
            const Pos passed = game.make(p, Move::pass());
            const float v = -negamax(passed, child_key(key, p, passed), depth - 1 - 2, ply + 1,
                                     -beta, -alpha, false);
            if (aborted) return 0.0f;
            if (!(v < beta) && v < kWinZone) return v;
        }
        if (depth == 1) {
            const float alpha_in = alpha;
            Move best_move{};
            const float best = frontier(p, ply, alpha, beta, hash_move, &best_move);
            if (aborted) return 0.0f;
            const Bound bound = !(alpha_in < best) ? kUpper : (!(best < beta) ? kLower : kExact);
            store(key, depth, ply, best, bound, best_move);
            return best;
        }
        generate(p, ply, hash_move, depth >= kOrderByValueDepth);
        MoveList& list = lists[ply];
        const float alpha_in = alpha;
        float best = -kAlphaBetaInfinity;
        Move best_move{};
        for (int i = 0; i < list.count; ++i) {
            const Move m = pick(list, i);
            if (reduce && i > 0 && depth < kFutilityDepths) {
                const float margin = kFutilityMargin[depth];
                if (margin >= 0.0f && list.statics[i] + margin * unit <= alpha) {
                    // Fail-soft: the static value stands in for the move's.
                    if (best < list.statics[i]) best = list.statics[i];
                    continue;
                }
            }
            const Pos child = game.make(p, m);
            ++nodes;
            const uint64_t k = depth > 1 ? child_key(key, p, child) : 0;
            if (depth > 1) __builtin_prefetch(&table[k & table_mask]);
            float v;
            // The child's static value for its side to move, where the ordering made it.
            const float child_static =
                list.statics[i] < kAlphaBetaInfinity ? -list.statics[i] : kAlphaBetaInfinity;
            if (i == 0) {
                v = -negamax(child, k, depth - 1, ply + 1, -beta, -alpha, true, child_static);
            } else {
                const float scout = float_above(alpha);
                // Late moves (past the hash move, the killers and the best-ordered few) are
                // first searched shallower by an even number of plies (the same seat moves at
                // the leaves, so the shallower value is not one move's worth off), and searched
                // again at full depth when they beat alpha.
                const int cut = reduce && list.scores[i] < (1 << 29)
                                    ? late_move_reduction(depth, i, null_window)
                                    : 0;
                v = -negamax(child, k, depth - 1 - cut, ply + 1, -scout, -alpha, true,
                             child_static);
                if (cut > 0 && !aborted && alpha < v)
                    v = -negamax(child, k, depth - 1, ply + 1, -scout, -alpha, true, child_static);
                if (!aborted && scout < beta && alpha < v && v < beta)
                    v = -negamax(child, k, depth - 1, ply + 1, -beta, -alpha, true, child_static);
            }
            if (aborted) return 0.0f;
            if (best < v) {
                best = v;
                best_move = m;
                if (alpha < v) {
                    alpha = v;
                    if (!(alpha < beta)) {
                        reward(p, m, depth, ply);
                        break;
                    }
                }
            }
        }
        const Bound bound = !(alpha_in < best) ? kUpper : (!(best < beta) ? kLower : kExact);
        store(key, depth, ply, best, bound, best_move);
        return best;
    }

    struct RootMove {
        Move move;
        Pos child;
    };

    // One pass over the root moves at `depth` in (alpha, beta): the best value (fail-soft) and
    // its move in *best_move. When aborted, *partial is set to a move proven better than the
    // first one (a value above alpha), if any.
    float search_root(const Pos& root, uint64_t key, std::vector<RootMove>& moves, int depth,
                      float alpha, float beta, Move* best_move, bool* found_partial,
                      Move* partial) {
        const float alpha_in = alpha;
        float best = -kAlphaBetaInfinity;
        int best_at = 0;
        *found_partial = false;
        for (std::size_t i = 0; i < moves.size(); ++i) {
            const Pos& child = moves[i].child;
            ++nodes;
            const uint64_t k = child_key(key, root, child);
            float v;
            if (i == 0) {
                v = -negamax(child, k, depth - 1, 1, -beta, -alpha);
            } else {
                const float scout = float_above(alpha);
                v = -negamax(child, k, depth - 1, 1, -scout, -alpha);
                if (!aborted && scout < beta && alpha < v && v < beta)
                    v = -negamax(child, k, depth - 1, 1, -beta, -alpha);
            }
            if (aborted) break;
            if (best < v) {
                best = v;
                best_at = static_cast<int>(i);
                if (alpha < v) {
                    alpha = v;
                    if (alpha_in < v) {
                        *found_partial = true;
                        *partial = moves[i].move;
                    }
                    if (!(alpha < beta)) break;
                }
            }
        }
        if (aborted) return 0.0f;
        *best_move = moves[best_at].move;
        // The best move first next time; the others keep their order.
        std::rotate(moves.begin(), moves.begin() + best_at, moves.begin() + best_at + 1);
        const Bound bound = !(alpha_in < best) ? kUpper : (!(best < beta) ? kLower : kExact);
        store(key, depth, 0, best, bound, *best_move);
        return best;
    }

    std::vector<Move> principal_variation(const Pos& root, uint64_t key, Move first, int depth) {
        std::vector<Move> pv{first};
        Pos p = game.make(root, first);
        uint64_t k = child_key(key, root, p);
        while (static_cast<int>(pv.size()) < depth && !game.is_over(p)) {
            const TableEntry& e = table[k & table_mask];
            if (e.key != k || e.bound == kNoBound) break;
            const Move m{e.from, e.to};
            bool legal = false;
            game.for_each_move(p, [&](const Move& x) { legal = legal || x == m; });
            if (!legal) break;
            pv.push_back(m);
            const Pos next = game.make(p, m);
            k = child_key(k, p, next);
            p = next;
        }
        return pv;
    }

    EngineResult search(const Square7Game& g, const Pos& root, const EngineLimits& limits,
                        const std::atomic<bool>& stop_flag,
                        const std::function<void(const EngineReport&)>& report) {
        start = Clock::now();
        cpu_clock = limits.cpu_clock;
        cpu_start_ms = cpu_clock ? process_cpu_ms() : 0.0;
        reduce = limits.reductions;
        if (g.geo.playable_mask != playable || g.rules != game.rules) {
            clear();
            playable = g.geo.playable_mask;
        }
        game = g;
        const int cells = popcount64(playable);
        if (!evaluator || evaluator_cells != cells) {
            evaluator = std::make_unique<Evaluator>(weights.data(), cells);
            evaluator_cells = cells;
        }
        root_seat = root.side;
        unit = aspiration_unit();
        ++generation;
        stop = &stop_flag;
        hard_ms = limits.hard_ms;
        nodes = 0;
        next_check = 0;
        aborted = false;
        for (auto& k : killers) k[0] = k[1] = Move{};

        const uint64_t key = key_of(root);
        std::vector<RootMove> moves;
        generate(root, 0, Move{}, true);
        for (int i = 0; i < lists[0].count; ++i) {
            const Move m = pick(lists[0], i);
            moves.push_back(RootMove{m, game.make(root, m)});
        }
        EngineResult result;
        result.move = moves.front().move;
        // A forced move under the clock is played at once.
        const bool forced = moves.size() == 1 && (limits.soft_ms >= 0 || limits.hard_ms >= 0);
        const int max_depth = forced ? 1 : std::clamp(limits.depth, 1, kEngineMaxDepth);
        float values[kEngineMaxDepth + 1] = {};
        for (int depth = 1; depth <= max_depth; ++depth) {
            node_limit = depth == 1 ? 0 : limits.nodes;
            abortable = depth > 1;
            if (depth > 1 && limits.soft_ms >= 0 && elapsed_ms() >= limits.soft_ms) break;
            if (depth > 1 && (stop_flag.load() || (node_limit && nodes >= node_limit))) {
                result.stopped = true;
                break;
            }
            // Aspiration: a window around the last value, widened on failure.
            const float unit = aspiration_unit();
            float delta = unit;
            // The centre: the value two depths back (the same side moves at the leaves; the
            // value of a depth and the next differ by about one move's worth).
            const float centre = depth >= 3 ? values[depth - 2] : 0.0f;
            const bool aspire = depth >= 3 && centre < kWinZone && centre > -kWinZone && unit > 0;
            float alpha = aspire ? centre - delta : -kAlphaBetaInfinity;
            float beta = aspire ? centre + delta : kAlphaBetaInfinity;
            Move best_move{}, partial{};
            bool found_partial = false;
            float v;
            while (true) {
                v = search_root(root, key, moves, depth, alpha, beta, &best_move, &found_partial,
                                &partial);
                if (aborted) break;
                if (!(alpha < v)) {
                    delta *= 4;
                    alpha = delta > 64 * unit ? -kAlphaBetaInfinity : centre - delta;
                } else if (!(v < beta)) {
                    delta *= 4;
                    beta = delta > 64 * unit ? kAlphaBetaInfinity : centre + delta;
                } else {
                    break;
                }
            }
            if (aborted) {
                result.stopped = true;
                // A move proven better than the last depth's best at this depth is played.
                if (found_partial) result.move = partial;
                break;
            }
            values[depth] = v;
            result.move = best_move;
            result.value = v;
            result.depth = depth;
            result.nodes = nodes;
            if (report) {
                EngineReport r;
                r.depth = depth;
                r.value = v;
                r.nodes = nodes;
                r.ms = elapsed_ms();
                r.pv = principal_variation(root, key, best_move, depth);
                report(r);
            }
            if (v >= kWinZone || v <= -kWinZone) {
                // A finished game within reach at every line: deeper iterations only confirm it.
                const int plies = static_cast<int>(kAlphaBetaWin - std::fabs(v));
                if (plies <= depth) break;
            }
        }
        result.nodes = nodes;
        return result;
    }

    // About one cell's worth of every feature: the first aspiration half-width.
    float aspiration_unit() const {
        float total = 0.0f;
        for (float w : weights) total += std::fabs(w);
        return total / static_cast<float>(std::max(1, evaluator_cells));
    }
};

Engine::Engine(const std::vector<float>& weights, int tt_megabytes)
    : impl_(std::make_unique<Impl>(weights, tt_megabytes)) {}
Engine::~Engine() = default;
void Engine::clear() { impl_->clear(); }
EngineResult Engine::search(const Square7Game& game, const Position<1, 2>& root,
                            const EngineLimits& limits, const std::atomic<bool>& stop,
                            const std::function<void(const EngineReport&)>& report) {
    return impl_->search(game, root, limits, stop, report);
}

}  // namespace gaeval::ataxx
