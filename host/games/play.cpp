#include "host/games/play.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

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

std::vector<GameRecord> GameSession::play_keyed_pairings(const std::vector<PlayerData>& players,
                                                         const std::vector<Pairing>& pairings,
                                                         const std::vector<GameKey>& keys,
                                                         uint32_t max_plies,
                                                         const BackendChoice& backend) const {
    if (keys.size() != pairings.size())
        throw std::invalid_argument("a gathered batch needs one key per pairing");
    std::vector<GameRecord> records;
    records.reserve(pairings.size());
    for (std::size_t first = 0; first < pairings.size();) {
        std::size_t end = first;
        while (end < pairings.size() && keys[end].seed == keys[first].seed &&
               keys[end].index == end - first)
            ++end;
        if (end == first)
            throw std::invalid_argument("a gathered batch's keys must count from 0 per seed here");
        const std::vector<Pairing> run(pairings.begin() + first, pairings.begin() + end);
        for (const GameRecord& r :
             play_pairings(players, run, keys[first].seed, max_plies, backend))
            records.push_back(r);
        first = end;
    }
    return records;
}

}  // namespace gaeval::games
