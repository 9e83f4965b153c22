// Position features for the weighted player (the seed's attributes), counted for one player
// ("own") against the union of the others ("opponent"). Each is a cell count computed with
// bitboard operations.
//
// Definitions (empty = playable cells without a piece; a piece's exposure = the number of empty
// cells in its grow range, the only cells from which a move can capture it):
//   OwnPieces, OpponentPieces   pieces on the board.
//   OwnSafe                     own pieces with exposure 0: every cell from which a move could
//                               capture them is occupied (or blocked, or off the board).
//   OwnNearSafe1/2/3            own pieces with exposure 1, 2, 3: that many empty neighbours
//                               away from safe.
//   RiskyHoles1/2/3Plus         empty cells an opponent can move into (grow or jump range of an
//                               opponent piece) whose grow range holds 1, 2, or 3 or more own
//                               pieces: what an opponent move there would capture.
//   OwnHoles                    empty cells next to (in the grow range of) an own piece.
//   OpponentSafe, OpponentNearSafe1/2/3, OpponentHoles: the same for the opponents' pieces.
//
// The weighted player reads them in [0, 1], higher is better for `player` (unit_features): each
// count over the board's playable cells N (no count exceeds N), and a count that is bad for
// `player` as its complement (N - count) / N. Bad counts (bad_for_owner): every count of the
// opponents' pieces (pieces, safe, near-safe, holes: their room to grow) and the risky holes.
// Good: own pieces, own safe and near-safe pieces, own holes (room to grow). Player files of
// version 1 hold weights for the raw counts; host/games/player_file.cpp converts them (negating
// the weights of bad counts keeps every choice: the score becomes score_old / N minus a
// constant, up to float rounding).
#pragma once

#include <cstdint>
#include <type_traits>

#include "games/ataxx/rules.hpp"
#include "games/core/hd.hpp"

