// Every repository path the README and docs/ name in backticks exists (issue 31: docs that
// drifted named files that were gone). A path is a backticked token whose first component is one
// of the repository's source folders; placeholders (`<name>`, `*`, `NAME`) and build outputs are
// not paths of the repository.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;

std::vector<std::string> missing_paths(const fs::path& root, const fs::path& doc) {
    static const std::set<std::string> kFolders = {
        "bench",   "data",     "docs",   "examples",  "games",   "host",  "include",
        "kernels", "problems", "python", "scenarios", "scripts", "tests", ".ci"};
    std::ifstream in(doc);
    std::stringstream text;
    text << in.rdbuf();
    const std::string s = text.str();
    std::vector<std::string> missing;
    const std::regex token("`([^`\\s]+)`");
    for (auto it = std::sregex_iterator(s.begin(), s.end(), token); it != std::sregex_iterator();
         ++it) {
        std::string t = (*it)[1].str();
        while (!t.empty() && std::string(".,:;)").find(t.back()) != std::string::npos) t.pop_back();
        if (t.find('/') == std::string::npos) continue;
        if (t.find_first_of("*<>{}$") != std::string::npos) continue;
        if (t.find("NAME") != std::string::npos || t.find("TARGET") != std::string::npos) continue;
        if (t.find("generated/") != std::string::npos) continue;  // the build writes those
        if (kFolders.count(t.substr(0, t.find('/'))) == 0) continue;
        const std::string path = t.substr(0, t.find(':'));  // file:line
        if (!fs::exists(root / path)) missing.push_back(t);
    }
    return missing;
}

TEST(DocsPaths, EveryRepositoryPathNamedInTheDocsExists) {
    const fs::path root = GAEVAL_SOURCE_DIR;
    std::vector<fs::path> docs = {root / "README.md"};
    for (const auto& e : fs::directory_iterator(root / "docs"))
        if (e.path().extension() == ".md") docs.push_back(e.path());
    ASSERT_GT(docs.size(), 5u);
    int checked = 0;
    for (const fs::path& doc : docs) {
        for (const std::string& m : missing_paths(root, doc))
            ADD_FAILURE() << doc.filename().string() << " names `" << m << "`, which is not there";
        ++checked;
    }
    EXPECT_EQ(checked, static_cast<int>(docs.size()));
}

TEST(DocsPaths, TheCheckFindsAPathThatIsNotThere) {
    const fs::path dir = fs::temp_directory_path() / "gaeval-docs-paths-test";
    fs::create_directories(dir);
    const fs::path doc = dir / "doc.md";
    std::ofstream(doc)
        << "See `host/batch/batch.hpp`, `games/<name>/` and `host/no/such.cpp:12`.\n";
    const auto missing = missing_paths(GAEVAL_SOURCE_DIR, doc);
    ASSERT_EQ(missing.size(), 1u);
    EXPECT_EQ(missing[0], "host/no/such.cpp:12");
    fs::remove_all(dir);
}

}  // namespace
