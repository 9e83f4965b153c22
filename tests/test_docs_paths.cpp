// Every repository path the docs name in backticks exists (issue 31: docs that drifted named
// files that were gone). The docs: the README and every markdown file in the source folders
// (docs/, data/ataxx/README.md, tests/data/*.md, ...), but the dated records of bench/results/,
// each of which names the tree of its day. A path is a backticked token whose first component is
// one of the repository's source folders; placeholders (`<name>`, `*`, `NAME`) and build outputs
// are not paths of the repository.
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

const std::set<std::string> kFolders = {"bench",     "data",    "docs",    "examples", "games",
                                        "host",      "include", "kernels", "problems", "python",
                                        "scenarios", "scripts", "tests",   ".ci"};

std::vector<std::string> missing_paths(const fs::path& root, const fs::path& doc) {
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

// The README and every markdown file under the source folders but bench/results/.
std::vector<fs::path> every_doc(const fs::path& root) {
    std::vector<fs::path> docs = {root / "README.md"};
    for (const std::string& folder : kFolders) {
        if (!fs::is_directory(root / folder)) continue;
        for (const auto& e : fs::recursive_directory_iterator(root / folder)) {
            const std::string relative = fs::relative(e.path(), root).generic_string();
            if (e.path().extension() == ".md" && relative.rfind("bench/results/", 0) != 0)
                docs.push_back(e.path());
        }
    }
    return docs;
}

TEST(DocsPaths, EveryRepositoryPathNamedInTheDocsExists) {
    const fs::path root = GAEVAL_SOURCE_DIR;
    const std::vector<fs::path> docs = every_doc(root);
    ASSERT_GT(docs.size(), 5u);
    int checked = 0;
    for (const fs::path& doc : docs) {
        for (const std::string& m : missing_paths(root, doc))
            ADD_FAILURE() << doc.filename().string() << " names `" << m << "`, which is not there";
        ++checked;
    }
    EXPECT_EQ(checked, static_cast<int>(docs.size()));
}

TEST(DocsPaths, EveryDocIsTheReadmeTheDocsAndTheDataNotesButNotTheDatedRecords) {
    const fs::path root = GAEVAL_SOURCE_DIR;
    std::set<std::string> names;
    for (const fs::path& doc : every_doc(root))
        names.insert(fs::relative(doc, root).generic_string());
    for (const char* doc : {"README.md", "docs/executor.md", "docs/adding-a-scheme.md",
                            "data/ataxx/README.md", "tests/data/pile_in_scenarios.md"})
        EXPECT_EQ(names.count(doc), 1u) << doc;
    for (const std::string& name : names) EXPECT_NE(name.rfind("bench/results/", 0), 0u) << name;
}

// The folders the README's layout section must draw: every top-level folder of the repository
// (but build outputs and hidden ones other than .ci) and every folder of games/, host/ and
// problems/, as "name/".
std::vector<std::string> layout_folders(const fs::path& root) {
    std::vector<std::string> folders;
    for (const auto& e : fs::directory_iterator(root)) {
        const std::string name = e.path().filename().string();
        if (!e.is_directory() || name.rfind("build", 0) == 0) continue;
        if (name[0] == '.' && kFolders.count(name) == 0) continue;
        folders.push_back(name + "/");
    }
    for (const char* parent : {"games", "host", "problems"})
        for (const auto& e : fs::directory_iterator(root / parent))
            if (e.is_directory()) folders.push_back(e.path().filename().string() + "/");
    return folders;
}

// Those of `folders` that `section` does not name.
std::vector<std::string> undrawn(const std::string& section,
                                 const std::vector<std::string>& folders) {
    std::vector<std::string> out;
    for (const std::string& f : folders)
        if (section.find(f) == std::string::npos) out.push_back(f);
    return out;
}

TEST(DocsPaths, TheReadmeLayoutDrawsEveryFolder) {
    const fs::path root = GAEVAL_SOURCE_DIR;
    std::ifstream in(root / "README.md");
    std::stringstream text;
    text << in.rdbuf();
    const std::string readme = text.str();
    const size_t start = readme.find("\n## Layout\n");
    ASSERT_NE(start, std::string::npos);
    const std::string section = readme.substr(start, readme.find("\n## ", start + 1) - start);
    const std::vector<std::string> folders = layout_folders(root);
    EXPECT_GT(folders.size(), 20u);
    for (const std::string& f : undrawn(section, folders))
        ADD_FAILURE() << "the README's layout section does not draw `" << f << "`";
    EXPECT_EQ(undrawn("- `host/`: `core/`, `cli/`.", {"host/", "cli/", "islands/"}),
              std::vector<std::string>{"islands/"});
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
