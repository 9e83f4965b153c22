#include "host/core/deprecation.hpp"

#include <algorithm>
#include <cstdio>
#include <vector>

namespace gaeval {

namespace {
std::vector<std::string>& pending() {
    static std::vector<std::string> lines;
    return lines;
}
}  // namespace

void note_deprecated(const std::string& line) {
    std::vector<std::string>& lines = pending();
    if (std::find(lines.begin(), lines.end(), line) == lines.end()) lines.push_back(line);
}

void print_deprecations(const std::string& command) {
    for (const std::string& line : pending())
        std::fprintf(stderr, "gaeval %s: note: %s\n", command.c_str(), line.c_str());
    pending().clear();
}

}  // namespace gaeval
