#include "host/islands/islands.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <numeric>

#include "games/core/rng.hpp"
#include "host/core/error.hpp"
#include "host/io/json_fields.hpp"

namespace gaeval::islands {

const char* topology_name(Topology t) {
    switch (t) {
        case Topology::Ring:
            return "ring";
        case Topology::FullyConnected:
            return "fully-connected";
        case Topology::Unconnected:
            return "unconnected";
    }
    return "?";
}

Topology parse_topology(const std::string& text) {
    if (text == "ring") return Topology::Ring;
    if (text == "fully-connected") return Topology::FullyConnected;
    if (text == "unconnected") return Topology::Unconnected;
    throw InputError("--topology: unknown topology '" + text +
                     "' (expected ring, fully-connected or unconnected)");
}

const char* replacement_name(Replacement r) {
    return r == Replacement::Worst ? "worst" : "if-better";
}

Replacement parse_replacement(const std::string& text) {
    if (text == "worst") return Replacement::Worst;
    if (text == "if-better") return Replacement::IfBetter;
    throw InputError("--immigrants-replace: unknown policy '" + text +
                     "' (expected worst or if-better)");
}

void validate(const IslandConfig& c, uint64_t population) {
    if (c.count < 1 || c.count > 4096)
        throw InputError("--islands: must be in [1, 4096], got " + std::to_string(c.count));
    if (c.migrate_every < 1) throw InputError("--migrate-every: must be at least 1");
    if (c.migrants < 1) throw InputError("--migrants: must be at least 1");
    const uint64_t sources = migration_sources(c, 0).size();
    if (sources * c.migrants >= population)
        throw InputError("--migrants " + std::to_string(c.migrants) + ": an island would take " +
                         std::to_string(sources * c.migrants) +
                         " immigrants per migration, not fewer than its population of " +
                         std::to_string(population));
}

nlohmann::json config_json(const IslandConfig& c) {
    return {{"islands", c.count},
            {"migrate_every", c.migrate_every},
            {"migrants", c.migrants},
            {"topology", topology_name(c.topology)},
            {"immigrants_replace", replacement_name(c.replace)}};
}

IslandConfig config_from_json(const nlohmann::json& j) {
    IslandConfig c;
    c.count = j.at("islands").get<uint32_t>();
    c.migrate_every = j.at("migrate_every").get<uint32_t>();
    c.migrants = j.at("migrants").get<uint32_t>();
    c.topology = parse_topology(j.at("topology").get<std::string>());
    c.replace = parse_replacement(j.at("immigrants_replace").get<std::string>());
    return c;
}

std::vector<uint32_t> migration_sources(const IslandConfig& c, uint32_t island) {
    std::vector<uint32_t> from;
    if (c.count < 2 || c.topology == Topology::Unconnected) return from;
    if (c.topology == Topology::Ring) {
        from.push_back((island + c.count - 1) % c.count);
        return from;
    }
    for (uint32_t i = 0; i < c.count; ++i)
        if (i != island) from.push_back(i);
    return from;
}

bool migrates_after(const IslandConfig& c, uint32_t generation, uint32_t total) {
    if (c.count < 2 || c.topology == Topology::Unconnected) return false;
    return (generation + 1) % c.migrate_every == 0 && generation + 1 < total;
}

uint64_t island_seed(uint64_t seed, uint32_t island) {
    if (island == 0) return seed;
    const Random4 r = philox(seed, Purpose::IslandSeed, island, 0, 0, 0);
    return (uint64_t{r.v[1]} << 32) | r.v[0];
}

int island_rank(uint32_t island, uint32_t count, int ranks) {
    const uint32_t r = static_cast<uint32_t>(ranks);
    const uint32_t base = count / r, extra = count % r;
    // The first `extra` ranks hold base + 1 islands each.
    const uint32_t big = extra * (base + 1);
    if (island < big) return static_cast<int>(island / (base + 1));
    return static_cast<int>(extra + (island - big) / std::max(base, 1u));
}

std::vector<uint64_t> best_members(const std::vector<double>& fitness, uint32_t k) {
    std::vector<uint64_t> order(fitness.size());
    std::iota(order.begin(), order.end(), uint64_t{0});
    std::stable_sort(order.begin(), order.end(),
                     [&](uint64_t a, uint64_t b) { return fitness[a] > fitness[b]; });
    order.resize(std::min<size_t>(order.size(), k));
    return order;
}

std::vector<int64_t> place_immigrants(const std::vector<double>& resident_fitness,
                                      const std::vector<double>& immigrant_fitness,
                                      Replacement policy) {
    std::vector<uint64_t> worst(resident_fitness.size());
    std::iota(worst.begin(), worst.end(), uint64_t{0});
    std::sort(worst.begin(), worst.end(), [&](uint64_t a, uint64_t b) {
        if (resident_fitness[a] != resident_fitness[b])
            return resident_fitness[a] < resident_fitness[b];
        return a > b;
    });
    std::vector<int64_t> slots(immigrant_fitness.size(), -1);
    for (size_t j = 0; j < immigrant_fitness.size() && j < worst.size(); ++j) {
        const uint64_t slot = worst[j];
        if (policy == Replacement::IfBetter && !(immigrant_fitness[j] > resident_fitness[slot]))
            continue;
        slots[j] = static_cast<int64_t>(slot);
    }
    return slots;
}

const char* const kIslandsCsvHeader = "generation,island,best,mean";
const char* const kMigrationsCsvHeader = "generation,from,to,fitness,replaced";

std::string csv_line(const IslandRow& r) {
    char line[128];
    std::snprintf(line, sizeof line, "%u,%u,%.9g,%.9g", r.generation, r.island, r.best, r.mean);
    return line;
}

std::string csv_line(const MigrationRow& r) {
    char line[128];
    std::snprintf(line, sizeof line, "%u,%u,%u,%.9g,%lld", r.generation, r.from, r.to, r.fitness,
                  static_cast<long long>(r.slot));
    return line;
}

bool folder_islands(const std::string& dir, IslandConfig* islands) {
    const std::string path = (std::filesystem::path(dir) / "run.json").string();
    if (!std::filesystem::exists(path)) return false;
    try {
        const nlohmann::json run = json_fields::read_file(path);
        if (!run.contains("islands")) return false;
        *islands = config_from_json(run.at("islands"));
        return true;
    } catch (const nlohmann::json::exception& e) {
        throw InputError(path + ": unreadable islands settings (" + std::string(e.what()) + ")");
    }
}

}  // namespace gaeval::islands
