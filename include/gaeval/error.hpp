// Errors of the gaeval library (the CLI reports the same ones). Every call of the public API
// (include/gaeval/) throws InputError for bad input, with the one-line message the CLI prints
// before it exits with status 2 ("scenarios/x.json: friendly[2].base: ..."), and Interrupted when
// a caller's check or the CLI's signal flag stopped the work. Anything else is an internal error.
#pragma once

#include <stdexcept>
#include <string>

namespace gaeval {

// Bad input: a file, a field, an option, an impossible parameter. what() is one line.
class InputError : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

// Work stopped by a signal; what() says what was done ("1200000 of 4000000 games").
class Interrupted : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

}  // namespace gaeval
