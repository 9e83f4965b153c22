// The engine's incremental threat patterns (host/gomoku/patterns.hpp) against threats.hpp's
// whole-board functions, which training runs: after every stone placed or removed in random
// games (both rules, both board sizes), the five-points, four moves and threat levels 1-3 of
// both sides are the same cell sets; and the engine's evaluation (incremental) equals the
// learned table's value computed here from the whole-board functions.
#include <gtest/gtest.h>

#include <algorithm>
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

// Random games on a central square of `span` cells (dense lines: many fours and threes), with
// takebacks; stones of both sides in random order.
template <int N>
void random_games(bool exact, int span, uint32_t seed) {
    using Geo = Geometry<N>;
    using BB = typename Geo::BB;
    std::mt19937 rng(seed);
    auto inc = std::make_unique<IncrementalPatterns<N>>();
    int step = 0;
    for (int game = 0; game < 12; ++game) {
        inc->reset(exact);
        BB stones[2] = {BB::none(), BB::none()};
        std::vector<std::pair<int, int>> placed;
        const int lo = (N - span) / 2;
        for (int move = 0; move < 3 * span * span / 4; ++move, ++step) {
            if (!placed.empty() && rng() % 5 == 0) {
                const std::size_t i = rng() % placed.size();
                const auto [side, c] = placed[i];
                placed.erase(placed.begin() + static_cast<long>(i));
                stones[side].reset(c);
                inc->remove(side, c);
            } else {
                const int c = Geo::cell(lo + static_cast<int>(rng() % span),
                                        lo + static_cast<int>(rng() % span));
                if ((stones[0] | stones[1]).test(c)) continue;
                const int side = static_cast<int>(rng() % 2);
                stones[side].set(c);
                inc->place(side, c);
                placed.emplace_back(side, c);
            }
            expect_same_as_whole_board<N>(*inc, stones, exact, step);
            if (testing::Test::HasFatalFailure()) return;
        }
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

// The engine's leaf value, computed here from the whole-board functions and the table: the
// threat potential (4 / 2 / 1 per cell of level 1 / 2 / 3, mover minus opponent) times 16
// plus the best rank's normalised reward among the candidates, plus 8.
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
    return 16 * potential + best + 8;
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

}  // namespace
}  // namespace gaeval::gomoku
