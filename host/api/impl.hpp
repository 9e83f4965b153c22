// What the public API's handles (include/gaeval/) hold: the engine's own types. Only host/api/
// and the library's tests include this.
#pragma once

#include <memory>
#include <string>

#include "gaeval/backend.hpp"
#include "gaeval/games.hpp"
#include "gaeval/pile_in.hpp"
#include "host/backend/backend.hpp"
#include "host/games/registry.hpp"
#include "host/pile_in/scenario_io.hpp"

namespace gaeval {

struct Backend::Impl {
    BackendChoice choice;
};

struct PileInScenario::Impl {
    pile_in::ScenarioFile file;
};

// InputError "`what`: ..." unless p points into memory of the current device (cudaMalloc'd or
// managed). Only in builds with the CUDA backend.
void require_device_memory(const void* p, const std::string& what);

struct Game::Impl {
    std::unique_ptr<games::GameSession> session;
};

}  // namespace gaeval
