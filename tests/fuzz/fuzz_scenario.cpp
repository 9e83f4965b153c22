// Pile-in scenario files (gaeval pile-in --scenario): load_scenario reads and validates.
#include "host/pile_in/scenario_io.hpp"
#include "tests/fuzz/fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
    const std::string path = gaeval::fuzz::as_file(data, size, "_scenario.json");
    gaeval::fuzz::expect_input_error_only([&] { gaeval::pile_in::load_scenario(path); });
    return 0;
}
