#include "host/ga/pile_in_run.hpp"

#include <chrono>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "host/backend/pile_in_population.hpp"
#include "host/io/checkpoint.hpp"
#include "host/io/error.hpp"
#include "host/io/interrupt.hpp"
#include "host/io/json_fields.hpp"
#include "host/io/pile_in_output.hpp"

namespace gaeval::pile_in {

namespace fs = std::filesystem;

namespace {

std::string iso_time_now() {
    std::time_t t = std::time(nullptr);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
    return buf;
}

std::string format_duration(double seconds) {
    long s = static_cast<long>(seconds + 0.5);
    char buf[32];
    if (s >= 3600)
        std::snprintf(buf, sizeof buf, "%ld:%02ld:%02ld", s / 3600, s / 60 % 60, s % 60);
    else
        std::snprintf(buf, sizeof buf, "%ld:%02ld", s / 60, s % 60);
    return buf;
}

const char* kCsvHeader =
    "generation,best,mean,worst,best_in_range,evals_per_s,best_ever,seconds,evaluate_s,"
    "select_s,vary_s,statistics_s";

std::string csv_row(const GenerationReport& r, uint64_t population, float best_ever) {
    char buf[512];
    std::snprintf(buf, sizeof buf, "%u,%.9g,%.9g,%.9g,%d,%.6g,%.9g,%.6g,%.6g,%.6g,%.6g,%.6g",
                  r.generation, r.stats.best, r.stats.mean, r.stats.worst,
                  r.best_of_generation.in_range_count, r.seconds > 0 ? population / r.seconds : 0.0,
                  best_ever, r.seconds, r.phases.evaluate, r.phases.select, r.phases.vary,
                  r.phases.statistics);
    return buf;
}

// Keeps the CSV rows of generations before `next_generation` (a resumed run rewrites the rest).
void truncate_csv(const std::string& path, uint32_t next_generation) {
    std::ifstream in(path);
    std::vector<std::string> keep;
    std::string line;
    bool first = true;
    while (std::getline(in, line)) {
        if (first) {
            first = false;
            continue;
        }
        if (line.empty()) continue;
        if (std::stoul(line.substr(0, line.find(','))) < next_generation) keep.push_back(line);
    }
    std::ofstream out(path, std::ios::trunc);
    out << kCsvHeader << '\n';
    for (const auto& l : keep) out << l << '\n';
}

void prepare_out_dir(const std::string& dir) {
    std::error_code ec;
    fs::create_directories(dir, ec);
    if (ec) throw InputError("--out " + dir + ": cannot create directory: " + ec.message());
    const std::string probe = (fs::path(dir) / ".write-test").string();
    std::ofstream f(probe);
    if (!f) throw InputError("--out " + dir + ": directory is not writable");
    f.close();
    fs::remove(probe, ec);
}

nlohmann::json config_json(const PileInJob& job) {
    return {{"rules", job.rules},
            {"population", job.ga.population},
            {"generations", job.ga.generations},
            {"crossover", job.ga.crossover},
            {"mutation", job.ga.mutation},
            {"survivors", survivor_count(job.ga)},
            {"seed", job.ga.seed}};
}

Checkpoint make_checkpoint(const PileInJob& job, Engine& engine) {
    Checkpoint c;
    const BestPlan& best = engine.best();
    c.header = {{"kind", "pile-in"},
                {"fingerprint", job_fingerprint(job)},
                {"next_generation", engine.generation()},
                {"population", job.ga.population},
                {"genes", engine.population().gene_count()},
                {"best_valid", best.valid},
                {"best_generation", best.generation}};
    std::vector<uint32_t> genes;
    engine.population().read_genes(genes);
    c.put("population", genes);
    c.put("best", best.genes);
    return c;
}

}  // namespace

uint64_t job_fingerprint(const PileInJob& job) {
    nlohmann::json j = {{"scenario", scenario_to_json(job.scenario.scenario)},
                        {"rules", job.rules},
                        {"population", job.ga.population},
                        {"crossover", job.ga.crossover},
                        {"mutation", job.ga.mutation},
                        {"seed", job.ga.seed}};
    const std::string s = j.dump();
    uint64_t h = 0xcbf29ce484222325ull;
    for (unsigned char ch : s) {
        h ^= ch;
        h *= 0x100000001b3ull;
    }
    return h;
}

nlohmann::json result_json(const PileInJob& job, const JobResult& r) {
    return {{"fitness", r.best.breakdown.fitness},
            {"in_range_count", r.best.breakdown.in_range_count},
            {"model_count", job.scenario.scenario.friendly_count},
            {"generation_found", r.best.generation},
            {"generations", r.generations_done},
            {"population", job.ga.population},
            {"seed", job.ga.seed},
            {"backend", job.backend.name},
            {"seconds", r.seconds},
            {"evals_per_s", r.evaluations_per_second},
            {"interrupted", r.interrupted},
            {"out", job.out_dir}};
}

PileInJob job_from_run_folder(const std::string& dir) {
    const std::string path = (fs::path(dir) / "run.json").string();
    if (!fs::exists(path)) throw InputError("--resume " + dir + ": no run.json in that folder");
    nlohmann::json run = json_fields::read_file(path);
    try {
        if (run.at("kind") != "pile-in") throw InputError(path + ": not a pile-in run");
        PileInJob job;
        const auto& cfg = run.at("config");
        job.rules = cfg.at("rules").get<std::string>();
        job.ga.population = cfg.at("population").get<uint64_t>();
        job.ga.generations = cfg.at("generations").get<uint32_t>();
        job.ga.crossover = cfg.at("crossover").get<double>();
        job.ga.mutation = cfg.at("mutation").get<double>();
        job.ga.seed = cfg.at("seed").get<uint64_t>();
        const auto& sc = run.at("scenario");
        job.scenario.path = sc.at("path").get<std::string>();
        job.scenario.name = sc.at("name").get<std::string>();
        job.scenario.source = sc.at("source");
        job.scenario.scenario = parse_scenario(job.scenario.source, path + " (scenario)");
        job.scenario.units = job.scenario.source.at("units").get<std::string>();
        job.out_dir = dir;
        job.resume = true;
        return job;
    } catch (const nlohmann::json::exception& e) {
        throw InputError(path + ": not a readable run.json (" + std::string(e.what()) + ")");
    }
}

JobResult run_job(const PileInJob& job) {
    using clock = std::chrono::steady_clock;
    validate(job.ga);
    if (job.rules != "gapi1")
        throw InputError("--rules: unknown rules '" + job.rules + "' (expected gapi1)");
    prepare_out_dir(job.out_dir);
    const fs::path dir(job.out_dir);
    const std::string csv_path = (dir / "generations.csv").string();
    const std::string checkpoint_path = (dir / "checkpoint.bin").string();

    // Resume state is read and checked before anything in the folder changes.
    Checkpoint resume_from;
    if (job.resume) {
        resume_from = load_checkpoint(checkpoint_path);
        const auto& h = resume_from.header;
        if (h.value("kind", "") != "pile-in" ||
            h.value("fingerprint", uint64_t{0}) != job_fingerprint(job))
            throw InputError(checkpoint_path +
                             ": checkpoint is from a different configuration; not resuming");
    }

    auto population = make_population(job.backend, job.scenario.scenario, job.ga.population);
    Engine engine(job.scenario.scenario, job.ga, *population);
    if (job.resume) {
        std::vector<uint32_t> genes, best_genes;
        resume_from.get("population", genes, checkpoint_path);
        resume_from.get("best", best_genes, checkpoint_path);
        const auto& h = resume_from.header;
        if (genes.size() != job.ga.population * population->gene_count())
            throw InputError(checkpoint_path + ": corrupt checkpoint (population size)");
        BestPlan best;
        best.valid = h.at("best_valid").get<bool>();
        best.generation = h.at("best_generation").get<uint32_t>();
        best.genes = best_genes;
        if (best.valid)
            best.breakdown = gapi1_evaluate(job.scenario.scenario, GenomeGenes{best.genes.data()});
        engine.resume(h.at("next_generation").get<uint32_t>(), genes, best);
        truncate_csv(csv_path, engine.generation());
    } else {
        for (const char* stale : {"best.json", "picture.svg", "checkpoint.bin"})
            fs::remove(dir / stale);
        std::ofstream(csv_path, std::ios::trunc) << kCsvHeader << '\n';
        engine.start();
    }

    nlohmann::json run = {
        {"tool", "gaeval"},
        {"version", GAEVAL_VERSION},
        {"kind", "pile-in"},
        {"command", job.command_line},
        {"started", iso_time_now()},
        {"status", "running"},
        {"seed", job.ga.seed},
        {"config", config_json(job)},
        {"scenario",
         {{"path", job.scenario.path},
          {"name", job.scenario.name},
          {"source", job.scenario.source}}},
        {"backend",
         {{"name", job.backend.name},
          {"device", job.backend.device},
          {"threads", job.backend.kind == BackendKind::Cpu ? job.backend.threads : 0},
          {"note", job.backend.note}}},
        {"resumed_at_generation", job.resume ? engine.generation() : 0},
    };
    write_file_atomic((dir / "run.json").string(), run.dump(2) + "\n");

    if (!job.quiet)
        std::fprintf(stderr,
                     "gaeval pile-in: %s, %d v %d models, population %llu, %u generations, "
                     "%s (%s)\n",
                     job.scenario.name.c_str(), job.scenario.scenario.friendly_count,
                     job.scenario.scenario.enemy_count,
                     static_cast<unsigned long long>(job.ga.population), job.ga.generations,
                     job.backend.name.c_str(), job.backend.device.c_str());

    JobResult result;
    std::ofstream csv(csv_path, std::ios::app);
    const auto t_start = clock::now();
    auto t_checkpoint = t_start;
    const uint32_t first_generation = engine.generation();
    double evaluated = 0;
    while (!engine.done()) {
        GenerationReport r = engine.step();
        result.last = r.stats;
        evaluated += static_cast<double>(job.ga.population);
        csv << csv_row(r, job.ga.population, engine.best().breakdown.fitness) << '\n';
        csv.flush();
        const double elapsed = std::chrono::duration<double>(clock::now() - t_start).count();
        if (!job.quiet) {
            const uint32_t done = engine.generation() - first_generation;
            const double eta = elapsed / done * (job.ga.generations - engine.generation());
            std::fprintf(stderr,
                         "gen %5u/%u  best %10.2f (%d/%d in range)  mean %10.2f  worst %10.2f  "
                         "%9.3g evals/s  ETA %s\n",
                         r.generation + 1, job.ga.generations, r.stats.best,
                         r.best_of_generation.in_range_count, job.scenario.scenario.friendly_count,
                         r.stats.mean, r.stats.worst,
                         r.seconds > 0 ? job.ga.population / r.seconds : 0,
                         format_duration(eta).c_str());
        }
        const bool stop = interrupted();
        const double since = std::chrono::duration<double>(clock::now() - t_checkpoint).count();
        if (stop || (since >= job.checkpoint_every_seconds && !engine.done())) {
            save_checkpoint(make_checkpoint(job, engine), checkpoint_path);
            t_checkpoint = clock::now();
        }
        if (stop) {
            result.interrupted = true;
            break;
        }
    }
    if (!result.interrupted && job.checkpoint_at_end)
        save_checkpoint(make_checkpoint(job, engine), checkpoint_path);

    result.seconds = std::chrono::duration<double>(clock::now() - t_start).count();
    result.generations_done = engine.generation();
    result.best = engine.best();
    result.evaluations_per_second = result.seconds > 0 ? evaluated / result.seconds : 0;

    // Results: the best plan found in any generation.
    PlanReport plan = gapi1_report(job.scenario.scenario, result.best.genes);
    plan.title = job.scenario.name + " (" + job.rules + ")";
    char line[256];
    std::snprintf(line, sizeof line, "%d of %d models in combat range, fitness %.2f",
                  plan.breakdown.in_range_count, job.scenario.scenario.friendly_count,
                  plan.breakdown.fitness);
    plan.caption.push_back(line);
    std::snprintf(line, sizeof line,
                  "in range %+d, overlaps %+d, no friend %+d, distance %.2f mm  |  generation "
                  "%u of %u, population %llu, seed %llu, %s",
                  InRangePoints * plan.breakdown.in_range_count,
                  OverlapPoints * plan.breakdown.overlap_count,
                  IsolatedPoints * plan.breakdown.isolated_count, -plan.breakdown.distance_mm,
                  result.best.generation, result.generations_done,
                  static_cast<unsigned long long>(job.ga.population),
                  static_cast<unsigned long long>(job.ga.seed), job.backend.name.c_str());
    plan.caption.push_back(line);
    nlohmann::json best = plan_json(job.scenario.scenario, plan);
    best["generation"] = result.best.generation;
    best["scenario"] = job.scenario.name;
    best["rules"] = job.rules;
    write_file_atomic((dir / "best.json").string(), best.dump(2) + "\n");
    write_file_atomic((dir / "picture.svg").string(), plan_svg(job.scenario.scenario, plan));

    run["status"] = result.interrupted ? "interrupted" : "complete";
    run["finished"] = iso_time_now();
    run["result"] = result_json(job, result);
    write_file_atomic((dir / "run.json").string(), run.dump(2) + "\n");
    return result;
}

}  // namespace gaeval::pile_in
