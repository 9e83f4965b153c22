// Feedback on long work: progress lines at most a few per second (the last one always), and the
// small texts they share (durations, times of day).
#pragma once

#include <cstdint>
#include <cstdio>
#include <ctime>
#include <string>

#include "host/core/clock.hpp"

namespace gaeval {

// Whether a progress line is due: at most one per `interval` seconds, and always when forced
// (the last line of a run, an interruption).
class RateLimiter {
  public:
    explicit RateLimiter(double interval = 0.25) : interval_(interval) {}
    bool due(bool force = false) {
        const double now = now_seconds();
        if (!force && now - last_ < interval_) return false;
        last_ = now;
        return true;
    }

  private:
    double interval_;
    double last_ = -1e300;
};

// "1:05" or "2:03:07" (rounded seconds).
// "1 model", "3 models": a count with its noun, singular for one (`plural`: when not noun + "s").
inline std::string counted(uint64_t n, const std::string& noun, const std::string& plural = "") {
    return std::to_string(n) + " " + (n == 1 ? noun : plural.empty() ? noun + "s" : plural);
}
// "s" unless n is 1 (for printf formats: "%d model%s").
inline const char* plural_s(uint64_t n) { return n == 1 ? "" : "s"; }

inline std::string duration_text(double seconds) {
    if (!(seconds >= 0)) return "?";
    const long s = static_cast<long>(seconds + 0.5);
    char buf[32];
    if (s >= 3600)
        std::snprintf(buf, sizeof buf, "%ld:%02ld:%02ld", s / 3600, s / 60 % 60, s % 60);
    else
        std::snprintf(buf, sizeof buf, "%ld:%02ld", s / 60, s % 60);
    return buf;
}

// "2026-11-25T09:41:23Z".
inline std::string iso_time_now() {
    const std::time_t t = std::time(nullptr);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
    return buf;
}

// A progress line for a batch of `total` items: "label: done/total (pct%), rate/s, ETA m:ss",
// written to stderr when due (rate-limited; `finish` forces the last one).
class Progress {
  public:
    Progress(std::string label, double total, std::string unit, bool enabled)
        : label_(std::move(label)), unit_(std::move(unit)), total_(total), enabled_(enabled),
          start_(now_seconds()) {}
    void update(double done, bool force = false) {
        if (!enabled_ || !limiter_.due(force)) return;
        const double elapsed = now_seconds() - start_;
        const double rate = elapsed > 0 ? done / elapsed : 0;
        const double eta = rate > 0 ? (total_ - done) / rate : -1;
        std::fprintf(stderr, "%s: %.0f/%.0f %s (%.0f%%), %.3g %s/s, ETA %s\n", label_.c_str(),
                     done, total_, unit_.c_str(), total_ > 0 ? 100 * done / total_ : 100.0, rate,
                     unit_.c_str(), duration_text(eta).c_str());
    }
    void finish(double done) { update(done, true); }

  private:
    std::string label_, unit_;
    double total_;
    bool enabled_;
    double start_;
    RateLimiter limiter_;
};

}  // namespace gaeval
