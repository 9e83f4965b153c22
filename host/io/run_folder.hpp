// Run folders (`--out DIR`) shared by the long-running subcommands: creating one and checking
// that it is writable before any result exists, and replacing a file atomically.
#pragma once

#include <string>

namespace gaeval::io {

// Creates `dir` (and its parents) and checks that a file can be written in it; InputError
// naming the folder otherwise.
void prepare_out_dir(const std::string& dir);

// Writes `text` to `path` through a temporary file and a rename, so a reader (or a crash)
// never sees half a file; InputError when it cannot be written.
void write_text_atomic(const std::string& path, const std::string& text);

}  // namespace gaeval::io
