// Errors that reach the user. InputError: bad input (file, field, flag, impossible parameter)
// caught at the edge; the CLI prints its one-line message and exits with 2. Anything else that
// escapes is an internal error (exit 1).
#pragma once

#include <stdexcept>
#include <string>

#include "include/gaeval/error.hpp"

namespace gaeval {

// InputError is the public API's (include/gaeval/error.hpp): the library throws the very type
// its users catch.

// Exit codes of every subcommand.
enum ExitCode : int {
    ExitOk = 0,
    ExitInternal = 1,
    ExitBadInput = 2,
    ExitDiffers = 3,
    ExitInterrupted = 130
};

}  // namespace gaeval
