// Weights files for the weighted player: round trip, subsets, and one clear error per mistake.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <string>

#include "host/io/error.hpp"
#include "host/io/weights.hpp"

namespace {

using namespace gaeval;

std::string temp_file(const std::string& name, const std::string& text) {
    const std::string path = ::testing::TempDir() + "gaeval_grid_" + name + ".json";
    std::ofstream(path) << text;
    return path;
}

std::string read_error(const std::string& text) {
    const std::string path = temp_file("bad", text);
    try {
        io::read_grid_weights(path);
    } catch (const InputError& e) {
        return e.what();
    }
    return "";
}

TEST(GridWeights, RoundTripAndNames) {
    io::GridWeights w;
    w.board = "hex:4";
    for (int i = 0; i < grid::kFeatureCount; ++i) w.weights[i] = 0.5f * i - 3.25f;
    const std::string path = ::testing::TempDir() + "gaeval_grid_weights.json";
    io::write_grid_weights(path, w);
    const io::GridWeights back = io::read_grid_weights(path);
    EXPECT_EQ(back.board, "hex:4");
    EXPECT_EQ(back.rules, "ataxx");
    for (int i = 0; i < grid::kFeatureCount; ++i) EXPECT_EQ(back.weights[i], w.weights[i]);
    for (int i = 0; i < grid::kFeatureCount; ++i)
        EXPECT_EQ(io::feature_index(io::feature_name(i)), i);
    const grid::Player player = io::parse_grid_player(path, "--a");
    EXPECT_EQ(player.kind, grid::PlayerKind::Weighted);
    EXPECT_EQ(player.weights[3], w.weights[3]);
    std::remove(path.c_str());
}

TEST(GridWeights, SubsetInAnyOrder) {
    const std::string path =
        temp_file("subset", R"({"format": "gaeval-grid-weights", "version": 1, "game": "ataxx",
                      "board": "square8:7x7", "rules": "ataxx",
                      "features": ["opponent_holes", "own_pieces"], "weights": [-2, 1.5]})");
    const io::GridWeights w = io::read_grid_weights(path);
    EXPECT_EQ(w.weights[static_cast<int>(grid::Feature::OwnPieces)], 1.5f);
    EXPECT_EQ(w.weights[static_cast<int>(grid::Feature::OpponentHoles)], -2.0f);
    EXPECT_EQ(w.weights[static_cast<int>(grid::Feature::OwnSafe)], 0.0f);
}

TEST(GridWeights, Errors) {
    const std::string head =
        R"({"format": "gaeval-grid-weights", "version": 1, "game": "ataxx", "board": "b", "rules": "r", )";
    EXPECT_NE(read_error("{").find("not valid JSON"), std::string::npos);
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
    EXPECT_NE(read_error(R"({"format": "gaeval-grid-weights", "version": 1, "game": "chess"})")
                  .find("expected ataxx"),
              std::string::npos);
    try {
        io::parse_grid_player("no-such-player", "--b");
        FAIL() << "expected an InputError";
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find("--b 'no-such-player'"), std::string::npos);
    }
}

}  // namespace
