// Old spellings of flags keep working (docs/cli.md lists them) and say once that they are old.
// The note is held until the command has succeeded (or was interrupted), so that bad input
// stays one line on stderr.
#pragma once

#include <string>

namespace gaeval {

// Records "NAME: deprecated, write NEW" (a line said twice is kept once).
void note_deprecated(const std::string& line);

// Prints every recorded note on stderr as "gaeval COMMAND: note: LINE" and forgets them.
void print_deprecations(const std::string& command);

}  // namespace gaeval
