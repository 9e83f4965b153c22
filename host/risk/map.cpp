#include "host/risk/map.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>
#include <vector>

#include <nlohmann/json.hpp>

#include "host/core/error.hpp"
#include "host/io/json_fields.hpp"

namespace gaeval::risk {

namespace {

namespace jf = json_fields;

constexpr const char* kFormat = "gaeval-risk-map";
constexpr int kMaxBonus = 1000;

const nlohmann::json& array_field(const nlohmann::json& doc, const char* key,
                                  const std::string& where) {
    if (!doc.contains(key)) throw InputError(jf::field(where, key) + ": missing");
    const auto& v = doc.at(key);
    if (!v.is_array()) throw InputError(jf::field(where, key) + ": must be an array");
    return v;
}

// The array doc[key] of `low` to `high` entries.
const nlohmann::json& list_field(const nlohmann::json& doc, const char* key,
                                 const std::string& where, std::size_t low, std::size_t high) {
    const auto& v = array_field(doc, key, where);
    if (v.size() < low || v.size() > high)
        throw InputError(jf::field(where, key) + ": must list " + std::to_string(low) + " to " +
                         std::to_string(high) + " " + key + ", got " + std::to_string(v.size()));
    return v;
}

std::string name_field(const nlohmann::json& obj, const std::string& where) {
    const std::string name = jf::string(obj, "name", where);
    if (name.empty()) throw InputError(jf::field(where, "name") + ": must not be empty");
    return name;
}

// The name of entry `index` (non-empty, not seen before), recorded in `seen`.
std::string unique_name(const nlohmann::json& obj, const std::string& where, int index,
                        std::map<std::string, int>& seen) {
    const std::string name = name_field(obj, where);
    if (seen.count(name))
        throw InputError(jf::field(where, "name") + ": '" + name + "' is listed twice");
    seen[name] = index;
    return name;
}

}  // namespace

void parse_map(const std::string& text, const std::string& origin, Map* map, MapNames* names) {
    nlohmann::json doc;
    try {
        doc = nlohmann::json::parse(text);
    } catch (const nlohmann::json::exception& e) {
        const std::string msg = e.what();
        const auto cut = msg.find("] ");
        throw InputError(origin + ": malformed JSON: " +
                         (cut == std::string::npos ? msg : msg.substr(cut + 2)));
    }
    jf::expect_keys(doc, origin, {"format", "version", "name", "about", "continents", "territories"});
    if (jf::string(doc, "format", origin) != kFormat)
        throw InputError(jf::field(origin, "format") + ": must be \"" + kFormat + "\"");
    if (!doc.contains("version") || doc["version"] != 1)
        throw InputError(jf::field(origin, "version") + ": must be 1");
    MapNames out;
    out.name = name_field(doc, origin);

    Map m;
    std::memset(&m, 0, sizeof m);
    const auto& continents = list_field(doc, "continents", origin, 1, kMaxContinents);
    std::map<std::string, int> continent_index;
    for (std::size_t c = 0; c < continents.size(); ++c) {
        const std::string where = jf::element(jf::field(origin, "continents"), c);
        jf::expect_keys(continents[c], where, {"name", "bonus"});
        out.continents.push_back(unique_name(continents[c], where, int(c), continent_index));
        const double bonus = jf::number(continents[c], "bonus", where);
        if (bonus != std::floor(bonus) || bonus < 0 || bonus > kMaxBonus)
            throw InputError(jf::field(where, "bonus") + ": must be an integer from 0 to " +
                             std::to_string(kMaxBonus));
        m.bonus[c] = int32_t(bonus);
    }
    m.continents = int32_t(continents.size());

    const auto& territories = list_field(doc, "territories", origin, 2, kMaxTerritories);
    std::map<std::string, int> territory_index;
    for (std::size_t t = 0; t < territories.size(); ++t) {
        const std::string where = jf::element(jf::field(origin, "territories"), t);
        jf::expect_keys(territories[t], where, {"name", "continent", "borders"});
        out.territories.push_back(unique_name(territories[t], where, int(t), territory_index));
        const std::string continent = jf::string(territories[t], "continent", where);
        const auto c = continent_index.find(continent);
        if (c == continent_index.end())
            throw InputError(jf::field(where, "continent") + ": '" + continent +
                             "' is not a continent of the map");
        m.continent_cells[c->second] |= uint64_t{1} << t;
    }
    m.territories = int32_t(territories.size());
    m.all = m.territories == 64 ? ~uint64_t{0} : (uint64_t{1} << m.territories) - 1;
    for (int c = 0; c < m.continents; ++c)
        if (m.continent_cells[c] == 0)
            throw InputError(jf::element(jf::field(origin, "continents"), c) + ": '" +
                             out.continents[c] + "' has no territory");

    for (std::size_t t = 0; t < territories.size(); ++t) {
        const std::string where =
            jf::field(jf::element(jf::field(origin, "territories"), t), "borders");
        const auto& borders = array_field(territories[t], "borders",
                                          jf::element(jf::field(origin, "territories"), t));
        for (std::size_t k = 0; k < borders.size(); ++k) {
            const std::string at = jf::element(where, k);
            if (!borders[k].is_string()) throw InputError(at + ": must be a territory name");
            const std::string other = borders[k].get<std::string>();
            const auto it = territory_index.find(other);
            if (it == territory_index.end())
                throw InputError(at + ": '" + other + "' is not a territory of the map");
            if (it->second == int(t))
                throw InputError(at + ": '" + other + "' borders itself");
            if ((m.borders[t] >> it->second) & 1)
                throw InputError(at + ": '" + other + "' is listed twice");
            m.borders[t] |= uint64_t{1} << it->second;
        }
    }
    for (int t = 0; t < m.territories; ++t)
        for (int u = 0; u < m.territories; ++u)
            if (((m.borders[t] >> u) & 1) && !((m.borders[u] >> t) & 1))
                throw InputError(origin + ": territories[" + std::to_string(u) + "] ('" +
                                 out.territories[u] + "') does not list '" + out.territories[t] +
                                 "' in its borders, though '" + out.territories[t] +
                                 "' borders it (borders must be symmetric)");
    uint64_t reached = 1, frontier = 1;
    while (frontier) {
        uint64_t next = 0;
        for (int t = 0; t < m.territories; ++t)
            if ((frontier >> t) & 1) next |= m.borders[t];
        frontier = next & ~reached;
        reached |= next;
    }
    if (reached != m.all) {
        int cut = 0;
        while ((reached >> cut) & 1) ++cut;
        throw InputError(origin + ": the board is not connected ('" + out.territories[cut] +
                         "' cannot be reached from '" + out.territories[0] + "')");
    }
    *map = m;
    if (names) *names = out;
}

void roll_odds(int na, int nd, double* out, long* counts) {
    long tally[3] = {0, 0, 0};
    int total = 1;
    for (int i = 0; i < na + nd; ++i) total *= 6;
    for (int code = 0; code < total; ++code) {
        int dice[5], c = code;
        for (int i = 0; i < na + nd; ++i) {
            dice[i] = c % 6 + 1;
            c /= 6;
        }
        ++tally[attacker_losses(dice, na, dice + na, nd)];
    }
    for (int i = 0; i < 3; ++i) {
        out[i] = double(tally[i]) / total;
        if (counts) counts[i] = tally[i];
    }
}

void compute_odds(Odds* odds) {
    double roll[4][3][3];
    for (int na = 1; na <= 3; ++na)
        for (int nd = 1; nd <= 2; ++nd) roll_odds(na, nd, roll[na][nd], nullptr);
    // win: P(conquest); alive: E[survivors; conquest]; held: E[defenders; failure].
    using Grid = std::vector<std::vector<double>>;
    Grid win(kOddsSize, std::vector<double>(kOddsSize)), alive = win, held = win;
    for (int a = 0; a < kOddsSize; ++a)
        for (int d = 0; d < kOddsSize; ++d) {
            if (d == 0) {
                win[a][d] = a > 0 ? 1 : 0;
                alive[a][d] = a;
                held[a][d] = 0;
                continue;
            }
            if (a == 0) {
                win[a][d] = 0;
                alive[a][d] = 0;
                held[a][d] = d;
                continue;
            }
            const int na = std::min(3, a), nd = std::min(2, d), pairs = std::min(na, nd);
            win[a][d] = alive[a][d] = held[a][d] = 0;
            for (int lost = 0; lost <= pairs; ++lost) {
                const double p = roll[na][nd][lost];
                const int a2 = a - lost, d2 = d - (pairs - lost);
                win[a][d] += p * win[a2][d2];
                alive[a][d] += p * alive[a2][d2];
                held[a][d] += p * held[a2][d2];
            }
        }
    for (int a = 0; a < kOddsSize; ++a)
        for (int d = 0; d < kOddsSize; ++d) {
            odds->win[a][d] = static_cast<float>(win[a][d]);
            const long survivors = win[a][d] > 0 ? std::lround(alive[a][d] / win[a][d]) : 1;
            const long defenders = win[a][d] < 1 ? std::lround(held[a][d] / (1 - win[a][d])) : 1;
            odds->won_survivors[a][d] =
                static_cast<uint8_t>(std::max(1L, std::min<long>(std::max(a, 1), survivors)));
            odds->lost_defenders[a][d] =
                static_cast<uint8_t>(std::max(1L, std::min<long>(std::max(d, 1), defenders)));
        }
}

std::shared_ptr<Tables> load_tables(const std::string& spec, MapNames* names) {
    auto tables = std::make_shared<Tables>();
    if (spec == "classic") {
        parse_map(classic_map_text(), "data/risk/classic.json", &tables->map, names);
    } else {
        std::ifstream in(spec, std::ios::binary);
        if (!in) throw InputError("--map " + spec + ": cannot open the map file");
        std::stringstream text;
        text << in.rdbuf();
        parse_map(text.str(), spec, &tables->map, names);
    }
    compute_odds(&tables->odds);
    return tables;
}

}  // namespace gaeval::risk
