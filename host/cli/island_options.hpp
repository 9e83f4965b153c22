// The island flags of `gaeval learn` and `gaeval pile-in` (host/islands/): --islands,
// --migrate-every, --migrants, --topology, --immigrants-replace, and the glue that runs an
// island job on this process's transport (in one process, or over MPI under mpirun).
#pragma once

#include <memory>
#include <string>

#include <cxxopts.hpp>

#include "host/cli/common.hpp"
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

}  // namespace gaeval::cli
