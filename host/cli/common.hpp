// Flags every subcommand has (--backend, --threads, --seed, --json, --help), the parsing glue
// that turns cxxopts' exceptions into one-line InputErrors, and strict numeric flags: every
// number is read from its text with a range check (no wrap-around, no silent truncation).
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

// Most threads --threads accepts (more cannot run on any machine gaeval targets; the OpenMP
// runtime fails before, see docs).
constexpr int kMaxThreads = 1024;

// The value of string flag `name` as an integer in [min, max]; InputError naming the flag when
// it is missing (and required), not an integer, or out of range.
int64_t read_integer_flag(const cxxopts::ParseResult& result, const std::string& name, int64_t min,
                          int64_t max);
// The same for unsigned 64-bit values (seeds).
uint64_t read_unsigned_flag(const cxxopts::ParseResult& result, const std::string& name);
// A finite real in [min, max]; InputError naming the flag otherwise (nan and inf refused).
double read_real_flag(const cxxopts::ParseResult& result, const std::string& name, double min,
                      double max);

// The command line as one string (for run.json).
std::string joined_command_line(int argc, char** argv, const std::string& prefix = "gaeval");

// Comma-separated list ("a,b,c") to items; empty items are an InputError naming the flag.
std::vector<std::string> split_list(const std::string& text, const std::string& flag);

}  // namespace gaeval::cli
