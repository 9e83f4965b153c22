// Shared by the libFuzzer targets (scripts/fuzz.sh builds them with clang++ -fsanitize=fuzzer,
// address,undefined): a parser of outside input may throw InputError (the CLI's one-line error,
// exit 2) and nothing else; any other exception would be an internal error (exit 1) on bad
// input, so it aborts here and the fuzzer keeps the input.
#pragma once

#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>

#include "host/core/error.hpp"

namespace gaeval::fuzz {

template <class F>
void expect_input_error_only(F&& parse) {
    try {
        parse();
    } catch (const InputError&) {
    } catch (const std::exception& e) {
        std::fprintf(stderr, "fuzz: not an InputError: %s\n", e.what());
        std::abort();
    }
}

// The bytes as a file (the loaders read paths): one per process, rewritten for each input.
inline std::string as_file(const uint8_t* data, std::size_t size, const char* suffix) {
    static const std::string path =
        "/tmp/gaeval_fuzz_" + std::to_string(getpid()) + suffix;
    FILE* f = std::fopen(path.c_str(), "wb");
    if (!f) std::abort();
    if (size) std::fwrite(data, 1, size, f);
    std::fclose(f);
    return path;
}

}  // namespace gaeval::fuzz
