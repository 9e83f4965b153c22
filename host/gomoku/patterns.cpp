#include "host/gomoku/patterns.hpp"

namespace gaeval::gomoku {

uint8_t line_pattern(const uint8_t* line, bool exact) {
    // i: signed distance from the centre; the centre is empty, cells past the reach are never
    // read (every window below stays within 5 cells).
    auto own = [&](int i) {
        return i != 0 && i >= -kLineReach && i <= kLineReach && line[5 + i] == kLineOwn;
    };
    auto empty = [&](int i) {
        return i == 0 || (i >= -kLineReach && i <= kLineReach && line[5 + i] == kLineEmpty);
    };
    uint8_t bits = 0;
    // Fives and fours: windows of 5 [t, t + 4] holding the centre.
    bool offsets[9] = {};
    for (int t = -4; t <= 0; ++t) {
        if (exact && (own(t - 1) || own(t + 5))) continue;
        int owns = 0, holes = 0, hole = 0;
        for (int i = t; i < t + 5; ++i) {
            if (i == 0) continue;
            if (own(i)) {
                ++owns;
            } else if (empty(i)) {
                ++holes;
                hole = i;
            }
        }
        if (owns == 4) bits |= kFiveBit;
        if (owns == 3 && holes == 1) offsets[4 + hole] = true;
    }
    int distinct = 0;
    for (bool o : offsets) distinct += o ? 1 : 0;
    if (distinct >= 1) bits |= kFourBit;
    if (distinct >= 2) bits |= kDoubleFourBit;
    // Open threes: windows of 6 [t, t + 5] with empty ends and the centre among the middle four,
    // with two own stones and one more empty cell there.
    for (int t = -4; t <= -1; ++t) {
        if (!empty(t) || !empty(t + 5)) continue;
        if (exact && (own(t - 1) || own(t + 6))) continue;
        int owns = 0, holes = 0;
        for (int i = t + 1; i < t + 5; ++i) {
            if (i == 0) continue;
            if (own(i))
                ++owns;
            else if (empty(i))
                ++holes;
        }
        if (owns == 2 && holes == 1) bits |= kThreeBit;
    }
    return bits;
}

uint8_t line_shape(const uint8_t* line, bool exact) {
    const uint8_t bits = line_pattern(line, exact);
    if (bits & kFiveBit) return kShapeFive;
    if (bits & kDoubleFourBit) return kShapeOpenFour;
    if (bits & kFourBit) return kShapeFour;
    if (bits & kThreeBit) return kShapeOpenThree;
    auto own = [&](int i) {
        return i == 0 || (i >= -kLineReach && i <= kLineReach && line[5 + i] == kLineOwn);
    };
    auto other = [&](int i) {
        return i != 0 && (i < -kLineReach || i > kLineReach || line[5 + i] == kLineOther);
    };
    // The most own stones (the new one included) in a window of 5 holding the centre and no
    // stone of the other side.
    int most = 0;
    for (int t = -4; t <= 0; ++t) {
        if (exact && ((t - 1 >= -kLineReach && own(t - 1)) || (t + 5 <= kLineReach && own(t + 5))))
            continue;
        int owns = 0;
        bool free = true;
        for (int i = t; i < t + 5; ++i) {
            free = free && !other(i);
            owns += own(i) ? 1 : 0;
        }
        if (free && owns > most) most = owns;
    }
    if (most >= 3) return kShapeClosedThree;
    if (most == 0) return kShapeDead;
    if (most == 1) return kShapeOne;
    // Open twos: windows of 6 [t, t + 5] with empty ends and the centre among the middle four,
    // holding one more own stone and two empty cells there.
    for (int t = -4; t <= -1; ++t) {
        if (own(t) || other(t) || own(t + 5) || other(t + 5)) continue;
        if (exact && ((t - 1 >= -kLineReach && own(t - 1)) || (t + 6 <= kLineReach && own(t + 6))))
            continue;
        int owns = 0;
        bool free = true;
        for (int i = t + 1; i < t + 5; ++i) {
            free = free && !other(i);
            owns += own(i) ? 1 : 0;
        }
        if (free && owns == 2) return kShapeOpenTwo;
    }
    return kShapeClosedTwo;
}

namespace {

// The line of a code under a rule's reach (digits by line_digit; cells past the reach empty).
void decode_line(int code, int reach, uint8_t* line) {
    for (int k = -kLineReach; k <= kLineReach; ++k) {
        const int digit = k == 0 ? 0 : line_digit(k, reach);
        line[kLineReach + k] = static_cast<uint8_t>(digit == 0 ? 0 : code / digit % 3);
    }
}

template <uint8_t (*Classify)(const uint8_t*, bool)>
std::vector<uint8_t> build_table(bool exact) {
    std::vector<uint8_t> table(static_cast<std::size_t>(line_codes(exact)));
    uint8_t line[2 * kLineReach + 1];
    for (int code = 0; code < line_codes(exact); ++code) {
        decode_line(code, line_reach(exact), line);
        table[static_cast<std::size_t>(code)] = Classify(line, exact);
    }
    return table;
}

std::array<uint8_t, 65536> build_levels() {
    std::array<uint8_t, 65536> levels{};
    for (int p = 0; p < 65536; ++p) {
        int fours = 0, threes = 0;
        bool five = false, double_four = false, four_three = false;
        for (int d = 0; d < 4; ++d) {
            const int bits = (p >> (4 * d)) & 15;
            five = five || (bits & kFiveBit);
            double_four = double_four || (bits & kDoubleFourBit);
            fours += (bits & kFourBit) ? 1 : 0;
            threes += (bits & kThreeBit) ? 1 : 0;
            for (int e = 0; e < 4; ++e)
                if (e != d && (bits & kFourBit) && (((p >> (4 * e)) & 15) & kThreeBit))
                    four_three = true;
        }
        int level = 4;
        if (five || double_four || fours >= 2)
            level = 1;
        else if (four_three || threes >= 2)
            level = 2;
        else if (fours + threes > 0)
            level = 3;
        levels[static_cast<std::size_t>(p)] = static_cast<uint8_t>(level);
    }
    return levels;
}

}  // namespace

const std::vector<uint8_t>& pattern_table(bool exact) {
    static const std::vector<uint8_t> freestyle = build_table<line_pattern>(false);
    static const std::vector<uint8_t> standard = build_table<line_pattern>(true);
    return exact ? standard : freestyle;
}

const std::vector<uint8_t>& shape_table(bool exact) {
    static const std::vector<uint8_t> freestyle = build_table<line_shape>(false);
    static const std::vector<uint8_t> standard = build_table<line_shape>(true);
    return exact ? standard : freestyle;
}

const std::vector<uint16_t>& pattern_value_table(bool exact) {
    static const auto build = [](bool rule) {
        std::vector<uint16_t> values(static_cast<std::size_t>(line_codes(rule)));
        const auto& shapes = shape_table(rule);
        const auto& patterns = pattern_table(rule);
        for (std::size_t code = 0; code < values.size(); ++code)
            values[code] =
                static_cast<uint16_t>(patterns[code] | kShapeMoveValue[shapes[code]] << 4);
        return values;
    };
    static const std::vector<uint16_t> freestyle = build(false);
    static const std::vector<uint16_t> standard = build(true);
    return exact ? standard : freestyle;
}

const uint8_t* level_table() {
    static const std::array<uint8_t, 65536> levels = build_levels();
    return levels.data();
}

int level_of_patterns(uint16_t patterns) { return level_table()[patterns]; }

}  // namespace gaeval::gomoku
