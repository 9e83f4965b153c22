#include "host/islands/archipelago.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <stdexcept>

#include "host/core/error.hpp"
#include "host/core/interrupt.hpp"
#include "host/core/progress.hpp"
#include "host/io/json_fields.hpp"
#include "host/io/run_folder.hpp"
#include "host/io/svg.hpp"

namespace gaeval::islands {

namespace fs = std::filesystem;

namespace {

std::string path_in(const std::string& dir, const std::string& name) {
    return (fs::path(dir) / name).string();
}

std::string part_name(int rank, int ranks, uint32_t generation) {
    return "checkpoint-rank" + std::to_string(rank) + "-of-" + std::to_string(ranks) + "-gen" +
           std::to_string(generation) + ".bin";
}

std::string prefix_of(uint32_t island) { return "island" + std::to_string(island) + "/"; }

// The lines of a CSV written by an earlier invocation whose generation (first column, counted
// from `first`) is below `next_generation` (a resumed run rewrites the rest); header first.
std::vector<std::string> kept_lines(const std::string& path, const std::string& header,
                                    uint32_t next_generation, uint32_t first_number = 0) {
    std::vector<std::string> lines{header};
    std::ifstream in(path);
    std::string line;
    bool first = true;
    while (std::getline(in, line)) {
        if (first) {
            first = false;
            continue;
        }
        char* end = nullptr;
        const unsigned long g = std::strtoul(line.c_str(), &end, 10);
        if (end == line.c_str() || *end != ',') continue;
        if (g < uint64_t(next_generation) + first_number) lines.push_back(line);
    }
    return lines;
}

std::string joined(const std::vector<std::string>& lines) {
    std::string text;
    for (const std::string& l : lines) text += l + '\n';
    return text;
}

std::string tick_label(double v) {
    char text[32];
    std::snprintf(text, sizeof text, "%.4g", v);
    return text;
}

// The picture of islands.csv's lines (header first): each island's best value by generation,
// and the archipelago's best so far over them, thick.
std::string islands_svg(const std::string& title, const std::vector<std::string>& lines,
                        uint32_t islands, uint32_t generations) {
    std::vector<std::vector<std::pair<double, double>>> best(islands);
    std::vector<std::pair<double, double>> overall;
    double lo = 0, hi = 0;
    bool any = false;
    for (size_t k = 1; k < lines.size(); ++k) {
        unsigned g = 0, i = 0;
        double b = 0, m = 0;
        if (std::sscanf(lines[k].c_str(), "%u,%u,%lf,%lf", &g, &i, &b, &m) != 4 || i >= islands)
            continue;
        if (!std::isfinite(b)) continue;
        best[i].push_back({double(g), b});
        if (!overall.empty() && overall.back().first == g)
            overall.back().second = std::max(overall.back().second, b);
        else
            overall.push_back(
                {double(g), overall.empty() ? b : std::max(overall.back().second, b)});
        lo = any ? std::min(lo, b) : b;
        hi = any ? std::max(hi, b) : b;
        any = true;
    }
    if (hi <= lo) hi = lo + 1;
    const double width = 760, height = 420, left = 80, right = 150, top = 50, plot_h = 300;
    const double plot_w = width - left - right;
    const double g_max = std::max<double>(1, generations > 0 ? generations - 1 : 0);
    auto px = [&](double g) { return left + plot_w * g / g_max; };
    auto py = [&](double v) { return top + plot_h * (1 - (v - lo) / (hi - lo)); };
    svg::Document doc(width, height);
    auto& out = doc.body();
    out << "<text x=\"" << svg::num(width / 2) << "\" y=\"24\" text-anchor=\"middle\" "
        << "font-size=\"16\" font-weight=\"bold\">" << svg::escape(title) << "</text>\n";
    out << "<rect x=\"" << svg::num(left) << "\" y=\"" << svg::num(top) << "\" width=\""
        << svg::num(plot_w) << "\" height=\"" << svg::num(plot_h)
        << "\" fill=\"none\" stroke=\"#888\"/>\n";
    for (int t = 0; t <= 4; ++t) {
        const double v = lo + (hi - lo) * t / 4;
        out << "<text x=\"" << svg::num(left - 6) << "\" y=\"" << svg::num(py(v) + 4)
            << "\" text-anchor=\"end\" font-size=\"11\">" << tick_label(v) << "</text>\n";
    }
    out << "<text x=\"" << svg::num(left) << "\" y=\"" << svg::num(top + plot_h + 16)
        << "\" font-size=\"11\">0</text>\n<text x=\"" << svg::num(left + plot_w) << "\" y=\""
        << svg::num(top + plot_h + 16) << "\" text-anchor=\"end\" font-size=\"11\">"
        << uint32_t(g_max) << "</text>\n<text x=\"" << svg::num(left + plot_w / 2) << "\" y=\""
        << svg::num(top + plot_h + 36)
        << "\" text-anchor=\"middle\" font-size=\"12\">generation (best value of each "
           "generation)</text>\n";
    const char* colours[] = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b"};
    auto polyline = [&](const std::vector<std::pair<double, double>>& pts, const char* colour,
                        double stroke) {
        if (pts.empty()) return;
        out << "<polyline fill=\"none\" stroke=\"" << colour << "\" stroke-width=\""
            << svg::num(stroke) << "\" points=\"";
        for (const auto& p : pts)
            out << svg::num(px(p.first)) << ',' << svg::num(py(p.second)) << ' ';
        out << "\"/>\n";
    };
    auto legend = [&](int row, const char* colour, double stroke, const std::string& label) {
        const double ly = top + 16 + 18 * row;
        out << "<line x1=\"" << svg::num(left + plot_w + 12) << "\" x2=\""
            << svg::num(left + plot_w + 36) << "\" y1=\"" << svg::num(ly) << "\" y2=\""
            << svg::num(ly) << "\" stroke=\"" << colour << "\" stroke-width=\"" << svg::num(stroke)
            << "\"/>\n<text x=\"" << svg::num(left + plot_w + 40) << "\" y=\"" << svg::num(ly + 4)
            << "\" font-size=\"12\">" << svg::escape(label) << "</text>\n";
    };
    for (uint32_t i = 0; i < islands; ++i) polyline(best[i], colours[i % 6], 1);
    polyline(overall, "#000", 3);
    legend(0, "#000", 3, "archipelago best");
    for (uint32_t i = 0; i < islands && i < 12; ++i)
        legend(int(i) + 1, colours[i % 6], 1, "island " + std::to_string(i));
    return doc.str();
}

void put_migrant(ByteWriter& w, const Migrant& m) {
    w.put<uint32_t>(m.from);
    w.put<double>(m.fitness);
    w.put_vector(m.words);
    w.put<uint32_t>(m.generation);
}

Migrant get_migrant(ByteReader& r) {
    Migrant m;
    m.from = r.get<uint32_t>();
    m.fitness = r.get<double>();
    m.words = r.get_vector<uint32_t>();
    m.generation = r.get<uint32_t>();
    return m;
}

}  // namespace

void agree(Transport& transport, const std::function<void()>& body) {
    if (transport.size() == 1) {
        body();
        return;
    }
    uint8_t failed = 0, input = 0;
    std::string message;
    try {
        body();
    } catch (const InputError& e) {
        failed = 1, input = 1, message = e.what();
    } catch (const std::exception& e) {
        failed = 1, message = e.what();
    }
    ByteWriter w;
    w.put(failed);
    w.put(input);
    w.put_string(message);
    for (const auto& bytes : transport.all_gather(w.bytes)) {
        ByteReader r(bytes);
        if (!r.get<uint8_t>()) continue;
        const bool is_input = r.get<uint8_t>() != 0;
        const std::string text = r.get_string();
        if (is_input) throw AgreedInputError(text);
        throw AgreedError(text);
    }
}

uint32_t checkpoint_generation(const std::string& dir, int ranks, uint64_t fingerprint) {
    const std::string path = path_in(dir, "checkpoint.json");
    if (!fs::exists(path)) throw InputError("--resume " + dir + ": no checkpoint.json in it");
    const nlohmann::json j = json_fields::read_file(path);
    try {
        if (j.at("kind").get<std::string>() != "islands" ||
            j.at("fingerprint").get<uint64_t>() != fingerprint)
            throw InputError(path + ": checkpoint of a different configuration; not resuming");
        const int written_by = j.at("ranks").get<int>();
        if (written_by != ranks)
            throw InputError(path + ": written by " + std::to_string(written_by) +
                             " rank(s), this run has " + std::to_string(ranks) +
                             "; resume with the same rank count (mpirun -np " +
                             std::to_string(written_by) + ")");
        return j.at("generation").get<uint32_t>();
    } catch (const nlohmann::json::exception& e) {
        throw InputError(path + ": corrupt checkpoint manifest (" + std::string(e.what()) + ")");
    }
}

namespace {

// One invocation of run_archipelago, phase by phase: start or resume, then per generation
// evaluate and gather, migrate, advance and checkpoint, report; at the end the best of all
// islands. Every rank runs the same phases in the same order (each all_gather is collective).
class ArchipelagoRun {
  public:
    using clock = std::chrono::steady_clock;

