// Player files for the weighted player of any game: round trip, subsets, Ataxx's earlier
// format, refusal for another game, and one clear error per mistake.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <string>

#include "host/core/error.hpp"
#include "host/games/player_file.hpp"
#include "host/games/registry.hpp"

namespace {

using namespace gaeval;

const games::GameInfo& ataxx_info() { return games::find_game("ataxx").info(); }

std::string temp_file(const std::string& name, const std::string& text) {
    const std::string path = ::testing::TempDir() + "gaeval_player_" + name + ".json";
    std::ofstream(path) << text;
    return path;
}

std::string read_error(const std::string& text, const games::GameInfo& game = ataxx_info()) {
    const std::string path = temp_file("bad", text);
    try {
        games::read_player_file(path, game);
    } catch (const InputError& e) {
        return e.what();
    }
    return "";
}

TEST(PlayerFiles, RoundTripAndNames) {
    const games::GameInfo& info = ataxx_info();
    ASSERT_EQ(info.weight_names.size(), 15u);
    games::PlayerFile file;
    file.learned_on = {{"board", "hex:4"}, {"rules", "ataxx"}};
    file.depth = 2;
    for (int i = 0; i < 15; ++i) file.weights.push_back(0.5f * i - 3.25f);
    const std::string path = ::testing::TempDir() + "gaeval_player_round_trip.json";
    games::write_player_file(path, info, file);
    const games::PlayerFile back = games::read_player_file(path, info);
    EXPECT_EQ(back.game, "ataxx");
    EXPECT_EQ(back.learned_on["board"], "hex:4");
    EXPECT_EQ(back.depth, 2);
    ASSERT_EQ(back.weights.size(), 15u);
    for (int i = 0; i < 15; ++i) EXPECT_EQ(back.weights[i], file.weights[i]);
    for (int i = 0; i < 15; ++i) EXPECT_EQ(games::weight_index(info, info.weight_names[i]), i);
    const games::PlayerData player = games::parse_player(path, "--a", info);
    EXPECT_EQ(player.kind, PlayerKind::Weighted);
    EXPECT_EQ(player.depth, 2);
    EXPECT_EQ(player.weights[3], file.weights[3]);
    std::remove(path.c_str());
}

TEST(PlayerFiles, SubsetInAnyOrderAndTheFirstAtaxxFormat) {
    const std::string path =
        temp_file("subset", R"({"format": "gaeval-grid-weights", "version": 1, "game": "ataxx",
                      "board": "square8:7x7", "rules": "ataxx",
                      "features": ["opponent_holes", "own_pieces"], "weights": [-2, 1.5]})");
    const games::PlayerFile w = games::read_player_file(path, ataxx_info());
    EXPECT_EQ(w.weights[games::weight_index(ataxx_info(), "own_pieces")], 1.5f);
    // Version 1 weighted raw counts: opponent_holes is now complemented, so its weight flips.
    EXPECT_EQ(w.weights[games::weight_index(ataxx_info(), "opponent_holes")], 2.0f);
    EXPECT_EQ(w.weights[games::weight_index(ataxx_info(), "own_safe")], 0.0f);
    EXPECT_EQ(w.learned_on["board"], "square8:7x7");
}

