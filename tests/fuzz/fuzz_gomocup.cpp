// The Gomocup text protocol (gaeval gomocup): every line the manager may send, in any order;
// the brain answers each (ERROR lines for bad ones) and never throws.
#include <vector>

#include "host/gomoku/gomocup.hpp"
#include "tests/fuzz/fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
    gaeval::gomoku::BrainConfig config;
    config.player.kind = gaeval::PlayerKind::Random;
    config.player.label = "random";
    gaeval::fuzz::expect_input_error_only([&] {
        gaeval::gomoku::GomocupBrain brain(config);
        std::vector<std::string> answers;
        std::string line;
        for (std::size_t i = 0; i <= size; ++i) {
            if (i == size || data[i] == '\n') {
                if (!brain.handle(line, answers)) break;
                line.clear();
                if (answers.size() > 1000) answers.clear();
            } else {
                line += static_cast<char>(data[i]);
            }
        }
    });
    return 0;
}
