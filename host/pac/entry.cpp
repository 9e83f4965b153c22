#include "host/pac/entry.hpp"

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "host/batch/batch.hpp"
#include "host/core/error.hpp"
#include "host/core/hash.hpp"
#include "host/io/run_folder.hpp"
#include "host/pac/map_io.hpp"
#include "host/pac/match.hpp"
#include "host/pac/record.hpp"

namespace gaeval::pac {

namespace {

namespace fs = std::filesystem;

games::GameInfo make_info() {
    games::GameInfo info;
    info.name = "pac";
    info.summary =
        "Pac-Man of Spring Challenge 2020: simultaneous moves, fog of war, rock-paper-scissors "
        "kills, 2 to 5 pacs a side on generated or loaded maps up to 35x17";
    info.min_seats = info.max_seats = 2;
    info.policy_names = {"greedy", "coevo", "single"};
    info.perft = false;
    info.options = {
        {"map", "map file ('#' wall, ' ' floor; docs/pac.md); empty: a generated map", ""},
        {"map-seed", "seed of the generated map and of where pacs and super pellets go", "1"},
        {"width", "generated map width: 29, 31, 33 or 35 (0: from the map seed)", "0"},
        {"height", "generated map height: 10 to 17 (0: from the map seed)", "0"},
        {"pacs", "pacs per side: 2 to 5 (0: from the map seed)", "0"},
        {"map-per-game", "games 2i and 2i+1 on a map of their own (map seed + i), sides swapped",
         "", true},
        {"bot-population", "coevo and single: plans per population", "16"},
        {"bot-generations", "coevo and single: generations per turn (deterministic budget)", "12"},
        {"ms", "coevo and single: milliseconds per turn instead (0: --bot-generations)", "0"},
        {"record", "play: write each match (JSON) and replay.html to this new folder", ""},
    };
    return info;
}

const games::GameInfo& info() {
    static const games::GameInfo value = make_info();
    return value;
}

// An integer flag value in [low, high]; InputError naming the flag otherwise.
long long integer_option(const std::map<std::string, std::string>& options, const std::string& name,
                         long long low, long long high) {
    std::string text;
    const auto it = options.find(name);
    if (it != options.end()) {
        text = it->second;
    } else {
        for (const auto& o : info().options)
            if (o.name == name) text = o.default_value;
    }
    char* end = nullptr;
    errno = 0;
    const long long value = std::strtoll(text.c_str(), &end, 10);
    if (text.empty() || *end != '\0' || errno != 0 || value < low || value > high)
        throw InputError("--" + name + " '" + text + "': expected an integer from " +
                         std::to_string(low) + " to " + std::to_string(high));
    return value;
}

std::string string_option(const std::map<std::string, std::string>& options,
                          const std::string& name) {
    const auto it = options.find(name);
    return it == options.end() ? std::string() : it->second;
}

struct Options {
    std::string map_file;
    uint64_t map_seed = 1;
    int width = 0, height = 0, pacs = 0;
    bool map_per_game = false;
    BotSettings bots;
    std::string record_dir;
};

// One map with its setup, tables and start.
struct Board {
    Setup setup;
    std::shared_ptr<Map> map;
    Pos start;
};

Board make_board(const Setup& setup) {
    Board b;
    b.setup = setup;
    b.map = std::shared_ptr<Map>(build_map(setup.rows).release());
    b.start = start_position(*b.map, setup);
    return b;
}

std::string player_label(const games::PlayerData& p) {
    if (p.kind == PlayerKind::Random) return "random";
    if (p.kind == PlayerKind::Policy && p.policy >= 1 && p.policy <= 3)
        return info().policy_names[p.policy - 1];
    return p.label;
}

class PacSession final : public games::GameSession {
  public:
    PacSession(nlohmann::json setup, const Options& options, Board board)
        : GameSession(pac::info(), std::move(setup), "pac", nlohmann::json::object()),
          options_(options),
          board_(std::move(board)) {
        const Setup& s = board_.setup;
        const std::string size =
            std::to_string(s.rows[0].size()) + "x" + std::to_string(s.rows.size());
        if (options_.map_per_game)
            set_description("on generated maps, one per game pair (map seeds " +
                            std::to_string(options_.map_seed) + ", " +
                            std::to_string(options_.map_seed + 1) + ", ...)");
        else if (options_.map_file.empty())
            set_description("on a " + size + " generated map (seed " +
                            std::to_string(options_.map_seed) + "), " + std::to_string(s.pacs) +
                            " pacs a side");
        else
            set_description("on the " + size + " map " + options_.map_file + ", " +
                            std::to_string(s.pacs) + " pacs a side");
    }

    int seats() const override { return 2; }
    uint64_t perft(int, const BackendChoice&) const override {
        throw InputError("perft: pac has no perft (simultaneous moves)");
    }
    std::vector<uint64_t> perft_divide(int, const BackendChoice&) const override {
        throw InputError("perft: pac has no perft (simultaneous moves)");
    }

    std::vector<std::unique_ptr<games::GameSession>> children() const override { return {}; }

