#include "host/pile_in/output.hpp"

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>

#include "host/core/error.hpp"
#include "host/io/svg.hpp"
#include "problems/pile_in/rules_fitness.hpp"

namespace gaeval::pile_in {

PlanReport gapi1_report(const Scenario& s, const std::vector<uint32_t>& genes) {
    PlanReport plan;
    GenomeGenes g{genes.data()};
    plan.breakdown = gapi1_evaluate(s, g);
    for (int m = 0; m < s.friendly_count; ++m) {
        ModelOutcome o = gapi1_model(s, g, m);
        ModelReport r;
        r.start_x = s.friendly[m].x;
        r.start_y = s.friendly[m].y;
        r.end_x = o.end_x;
        r.end_y = o.end_y;
        r.move_dx = o.end_x - r.start_x;
        r.move_dy = o.end_y - r.start_y;
        r.base = s.friendly[m].base;
        r.end_base = r.base;
        r.in_range = o.in_range;
        r.overlaps = o.overlaps;
        r.has_friend = o.has_friend;
        r.nearest_enemy_gap = o.nearest_enemy_gap;
        plan.models.push_back(r);
    }
    return plan;
}

namespace {

// Per-model detail of a rules plan standing as `pose` says (flags and breakdown from the rules
// fitness; in range, illegal and gaps from the validator's verdict).
PlanReport rules_report_of(const RulesProblem& p, const PlanPose& pose, const Verdict& verdict) {
    const Scenario& s = p.scenario;
    PlanReport plan;
    plan.rules = true;
    plan.ordered = p.rules.path_check;
    uint8_t flags[MaxFriendly];
    plan.breakdown = check_plan(p, pose, flags);
    for (int m = 0; m < s.friendly_count; ++m) {
        ModelReport r;
        r.start_x = s.friendly[m].x;
        r.start_y = s.friendly[m].y;
        r.end_x = pose.x[m];
        r.end_y = pose.y[m];
        r.move_dx = r.end_x - r.start_x;
        r.move_dy = r.end_y - r.start_y;
        r.base = s.friendly[m].base;
        r.end_base = r.base;
        r.end_base.cos_angle = pose.c[m];
        r.end_base.sin_angle = pose.s[m];
        r.in_range = verdict.in_range[m];
        r.overlaps = (flags[m] & BrokeOverlap) != 0;
        r.has_friend = (flags[m] & BrokeCoherency) == 0;
        r.illegal = verdict.illegal[m];
        r.nearest_enemy_gap = static_cast<float>(verdict.nearest_gap[m]);
        r.order = pose.position[m];
        plan.models.push_back(r);
    }
    return plan;
}

}  // namespace

PlanReport rules_report(const RulesProblem& p, const std::vector<uint32_t>& genes,
                        const Verdict& verdict) {
    PlanPose pose;
    decode_plan(p, GenomeGenes{genes.data()}, pose);
    return rules_report_of(p, pose, verdict);
}

PlanReport rules_report(const RulesProblem& p, const PlanEnds& ends, const Verdict& verdict) {
    const Scenario& s = p.scenario;
    const int n = s.friendly_count;
    PlanPose pose;
    for (int m = 0; m < n; ++m) {
        pose.x[m] = static_cast<float>(ends.x[m]);
        pose.y[m] = static_cast<float>(ends.y[m]);
        pose.c[m] = static_cast<float>(ends.c[m]);
        pose.s[m] = static_cast<float>(ends.s[m]);
        pose.moved[m] = ends.x[m] != s.friendly[m].x || ends.y[m] != s.friendly[m].y;
    }
    for (int k = 0; k < n; ++k) pose.order[k] = static_cast<uint8_t>(verdict.order[k]);
    for (int k = 0; k < n; ++k) pose.position[pose.order[k]] = static_cast<uint8_t>(k);
    return rules_report_of(p, pose, verdict);
}

namespace {

nlohmann::json base_json(const Base& b) {
    if (b.shape == BaseShape::Circle) return b.length;
    double angle = std::atan2(b.sin_angle, b.cos_angle) * 180.0 / 3.14159265358979323846;
    return {{"length", b.length}, {"width", b.width}, {"angle", angle}};
}

double angle_degrees(const Base& b) {
    return std::atan2(b.sin_angle, b.cos_angle) * 180.0 / 3.14159265358979323846;
}

}  // namespace

nlohmann::json plan_json(const Scenario& s, const PlanReport& plan) {
    const Breakdown& b = plan.breakdown;
    nlohmann::json models = nlohmann::json::array();
    for (std::size_t i = 0; i < plan.models.size(); ++i) {
        const ModelReport& r = plan.models[i];
        nlohmann::json m = {
            {"index", i},
            {"start", {{"x", r.start_x}, {"y", r.start_y}}},
            {"end", {{"x", r.end_x}, {"y", r.end_y}}},
            {"move",
             {{"dx", r.move_dx},
              {"dy", r.move_dy},
              {"length",
               std::sqrt(double(r.move_dx) * r.move_dx + double(r.move_dy) * r.move_dy)}}},
            {"base", base_json(r.base)},
            {"in_range", r.in_range},
            {"overlaps", r.overlaps},
            {"has_friend", r.has_friend},
            {"nearest_enemy_gap", r.nearest_enemy_gap},
        };
        if (r.order >= 0) m["order"] = r.order;
        models.push_back(m);
    }
    return {
        {"units", "mm"},
        {"fitness", b.fitness},
        {"in_range_count", b.in_range_count},
        {"model_count", s.friendly_count},
        {"breakdown",
         {{"in_range", InRangePoints * b.in_range_count},
          {"overlap", OverlapPoints * b.overlap_count},
          {"coherency", IsolatedPoints * b.isolated_count},
          {"distance", -b.distance_mm}}},
        {"counts",
         {{"in_range", b.in_range_count},
          {"overlapping", b.overlap_count},
          {"without_friend", b.isolated_count}}},
        {"models", models},
    };
}

nlohmann::json rules_plan_json(const RulesProblem& p, const PlanReport& plan,
                               const Verdict& verdict) {
    nlohmann::json j = plan_json(p.scenario, plan);
    j["legal"] = verdict.legal;
    j["violations"] = verdict.violations;
    j["order"] = verdict.order;
    j["in_range_count"] = verdict.in_range_count;
    j["fitness_in_range_count"] = plan.breakdown.in_range_count;
    for (std::size_t m = 0; m < plan.models.size(); ++m) {
        j["models"][m]["illegal"] = plan.models[m].illegal;
        if (plan.models[m].end_base.shape == BaseShape::Oval)
            j["models"][m]["end_base"] = base_json(plan.models[m].end_base);
    }
    j["breakdown"] = {{"in_range", plan.breakdown.in_range_count},
                      {"distance", -plan.breakdown.distance_mm},
                      {"legal", plan.breakdown.legal},
                      {"violations", plan.breakdown.violation_count},
                      {"violation_mm", plan.breakdown.violation_amount},
                      {"in_range_weight", p.in_range_weight}};
    return j;
}

namespace {

struct Key {
    const char* fill;
    const char* stroke;
    const char* text;
};

double key_width(const Key& k) { return 16 + 7.0 * std::string(k.text).size() + 18; }

// The plan picture's frame: the bounds of everything drawn (mm), the scale, and the page
// coordinates of a point (y up).
struct Frame {
    double x0 = 1e30, y0 = 1e30, x1 = -1e30, y1 = -1e30;
    double scale = 1, plot_w = 0, plot_h = 0, ox = 0, header = 34;

