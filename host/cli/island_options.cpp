#include "host/cli/island_options.hpp"

#include <algorithm>
#include <cstdlib>

#include "host/backend/backend.hpp"
#include "host/core/error.hpp"

namespace gaeval::cli {

namespace {
const char* const kIslandFlags[] = {"islands", "migrate-every", "migrants", "topology",
                                    "immigrants-replace"};
}

void add_island_options(cxxopts::Options& options) {
    // clang-format off
    options.add_options("Islands")
        ("islands", "N populations that exchange migrants (docs/islands.md); over MPI: "
         "mpirun -np R gaeval ... --islands N (R <= N)", cxxopts::value<std::string>())
        ("migrate-every", "generations between migrations (10)", cxxopts::value<std::string>())
        ("migrants", "emigrants per island and migration: its best K (1)",
         cxxopts::value<std::string>())
        ("topology", "ring | fully-connected | unconnected (ring)", cxxopts::value<std::string>())
        ("immigrants-replace", "worst (immigrants replace the worst members) | if-better (only "
         "members they beat) (worst)", cxxopts::value<std::string>());
    // clang-format on
}

bool has_island_flag(const cxxopts::ParseResult& result) {
    for (const char* f : kIslandFlags)
        if (result.count(f)) return true;
    return false;
}

islands::IslandConfig read_island_options(const cxxopts::ParseResult& result) {
    islands::IslandConfig c;
    if (result.count("islands"))
        c.count = static_cast<uint32_t>(read_integer_flag(result, "islands", 1, 4096));
    if (result.count("migrate-every"))
        c.migrate_every =
            static_cast<uint32_t>(read_integer_flag(result, "migrate-every", 1, 1000000000));
    if (result.count("migrants"))
        c.migrants = static_cast<uint32_t>(read_integer_flag(result, "migrants", 1, 1000000000));
    if (result.count("topology"))
        c.topology = islands::parse_topology(result["topology"].as<std::string>());
    if (result.count("immigrants-replace"))
        c.replace = islands::parse_replacement(result["immigrants-replace"].as<std::string>());
    if (c.count < 2)
        for (const char* f : kIslandFlags)
            if (std::string(f) != "islands" && result.count(f))
                throw InputError(std::string("--") + f + ": needs --islands 2 or more");
    return c;
}

int launcher_ranks() {
    for (const char* v : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "MPI_LOCALNRANKS"})
        if (const char* text = std::getenv(v)) return std::max(1, std::atoi(text));
    return 1;
}

std::unique_ptr<islands::Transport> island_transport(bool with_islands, bool out_given) {
    const int ranks = launcher_ranks();
    if (!with_islands) {
        if (ranks > 1)
            throw InputError("mpirun started " + std::to_string(ranks) +
                             " ranks of a run without islands: add --islands N (N >= ranks)");
        return nullptr;
    }
    if (ranks > 1 && !islands::mpi_compiled())
        throw InputError("mpirun started " + std::to_string(ranks) +
                         " ranks, but this gaeval was built without MPI (GAEVAL_MPI): every rank "
                         "would run every island");
    if (ranks > 1 && !out_given)
        throw InputError("--out DIR: needed when mpirun starts several ranks (they share it)");
    std::unique_ptr<islands::Transport> t = islands::make_transport();
    if (t->size() > 1) select_local_device(t->local_rank());
    return t;
}

void say_how_to_resume(const islands::Transport& t, const char* command,
                       const std::string& out_dir) {
    if (t.rank() != 0) return;
    const std::string launcher = t.size() > 1 ? "mpirun -np " + std::to_string(t.size()) + " " : "";
    std::fprintf(stderr, "gaeval %s: interrupted; resume with: %sgaeval %s --resume %s\n", command,
                 launcher.c_str(), command, out_dir.c_str());
}

}  // namespace gaeval::cli