    ArchipelagoRun(IslandGa& ga, Transport& t, const ArchipelagoJob& job)
        : ga_(ga),
          t_(t),
          job_(job),
          cfg_(job.islands),
          n_(cfg_.count),
          rank_(t.rank()),
          ranks_(t.size()),
          files_(!job.out_dir.empty()),
          gen_header_(ga.generations_header()),
          first_(ga.first_generation_number()),
          gen_files_(files_ && !gen_header_.empty()) {
        for (uint32_t i = 0; i < n_; ++i)
            if (island_rank(i, n_, ranks_) == rank_) owned_.push_back(i);
    }

    ArchipelagoResult run() {
        start_or_resume();
        read_kept_files();
        previous_checkpoint_ = gen_;
        if (!job_.resume) write_checkpoint(0);
        last_checkpoint_ = clock::now();
        while (gen_ < job_.generations) {
            Gathered g = evaluate_and_gather();
            log_rows(g);
            if (migrates_after(cfg_, gen_, job_.generations)) migrate();
            for (uint32_t i : owned_) ga_.advance(i);
            ++gen_;
            if (g.checkpoint_due || g.stop || gen_ == job_.generations) {
                write_checkpoint(gen_);
                last_checkpoint_ = clock::now();
            }
            report(g.rows, g.stop);
            if (g.stop) {
                result_.interrupted = true;
                break;
            }
        }
        result_.generation = gen_;
        gather_best();
        result_.seconds = std::chrono::duration<double>(clock::now() - start_).count();
        return result_;
    }

