// gaeval learn: weights of a game's weighted player learned by a genetic algorithm whose
// fitness is games between members (host/learn/), with verification against fixed players.
#include <cstdio>
#include <iostream>
#include <limits>
#include <string>
#include <vector>

#include "host/cli/commands.hpp"
#include "host/cli/common.hpp"
#include "host/cli/game_options.hpp"
#include "host/cli/island_options.hpp"
#include "host/cli/learn_args.hpp"
#include "host/core/error.hpp"
#include "host/core/interrupt.hpp"
#include "host/games/player_file.hpp"
#include "host/io/run_folder.hpp"
#include "host/islands/archipelago.hpp"
#include "host/islands/islands.hpp"
#include "host/islands/learn_islands.hpp"
#include "host/learn/learn_run.hpp"

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

double read_real(const cxxopts::ParseResult& r, const std::string& name) {
    const std::string text = r[name].as<std::string>();
    try {
        std::size_t used = 0;
        const double v = std::stod(text, &used);
        if (used == text.size()) return v;
    } catch (const std::exception&) {
    }
    throw InputError("--" + name + " '" + text + "': expected a number");
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

// Flags that only a scheme reads; naming one for another scheme is an error (it would be
// silently ignored otherwise).
struct SchemeFlag {
    const char* name;
    std::vector<learn::SchemeKind> schemes;
};

}  // namespace

