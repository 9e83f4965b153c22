#include "host/pile_in/run.hpp"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>

#include "host/core/error.hpp"
#include "host/core/interrupt.hpp"
#include "host/core/progress.hpp"
#include "host/io/checkpoint.hpp"
#include "host/io/json_fields.hpp"
#include "host/io/run_folder.hpp"
#include "host/pile_in/output.hpp"
#include "host/pile_in/population.hpp"
#include "host/pile_in/rules.hpp"
#include "host/pile_in/validator.hpp"
#include "problems/pile_in/greedy.hpp"

namespace gaeval::pile_in {

namespace fs = std::filesystem;

namespace {

// Keeps the CSV rows of generations before `next_generation` (a resumed run rewrites the rest).
// A row cut short by a killed run (no comma after its generation) is dropped; the file is
// replaced atomically, so a run killed here keeps the rows it had.
void truncate_csv(const std::string& path, uint32_t next_generation) {
    std::ifstream in(path);
    std::string text = std::string(kGenerationsCsvHeader) + '\n';
    std::string line;
    bool first = true;
    while (std::getline(in, line)) {
        if (first) {
            first = false;
            continue;
        }
        char* end = nullptr;
        const unsigned long generation = std::strtoul(line.c_str(), &end, 10);
        if (end == line.c_str() || *end != ',') continue;
        if (generation < next_generation) text += line + '\n';
    }
    io::write_text_atomic(path, text);
}

nlohmann::json config_json(const PileInJob& job, const RulesProblem* problem) {
    nlohmann::json j = {{"rules", job.rules},
                        {"population", job.ga.population},
                        {"generations", job.ga.generations},
                        {"crossover", job.ga.crossover},
                        {"mutation", job.ga.mutation},
                        {"survivors", survivor_count(job.ga)},
                        {"seed", job.ga.seed}};
    if (job.solver != "ga") j["solver"] = job.solver;
    if (any_override(job.overrides)) j["rule_flags"] = overrides_json(job.overrides);
    if (problem) j["rules_config"] = rules_json(job.rules, *problem);
    return j;
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
    // Rules presets: everything the resolved rules depend on (file fields, flags).
    if (job.rules != "gapi1")
        j["rules_config"] =
            rules_json(job.rules, build_rules_problem(job.rules, job.scenario, job.overrides));
    else if (any_override(job.overrides))
        j["rule_flags"] = overrides_json(job.overrides);
    const std::string s = j.dump();
    uint64_t h = 0xcbf29ce484222325ull;
    for (unsigned char ch : s) {
        h ^= ch;
        h *= 0x100000001b3ull;
    }
    return h;
}

nlohmann::json result_json(const PileInJob& job, const JobResult& r) {
    nlohmann::json j = {{"fitness", r.best.breakdown.fitness},
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
    if (r.rules) {
        j["rules"] = job.rules;
        j["solver"] = job.solver;
        j["legal"] = r.legal;
        j["in_range_count"] = r.in_range_count;
        j["violations"] = r.violations.size();
        j["greedy_in_range_count"] = r.greedy_in_range_count;
        j["greedy_legal"] = r.greedy_legal;
    }
    return j;
}

PileInJob job_from_run_folder(const std::string& dir) {
    io::check_run_folder_kind(dir, "pile-in");
    const std::string path = (fs::path(dir) / "run.json").string();
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
        job.solver = cfg.value("solver", std::string("ga"));
        if (cfg.contains("rule_flags")) job.overrides = overrides_from_json(cfg.at("rule_flags"));
        const auto& sc = run.at("scenario");
        job.scenario = scenario_file_from_json(sc.at("source"), sc.at("path").get<std::string>(),
                                               path + " (scenario)");
        job.scenario.name = sc.at("name").get<std::string>();
        job.out_dir = dir;
        job.resume = true;
        return job;
    } catch (const nlohmann::json::exception& e) {
        throw InputError(path + ": not a readable run.json (" + std::string(e.what()) + ")");
    }
}

namespace {

// The plan's verdict and its report (best.json object, picture) for a rules preset.
struct RulesOutcome {
    Verdict verdict;
    PlanReport plan;
};

RulesOutcome judge(const RulesProblem& problem, const std::vector<uint32_t>& genes) {
    RulesOutcome o;
    o.verdict = validate_plan(problem, genes);
    o.plan = rules_report(problem, genes, o.verdict);
    return o;
}

std::vector<uint32_t> greedy_genes(const RulesProblem& problem) {
    std::vector<uint32_t> genes(problem.layout.words);
    greedy_plan(problem, genes.data());
    return genes;
}

// Writes best.json and picture.svg for a rules plan; `solver_line` ends the caption.
void write_rules_results(const PileInJob& job, const RulesProblem& problem, const RulesOutcome& o,
                         const std::string& solver_line, const nlohmann::json& extra) {
    const fs::path dir(job.out_dir);
    PlanReport plan = o.plan;
    plan.title = job.scenario.name + " (" + job.rules + ")";
    char line[256];
    std::snprintf(line, sizeof line, "%d of %d model%s in combat range, %s",
                  o.verdict.in_range_count, problem.scenario.friendly_count,
                  plural_s(problem.scenario.friendly_count),
                  o.verdict.legal ? "legal" : "ILLEGAL (see best.json: violations)");
    plan.caption.push_back(line);
    plan.caption.push_back(solver_line);
    nlohmann::json best = rules_plan_json(problem, plan, o.verdict);
    for (auto it = extra.begin(); it != extra.end(); ++it) best[it.key()] = it.value();
    best["scenario"] = job.scenario.name;
    best["rules"] = job.rules;
    best["rules_config"] = rules_json(job.rules, problem);
    write_file_atomic((dir / "best.json").string(), best.dump(2) + "\n");
    write_file_atomic((dir / "picture.svg").string(), plan_svg(problem.scenario, plan));
}

nlohmann::json run_manifest(const PileInJob& job, const RulesProblem* problem,
                            uint32_t resumed_at) {
    return {
        {"tool", "gaeval"},
        {"version", GAEVAL_VERSION},
        {"kind", "pile-in"},
        {"command", job.command_line},
        {"started", iso_time_now()},
        {"status", "running"},
        {"seed", job.ga.seed},
        {"config", config_json(job, problem)},
        {"scenario",
         {{"path", job.scenario.path},
          {"name", job.scenario.name},
          {"source", job.scenario.source}}},
        {"backend",
         {{"name", job.backend.name},
          {"device", job.backend.device},
          {"threads", job.backend.kind == BackendKind::Cpu ? job.backend.threads : 0},
          {"note", job.backend.note}}},
        {"resumed_at_generation", resumed_at},
    };
}

// --solver greedy: the baseline alone (no generations, no checkpoint).
JobResult run_greedy_job(const PileInJob& job, const RulesProblem& problem) {
    const fs::path dir(job.out_dir);
    for (const char* stale : {"best.json", "picture.svg", "checkpoint.bin", "generations.csv"})
        fs::remove(dir / stale);
    nlohmann::json run = run_manifest(job, &problem, 0);
    write_file_atomic((dir / "run.json").string(), run.dump(2) + "\n");
    const auto t0 = std::chrono::steady_clock::now();
    JobResult result;
    result.rules = true;
    result.best.valid = true;
    result.best.genes = greedy_genes(problem);
    result.best.breakdown = score_plan(problem.scenario, &problem, result.best.genes);
    result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const RulesOutcome o = judge(problem, result.best.genes);
    result.legal = o.verdict.legal;
    result.in_range_count = o.verdict.in_range_count;
    result.violations = o.verdict.violations;
    result.greedy_in_range_count = o.verdict.in_range_count;
    result.greedy_legal = o.verdict.legal;
    write_rules_results(job, problem, o, "greedy baseline: closest model first, straight in",
                        {{"solver", "greedy"}});
    run["status"] = "complete";
    run["finished"] = iso_time_now();
    run["result"] = result_json(job, result);
    write_file_atomic((dir / "run.json").string(), run.dump(2) + "\n");
    return result;
}

}  // namespace

nlohmann::json job_manifest(const PileInJob& job, const RulesProblem* problem,
                            uint32_t resumed_at) {
    return run_manifest(job, problem, resumed_at);
}

void write_best_outputs(const PileInJob& job, const Scenario& scenario, const RulesProblem* rules,
                        JobResult& result) {
    const fs::path dir(job.out_dir);
    char line[256];
    if (rules) {
        // The best plan ever seen, never worse than greedy: the greedy plan is in generation 0
        // (so the GA's best outranks it); should the validator still rank it higher, it is
        // the result.
        const std::vector<uint32_t> greedy = greedy_genes(*rules);
        RulesOutcome o = judge(*rules, result.best.genes);
        const RulesOutcome g = judge(*rules, greedy);
        if (g.verdict.legal &&
            (!o.verdict.legal || g.verdict.in_range_count > o.verdict.in_range_count)) {
            result.best.genes = greedy;
            result.best.generation = 0;
            result.best.breakdown = score_plan(scenario, rules, greedy);
            o = g;
        }
        result.rules = true;
        result.legal = o.verdict.legal;
        result.in_range_count = o.verdict.in_range_count;
        result.violations = o.verdict.violations;
        result.greedy_in_range_count = g.verdict.in_range_count;
        result.greedy_legal = g.verdict.legal;
        std::snprintf(line, sizeof line,
                      "GA %d vs greedy %d in range  |  generation %u of %u, population %llu, "
                      "seed %llu, %s",
                      o.verdict.in_range_count, g.verdict.in_range_count, result.best.generation,
                      result.generations_done, static_cast<unsigned long long>(job.ga.population),
                      static_cast<unsigned long long>(job.ga.seed), job.backend.name.c_str());
        write_rules_results(job, *rules, o, line,
                            {{"generation", result.best.generation},
                             {"fitness", result.best.breakdown.fitness},
                             {"greedy",
                              {{"in_range_count", g.verdict.in_range_count},
                               {"legal", g.verdict.legal},
                               {"order", g.verdict.order}}}});
    } else {
        PlanReport plan = gapi1_report(scenario, result.best.genes);
        plan.title = job.scenario.name + " (" + job.rules + ")";
        std::snprintf(line, sizeof line, "%d of %d model%s in combat range, fitness %.2f",
                      plan.breakdown.in_range_count, scenario.friendly_count,
                      plural_s(scenario.friendly_count), plan.breakdown.fitness);
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
        nlohmann::json best = plan_json(scenario, plan);
        best["generation"] = result.best.generation;
        best["scenario"] = job.scenario.name;
        best["rules"] = job.rules;
        write_file_atomic((dir / "best.json").string(), best.dump(2) + "\n");
        write_file_atomic((dir / "picture.svg").string(), plan_svg(scenario, plan));
    }
}

std::optional<RulesProblem> prepare_problem(const PileInJob& job, Scenario* scenario_out) {
    std::optional<RulesProblem> problem;
    Scenario& scenario = *scenario_out;
    scenario = job.scenario.scenario;
    if (job.rules != "gapi1") {
        problem = build_rules_problem(job.rules, job.scenario, job.overrides);
        scenario = problem->scenario;
    } else {
        const RuleOverrides& o = job.overrides;
        if (o.two_neighbours_from || o.direction || o.path_check || o.slide || o.turn_ovals ||
            o.repair || o.target_unit)
            throw InputError(
                "--rules gapi1 has no hard rules: rule flags other than --reach and "
                "--coherency need --rules aos1, aos2, aos3 or aos4");
        if (o.reach_mm && *o.reach_mm < 0)
            throw InputError("--reach: must be >= 0, got " + std::to_string(*o.reach_mm / 25.4));
        if (o.coherency_mm && *o.coherency_mm < 0)
            throw InputError("--coherency: must be >= 0, got " +
                             std::to_string(*o.coherency_mm / 25.4));
        if (o.reach_mm) scenario.reach_mm = static_cast<float>(*o.reach_mm);
        if (o.coherency_mm) scenario.coherency_mm = static_cast<float>(*o.coherency_mm);
        if (job.solver == "greedy")
            throw InputError("--solver greedy: needs a rules preset (--rules aos1..aos4)");
    }
    return problem;
}

JobResult run_job(const PileInJob& job) {
    using clock = std::chrono::steady_clock;
    validate(job.ga);
    check_rules_name(job.rules);
    if (job.solver != "ga" && job.solver != "greedy")
        throw InputError("--solver: unknown solver '" + job.solver + "' (expected ga or greedy)");
    Scenario scenario;
    std::optional<RulesProblem> problem = prepare_problem(job, &scenario);
    const RulesProblem* rules = problem ? &*problem : nullptr;
    if (job.resume)
        io::check_run_folder_kind(job.out_dir, "pile-in");
    else
        io::check_run_folder_free(job.out_dir);
    if (job.solver == "greedy") {
        io::create_run_folder(job.out_dir);
        return run_greedy_job(job, *problem);
    }
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
        // Fewer generations than were run would rewrite a finished run's files: refused.
        const uint32_t done = h.value("next_generation", uint32_t{0});
        if (done > job.ga.generations)
            throw InputError("--generations " + std::to_string(job.ga.generations) +
                             ": the run already completed " + std::to_string(done) +
                             " generations (give at least that many, or leave it out)");
    }