  private:
    // A generation's statistics from every rank, and whether to stop or checkpoint.
    struct Gathered {
        bool stop = false, checkpoint_due = false;
        std::vector<IslandRow> rows;                // every island, by index
        std::map<uint32_t, std::string> gen_lines;  // island -> its generations.csv line
    };

    std::string island_csv(uint32_t i) const {
        return path_in(path_in(job_.out_dir, "island-" + std::to_string(i)), "generations.csv");
    }
    std::string out_file(const char* name) const {
        return files_ ? path_in(job_.out_dir, name) : "";
    }

    // Fresh islands, or every owned island from this rank's checkpoint part (agreed by all).
    void start_or_resume() {
        agree(t_, [&] {
            if (static_cast<uint32_t>(ranks_) > n_)
                throw InputError("--islands " + std::to_string(n_) + ": fewer islands than the " +
                                 std::to_string(ranks_) + " MPI ranks (every rank needs one)");
            if (!job_.resume) {
                for (uint32_t i : owned_) ga_.start(i);
                return;
            }
            gen_ = checkpoint_generation(job_.out_dir, ranks_, job_.fingerprint);
            const std::string part = path_in(job_.out_dir, part_name(rank_, ranks_, gen_));
            if (!fs::exists(part))
                throw InputError("--resume: checkpoint part " + part + " is missing");
            const Checkpoint c = load_checkpoint(part);
            if (c.header.value("fingerprint", uint64_t{0}) != job_.fingerprint ||
                c.header.value("generation", uint32_t{0}) != gen_)
                throw InputError(part + ": checkpoint part of another run or generation");
            for (uint32_t i : owned_) ga_.load(i, c, prefix_of(i), part);
        });
    }

