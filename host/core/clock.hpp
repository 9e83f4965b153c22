// Seconds on a steady clock around a call.
#pragma once

#include <chrono>

namespace gaeval {

template <class F>
double time_seconds(F&& f) {
    const auto t0 = std::chrono::steady_clock::now();
    f();
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace gaeval
