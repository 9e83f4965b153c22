// The engine's incremental threat patterns (host/gomoku/patterns.hpp) against threats.hpp's
// whole-board functions, which training runs: after every stone placed or removed in random
// games (both rules, both board sizes), the five-points, four moves and threat levels 1-3 of
// both sides are the same cell sets; and the engine's evaluation (incremental) equals the
// learned table's value computed here from the whole-board functions.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <memory>
#include <random>
#include <vector>

#include "games/gomoku/players.hpp"
#include "games/gomoku/threats.hpp"
#include "host/gomoku/engine.hpp"
#include "host/gomoku/patterns.hpp"

namespace gaeval::gomoku {
namespace {

template <int N>
void expect_same_as_whole_board(const IncrementalPatterns<N>& inc,
                                const typename Geometry<N>::BB* stones, bool exact, int step) {
    using Geo = Geometry<N>;
    const auto empty = Geo::board().minus(stones[0] | stones[1]);
    for (int s = 0; s < 2; ++s) {
        ASSERT_TRUE(inc.five[s] == five_points<Geo>(stones[s], empty, exact))
            << "five-points, side " << s << ", step " << step;
        ASSERT_TRUE(inc.four[s] == four_moves<Geo>(stones[s], empty, exact))
            << "fours, side " << s << ", step " << step;
        const Levels<typename Geo::BB> l =
            threat_levels(side_threats<Geo>(stones[s], empty, exact), Geo::BB::none());
        for (int k = 0; k < 3; ++k)
            ASSERT_TRUE(inc.level[s][k] == l.level[k])
                << "level " << k + 1 << ", side " << s << ", step " << step;
    }
}

// One random game on the central square of `span` cells of an N x N board (dense lines: many
// fours and threes), with takebacks (one move in five); stones of both sides in random order,
// kept both by `inc` and in `stones`. check(move) after every placement and takeback.
template <int N, class Check>
void play_random_game(IncrementalPatterns<N>& inc, typename Geometry<N>::BB (&stones)[2],
                      std::mt19937& rng, int span, int moves, Check check) {
    using Geo = Geometry<N>;
    stones[0] = stones[1] = Geo::BB::none();
    std::vector<std::pair<int, int>> placed;
    const int lo = (N - span) / 2;
    for (int move = 0; move < moves; ++move) {
        if (!placed.empty() && rng() % 5 == 0) {
            const std::size_t i = rng() % placed.size();
            const auto [side, c] = placed[i];
            placed.erase(placed.begin() + static_cast<long>(i));
            stones[side].reset(c);
            inc.remove(side, c);
        } else {
            const int c =
                Geo::cell(lo + static_cast<int>(rng() % span), lo + static_cast<int>(rng() % span));
            if ((stones[0] | stones[1]).test(c)) continue;
            const int side = static_cast<int>(rng() % 2);
            stones[side].set(c);
            inc.place(side, c);
            placed.emplace_back(side, c);
        }
        check(move);
        if (testing::Test::HasFatalFailure()) return;
    }
}

// Random games with takebacks: the patterns kept move by move equal the whole board's.
template <int N>
void random_games(bool exact, int span, uint32_t seed) {
    std::mt19937 rng(seed);
    auto inc = std::make_unique<IncrementalPatterns<N>>();
    typename Geometry<N>::BB stones[2];
    int step = 0;
    for (int game = 0; game < 12; ++game) {
        inc->reset(exact);
        play_random_game<N>(*inc, stones, rng, span, 3 * span * span / 4, [&](int) {
            expect_same_as_whole_board<N>(*inc, stones, exact, step++);
        });
        if (testing::Test::HasFatalFailure()) return;
    }
}

TEST(GomokuPatterns, IncrementalEqualsWholeBoardFreestyle15) {
    random_games<15>(false, 9, 1);
    random_games<15>(false, 15, 2);
}

TEST(GomokuPatterns, IncrementalEqualsWholeBoardStandard15) {
    random_games<15>(true, 9, 3);
    random_games<15>(true, 15, 4);
}

TEST(GomokuPatterns, IncrementalEqualsWholeBoard20BothRules) {
    random_games<20>(false, 20, 5);
    random_games<20>(true, 11, 6);
}

// The rule's reach: every line of 10 cells around the centre (3^10 of them) has, in freestyle,
// the pattern bits and shape that the table of 8-cell codes (reach 4) gives it, and in standard
// those of the 10-cell table: cells past the reach never matter.
TEST(GomokuPatterns, CellsPastTheReachNeverMatter) {
    for (bool exact : {false, true}) {
        const int reach = line_reach(exact);
        const auto& patterns = pattern_table(exact);
        const auto& shapes = shape_table(exact);
        ASSERT_EQ(static_cast<int>(patterns.size()), line_codes(exact));
        uint8_t line[11];
        for (int all = 0; all < kLineCodes; ++all) {
            int rest = all, code = 0;
            for (int k = -kLineReach; k <= kLineReach; ++k) {
                if (k == 0) {
                    line[5] = kLineEmpty;
                    continue;
                }
                line[5 + k] = static_cast<uint8_t>(rest % 3);
                rest /= 3;
                code += line[5 + k] * line_digit(k, reach);
            }
            ASSERT_EQ(patterns[static_cast<std::size_t>(code)], line_pattern(line, exact))
                << "line " << all << (exact ? " standard" : " freestyle");
            ASSERT_EQ(shapes[static_cast<std::size_t>(code)], line_shape(line, exact))
                << "line " << all << (exact ? " standard" : " freestyle");
        }
    }
}

// keeps_level1_after (the engine's test of a child that ends at the open-four check) says
// what placing the other side's stone and reading level[side][0] says, for every empty cell
// of random positions (both rules).
TEST(GomokuPatterns, KeepsLevel1AfterEqualsPlacingTheStone) {
    using Geo = Geometry<15>;
    std::mt19937 rng(31);
    auto inc = std::make_unique<IncrementalPatterns<15>>();
    int kept = 0, lost = 0;
    for (int position = 0; position < 300; ++position) {
        const bool exact = position % 2 == 1;
        inc->reset(exact);
        Geo::BB stones = Geo::BB::none();
        const int count = 6 + static_cast<int>(rng() % 30);
        for (int i = 0; i < count; ++i) {
            const int c =
                Geo::cell(3 + static_cast<int>(rng() % 9), 3 + static_cast<int>(rng() % 9));
            if (stones.test(c)) continue;
            stones.set(c);
            inc->place(static_cast<int>(rng() % 2), c);
        }
        for (int side = 0; side < 2; ++side) {
            if (inc->level[side][0].empty()) continue;
            Geo::BB empty = Geo::board().minus(stones);
            while (empty.any()) {
                const int c = empty.lowest();
                empty.reset(c);
                const bool said = inc->keeps_level1_after(side, c);
                inc->place(side ^ 1, c);
                const bool seen = inc->level[side][0].any();
                inc->remove(side ^ 1, c);
                ASSERT_EQ(said, seen)
                    << "position " << position << " side " << side << " cell " << c;
                (seen ? kept : lost) += 1;
            }
        }
    }
    EXPECT_GT(kept, 1000);
    EXPECT_GT(lost, 20);
}

// fives_after and four_after_other (the threat search's last four, decided without its
// stone) say what threats.hpp's whole-board five_points and four_moves say after the stone is
// on the board: for every empty cell c of random positions where the side has no five-point,
// the five-points its stone there makes, and the other side's four on each of them (both
// rules).
TEST(GomokuPatterns, FivesAfterAndFourAfterOtherEqualTheBoard) {
    using Geo = Geometry<15>;
    std::mt19937 rng(37);
    auto inc = std::make_unique<IncrementalPatterns<15>>();
    int ones = 0, twos = 0, fours_kept = 0, fours_lost = 0;
    for (int position = 0; position < 300; ++position) {
        const bool exact = position % 2 == 1;
        inc->reset(exact);
        Geo::BB stones[2] = {Geo::BB::none(), Geo::BB::none()};
        const int count = 8 + static_cast<int>(rng() % 40);
        for (int i = 0; i < count; ++i) {
            const int c =
                Geo::cell(2 + static_cast<int>(rng() % 11), 2 + static_cast<int>(rng() % 11));
            if ((stones[0] | stones[1]).test(c)) continue;
            const int side = static_cast<int>(rng() % 2);
            stones[side].set(c);
            inc->place(side, c);
        }
        for (int side = 0; side < 2; ++side) {
            if (inc->five[side].any()) continue;
            Geo::BB empty = Geo::board().minus(stones[0] | stones[1]);
            Geo::BB todo = empty;
            while (todo.any()) {
                const int c = todo.lowest();
                todo.reset(c);
                int point = -1;
                const int said = inc->fives_after(side, c, &point);
                Geo::BB own = stones[side], rest = empty;
                own.set(c);
                rest.reset(c);
                const Geo::BB fives = five_points<Geo>(own, rest, exact);
                ASSERT_EQ(said, std::min(fives.count(), 2))
                    << "position " << position << " side " << side << " cell " << c;
                if (said == 0) continue;
                ASSERT_TRUE(fives.test(point)) << "position " << position << " cell " << c;
                (said == 1 ? ones : twos) += 1;
                // The other side's four on each of those five-points with the stone on c.
                Geo::BB other_fours = four_moves<Geo>(stones[side ^ 1], rest, exact);
                Geo::BB each = fives;
                while (each.any()) {
                    const int e = each.lowest();
                    each.reset(e);
                    const bool four = inc->four_after_other(side ^ 1, c, e);
                    ASSERT_EQ(four, other_fours.test(e))
                        << "position " << position << " cell " << c << " point " << e;
                    (four ? fours_kept : fours_lost) += 1;
                }
            }
        }
    }
    EXPECT_GT(ones, 500);
    EXPECT_GT(twos, 50);
    EXPECT_GT(fours_kept, 20);
    EXPECT_GT(fours_lost, 500);
}

// The line table, read by hand (x own, o the other side or the edge, C the centre).
TEST(GomokuPatterns, LinePatternsByHand) {
    auto line_of = [](const char* text) {  // 11 characters, centre at 5
        std::vector<uint8_t> line(11);
        for (int i = 0; i < 11; ++i)
            line[static_cast<std::size_t>(i)] = text[i] == 'x'   ? kLineOwn
                                                : text[i] == 'o' ? kLineOther
                                                                 : kLineEmpty;
        return line;
    };
    auto bits = [&](const char* text, bool exact) {
        return line_pattern(line_of(text).data(), exact);
    };
    EXPECT_EQ(bits("oxxx.......", false), kFourBit);                   // oxxx.C: one five-point
    EXPECT_EQ(bits("..xxx......", false), kFourBit | kDoubleFourBit);  // .xxxC.: straight four
    EXPECT_EQ(bits(".xxxx......", false), kFiveBit | kFourBit);        // xxxxC (and xxxC.)
    EXPECT_EQ(bits("oxxxx.x....", false), kFiveBit | kFourBit);        // xxxxCx: freestyle five
    EXPECT_EQ(bits("oxxxx.x....", true), 0);                           // standard: overline
    EXPECT_EQ(bits("...xx......", false), kThreeBit);                  // .xxC.: open three
    EXPECT_EQ(bits("..oxx......", false), 0);                          // oxxC: closed
    EXPECT_EQ(bits("....x.x....", false), kThreeBit);                  // .xCx.: open three
    EXPECT_EQ(bits("...xx.x....", false), kFourBit | kDoubleFourBit);  // xxCx: two five-points
}

template <int N>
std::array<std::array<int, kLineShapes>, 2> reference_shape_counts(
    const typename Geometry<N>::BB* stones, bool exact);

// The engine's leaf value, computed here from the whole-board functions and the table: the
// threat potential (4 / 2 / 1 per cell of level 1 / 2 / 3, mover minus opponent) times 16
// plus the best rank's normalised reward among the candidates, plus 8, plus the move-value
// term: each side's kShapeMoveValue summed over the shapes of its lines read from the board,
// the mover's times kValueTotalOwn minus the opponent's times kValueTotalOpponent, over 16.
template <int N>
int reference_value(const typename Geometry<N>::BB* stones, bool exact,
                    const std::vector<float>& w) {
    using Geo = Geometry<N>;
    using BB = typename Geo::BB;
    const BB empty = Geo::board().minus(stones[0] | stones[1]);
    const Levels<BB> lm = threat_levels(side_threats<Geo>(stones[0], empty, exact), BB::none());
    const Levels<BB> lo = threat_levels(side_threats<Geo>(stones[1], empty, exact), BB::none());
    const int potential = 4 * (lm.level[0].count() - lo.level[0].count()) +
                          2 * (lm.level[1].count() - lo.level[1].count()) +
                          (lm.level[2].count() - lo.level[2].count());
    const BB near = Geo::neighbours(stones[0] | stones[1]) & empty;
    BB ranks[kRanks];
    rank_cells(lm, lo, near | lm.level[0] | lm.level[1] | lm.level[2] | lo.level[0], ranks);
    const float lo_w = *std::min_element(w.begin(), w.begin() + kRanks);
    const float hi_w = *std::max_element(w.begin(), w.begin() + kRanks);
    int best = 0;
    for (int r = 0; r < kRanks; ++r)
        if (ranks[r].any() && hi_w > lo_w)
            best = std::max(best, static_cast<int>(64.0f * (w[static_cast<std::size_t>(r)] - lo_w) /
                                                   (hi_w - lo_w)));
    const auto counts = reference_shape_counts<N>(stones, exact);
    int total[2] = {0, 0};
    for (int s = 0; s < 2; ++s)
        for (int k = 0; k < kLineShapes; ++k)
            total[s] += kShapeMoveValue[k] *
                        counts[static_cast<std::size_t>(s)][static_cast<std::size_t>(k)];
    return 16 * potential + best + 8 +
           (kValueTotalOwn * total[0] - kValueTotalOpponent * total[1]) / 16;
}

TEST(GomokuPatterns, EngineEvaluationEqualsTheTablesValue) {
    using Geo = Geometry<15>;
    using BB = Geo::BB;
    std::mt19937 rng(7);
    std::vector<std::vector<float>> tables(3);
    for (int r = 0; r < kWeightCount; ++r) tables[0].push_back(seed_reward(r));
    for (auto* t : {&tables[1], &tables[2]})
        for (int r = 0; r < kWeightCount; ++r)
            t->push_back(static_cast<float>(rng() % 2000) - 1000.0f);
    int checked = 0;
    for (const auto& w : tables) {
        GomokuEngine engine(w, 1u << 10);
        for (int position = 0; position < 300; ++position) {
            for (bool exact : {false, true}) {
                BB stones[2] = {BB::none(), BB::none()};
                std::vector<int8_t> cells(225, 0);
                const int count = 1 + static_cast<int>(rng() % 60);
                for (int i = 0; i < count; ++i) {
                    const int x = 3 + static_cast<int>(rng() % 9),
                              y = 3 + static_cast<int>(rng() % 9);
                    if (cells[static_cast<std::size_t>(y * 15 + x)]) continue;
                    const int side = static_cast<int>(rng() % 2);
                    cells[static_cast<std::size_t>(y * 15 + x)] = static_cast<int8_t>(1 + side);
                    stones[side].set(Geo::cell(x, y));
                }
                const RuleSet rule = exact ? RuleSet::Standard : RuleSet::Freestyle;
                ASSERT_EQ(engine.evaluate(15, rule, cells), reference_value<15>(stones, exact, w))
                    << "position " << position << (exact ? " standard" : " freestyle");
                ++checked;
            }
        }
    }
    EXPECT_EQ(checked, 1800);
}

// The shape table, read by hand (x own, o the other side or the edge, the centre at 5).
TEST(GomokuShapes, LineShapesByHand) {
    auto shape = [](const char* text, bool exact) {
        uint8_t line[11];
        for (int i = 0; i < 11; ++i)
            line[i] = text[i] == 'x' ? kLineOwn : text[i] == 'o' ? kLineOther : kLineEmpty;
        return static_cast<int>(line_shape(line, exact));
    };
    EXPECT_EQ(shape(".xxxx......", false), kShapeFive);
    EXPECT_EQ(shape("..xxx......", false), kShapeOpenFour);     // .xxxC.
    EXPECT_EQ(shape("oxxx.......", false), kShapeFour);         // blocked: oxxxC.
    EXPECT_EQ(shape("...xx......", false), kShapeOpenThree);    // .xxC.
    EXPECT_EQ(shape("..oxx......", false), kShapeClosedThree);  // oxxC..: a window of 3
    EXPECT_EQ(shape("....x......", false), kShapeOpenTwo);      // .xC.
    EXPECT_EQ(shape("...ox......", false), kShapeClosedTwo);    // oxC...: no window of 6
    EXPECT_EQ(shape("....x.o....", false), kShapeClosedTwo);    // xCo: room only to the left
    EXPECT_EQ(shape("......ox...", false), kShapeOne);          // Cox: x behind the o
    EXPECT_EQ(shape("...........", false), kShapeOne);
    EXPECT_EQ(shape("....o.o....", false), kShapeDead);  // oCo: no window of 5
    EXPECT_EQ(shape("..o...o....", false), kShapeDead);  // o..Co: 3 cells free
    EXPECT_EQ(shape(".o....o....", false), kShapeDead);  // o...Co: 4 cells free
    EXPECT_EQ(shape("o.....o....", false), kShapeOne);   // o....Co: 5 cells free
    EXPECT_EQ(shape("oxxxx.x....", true), kShapeDead);   // standard: every window touches x
}

// The shape of `side` at empty cell (x, y) in direction d, from its line read cell by cell (a
// second implementation of the codes that IncrementalPatterns keeps).
template <int N>
uint8_t reference_shape(const typename Geometry<N>::BB* stones, bool exact, int side, int x, int y,
                        int d) {
    using Geo = Geometry<N>;
    static constexpr int kDx[4] = {1, 0, 1, -1}, kDy[4] = {0, 1, 1, 1};
    uint8_t line[11];
    for (int k = -5; k <= 5; ++k) {
        const int nx = x + k * kDx[d], ny = y + k * kDy[d];
        uint8_t v = kLineOther;
        if (k == 0 || (nx >= 0 && nx < N && ny >= 0 && ny < N)) {
            const int e = Geo::cell(nx, ny);
            v = k == 0                     ? kLineEmpty
                : stones[side].test(e)     ? kLineOwn
                : stones[side ^ 1].test(e) ? kLineOther
                                           : kLineEmpty;
        }
        line[k + 5] = v;
    }
    return line_shape(line, exact);
}

// The shape counts of a board, from its lines read cell by cell: counts[side][shape] over
// empty cells x 4 lines.
template <int N>
std::array<std::array<int, kLineShapes>, 2> reference_shape_counts(
    const typename Geometry<N>::BB* stones, bool exact) {
    using Geo = Geometry<N>;
    std::array<std::array<int, kLineShapes>, 2> counts{};
    for (int y = 0; y < N; ++y)
        for (int x = 0; x < N; ++x) {
            const int c = Geo::cell(x, y);
            if ((stones[0] | stones[1]).test(c)) continue;
            for (int s = 0; s < 2; ++s)
                for (int d = 0; d < 4; ++d)
                    ++counts[static_cast<std::size_t>(s)]
                            [reference_shape<N>(stones, exact, s, x, y, d)];
        }
    return counts;
}

// Row-major 15x15 positions from text rows (x side 0, o side 1), centred.
struct TextBoard {
    Geometry<15>::BB stones[2] = {Geometry<15>::BB::none(), Geometry<15>::BB::none()};
    std::vector<int8_t> cells = std::vector<int8_t>(225, 0);
    explicit TextBoard(const std::vector<const char*>& rows, int top = 7, int left = 7) {
        for (std::size_t r = 0; r < rows.size(); ++r)
            for (int i = 0; rows[r][i]; ++i) {
                if (rows[r][i] != 'x' && rows[r][i] != 'o') continue;
                const int side = rows[r][i] == 'x' ? 0 : 1;
                const int x = left + i, y = top + static_cast<int>(r);
                stones[side].set(Geometry<15>::cell(x, y));
                cells[static_cast<std::size_t>(y * 15 + x)] = static_cast<int8_t>(1 + side);
            }
    }
    IncrementalPatterns<15>& patterns(IncrementalPatterns<15>& inc, bool exact) const {
        inc.reset(exact, true);
        for (int s = 0; s < 2; ++s) {
            auto todo = stones[s];
            while (todo.any()) {
                const int c = todo.lowest();
                todo.reset(c);
                inc.place(s, c);
            }
        }
        return inc;
    }
};

// Hand-derived counts. An open three .xxx. (row 7, columns 5-7 free around): its row gives
// two open-four cells (the ends) and two four cells (one further out); no other line of the
// board makes a four, so the three is counted once as "two open-four points". A broken three
// .x.xx.: one open-four cell (the gap), two fours (the ends). A blocked four oxxxx.: one five
// point, and past it one four (xxxx.C in freestyle makes a five-point).
TEST(GomokuShapes, CountsByHand) {
    auto inc = std::make_unique<IncrementalPatterns<15>>();
    {
        const TextBoard b({"xxx"}, 7, 6);
        b.patterns(*inc, false);
        EXPECT_EQ(inc->shape_count(0, kShapeOpenFour), 2);
        EXPECT_EQ(inc->shape_count(0, kShapeFour), 2);
        EXPECT_EQ(inc->shape_count(0, kShapeFive), 0);
        EXPECT_EQ(inc->shape_count(0, kShapeOpenThree), 0);  // no line holds two stones + room
        EXPECT_EQ(inc->shape_count(1, kShapeFour), 0);
    }
    {
        const TextBoard b({"x.xx"}, 7, 5);
        b.patterns(*inc, false);
        EXPECT_EQ(inc->shape_count(0, kShapeOpenFour), 1);
        EXPECT_EQ(inc->shape_count(0, kShapeFour), 2);
    }
    {
        const TextBoard b({"oxxxx"}, 7, 3);
        b.patterns(*inc, false);
        EXPECT_EQ(inc->shape_count(0, kShapeFive), 1);
        EXPECT_EQ(inc->shape_count(0, kShapeOpenFour), 0);
        EXPECT_EQ(inc->shape_count(0, kShapeFour), 1);
        // The same blocked four in standard rules: the cell past the five-point would make six.
        b.patterns(*inc, true);
        EXPECT_EQ(inc->shape_count(0, kShapeFive), 1);
        EXPECT_EQ(inc->shape_count(0, kShapeFour), 0);
    }
    {
        // One stone alone: in each of its 4 lines, the 4 cells on either side make a two,
        // open (a window of 6 with empty ends) for the cells at distance 1 to 3 and 4 only
        // from one side; far off the stone every free line is a one.
        const TextBoard b({"x"}, 7, 7);
        b.patterns(*inc, false);
        EXPECT_EQ(inc->shape_count(0, kShapeOpenTwo) + inc->shape_count(0, kShapeClosedTwo), 4 * 8);
        EXPECT_EQ(inc->shape_count(0, kShapeOpenTwo), 4 * 6);
    }
}

// The counts kept move by move equal the counts read from the board, through random games
// with takebacks (both rules, both sizes).
template <int N>
void shape_games(bool exact, int span, uint32_t seed) {
    std::mt19937 rng(seed);
    auto inc = std::make_unique<IncrementalPatterns<N>>();
    typename Geometry<N>::BB stones[2];
    for (int game = 0; game < 6; ++game) {
        inc->reset(exact, true);
        play_random_game<N>(*inc, stones, rng, span, span * span / 2, [&](int move) {
            const auto want = reference_shape_counts<N>(stones, exact);
            for (int s = 0; s < 2; ++s)
                for (int k = 0; k < kLineShapes; ++k)
                    ASSERT_EQ(inc->shape_count(s, k),
                              want[static_cast<std::size_t>(s)][static_cast<std::size_t>(k)])
                        << "side " << s << " shape " << k << " game " << game << " move " << move;
        });
        if (testing::Test::HasFatalFailure()) return;
    }
}

// The move values kept move by move (the engine's candidate scores) equal kShapeMoveValue
// summed over the four lines read from the board, at every empty cell for both sides, and
// their sums over the empty cells (value_total) too, through random games with takebacks.
template <int N>
void move_value_games(bool exact, int span, uint32_t seed) {
    using Geo = Geometry<N>;
    std::mt19937 rng(seed);
    auto inc = std::make_unique<IncrementalPatterns<N>>();
    typename Geo::BB stones[2];
    for (int game = 0; game < 4; ++game) {
        inc->reset(exact);
        play_random_game<N>(*inc, stones, rng, span, span * span / 2, [&](int move) {
            int total[2] = {0, 0};
            for (int y = 0; y < N; ++y)
                for (int x = 0; x < N; ++x) {
                    const int c = Geo::cell(x, y);
                    if ((stones[0] | stones[1]).test(c)) continue;
                    for (int s = 0; s < 2; ++s) {
                        int want = 0;
                        for (int d = 0; d < 4; ++d)
                            want += kShapeMoveValue[reference_shape<N>(stones, exact, s, x, y, d)];
                        ASSERT_EQ(inc->move_value(s, c), want)
                            << "side " << s << " cell " << x << "," << y << " game " << game
                            << " move " << move;
                        total[s] += want;
                    }
                }
            for (int s = 0; s < 2; ++s)
                ASSERT_EQ(inc->value_total(s), total[s])
                    << "side " << s << " game " << game << " move " << move;
        });
        if (testing::Test::HasFatalFailure()) return;
    }
}

TEST(GomokuShapes, IncrementalMoveValuesEqualTheBoardsLines) {
    move_value_games<15>(false, 9, 21);
    move_value_games<15>(true, 15, 22);
    move_value_games<20>(false, 12, 23);
}

TEST(GomokuShapes, IncrementalCountsEqualTheBoardsLines) {
    shape_games<15>(false, 9, 11);
    shape_games<15>(true, 15, 12);
    shape_games<20>(false, 12, 13);
}

// The engine's value with shape weights is its value without them plus the weighted counts
// (mover's weights on the mover's counts, minus the opponent's); swapping the colours and the
// two halves of the weights negates that term. Old player files (no "shape_weights") read
// as no shape weights.
TEST(GomokuShapes, EngineShapeTermAndSideSwap) {
    std::vector<float> table;
    for (int r = 0; r < kWeightCount; ++r) table.push_back(seed_reward(r));
    std::vector<float> shape(kShapeWeightCount), swapped(kShapeWeightCount);
    std::mt19937 rng(21);
    for (auto& w : shape) w = static_cast<float>(rng() % 41) - 10.0f;
    for (int i = 0; i < kShapeWeightCount; ++i)
        swapped[static_cast<std::size_t>(i)] =
            shape[static_cast<std::size_t>((i + kShapeWeightCount / 2) % kShapeWeightCount)];
    GomokuEngine plain(table, 1u << 10), shaped(table, 1u << 10, shape),
        shaped_swapped(table, 1u << 10, swapped);
    for (int position = 0; position < 100; ++position) {
        const bool exact = position % 2 == 1;
        const RuleSet rule = exact ? RuleSet::Standard : RuleSet::Freestyle;
        Geometry<15>::BB stones[2] = {Geometry<15>::BB::none(), Geometry<15>::BB::none()};
        std::vector<int8_t> cells(225, 0), other(225, 0);
        const int count = 1 + static_cast<int>(rng() % 40);
        for (int i = 0; i < count; ++i) {
            const int x = 3 + static_cast<int>(rng() % 9), y = 3 + static_cast<int>(rng() % 9);
            if (cells[static_cast<std::size_t>(y * 15 + x)]) continue;
            const int side = static_cast<int>(rng() % 2);
            cells[static_cast<std::size_t>(y * 15 + x)] = static_cast<int8_t>(1 + side);
            other[static_cast<std::size_t>(y * 15 + x)] = static_cast<int8_t>(2 - side);
            stones[side].set(Geometry<15>::cell(x, y));
        }
        const auto counts = reference_shape_counts<15>(stones, exact);
        int term = 0;
        for (int k = 1; k < kLineShapes; ++k)
            term += static_cast<int>(shape[static_cast<std::size_t>(k - 1)]) * counts[0][k] -
                    static_cast<int>(shape[static_cast<std::size_t>(kLineShapes - 2 + k)]) *
                        counts[1][k];
        const int base = plain.evaluate(15, rule, cells);
        ASSERT_EQ(shaped.evaluate(15, rule, cells), base + term) << "position " << position;
        ASSERT_EQ(shaped_swapped.evaluate(15, rule, other) - plain.evaluate(15, rule, other), -term)
            << "position " << position;
    }
}

}  // namespace
}  // namespace gaeval::gomoku