    // Rank 0 keeps the CSV lines of the generations before the one it starts from.
    void read_kept_files() {
        island_gen_lines_.resize(n_);
        if (!files_ || rank_ != 0) return;
        island_lines_ = kept_lines(out_file("islands.csv"), kIslandsCsvHeader, gen_);
        migration_lines_ = kept_lines(out_file("migrations.csv"), kMigrationsCsvHeader, gen_);
        if (!gen_files_) return;
        for (uint32_t i = 0; i < n_; ++i)
            island_gen_lines_[i] = kept_lines(island_csv(i), gen_header_, gen_, first_);
        best_lines_ =
            kept_lines(out_file("generations.csv"), gen_header_ + ",island", gen_, first_);
    }

    // Every rank writes its part of generation `done`, then (after all have) rank 0 the CSVs
    // and the manifest; parts older than the previous checkpoint are removed.
    void write_checkpoint(uint32_t done) {
        if (!files_) return;
        agree(t_, [&] {
            Checkpoint c;
            c.header = {{"kind", "islands-part"}, {"fingerprint", job_.fingerprint},
                        {"generation", done},     {"rank", rank_},
                        {"ranks", ranks_},        {"islands", owned_}};
            for (uint32_t i : owned_) ga_.save(i, c, prefix_of(i));
            save_checkpoint(c, path_in(job_.out_dir, part_name(rank_, ranks_, done)));
        });
        if (rank_ == 0) write_rank0_files(done);
        // Keep this checkpoint and the previous one (rank 0 may not have named this one yet).
        const std::string mine =
            "checkpoint-rank" + std::to_string(rank_) + "-of-" + std::to_string(ranks_) + "-gen";
        std::error_code ec;
        for (const auto& e : fs::directory_iterator(job_.out_dir, ec)) {
            const std::string name = e.path().filename().string();
            if (name.rfind(mine, 0) != 0) continue;
            const unsigned long g = std::strtoul(name.c_str() + mine.size(), nullptr, 10);
            if (g < previous_checkpoint_) fs::remove(e.path(), ec);
        }
        previous_checkpoint_ = done;
    }

    void write_rank0_files(uint32_t done) {
        io::write_text_atomic(out_file("islands.csv"), joined(island_lines_));
        io::write_text_atomic(out_file("migrations.csv"), joined(migration_lines_));
        if (gen_files_) {
            for (uint32_t i = 0; i < n_; ++i) {
                fs::create_directories(fs::path(island_csv(i)).parent_path());
                io::write_text_atomic(island_csv(i), joined(island_gen_lines_[i]));
            }
            io::write_text_atomic(out_file("generations.csv"), joined(best_lines_));
        }
        if (!job_.picture.empty())
            io::write_text_atomic(
                path_in(job_.out_dir, job_.picture),
                islands_svg(job_.picture_title, island_lines_, n_, job_.generations));
        const nlohmann::json manifest = {{"kind", "islands"},
                                         {"fingerprint", job_.fingerprint},
                                         {"generation", done},
                                         {"ranks", ranks_},
                                         {"islands", n_}};
        io::write_text_atomic(path_in(job_.out_dir, "checkpoint.json"), manifest.dump(2) + "\n");
    }

