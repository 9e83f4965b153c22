// The island flags of `gaeval learn` and `gaeval pile-in` (host/islands/): --islands,
// --migrate-every, --migrants, --topology, --immigrants-replace, and the glue that runs an
// island job on this process's transport (in one process, or over MPI under mpirun).
#pragma once

#include <cstdio>
#include <exception>
#include <memory>
#include <optional>
#include <string>
#include <utility>

#include <cxxopts.hpp>

#include "host/cli/common.hpp"
#include "host/core/error.hpp"
#include "host/islands/archipelago.hpp"
#include "host/islands/islands.hpp"
#include "host/islands/transport.hpp"

namespace gaeval::cli {

void add_island_options(cxxopts::Options& options);

// The flags as a configuration (count 1 when --islands is not given); InputError on a bad
// value. Island flags other than --islands need --islands 2 or more.
islands::IslandConfig read_island_options(const cxxopts::ParseResult& result);

// True when an island flag was given (a resumed run takes them from its folder instead).
bool has_island_flag(const cxxopts::ParseResult& result);

// The number of ranks mpirun started (its environment), 1 outside mpirun.
int launcher_ranks();

// The transport of an island run: MPI under mpirun (the local rank picks the GPU when a
// machine has several), else in one process. InputError when mpirun started several ranks of
// a run without islands, or of an island run without --out (ranks must agree on the folder).
std::unique_ptr<islands::Transport> island_transport(bool islands, bool out_given);

// Runs an island job (`run()`, on every rank) under the ranks' error policy, the same for every
// command: an error all ranks agreed on is reported by rank 0 alone (rethrown there; the other
// ranks get nullopt and *exit_code); an error of this rank only aborts the whole MPI job, so
// that no rank waits for it, and is rethrown.
template <class Run>
auto run_on_ranks(islands::Transport& t, int* exit_code, Run&& run)
    -> std::optional<decltype(run())> {
    const bool root = t.rank() == 0;
    try {
        return run();
    } catch (const islands::AgreedInputError&) {
        if (root) throw;
        *exit_code = ExitBadInput;  // rank 0 says it
    } catch (const islands::AgreedError&) {
        if (root) throw;
        *exit_code = ExitInternal;
    } catch (const std::exception& e) {
        if (t.size() > 1) {  // this rank alone failed: the others must not wait for it
            std::fprintf(stderr, "gaeval: rank %d: %s\n", t.rank(), e.what());
            t.abort(dynamic_cast<const InputError*>(&e) ? ExitBadInput : ExitInternal);
        }
        throw;
    }
    return std::nullopt;
}

// Rank 0 tells how to resume an interrupted island run of `command` ("learn", "pile-in"), with
// the mpirun prefix when it ran on several ranks.
void say_how_to_resume(const islands::Transport& t, const char* command,
                       const std::string& out_dir);

}  // namespace gaeval::cli