    std::vector<GameRecord> play(const games::PlayerData& a, const games::PlayerData& b,
                                 uint64_t first, uint64_t games, uint64_t seed,
                                 uint32_t max_plies, const BackendChoice& backend) const override {
        check_player(a);
        check_player(b);
        const bool host =
            is_bot(a) || is_bot(b) || options_.map_per_game || !options_.record_dir.empty();
        if (!host) {
            const Game game{board_.map.get()};
            return batch::play(game, board_.start, typed(a), typed(b), first, games, seed,
                               max_plies, backend);
        }
        if (!options_.record_dir.empty()) io::prepare_out_dir(options_.record_dir);
        std::vector<GameRecord> records(games);
        std::vector<nlohmann::json> recorded;
        Board per_pair;
        const auto begin = std::chrono::steady_clock::now();
        auto last_note = begin;
        for (uint64_t k = 0; k < games; ++k) {
            const uint64_t i = first + k;  // the game's index in the whole batch
            if (options_.map_per_game && (i % 2 == 0 || k == 0))
                per_pair = make_board(generate_setup(options_.map_seed + i / 2, options_.width,
                                                     options_.height, options_.pacs));
            const Board& board = options_.map_per_game ? per_pair : board_;
            const Game game{board.map.get()};
            const int a_seat = static_cast<int>(i % 2);
            MatchLog log;
            records[k] = play_host_match(game, board.start, a, b, a_seat, seed,
                                         static_cast<uint32_t>(i), max_plies, options_.bots,
                                         backend, options_.record_dir.empty() ? nullptr : &log);
            if (!options_.record_dir.empty()) {
                std::string names[2];
                names[a_seat] = player_label(a) + " (A)";
                names[1 - a_seat] = player_label(b) + " (B)";
                recorded.push_back(match_json(*board.map, board.setup, board.start, log, names,
                                              seed, static_cast<uint32_t>(i), records[k]));
                char name[32];
                std::snprintf(name, sizeof name, "match-%04llu.json",
                              static_cast<unsigned long long>(i));
                io::write_text_atomic((fs::path(options_.record_dir) / name).string(),
                                      recorded.back().dump() + "\n");
            }
            const auto now = std::chrono::steady_clock::now();
            if (games > 1 && std::chrono::duration<double>(now - last_note).count() >= 5.0) {
                last_note = now;
                const double spent = std::chrono::duration<double>(now - begin).count();
                std::fprintf(stderr, "gaeval play: %llu/%llu games, %.0f s, about %.0f s left\n",
                             static_cast<unsigned long long>(k + 1),
                             static_cast<unsigned long long>(games), spent,
                             spent / double(k + 1) * double(games - k - 1));
            }
        }
        if (!options_.record_dir.empty())
            io::write_text_atomic((fs::path(options_.record_dir) / "replay.html").string(),
                                  replay_html(recorded));
        return records;
    }

    std::vector<GameRecord> play_pairings(const std::vector<games::PlayerData>& players,
                                          const std::vector<Pairing>& pairings, uint64_t seed,
                                          uint32_t max_plies,
                                          const BackendChoice& backend) const override {
        for (const Pairing& p : pairings)
            if (p.a >= players.size() || p.b >= players.size() || p.a_seat > 1)
                throw std::invalid_argument("a pairing names a player or seat that is not there");
        bool host = false;
        for (const auto& p : players) {
            check_player(p);
            host = host || is_bot(p);
        }
        const Game game{board_.map.get()};
        if (!host) {
            std::vector<Player<Game>> typed_players;
            for (const auto& p : players) typed_players.push_back(typed(p));
            return batch::play_pairings(game, board_.start, typed_players, pairings, seed,
                                        max_plies, backend);
        }
        std::vector<GameRecord> records;
        for (std::size_t i = 0; i < pairings.size(); ++i)
            records.push_back(play_host_match(game, board_.start, players[pairings[i].a],
                                              players[pairings[i].b], pairings[i].a_seat, seed,
                                              static_cast<uint32_t>(i), max_plies, options_.bots,
                                              backend));
        return records;
    }

    const Board& board() const { return board_; }
    const Options& options() const { return options_; }

  private:
    static void check_player(const games::PlayerData& p) {
        if (p.kind == PlayerKind::Weighted)
            throw InputError("pac has no weighted player (players: random, greedy, coevo, single)");
        if (p.kind == PlayerKind::Policy && (p.policy < 1 || p.policy > 3))
            throw std::invalid_argument("pac: policy out of range");
    }
    static Player<Game> typed(const games::PlayerData& p) {
        Player<Game> out;
        out.kind = p.kind;
        out.policy = static_cast<uint8_t>(p.kind == PlayerKind::Policy ? p.policy : 0);
        return out;
    }