    // Evaluates every owned island and gathers the statistics of all (and any interruption,
    // and rank 0's checkpoint clock).
    Gathered evaluate_and_gather() {
        ByteWriter w;
        w.put<uint8_t>(interrupted() ? 1 : 0);
        w.put<uint8_t>(std::chrono::duration<double>(clock::now() - last_checkpoint_).count() >=
                               job_.checkpoint_every_seconds
                           ? 1
                           : 0);
        w.put<uint32_t>(static_cast<uint32_t>(owned_.size()));
        const auto evaluated = ga_.evaluate_islands(owned_, gen_files_);
        for (size_t k = 0; k < owned_.size(); ++k) {
            IslandRow row = evaluated.at(k).first;
            row.generation = gen_;
            row.island = owned_[k];
            w.put(row);
            w.put_string(evaluated[k].second);
        }
        Gathered g;
        int from_rank = 0;
        for (const auto& bytes : t_.all_gather(w.bytes)) {
            ByteReader r(bytes);
            g.stop = r.get<uint8_t>() != 0 || g.stop;
            const bool due = r.get<uint8_t>() != 0;
            if (from_rank++ == 0) g.checkpoint_due = due;
            const uint32_t count = r.get<uint32_t>();
            for (uint32_t k = 0; k < count; ++k) {
                g.rows.push_back(r.get<IslandRow>());
                g.gen_lines[g.rows.back().island] = r.get_string();
            }
        }
        std::sort(g.rows.begin(), g.rows.end(),
                  [](const IslandRow& a, const IslandRow& b) { return a.island < b.island; });
        return g;
    }

    // The rows into the result; on rank 0 into islands.csv, each island's generations.csv and
    // the archipelago's (the line of the island with the best value).
    void log_rows(Gathered& g) {
        const IslandRow* best_row = nullptr;
        for (const IslandRow& row : g.rows) {
            result_.rows.push_back(row);
            if (rank_ != 0) continue;
            island_lines_.push_back(csv_line(row));
            const std::string& line = g.gen_lines[row.island];
            if (line.empty()) continue;
            island_gen_lines_[row.island].push_back(line);
            if (!best_row || row.best > best_row->best) best_row = &row;
        }
        if (best_row)
            best_lines_.push_back(g.gen_lines[best_row->island] + "," +
                                  std::to_string(best_row->island));
    }

    // Best K of every island to the islands that receive from it.
    void migrate() {
        ByteWriter out;
        out.put<uint32_t>(static_cast<uint32_t>(owned_.size()));
        for (uint32_t i : owned_) {
            const std::vector<double> fit = ga_.fitness(i);
            const std::vector<uint64_t> best = best_members(fit, cfg_.migrants);
            out.put<uint32_t>(i);
            out.put<uint32_t>(static_cast<uint32_t>(best.size()));
            for (uint64_t m : best) put_migrant(out, Migrant{i, fit[m], ga_.genome(i, m)});
        }
        std::map<uint32_t, std::vector<Migrant>> emigrants;
        for (const auto& bytes : t_.all_gather(out.bytes)) {
            ByteReader r(bytes);
            const uint32_t islands_here = r.get<uint32_t>();
            for (uint32_t k = 0; k < islands_here; ++k) {
                const uint32_t i = r.get<uint32_t>();
                const uint32_t count = r.get<uint32_t>();
                for (uint32_t m = 0; m < count; ++m) emigrants[i].push_back(get_migrant(r));
            }
        }
        ByteWriter log;
        for (uint32_t to : owned_) place_arrivals(to, emigrants, log);
        std::vector<MigrationRow> moved;
        for (const auto& bytes : t_.all_gather(log.bytes)) {
            ByteReader r(bytes);
            const size_t count = bytes.size() / sizeof(MigrationRow);
            for (size_t k = 0; k < count; ++k) moved.push_back(r.get<MigrationRow>());
        }
        std::stable_sort(moved.begin(), moved.end(),
                         [](const MigrationRow& a, const MigrationRow& b) { return a.to < b.to; });
        for (const MigrationRow& m : moved) {
            result_.migrations.push_back(m);
            if (rank_ == 0) migration_lines_.push_back(csv_line(m));
        }
    }

