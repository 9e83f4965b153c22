// gaeval learn: weights of a game's weighted player learned by a genetic algorithm whose
// fitness is games between members (host/learn/), with verification against fixed players.
#include <algorithm>
#include <cstdio>
#include <iostream>
#include <limits>
#include <string>
#include <vector>

#include "host/backend/cost_model.hpp"
#include "host/cli/commands.hpp"
#include "host/cli/common.hpp"
#include "host/cli/game_options.hpp"
#include "host/cli/island_options.hpp"
#include "host/cli/learn_args.hpp"
#include "host/core/error.hpp"
#include "host/core/interrupt.hpp"
#include "host/core/progress.hpp"
#include "host/games/player_file.hpp"
#include "host/io/run_folder.hpp"
#include "host/islands/archipelago.hpp"
#include "host/islands/islands.hpp"
#include "host/islands/learn_islands.hpp"
#include "host/learn/learn_problems.hpp"
#include "host/learn/learn_run.hpp"
#include "host/learn/scheme.hpp"

namespace gaeval::cli {

namespace {

std::vector<int> parse_features(const std::string& text, const games::GameInfo& game) {
    std::vector<int> out;
    if (text == "all") {
        for (std::size_t i = 0; i < game.weight_names.size(); ++i) out.push_back(int(i));
        return out;
    }
    for (const std::string& name : split_list(text, "--features")) {
        const int index = games::weight_index(game, name);
        if (index < 0)
            throw InputError("--features: unknown feature '" + name + "' of " + game.name);
        for (int f : out)
            if (f == index) throw InputError("--features: '" + name + "' is listed twice");
        out.push_back(index);
    }
    return out;
}

// Whether argv names flag --name (as "--name" or "--name=...").
bool has_flag(const std::vector<std::string>& args, const std::string& name) {
    for (const std::string& a : args)
        if (a == "--" + name || a.rfind("--" + name + "=", 0) == 0) return true;
    return false;
}

// argv with the game's learn defaults (GameInfo::learn_defaults) added where the user gave no
// value: the scheme and the game's own settings (--max-plies, --depth) always, the other
// defaults when the run uses that scheme. A resumed run takes everything from its folder.
std::vector<std::string> with_learn_defaults(int argc, char** argv, const games::GameInfo& game) {
    std::vector<std::string> args(argv, argv + argc);
    if (game.learn_defaults.empty() || has_flag(args, "resume") || has_flag(args, "help") ||
        has_flag(args, "h"))
        return args;
    const auto scheme = game.learn_defaults.find("scheme");
    bool default_scheme = true;
    if (scheme != game.learn_defaults.end() && has_flag(args, "scheme")) {
        for (std::size_t i = 1; i < args.size(); ++i) {
            if (args[i] == "--scheme" && i + 1 < args.size())
                default_scheme = args[i + 1] == scheme->second;
            if (args[i].rfind("--scheme=", 0) == 0)
                default_scheme = args[i].substr(9) == scheme->second;
        }
    }
    std::vector<std::string> added;
    for (const auto& [name, value] : game.learn_defaults) {
        const bool any_scheme = name == "scheme" || name == "max-plies" || name == "depth";
        if (has_flag(args, name) || (!any_scheme && !default_scheme)) continue;
        added.push_back("--" + name);
        added.push_back(value);
    }
    args.insert(args.begin() + 1, added.begin(), added.end());
    return args;
}

// A flag that one or more schemes read, with its help joined over the schemes ("modern,
// truncation-es: ...; ten-tournaments: ...").
struct SchemeFlag {
    std::string name;
    std::vector<std::pair<std::string, std::string>> helps;  // (help, schemes with it)
    std::string help() const {
        std::string out;
        for (const auto& [text, schemes] : helps)
            out += (out.empty() ? "" : "; ") + schemes + ": " + text;
        return out;
    }
};

// Every registered scheme's flags, in the order of the registry and of each scheme's list.
std::vector<SchemeFlag> scheme_flags() {
    std::vector<SchemeFlag> flags;
    for (const learn::Scheme* scheme : learn::registered_schemes())
        for (const learn::SchemeOption& o : scheme->options()) {
            SchemeFlag* flag = nullptr;
            for (SchemeFlag& f : flags)
                if (f.name == o.flag) flag = &f;
            if (!flag) flag = &flags.emplace_back(SchemeFlag{o.flag, {}});
            bool joined = false;
            for (auto& [text, schemes] : flag->helps)
                if (text == o.help) {
                    schemes += std::string(", ") + scheme->name();
                    joined = true;
                }
            if (!joined) flag->helps.emplace_back(o.help, scheme->name());
        }
    return flags;
}

// "members (default: genetic-game 24, ...)" from each scheme's defaults.
std::string population_help() {
    std::string out;
    for (const learn::Scheme* scheme : learn::registered_schemes())
        out += (out.empty() ? "" : ", ") + std::string(scheme->name()) + " " +
               std::to_string(learn::default_config(scheme->name(), 1).population);
    for (const learn::ProblemEntry& p : learn::setup_problems())
        if (p.info.default_population)
            out += ", problem " + p.info.name + " " + std::to_string(p.info.default_population);
    return "members (default: " + out + ")";
}

// The schemes with their one-line descriptions, for --help.
std::string schemes_help() {
    std::string out = "Schemes (--scheme NAME; default " + std::string(learn::kDefaultScheme) +
                      "; docs/adding-a-scheme.md adds one):\n";
    for (const learn::Scheme* scheme : learn::registered_schemes()) {
        std::string name = scheme->name();
        name.resize(std::max<std::size_t>(name.size(), 17), ' ');
        out += "  " + name + scheme->description() + "\n";
    }
    return out;
}

// The problems with their one-line descriptions, for --help.
std::string problems_help() {
    std::string out =
        "Problems (--problem NAME [--dimension D]; docs/adding-a-problem.md adds one):\n";
    for (const learn::ProblemEntry& p : learn::registered_problems()) {
        std::string name = p.info.name;
        name.resize(std::max<std::size_t>(name.size(), 17), ' ');
        out += "  " + name + p.info.description + " (dimension " +
               std::to_string(p.info.default_dimension) + ")\n";
    }
    for (const learn::ProblemEntry& p : learn::setup_problems()) {
        std::string name = p.info.name;
        name.resize(std::max<std::size_t>(name.size(), 17), ' ');
        out += "  " + name + p.info.description + " (--" + p.info.setup_flag + " " +
               p.info.setup_form + "; schemes: " +
               (p.info.only_scheme.empty() ? learn::word_scheme_names() : p.info.only_scheme) +
               ")\n";
    }
    return out + "Schemes that run on problems: " + learn::problem_scheme_names() + "\n";
}

// gaeval learn --problem NAME: a registered problem's fitness optimised by a scheme that runs
// on problems, on the same driver (run folder, checkpoints, --resume, progress lines) as a
// game's players, alone or as islands (--islands N: host/islands/learn_islands.hpp). Flags of
// games (--game, --features, --verify-*, ...) are refused by name.
LearnArgs parse_problem_args(int argc, char** argv) {
    LearnArgs args;
    cxxopts::Options options(
        "gaeval learn --problem",
        "Optimise a registered problem's fitness over genomes of --dimension floats with a "
        "learning scheme, one backend call evaluating the population per generation");
    add_common_options(options);
    // clang-format off
    options.add_options("Problem")
        ("problem", learn::problem_names() + " (listed below)", cxxopts::value<std::string>())
        ("dimension", "genes of a genome (default: the problem's; a setup's problem: from it)",
         cxxopts::value<std::string>())
        ("scheme", learn::problem_scheme_names(),
         cxxopts::value<std::string>()->default_value(learn::kDefaultScheme))
        ("population", population_help(), cxxopts::value<std::string>())
        ("generations", "generations", cxxopts::value<std::string>()->default_value("40"))
        ("out", "run folder: run.json, generations.csv, learning.svg, best.json, checkpoint.bin "
         "(default: a new runs/learn-NNN; an occupied folder is refused)",
         cxxopts::value<std::string>())
        ("quiet", "no progress lines");
    // clang-format on
    // The setup flags of the problems built from one (--scenario NAME|FILE for pile-in), and
    // the flags that shape their setups (pile-in-rules: gaeval pile-in's rule flags).
    std::vector<std::string> setup_flags, option_flags;
    const auto listed = [](const std::vector<std::string>& names, const std::string& name) {
        return std::find(names.begin(), names.end(), name) != names.end();
    };
    for (const learn::ProblemEntry& p : learn::setup_problems()) {
        if (!listed(setup_flags, p.info.setup_flag)) {
            setup_flags.push_back(p.info.setup_flag);
            options.add_options("Problem")(p.info.setup_flag,
                                           p.info.setup_flag + " " + p.info.setup_form +
                                               " of problem " + p.info.name +
                                               " (scenarios/NAME.json)",
                                           cxxopts::value<std::string>());
        }
        for (const auto& [flag, help] : p.info.setup_options)
            if (!listed(option_flags, flag)) {
                option_flags.push_back(flag);
                options.add_options("Problem")(flag, help + " (problem " + p.info.name + ")",
                                               cxxopts::value<std::string>());
            }
    }
    const std::vector<SchemeFlag> flags = scheme_flags();
    for (const SchemeFlag& f : flags)
        options.add_options("Scheme")(f.name, f.help(), cxxopts::value<std::string>());
    add_island_options(options);
    std::vector<std::string> words(argv, argv + argc);
    for (const char* game_flag : {"game", "features", "max-plies", "depth", "verify-every",
                                  "verify-games", "panel-games", "resume"})
        if (has_flag(words, game_flag))
            throw InputError("--" + std::string(game_flag) + ": not a setting of a --problem run" +
                             (std::string(game_flag) == "resume"
                                  ? " (resume with: gaeval learn --resume DIR)"
                                  : ""));
    const auto result = parse(options, argc, argv);
    if (result.count("help")) {
        args.help = true;
        args.help_text = options.help({"", "Common", "Problem", "Scheme", "Islands"}) + "\n" +
                         schemes_help() + "\n" + problems_help();
        return args;
    }
    args.common = read_common(result);
    learn::LearnJob& job = args.job;
    const learn::ProblemEntry& problem = learn::find_problem(result["problem"].as<std::string>());
    const learn::Scheme& scheme = learn::find_scheme(result["scheme"].as<std::string>());
    for (const std::string& flag : setup_flags)
        if (result.count(flag) && flag != problem.info.setup_flag)
            throw InputError("--" + flag + ": not a setting of problem " + problem.info.name);
    learn::SetupOptions setup_options;  // the given flags that shape the problem's setup
    for (const std::string& flag : option_flags) {
        if (!result.count(flag)) continue;
        const auto& own = problem.info.setup_options;
        if (std::none_of(own.begin(), own.end(), [&](const auto& o) { return o.first == flag; }))
            throw InputError("--" + flag + ": not a setting of problem " + problem.info.name);
        setup_options[flag] = result[flag].as<std::string>();
    }
    learn::LearnConfig& c = job.config;
    if (problem.info.words()) {
        // A problem built from a setup: its dimension is the setup's.
        const std::string& flag = problem.info.setup_flag;
        if (result.count("dimension"))
            throw InputError("--dimension: problem " + problem.info.name +
                             " takes its dimension from --" + flag);
        if (!result.count(flag))
            throw InputError("--" + flag + " " + problem.info.setup_form + ": problem " +
                             problem.info.name + " is built from a " + flag);
        if (!scheme.runs_on_words())
            throw InputError(
                "--scheme " + std::string(scheme.name()) +
                ": its genomes are real numbers, it cannot run on problem " + problem.info.name +
                " (integer genomes; schemes for it: " + learn::word_scheme_names() + ")");
        c = learn::problem_config(scheme.name(),
                                  problem.build(result[flag].as<std::string>(), setup_options));
    } else {
        const uint32_t dimension = result.count("dimension")
                                       ? static_cast<uint32_t>(read_integer_flag(
                                             result, "dimension", 1, problem.info.max_dimension))
                                       : problem.info.default_dimension;
        c = learn::problem_config(scheme.name(), problem.info.name, dimension);
    }
    c.seed = args.common.seed;
    if (result.count("population"))
        c.population = static_cast<uint32_t>(read_integer_flag(result, "population", 1, 100000));
    c.generations = static_cast<uint32_t>(read_integer_flag(result, "generations", 1, 1000000000));
    for (const SchemeFlag& f : flags)
        if (result.count(f.name) && !scheme.has_option(f.name))
            throw InputError("--" + f.name + ": not a setting of scheme " + scheme.name());
    const games::GameInfo no_game;  // scheme flags that read a game's weights have none here
    for (const learn::SchemeOption& o : scheme.options()) {
        if (result.count(o.flag))
            o.set(c, result[o.flag].as<std::string>(), no_game);
        else if (o.cli_default)
            o.set(c, o.cli_default, no_game);
    }
    // A scheme's --init-range default is the game's (-1:1); a problem starts in its bounds.
    if (!result.count("init-range") && !problem.info.words()) {
        c.init_low = problem.info.low;
        c.init_high = problem.info.high;
    }
    job.out_dir =
        io::choose_run_folder(result.count("out") ? result["out"].as<std::string>() : "", "learn");
    job.command_line = joined_command_line(argc, argv);
    args.out_given = result.count("out") > 0;
    job.quiet = result.count("quiet") > 0;
    args.islands = read_island_options(result);
    args.use_islands = args.islands.count > 1;
    learn::validate(job.config);
    return args;
}

}  // namespace

namespace {

// The options of `gaeval learn --game G` (common, the game's, learning's, every scheme's flags and
// the islands').
cxxopts::Options learn_options(const games::GameEntry& game, const std::vector<SchemeFlag>& flags) {
    cxxopts::Options options(
        "gaeval learn",
        "Learn the weights of a game's weighted player by a genetic algorithm whose fitness is\n"
        "games between members, played as one batch per generation on the backend; the best\n"
        "member is verified against the game's built-in players (random and each policy)");
    add_common_options(options);
    add_game_options(options, game);
    // clang-format off
    options.add_options("Learn")
        ("scheme", learn::scheme_names() + " (listed below)",
         cxxopts::value<std::string>()->default_value(learn::kDefaultScheme))
        ("population", population_help(), cxxopts::value<std::string>())
        ("generations", "generations", cxxopts::value<std::string>()->default_value("40"))
        ("features", "weights the genome holds: all, or a comma list of names (gaeval games)",
         cxxopts::value<std::string>()->default_value("all"))
        ("max-plies", "plies after which a game is scored as it stands",
         cxxopts::value<std::string>()->default_value("400"))
        ("depth", "plies the weighted player looks ahead (1: one ply; more: alpha-beta, Risk's own search; Gomoku: 2+ is weighted-search, the table inside a threat search)",
         cxxopts::value<std::string>()->default_value("1"))
        ("verify-every", "verify the best member every N generations (0: after the last only)",
         cxxopts::value<std::string>()->default_value("5"))
        ("verify-games", "games against each built-in player per verification",
         cxxopts::value<std::string>()->default_value("1000"))
        ("out", "run folder: run.json, generations.csv, verification.csv, learning.svg, "
         "weights.json, checkpoint.bin (default: a new runs/learn-NNN; an occupied folder is "
         "refused)", cxxopts::value<std::string>())
        ("panel-games", "games against each built-in player every generation, for the "
         "panel score that shows learning (0: none)",
         cxxopts::value<std::string>()->default_value("50"))
        ("resume", "continue the run in this folder (only --backend, --threads, --quiet, "
         "--generations may be given)", cxxopts::value<std::string>())
        ("quiet", "no progress lines")
        ("problem", "optimise a registered problem instead of a game: " +
         learn::problem_names() + " (gaeval learn --problem NAME --help)",
         cxxopts::value<std::string>());
    // clang-format on
    for (const SchemeFlag& f : flags)
        options.add_options("Scheme")(f.name, f.help(), cxxopts::value<std::string>());
    add_island_options(options);
    return options;
}

// --resume DIR: the run's own job; only --backend, --threads, --quiet, --json and --generations
// (not for island runs) may be given beside it.
void read_resumed_job(const cxxopts::ParseResult& result, LearnArgs& args) {
    learn::LearnJob& job = args.job;
    for (const auto& kv : result.arguments()) {
        const std::string& k = kv.key();
        if (k != "resume" && k != "backend" && k != "threads" && k != "quiet" &&
            k != "generations" && k != "json")
            throw InputError("--resume: --" + k +
                             " is fixed by the run being resumed; leave it out");
    }
    job = learn::learn_job_from_folder(result["resume"].as<std::string>());
    args.use_islands = islands::folder_islands(job.out_dir, &args.islands);
    if (args.use_islands && result.count("generations"))
        throw InputError("--resume: an island run keeps its --generations");
    args.out_given = true;
    if (result.count("generations")) {
        job.config.generations =
            static_cast<uint32_t>(read_integer_flag(result, "generations", 1, 1000000000));
    }
}

// A new run: the game session, the scheme's configuration from its flags, the run folder.
void read_new_job(const cxxopts::ParseResult& result, const games::GameEntry& game,
                  const std::vector<SchemeFlag>& flags, int argc, char** argv, LearnArgs& args) {
    const CommonOptions& common = args.common;
    learn::LearnJob& job = args.job;
    job.session = open_game(result, game);
    const games::GameInfo& info = game.info();
    if (info.weight_names.empty())
        throw InputError("--game " + info.name + ": has no weighted player to learn");
    const learn::Scheme& scheme = learn::find_scheme(result["scheme"].as<std::string>());
    learn::LearnConfig& c = job.config;
    c = learn::default_config(scheme.name(), static_cast<uint32_t>(info.weight_names.size()));
    c.seed = common.seed;
    c.features = parse_features(result["features"].as<std::string>(), info);
    if (result.count("population"))
        c.population = static_cast<uint32_t>(read_integer_flag(result, "population", 1, 100000));
    c.generations = static_cast<uint32_t>(read_integer_flag(result, "generations", 1, 1000000000));
    c.max_plies = static_cast<uint32_t>(read_integer_flag(result, "max-plies", 1, 1000000));
    c.depth = static_cast<uint32_t>(read_integer_flag(result, "depth", 1, 8));
    job.verify_every =
        static_cast<uint32_t>(read_integer_flag(result, "verify-every", 0, 1000000000));
    job.verify_games =
        static_cast<uint32_t>(read_integer_flag(result, "verify-games", 0, 100000000));
    // A flag of another scheme would be silently ignored: refuse it.
    for (const SchemeFlag& f : flags)
        if (result.count(f.name) && !scheme.has_option(f.name))
            throw InputError("--" + f.name + ": not a setting of scheme " + scheme.name());
    for (const learn::SchemeOption& o : scheme.options()) {
        if (result.count(o.flag))
            o.set(c, result[o.flag].as<std::string>(), info);
        else if (o.cli_default)
            o.set(c, o.cli_default, info);
    }
    job.panel_games = static_cast<uint32_t>(read_integer_flag(result, "panel-games", 0, 1000000));
    job.out_dir =
        io::choose_run_folder(result.count("out") ? result["out"].as<std::string>() : "", "learn");
    job.command_line = joined_command_line(argc, argv);
    args.islands = read_island_options(result);
    args.use_islands = args.islands.count > 1;
    args.out_given = result.count("out") > 0;
}

}  // namespace

LearnArgs parse_learn_args(int argc, char** argv) {
    if (has_flag(std::vector<std::string>(argv, argv + argc), "problem"))
        return parse_problem_args(argc, argv);
    LearnArgs args;
    const games::GameEntry& game = game_from_args(argc, argv);
    const std::vector<SchemeFlag> flags = scheme_flags();
    cxxopts::Options options = learn_options(game, flags);
    std::vector<std::string> words = with_learn_defaults(argc, argv, game.info());
    std::vector<char*> word_pointers;
    for (std::string& w : words) word_pointers.push_back(w.data());
    const auto result =
        parse(options, static_cast<int>(word_pointers.size()), word_pointers.data());
    if (result.count("help")) {
        args.help = true;
        args.help_text = options.help({"", "Common", "Game", "Learn", "Scheme", "Islands"}) + "\n" +
                         schemes_help() + "\n" + problems_help();
        return args;
    }
    args.common = read_common(result);
    if (result.count("resume"))
        read_resumed_job(result, args);
    else
        read_new_job(result, game, flags, argc, argv, args);
    args.job.quiet = result.count("quiet") > 0;
    learn::validate(args.job.config);
    return args;
}

namespace {

// gaeval learn --islands N: the archipelago on this process's transport; rank 0 reports.
int run_learn_islands(LearnArgs& args, islands::Transport& t) {
    const CommonOptions& common = args.common;
    learn::LearnJob& job = args.job;
    const bool root = t.rank() == 0;
    if (!root) job.quiet = true;
    // Bad island flags or an occupied folder: one line (rank 0's; every rank agrees), before
    // the run's first line names a folder that would never be created.
    int check_exit = ExitOk;
    const auto checked = run_on_ranks(t, &check_exit, [&] {
        islands::agree(t, [&] {
            islands::validate(args.islands, job.config.population);
            if (!job.resume && !job.out_dir.empty()) io::check_run_folder_free(job.out_dir);
        });
        return true;
    });
    if (!checked) return check_exit;
    // A rank's islands play a generation in one call: auto sizes that batch (a problem's
    // evaluations: the plain run's choice).
    const bool problem = !job.config.problem.empty();
    job.backend = problem ? start_backend(common, "learn")
                          : start_backend_for_games(common, "learn", job.session->info().name,
                                                    islands::learn_islands_games_per_call(
                                                        job.config, args.islands, t.size()),
                                                    job.config.depth <= 1, job.quiet);
    const std::string what = problem ? "problem " + job.config.problem + " (dimension " +
                                           std::to_string(job.config.dims()) + ")"
                                     : job.session->info().name;
    if (!job.quiet)
        std::fprintf(stderr,
                     "gaeval learn: %s %s, %u islands x %u members on %d rank(s) (%s), %u "
                     "generations, migration %s every %u generations (best %u, replace %s), run "
                     "folder %s\n",
                     what.c_str(), job.config.scheme.c_str(), args.islands.count,
                     job.config.population, t.size(), t.name().c_str(), job.config.generations,
                     islands::topology_name(args.islands.topology), args.islands.migrate_every,
                     args.islands.migrants, islands::replacement_name(args.islands.replace),
                     job.out_dir.c_str());
    install_interrupt_handler();
    int rank_exit = ExitOk;
    const auto ran = run_on_ranks(t, &rank_exit,
                                  [&] { return islands::run_learn_islands(job, args.islands, t); });
    if (!ran) return rank_exit;
    const islands::LearnIslandsResult& r = *ran;
    const islands::ArchipelagoResult& a = r.archipelago;
    if (a.interrupted) {
        say_how_to_resume(t, "learn", job.out_dir);
        return ExitInterrupted;
    }
    if (!root) return ExitOk;
    // The --json line's fields common to problem and game runs on islands.
    auto islands_json = [&] {
        nlohmann::json out = learn::learn_run_json(job);
        out["islands"] = islands::config_json(args.islands);
        out["ranks"] = t.size();
        out["generations_done"] = a.generation;
        out["best_island"] = a.best.from;
        out["seconds"] = a.seconds;
        return out;
    };
    if (problem) {
        const learn::ProblemInfo& info = learn::find_problem(job.config.problem).info;
        char optimum[64] = "";
        if (!job.config.instance)
            std::snprintf(optimum, sizeof optimum, ", optimum %g", info.optimum);
        std::printf(
            "optimised %s (dimension %u) with %s on %u island%s in %u generation%s, %llu "
            "evaluations, best fitness %.9g (island %u%s), %.1f s (%s, %s, %d rank(s))\n",
            info.name.c_str(), job.config.dims(), job.config.scheme.c_str(), args.islands.count,
            plural_s(args.islands.count), a.generation, plural_s(a.generation),
            (unsigned long long)r.games, info.fitness_of(a.best.fitness), a.best.from, optimum,
            a.seconds, job.backend.name.c_str(), t.name().c_str(), t.size());
        std::printf(
            "results in %s/: best.json, generations.csv, learning.svg, islands.csv, "
            "migrations.csv, island-K/generations.csv\n",
            job.out_dir.c_str());
        if (common.json) {
            nlohmann::json out = islands_json();
            out["evaluations"] = r.games;
            out["fitness"] = info.fitness_of(a.best.fitness);
            if (job.config.instance)
                out["genome"] = r.best_words;
            else
                out["genome"] = r.best_weights;
            std::cout << out.dump() << std::endl;
        }
        return ExitOk;
    }
    std::printf(
        "learned %s weights on %u island%s in %u generation%s (best: island %u, value "
        "%.6g), %.1f s (%s, %s, %d rank(s))\n",
        job.config.scheme.c_str(), args.islands.count, plural_s(args.islands.count), a.generation,
        plural_s(a.generation), a.best.from, a.best.fitness, a.seconds, job.backend.name.c_str(),
        t.name().c_str(), t.size());
    for (const learn::VerifyRow& v : r.verification)
        std::printf("  vs %-11s  win rate %.3f (95%% CI %.3f - %.3f) over %llu games\n",
                    v.opponent.c_str(), v.win_rate, v.low, v.high, (unsigned long long)v.games);
    std::printf(
        "results in %s/: weights.json, generations.csv, learning.svg, islands.csv, "
        "migrations.csv, verification.csv, island-K/generations.csv\n",
        job.out_dir.c_str());
    if (common.json) {
        nlohmann::json out = islands_json();
        out["best_value"] = a.best.fitness;
        out["weights"] = r.best_weights;
        std::cout << out.dump() << std::endl;
    }
    return ExitOk;
}

}  // namespace

namespace {

// Runs the job with the interrupt handler installed; false (the resume command on stderr) when
// it was interrupted (a checkpoint was written).
bool run_to_the_end(const learn::LearnJob& job, learn::LearnResult& r) {
    install_interrupt_handler();
    r = learn::run_learn(job);
    if (!r.interrupted) return true;
    std::fprintf(stderr, "gaeval learn: interrupted; resume with: gaeval learn --resume %s\n",
                 job.out_dir.c_str());
    return false;
}

// gaeval learn --problem (or --resume of such a run): the plain run on the problem.
int run_problem_learn(LearnArgs& args) {
    const CommonOptions& common = args.common;
    learn::LearnJob& job = args.job;
    learn::check_job(job);  // bad folder or checkpoint: one line, before anything else
    job.backend = start_backend(common, "learn");
    const learn::ProblemInfo& info = learn::find_problem(job.config.problem).info;
    if (!job.quiet)
        std::fprintf(stderr,
                     "gaeval learn: problem %s (dimension %u, %s), %s, population %u, %u "
                     "generations, run folder %s\n",
                     info.name.c_str(), job.config.dims(),
                     info.maximise ? "maximised" : "minimised", job.config.scheme.c_str(),
                     job.config.population, job.config.generations, job.out_dir.c_str());
    learn::LearnResult r;
    if (!run_to_the_end(job, r)) return ExitInterrupted;
    const double fitness = info.fitness_of(r.state.best_value);
    if (job.config.instance) {
        // A setup's problem has no known optimum: the best of all generations instead.
        const learn::GenerationRow* best = nullptr;
        for (const learn::GenerationRow& row : r.generations)
            if (!best || row.best_value > best->best_value) best = &row;
        std::printf(
            "optimised %s (%s %s, %u genes) with %s in %u generation%s, %llu evaluations, best "
            "fitness %.9g (generation %u), last generation's %.9g, %.1f s (%s)\n",
            info.name.c_str(), info.setup_flag.c_str(), job.config.instance->setup_name().c_str(),
            job.config.dims(), job.config.scheme.c_str(), r.state.generation,
            plural_s(r.state.generation), (unsigned long long)r.state.games,
            best ? info.fitness_of(best->best_value) : fitness, best ? best->generation - 1 : 0,
            fitness, r.seconds, job.backend.name.c_str());
    } else {
        std::printf(
            "optimised %s (dimension %u) with %s in %u generation%s, %llu evaluations, best "
            "fitness %.9g (optimum %g), %.1f s (%s)\n",
            info.name.c_str(), job.config.dims(), job.config.scheme.c_str(), r.state.generation,
            plural_s(r.state.generation), (unsigned long long)r.state.games, fitness, info.optimum,
            r.seconds, job.backend.name.c_str());
    }
    std::printf("results in %s/: best.json, generations.csv, learning.svg\n", job.out_dir.c_str());
    if (common.json) {
        nlohmann::json out = learn::learn_run_json(job);
        out["generations_done"] = r.state.generation;
        out["evaluations"] = r.state.games;
        out["seconds"] = r.seconds;
        out["fitness"] = fitness;
        if (job.config.instance)
            out["genome"] = r.state.best_words;
        else
            out["genome"] = r.state.best_weights;
        std::cout << out.dump() << std::endl;
    }
    return ExitOk;
}

// A problem whose scoring rewrites its genomes (pile-in-rules with repair constraints) runs as
// one population on the cpu backend (ProblemInstance::evaluate_rewriting; --backend auto
// chooses it): InputError for --backend cuda and for islands, before anything is written.
void check_rewriting(LearnArgs& args) {
    const auto& instance = args.job.config.instance;
    if (!instance || !instance->rewrites_genomes()) return;
    if (args.common.backend != "cpu" && args.common.backend != "auto")
        throw InputError("--backend " + args.common.backend +
                         ": repair constraints rewrite each plan as it is scored, which runs on "
                         "the cpu backend only (no device form yet; use --backend cpu)");
    if (args.use_islands) throw InputError(learn::kRewritingOnIslands);
    args.common.backend = "cpu";
}

}  // namespace

int run_learn(int argc, char** argv) {
    LearnArgs args = parse_learn_args(argc, argv);
    if (args.help) {
        std::cout << args.help_text << '\n';
        return ExitOk;
    }
    check_rewriting(args);
    if (auto transport = island_transport(args.use_islands, args.out_given))
        return run_learn_islands(args, *transport);
    if (!args.job.config.problem.empty()) return run_problem_learn(args);
    const CommonOptions& common = args.common;
    learn::LearnJob& job = args.job;
    learn::check_job(job);  // bad folder or checkpoint: one line, before anything else
    job.backend = start_backend_for_games(common, "learn", job.session->info().name,
                                          learn::games_per_generation(job.config),
                                          job.config.depth <= 1, job.quiet);
    if (!job.quiet)
        std::fprintf(stderr,
                     "gaeval learn: %s %s, population %u, %u generations, %llu games per "
                     "generation, %u features, %s, run folder %s\n",
                     job.session->info().name.c_str(), job.config.scheme.c_str(),
                     job.config.population, job.config.generations,
                     (unsigned long long)learn::games_per_generation(job.config), job.config.dims(),
                     job.session->engine().c_str(), job.out_dir.c_str());
    // `--backend auto` already chose by the measured cost (host/backend/cost_model.hpp); a GPU
    // asked for by name gets the same estimates as a note where the CPU is estimated faster.
    if (!job.quiet && common.backend == "cuda") {
        const std::string note =
            cuda_slower_note(job.session->info().name, learn::games_per_generation(job.config),
                             job.config.depth <= 1, resolve_backend("cpu", common.threads).threads);
        if (!note.empty()) std::fprintf(stderr, "gaeval learn: note: %s\n", note.c_str());
    }
    learn::LearnResult r;
    if (!run_to_the_end(job, r)) return ExitInterrupted;
    std::printf("learned %s weights in %u generation%s, %llu games, %.1f s (%s)\n",
                job.config.scheme.c_str(), r.state.generation, plural_s(r.state.generation),
                (unsigned long long)r.state.games, r.seconds, job.backend.name.c_str());
    for (const learn::VerifyRow& v : r.verification)
        if (v.generation == r.state.generation)
            std::printf("  vs %-11s  win rate %.3f (95%% CI %.3f - %.3f) over %llu games\n",
                        v.opponent.c_str(), v.win_rate, v.low, v.high, (unsigned long long)v.games);
    std::printf(
        "results in %s/: weights.json (gaeval play --a %s/weights.json), "
        "verification.csv, generations.csv, learning.svg\n",
        job.out_dir.c_str(), job.out_dir.c_str());
    if (common.json) {
        nlohmann::json out = learn::learn_run_json(job);
        out["generations_done"] = r.state.generation;
        out["games"] = r.state.games;
        out["seconds"] = r.seconds;
        out["weights"] = r.state.best_weights;
        nlohmann::json verify = nlohmann::json::array();
        for (const auto& v : r.verification)
            verify.push_back({{"generation", v.generation},
                              {"opponent", v.opponent},
                              {"games", v.games},
                              {"wins", v.wins},
                              {"win_rate", v.win_rate}});
        out["verification"] = verify;
        std::cout << out.dump() << std::endl;
    }
    return ExitOk;
}

}  // namespace gaeval::cli
