// The contest's per-turn text input (gaeval pac-bot reads it on stdin): the map lines, then one
// observation per turn, parsed exactly as the CLI does (read, check and build the map, then read
// turns until the input ends). Malformed input must be an InputError and nothing else.
#include <sstream>

#include "host/pac/map_io.hpp"
#include "host/pac/protocol.hpp"
#include "tests/fuzz/fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
    gaeval::fuzz::expect_input_error_only([&] {
        std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
        gaeval::pac::TextReader reader(in);
        const std::vector<std::string> rows = reader.read_map();
        gaeval::pac::check_rows(rows, "stdin: the map");
        const auto map = gaeval::pac::build_map(rows);
        gaeval::pac::Observation obs;
        for (int turn = 0; turn < 400 && reader.read_turn(*map, &obs); ++turn) {
        }
    });
    return 0;
}
