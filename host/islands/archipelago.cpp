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

ArchipelagoResult run_archipelago(IslandGa& ga, Transport& t, const ArchipelagoJob& job) {
    using clock = std::chrono::steady_clock;
    const auto start = clock::now();
    const IslandConfig& cfg = job.islands;
    const uint32_t n = cfg.count;
    const int rank = t.rank(), ranks = t.size();
    const bool files = !job.out_dir.empty();
    std::vector<uint32_t> owned;
    for (uint32_t i = 0; i < n; ++i)
        if (island_rank(i, n, ranks) == rank) owned.push_back(i);

    ArchipelagoResult result;
    uint32_t gen = 0;
    agree(t, [&] {
        if (static_cast<uint32_t>(ranks) > n)
            throw InputError("--islands " + std::to_string(n) + ": fewer islands than the " +
                             std::to_string(ranks) + " MPI ranks (every rank needs one)");
        if (!job.resume) {
            for (uint32_t i : owned) ga.start(i);
            return;
        }
        gen = checkpoint_generation(job.out_dir, ranks, job.fingerprint);
        const std::string part = path_in(job.out_dir, part_name(rank, ranks, gen));
        if (!fs::exists(part))
            throw InputError("--resume: checkpoint part " + part + " is missing");
        const Checkpoint c = load_checkpoint(part);
        if (c.header.value("fingerprint", uint64_t{0}) != job.fingerprint ||
            c.header.value("generation", uint32_t{0}) != gen)
            throw InputError(part + ": checkpoint part of another run or generation");
        for (uint32_t i : owned) ga.load(i, c, prefix_of(i), part);
    });

    std::vector<std::string> island_lines, migration_lines;
    // generations.csv of every island and of the archipelago (rank 0)
    const std::string gen_header = ga.generations_header();
    const uint32_t first = ga.first_generation_number();
    const bool gen_files = files && !gen_header.empty();
    auto island_csv = [&](uint32_t i) {
        return path_in(path_in(job.out_dir, "island-" + std::to_string(i)), "generations.csv");
    };
    const std::string best_csv = files ? path_in(job.out_dir, "generations.csv") : "";
    std::vector<std::vector<std::string>> island_gen_lines(n);
    std::vector<std::string> best_lines;
    const std::string islands_csv = files ? path_in(job.out_dir, "islands.csv") : "";
    const std::string migrations_csv = files ? path_in(job.out_dir, "migrations.csv") : "";
    if (files && rank == 0) {
        island_lines = kept_lines(islands_csv, kIslandsCsvHeader, gen);
        migration_lines = kept_lines(migrations_csv, kMigrationsCsvHeader, gen);
        if (gen_files) {
            for (uint32_t i = 0; i < n; ++i)
                island_gen_lines[i] = kept_lines(island_csv(i), gen_header, gen, first);
            best_lines = kept_lines(best_csv, gen_header + ",island", gen, first);
        }
    }

    // Every rank writes its part of generation `done`, then (after all have) rank 0 the CSVs
    // and the manifest; parts older than the previous checkpoint are removed.
    uint32_t previous_checkpoint = gen;
    auto write_checkpoint = [&](uint32_t done) {
        if (!files) return;
        agree(t, [&] {
            Checkpoint c;
            c.header = {{"kind", "islands-part"}, {"fingerprint", job.fingerprint},
                        {"generation", done},     {"rank", rank},
                        {"ranks", ranks},         {"islands", owned}};
            for (uint32_t i : owned) ga.save(i, c, prefix_of(i));
            save_checkpoint(c, path_in(job.out_dir, part_name(rank, ranks, done)));
        });
        if (rank == 0) {
            io::write_text_atomic(islands_csv, joined(island_lines));
            io::write_text_atomic(migrations_csv, joined(migration_lines));
            if (gen_files) {
                for (uint32_t i = 0; i < n; ++i) {
                    fs::create_directories(fs::path(island_csv(i)).parent_path());
                    io::write_text_atomic(island_csv(i), joined(island_gen_lines[i]));
                }
                io::write_text_atomic(best_csv, joined(best_lines));
            }
            if (!job.picture.empty())
                io::write_text_atomic(
                    path_in(job.out_dir, job.picture),
                    islands_svg(job.picture_title, island_lines, n, job.generations));
            const nlohmann::json manifest = {{"kind", "islands"},
                                             {"fingerprint", job.fingerprint},
                                             {"generation", done},
                                             {"ranks", ranks},
                                             {"islands", n}};
            io::write_text_atomic(path_in(job.out_dir, "checkpoint.json"), manifest.dump(2) + "\n");
        }
        // Keep this checkpoint and the previous one (rank 0 may not have named this one yet).
        const std::string mine =
            "checkpoint-rank" + std::to_string(rank) + "-of-" + std::to_string(ranks) + "-gen";
        std::error_code ec;
        for (const auto& e : fs::directory_iterator(job.out_dir, ec)) {
            const std::string name = e.path().filename().string();
            if (name.rfind(mine, 0) != 0) continue;
            const unsigned long g = std::strtoul(name.c_str() + mine.size(), nullptr, 10);
            if (g < previous_checkpoint) fs::remove(e.path(), ec);
        }
        previous_checkpoint = done;
    };
    if (!job.resume) write_checkpoint(0);

    auto last_checkpoint = clock::now();
    RateLimiter progress;
    while (gen < job.generations) {
        // ---- evaluate every owned island, gather the statistics (and any interruption, and
        // rank 0's checkpoint clock)
        ByteWriter w;
        w.put<uint8_t>(interrupted() ? 1 : 0);
        w.put<uint8_t>(std::chrono::duration<double>(clock::now() - last_checkpoint).count() >=
                               job.checkpoint_every_seconds
                           ? 1
                           : 0);
        w.put<uint32_t>(static_cast<uint32_t>(owned.size()));
        const auto evaluated = ga.evaluate_islands(owned, gen_files);
        for (size_t k = 0; k < owned.size(); ++k) {
            IslandRow row = evaluated.at(k).first;
            row.generation = gen;
            row.island = owned[k];
            w.put(row);
            w.put_string(evaluated[k].second);
        }
        bool stop = false, checkpoint_due = false;
        std::vector<IslandRow> rows;
        std::map<uint32_t, std::string> gen_lines;
        int from_rank = 0;
        for (const auto& bytes : t.all_gather(w.bytes)) {
            ByteReader r(bytes);
            stop = r.get<uint8_t>() != 0 || stop;
            const bool due = r.get<uint8_t>() != 0;
            if (from_rank++ == 0) checkpoint_due = due;
            const uint32_t count = r.get<uint32_t>();
            for (uint32_t k = 0; k < count; ++k) {
                rows.push_back(r.get<IslandRow>());
                gen_lines[rows.back().island] = r.get_string();
            }
        }
        std::sort(rows.begin(), rows.end(),
                  [](const IslandRow& a, const IslandRow& b) { return a.island < b.island; });
        const IslandRow* best_row = nullptr;
        for (const IslandRow& row : rows) {
            result.rows.push_back(row);
            if (rank != 0) continue;
            island_lines.push_back(csv_line(row));
            const std::string& line = gen_lines[row.island];
            if (line.empty()) continue;
            island_gen_lines[row.island].push_back(line);
            if (!best_row || row.best > best_row->best) best_row = &row;
        }
        if (best_row)
            best_lines.push_back(gen_lines[best_row->island] + "," +
                                 std::to_string(best_row->island));

        // ---- migration: best K of every island to the islands that receive from it
        if (migrates_after(cfg, gen, job.generations)) {
            ByteWriter out;
            out.put<uint32_t>(static_cast<uint32_t>(owned.size()));
            for (uint32_t i : owned) {
                const std::vector<double> fit = ga.fitness(i);
                const std::vector<uint64_t> best = best_members(fit, cfg.migrants);
                out.put<uint32_t>(i);
                out.put<uint32_t>(static_cast<uint32_t>(best.size()));
                for (uint64_t m : best) put_migrant(out, Migrant{i, fit[m], ga.genome(i, m)});
            }
            std::map<uint32_t, std::vector<Migrant>> emigrants;
            for (const auto& bytes : t.all_gather(out.bytes)) {
                ByteReader r(bytes);
                const uint32_t islands_here = r.get<uint32_t>();
                for (uint32_t k = 0; k < islands_here; ++k) {
                    const uint32_t i = r.get<uint32_t>();
                    const uint32_t count = r.get<uint32_t>();
                    for (uint32_t m = 0; m < count; ++m) emigrants[i].push_back(get_migrant(r));
                }
            }
            ByteWriter log;
            for (uint32_t to : owned) {
                std::vector<Migrant> arriving;
                for (uint32_t from : migration_sources(cfg, to))
                    for (const Migrant& m : emigrants[from]) arriving.push_back(m);
                std::vector<double> arriving_fitness;
                for (const Migrant& m : arriving) arriving_fitness.push_back(m.fitness);
                const std::vector<int64_t> slots =
                    place_immigrants(ga.fitness(to), arriving_fitness, cfg.replace);
                std::vector<int64_t> placed_slots;
                std::vector<Migrant> placed;
                for (size_t j = 0; j < arriving.size(); ++j) {
                    log.put(MigrationRow{gen, arriving[j].from, to, arriving[j].fitness, slots[j]});
                    if (slots[j] < 0) continue;
                    placed_slots.push_back(slots[j]);
                    placed.push_back(arriving[j]);
                }
                ga.immigrate(to, placed_slots, placed);
            }
            std::vector<MigrationRow> moved;
            for (const auto& bytes : t.all_gather(log.bytes)) {
                ByteReader r(bytes);
                const size_t count = bytes.size() / sizeof(MigrationRow);
                for (size_t k = 0; k < count; ++k) moved.push_back(r.get<MigrationRow>());
            }
            std::stable_sort(
                moved.begin(), moved.end(),
                [](const MigrationRow& a, const MigrationRow& b) { return a.to < b.to; });
            for (const MigrationRow& m : moved) {
                result.migrations.push_back(m);
                if (rank == 0) migration_lines.push_back(csv_line(m));
            }
        }

        for (uint32_t i : owned) ga.advance(i);
        ++gen;
        if (checkpoint_due || stop || gen == job.generations) {
            write_checkpoint(gen);
            last_checkpoint = clock::now();
        }
        if (!job.quiet && rank == 0 && progress.due(gen == job.generations || stop)) {
            double best = rows.empty() ? 0 : rows[0].best;
            uint32_t best_island = 0;
            for (const IslandRow& row : rows)
                if (row.best > best) best = row.best, best_island = row.island;
            std::fprintf(stderr,
                         "%s: generation %u/%u  %u island%s on %d rank%s  best %.6g "
                         "(island %u)\n",
                         job.label.c_str(), gen, job.generations, n, n == 1 ? "" : "s", ranks,
                         ranks == 1 ? "" : "s", best, best_island);
        }
        if (stop) {
            result.interrupted = true;
            break;
        }
    }
    result.generation = gen;

    // ---- the best of all islands (ties: the lowest island)
    ByteWriter mine;
    mine.put<uint32_t>(static_cast<uint32_t>(owned.size()));
    for (uint32_t i : owned) {
        Migrant b = ga.best(i);
        b.from = i;
        put_migrant(mine, b);
    }
    bool have = false;
    for (const auto& bytes : t.all_gather(mine.bytes)) {
        ByteReader r(bytes);
        const uint32_t count = r.get<uint32_t>();
        for (uint32_t k = 0; k < count; ++k) {
            Migrant b = get_migrant(r);
            if (!have || b.fitness > result.best.fitness ||
                (b.fitness == result.best.fitness && b.from < result.best.from)) {
                result.best = b;
                have = true;
            }
        }
    }
    result.seconds = std::chrono::duration<double>(clock::now() - start).count();
    return result;
}

}  // namespace gaeval::islands