// Version 2 files hold weights of the features in [0, 1]; version 1 files (raw counts) are read
// through the game's factors: tic-tac-toe's lines over 8 (opponent lines complemented), corners
// over 4; a game whose coding did not change (Risk) reads them as they are.
TEST(PlayerFiles, Version1FilesAreConvertedToTheUnitCoding) {
    const games::GameInfo& ttt = games::find_game("tictactoe").info();
    const std::string v1 = temp_file("ttt1", R"({"format": "gaeval-player", "version": 1,
        "game": "tictactoe", "features": ["own_open_2", "opponent_open_2", "own_corners",
        "own_centre"], "weights": [1.5, 2, 0.25, 3]})");
    const games::PlayerFile old = games::read_player_file(v1, ttt);
    EXPECT_EQ(old.weights[games::weight_index(ttt, "own_open_2")], 12.0f);
    EXPECT_EQ(old.weights[games::weight_index(ttt, "opponent_open_2")], -16.0f);
    EXPECT_EQ(old.weights[games::weight_index(ttt, "own_corners")], 1.0f);
    EXPECT_EQ(old.weights[games::weight_index(ttt, "own_centre")], 3.0f);
    const std::string v2 = temp_file("ttt2", R"({"format": "gaeval-player", "version": 2,
        "game": "tictactoe", "features": ["opponent_open_2"], "weights": [2]})");
    EXPECT_EQ(games::read_player_file(v2, ttt).weights[games::weight_index(ttt, "opponent_open_2")],
              2.0f);
    const games::GameInfo& risk = games::find_game("risk").info();
    ASSERT_TRUE(risk.version1_weight_factors.empty());
    const std::string r1 = temp_file("risk1", R"({"format": "gaeval-player", "version": 1,
        "game": "risk", "features": [")" + risk.weight_names[0] + R"("], "weights": [-2.5]})");
    EXPECT_EQ(games::read_player_file(r1, risk).weights[0], -2.5f);
    EXPECT_NE(read_error(R"({"format": "gaeval-player", "version": 3, "game": "ataxx"})")
                  .find("'version' must be 1 or 2"),
              std::string::npos);
}

TEST(PlayerFiles, BuiltInPlayersByName) {
    games::PlayerData p;
    ASSERT_TRUE(games::builtin_player("most-pieces", ataxx_info(), &p));
    EXPECT_EQ(p.kind, PlayerKind::Policy);
    EXPECT_EQ(p.policy, 2);
    ASSERT_TRUE(games::builtin_player("random", ataxx_info(), &p));
    EXPECT_EQ(p.kind, PlayerKind::Random);
    EXPECT_FALSE(games::builtin_player("win-block", ataxx_info(), &p));
    EXPECT_TRUE(games::builtin_player("win-block", games::find_game("tictactoe").info(), &p));
}

TEST(PlayerFiles, Errors) {
    const std::string head =
        R"({"format": "gaeval-player", "version": 1, "game": "ataxx", )";
    EXPECT_NE(read_error("{").find("malformed JSON"), std::string::npos);
    EXPECT_NE(read_error(head + R"("features": [], "weights": [], "weights": []})").find("appears twice"),
              std::string::npos);
    EXPECT_NE(read_error("[]").find("expected a JSON object"), std::string::npos);
    EXPECT_NE(read_error(R"({"format": "x"})").find("'format'"), std::string::npos);
    EXPECT_NE(read_error(head + R"("features": ["own_pieces"], "weights": [1, 2]})")
                  .find("1 entries but 'weights' has 2"),
              std::string::npos);
    EXPECT_NE(read_error(head + R"("features": ["luck"], "weights": [1]})")
                  .find("unknown feature 'luck'"),
              std::string::npos);
    EXPECT_NE(read_error(head + R"("features": ["own_pieces", "own_pieces"], "weights": [1, 1]})")
                  .find("listed twice"),
              std::string::npos);
    EXPECT_NE(read_error(head + R"("features": ["own_pieces"], "weights": ["1"]})")
                  .find("must be a number"),
              std::string::npos);
    EXPECT_NE(read_error(head + R"("features": ["own_pieces"], "weights": [1e300]})")
                  .find("finite float"),
              std::string::npos);
    EXPECT_NE(read_error(head + R"("depth": 0, "features": [], "weights": []})").find("'depth'"),
              std::string::npos);
    // A player of one game is refused for another.
    EXPECT_NE(read_error(R"({"format": "gaeval-player", "version": 1, "game": "chess"})")
                  .find("a player for chess, expected ataxx"),
              std::string::npos);
    EXPECT_NE(read_error(head + R"("features": ["own_pieces"], "weights": [1]})",
                         games::find_game("tictactoe").info())
                  .find("a player for ataxx, expected tictactoe"),
              std::string::npos);
    try {
        games::parse_player("no-such-player", "--b", ataxx_info());
        FAIL() << "expected an InputError";
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find("--b 'no-such-player'"), std::string::npos);
        EXPECT_NE(std::string(e.what()).find("random, capture, most-pieces"), std::string::npos);
    }
}

}  // namespace
