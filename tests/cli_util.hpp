// Runs the gaeval binary (GAEVAL_BINARY) with arguments; captures exit code, stdout, stderr.
#pragma once

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

namespace gaeval::testing {

struct CliResult {
    int exit_code = -1;
    std::string out, err;
    int err_lines() const {
        int n = 0;
        for (char c : err) n += c == '\n';
        return n;
    }
};

inline std::string read_text(const std::string& path) {
    std::ifstream in(path);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

// args is appended to the binary path as is (shell syntax).
inline CliResult run_cli(const std::string& args) {
    static int counter = 0;
    const std::string base =
        ::testing::TempDir() + "/cli_" + std::to_string(getpid()) + "_" + std::to_string(counter++);
    const std::string cmd =
        std::string(GAEVAL_BINARY) + " " + args + " >" + base + ".out 2>" + base + ".err";
    int status = std::system(cmd.c_str());
    CliResult r;
    r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    r.out = read_text(base + ".out");
    r.err = read_text(base + ".err");
    return r;
}

// Writes text to a fresh temporary file (unique per process and call: tests run in parallel)
// and returns its path.
inline std::string temp_file(const std::string& name, const std::string& text) {
    static int counter = 0;
    const std::string path = ::testing::TempDir() + "/gaeval_" + std::to_string(getpid()) + "_" +
                             std::to_string(counter++) + "_" + name;
    std::ofstream(path) << text;
    return path;
}

// Every regular file below `dir` (paths relative to it) with its bytes; empty when `dir` does
// not exist. Two snapshots compare equal when a command touched nothing in the folder.
inline std::map<std::string, std::string> folder_snapshot(const std::string& dir) {
    namespace fs = std::filesystem;
    std::map<std::string, std::string> files;
    if (!fs::exists(dir)) return files;
    for (const auto& e : fs::recursive_directory_iterator(dir))
        if (e.is_regular_file())
            files[fs::relative(e.path(), dir).string()] = read_text(e.path().string());
    return files;
}

}  // namespace gaeval::testing
