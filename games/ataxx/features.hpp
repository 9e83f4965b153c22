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

// The table boards' counts in one pass over each side's pieces, each piece's grow range read
// once (the loops over the cells of count_exposure, count_risky_holes, grow_closure and
// reach_closure, six passes over pieces and holes, made two): an own piece adds its exposure
// class, its range to the own grow closure and, a word at a time, to the planes counting for every
// cell its own neighbours (the ranges are symmetric: a hole's own neighbours are the own pieces
// whose range holds it); an opponent piece its class and its range to the opponents' grow and
// reach closures. The same counts as the definitions (tests/test_ataxx_features.cpp); on one CPU
// thread weighted play on 10x10 runs about half the instructions of the six passes
// (bench/results/kernel-resources.md).
template <int W>
struct TableOwnSide {
    ClassCounts exposure;
    Bitboard<W> grown;
    NeighbourPlanes near[W];
};
template <int W>
GAEVAL_HD_INLINE TableOwnSide<W> table_own_side(const TableGeometry<W>& geo, const Bitboard<W>& own,
                                                const Bitboard<W>& empty) {
    TableOwnSide<W> side{ClassCounts{}, own, {}};
    for_each_cell(own, [&](int c) {
        const Bitboard<W> range = geo.grow_of(c);
        const int exposure = (range & empty).count();
        if (exposure <= 3) side.exposure.add(exposure);
        side.grown |= range;
        for (int k = 0; k < W; ++k) side.near[k].add(range.w[k]);
    });
    return side;
}
template <int W>
struct TableOpponentSide {
    ClassCounts exposure;
    Bitboard<W> grown, reached;
};
template <int W>
GAEVAL_HD_INLINE TableOpponentSide<W> table_opponent_side(const TableGeometry<W>& geo,
                                                          const Bitboard<W>& opp,
                                                          const Bitboard<W>& empty) {
    TableOpponentSide<W> side{ClassCounts{}, opp, opp};
    for_each_cell(opp, [&](int c) {
        const Bitboard<W> range = geo.grow_of(c);
        const int exposure = (range & empty).count();
        if (exposure <= 3) side.exposure.add(exposure);
        side.grown |= range;
        side.reached |= range | geo.jump_of(c);
    });
    return side;
}
// Risky holes from the own side's planes: the holes with exactly 1, exactly 2, 3 or more.
template <int W>
GAEVAL_HD_FORCEINLINE ClassCounts count_risky_holes(const TableOwnSide<W>& side,
                                                    const Bitboard<W>& holes) {
    int one = 0, two = 0, three_plus = 0;
    for (int k = 0; k < W; ++k) {
        const NeighbourPlanes& at_risk = side.near[k];
        one += popcount64(holes.w[k] & at_risk.exactly(1));
        two += popcount64(holes.w[k] & at_risk.exactly(2));
        three_plus += popcount64(holes.w[k] & (at_risk.four_plus | (at_risk.ones & at_risk.twos)));
    }
    ClassCounts n;
    n.fields = static_cast<uint64_t>(one) | static_cast<uint64_t>(two) << 16 |
               static_cast<uint64_t>(three_plus) << 32;
    return n;
}

// The exposure classes of one side into out[first .. first + 3].
GAEVAL_HD_FORCEINLINE void write_exposure(const ClassCounts& exposure, int* out, Feature first) {
    for (int k = 0; k < 4; ++k) out[int(first) + k] = exposure[k];
}
// The risky holes' classes and the two hole counts into out.
GAEVAL_HD_FORCEINLINE void write_holes(const ClassCounts& risky, int own_holes, int opp_holes,
                                       int* out) {
    out[int(Feature::RiskyHoles1)] = risky[0];
    out[int(Feature::RiskyHoles2)] = risky[1];
    out[int(Feature::RiskyHoles3Plus)] = risky[2];
    out[int(Feature::OwnHoles)] = own_holes;
    out[int(Feature::OpponentHoles)] = opp_holes;
}
// The features of a table board (the passes above) but the pieces' counts, from the sides'
// pieces and the empty cells.
template <int W>
GAEVAL_HD_INLINE void side_features(const TableGeometry<W>& geo, const Bitboard<W>& own,
                                    const Bitboard<W>& opp, const Bitboard<W>& empty, int* out) {
    const TableOwnSide<W> mine = table_own_side(geo, own, empty);
    const TableOpponentSide<W> theirs = table_opponent_side(geo, opp, empty);
    write_exposure(mine.exposure, out, Feature::OwnSafe);
    write_exposure(theirs.exposure, out, Feature::OpponentSafe);
    write_holes(count_risky_holes(mine, theirs.reached & empty), (mine.grown & empty).count(),
                (theirs.grown & empty).count(), out);
}
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
        out[int(Feature::OwnPieces)] = own.count();
        out[int(Feature::OpponentPieces)] = opp.count();
        side_features(game.geo, own, opp, empty, out);
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
