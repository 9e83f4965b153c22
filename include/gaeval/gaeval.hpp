// The gaeval library: everything of the public API (docs/cpp-api.md).
#pragma once

#include "backend.hpp"
#include "error.hpp"
#include "games.hpp"
#include "pile_in.hpp"