LearnArgs parse_learn_args(int argc, char** argv) {
    using learn::SchemeKind;
    LearnArgs args;
    const games::GameEntry& game = game_from_args(argc, argv);
    cxxopts::Options options(
        "gaeval learn",
        "Learn the weights of a game's weighted player by a genetic algorithm whose fitness is\n"
        "games between members, played as one batch per generation on the backend; the best\n"
        "member is verified against the game's built-in players (random and each policy)");
    add_common_options(options);
    add_game_options(options, game);
    // clang-format off
    options.add_options("Learn")
        ("scheme", "genetic-game | paired-blend | ten-tournaments | modern",
         cxxopts::value<std::string>()->default_value("modern"))
        ("population", "members (default: modern 32, genetic-game and paired-blend 24, ten-tournaments 50)", cxxopts::value<std::string>())
        ("generations", "generations", cxxopts::value<std::string>()->default_value("40"))
        ("features", "weights the genome holds: all, or a comma list of names (gaeval games)",
         cxxopts::value<std::string>()->default_value("all"))
        ("tournament", "genetic-game, modern: round-robin | round-robin:2 (both colours) | random:M",
         cxxopts::value<std::string>()->default_value("round-robin:2"))
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
        ("quiet", "no progress lines");
    options.add_options("Scheme")
        ("value-update", "genetic-game: take:P | winrate:K", cxxopts::value<std::string>())
        ("initial-value", "genetic-game: estimated value of the first members",
         cxxopts::value<std::string>())
        ("replace", "genetic-game: share replaced by offspring (0.5); paired-blend: share "
         "replaced by the global best, s (0.05)", cxxopts::value<std::string>())
        ("mutation", "genetic-game: per-bit flip (0.01); paired-blend: m (0.05); modern: "
         "per-gene probability (0.2)", cxxopts::value<std::string>())
        ("rounds", "paired-blend: N_R rounds per generation (10)", cxxopts::value<std::string>())
        ("blend", "paired-blend: c (0.1)", cxxopts::value<std::string>())
        ("tournament-size", "modern: k (3)", cxxopts::value<std::string>())
        ("elites", "modern: e (4)", cxxopts::value<std::string>())
        ("crossover", "modern: blx | sbx (blx)", cxxopts::value<std::string>())
        ("crossover-rate", "modern: (0.9)", cxxopts::value<std::string>())
        ("blx-alpha", "modern: (0.5)", cxxopts::value<std::string>())
        ("sbx-eta", "modern: (15)", cxxopts::value<std::string>())
        ("sigma", "modern: gaussian step (0.5)", cxxopts::value<std::string>())
        ("init-range", "paired-blend, ten-tournaments, modern: LOW:HIGH of the first weights "
         "(-1:1; ten-tournaments 0:10)", cxxopts::value<std::string>())
        ("init", "paired-blend: range (first weights uniform in --init-range) | game (the "
         "game's start weights perturbed by the mutation rule)", cxxopts::value<std::string>());
    // clang-format on
    add_island_options(options);
    std::vector<std::string> words = with_learn_defaults(argc, argv, game.info());
    std::vector<char*> word_pointers;
    for (std::string& w : words) word_pointers.push_back(w.data());
    const auto result =
        parse(options, static_cast<int>(word_pointers.size()), word_pointers.data());
    if (result.count("help")) {
        args.help = true;
        args.help_text = options.help({"", "Common", "Game", "Learn", "Scheme", "Islands"});
        return args;
    }
    args.common = read_common(result);
    const CommonOptions& common = args.common;
    learn::LearnJob& job = args.job;
    if (result.count("resume")) {
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
    } else {
        job.session = open_game(result, game);
        const games::GameInfo& info = game.info();
        if (info.weight_names.empty())
            throw InputError("--game " + info.name + ": has no weighted player to learn");
        const SchemeKind scheme = learn::parse_scheme(result["scheme"].as<std::string>());
        learn::LearnConfig& c = job.config;
        c = learn::default_config(scheme, static_cast<uint32_t>(info.weight_names.size()));
        c.seed = common.seed;
        c.features = parse_features(result["features"].as<std::string>(), info);
        if (result.count("population"))
            c.population =
                static_cast<uint32_t>(read_integer_flag(result, "population", 1, 100000));
        c.generations =
            static_cast<uint32_t>(read_integer_flag(result, "generations", 1, 1000000000));
        c.max_plies = static_cast<uint32_t>(read_integer_flag(result, "max-plies", 1, 1000000));
        c.depth = static_cast<uint32_t>(read_integer_flag(result, "depth", 1, 8));
        job.verify_every =
            static_cast<uint32_t>(read_integer_flag(result, "verify-every", 0, 1000000000));
        job.verify_games =
            static_cast<uint32_t>(read_integer_flag(result, "verify-games", 0, 100000000));
        const std::vector<SchemeFlag> only = {
            {"tournament", {SchemeKind::GeneticGame, SchemeKind::Modern}},
            {"value-update", {SchemeKind::GeneticGame}},
            {"initial-value", {SchemeKind::GeneticGame}},
            {"replace", {SchemeKind::GeneticGame, SchemeKind::PairedBlend}},
            {"mutation", {SchemeKind::GeneticGame, SchemeKind::PairedBlend, SchemeKind::Modern}},
            {"rounds", {SchemeKind::PairedBlend}},
            {"blend", {SchemeKind::PairedBlend}},
            {"tournament-size", {SchemeKind::Modern}},
            {"elites", {SchemeKind::Modern}},
            {"crossover", {SchemeKind::Modern}},
            {"crossover-rate", {SchemeKind::Modern}},
            {"blx-alpha", {SchemeKind::Modern}},
            {"sbx-eta", {SchemeKind::Modern}},
            {"sigma", {SchemeKind::Modern}},
            {"init-range",
             {SchemeKind::PairedBlend, SchemeKind::TenTournaments, SchemeKind::Modern}},
            {"init", {SchemeKind::PairedBlend}},
        };
        for (const SchemeFlag& f : only) {
            if (!result.count(f.name)) continue;
            bool ok = false;
            for (SchemeKind s : f.schemes) ok = ok || s == scheme;
            if (!ok)
                throw InputError(std::string("--") + f.name + ": not a setting of scheme " +
                                 learn::scheme_name(scheme));
        }
        // --tournament has a default; it applies where the scheme reads it.
        if (scheme == SchemeKind::GeneticGame || scheme == SchemeKind::Modern)
            c.tournament = learn::parse_tournament(result["tournament"].as<std::string>());
        if (result.count("value-update"))
            c.update = learn::parse_value_update(result["value-update"].as<std::string>());
        if (result.count("initial-value")) c.initial_value = read_real(result, "initial-value");
        if (result.count("replace")) {
            (scheme == SchemeKind::GeneticGame ? c.replace : c.replace_best) =
                read_real(result, "replace");
        }
        if (result.count("mutation")) {
            const double m = read_real(result, "mutation");
            if (scheme == SchemeKind::GeneticGame) c.bit_mutation = m;
            if (scheme == SchemeKind::PairedBlend) c.scale_mutation = m;
            if (scheme == SchemeKind::Modern) c.gene_mutation = m;
        }
        if (result.count("rounds"))
            c.rounds = static_cast<uint32_t>(read_integer_flag(result, "rounds", 1, 100000));
        if (result.count("blend")) c.blend = read_real(result, "blend");
        if (result.count("tournament-size"))
            c.tournament_size =
                static_cast<uint32_t>(read_integer_flag(result, "tournament-size", 1, 100000));
        if (result.count("elites"))
            c.elites = static_cast<uint32_t>(read_integer_flag(result, "elites", 0, 100000));
        if (result.count("crossover")) c.crossover = result["crossover"].as<std::string>();
        if (result.count("crossover-rate")) c.crossover_rate = read_real(result, "crossover-rate");
        if (result.count("blx-alpha")) c.blx_alpha = read_real(result, "blx-alpha");
        if (result.count("sbx-eta")) c.sbx_eta = read_real(result, "sbx-eta");
        if (result.count("sigma")) c.sigma = read_real(result, "sigma");
        if (result.count("init-range")) {
            const std::string text = result["init-range"].as<std::string>();
            const auto colon = text.find(':');
            const std::string what = "--init-range '" + text + "': expected LOW:HIGH";
            if (colon == std::string::npos) throw InputError(what);
            try {
                std::size_t a = 0, b = 0;
                c.init_low = std::stod(text.substr(0, colon), &a);
                c.init_high = std::stod(text.substr(colon + 1), &b);
                if (a != colon || b != text.size() - colon - 1) throw InputError(what);
            } catch (const std::logic_error&) {
                throw InputError(what);
            }
        }
        if (result.count("init")) {
            const std::string init = result["init"].as<std::string>();
            if (init == "game") {
                if (info.initial_weights.size() != info.weight_names.size())
                    throw InputError("--init game: " + info.name + " has no start weights");
                for (int f : c.features) c.start_weights.push_back(info.initial_weights[f]);
            } else if (init != "range") {
                throw InputError("--init '" + init + "': expected range or game");
            }
        }
        job.panel_games =
            static_cast<uint32_t>(read_integer_flag(result, "panel-games", 0, 1000000));
        job.out_dir = io::choose_run_folder(
            result.count("out") ? result["out"].as<std::string>() : "", "learn");
        job.command_line = joined_command_line(argc, argv);
        args.islands = read_island_options(result);
        args.use_islands = args.islands.count > 1;
        args.out_given = result.count("out") > 0;
    }
    job.quiet = result.count("quiet") > 0;
    learn::validate(job.config);
    return args;
}