    void grow(double x, double y, double r) {
        x0 = std::min(x0, x - r);
        x1 = std::max(x1, x + r);
        y0 = std::min(y0, y - r);
        y1 = std::max(y1, y + r);
    }
    std::string px(double x) const { return svg::num(ox + (x - x0) * scale); }
    std::string py(double y) const { return svg::num(header + (y1 - y) * scale); }
    std::string len(double mm) const { return svg::num(mm * scale); }
};

Frame plan_frame(const Scenario& s, const PlanReport& plan) {
    Frame f;
    for (int e = 0; e < s.enemy_count; ++e)
        f.grow(s.enemy[e].x, s.enemy[e].y, 0.5 * s.enemy[e].base.length + s.reach_mm);
    for (const ModelReport& r : plan.models) {
        f.grow(r.start_x, r.start_y, 0.5 * r.base.length);
        f.grow(r.end_x, r.end_y, 0.5 * r.base.length);
    }
    const double margin_mm = 10;
    f.x0 -= margin_mm;
    f.y0 -= margin_mm;
    f.x1 += margin_mm;
    f.y1 += margin_mm;
    f.scale = std::clamp(std::min(960.0 / (f.x1 - f.x0), 640.0 / (f.y1 - f.y0)), 0.2, 12.0);
    f.plot_w = (f.x1 - f.x0) * f.scale;
    f.plot_h = (f.y1 - f.y0) * f.scale;
    return f;
}

std::vector<std::string> plan_caption(const Scenario& s, const PlanReport& plan) {
    // A rules picture says how to play the plan.
    std::vector<std::string> caption = plan.caption;
    if (plan.rules) {
        caption.push_back(
            std::string(
                "To play it: move each model along its arrow by the length shown (inches)") +
            (plan.ordered ? ", in the order #1, #2, ..." : "") + "; models without an arrow stay.");
    }
    // One numbering in every picture, from 1, on the starts and the ends alike.
    caption.push_back(
        "Model k (its number at the start and at the end) is friendly[k-1] in the "
        "results; light circles: each model's " +
        svg::num(s.move_mm / MmPerInch) + "\" move limit.");
    return caption;
}

std::vector<Key> plan_keys(const PlanReport& plan) {
    std::vector<Key> keys = {
        {"#2ca02c", "#0b3d0b", "in combat range"},
        {"#1f77b4", "#0b3d0b", "not in range"},
        {"#ffffff", "#d62728", "overlaps a base"},
        {"#ffffff", "#ff7f0e", "no friend in coherency"},
        {"#d62728", "#7f1010", "enemy (dashed: combat range)"},
    };
    keys.push_back({"#ffffff", "#555555", "did not move"});
    if (plan.rules) keys.push_back({"#ffffff", "#9400d3", "breaks a rule"});
    return keys;
}

// Legend rows: one for GAPI1 (as it always was); a rules picture wraps to the width.
int legend_rows(const std::vector<Key>& keys, double width) {
    int rows = 1;
    double kx = 14;
    for (const Key& k : keys) {
        if (kx > 14 && kx + key_width(k) > width) {
            ++rows;
            kx = 14;
        }
        kx += key_width(k);
    }
    return rows;
}

// Draws the plan's layers (enemies, starts, moves, ends) and its footer on one page.
class PlanPainter {
  public:
    PlanPainter(const Scenario& s, const PlanReport& plan, const Frame& f, std::ostream& out)
        : s(s), plan(plan), f(f), out(out) {}

