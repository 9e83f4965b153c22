// gaeval pile-in: evolve the moves of a unit piling in (GAPI1), on the GPU or the CPU.
#include <cstdio>
#include <iostream>

#include "host/cli/commands.hpp"
#include "host/cli/common.hpp"
#include "host/cli/pile_in_args.hpp"
#include "host/ga/pile_in_run.hpp"
#include "host/io/error.hpp"
#include "host/io/interrupt.hpp"

namespace gaeval::cli {

PileInArgs parse_pile_in_args(int argc, char** argv) {
    PileInArgs args;
    cxxopts::Options options("gaeval pile-in",
                             "Evolve one move per model so that as many models as possible end "
                             "in combat range,\nwithout overlapping bases or breaking coherency "
                             "(GAPI1 fitness and scheme).");
    options.add_options()("scenario", "scenario JSON file (see scenarios/)",
                          cxxopts::value<std::string>())(
        "rules", "rules preset: gapi1", cxxopts::value<std::string>()->default_value("gapi1"))(
        "population", "plans per generation", cxxopts::value<uint64_t>()->default_value("200"))(
        "generations", "generations to evaluate", cxxopts::value<uint32_t>()->default_value("500"))(
        "crossover", "share eliminated each generation and refilled by children",
        cxxopts::value<double>()->default_value("0.8"))(
        "mutation", "per-gene probability of a fresh random move",
        cxxopts::value<double>()->default_value("0.2"))(
        "out", "run folder for run.json, generations.csv, best.json, picture.svg",
        cxxopts::value<std::string>()->default_value("runs/pile-in"))(
        "resume",
        "continue the interrupted (or finished) run in this folder; "
        "--generations may raise its length",
        cxxopts::value<std::string>())("checkpoint-every",
                                       "seconds between checkpoints (0: every generation)",
                                       cxxopts::value<double>()->default_value("60"))(
        "no-checkpoint", "write no checkpoint at the end of the run")(
        "quiet", "no progress lines on stderr");
    add_common_options(options);
    auto result = parse(options, argc, argv);
    if (result.count("help")) {
        args.help = true;
        args.help_text = options.help();
        return args;
    }
    const CommonOptions common = read_common(result);
    args.common = common;
    pile_in::PileInJob& job = args.job;
    if (result.count("resume")) {
        for (const char* fixed :
             {"scenario", "rules", "population", "crossover", "mutation", "seed", "out"}) {
            if (result.count(fixed))
                throw InputError(std::string("--resume: --") + fixed +
                                 " is fixed by the run being resumed; leave it out");
        }
        job = pile_in::job_from_run_folder(result["resume"].as<std::string>());
        if (result.count("generations")) job.ga.generations = result["generations"].as<uint32_t>();
    } else {
        if (!result.count("scenario")) throw InputError("--scenario FILE is required");
        job.scenario = pile_in::load_scenario(result["scenario"].as<std::string>());
        job.rules = result["rules"].as<std::string>();
        job.ga.population = result["population"].as<uint64_t>();
        job.ga.generations = result["generations"].as<uint32_t>();
        job.ga.crossover = result["crossover"].as<double>();
        job.ga.mutation = result["mutation"].as<double>();
        job.ga.seed = common.seed;
        job.out_dir = result["out"].as<std::string>();
    }
    job.checkpoint_every_seconds = result["checkpoint-every"].as<double>();
    if (job.checkpoint_every_seconds < 0)
        throw InputError("--checkpoint-every: must be >= 0 seconds");
    job.checkpoint_at_end = result.count("no-checkpoint") == 0;
    job.quiet = result.count("quiet") > 0;
    job.command_line = joined_command_line(argc, argv);
    pile_in::validate(job.ga);
    return args;
}

int run_pile_in(int argc, char** argv) {
    PileInArgs args = parse_pile_in_args(argc, argv);
    if (args.help) {
        std::cout << args.help_text << std::endl;
        return ExitOk;
    }
    pile_in::PileInJob& job = args.job;
    const CommonOptions& common = args.common;
    job.backend = resolve_backend(common.backend, common.threads);
    if (!job.quiet)
        std::fprintf(stderr, "gaeval pile-in: backend %s (%s)\n", job.backend.name.c_str(),
                     job.backend.note.c_str());

    install_interrupt_handler();
    pile_in::JobResult r = pile_in::run_job(job);
    if (common.json) {
        std::cout << pile_in::result_json(job, r).dump() << std::endl;
    } else {
        std::printf("best plan: %d of %d models in combat range, fitness %.2f (generation %u)\n",
                    r.best.breakdown.in_range_count, job.scenario.scenario.friendly_count,
                    r.best.breakdown.fitness, r.best.generation);
        std::printf("%u generations x %llu plans in %.2f s (%.3g evaluations/s, %s)\n",
                    r.generations_done, static_cast<unsigned long long>(job.ga.population),
                    r.seconds, r.evaluations_per_second, job.backend.name.c_str());
        std::printf("results in %s/: best.json, picture.svg, generations.csv, run.json\n",
                    job.out_dir.c_str());
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
