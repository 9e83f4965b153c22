// gaeval: genetic algorithms for game AI at GPU scale. Dispatches to one subcommand.
#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <iostream>
#include <string>

#include "host/cli/commands.hpp"
#include "host/core/deprecation.hpp"
#include "host/core/error.hpp"
#include "host/core/interrupt.hpp"

namespace {

struct Command {
    const char* name;
    int (*run)(int, char**);
    const char* summary;
};

const Command kCommands[] = {
    {"games", gaeval::cli::run_games, "list the registered games and what each supports"},
    {"pile-in", gaeval::cli::run_pile_in, "evolve an Age of Sigmar pile-in (GAPI1 or rules)"},
    {"perft", gaeval::cli::run_perft, "count the leaves of a game's move tree"},
    {"play", gaeval::cli::run_play, "play a batch of games between two players"},
    {"learn", gaeval::cli::run_learn, "learn player weights by tournaments"},
    {"bench", gaeval::cli::run_bench, "throughput benchmarks (table: cpu1, cpu, cuda)"},
    {"compare", gaeval::cli::run_compare, "run a job on two backends and diff the results"},
    {"gomocup", gaeval::cli::run_gomocup, "a Gomoku brain for Gomocup managers (pbrain protocol)"},
    {"uai", gaeval::cli::run_uai, "an Ataxx engine for UAI tournament managers"},
    {"pac-bot", gaeval::cli::run_pac_bot, "play Pac-Man in the Spring Challenge 2020 referee"},
};

void usage(std::FILE* out) {
    std::fprintf(out, "gaeval %s: genetic algorithms for game AI, CPU and CUDA backends\n\n",
                 GAEVAL_VERSION);
    std::fprintf(out, "usage: gaeval <command> [flags]   (gaeval <command> --help for flags)\n\n");
    for (const auto& c : kCommands) std::fprintf(out, "  %-9s %s\n", c.name, c.summary);
    if (!GAEVAL_HAVE_CUDA)
        std::fprintf(out,
                     "\nThis gaeval was built without the CUDA backend (GAEVAL_CUDA=OFF): "
                     "every command runs on the cpu backend.\n");
}

}  // namespace

// OpenMP threads that spin without end while they wait slow everything down on a shared
// machine (a run of 75 us per generation took 48 ms beside four busy processes), and so does
// libgomp's default spin of 300000 rounds; threads that sleep at once (the passive policy) pay
// a wake-up at every parallel region, up to 0.4 ms on the 2-core KVM machine, which cost
// short batches a fifth of their 2-thread speed. A short spin of 30000 rounds (tens of
// microseconds) was the best of both, idle and beside four busy processes
// (bench/results/cpu-omp-wait-policy.md). The runtime reads its wait settings once, when it is
// loaded, so a process without an explicit setting restarts itself with that spin count;
// OMP_WAIT_POLICY or GOMP_SPINCOUNT set by the user win.
void prefer_short_spins(char** argv) {
    if (std::getenv("OMP_WAIT_POLICY") || std::getenv("GOMP_SPINCOUNT")) return;
    setenv("GOMP_SPINCOUNT", "30000", 1);
    execv("/proc/self/exe", argv);  // returns only on failure: run on as we are
}

int main(int argc, char** argv) {
    prefer_short_spins(argv);
    // A write past the file size limit fails with an error (reported as one line) instead of
    // killing the process, so that a run folder is never left half written.
    std::signal(SIGXFSZ, SIG_IGN);
    if (argc < 2) {
        usage(stderr);
        return gaeval::ExitBadInput;
    }
    const std::string name = argv[1];
    if (name == "-h" || name == "--help" || name == "help") {
        usage(stdout);
        return gaeval::ExitOk;
    }
    if (name == "--version" || name == "version") {
        std::printf("gaeval %s\n", GAEVAL_VERSION);
        return gaeval::ExitOk;
    }
    for (const auto& c : kCommands) {
        if (name != c.name) continue;
        gaeval::install_interrupt_handler();
        try {
            const int code = c.run(argc - 1, argv + 1);
            gaeval::print_deprecations(c.name);  // old flag spellings, once the command ran
            return code;
        } catch (const gaeval::Interrupted& e) {
            std::fprintf(stderr, "gaeval %s: interrupted: %s\n", c.name, e.what());
            return gaeval::ExitInterrupted;
        } catch (const gaeval::InputError& e) {
            std::fprintf(stderr, "gaeval %s: error: %s\n", c.name, e.what());
            return gaeval::ExitBadInput;
        } catch (const std::exception& e) {
            std::fprintf(stderr, "gaeval %s: internal error: %s\n", c.name, e.what());
            return gaeval::ExitInternal;
        }
    }
    std::fprintf(stderr, "gaeval: error: unknown command '%s' (try gaeval --help)\n", name.c_str());
    return gaeval::ExitBadInput;
}