    // A base outline (circle or oval at its angle) with the given style.
    void base_shape(double x, double y, const Base& b, double extra_mm, const std::string& style) {
        if (b.shape == BaseShape::Circle) {
            out << "<circle cx=\"" << f.px(x) << "\" cy=\"" << f.py(y) << "\" r=\""
                << f.len(0.5 * b.length + extra_mm) << "\" " << style << "/>\n";
        } else {
            out << "<ellipse cx=\"" << f.px(x) << "\" cy=\"" << f.py(y) << "\" rx=\""
                << f.len(0.5 * b.length + extra_mm) << "\" ry=\"" << f.len(0.5 * b.width + extra_mm)
                << "\" transform=\"rotate(" << svg::num(-angle_degrees(b)) << ' ' << f.px(x) << ' '
                << f.py(y) << ")\" " << style << "/>\n";
        }
    }

    void enemies() {
        // Combat-range rings: where a friendly base edge must reach.
        for (int e = 0; e < s.enemy_count; ++e)
            base_shape(s.enemy[e].x, s.enemy[e].y, s.enemy[e].base, s.reach_mm,
                       "fill=\"#d62728\" fill-opacity=\"0.06\" stroke=\"#d62728\" "
                       "stroke-opacity=\"0.5\" stroke-dasharray=\"4 3\"");
        for (int e = 0; e < s.enemy_count; ++e)
            base_shape(s.enemy[e].x, s.enemy[e].y, s.enemy[e].base, 0,
                       "fill=\"#d62728\" fill-opacity=\"0.85\" stroke=\"#7f1010\"");
        // Each model's move limit (centre displacement), drawn lightly round its start.
        for (const ModelReport& r : plan.models)
            out << "<circle cx=\"" << f.px(r.start_x) << "\" cy=\"" << f.py(r.start_y) << "\" r=\""
                << f.len(s.move_mm)
                << "\" fill=\"none\" stroke=\"#1f77b4\" stroke-opacity=\"0.18\" "
                << "stroke-width=\"1\"/>\n";
    }

