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
    const double mean = score();
    const double second_moment = (wins + 0.25 * draws) / games;
    const double variance = std::max(0.0, second_moment - mean * mean);
    const double half = 1.96 * std::sqrt(variance / games);
    *low = std::max(0.0, mean - half);
    *high = std::min(1.0, mean + half);
}

}  // namespace gaeval::games
