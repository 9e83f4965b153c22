// gaeval pile-in: evolve the moves of a unit piling in (GAPI1 or an edition's rules), on the
// GPU or the CPU; with a rules preset also the greedy baseline (--solver greedy: it alone).
#include <cstdio>
#include <iostream>
#include <map>
#include <string>
#include <vector>

#include "host/cli/commands.hpp"
#include "host/cli/common.hpp"
#include "host/cli/island_options.hpp"
#include "host/cli/pile_in_args.hpp"
#include "host/core/error.hpp"
#include "host/core/interrupt.hpp"
#include "host/core/progress.hpp"
#include "host/io/run_folder.hpp"
#include "host/islands/archipelago.hpp"
#include "host/islands/islands.hpp"
#include "host/islands/pile_in_islands.hpp"
#include "host/pile_in/check.hpp"
#include "host/pile_in/rules.hpp"
#include "host/pile_in/run.hpp"

namespace gaeval::cli {

namespace {

// The rule flags given, by name, as typed (pile_in::parse_rule_flags reads them).
std::map<std::string, std::string> rule_flag_texts(const cxxopts::ParseResult& result) {
    std::map<std::string, std::string> given;
    for (const pile_in::RuleFlagInfo& f : pile_in::rule_flags())
        if (result.count(f.name)) given[f.name] = result[f.name].as<std::string>();
    return given;
}

// The backend; in a build without CUDA, --backend auto has no choice to explain, and the run's
// first line says only "auto" (gaeval --help and gaeval games say why once).
BackendChoice pile_in_backend(const CommonOptions& common) {
    BackendChoice backend = resolve_backend(common.backend, common.threads);
    if (common.backend == "auto" && !GAEVAL_HAVE_CUDA) backend.note = "auto";
    return backend;
}

}  // namespace

PileInArgs parse_pile_in_args(int argc, char** argv) {
    PileInArgs args;
    cxxopts::Options options("gaeval pile-in",
                             "Evolve one move per model so that as many models as possible end "
                             "in combat range,\nwithout overlapping bases or breaking coherency "
                             "(GAPI1), or under an edition's rules\n(aos1..aos4: hard rules, "
                             "exact ovals, optional move order; GA vs greedy at the end).");
    options.add_options()("scenario", "scenario JSON file (see scenarios/)",
                          cxxopts::value<std::string>())(
        "rules", "gapi1 (the seed's fitness) or a rules preset: aos1, aos2, aos3, aos4",
        cxxopts::value<std::string>()->default_value("gapi1"))(
        "solver", "ga, or greedy (rules presets: the baseline alone)",
        cxxopts::value<std::string>()->default_value("ga"))(
        "check",
        "judge a plan instead: end positions measured on the table (best.json's shape, or a "
        "CSV of x,y per model in the scenario's units) against --rules; exit 0 legal, 1 not; "
        "check.json and check.svg in --out (default: a new runs/pile-in-check-NNN)",
        cxxopts::value<std::string>())("population", "plans per generation (2 to 4294967295)",
                                       cxxopts::value<std::string>()->default_value("200"))(
        "generations", "generations to evaluate (1 to 1000000000)",
        cxxopts::value<std::string>()->default_value("500"))(
        "crossover", "share eliminated each generation and refilled by children",
        cxxopts::value<std::string>()->default_value("0.8"))(
        "mutation", "per-gene probability of a fresh random move",
        cxxopts::value<std::string>()->default_value("0.2"))(
        "out",
        "run folder for run.json, generations.csv, best.json, picture.svg (default: a new "
        "runs/pile-in-NNN); an occupied folder is refused",
        cxxopts::value<std::string>())("resume",
                                       "continue the interrupted (or finished) run in this folder; "
                                       "--generations may raise its length",
                                       cxxopts::value<std::string>())(
        "checkpoint-every", "seconds between checkpoints (0: every generation)",
        cxxopts::value<std::string>()->default_value("60"))(
        "no-checkpoint", "write no checkpoint at the end of the run")(
        "log-every", "generations.csv keeps every N-th generation (and the last)",
        cxxopts::value<std::string>()->default_value("1"))("quiet", "no progress lines on stderr");
    for (const pile_in::RuleFlagInfo& f : pile_in::rule_flags())
        options.add_options("Rules (override the preset and the scenario's rule fields)")(
            f.name, f.help, cxxopts::value<std::string>());
    add_common_options(options);
    add_island_options(options);
    auto result = parse(options, argc, argv);
    if (result.count("help")) {
        args.help = true;
        args.help_text = options.help();
        return args;
    }
    const CommonOptions common = read_common(result);
    args.common = common;
    pile_in::PileInJob& job = args.job;
    if (result.count("check")) {
        if (result.count("resume")) throw InputError("--check: cannot be used with --resume");
        for (const char* solver_flag : {"solver", "population", "generations", "crossover",
                                        "mutation", "checkpoint-every", "no-checkpoint"})
            if (result.count(solver_flag))
                throw InputError(std::string("--check: --") + solver_flag +
                                 " is a solver flag; a check runs no solver");
        args.check = result["check"].as<std::string>();
        if (args.check.empty()) throw InputError("--check: needs a plan file");
    }
    if (result.count("resume")) {
        std::vector<std::string> fixed = {"scenario",  "rules",    "solver", "population",
                                          "crossover", "mutation", "seed",   "out"};
        for (const pile_in::RuleFlagInfo& f : pile_in::rule_flags()) fixed.push_back(f.name);
        for (const std::string& flag : fixed)
            if (result.count(flag))
                throw InputError("--resume: --" + flag +
                                 " is fixed by the run being resumed; leave it out");
        job = pile_in::job_from_run_folder(result["resume"].as<std::string>());
        if (has_island_flag(result))
            throw InputError("--resume: island flags are fixed by the run being resumed");
        args.use_islands = islands::folder_islands(job.out_dir, &args.islands);
        if (args.use_islands && result.count("generations"))
            throw InputError("--resume: an island run keeps its --generations");
        args.out_given = true;
        if (result.count("generations"))
            job.ga.generations =
                static_cast<uint32_t>(read_integer_flag(result, "generations", 1, 1000000000));
    } else {
        if (!result.count("scenario")) throw InputError("--scenario FILE is required");
        job.scenario = pile_in::load_scenario(result["scenario"].as<std::string>());
        job.rules = result["rules"].as<std::string>();
        pile_in::check_rules_name(job.rules);
        job.solver = result["solver"].as<std::string>();
        job.overrides = pile_in::parse_rule_flags(rule_flag_texts(result));
        job.ga.population =
            static_cast<uint64_t>(read_integer_flag(result, "population", 2, 4294967295ll));
        job.ga.generations =
            static_cast<uint32_t>(read_integer_flag(result, "generations", 1, 1000000000));
        job.ga.crossover = read_real_flag(result, "crossover", 0, 1);
        job.ga.mutation = read_real_flag(result, "mutation", 0, 1);
        job.ga.seed = common.seed;
        job.out_dir =
            io::choose_run_folder(result.count("out") ? result["out"].as<std::string>() : "",
                                  args.check.empty() ? "pile-in" : "pile-in-check");
        args.islands = read_island_options(result);
        args.use_islands = args.islands.count > 1;
        args.out_given = result.count("out") > 0;
        if (args.use_islands && !args.check.empty())
            throw InputError("--islands: a check runs no solver");
    }
    job.checkpoint_every_seconds = read_real_flag(result, "checkpoint-every", 0, 1e9);
    job.checkpoint_at_end = result.count("no-checkpoint") == 0;
    job.log_every = static_cast<uint32_t>(read_integer_flag(result, "log-every", 1, 1000000000));
    job.quiet = result.count("quiet") > 0;
    job.command_line = joined_command_line(argc, argv);
    pile_in::validate(job.ga);
    return args;
}

namespace {

// A failed check (DESIGN.md: exit 1 for an internal error or a failed check).
constexpr int ExitIllegalPlan = 1;

// --check PLAN: the validator's verdict on a plan, its picture; exit 0 legal, 1 illegal.
int run_check(const PileInArgs& args) {
    const pile_in::PileInJob& job = args.job;
    if (job.rules == "gapi1")
        throw InputError("--check: needs a rules preset (--rules aos1, aos2, aos3 or aos4)");
    const pile_in::RulesProblem problem =
        pile_in::build_rules_problem(job.rules, job.scenario, job.overrides);
    const pile_in::CheckResult r =
        pile_in::check_plan_file(args.check, job.scenario, job.rules, problem, job.out_dir);
    const pile_in::Verdict& v = r.verdict;
    if (args.common.json) {
        nlohmann::json line = {{"legal", v.legal},
                               {"in_range_count", v.in_range_count},
                               {"model_count", problem.scenario.friendly_count},
                               {"rules", job.rules},
                               {"violations", r.report.at("violation_details")},
                               {"out", job.out_dir}};
        std::cout << line.dump() << std::endl;
    } else {
        std::printf("%s under %s: %s, %d of %d model%s in combat range\n", args.check.c_str(),
                    job.rules.c_str(), v.legal ? "legal" : "ILLEGAL", v.in_range_count,
                    problem.scenario.friendly_count, plural_s(problem.scenario.friendly_count));
        for (const pile_in::Violation& d : v.details)
            std::printf("  %-9s %s\n", d.rule.c_str(), d.text.c_str());
        std::printf("picture and details in %s/: check.svg, check.json\n", job.out_dir.c_str());
    }
    return v.legal ? ExitOk : ExitIllegalPlan;
}

// gaeval pile-in --islands N: the archipelago on this process's transport; rank 0 reports.
int run_pile_in_islands(PileInArgs& args, islands::Transport& t) {
    pile_in::PileInJob& job = args.job;
    const CommonOptions& common = args.common;
    const bool root = t.rank() == 0;
    if (!root) job.quiet = true;
    // Bad island flags or an occupied folder: one line (rank 0's; every rank agrees), before
    // the run's first line names a folder that would never be created.
    int check_exit = ExitOk;
    const auto checked = run_on_ranks(t, &check_exit, [&] {
        islands::agree(t, [&] {
            islands::validate(args.islands, job.ga.population);
            if (!job.resume && !job.out_dir.empty()) io::check_run_folder_free(job.out_dir);
        });
        return true;
    });
    if (!checked) return check_exit;
    job.backend = pile_in_backend(common);
    if (!job.quiet)
        std::fprintf(stderr,
                     "gaeval pile-in: %s, %u islands x %llu plans on %d rank(s) (%s), %u "
                     "generations, migration %s every %u generations (best %u, replace %s), %s "
                     "(%s), run folder %s\n",
                     job.scenario.name.c_str(), args.islands.count,
                     static_cast<unsigned long long>(job.ga.population), t.size(), t.name().c_str(),
                     job.ga.generations, islands::topology_name(args.islands.topology),
                     args.islands.migrate_every, args.islands.migrants,
                     islands::replacement_name(args.islands.replace), job.backend.name.c_str(),
                     job.backend.device.c_str(), job.out_dir.c_str());
    install_interrupt_handler();
    int rank_exit = ExitOk;
    const auto ran = run_on_ranks(
        t, &rank_exit, [&] { return islands::run_pile_in_islands(job, args.islands, t); });
    if (!ran) return rank_exit;
    const islands::PileInIslandsResult& r = *ran;
    const islands::ArchipelagoResult& a = r.archipelago;
    if (a.interrupted) {
        say_how_to_resume(t, "pile-in", job.out_dir);
        return ExitInterrupted;
    }
    if (!root) return ExitOk;
    const pile_in::JobResult& j = r.job;
    if (common.json) {
        nlohmann::json out = pile_in::result_json(job, j);
        out["islands"] = islands::config_json(args.islands);
        out["ranks"] = t.size();
        out["best_island"] = a.best.from;
        std::cout << out.dump() << std::endl;
        return ExitOk;
    }
    std::printf(
        "best plan of %u island%s (island %u): %d of %d models in combat range, fitness "
        "%.2f (generation %u)\n",
        args.islands.count, plural_s(args.islands.count), a.best.from,
        j.rules ? j.in_range_count : j.best.breakdown.in_range_count,
        job.scenario.scenario.friendly_count, j.best.breakdown.fitness, j.best.generation);
    std::printf("%u generation%s x %u island%s x %llu plans in %.2f s (%s, %s, %d rank(s))\n",
                a.generation, plural_s(a.generation), args.islands.count,
                plural_s(args.islands.count), static_cast<unsigned long long>(job.ga.population),
                a.seconds, job.backend.name.c_str(), t.name().c_str(), t.size());
    std::printf(
        "results in %s/: best.json, picture.svg, generations.csv, islands.csv, "
        "islands.svg, migrations.csv, island-K/generations.csv, run.json\n",
        job.out_dir.c_str());
    return ExitOk;
}

}  // namespace

int run_pile_in(int argc, char** argv) {
    PileInArgs args = parse_pile_in_args(argc, argv);
    if (args.help) {
        std::cout << args.help_text << std::endl;
        return ExitOk;
    }
    if (!args.check.empty()) return run_check(args);
    if (auto transport = island_transport(args.use_islands, args.out_given))
        return run_pile_in_islands(args, *transport);
    pile_in::PileInJob& job = args.job;
    const CommonOptions& common = args.common;
    // The backend's note joins the run's first progress line, once every input is validated.
    job.backend = pile_in_backend(common);

    install_interrupt_handler();
    pile_in::JobResult r = pile_in::run_job(job);
    if (common.json) {
        std::cout << pile_in::result_json(job, r).dump() << std::endl;
    } else if (r.rules && job.solver == "greedy") {
        std::printf("greedy plan (%s): %d of %d model%s in combat range, %s\n", job.rules.c_str(),
                    r.in_range_count, job.scenario.scenario.friendly_count,
                    plural_s(job.scenario.scenario.friendly_count), r.legal ? "legal" : "ILLEGAL");
        std::printf("results in %s/: best.json, picture.svg, run.json\n", job.out_dir.c_str());
    } else {
        std::printf("best plan: %d of %d model%s in combat range, fitness %.2f (generation %u)\n",
                    r.rules ? r.in_range_count : r.best.breakdown.in_range_count,
                    job.scenario.scenario.friendly_count,
                    plural_s(job.scenario.scenario.friendly_count), r.best.breakdown.fitness,
                    r.best.generation);
        std::printf("%u generation%s x %llu plans in %.2f s (%.3g evaluations/s, %s)\n",
                    r.generations_done, plural_s(r.generations_done),
                    static_cast<unsigned long long>(job.ga.population), r.seconds,
                    r.evaluations_per_second, job.backend.name.c_str());
        std::printf("results in %s/: best.json, picture.svg, generations.csv, run.json\n",
                    job.out_dir.c_str());
        if (r.rules)
            std::printf("%s: GA %d of %d in range (%s) vs greedy %d (%s)\n", job.rules.c_str(),
                        r.in_range_count, job.scenario.scenario.friendly_count,
                        r.legal ? "legal" : "ILLEGAL", r.greedy_in_range_count,
                        r.greedy_legal ? "legal" : "ILLEGAL");
    }
    if (r.interrupted) {
        std::fprintf(stderr,
                     "gaeval pile-in: interrupted; resume with: gaeval pile-in --resume %s\n",
                     job.out_dir.c_str());
        return ExitInterrupted;
    }
    return ExitOk;
}

}  // namespace gaeval::cli
