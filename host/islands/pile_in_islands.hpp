// `gaeval pile-in --islands N`: the pile-in GA (host/pile_in/engine.hpp) as islands. Island i
// is a population of --population plans with seed island_seed(seed, i) on this rank's
// backend. Migration sits between an island's evaluation and its breeding: the best K ranked
// plans emigrate; immigrants overwrite the worst ranked plans (or, if-better, only those they
// beat), and the island is evaluated and ranked again so that breeding sees them.
//
// Run folder: run.json (the pile-in manifest plus "islands"), islands.csv, migrations.csv,
// best.json and picture.svg (the best plan of all islands), checkpoint.json and one part per
// rank (every --checkpoint-every seconds by rank 0's clock, and after the last generation;
// islands.csv and migrations.csv are rewritten with each checkpoint). An empty out_dir writes
// nothing (the bench).
#pragma once

#include "host/islands/archipelago.hpp"
#include "host/pile_in/run.hpp"

namespace gaeval::islands {

struct PileInIslandsResult {
    ArchipelagoResult archipelago;
    pile_in::JobResult job;  // the exported best (best of all islands) and its verdict
};

uint64_t pile_in_islands_fingerprint(const pile_in::PileInJob& job, const IslandConfig& islands);

// Runs (or resumes) the job as islands over `transport`; every rank calls it with the same job.
PileInIslandsResult run_pile_in_islands(const pile_in::PileInJob& job, const IslandConfig& islands,
                                        Transport& transport);

}  // namespace gaeval::islands
