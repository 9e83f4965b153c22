// The one game list (games/games.cmake) and what the build generates from it: the registry's
// entries in their order (a host entry missing from the list or from the link fails here), the
// game types of GAEVAL_FOR_EACH_GAME_TYPE, and the play units (build/<preset>/generated/kernels/
// batch_play_<unit>.cu), each read back and compared with the list as this test parses it.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "games/registry.hpp"
#include "host/games/registry.hpp"

namespace {

namespace fs = std::filesystem;

std::string read_text(const fs::path& path) {
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

struct ListedUnit {
    std::string unit;
    std::vector<std::string> types;
    std::string entry;  // the ENTRY namespace, if any ("::gaeval::ataxx")
};

// The gaeval_game(...) lines of games/games.cmake: each UNIT with its TYPES (parsed here apart
// from CMake's own reading).
std::vector<ListedUnit> listed_units() {
    std::vector<ListedUnit> units;
    std::istringstream lines(read_text(fs::path(GAEVAL_SOURCE_DIR) / "games" / "games.cmake"));
    std::string line;
    while (std::getline(lines, line)) {
        if (line.rfind("gaeval_game(", 0) != 0) continue;
        std::istringstream words(
            line.substr(line.find('(') + 1, line.rfind(')') - line.find('(') - 1));
        ListedUnit unit;
        std::string word, keyword;
        while (words >> word) {
            if (word == "UNIT" || word == "HEADER" || word == "TYPES" || word == "ENTRY") {
                keyword = word;
            } else if (keyword == "UNIT") {
                unit.unit = word;
            } else if (keyword == "TYPES") {
                unit.types.push_back(word);
            } else if (keyword == "ENTRY") {
                unit.entry = word;
            }
        }
        units.push_back(unit);
    }
    return units;
}

TEST(GameList, RegistersEveryEntryInItsOrder) {
    // Host entries first, in games/games.cmake's order (each ENTRY namespace names its game:
    // ::gaeval::ataxx serves "ataxx"), then the types that name themselves; the list adds a game
    // without this test naming it.
    std::vector<std::string> entries;
    for (const ListedUnit& unit : listed_units()) {
        if (unit.entry.empty()) continue;
        const std::string name = unit.entry.substr(unit.entry.rfind("::") + 2);
        if (entries.empty() || entries.back() != name) entries.push_back(name);
    }
    ASSERT_GE(entries.size(), 4u);  // ataxx, gomoku, risk, pac when this test was written
    std::vector<std::string> names;
    for (const auto& entry : gaeval::games::all_games()) names.push_back(entry->info().name);
    ASSERT_GT(names.size(), entries.size());  // and at least one generic game (tic-tac-toe)
    EXPECT_EQ(std::vector<std::string>(names.begin(), names.begin() + entries.size()), entries);
    for (size_t i = 0; i < names.size(); ++i)
        for (size_t j = i + 1; j < names.size(); ++j) EXPECT_NE(names[i], names[j]);
    // The first listed is the default of --game and of the bench rows.
    EXPECT_EQ(gaeval::games::default_game().info().name, "ataxx");
    EXPECT_EQ(gaeval::games::game_names().rfind("ataxx, gomoku, risk, pac, tictactoe", 0), 0u);
}

#define GAEVAL_TYPE_NAME(G) #G,
const std::vector<std::string> kGameTypes = {GAEVAL_FOR_EACH_GAME_TYPE(GAEVAL_TYPE_NAME)};
const std::vector<std::string> kBatchOps = {GAEVAL_FOR_EACH_BATCH_OP(GAEVAL_TYPE_NAME)};
#undef GAEVAL_TYPE_NAME

TEST(GameList, GameTypesAreTheListsTypesInItsOrder) {
    std::vector<std::string> listed;
    for (const ListedUnit& unit : listed_units())
        listed.insert(listed.end(), unit.types.begin(), unit.types.end());
    EXPECT_EQ(kGameTypes, listed);
    // The list as it stood when this test was written starts it (a reordering changes kernels'
    // grouping and the registry's order).
    const std::vector<std::string> first = {
        "::gaeval::ataxx::Square7Game", "::gaeval::ataxx::Table1Game2",
        "::gaeval::ataxx::Table1Game4", "::gaeval::ataxx::Table2Game2",
        "::gaeval::ataxx::Table2Game4", "::gaeval::ataxx::Table4Game2",
        "::gaeval::ataxx::Table4Game4", "::gaeval::tictactoe::Game",
        "::gaeval::gomoku::Game15",     "::gaeval::gomoku::Game20",
        "::gaeval::risk::Game",         "::gaeval::pac::Game"};
    ASSERT_GE(kGameTypes.size(), first.size());
    EXPECT_EQ(std::vector<std::string>(kGameTypes.begin(), kGameTypes.begin() + first.size()),
              first);
    EXPECT_EQ(kBatchOps, std::vector<std::string>{"::gaeval::pac::RolloutOp"});
}

// Each generated play unit instantiates exactly its line's types, and no hand-written one is left
// in kernels/ (a type instantiated twice would not link).
TEST(GameList, EveryUnitIsGeneratedWithItsTypes) {
    const fs::path generated = fs::path(GAEVAL_BINARY).parent_path() / "generated" / "kernels";
    const std::vector<ListedUnit> units = listed_units();
    ASSERT_GE(units.size(), 9u);
    const std::regex instantiation(R"(GAEVAL_INSTANTIATE_PLAY\(([^)]*)\))");
    for (const ListedUnit& unit : units) {
        const fs::path file = generated / ("batch_play_" + unit.unit + ".cu");
        ASSERT_TRUE(fs::exists(file)) << file;
        const std::string text = read_text(file);
        std::vector<std::string> types;
        for (auto it = std::sregex_iterator(text.begin(), text.end(), instantiation);
             it != std::sregex_iterator(); ++it)
            types.push_back((*it)[1].str());
        EXPECT_EQ(types, unit.types) << file;
        EXPECT_NE(text.find("#include \"kernels/batch_play.cuh\""), std::string::npos) << file;
    }
    int generated_files = 0;
    for (const auto& entry : fs::directory_iterator(generated))
        if (entry.path().extension() == ".cu") ++generated_files;
    EXPECT_EQ(generated_files, static_cast<int>(units.size()));
    for (const auto& entry : fs::directory_iterator(fs::path(GAEVAL_SOURCE_DIR) / "kernels"))
        EXPECT_EQ(entry.path().filename().string().rfind("batch_play_", 0), std::string::npos)
            << entry.path() << ": play units are generated from games/games.cmake";
}

}  // namespace