    const uint64_t survivors = survivor_count(job.ga);
    auto population = rules ? make_population(job.backend, *rules, job.ga.population, survivors)
                            : make_population(job.backend, scenario, job.ga.population, survivors);
    io::create_run_folder(job.out_dir);  // every input is valid: the folder may now appear
    Engine engine =
        rules ? Engine(*rules, job.ga, *population) : Engine(scenario, job.ga, *population);
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
        if (best.valid) best.breakdown = score_plan(scenario, rules, best.genes);
        engine.resume(h.at("next_generation").get<uint32_t>(), genes, best);
        truncate_csv(csv_path, engine.generation());
    } else {
        for (const char* stale : {"best.json", "picture.svg", "checkpoint.bin"})
            fs::remove(dir / stale);
        std::ofstream(csv_path, std::ios::trunc) << kGenerationsCsvHeader << '\n';
        engine.start();
    }

    nlohmann::json run = run_manifest(job, rules, job.resume ? engine.generation() : 0);
    write_file_atomic((dir / "run.json").string(), run.dump(2) + "\n");

    if (!job.quiet)
        std::fprintf(stderr,
                     "gaeval pile-in: %s, %d v %d model%s, population %llu, %u generation%s, "
                     "%s (%s; %s), run folder %s\n",
                     job.scenario.name.c_str(), scenario.friendly_count, scenario.enemy_count,
                     plural_s(scenario.enemy_count),
                     static_cast<unsigned long long>(job.ga.population), job.ga.generations,
                     plural_s(job.ga.generations), job.backend.name.c_str(),
                     job.backend.device.c_str(), job.backend.note.c_str(), job.out_dir.c_str());

