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
            }
        }
        units.push_back(unit);
    }
    return units;
}

TEST(GameList, RegistersEveryEntryInItsOrder) {
    // Host entries in games/games.cmake's order, then the types that name themselves.
    const std::vector<std::string> expected = {"ataxx", "gomoku",    "risk",
                                               "pac",   "tictactoe", "connect4"};
    std::vector<std::string> names;
    for (const auto& entry : gaeval::games::all_games()) names.push_back(entry->info().name);
    EXPECT_EQ(names, expected);
    EXPECT_EQ(gaeval::games::default_game().info().name, "ataxx");
    EXPECT_EQ(gaeval::games::game_names(), "ataxx, gomoku, risk, pac, tictactoe, connect4");
}

#define GAEVAL_TYPE_NAME(G) #G,
const std::vector<std::string> kGameTypes = {GAEVAL_FOR_EACH_GAME_TYPE(GAEVAL_TYPE_NAME)};
const std::vector<std::string> kBatchOps = {GAEVAL_FOR_EACH_BATCH_OP(GAEVAL_TYPE_NAME)};
#undef GAEVAL_TYPE_NAME

TEST(GameList, GameTypesAreTheListsTypesInItsOrder) {
    const std::vector<std::string> expected = {
        "::gaeval::ataxx::Square7Game", "::gaeval::ataxx::Table1Game2",
        "::gaeval::ataxx::Table1Game4", "::gaeval::ataxx::Table2Game2",
        "::gaeval::ataxx::Table2Game4", "::gaeval::ataxx::Table4Game2",
        "::gaeval::ataxx::Table4Game4", "::gaeval::tictactoe::Game",
        "::gaeval::gomoku::Game15",     "::gaeval::gomoku::Game20",
        "::gaeval::risk::Game",         "::gaeval::pac::Game",
        "::gaeval::connect4::Game"};
    EXPECT_EQ(kGameTypes, expected);
    std::vector<std::string> listed;
    for (const ListedUnit& unit : listed_units())
        listed.insert(listed.end(), unit.types.begin(), unit.types.end());
    EXPECT_EQ(listed, expected);
    EXPECT_EQ(kBatchOps, std::vector<std::string>{"::gaeval::pac::RolloutOp"});
}

// Each generated play unit instantiates exactly its line's types, and no hand-written one is left
// in kernels/ (a type instantiated twice would not link).
TEST(GameList, EveryUnitIsGeneratedWithItsTypes) {
    const fs::path generated = fs::path(GAEVAL_BINARY).parent_path() / "generated" / "kernels";
    const std::vector<ListedUnit> units = listed_units();
    ASSERT_EQ(units.size(), 10u);
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
