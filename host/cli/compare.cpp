// gaeval compare [--a SPEC] [--b SPEC] <subcommand and its flags>: runs the same job on two
// backends in lockstep and reports "identical" or the first generation, individual and field
// that differs, with both values. Exit 0 when identical, 3 when not.
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "host/backend/backend.hpp"
#include "host/cli/commands.hpp"
#include "host/cli/learn_args.hpp"
#include "host/cli/perft_args.hpp"
#include "host/cli/pile_in_args.hpp"
#include "host/compare/games.hpp"
#include "host/core/error.hpp"
#include "host/pile_in/compare.hpp"

namespace gaeval::cli {

namespace {

const char* kUsage =
    "usage: gaeval compare [--a SPEC] [--b SPEC] [--json] <subcommand> [its flags]\n"
    "  SPEC: cpu (all cores), cpu:N (N threads) or cuda\n"
    "  defaults: --a cuda when a GPU is present, else cpu:1; --b cpu\n"
    "  subcommands: pile-in (genes, fitness, ranking and statistics of every generation),\n"
    "               perft (the subtree count of every root move),\n"
    "               learn (every game of every generation's batches, then every member's\n"
    "               weights and value, then the verification games; with --problem every\n"
    "               evaluation's fitness, then every member's genes and value)\n"
    "Runs the job on both backends in lockstep and compares every array bit for bit after\n"
    "every phase; exit 0 when identical, 3 at the first difference.\n";

BackendChoice backend_from_spec(const std::string& spec, const std::string& flag) {
    if (spec == "cuda") return resolve_backend("cuda", 0);
    if (spec == "cpu") return resolve_backend("cpu", 0);
    if (spec.rfind("cpu:", 0) == 0) {
        const std::string n = spec.substr(4);
        char* end = nullptr;
        long threads = std::strtol(n.c_str(), &end, 10);
        if (n.empty() || *end != '\0' || threads < 1 || threads > 4096)
            throw InputError(flag + ": bad thread count in '" + spec + "'");
        return resolve_backend("cpu", static_cast<int>(threads));
    }
    throw InputError(flag + ": unknown backend '" + spec + "' (expected cpu, cpu:N or cuda)");
}

std::string label(const std::string& spec, const BackendChoice& b) {
    return b.kind == BackendKind::Cpu ? "cpu:" + std::to_string(b.threads) : spec;
}

}  // namespace

int run_compare(int argc, char** argv) {
    std::string spec_a = cuda_device_present() ? "cuda" : "cpu:1";
    std::string spec_b = "cpu";
    bool json = false;
    int i = 1;
    for (; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "-h" || arg == "--help") {
            std::cout << kUsage;
            return ExitOk;
        } else if (arg == "--a" || arg == "--b") {
            if (i + 1 >= argc) throw InputError(arg + ": missing value");
            (arg == "--a" ? spec_a : spec_b) = argv[++i];
        } else if (arg == "--json") {
            json = true;
        } else if (arg.rfind("--", 0) == 0) {
            throw InputError("unknown flag '" + arg + "' before the subcommand (" +
                             "compare's flags: --a, --b, --json)");
        } else {
            break;
        }
    }
    if (i >= argc) throw InputError("which subcommand? e.g. gaeval compare pile-in --scenario F");
    const std::string sub = argv[i];
    for (int k = i + 1; k < argc; ++k) {
        const std::string arg = argv[k];
        for (const char* flag : {"--out", "--resume", "--record"})
            if (arg == flag || arg.rfind(std::string(flag) + "=", 0) == 0)
                throw InputError(std::string(flag) +
                                 ": compare writes no run folder (it runs the job twice in "
                                 "memory); leave it out");
    }
    const BackendChoice a = backend_from_spec(spec_a, "--a");
    const BackendChoice b = backend_from_spec(spec_b, "--b");

    Difference d;
    std::string job_text;
    std::string compared = "genes, fitness, ranking and statistics of every generation";
    if (sub == "pile-in") {
        PileInArgs args = parse_pile_in_args(argc - i, argv + i);
        if (args.help) {
            std::cout << args.help_text << std::endl;
            return ExitOk;
        }
        if (args.use_islands)
            throw InputError("compare pile-in: --islands is not compared (compare one island)");
        json = json || args.common.json;
        d = compare_pile_in(args.job, args.job, a, b);
        job_text = "pile-in, " + std::to_string(args.job.ga.generations) + " generations x " +
                   std::to_string(args.job.ga.population) + " plans";
    } else if (sub == "perft") {
        PerftArgs args = parse_perft_args(argc - i, argv + i);
        if (args.help) {
            std::cout << args.help_text << std::endl;
            return ExitOk;
        }
        json = json || args.common.json;
        d = compare_perft(*args.session, args.depth, a, b);
        compared = "subtree count of every root move";
        job_text = "perft depth " + std::to_string(args.depth) + " (" +
                   std::to_string(d.generations_compared) + " root moves)";
    } else if (sub == "learn") {
        LearnArgs args = parse_learn_args(argc - i, argv + i);
        if (args.help) {
            std::cout << args.help_text << std::endl;
            return ExitOk;
        }
        if (args.use_islands)
            throw InputError("compare learn: --islands is not compared (compare one island)");
        json = json || args.common.json;
        d = compare_learn(args.job, args.job, a, b);
        const bool problem = !args.job.config.problem.empty();
        compared = problem ? "every fitness, gene and value of every generation"
                           : "every game, weight and value of every generation, and the "
                             "verification games";
        job_text = "learn " + args.job.config.scheme +
                   (problem ? " on " + args.job.config.problem : "") + ", " +
                   std::to_string(args.job.config.generations) + " generations x " +
                   std::to_string(args.job.config.population) + " members";
    } else {
        throw InputError("compare: unknown or unsupported subcommand '" + sub +
                         "' (supported: pile-in, perft, learn)");
    }

    const std::string la = label(spec_a, a), lb = label(spec_b, b);
    if (json) {
        nlohmann::json j = {{"identical", d.identical}, {"a", la}, {"b", lb}, {"job", job_text}};
        if (!d.identical)
            j.update({{"generation", d.generation},
                      {"individual", d.individual},
                      {"field", d.field},
                      {"a_value", d.a_value},
                      {"b_value", d.b_value}});
        std::cout << j.dump() << std::endl;
    } else if (d.identical) {
        std::printf("identical: %s, %s vs %s (%s, bit for bit)\n", job_text.c_str(), la.c_str(),
                    lb.c_str(), compared.c_str());
    } else {
        std::printf(
            "differs: %s, %s vs %s\n  first difference: generation %u, individual %llu, "
            "%s\n  %s: %s\n  %s: %s\n",
            job_text.c_str(), la.c_str(), lb.c_str(), d.generation,
            static_cast<unsigned long long>(d.individual), d.field.c_str(), la.c_str(),
            d.a_value.c_str(), lb.c_str(), d.b_value.c_str());
    }
    return d.identical ? ExitOk : ExitDiffers;
}

}  // namespace gaeval::cli