    Options options_;
    Board board_;
};

Options read_options(const std::map<std::string, std::string>& values) {
    Options o;
    o.map_file = string_option(values, "map");
    o.map_seed = static_cast<uint64_t>(integer_option(values, "map-seed", 0, 1ll << 53));
    o.width = static_cast<int>(integer_option(values, "width", 0, kMaxWidth));
    o.height = static_cast<int>(integer_option(values, "height", 0, kMaxHeight));
    o.pacs = static_cast<int>(integer_option(values, "pacs", 0, kMaxPacs));
    if (o.pacs == 1) throw InputError("--pacs 1: expected 0 (from the map seed) or 2 to 5");
    o.map_per_game = values.count("map-per-game") > 0;
    if (o.map_per_game && !o.map_file.empty())
        throw InputError("--map-per-game: generated maps only (not with --map)");
    if (!o.map_file.empty() && (o.width != 0 || o.height != 0))
        throw InputError("--width / --height: for generated maps (the map file has its size)");
    o.bots.population = static_cast<int>(integer_option(values, "bot-population", 2, 4096));
    o.bots.generations = static_cast<int>(integer_option(values, "bot-generations", 1, 100000));
    o.bots.ms = static_cast<double>(integer_option(values, "ms", 0, 60000));
    o.record_dir = string_option(values, "record");
    if (!o.record_dir.empty()) {
        std::error_code error;
        if (fs::exists(o.record_dir, error) &&
            (!fs::is_directory(o.record_dir, error) || !fs::is_empty(o.record_dir, error)))
            throw InputError("--record " + o.record_dir +
                             ": exists and is not an empty folder (records are never overwritten)");
    }
    return o;
}

class Entry final : public games::GameEntry {
  public:
    const games::GameInfo& info() const override { return pac::info(); }

    std::unique_ptr<games::GameSession> open(
        const std::map<std::string, std::string>& values) const override {
        const Options o = read_options(values);
        std::vector<std::string> rows = o.map_file.empty()
                                            ? generate_rows(o.map_seed, o.width, o.height)
                                            : read_map_file(o.map_file);
        if (o.map_file.empty())
            check_rows(rows, "generated map (seed " + std::to_string(o.map_seed) + ")");
        nlohmann::json setup = {{"game", "pac"}, {"map-seed", o.map_seed}, {"pacs", o.pacs}};
        if (o.map_file.empty()) {
            setup["width"] = o.width;
            setup["height"] = o.height;
        } else {
            setup["map"] = o.map_file;
        }
        if (o.map_per_game) setup["map-per-game"] = true;
        return std::make_unique<PacSession>(setup, o, make_board(place(rows, o.map_seed, o.pacs)));
    }

    games::BenchCases bench_cases() const override {
        games::BenchCases cases;
        cases.in_default = false;
        const nlohmann::json setup = {{"map-seed", 7}, {"width", 31}, {"height", 15}, {"pacs", 4}};
        games::PlayerData random;
        random.label = "random";
        games::PlayerData greedy;
        greedy.kind = PlayerKind::Policy;
        greedy.policy = 1;
        greedy.label = "greedy";
        cases.playouts = {
            {"random", "31x15 4 pacs", setup, random, random, 400, 1u << 16},
            {"greedy", "31x15 4 pacs", setup, greedy, greedy, 100, 1u << 14},
        };
        // One generation of rollouts, and one turn of the coevo bot, from the start of a game
        // (the board is built on the first run: listing the cases costs nothing).
        struct LazyBoard {
            std::unique_ptr<Board> board;
            const Board& get() {
                if (!board)
                    board = std::make_unique<Board>(make_board(generate_setup(7, 31, 15, 4)));
                return *board;
            }
        };
        auto lazy = std::make_shared<LazyBoard>();
        auto one_turn = [lazy](const BotSettings& settings, const BackendChoice& backend,
                               bool count_generations) {
            const Board& board = lazy->get();
            Bot bot(*board.map, settings, 11, 0, 0, backend);
            const Move m = bot.choose(observe(*board.map, board.start, 0));
            games::BatchSample s;
            s.items = static_cast<double>(count_generations ? bot.generations() : bot.rollouts());
            s.digest = fnv1a(bot.last_fitness().data(), bot.last_fitness().size() * sizeof(float),
                             fnv1a(&m, sizeof m));
            return s;
        };
        for (int population : {64, 1024}) {
            games::BatchCase rollouts;
            rollouts.name = "pac rollouts";
            rollouts.where = "31x15 pop=" + std::to_string(population);
            rollouts.unit = "rollouts/s";
            rollouts.run = [one_turn, population](const BackendChoice& backend) {
                BotSettings settings;
                settings.population = population;
                settings.generations = 1;
                return one_turn(settings, backend, false);
            };
            cases.batches.push_back(rollouts);
        }
        games::BatchCase turn;
        turn.name = "pac coevo turn";
        turn.where = "31x15 pop=16 gens=12";
        turn.unit = "generations/s";
        turn.run = [one_turn](const BackendChoice& backend) {
            return one_turn(BotSettings{}, backend, true);
        };
        cases.batches.push_back(turn);
        return cases;
    }
};

}  // namespace

std::unique_ptr<games::GameEntry> make_entry() { return std::make_unique<Entry>(); }

}  // namespace gaeval::pac
