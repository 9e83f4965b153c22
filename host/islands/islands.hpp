// The island model (docs/islands.md): N populations of the same GA evolve on their own and
// exchange migrants at generation boundaries. This header holds the pure parts every transport
// shares: the configuration, the topology (who receives from whom, in a fixed order), the
// emigrant selection (best K) and the immigrant placement (worst K, or only when better), and
// each island's seed. Nothing here depends on which rank or thread runs an island, so every
// transport gives the same bits.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace gaeval::islands {

enum class Topology { Ring, FullyConnected, Unconnected };
enum class Replacement { Worst, IfBetter };

const char* topology_name(Topology t);
Topology parse_topology(const std::string& text);  // InputError on an unknown name
const char* replacement_name(Replacement r);
Replacement parse_replacement(const std::string& text);  // InputError on an unknown name

struct IslandConfig {
    uint32_t count = 1;           // --islands N
    uint32_t migrate_every = 10;  // --migrate-every G: after generations G, 2G, ... (not the last)
    uint32_t migrants = 1;        // --migrants K: emigrants per island and migration
    Topology topology = Topology::Ring;
    Replacement replace = Replacement::Worst;  // --immigrants-replace
};

// InputError naming the flag: N in [1, 4096], G >= 1, K >= 1, and the immigrants an island
// takes in one migration (K per source) fewer than its `population`.
void validate(const IslandConfig& c, uint64_t population);

nlohmann::json config_json(const IslandConfig& c);
IslandConfig config_from_json(const nlohmann::json& j);  // json exceptions on a bad object

// The islands configuration of a run folder (pile-in or learn), when it was run with islands:
// false when its run.json has none; InputError naming the file when it is unreadable.
bool folder_islands(const std::string& dir, IslandConfig* islands);

// The islands `island` receives migrants from, in the order they are placed: ring: the
// previous island (i - 1 mod N); fully-connected: every other island by increasing index;
// unconnected (or N = 1): none.
std::vector<uint32_t> migration_sources(const IslandConfig& c, uint32_t island);

// Whether migration follows generation `generation` (0-based, just evaluated) of a run of
// `total` generations: every G-th generation, never after the last one.
bool migrates_after(const IslandConfig& c, uint32_t generation, uint32_t total);

// Island i's seed: the run's seed for island 0 (so --islands 1 is the plain run), a Philox
// draw keyed by (seed, IslandSeed, i) for the others.
uint64_t island_seed(uint64_t seed, uint32_t island);

// The rank that runs island i of `count` over `ranks` ranks: contiguous blocks, the first
// count mod ranks ranks taking one more.
int island_rank(uint32_t island, uint32_t count, int ranks);

// One migrant (or an island's best): its island, its fitness (higher is better) and its genome
// as 32-bit words.
struct Migrant {
    uint32_t from = 0;
    double fitness = 0;
    std::vector<uint32_t> words;
    uint32_t generation = 0;  // an island's best: the generation that found it
};

// The K members of highest fitness, best first, ties by lower index (K clamped to the size).
std::vector<uint64_t> best_members(const std::vector<double>& fitness, uint32_t k);

// Where each immigrant goes (in order): the residents ranked worst first (lowest fitness, ties
// by higher index), immigrant j to the j-th worst; with IfBetter only when its fitness is
// strictly higher than that resident's, else -1 (not placed).
std::vector<int64_t> place_immigrants(const std::vector<double>& resident_fitness,
                                      const std::vector<double>& immigrant_fitness,
                                      Replacement policy);

// One line of islands.csv and of migrations.csv.
struct IslandRow {
    uint32_t generation = 0, island = 0;
    double best = 0, mean = 0;
};
struct MigrationRow {
    uint32_t generation = 0, from = 0, to = 0;
    double fitness = 0;
    int64_t slot = -1;  // the member it replaced, -1: rejected (if-better)
};
extern const char* const kIslandsCsvHeader;
extern const char* const kMigrationsCsvHeader;
std::string csv_line(const IslandRow& r);
std::string csv_line(const MigrationRow& r);

}  // namespace gaeval::islands
