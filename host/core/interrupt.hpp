// Graceful interruption: the first SIGINT/SIGTERM sets a flag that long loops poll (between
// generations, batches of games, perft subtrees, benchmark samples); a run with a folder writes
// a checkpoint and says how to resume, any other work throws Interrupted, which the CLI reports
// as one line and exit code 130. A second signal ends the process at once.
#pragma once

#include <stdexcept>
#include <string>

namespace gaeval {

void install_interrupt_handler();
bool interrupted();
void clear_interrupt();  // for tests

// Work stopped by a signal; what() says what was done ("1200000 of 4000000 games").
class Interrupted : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

// Throws Interrupted(what) when a signal arrived.
inline void throw_if_interrupted(const std::string& what) {
    if (interrupted()) throw Interrupted(what);
}

}  // namespace gaeval
