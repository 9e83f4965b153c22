// Pac-Man map files (gaeval play/pac-bot --game pac --map FILE): read, check, build, place.
#include "host/pac/map_io.hpp"
#include "tests/fuzz/fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
    const std::string path = gaeval::fuzz::as_file(data, size, "_map.txt");
    gaeval::fuzz::expect_input_error_only([&] {
        const std::vector<std::string> rows = gaeval::pac::read_map_file(path);
        gaeval::pac::check_rows(rows, path);
        gaeval::pac::build_map(rows);
        gaeval::pac::place(rows, 1);
    });
    return 0;
}
