// Lockstep comparison of two backends: the same job stepped on both, every array compared
// bit for bit after every phase, stopping at the first difference.
#pragma once

#include <cstdint>
#include <string>

namespace gaeval {

struct Difference {
    bool identical = true;
    std::string what;  // "identical" summary, or where it differs
    uint32_t generation = 0;
    uint64_t individual = 0;
    std::string field;  // "fitness", "gene 3", "ranking", "mean", ...
    std::string a_value, b_value;
    uint32_t generations_compared = 0;
};

// "12.5 (0x41480000)": a float with its bits.
std::string float_with_bits(float v);

}  // namespace gaeval