    void starts() {
        // Friendly starts, faded, numbered from 1 as their ends are.
        for (std::size_t i = 0; i < plan.models.size(); ++i) {
            const ModelReport& r = plan.models[i];
            base_shape(r.start_x, r.start_y, r.base, 0,
                       "fill=\"#1f77b4\" fill-opacity=\"0.15\" stroke=\"#1f77b4\" "
                       "stroke-opacity=\"0.5\" stroke-dasharray=\"3 2\"");
            const bool moved = r.move_dx != 0 || r.move_dy != 0;
            if (moved)
                out << "<text x=\"" << f.px(r.start_x) << "\" y=\"" << f.py(r.start_y)
                    << "\" dy=\"0.35em\" text-anchor=\"middle\" font-size=\""
                    << svg::num(std::clamp(0.3 * r.base.width * f.scale, 7.0, 12.0))
                    << "\" fill=\"#1f4e79\" fill-opacity=\"0.7\">" << i + 1 << "</text>\n";
        }
    }

    void moves() {
        // Moves: from the start centre to the edge of the end base (the arrowhead stays visible).
        for (const ModelReport& r : plan.models) {
            const double length = std::hypot(r.move_dx, r.move_dy);
            const double stop = 0.5 * r.base.width + 1.0;
            if (length < stop + 1.0) continue;
            const double tx = r.end_x - r.move_dx / length * stop;
            const double ty = r.end_y - r.move_dy / length * stop;
            out << "<line x1=\"" << f.px(r.start_x) << "\" y1=\"" << f.py(r.start_y) << "\" x2=\""
                << f.px(tx) << "\" y2=\"" << f.py(ty)
                << "\" stroke=\"#444\" stroke-width=\"1.5\" marker-end=\"url(#arrow)\"/>\n";
            if (!plan.rules) continue;
            // The move's length in inches beside the start of the arrow, and with a move order
            // (path checking) the model's turn at its start.
            char text[32];
            std::snprintf(text, sizeof text, "%.2f\"", length / MmPerInch);
            const double nx = -r.move_dy / length, ny = r.move_dx / length;  // left of the move
            const double lx = r.start_x + 0.35 * r.move_dx + 4.0 / f.scale * nx * 3.0;
            const double ly = r.start_y + 0.35 * r.move_dy + 4.0 / f.scale * ny * 3.0;
            out << "<text x=\"" << f.px(lx) << "\" y=\"" << f.py(ly)
                << "\" dy=\"0.35em\" text-anchor=\"middle\" font-size=\"10\" fill=\"#222\" "
                   "stroke=\"#fff\" stroke-width=\"3\" paint-order=\"stroke\">"
                << text << "</text>\n";
        }
        if (plan.ordered)
            for (const ModelReport& r : plan.models) {
                if (r.order < 0 || (r.move_dx == 0 && r.move_dy == 0)) continue;
                // Above the start base (the model's number is inside it).
                out << "<text x=\"" << f.px(r.start_x) << "\" y=\""
                    << f.py(r.start_y + 0.5 * r.base.length)
                    << "\" dy=\"-0.3em\" text-anchor=\"middle\" font-size=\"11\" fill=\"#1f4e79\" "
                       "font-weight=\"bold\">#"
                    << r.order + 1 << "</text>\n";
            }
    }