    JobResult result;
    RateLimiter progress;
    double checkpoint_seconds = 0;  // spent writing checkpoints in this invocation
    auto write_checkpoint = [&](const char* why) {
        const double t0 = now_seconds();
        save_checkpoint(make_checkpoint(job, engine), checkpoint_path);
        checkpoint_seconds += now_seconds() - t0;
        if (!job.quiet)
            std::fprintf(stderr, "gaeval pile-in: checkpoint (%s) written: %s in %.2f s\n", why,
                         io::file_size_text(checkpoint_path).c_str(), now_seconds() - t0);
    };
    std::ofstream csv(csv_path, std::ios::app);
    const auto t_start = clock::now();
    auto t_checkpoint = t_start;
    const uint32_t first_generation = engine.generation();
    double evaluated = 0;
    while (!engine.done()) {
        GenerationReport r = engine.step();
        result.last = r.stats;
        evaluated += static_cast<double>(job.ga.population);
        if (job.log_every <= 1 || (r.generation + 1) % job.log_every == 0 || engine.done()) {
            csv << generations_csv_row(r, job.ga.population, engine.best().breakdown.fitness)
                << '\n';
            csv.flush();
        }
        const double elapsed = std::chrono::duration<double>(clock::now() - t_start).count();
        const bool stop = interrupted();
        if (!job.quiet && progress.due(engine.done() || stop)) {
            const uint32_t done = engine.generation() - first_generation;
            const double eta = elapsed / done * (job.ga.generations - engine.generation());
            char checkpoints[48] = "";
            if (checkpoint_seconds > 0)
                std::snprintf(checkpoints, sizeof checkpoints, "  checkpoints %.0f%%",
                              100 * checkpoint_seconds / elapsed);
            std::fprintf(stderr,
                         "gen %5u/%u  best %10.2f (%d/%d in range%s)  mean %10.2f  worst %10.2f  "
                         "%9.3g evals/s%s  ETA %s\n",
                         r.generation + 1, job.ga.generations, r.stats.best,
                         r.best_of_generation.in_range_count, scenario.friendly_count,
                         rules ? (r.best_of_generation.legal ? ", legal" : ", illegal") : "",
                         r.stats.mean, r.stats.worst,
                         r.seconds > 0 ? job.ga.population / r.seconds : 0, checkpoints,
                         duration_text(eta).c_str());
        }
        const double since = std::chrono::duration<double>(clock::now() - t_checkpoint).count();
        if (stop || (since >= job.checkpoint_every_seconds && !engine.done())) {
            write_checkpoint(stop ? "interrupted" : "periodic");
            t_checkpoint = clock::now();
        }
        if (stop) {
            result.interrupted = true;
            break;
        }
    }
    if (!result.interrupted && job.checkpoint_at_end) write_checkpoint("end of run");

    result.seconds = std::chrono::duration<double>(clock::now() - t_start).count();
    result.generations_done = engine.generation();
    result.best = engine.best();
    result.evaluations_per_second = result.seconds > 0 ? evaluated / result.seconds : 0;

    write_best_outputs(job, scenario, rules, result);

    run["status"] = result.interrupted ? "interrupted" : "complete";
    run["finished"] = iso_time_now();
    run["result"] = result_json(job, result);
    write_file_atomic((dir / "run.json").string(), run.dump(2) + "\n");
    return result;
}

}  // namespace gaeval::pile_in
