#include "host/games/play.hpp"

#include <algorithm>
#include <cmath>

namespace gaeval::games {

PlaySummary summarize(const std::vector<GameRecord>& records) {
    PlaySummary s;
    for (const GameRecord& r : records) {
        ++s.games;
        s.wins += r.a_result > 0;
        s.draws += r.a_result == 0;
        s.losses += r.a_result < 0;
        s.stopped += r.stopped;
        s.plies += r.plies;
    }
    return s;
}

void PlaySummary::score_interval(double* low, double* high) const {
    if (games == 0) {
        *low = 0;
        *high = 1;
        return;
    }
    // Wilson's score interval with the score as the observed proportion (learn_run.cpp's
    // wilson_interval for wins alone: the same numbers when there are no draws).
    const double z = 1.96, n = static_cast<double>(games), p = score();
    const double centre = (p + z * z / (2 * n)) / (1 + z * z / n);
    const double half = z * std::sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n);
    // Exact ends for a clean sweep either way (the formula gives 1 - 1e-16 by rounding).
    *low = p <= 0 ? 0.0 : std::max(0.0, centre - half);
    *high = p >= 1 ? 1.0 : std::min(1.0, centre + half);
}

}  // namespace gaeval::games