    // The immigrants of island `to`, sources in migration_sources order, placed by the
    // replacement policy; every arrival (placed or not) logged.
    void place_arrivals(uint32_t to, std::map<uint32_t, std::vector<Migrant>>& emigrants,
                        ByteWriter& log) {
        std::vector<Migrant> arriving;
        for (uint32_t from : migration_sources(cfg_, to))
            for (const Migrant& m : emigrants[from]) arriving.push_back(m);
        std::vector<double> arriving_fitness;
        for (const Migrant& m : arriving) arriving_fitness.push_back(m.fitness);
        const std::vector<int64_t> slots =
            place_immigrants(ga_.fitness(to), arriving_fitness, cfg_.replace);
        std::vector<int64_t> placed_slots;
        std::vector<Migrant> placed;
        for (size_t j = 0; j < arriving.size(); ++j) {
            log.put(MigrationRow{gen_, arriving[j].from, to, arriving[j].fitness, slots[j]});
            if (slots[j] < 0) continue;
            placed_slots.push_back(slots[j]);
            placed.push_back(arriving[j]);
        }
        ga_.immigrate(to, placed_slots, placed);
    }

    // A rate-limited progress line on rank 0.
    void report(const std::vector<IslandRow>& rows, bool stop) {
        if (job_.quiet || rank_ != 0 || !progress_.due(gen_ == job_.generations || stop)) return;
        double best = rows.empty() ? 0 : rows[0].best;
        uint32_t best_island = 0;
        for (const IslandRow& row : rows)
            if (row.best > best) best = row.best, best_island = row.island;
        std::fprintf(stderr,
                     "%s: generation %u/%u  %u island%s on %d rank%s  best %.6g (island %u)\n",
                     job_.label.c_str(), gen_, job_.generations, n_, n_ == 1 ? "" : "s", ranks_,
                     ranks_ == 1 ? "" : "s", best, best_island);
    }

    // The best of all islands (ties: the lowest island), the same on every rank.
    void gather_best() {
        ByteWriter mine;
        mine.put<uint32_t>(static_cast<uint32_t>(owned_.size()));
        for (uint32_t i : owned_) {
            Migrant b = ga_.best(i);
            b.from = i;
            put_migrant(mine, b);
        }
        bool have = false;
        for (const auto& bytes : t_.all_gather(mine.bytes)) {
            ByteReader r(bytes);
            const uint32_t count = r.get<uint32_t>();
            for (uint32_t k = 0; k < count; ++k) {
                Migrant b = get_migrant(r);
                if (!have || b.fitness > result_.best.fitness ||
                    (b.fitness == result_.best.fitness && b.from < result_.best.from)) {
                    result_.best = b;
                    have = true;
                }
            }
        }
    }

    IslandGa& ga_;
    Transport& t_;
    const ArchipelagoJob& job_;
    const IslandConfig& cfg_;
    const uint32_t n_;
    const int rank_, ranks_;
    const bool files_;
    const std::string gen_header_;
    const uint32_t first_;
    const bool gen_files_;
    const clock::time_point start_ = clock::now();
    std::vector<uint32_t> owned_;
    uint32_t gen_ = 0, previous_checkpoint_ = 0;
    clock::time_point last_checkpoint_;
    RateLimiter progress_;
    ArchipelagoResult result_;
    // rank 0: the lines of islands.csv, migrations.csv, each island's and the best generations.csv
    std::vector<std::string> island_lines_, migration_lines_, best_lines_;
    std::vector<std::vector<std::string>> island_gen_lines_;
};

}  // namespace

ArchipelagoResult run_archipelago(IslandGa& ga, Transport& t, const ArchipelagoJob& job) {
    return ArchipelagoRun(ga, t, job).run();
}

}  // namespace gaeval::islands
