// Checkpoint files (gaeval pile-in/learn --resume): the container, then the sections a resume
// reads as arrays.
#include <vector>

#include "host/io/checkpoint.hpp"
#include "tests/fuzz/fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
    const std::string path = gaeval::fuzz::as_file(data, size, "_checkpoint.bin");
    gaeval::fuzz::expect_input_error_only([&] {
        const gaeval::Checkpoint c = gaeval::load_checkpoint(path);
        std::vector<uint32_t> words;
        std::vector<float> reals;
        for (const auto& section : c.blobs) {
            const std::string& name = section.first;
            gaeval::fuzz::expect_input_error_only([&] { c.get(name, words, path); });
            gaeval::fuzz::expect_input_error_only([&] { c.get(name, reals, path); });
        }
    });
    return 0;
}
