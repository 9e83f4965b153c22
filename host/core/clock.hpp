// Seconds on a steady clock: now, and around a call.
#pragma once

#include <chrono>

namespace gaeval {

// Seconds since the steady clock's epoch (for differences).
inline double now_seconds() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

template <class F>
double time_seconds(F&& f) {
    const auto t0 = std::chrono::steady_clock::now();
    f();
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace gaeval
