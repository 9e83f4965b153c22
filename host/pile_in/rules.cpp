#include "host/pile_in/rules.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <utility>
#include <vector>

#include "host/core/deprecation.hpp"
#include "host/core/error.hpp"
#include "problems/pile_in/rules_fitness.hpp"

namespace gaeval::pile_in {

namespace {

// AoS 1st/2nd: strictly closer, coherency 1", one neighbour. AoS 3rd: no further, 1", two
// neighbours from 7 models. AoS 4th: no further from the target unit, 1/2", two neighbours
// from 7, combat range 3". Reach defaults: the common weapon range 1" (AoS1-3), combat range
// 3" (AoS4); scenarios usually set their own.
const RulesPreset kPresets[] = {
    {"aos1", "Age of Sigmar 1st edition", Direction::StrictlyCloser, 1.0, 0, 1.0},
    {"aos2", "Age of Sigmar 2nd edition", Direction::StrictlyCloser, 1.0, 0, 1.0},
    {"aos3", "Age of Sigmar 3rd edition", Direction::NoFurther, 1.0, 7, 1.0},
    {"aos4", "Age of Sigmar 4th edition", Direction::NoFurtherFromTarget, 0.5, 7, 3.0},
};

std::string num(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", v);
    return buf;
}

std::string model(int m) { return "friendly[" + std::to_string(m) + "]"; }

// Smallest power of two >= v.
float power_of_two_at_least(double v) {
    double w = 1.0;
    while (w < v) w *= 2.0;
    return static_cast<float>(w);
}

// InputError when the unit breaks a rule before anybody moves (the plan where nobody moves
// must be legal: it is every run's fallback).
void check_start(const std::string& preset, const RulesProblem& p) {
    PlanPose pose;
    std::vector<uint32_t> still(p.layout.words, 0u);
    for (int q = 0; p.layout.order >= 0 && q < p.layout.models; ++q)
        still[p.layout.order + q] = static_cast<uint32_t>(q);
    decode_plan(p, GenomeGenes{still.data()}, pose);
    uint8_t flags[MaxFriendly];
    Breakdown b = check_plan(p, pose, flags);
    if (b.legal) return;
    const Scenario& s = p.scenario;
    const std::string coherency =
        num(s.coherency_mm) + " mm (" + num(s.coherency_mm / 25.4) + "\")";
    const bool two =
        p.rules.two_neighbours_from > 0 && s.friendly_count >= p.rules.two_neighbours_from;
    for (int m = 0; m < s.friendly_count; ++m) {
        if (flags[m] & BrokeCoherency)
            throw InputError("the unit starts out of coherency under " + preset + ": " + model(m) +
                             " has " + (two ? "fewer than 2 friends" : "no friend") + " within " +
                             coherency + " (move it, or raise --coherency)");
    }
    for (int m = 0; m < s.friendly_count; ++m) {
        if (flags[m] & BrokeSplit)
            throw InputError("the unit starts split into separate groups under " + preset + ": " +
                             model(m) + " is not connected to the largest group within " +
                             coherency + " (move it, or raise --coherency)");
    }
    for (int m = 0; m < s.friendly_count; ++m) {
        if (flags[m] & BrokeOverlap)
            throw InputError(model(m) + " overlaps another base at the start");
    }
    throw InputError("the start positions break the " + preset + " rules");
}

}  // namespace

const RulesPreset* find_preset(const std::string& name) {
    for (const RulesPreset& p : kPresets)
        if (name == p.name) return &p;
    return nullptr;
}

void check_rules_name(const std::string& name) {
    if (name == "gapi1" || find_preset(name)) return;
    throw InputError("--rules: unknown rules '" + name +
                     "' (expected gapi1, aos1, aos2, aos3, aos4)");
}

RulesProblem build_rules_problem(const std::string& preset_name, const ScenarioFile& file,
                                 const RuleOverrides& flags) {
    check_rules_name(preset_name);
    const RulesPreset* preset = find_preset(preset_name);
    if (!preset) throw InputError("--rules " + preset_name + ": not a rules preset");
    const RuleOverrides& fr = file.rules;
    auto pick = [](const auto& flag, const auto& field, auto fallback) {
        return flag ? *flag : (field ? *field : fallback);
    };

    RulesProblem p{};
    p.scenario = file.scenario;
    Scenario& s = p.scenario;
    const double reach = pick(flags.reach_mm, fr.reach_mm, preset->reach_inch * 25.4);
    const double coherency =
        pick(flags.coherency_mm, fr.coherency_mm, preset->coherency_inch * 25.4);
    if (flags.reach_mm && reach < 0)
        throw InputError("--reach: must be >= 0, got " + num(reach / 25.4));
    if (flags.coherency_mm && coherency < 0)
        throw InputError("--coherency: must be >= 0, got " + num(coherency / 25.4));
    if (reach < 0) throw InputError("reach: must be >= 0, got " + num(reach) + " mm");
    if (coherency < 0) throw InputError("coherency: must be >= 0, got " + num(coherency) + " mm");
    s.reach_mm = static_cast<float>(reach);
    s.coherency_mm = static_cast<float>(coherency);

    Rules& r = p.rules;
    r.direction = pick(flags.direction, fr.direction, preset->direction);
    r.two_neighbours_from =
        pick(flags.two_neighbours_from, fr.two_neighbours_from, preset->two_neighbours_from);
    if (r.two_neighbours_from < 0)
        throw InputError("--two-neighbours-from: must be >= 0, got " +
                         std::to_string(r.two_neighbours_from));
    r.path_check = pick(flags.path_check, fr.path_check, false);
    r.slide = pick(flags.slide, fr.slide, true);
    r.repair = pick(flags.repair, fr.repair, false);
    bool any_oval = false;
    for (int m = 0; m < s.friendly_count; ++m)
        any_oval = any_oval || s.friendly[m].base.shape == BaseShape::Oval;
    r.turn_ovals = pick(flags.turn_ovals, fr.turn_ovals, false) && any_oval;
    p.layout = make_layout(s.friendly_count, r.path_check, r.turn_ovals);

    const int target = pick(flags.target_unit, fr.target_unit, 0);
    bool target_found = false;
    for (int e = 0; e < s.enemy_count; ++e) {
        const int unit = e < static_cast<int>(file.enemy_unit.size()) ? file.enemy_unit[e] : 0;
        p.target[e] = unit == target ? 1 : 0;
        target_found = target_found || unit == target;
    }
    if (!target_found)
        throw InputError((flags.target_unit ? "--target-unit: " : "target_unit: ") +
                         std::string("no enemy model is in unit ") + std::to_string(target));

    compute_start_info(p);
    // W: larger than any distance sum a legal plan can reach (each model ends at most its
    // start gap to the reference, or its start gap plus its move without a direction rule,
    // plus what turning its base can change).
    double bound = 1.0;
    for (int m = 0; m < s.friendly_count; ++m) {
        const float nearest = nearest_enemy_gap(s, start_shape(s, m), nullptr);
        bound += std::max({0.0, static_cast<double>(nearest),
                           static_cast<double>(p.start[m].reference_gap)}) +
                 s.move_mm + 0.5 * s.friendly[m].base.length + r.tolerance_mm;
    }
    p.in_range_weight = power_of_two_at_least(bound);
    check_start(preset_name, p);
    return p;
}

nlohmann::json rules_json(const std::string& preset, const RulesProblem& p) {
    const Scenario& s = p.scenario;
    const Rules& r = p.rules;
    nlohmann::json targets = nlohmann::json::array();
    for (int e = 0; e < s.enemy_count; ++e)
        if (p.target[e]) targets.push_back(e);
    return {{"preset", preset},
            {"direction", direction_name(r.direction)},
            {"reach_mm", s.reach_mm},
            {"coherency_mm", s.coherency_mm},
            {"move_mm", s.move_mm},
            {"two_neighbours_from", r.two_neighbours_from},
            {"path_check", r.path_check},
            {"slide", r.slide},
            {"turn_ovals", r.turn_ovals},
            {"constraints", r.repair ? "repair" : "penalty"},
            {"target_models", targets},
            {"tolerance_mm", r.tolerance_mm},
            {"in_range_weight", p.in_range_weight}};
}

nlohmann::json overrides_json(const RuleOverrides& o) {
    nlohmann::json j = nlohmann::json::object();
    if (o.reach_mm) j["reach_mm"] = *o.reach_mm;
    if (o.coherency_mm) j["coherency_mm"] = *o.coherency_mm;
    if (o.two_neighbours_from) j["two_neighbours_from"] = *o.two_neighbours_from;
    if (o.direction) j["direction"] = direction_name(*o.direction);
    if (o.path_check) j["path_check"] = *o.path_check;
    if (o.slide) j["slide"] = *o.slide;
    if (o.turn_ovals) j["turn_ovals"] = *o.turn_ovals;
    if (o.repair) j["constraints"] = *o.repair ? "repair" : "penalty";
    if (o.target_unit) j["target_unit"] = *o.target_unit;
    return j;
}

RuleOverrides overrides_from_json(const nlohmann::json& j) {
    RuleOverrides o;
    if (j.contains("reach_mm")) o.reach_mm = j.at("reach_mm").get<double>();
    if (j.contains("coherency_mm")) o.coherency_mm = j.at("coherency_mm").get<double>();
    if (j.contains("two_neighbours_from"))
        o.two_neighbours_from = j.at("two_neighbours_from").get<int>();
    if (j.contains("direction"))
        o.direction = parse_direction(j.at("direction").get<std::string>(), "run.json: direction");
    if (j.contains("path_check")) o.path_check = j.at("path_check").get<bool>();
    if (j.contains("slide")) o.slide = j.at("slide").get<bool>();
    if (j.contains("turn_ovals")) o.turn_ovals = j.at("turn_ovals").get<bool>();
    if (j.contains("constraints")) o.repair = j.at("constraints").get<std::string>() == "repair";
    if (j.contains("target_unit")) o.target_unit = j.at("target_unit").get<int>();
    return o;
}

bool any_override(const RuleOverrides& o) { return !overrides_json(o).empty(); }

namespace {

constexpr double kMmPerInch = 25.4;
constexpr double kMaxLengthInches = 1000;
constexpr long long kMaxCount = 1000000;  // --two-neighbours-from, --target-unit

// Whether `text` is a whole number for strtod/strtoll (no leading space, nothing after).
bool whole(const std::string& text, const char* end) {
    return !text.empty() && *end == '\0' && !std::isspace(static_cast<unsigned char>(text[0]));
}

bool on_off(const std::string& flag, const std::string& v) {
    if (v == "on" || v == "true" || v == "yes") return true;
    if (v == "off" || v == "false" || v == "no") return false;
    throw InputError(flag + ": expected on or off, got '" + v + "'");
}

int count_flag(const std::string& flag, const std::string& text) {
    const std::string range = "[0, " + std::to_string(kMaxCount) + "]";
    char* end = nullptr;
    errno = 0;
    const long long value = std::strtoll(text.c_str(), &end, 10);
    if (!whole(text, end))
        throw InputError(flag + " '" + text + "': expected an integer in " + range);
    if (errno == ERANGE || value < 0 || value > kMaxCount)
        throw InputError(flag + " " + text + ": must be in " + range);
    return static_cast<int>(value);
}

// A length in mm: "12.7mm" or "0.5in" (docs/cli.md: lengths on the command line carry their
// unit, as a scenario file's "units" does). A bare number is the old spelling, read in inches
// as before, with a note.
double length_flag(const std::string& flag, const std::string& text) {
    for (const auto& [suffix, mm_per_unit] :
         {std::pair<const char*, double>{"mm", 1.0}, {"in", kMmPerInch}}) {
        const std::string unit = suffix;
        if (text.size() <= unit.size() ||
            text.compare(text.size() - unit.size(), unit.size(), unit) != 0)
            continue;
        const std::string number = text.substr(0, text.size() - unit.size());
        char* end = nullptr;
        const double value = std::strtod(number.c_str(), &end);
        const double max = kMaxLengthInches * kMmPerInch / mm_per_unit;
        if (!whole(number, end) || !std::isfinite(value))
            throw InputError(flag + " '" + text + "': expected a length such as 12.7mm or 0.5in");
        if (value < 0 || value > max) {
            char range[64];
            std::snprintf(range, sizeof range, "[0, %g] %s", max, suffix);
            throw InputError(flag + " " + text + ": must be in " + range);
        }
        return value * mm_per_unit;
    }
    char range[64];
    std::snprintf(range, sizeof range, "[0, %g]", kMaxLengthInches);
    char* end = nullptr;
    const double inches = std::strtod(text.c_str(), &end);
    if (!whole(text, end) || !std::isfinite(inches))
        throw InputError(flag + " '" + text + "': expected a number in " + range);
    if (inches < 0 || inches > kMaxLengthInches)
        throw InputError(flag + " " + text + ": must be in " + range);
    char note[160];
    std::snprintf(note, sizeof note, "%s %s: a bare number is read in inches; write %sin (or %gmm)",
                  flag.c_str(), text.c_str(), text.c_str(), inches * kMmPerInch);
    note_deprecated(note);
    return inches * kMmPerInch;
}

}  // namespace

const std::vector<RuleFlagInfo>& rule_flags() {
    static const std::vector<RuleFlagInfo> flags = {
        {"reach", "combat reach, edge to edge, with its unit: 12.7mm or 0.5in"},
        {"coherency", "coherency distance with its unit: 12.7mm or 0.5in"},
        {"two-neighbours-from", "units of this many models need 2 neighbours (0: never)"},
        {"direction", "strictly-closer | no-further | no-further-from-target | free"},
        {"path-check", "on | off: paths may not cross standing bases (move order evolves)"},
        {"slide", "on | off: a model in base contact may slide round it"},
        {"turn-ovals", "on | off: oval friendly bases evolve their orientation"},
        {"constraints", "penalty | repair (see docs/pile_in_rules.md)"},
        {"target-unit", "enemy unit of the no-further-from-target rule"},
    };
    return flags;
}

RuleOverrides parse_rule_flags(const std::map<std::string, std::string>& given) {
    RuleOverrides o;
    for (const RuleFlagInfo& f : rule_flags()) {
        const auto it = given.find(f.name);
        if (it == given.end()) continue;
        const std::string name = f.name, flag = "--" + name, &text = it->second;
        if (name == "reach") o.reach_mm = length_flag(flag, text);
        if (name == "coherency") o.coherency_mm = length_flag(flag, text);
        if (name == "two-neighbours-from") o.two_neighbours_from = count_flag(flag, text);
        if (name == "direction") o.direction = parse_direction(text, flag);
        if (name == "path-check") o.path_check = on_off(flag, text);
        if (name == "slide") o.slide = on_off(flag, text);
        if (name == "turn-ovals") o.turn_ovals = on_off(flag, text);
        if (name == "constraints") o.repair = parse_repair(text, flag);
        if (name == "target-unit") o.target_unit = count_flag(flag, text);
    }
    for (const auto& [name, text] : given)
        if (std::none_of(rule_flags().begin(), rule_flags().end(),
                         [&](const RuleFlagInfo& f) { return name == f.name; }))
            throw InputError("--" + name + ": not a rule flag");
    return o;
}

}  // namespace gaeval::pile_in
