// Risk map files (gaeval learn/play --game risk --map FILE).
#include "host/risk/map.hpp"
#include "tests/fuzz/fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    gaeval::fuzz::expect_input_error_only([&] {
        gaeval::risk::Map map;
        gaeval::risk::MapNames names;
        gaeval::risk::parse_map(text, "fuzz.json", &map, &names);
    });
    return 0;
}
