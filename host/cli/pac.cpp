// gaeval pac-bot: plays one Pac-Man game in the contest's own referee (Spring Challenge 2020
// protocol on stdin/stdout, host/pac/protocol.hpp): reads the map once, then each turn's
// observation, and prints that turn's commands on one line.
#include <iostream>
#include <string>

#include "host/backend/backend.hpp"
#include "host/cli/commands.hpp"
#include "host/cli/common.hpp"
#include "host/cli/game_options.hpp"
#include "host/core/error.hpp"
#include "host/pac/bot.hpp"
#include "host/pac/map_io.hpp"
#include "host/pac/protocol.hpp"

namespace gaeval::cli {

int run_pac_bot(int argc, char** argv) {
    cxxopts::Options options("gaeval pac-bot",
                             "Play Pac-Man (Spring Challenge 2020) in the contest's referee: the "
                             "contest's input on stdin,\none line of commands per turn on stdout");
    add_common_options(options);
    // clang-format off
    options.add_options("Bot")
        ("player", "coevo | single", cxxopts::value<std::string>()->default_value("coevo"))
        ("bot-population", "plans per population", cxxopts::value<std::string>()->default_value("16"))
        ("bot-generations", "generations per turn (deterministic budget)",
         cxxopts::value<std::string>()->default_value("12"))
        ("ms", "milliseconds per turn instead (the contest allows 50; 0: --bot-generations)",
         cxxopts::value<std::string>()->default_value("0"));
    // clang-format on
    const auto result = parse(options, argc, argv);
    if (result.count("help")) {
        std::cout << options.help({"", "Common", "Bot"}) << '\n';
        return ExitOk;
    }
    const CommonOptions common = read_common(result);
    const std::string player = result["player"].as<std::string>();
    if (player != "coevo" && player != "single")
        throw InputError("--player '" + player + "': expected coevo or single");
    pac::BotSettings settings;
    settings.coevolution = player == "coevo";
    settings.population = static_cast<int>(read_integer_flag(result, "bot-population", 2, 4096));
    settings.generations =
        static_cast<int>(read_integer_flag(result, "bot-generations", 1, 100000));
    settings.ms = static_cast<double>(read_integer_flag(result, "ms", 0, 60000));
    pac::TextReader reader(std::cin);
    const std::vector<std::string> rows = reader.read_map();
    pac::check_rows(rows, "stdin: the map");
    const auto map = pac::build_map(rows);
    const BackendChoice backend = start_backend(common, "pac-bot");
    pac::Bot bot(*map, settings, common.seed, 0, 0, backend);
    pac::Observation obs;
    while (reader.read_turn(*map, &obs)) {
        const pac::Move move = bot.choose(obs);
        std::cout << pac::command_text(*map, move, obs.pacs) << std::endl;
    }
    return ExitOk;
}

}  // namespace gaeval::cli