namespace {

// Games per generation under which learn on CUDA says the CPU may be faster: 2^14 games are
// 512 warps, about 4 per multiprocessor of an H100 or H200.
constexpr uint64_t kGamesToFillAGpu = uint64_t{1} << 14;

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
    job.backend = job.quiet ? resolve_backend(common.backend, common.threads)
                            : start_backend(common, "learn");
    if (!job.quiet)
        std::fprintf(stderr,
                     "gaeval learn: %s %s, %u islands x %u members on %d rank(s) (%s), %u "
                     "generations, migration %s every %u generations (best %u, replace %s), run "
                     "folder %s\n",
                     job.session->info().name.c_str(), learn::scheme_name(job.config.scheme),
                     args.islands.count, job.config.population, t.size(), t.name().c_str(),
                     job.config.generations, islands::topology_name(args.islands.topology),
                     args.islands.migrate_every, args.islands.migrants,
                     islands::replacement_name(args.islands.replace), job.out_dir.c_str());
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
    std::printf(
        "learned %s weights on %u islands in %u generations (best: island %u, value "
        "%.6g), %.1f s (%s, %s, %d rank(s))\n",
        learn::scheme_name(job.config.scheme), args.islands.count, a.generation, a.best.from,
        a.best.fitness, a.seconds, job.backend.name.c_str(), t.name().c_str(), t.size());
    for (const learn::VerifyRow& v : r.verification)
        std::printf("  vs %-11s  win rate %.3f (95%% CI %.3f - %.3f) over %llu games\n",
                    v.opponent.c_str(), v.win_rate, v.low, v.high, (unsigned long long)v.games);
    std::printf(
        "results in %s/: weights.json, generations.csv, learning.svg, islands.csv, "
        "migrations.csv, verification.csv, island-K/generations.csv\n",
        job.out_dir.c_str());
    if (common.json) {
        nlohmann::json out = learn::learn_run_json(job);
        out["islands"] = islands::config_json(args.islands);
        out["ranks"] = t.size();
        out["generations_done"] = a.generation;
        out["best_island"] = a.best.from;
        out["best_value"] = a.best.fitness;
        out["seconds"] = a.seconds;
        out["weights"] = r.best_weights;
        std::cout << out.dump() << std::endl;
    }
    return ExitOk;
}

}  // namespace

