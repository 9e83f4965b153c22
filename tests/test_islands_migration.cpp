// Migration must move genomes: a GA whose members are labelled by island and member shows,
// after run_archipelago, which genome sits in which slot. A migration that only logs (or
// writes the immigrants somewhere the island never reads) fails here.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "host/islands/archipelago.hpp"
#include "host/islands/transport.hpp"

namespace gaeval::islands {
namespace {

// Island i, member m starts with the genome {100 i + m} and the fitness 10 i + m: every
// island's best is member 4, its worst member 0.
class LabelledGa : public IslandGa {
  public:
    static constexpr uint32_t kMembers = 5;
    explicit LabelledGa(uint32_t islands) : words(islands), values(islands), immigrations(islands) {}

    void start(uint32_t i) override {
        words[i].clear();
        values[i].clear();
        for (uint32_t m = 0; m < kMembers; ++m) {
            words[i].push_back({100 * i + m});
            values[i].push_back(10.0 * i + m);
        }
    }
    IslandRow evaluate(uint32_t i) override {
        IslandRow row;
        row.island = i;
        row.best = *std::max_element(values[i].begin(), values[i].end());
        return row;
    }
    std::vector<double> fitness(uint32_t i) override { return values[i]; }
    std::vector<uint32_t> genome(uint32_t i, uint64_t m) override { return words[i][m]; }
    void immigrate(uint32_t i, const std::vector<int64_t>& slots,
                   const std::vector<Migrant>& immigrants) override {
        ++immigrations[i];
        for (size_t j = 0; j < slots.size(); ++j) {
            words[i][slots[j]] = immigrants[j].words;
            values[i][slots[j]] = immigrants[j].fitness;
        }
    }
    void advance(uint32_t) override {}
    Migrant best(uint32_t i) override {
        Migrant b;
        b.from = i;
        b.fitness = values[i][kMembers - 1];
        b.words = words[i][kMembers - 1];
        return b;
    }
    void save(uint32_t, Checkpoint&, const std::string&) override {}
    void load(uint32_t, const Checkpoint&, const std::string&, const std::string&) override {}

    std::vector<std::vector<std::vector<uint32_t>>> words;
    std::vector<std::vector<double>> values;
    std::vector<int> immigrations;
};

ArchipelagoResult run(LabelledGa& ga, Replacement replace) {
    ArchipelagoJob job;
    job.islands.count = 3;
    job.islands.topology = Topology::Ring;
    job.islands.migrate_every = 1;
    job.islands.migrants = 1;
    job.islands.replace = replace;
    job.generations = 2;  // one migration, after generation 0
    job.quiet = true;
    LocalTransport transport;
    return run_archipelago(ga, transport, job);
}

TEST(IslandsMigration, ImmigrantsArriveInTheReceivingIsland) {
    LabelledGa ga(3);
    const ArchipelagoResult result = run(ga, Replacement::Worst);
    // Ring: island i receives island i-1's best (member 4) into its worst slot (member 0).
    for (uint32_t to = 0; to < 3; ++to) {
        const uint32_t from = (to + 2) % 3;
        EXPECT_EQ(ga.immigrations[to], 1) << to;
        EXPECT_EQ(ga.words[to][0], std::vector<uint32_t>{100 * from + 4}) << to;
        EXPECT_EQ(ga.values[to][0], 10.0 * from + 4) << to;
        for (uint32_t m = 1; m < LabelledGa::kMembers; ++m)
            EXPECT_EQ(ga.words[to][m], std::vector<uint32_t>{100 * to + m}) << to << " " << m;
    }
    ASSERT_EQ(result.migrations.size(), 3u);
    for (const MigrationRow& r : result.migrations) {
        EXPECT_EQ(r.generation, 0u);
        EXPECT_EQ(r.from, (r.to + 2) % 3);
        EXPECT_EQ(r.slot, 0);
    }
}

TEST(IslandsMigration, IfBetterKeepsTheResidentsWhenTheImmigrantIsWorse) {
    LabelledGa ga(3);
    const ArchipelagoResult result = run(ga, Replacement::IfBetter);
    // Island 0's best (4) does not beat island 1's worst (10), nor island 1's best (14)
    // island 2's worst (20); island 2's best (24) beats island 0's worst (0).
    EXPECT_EQ(ga.words[1][0], std::vector<uint32_t>{100});
    EXPECT_EQ(ga.words[2][0], std::vector<uint32_t>{200});
    EXPECT_EQ(ga.words[0][0], std::vector<uint32_t>{204});
    ASSERT_EQ(result.migrations.size(), 3u);
    for (const MigrationRow& r : result.migrations) EXPECT_EQ(r.slot, r.to == 0 ? 0 : -1) << r.to;
}

}  // namespace
}  // namespace gaeval::islands
