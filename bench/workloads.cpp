#include "bench/workloads.hpp"

#include "bench/game_bench.hpp"
#include "bench/islands_bench.hpp"
#include "bench/pile_in_bench.hpp"

namespace gaeval::bench {

std::vector<Workload> all_workloads() {
    std::vector<Workload> list;
    list.push_back(pile_in_workload());
    list.push_back(rules_pile_in_workload());
    list.push_back({"perft", "game perft, bulk-counted (nodes/s)", {}, perft_workload});
    list.push_back(
        {"playout", "random and weighted playouts (plies/s, games/s)", {}, playout_workload});
    Axes tournament;
    tournament.cuda_extra_populations = {256};
    list.push_back({"tournament", "one generation of gaeval learn's default scheme (games/s)",
                    tournament, tournament_workload});
    list.push_back({"batch",
                    "games' own batches, e.g. Pac-Man bot rollouts/s and generations/s",
                    {},
                    batch_workload});
    list.push_back(islands_workload());        // opt-in: --what islands
    list.push_back(islands_learn_workload());  // opt-in: --what islands-learn
    list.push_back(streamed_workload());  // opt-in: --what streamed
    return list;
}

}  // namespace gaeval::bench
