// Player (weights) files (gaeval play --a FILE, learn --init FILE, gomocup --player FILE).
#include "host/games/player_file.hpp"
#include "tests/fuzz/fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
    static const gaeval::games::GameInfo game = [] {
        gaeval::games::GameInfo g;
        g.name = "ataxx";
        // The Genetic Game features (a learn run's weights.json names these).
        g.weight_names = {
            "own_pieces", "opponent_pieces", "own_safe", "own_near_safe_1", "own_near_safe_2",
            "own_near_safe_3", "risky_holes_1", "risky_holes_2", "risky_holes_3plus", "own_holes",
            "opponent_safe", "opponent_near_safe_1", "opponent_near_safe_2", "opponent_near_safe_3",
            "opponent_holes"
        };
        g.policy_names = {"capture", "most-pieces"};
        return g;
    }();
    const std::string path = gaeval::fuzz::as_file(data, size, "_player.json");
    gaeval::fuzz::expect_input_error_only([&] { gaeval::games::read_player_file(path, game); });
    return 0;
}
