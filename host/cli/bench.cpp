// gaeval bench: throughput tables (backend x workload x size) with ratios measured side by
// side in one run, and a results signature every backend must reproduce.
#include <sys/resource.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "bench/report.hpp"
#include "bench/workloads.hpp"
#include "host/backend/backend.hpp"
#include "host/cli/commands.hpp"
#include "host/cli/common.hpp"
#include "host/core/deprecation.hpp"
#include "host/core/error.hpp"
#include "host/games/registry.hpp"

namespace gaeval::cli {

namespace {

std::vector<uint64_t> parse_counts(const std::string& text, const std::string& flag) {
    std::vector<uint64_t> out;
    for (const std::string& item : split_list(text, flag)) {
        char* end = nullptr;
        double v = std::strtod(item.c_str(), &end);
        if (end == item.c_str() || *end != '\0' || !(v >= 1) || v > 1e12 || v != std::floor(v))
            throw InputError(flag + ": '" + item + "' is not a positive whole number");
        out.push_back(static_cast<uint64_t>(v));
    }
    return out;
}

// InputError naming the flag when `path` cannot be written; leaves no new file behind.
void check_writable(const std::string& path, const std::string& flag) {
    std::error_code ec;
    const bool existed = std::filesystem::exists(path, ec);
    if (std::filesystem::is_directory(path, ec))
        throw InputError(flag + " " + path + ": is a folder, not a file");
    {
        std::ofstream f(path, std::ios::app);
        if (!f) throw InputError(flag + " " + path + ": cannot write");
    }
    if (!existed) std::filesystem::remove(path, ec);
}

void write_text(const std::string& path, const std::string& text, const std::string& flag) {
    std::ofstream f(path);
    if (!f) throw InputError(flag + " " + path + ": cannot write");
    f << text;
}

}  // namespace

namespace {

cxxopts::Options bench_options() {
    cxxopts::Options options("gaeval bench",
                             "Throughput benchmarks: a table of backend x workload x size with "
                             "ratios measured\nside by side, and a 64-bit signature over all "
                             "computed results (the same on every backend).\nWith no arguments: "
                             "the fixed default workload (about a minute on the CPU).");
    options.add_options()("what", "workloads, comma-separated (default: all)",
                          cxxopts::value<std::string>())(
        "backend",
        "backends: cpu1 (one thread), cpu (all cores), cuda "
        "(default: cpu1,cpu and cuda when a GPU is present)",
        cxxopts::value<std::string>())("population", "population sizes, e.g. 1e3,1e6",
                                       cxxopts::value<std::string>())(
        "models", "unit sizes for pile-in (N v N), e.g. 10,20,40", cxxopts::value<std::string>())(
        "positions",
        "perft positions separated by ';': case names, GAME|key=value,...|depth, board|fen|depth",
        cxxopts::value<std::string>())(
        "game",
        "games of the perft, playout and tournament workloads, comma-separated "
        "(default: ataxx)",
        cxxopts::value<std::string>())("games", "old spelling of --game",
                                       cxxopts::value<std::string>())(
        "max-seconds", "time budget per row", cxxopts::value<double>()->default_value("2"))(
        "max-noise", "stop sampling below this relative noise",
        cxxopts::value<double>()->default_value("0.03"))("min-samples", "samples per row at least",
                                                         cxxopts::value<int>()->default_value("5"))(
        "csv", "also write the table as CSV to this file", cxxopts::value<std::string>())(
        "json", "also write the table as JSON to this file", cxxopts::value<std::string>())(
        "markdown", "also write the markdown report to this file", cxxopts::value<std::string>())(
        "signature", "compute the default results once and print only the signature")(
        "list", "list the workloads")("h,help", "print this help");
    return options;
}

// --what: the chosen workloads, in the order given (default: all but the opt-in ones).
std::vector<bench::Workload> chosen_workloads(const cxxopts::ParseResult& result,
                                              const std::vector<bench::Workload>& workloads) {
    std::vector<bench::Workload> chosen;
    if (result.count("what")) {
        for (const std::string& name : split_list(result["what"].as<std::string>(), "--what")) {
            bool found = false;
            for (const auto& w : workloads) {
                if (w.name == name) {
                    chosen.push_back(w);
                    found = true;
                }
            }
            if (!found) {
                std::string names;
                for (const auto& w : workloads) names += (names.empty() ? "" : ", ") + w.name;
                throw InputError("--what: unknown workload '" + name + "' (available: " + names +
                                 ")");
            }
        }
    } else {
        for (const auto& w : workloads)
            if (!w.opt_in) chosen.push_back(w);
    }

    return chosen;
}

// --backend: cpu1, cpu and cuda (default: cpu1,cpu and cuda when a GPU is present).
std::vector<std::string> chosen_backends(const cxxopts::ParseResult& result) {
    std::vector<std::string> backends;
    if (result.count("backend")) {
        backends = split_list(result["backend"].as<std::string>(), "--backend");
        for (const std::string& b : backends) {
            if (b != "cpu1" && b != "cpu" && b != "cuda")
                throw InputError("--backend: unknown backend '" + b +
                                 "' (expected cpu1, cpu or cuda)");
            std::string reason;
            if (b == "cuda" && !cuda_device_present(&reason))
                throw InputError("--backend cuda: " + reason);
        }
    } else {
        backends = {"cpu1", "cpu"};
        if (cuda_device_present()) backends.push_back("cuda");
    }

    return backends;
}

bench::Settings bench_settings(const cxxopts::ParseResult& result) {
    bench::Settings settings;
    settings.max_seconds = result["max-seconds"].as<double>();
    settings.max_noise = result["max-noise"].as<double>();
    if (!(settings.max_seconds > 0)) throw InputError("--max-seconds: must be > 0");
    if (!(settings.max_noise > 0)) throw InputError("--max-noise: must be > 0");
    settings.min_samples = result["min-samples"].as<int>();
    if (settings.min_samples < 1 || settings.min_samples > 1000)
        throw InputError("--min-samples: must be 1 to 1000");
    settings.max_samples = std::max(settings.max_samples, settings.min_samples);
    return settings;
}

// One workload's axes: its defaults, overridden by --population, --models, --game, --positions.
bench::Axes workload_axes(const bench::Workload& w, const cxxopts::ParseResult& result,
                          const bench::Settings& settings, const std::vector<std::string>& backends,
                          bool signature_only) {
    bench::Axes axes = w.defaults;
    axes.backends = signature_only ? std::vector<std::string>{"cpu"} : backends;
    axes.settings = settings;
    axes.signature_only = signature_only;
    if (result.count("population")) {
        axes.populations = parse_counts(result["population"].as<std::string>(), "--population");
        axes.cuda_extra_populations.clear();
    }
    if (result.count("models")) {
        axes.models.clear();
        for (uint64_t m : parse_counts(result["models"].as<std::string>(), "--models"))
            axes.models.push_back(static_cast<int>(m));
    }
    if (result.count("game") && result.count("games"))
        throw InputError("--games is the old spelling of --game: give one of them");
    for (const char* flag : {"game", "games"}) {
        if (!result.count(flag)) continue;
        if (flag[4] == 's')
            note_deprecated(
                "--games LIST in bench is now --game LIST (--games counts games "
                "in play)");
        axes.games = split_list(result[flag].as<std::string>(), std::string("--") + flag);
        for (const std::string& g : axes.games) games::find_game(g);
    }
    if (result.count("positions")) {
        axes.positions.clear();
        std::string text = result["positions"].as<std::string>();
        std::size_t start = 0;
        while (start <= text.size()) {
            std::size_t semi = text.find(';', start);
            std::string item = text.substr(start, semi == std::string::npos ? semi : semi - start);
            if (!item.empty()) axes.positions.push_back(item);
            if (semi == std::string::npos) break;
            start = semi + 1;
        }
    }
    return axes;
}

// The report on stdout and in the files asked for; a row whose results differ between
// backends is one stderr line each, and exit ExitDiffers.
int report_rows(std::vector<bench::Row>& rows, uint64_t signature,
                const cxxopts::ParseResult& result, int argc, char** argv) {
    bench::fill_ratios(rows);
    struct rusage usage {};
    getrusage(RUSAGE_SELF, &usage);
    const bench::MachineInfo machine = bench::describe_machine(joined_command_line(argc, argv));
    const std::string report = bench::markdown(machine, rows, signature);
    std::cout << report;
    std::printf("peak host memory (whole run): %.1f MiB\n", usage.ru_maxrss / 1024.0);
    if (result.count("markdown"))
        write_text(result["markdown"].as<std::string>(), report, "--markdown");
    if (result.count("csv")) write_text(result["csv"].as<std::string>(), bench::csv(rows), "--csv");
    if (result.count("json"))
        write_text(result["json"].as<std::string>(),
                   bench::to_json(machine, rows, signature).dump(2) + "\n", "--json");
    int mismatches = 0;
    for (const bench::Row& r : rows) {
        if (!r.mismatch) continue;
        ++mismatches;
        std::fprintf(stderr, "gaeval bench: %s %s on %s: %s\n", r.workload.c_str(), r.size.c_str(),
                     r.backend.c_str(), r.note.c_str());
    }
    return mismatches ? ExitDiffers : ExitOk;
}

}  // namespace

int run_bench(int argc, char** argv) {
    cxxopts::Options options = bench_options();
    auto result = parse(options, argc, argv);
    if (result.count("help")) {
        std::cout << options.help() << std::endl;
        return ExitOk;
    }
    std::vector<bench::Workload> workloads = bench::all_workloads();
    if (result.count("list")) {
        for (const auto& w : workloads)
            std::printf("%-14s %s\n", w.name.c_str(), w.summary.c_str());
        return ExitOk;
    }
    const std::vector<bench::Workload> chosen = chosen_workloads(result, workloads);
    const std::vector<std::string> backends = chosen_backends(result);
    const bench::Settings settings = bench_settings(result);
    const bool signature_only = result.count("signature") > 0;

    if (result.count("population"))
        for (const bench::Workload& w : chosen)
            if (w.name == "tournament")
                for (uint64_t n :
                     parse_counts(result["population"].as<std::string>(), "--population"))
                    if (n < 2 || n > 4096)
                        throw InputError("--population " + std::to_string(n) +
                                         ": the tournament workload takes 2 to 4096 members");

    // Output files are checked before a benchmark runs (a minute lost to an unwritable path).
    for (const char* flag : {"csv", "json", "markdown"})
        if (result.count(flag))
            check_writable(result[flag].as<std::string>(), std::string("--") + flag);

    std::vector<bench::Row> rows;
    uint64_t signature = kFnvOffset;
    for (const bench::Workload& w : chosen) {
        const bench::Axes axes = workload_axes(w, result, settings, backends, signature_only);
        if (!signature_only) std::fprintf(stderr, "bench: %s ...\n", w.name.c_str());
        w.run(axes, rows, &signature);
    }
    if (signature_only) {
        std::printf("signature: %016llx\n", static_cast<unsigned long long>(signature));
        return ExitOk;
    }
    return report_rows(rows, signature, result, argc, argv);
}

}  // namespace gaeval::cli
