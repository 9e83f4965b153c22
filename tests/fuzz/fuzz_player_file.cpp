// Player (weights) files (gaeval play --a FILE, learn --init FILE, gomocup --player FILE).
#include "host/games/player_file.hpp"
#include "tests/fuzz/fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
    static const gaeval::games::GameInfo game = [] {
        gaeval::games::GameInfo g;
        g.name = "ataxx";
        g.weight_names = {"material", "mobility", "captures", "safety", "centre"};
        g.policy_names = {"capture", "most-pieces"};
        return g;
    }();
    const std::string path = gaeval::fuzz::as_file(data, size, "_player.json");
    gaeval::fuzz::expect_input_error_only([&] { gaeval::games::read_player_file(path, game); });
    return 0;
}
