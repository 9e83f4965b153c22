// The archipelago: runs the islands this rank owns generation by generation, exchanges
// statistics and migrants through a Transport, and keeps the run folder (rank 0: islands.csv,
// migrations.csv, island-K/generations.csv (each island's lines of a one-population run's
// generations.csv), generations.csv (each generation's line of the island with the best
// value, and its island), the picture, checkpoint.json; every rank: its checkpoint part). A GA
// takes part through the IslandGa hooks; learn (host/islands/learn_islands.*) and pile-in
// (host/islands/pile_in_islands.*) implement them.
//
// One generation, for every owned island in index order: evaluate (and, for GAs that breed in
// the same step, breed; learn plays all owned islands' games in one backend call); gather the
// statistics; when migration follows this generation, every island's best K (by the fitness hook)
// travel to the islands that receive from it and are placed by the replacement policy, sources in
// migration_sources order; advance (breed). Then every rank writes its checkpoint part and rank 0
// the manifest naming the generation.
#pragma once

#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "host/core/error.hpp"
#include "host/io/checkpoint.hpp"
#include "host/islands/islands.hpp"
#include "host/islands/transport.hpp"

namespace gaeval::islands {

class IslandGa {
  public:
    virtual ~IslandGa() = default;
    // Creates island `island` fresh (its seed: island_seed(seed, island)).
    virtual void start(uint32_t island) = 0;
    // Evaluates the island's current generation; its best and mean fitness.
    virtual IslandRow evaluate(uint32_t island) = 0;
    // Evaluates every island of `islands` (this rank's, in index order): each one's row and,
    // when `lines`, its generation_line. Default: evaluate and generation_line island by island;
    // a GA whose islands play their games together overrides it (learn: one backend call a
    // generation for all of them).
    virtual std::vector<std::pair<IslandRow, std::string>> evaluate_islands(
        const std::vector<uint32_t>& islands, bool lines) {
        std::vector<std::pair<IslandRow, std::string>> out;
        for (uint32_t i : islands) {
            IslandRow row = evaluate(i);
            out.emplace_back(row, lines ? generation_line(i) : std::string());
        }
        return out;
    }
    // Every member's fitness (higher is better) at the migration point, after evaluate.
    virtual std::vector<double> fitness(uint32_t island) = 0;
    // Member `member`'s genome as words.
    virtual std::vector<uint32_t> genome(uint32_t island, uint64_t member) = 0;
    // Writes immigrant j's genome and fitness at member slots[j] (every slot >= 0, distinct).
    virtual void immigrate(uint32_t island, const std::vector<int64_t>& slots,
                           const std::vector<Migrant>& immigrants) = 0;
    // Makes the island's next generation (pile-in breeds here; learn bred in evaluate).
    virtual void advance(uint32_t island) = 0;
    // The island's best so far: its fitness and genome (the exported best is the best of all).
    virtual Migrant best(uint32_t island) = 0;
    // The island's whole state into / out of a checkpoint, blob names prefixed by `prefix`.
    virtual void save(uint32_t island, Checkpoint& c, const std::string& prefix) = 0;
    virtual void load(uint32_t island, const Checkpoint& c, const std::string& prefix,
                      const std::string& origin) = 0;
    // The one-population run's generations.csv: its header (empty: the GA writes none), the
    // line of the generation `evaluate` just gave (called right after it; empty: not logged)
    // and the number its first column gives the first generation (0 or 1).
    virtual std::string generations_header() const { return ""; }
    virtual std::string generation_line(uint32_t /*island*/) { return ""; }
    virtual uint32_t first_generation_number() const { return 0; }
};

struct ArchipelagoJob {
    IslandConfig islands;
    uint32_t generations = 1;  // total, every island
    uint64_t fingerprint = 0;  // of the whole configuration: parts of another run are refused
    std::string out_dir;       // empty: no files
    bool resume = false;
    bool quiet = false;
    // Seconds between checkpoints (0: after every generation); rank 0's clock decides for all
    // ranks, and the last generation and an interruption always write one. Results never
    // depend on it.
    double checkpoint_every_seconds = 0;
    std::string label = "islands";  // progress lines
    // The picture of every island's best and the archipelago's best by generation (rank 0
    // writes it with the CSVs); empty: none.
    std::string picture;
    std::string picture_title;
};

struct ArchipelagoResult {
    uint32_t generation = 0;               // generations done
    Migrant best;                          // the best of all islands (from = its island)
    std::vector<IslandRow> rows;           // this invocation's, every island (all ranks)
    std::vector<MigrationRow> migrations;  // this invocation's
    bool interrupted = false;
    double seconds = 0;
};

// The generation a run folder's last complete checkpoint holds and the rank count that wrote
// it; InputError when there is none or it was written by another rank count.
uint32_t checkpoint_generation(const std::string& dir, int ranks, uint64_t fingerprint);

// Runs (or resumes) the islands of `job` over `transport` (islands on rank
// island_rank(i, N, size)). Every rank returns the same result.
ArchipelagoResult run_archipelago(IslandGa& ga, Transport& transport, const ArchipelagoJob& job);

// What agree() throws on every rank: the ranks stop together, none waits for another.
class AgreedInputError : public InputError {
  public:
    using InputError::InputError;
};
class AgreedError : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

// Runs `body` on every rank; an exception on any rank becomes the same exception on every
// rank (AgreedInputError for an InputError, else AgreedError; the message of the lowest
// failing rank), so that no rank waits for one that gave up. In one process: `body` as is. A rank
// that dies is mpirun's business (it ends the others).
void agree(Transport& transport, const std::function<void()>& body);

}  // namespace gaeval::islands