    void ends() {
        // Friendly ends, coloured by outcome.
        for (std::size_t i = 0; i < plan.models.size(); ++i) {
            const ModelReport& r = plan.models[i];
            std::string fill = r.in_range ? "#2ca02c" : "#1f77b4";
            std::string stroke = "stroke=\"#0b3d0b\" stroke-width=\"1\"";
            if (!r.has_friend)
                stroke = "stroke=\"#ff7f0e\" stroke-width=\"3\" stroke-dasharray=\"5 3\"";
            if (r.overlaps) stroke = "stroke=\"#d62728\" stroke-width=\"3\"";
            if (r.illegal) stroke = "stroke=\"#9400d3\" stroke-width=\"3.5\"";
            base_shape(r.end_x, r.end_y, r.end_base, 0,
                       "fill=\"" + fill + "\" fill-opacity=\"0.85\" " + stroke);
            if (r.move_dx == 0 && r.move_dy == 0)  // did not move: a dotted ring round it
                base_shape(r.end_x, r.end_y, r.end_base, 1.5,
                           "fill=\"none\" stroke=\"#555555\" stroke-width=\"1.2\" "
                           "stroke-dasharray=\"1.5 2\"");
            const int label = static_cast<int>(i) + 1;
            out << "<text x=\"" << f.px(r.end_x) << "\" y=\"" << f.py(r.end_y)
                << "\" dy=\"0.35em\" text-anchor=\"middle\" font-size=\""
                << svg::num(std::clamp(0.35 * r.base.width * f.scale, 8.0, 14.0))
                << "\" fill=\"#fff\" font-weight=\"bold\">" << label << "</text>\n";
            if (r.illegal)
                out << "<text x=\"" << f.px(r.end_x) << "\" y=\""
                    << f.py(r.end_y + 0.5 * r.base.length)
                    << "\" dy=\"-0.3em\" text-anchor=\"middle\" font-size=\"14\" fill=\"#9400d3\" "
                       "font-weight=\"bold\">&#x2717;</text>\n";
        }
    }

    void footer(const std::vector<std::string>& caption, const std::vector<Key>& keys,
                double width) {
        // Scale bar: one inch.
        double bar_y = f.header + f.plot_h + 14;
        out << "<line x1=\"" << svg::num(f.ox + 10) << "\" y1=\"" << svg::num(bar_y) << "\" x2=\""
            << svg::num(f.ox + 10 + 25.4 * f.scale) << "\" y2=\"" << svg::num(bar_y)
            << "\" stroke=\"#000\" stroke-width=\"2\"/>\n<text x=\""
            << svg::num(f.ox + 14 + 25.4 * f.scale) << "\" y=\"" << svg::num(bar_y + 4)
            << "\" font-size=\"11\">1 inch</text>\n";

        // Caption and legend.
        double y = bar_y + 26;
        for (const std::string& line : caption) {
            out << "<text x=\"" << svg::num(width / 2) << "\" y=\"" << svg::num(y)
                << "\" text-anchor=\"middle\" font-size=\"13\">" << svg::escape(line)
                << "</text>\n";
            y += 20;
        }
        double kx = 14;
        for (const Key& k : keys) {
            if (kx > 14 && kx + key_width(k) > width) {
                kx = 14;
                y += 20;
            }
            out << "<circle cx=\"" << svg::num(kx + 6) << "\" cy=\"" << svg::num(y - 4)
                << "\" r=\"6\" fill=\"" << k.fill << "\" stroke=\"" << k.stroke
                << "\" stroke-width=\"2\"/><text x=\"" << svg::num(kx + 16) << "\" y=\""
                << svg::num(y) << "\" font-size=\"12\">" << k.text << "</text>\n";
            kx += key_width(k);
        }
    }