namespace gaeval::ataxx {

// Feature indexes; their names (host/ataxx/entry.cpp) are part of the weights file format:
// append, never renumber.
enum class Feature : int {
    OwnPieces = 0,
    OpponentPieces,
    OwnSafe,
    OwnNearSafe1,
    OwnNearSafe2,
    OwnNearSafe3,
    RiskyHoles1,
    RiskyHoles2,
    RiskyHoles3Plus,
    OwnHoles,
    OpponentSafe,
    OpponentNearSafe1,
    OpponentNearSafe2,
    OpponentNearSafe3,
    OpponentHoles,
};
constexpr int kFeatureCount = 15;

// Whether feature i counts something bad for the player it is seen by (its unit value is the
// complement). Indexed by Feature.
GAEVAL_HD_FORCEINLINE bool bad_for_owner(int i) {
    return i == int(Feature::OpponentPieces) || i == int(Feature::RiskyHoles1) ||
           i == int(Feature::RiskyHoles2) || i == int(Feature::RiskyHoles3Plus) ||
           i == int(Feature::OpponentSafe) || i == int(Feature::OpponentNearSafe1) ||
           i == int(Feature::OpponentNearSafe2) || i == int(Feature::OpponentNearSafe3) ||
           i == int(Feature::OpponentHoles);
}

// Counts of up to four classes in one word, 16 bits a class (no count exceeds the board's 256
// cells): a run-time class adds to a field by a shift. An int array indexed by the class lived in
// the device's local memory (64 bytes of stack in every weighted kernel); this stays in registers.
struct ClassCounts {
    uint64_t fields = 0;
    GAEVAL_HD_FORCEINLINE void add(int k) { fields += uint64_t{1} << (16 * k); }
    GAEVAL_HD_FORCEINLINE int operator[](int k) const {
        return static_cast<int>((fields >> (16 * k)) & 0xffff);
    }
};

// The 7x7 fast path's counts, bit-parallel over the board's word: for every cell at once, how
// many of its grow neighbours are in s (the range is symmetric: c is next to c + d for the eight
// offsets d, and no offset wraps from the seventh file to the first), as bit planes: ones, twos,
// and four or more.
struct NeighbourPlanes {
    uint64_t ones = 0, twos = 0, four_plus = 0;
    GAEVAL_HD_FORCEINLINE void add(uint64_t x) {
        const uint64_t carry = ones & x;
        ones ^= x;
        four_plus |= twos & carry;
        twos ^= carry;
    }
    // The cells with exactly k (0..3) neighbours in s.
    GAEVAL_HD_FORCEINLINE uint64_t exactly(int k) const {
        return ~four_plus & (k & 1 ? ones : ~ones) & (k & 2 ? twos : ~twos);
    }
};
// counter.add(x) for the eight one-cell shifts of s on the 7x7 layout (a shift lands on the
// true neighbour or off the board: the unused eighth file, rank or word; Square7Geometry::dilate).
// Also the host engine's full counts (host/ataxx/engine.cpp).
template <class Counter>
GAEVAL_HD_FORCEINLINE Counter add_neighbour_shifts(uint64_t s) {
    Counter n;
#if GAEVAL_DEVICE_PASS
    // On the device a pair of shifts at a time (one shifted copy live, not eight: the 7x7
    // features take 38 registers instead of 48; the same planes).
#pragma unroll 1
    for (int d = 1; d <= 9; d += (d == 1 ? 6 : 1)) {
        n.add(s >> d);
        n.add(s << d);
    }
#else
    n.add(s >> 1);
    n.add(s << 1);
    n.add(s >> 7);
    n.add(s << 7);
    n.add(s >> 8);
    n.add(s << 8);
    n.add(s >> 9);
    n.add(s << 9);
#endif
    return n;
}
GAEVAL_HD_FORCEINLINE NeighbourPlanes neighbour_planes(uint64_t s) {
    return add_neighbour_shifts<NeighbourPlanes>(s);
}
// count_exposure and count_risky_holes on the 7x7 fast path: the same counts from the planes, no
// loop over the cells (on one CPU thread weighted 7x7 play is about 2.5x faster; the device
// kernels have no divergent loop there; bench/results/kernel-resources.md).
GAEVAL_HD_FORCEINLINE ClassCounts count_exposure(const Square7Geometry&, const Bitboard<1>& pieces,
                                                 const Bitboard<1>& empty) {
    const NeighbourPlanes exposure = neighbour_planes(empty.w[0]);
    ClassCounts n;
    for (int k = 0; k < 4; ++k)
        n.fields += static_cast<uint64_t>(popcount64(pieces.w[0] & exposure.exactly(k)))
                    << (16 * k);
    return n;
}
GAEVAL_HD_FORCEINLINE ClassCounts count_risky_holes(const Square7Geometry&,
                                                    const Bitboard<1>& holes,
                                                    const Bitboard<1>& own) {
    const NeighbourPlanes at_risk = neighbour_planes(own.w[0]);
    const uint64_t three_plus = at_risk.four_plus | (at_risk.ones & at_risk.twos);
    ClassCounts n;
    n.fields = static_cast<uint64_t>(popcount64(holes.w[0] & at_risk.exactly(1))) |
               static_cast<uint64_t>(popcount64(holes.w[0] & at_risk.exactly(2))) << 16 |
               static_cast<uint64_t>(popcount64(holes.w[0] & three_plus)) << 32;
    return n;
}

// The table boards' features in two passes over the pieces, each piece's grow range read once
// (not six loops over the cells, one per count: on one CPU thread weighted play on 10x10 runs
// about half the instructions; bench/results/kernel-resources.md): an own piece adds its
// exposure class and, a word at a time, its range to the planes counting for every cell its own
// neighbours (the ranges are symmetric: a hole's own neighbours are the own pieces whose range
// holds it; the own holes are the empty cells with one or more); an opponent piece adds its class
// and its ranges to the opponents' grow and reach closures. The same counts as the definitions
// (tests/test_ataxx_features.cpp). The planes and closures, W words each, live in a
// TableFeatureWork: a local in features(), in the weighted player's scratch in Game::weighted_move
// (kInScratch: read and written in place there, the words a loop the device does not unroll).
template <int W>
struct TableFeatureWork {
    uint64_t near_ones[W], near_twos[W];  // SaturatedPlanes, a word each
    uint64_t opp_grown[W], opp_reached[W];
    uint64_t empty[W];  // the empty cells, read once
};
// For every cell of a word at once, how many of its grow neighbours are in s, 0, 1, 2 or 3 and
// more, as two bit planes (NeighbourPlanes' count stopped at 3: the risky holes' classes and the
// own holes need no more).
struct SaturatedPlanes {
    uint64_t ones = 0, twos = 0;
    GAEVAL_HD_FORCEINLINE void add(uint64_t x) {
        const uint64_t counted = x & ~(ones & twos);
        twos |= ones & counted;
        ones ^= counted;
    }
};
// A word of TableFeatureWork read or written: in place (scratch_read, scratch_write) in the
// scratch, plainly in a local.
template <bool kInScratch>
GAEVAL_HD_FORCEINLINE uint64_t work_read(const uint64_t& x) {
    if constexpr (kInScratch) {
        return scratch_read(x);
    } else {
        return x;
    }
}
template <bool kInScratch>
GAEVAL_HD_FORCEINLINE void work_write(uint64_t& x, uint64_t value) {
    if constexpr (kInScratch) {
        scratch_write(x, value);
    } else {
        x = value;
    }
}
// Calls f(k) for the words k = 0 .. W - 1: in scratch a device loop that keeps one word's values
// at a time (GAEVAL_ATAXX_WORD_LOOP), else unrolled (the words in registers).
template <int W, bool kInScratch, class F>
GAEVAL_HD_FORCEINLINE void each_word(F&& f) {
    if constexpr (kInScratch) {
        GAEVAL_ATAXX_WORD_LOOP
        for (int k = 0; k < W; ++k) f(k);
    } else {
        for (int k = 0; k < W; ++k) f(k);
    }
}
// The features of a table board in index order: sink(feature, count) for OwnPieces,
// OpponentPieces, ... OpponentHoles in turn (the order unit_score's sum needs). words.own(k),
// words.opp(k), words.empty(k) give word k of the pieces of the player the features are seen by,
// of the others and of the empty playable cells; work holds the planes and closures.
template <bool kInScratch, int W, class Words, class Sink>
GAEVAL_HD_FORCEINLINE void table_features(const TableGeometry<W>& geo, const Words& words,
                                          TableFeatureWork<W>& work, Sink&& sink) {
    const auto* board = geo.board;
    int own_pieces = 0, opp_pieces = 0;
    each_word<W, kInScratch>([&](int k) {
        own_pieces += popcount64(words.own(k));
        opp_pieces += popcount64(words.opp(k));
        work_write<kInScratch>(work.near_ones[k], 0);
        work_write<kInScratch>(work.near_twos[k], 0);
        work_write<kInScratch>(work.opp_grown[k], 0);
        work_write<kInScratch>(work.opp_reached[k], 0);
        work_write<kInScratch>(work.empty[k], words.empty(k));
    });
    sink(Feature::OwnPieces, own_pieces);
    sink(Feature::OpponentPieces, opp_pieces);
    // The own pass: exposure classes and the planes.
    ClassCounts own_exposure;
    each_word<W, kInScratch>([&](int i) {
        for (uint64_t x = words.own(i); x; x = clear_lowest(x)) {
            const int c = 64 * i + lowest_bit(x);
            int exposure = 0;
            each_word<W, kInScratch>([&](int k) {
                const uint64_t range = board->grow[c].w[k];
                exposure += popcount64(range & work_read<kInScratch>(work.empty[k]));
                SaturatedPlanes n;
                n.ones = work_read<kInScratch>(work.near_ones[k]);
                n.twos = work_read<kInScratch>(work.near_twos[k]);
                n.add(range);
                work_write<kInScratch>(work.near_ones[k], n.ones);
                work_write<kInScratch>(work.near_twos[k], n.twos);
            });
            if (exposure <= 3) own_exposure.add(exposure);
        }
    });
    for (int k = 0; k < 4; ++k) sink(Feature(int(Feature::OwnSafe) + k), own_exposure[k]);
    // The opponents' pass: exposure classes and the closures.
    ClassCounts opp_exposure;
    each_word<W, kInScratch>([&](int i) {
        for (uint64_t x = words.opp(i); x; x = clear_lowest(x)) {
            const int c = 64 * i + lowest_bit(x);
            int exposure = 0;
            each_word<W, kInScratch>([&](int k) {
                const uint64_t range = board->grow[c].w[k];
                exposure += popcount64(range & work_read<kInScratch>(work.empty[k]));
                work_write<kInScratch>(work.opp_grown[k],
                                       work_read<kInScratch>(work.opp_grown[k]) | range);
                work_write<kInScratch>(
                    work.opp_reached[k],
                    work_read<kInScratch>(work.opp_reached[k]) | range | board->jump[c].w[k]);
            });
            if (exposure <= 3) opp_exposure.add(exposure);
        }
    });
    // The holes from the planes and closures: risky (the opponents reach them) with exactly 1,
    // exactly 2, 3 or more own neighbours, and the own holes (1 or more), in one word of counts.
    ClassCounts holes;
    each_word<W, kInScratch>([&](int k) {
        const uint64_t ones = work_read<kInScratch>(work.near_ones[k]);
        const uint64_t twos = work_read<kInScratch>(work.near_twos[k]);
        const uint64_t empty = work_read<kInScratch>(work.empty[k]);
        const uint64_t risky = work_read<kInScratch>(work.opp_reached[k]) & empty;
        holes.fields += static_cast<uint64_t>(popcount64(risky & ones & ~twos)) |
                        static_cast<uint64_t>(popcount64(risky & ~ones & twos)) << 16 |
                        static_cast<uint64_t>(popcount64(risky & ones & twos)) << 32 |
                        static_cast<uint64_t>(popcount64(empty & (ones | twos))) << 48;
    });
    sink(Feature::RiskyHoles1, holes[0]);
    sink(Feature::RiskyHoles2, holes[1]);
    sink(Feature::RiskyHoles3Plus, holes[2]);
    sink(Feature::OwnHoles, holes[3]);
    for (int k = 0; k < 4; ++k) sink(Feature(int(Feature::OpponentSafe) + k), opp_exposure[k]);
    int opp_holes = 0;
    each_word<W, kInScratch>([&](int k) {
        opp_holes += popcount64(work_read<kInScratch>(work.opp_grown[k]) &
                                work_read<kInScratch>(work.empty[k]));
    });
    sink(Feature::OpponentHoles, opp_holes);
}
// Word k of three bitboards held as values: the own pieces, the others', the empty cells.
template <int W>
struct BoardWords {
    Bitboard<W> own_cells, opp_cells, empty_cells;
    GAEVAL_HD_FORCEINLINE uint64_t own(int k) const { return own_cells.w[k]; }
    GAEVAL_HD_FORCEINLINE uint64_t opp(int k) const { return opp_cells.w[k]; }
    GAEVAL_HD_FORCEINLINE uint64_t empty(int k) const { return empty_cells.w[k]; }
};
// The 7x7 fast path's features (the planes) of own against opp, in index order:
// sink(feature, count) for OwnPieces, OpponentPieces, ... OpponentHoles in turn. features()
// writes them into its array; unit_score adds each term of the weighted player's score as its
// count is known (the same order as weighted_score's sum).
template <class Sink>
GAEVAL_HD_FORCEINLINE void square7_features(const Square7Geometry& geo, const Bitboard<1>& own,
                                            const Bitboard<1>& opp, const Bitboard<1>& empty,
                                            Sink&& sink) {
    sink(Feature::OwnPieces, own.count());
    sink(Feature::OpponentPieces, opp.count());
    const ClassCounts own_exposure = count_exposure(geo, own, empty);
    for (int k = 0; k < 4; ++k) sink(Feature(int(Feature::OwnSafe) + k), own_exposure[k]);
    const ClassCounts risky = count_risky_holes(geo, geo.reach_closure(opp) & empty, own);
    sink(Feature::RiskyHoles1, risky[0]);
    sink(Feature::RiskyHoles2, risky[1]);
    sink(Feature::RiskyHoles3Plus, risky[2]);
    sink(Feature::OwnHoles, (geo.grow_closure(own) & empty).count());
    const ClassCounts opp_exposure = count_exposure(geo, opp, empty);
    for (int k = 0; k < 4; ++k) sink(Feature(int(Feature::OpponentSafe) + k), opp_exposure[k]);
    sink(Feature::OpponentHoles, (geo.grow_closure(opp) & empty).count());
}

// Fills out[kFeatureCount] with the features of p seen by `player` (see the definitions above).
template <class G>
GAEVAL_HD void features(const G& game, const typename G::Pos& p, int player, int* out) {
    using BB = typename G::BB;
    const BB own = p.of(player);
    const BB opp = game.opponents(p, player);
    const BB empty = game.geo.playable().minus(own | opp);
    if constexpr (std::is_same_v<std::decay_t<decltype(game.geo)>, Square7Geometry>) {
        square7_features(game.geo, own, opp, empty, [&](Feature f, int n) { out[int(f)] = n; });
    } else {
        TableFeatureWork<BB::kWords> work;
        table_features<false>(game.geo, BoardWords<BB::kWords>{own, opp, empty}, work,
                              [&](Feature f, int n) { out[int(f)] = n; });
    }
}

// Bit-identical on every backend (one int subtraction and one correctly rounded float division
// per feature). Fills out[kFeatureCount] with the counts of features() in [0, 1], higher is
// better for `player`: count / N, or (N - count) / N for a bad count, N = playable cells (> 0).
// unit_value: feature i's (N = cells, scale = float(N)); unit_features: every feature's.
GAEVAL_HD_FORCEINLINE float unit_value(int i, int count, int cells, float scale) {
    const int value = bad_for_owner(i) ? cells - count : count;
    return static_cast<float>(value) / scale;
}
template <class G>
GAEVAL_HD void unit_features(const G& game, const typename G::Pos& p, int player, float* out) {
    int counts[kFeatureCount];
    features(game, p, player, counts);
    const int cells = game.geo.playable().count();
    const float scale = static_cast<float>(cells);
    for (int i = 0; i < kFeatureCount; ++i) out[i] = unit_value(i, counts[i], cells, scale);
}

// The weighted player's score of p for `player` on the 7x7 fast path without the features
// array: sum_i weights[i] * unit_features(p, player)[i], each term the same int, the same float
// division and product, added in index order as weighted_score adds them
// (games/core/search.hpp), so the same float. Each count is added as soon as it is known and
// dies: a device thread holds the running sum, not fifteen counts.
class UnitScore {
  public:
    GAEVAL_HD_FORCEINLINE UnitScore(const float* weights, int cells)
        : weights_(weights), cells_(cells), scale_(static_cast<float>(cells)) {}
    // Adds feature f's term; called for f = 0, 1, ... kFeatureCount - 1 in turn.
    GAEVAL_HD_FORCEINLINE void add(Feature f, int count) {
        const int i = int(f);
        // The weight read where it is used (on the device not hoisted out of the move loop
        // into fifteen registers).
        const float term = scratch_read(weights_[i]) * unit_value(i, count, cells_, scale_);
        total_ = total_ + term;
    }
    GAEVAL_HD_FORCEINLINE float total() const { return total_; }

  private:
    const float* weights_;
    int cells_;
    float scale_;
    float total_ = 0.0f;
};
GAEVAL_HD_INLINE float unit_score(const Square7Geometry& geo, const Bitboard<1>& own,
                                  const Bitboard<1>& opp, const float* weights) {
    const Bitboard<1> empty = geo.playable().minus(own | opp);
    UnitScore score(weights, geo.playable().count());
    square7_features(geo, own, opp, empty, [&](Feature f, int n) { score.add(f, n); });
    return score.total();
}

}  // namespace gaeval::ataxx
