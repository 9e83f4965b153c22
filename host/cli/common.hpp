// Flags every subcommand has (--backend, --threads, --seed, --json, --help) and the parsing
// glue that turns cxxopts' exceptions into one-line InputErrors.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <cxxopts.hpp>

namespace gaeval::cli {

struct CommonOptions {
    std::string backend = "auto";
    int threads = 0;
    uint64_t seed = 1;
    bool json = false;
};

// Adds --backend, --threads, --seed, --json and --help.
void add_common_options(cxxopts::Options& options, uint64_t default_seed = 1);

// Parses argv; an unknown flag, a missing value or a mistyped value throws InputError naming it.
cxxopts::ParseResult parse(cxxopts::Options& options, int argc, char** argv);

CommonOptions read_common(const cxxopts::ParseResult& result);

// The command line as one string (for run.json).
std::string joined_command_line(int argc, char** argv, const std::string& prefix = "gaeval");

// Comma-separated list ("a,b,c") to items; empty items are an InputError naming the flag.
std::vector<std::string> split_list(const std::string& text, const std::string& flag);

}  // namespace gaeval::cli
