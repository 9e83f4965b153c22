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

// Adds the pieces of `pieces` with exposure 0..3 to out[first + exposure].
template <class Geometry>
GAEVAL_HD_INLINE void count_exposure(const Geometry& geo, const typename Geometry::BB& pieces,
                                     const typename Geometry::BB& empty, int* out, int first) {
    for_each_cell(pieces, [&](int c) {
        const int exposure = (geo.grow_of(c) & empty).count();
        if (exposure <= 3) ++out[first + exposure];
    });
}

// Fills out[kFeatureCount] with the features of p seen by `player` (see the definitions above).
template <class G>
GAEVAL_HD void features(const G& game, const typename G::Pos& p, int player, int* out) {
    using BB = typename G::BB;
    for (int i = 0; i < kFeatureCount; ++i) out[i] = 0;
    const BB own = p.of(player);
    const BB opp = game.opponents(p, player);
    const BB empty = game.geo.playable().minus(own | opp);
    out[int(Feature::OwnPieces)] = own.count();
    out[int(Feature::OpponentPieces)] = opp.count();
    count_exposure(game.geo, own, empty, out, int(Feature::OwnSafe));
    count_exposure(game.geo, opp, empty, out, int(Feature::OpponentSafe));
    const BB opponent_targets = game.geo.reach_closure(opp) & empty;
    for_each_cell(opponent_targets, [&](int hole) {
        const int at_risk = (game.geo.grow_of(hole) & own).count();
        if (at_risk > 0) ++out[int(Feature::RiskyHoles1) + gaeval::min(at_risk, 3) - 1];
    });
    out[int(Feature::OwnHoles)] = (game.geo.grow_closure(own) & empty).count();
    out[int(Feature::OpponentHoles)] = (game.geo.grow_closure(opp) & empty).count();
}

// Bit-identical on every backend (one int subtraction and one correctly rounded float division
// per feature). Fills out[kFeatureCount] with the counts of features() in [0, 1], higher is
// better for `player`: count / N, or (N - count) / N for a bad count, N = playable cells (> 0).
template <class G>
GAEVAL_HD void unit_features(const G& game, const typename G::Pos& p, int player, float* out) {
    int counts[kFeatureCount];
    features(game, p, player, counts);
    const int cells = game.geo.playable().count();
    const float scale = static_cast<float>(cells);
    for (int i = 0; i < kFeatureCount; ++i) {
        const int value = bad_for_owner(i) ? cells - counts[i] : counts[i];
        out[i] = static_cast<float>(value) / scale;
    }
}

}  // namespace gaeval::ataxx
