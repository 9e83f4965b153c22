// Errors that reach the user. InputError: bad input (file, field, flag, impossible parameter)
// caught at the edge; the CLI prints its one-line message and exits with 2. Anything else that
// escapes is an internal error (exit 1).
#pragma once

#include <stdexcept>
#include <string>

namespace gaeval {

class InputError : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

// Exit codes of every subcommand.
enum ExitCode : int {
    ExitOk = 0,
    ExitInternal = 1,
    ExitBadInput = 2,
    ExitDiffers = 3,
    ExitInterrupted = 130
};

}  // namespace gaeval