int run_learn(int argc, char** argv) {
    LearnArgs args = parse_learn_args(argc, argv);
    if (args.help) {
        std::cout << args.help_text << '\n';
        return ExitOk;
    }
    if (auto transport = island_transport(args.use_islands, args.out_given))
        return run_learn_islands(args, *transport);
    const CommonOptions& common = args.common;
    learn::LearnJob& job = args.job;
    learn::check_job(job);  // bad folder or checkpoint: one line, before anything else
    if (job.quiet)
        job.backend = resolve_backend(common.backend, common.threads);
    else
        job.backend = start_backend(common, "learn");
    if (!job.quiet)
        std::fprintf(stderr,
                     "gaeval learn: %s %s, population %u, %u generations, %llu games per "
                     "generation, %u features, %s, run folder %s\n",
                     job.session->info().name.c_str(), learn::scheme_name(job.config.scheme),
                     job.config.population, job.config.generations,
                     (unsigned long long)learn::games_per_generation(job.config), job.config.dims(),
                     job.session->engine().c_str(), job.out_dir.c_str());
    // A GPU plays one game per thread: a small tournament leaves most of it idle. Measured on
    // an H200 (bench/results/gpu-h200-first-check.md): a 552-game generation took 336 ms there
    // against 30.2 ms on the machine's 16 CPU threads, a 65280-game one 849 ms.
    if (!job.quiet && job.backend.kind == BackendKind::Cuda &&
        learn::games_per_generation(job.config) < kGamesToFillAGpu)
        std::fprintf(stderr,
                     "gaeval learn: note: %llu games per generation are too few to fill a GPU "
                     "(one game per thread); --backend cpu may be faster on this machine\n",
                     (unsigned long long)learn::games_per_generation(job.config));
    install_interrupt_handler();
    const learn::LearnResult r = learn::run_learn(job);
    if (r.interrupted) {
        std::fprintf(stderr, "gaeval learn: interrupted; resume with: gaeval learn --resume %s\n",
                     job.out_dir.c_str());
        return ExitInterrupted;
    }
    std::printf("learned %s weights in %u generations, %llu games, %.1f s (%s)\n",
                learn::scheme_name(job.config.scheme), r.state.generation,
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
