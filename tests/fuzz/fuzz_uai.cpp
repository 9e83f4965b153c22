// The UAI text protocol (gaeval uai): every line a manager may send, in any order; the engine
// answers each (an `info string error: ...` line for bad ones) and never throws. The player is
// the built-in random one, so `go` answers at once and the fuzzer exercises the parser, the
// position and move handling rather than the search.
#include <sstream>

#include "host/ataxx/uai.hpp"
#include "tests/fuzz/fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
    gaeval::ataxx::UaiConfig config;
    config.player.kind = gaeval::PlayerKind::Random;
    config.player.label = "random";
    gaeval::fuzz::expect_input_error_only([&] {
        std::ostringstream out;
        gaeval::ataxx::UaiEngine engine(config, out);
        std::string line;
        for (std::size_t i = 0; i <= size; ++i) {
            if (i == size || data[i] == '\n') {
                if (!engine.handle(line)) break;
                line.clear();
                if (out.tellp() > (1 << 16)) out.str(std::string());
            } else {
                line += static_cast<char>(data[i]);
            }
        }
        engine.wait();
    });
    return 0;
}
