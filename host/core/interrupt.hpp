// Graceful interruption: the first SIGINT/SIGTERM sets a flag that long loops poll (between
// generations, batches of games, perft subtrees, benchmark samples); a run with a folder writes
// a checkpoint and says how to resume, any other work throws Interrupted, which the CLI reports
// as one line and exit code 130. A second signal ends the process at once.
#pragma once

#include <stdexcept>
#include <string>

#include "include/gaeval/error.hpp"

namespace gaeval {

void install_interrupt_handler();
bool interrupted();
void clear_interrupt();  // for tests
// Sets the flag as a signal would (the Python module, when Python saw Ctrl-C).
void request_interrupt();

// Interrupted (work stopped by a signal; what() says what was done, "1200000 of 4000000
// games") is the public API's (include/gaeval/error.hpp).

// Throws Interrupted(what) when a signal arrived.
inline void throw_if_interrupted(const std::string& what) {
    if (interrupted()) throw Interrupted(what);
}

}  // namespace gaeval