  private:
    const Scenario& s;
    const PlanReport& plan;
    const Frame& f;
    std::ostream& out;
};

}  // namespace

std::string plan_svg(const Scenario& s, const PlanReport& plan) {
    const Frame f = plan_frame(s, plan);
    const std::vector<std::string> caption = plan_caption(s, plan);
    // Wide enough for the plot, the title and the caption (about 9.5 and 6.8 px a character).
    double text_w = 9.5 * static_cast<double>(plan.title.size()) + 20;
    for (const std::string& line : caption)
        text_w = std::max(text_w, 6.8 * static_cast<double>(line.size()) + 20);
    const double width = std::max({f.plot_w, 640.0, text_w});
    const std::vector<Key> keys = plan_keys(plan);
    const double footer = 26.0 * (caption.size() + 2) + 20 + 20.0 * (legend_rows(keys, width) - 1);
    svg::Document doc(width, f.plot_h + f.header + footer);
    Frame page = f;
    page.ox = (width - f.plot_w) / 2;
    auto& out = doc.body();
    out << "<defs><marker id=\"arrow\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" "
           "markerWidth=\"6\" markerHeight=\"6\" orient=\"auto-start-reverse\">"
           "<path d=\"M0,0 L10,5 L0,10 z\" fill=\"#444\"/></marker></defs>\n";
    out << "<text x=\"" << svg::num(width / 2) << "\" y=\"22\" text-anchor=\"middle\" "
        << "font-size=\"17\" font-weight=\"bold\">" << svg::escape(plan.title) << "</text>\n";
    PlanPainter paint(s, plan, page, out);
    paint.enemies();
    paint.starts();
    paint.moves();
    paint.ends();
    paint.footer(caption, keys, width);
    return doc.str();
}

void write_file_atomic(const std::string& path, const std::string& text) {
    const std::string tmp = path + ".tmp";
    {
        std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
        if (!f) throw InputError(path + ": cannot write");
        f << text;
        if (!f) throw InputError(path + ": cannot write (disk full?)");
    }
    std::error_code ec;
    std::filesystem::rename(tmp, path, ec);
    if (ec) throw InputError(path + ": cannot write: " + ec.message());
}

const char* const kGenerationsCsvHeader =
    "generation,best,mean,worst,best_in_range,evals_per_s,best_ever,seconds,evaluate_s,"
    "select_s,vary_s,statistics_s";

std::string generations_csv_row(const GenerationReport& r, uint64_t population, float best_ever) {
    char buf[512];
    std::snprintf(buf, sizeof buf, "%u,%.9g,%.9g,%.9g,%d,%.6g,%.9g,%.6g,%.6g,%.6g,%.6g,%.6g",
                  r.generation, r.stats.best, r.stats.mean, r.stats.worst,
                  r.best_of_generation.in_range_count, r.seconds > 0 ? population / r.seconds : 0.0,
                  best_ever, r.seconds, r.phases.evaluate, r.phases.select, r.phases.vary,
                  r.phases.statistics);
    return buf;
}

}  // namespace gaeval::pile_in
