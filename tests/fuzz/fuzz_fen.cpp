// FEN and board specifications (gaeval perft/play --fen, --board): the first byte picks a board
// and rule set, the rest is the FEN; a FEN that parses must write back to one that parses to the
// same position.
#include "host/ataxx/fen.hpp"
#include "tests/fuzz/fuzz_support.hpp"

using namespace gaeval;
using namespace gaeval::ataxx;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
    if (size < 1) return 0;
    static const char* boards[] = {"square8:7x7", "hex:4", "tri:5", "offset:6x5", "square8:3x9"};
    static const char* rules[] = {"ataxx", "genetic-game"};
    const std::string text(reinterpret_cast<const char*>(data) + 1, size - 1);
    fuzz::expect_input_error_only([&] { parse_board_spec(text); });
    fuzz::expect_input_error_only([&] { parse_rule_set(text); });
    fuzz::expect_input_error_only([&] {
        const Shape shape = parse_board_spec(boards[data[0] % 5]);
        const RuleSet rule = parse_rule_set(rules[(data[0] >> 3) & 1]);
        const int players = 2 + ((data[0] >> 4) & 1);
        const GameSetup setup = parse_fen(text, shape, rule, players);
        const std::string again = write_fen(setup);
        if (write_fen(parse_fen(again, shape, rule, players)) != again) std::abort();
    });
    return 0;
}
