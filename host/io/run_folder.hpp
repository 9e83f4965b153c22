// Run folders shared by every command that writes one (pile-in, learn, play --record, ...):
// a run never overwrites another. A folder is free when it does not exist or is empty; an
// occupied one is refused with one line naming what is there and how to resume it. With no
// --out, a new numbered folder runs/<kind>-NNN is chosen (and said on stderr by the caller).
// Nothing is created until every input has been validated (create_run_folder).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace gaeval::io {

// The folder a new run of `kind` ("pile-in", "learn") writes: `requested` when given (refused,
// InputError, when occupied), else the first free runs/<kind>-001, -002, ... Creates nothing.
std::string choose_run_folder(const std::string& requested, const std::string& kind);

// InputError when `dir` exists and is not empty, naming what it holds (a run of some kind:
// "resume it with gaeval KIND --resume DIR") and suggesting another folder.
void check_run_folder_free(const std::string& dir, const std::string& flag = "--out");

// InputError unless `dir` holds a run of `kind` (run.json says so), for --resume.
void check_run_folder_kind(const std::string& dir, const std::string& kind);

// Creates `dir` (and its parents) and checks that a file can be written in it; InputError
// naming the folder otherwise.
void create_run_folder(const std::string& dir);
// Former name of create_run_folder (a folder that may exist already).
void prepare_out_dir(const std::string& dir);

// Writes `text` to `path` through a temporary file and a rename, so that a reader, a crash or
// a full disk never leaves half a file in place of the previous one; InputError naming the
// file when it cannot be written (the previous file stays).
void write_text_atomic(const std::string& path, const std::string& text);
void write_bytes_atomic(const std::string& path, const void* data, std::size_t bytes);

// Bytes of a file, as "12.3 MB".
std::string file_size_text(const std::string& path);

}  // namespace gaeval::io
