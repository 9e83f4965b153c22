#include "host/games/player_file.hpp"

#include <cmath>
#include <fstream>

#include "host/core/error.hpp"
#include "host/io/json_fields.hpp"

namespace gaeval::games {

namespace {

constexpr const char* kFormat = "gaeval-player";
constexpr const char* kGridFormat = "gaeval-grid-weights";  // Ataxx's first format
// Version 2: weights of features in [0, 1], higher is better (issue 14). Version 1 files are
// read through GameInfo::version1_weight_factors (the same player, up to float rounding).
constexpr int kVersion = 2;
constexpr int kMaxDepth = 8;

std::string text_field(const nlohmann::json& doc, const char* key, const std::string& where) {
    if (!doc.contains(key)) throw InputError(where + ": missing field '" + key + "'");
    if (!doc[key].is_string()) throw InputError(where + ": field '" + key + "' must be a string");
    return doc[key].get<std::string>();
}

}  // namespace

int weight_index(const GameInfo& game, const std::string& name) {
    for (std::size_t i = 0; i < game.weight_names.size(); ++i)
        if (game.weight_names[i] == name) return static_cast<int>(i);
    return -1;
}

PlayerFile read_player_file(const std::string& path, const GameInfo& game) {
    return parse_player_file(json_fields::read_file(path), path, game);
}

PlayerFile parse_player_file(const nlohmann::json& doc, const std::string& path,
                             const GameInfo& game) {
    if (!doc.is_object()) throw InputError(path + ": expected a JSON object");
    const std::string format = text_field(doc, "format", path);
    if (format != kFormat && format != kGridFormat)
        throw InputError(path + ": field 'format' must be \"" + std::string(kFormat) + "\"");
    if (!doc.contains("version") || !doc.at("version").is_number_integer() ||
        (doc.at("version").get<long long>() != 1 && doc.at("version").get<long long>() != kVersion))
        throw InputError(path + ": field 'version' must be 1 or " + std::to_string(kVersion));
    const bool version1 = doc.at("version").get<long long>() == 1;
    PlayerFile file;
    file.game = text_field(doc, "game", path);
    if (file.game != game.name)
        throw InputError(path + ": a player for " + file.game + ", expected " + game.name);
    if (format == kGridFormat) {
        file.learned_on = {{"board", text_field(doc, "board", path)},
                           {"rules", text_field(doc, "rules", path)}};
    } else {
        if (doc.contains("learned_on")) {
            if (!doc.at("learned_on").is_object())
                throw InputError(path + ": field 'learned_on' must be an object");
            file.learned_on = doc.at("learned_on");
        }
        if (doc.contains("depth")) {
            if (!doc.at("depth").is_number_integer() || doc.at("depth").get<long long>() < 1 ||
                doc.at("depth").get<long long>() > kMaxDepth)
                throw InputError(path + ": field 'depth' must be an integer from 1 to " +
                                 std::to_string(kMaxDepth));
            file.depth = doc.at("depth").get<int>();
        }
    }
    if (game.weight_names.empty())
        throw InputError(path + ": " + game.name + " has no weighted player");
    if (!doc.contains("features") || !doc.at("features").is_array())
        throw InputError(path + ": field 'features' must be an array of feature names");
    if (!doc.contains("weights") || !doc.at("weights").is_array())
        throw InputError(path + ": field 'weights' must be an array of numbers");
    const auto& names = doc.at("features");
    const auto& values = doc.at("weights");
    if (names.size() != values.size())
        throw InputError(path + ": 'features' has " + std::to_string(names.size()) +
                         " entries but 'weights' has " + std::to_string(values.size()));
    file.weights.assign(game.weight_names.size(), 0.0f);
    std::vector<bool> seen(game.weight_names.size(), false);
    for (std::size_t i = 0; i < names.size(); ++i) {
        const std::string where = path + ": features[" + std::to_string(i) + "]";
        if (!names[i].is_string()) throw InputError(where + " must be a string");
        const std::string name = names[i].get<std::string>();
        const int index = weight_index(game, name);
        if (index < 0)
            throw InputError(where + ": unknown feature '" + name + "' for " + game.name);
        if (seen[index]) throw InputError(where + ": feature '" + name + "' listed twice");
        seen[index] = true;
        if (!values[i].is_number())
            throw InputError(path + ": weights[" + std::to_string(i) + "] must be a number");
        const double value = values[i].get<double>();
        if (!std::isfinite(value) || std::fabs(value) > 1e30)
            throw InputError(path + ": weights[" + std::to_string(i) + "] is not a finite float");
        file.weights[index] = static_cast<float>(value);
    }
    if (version1 && !game.version1_weight_factors.empty())
        for (std::size_t i = 0; i < file.weights.size(); ++i)
            file.weights[i] = file.weights[i] * game.version1_weight_factors[i];
    return file;
}

std::string player_file_json(const GameInfo& game, const PlayerFile& file) {
    nlohmann::json doc;
    doc["format"] = kFormat;
    doc["version"] = kVersion;
    doc["game"] = game.name;
    doc["learned_on"] = file.learned_on;
    doc["depth"] = file.depth;
    doc["features"] = nlohmann::json::array();
    doc["weights"] = nlohmann::json::array();
    for (std::size_t i = 0; i < game.weight_names.size(); ++i) {
        doc["features"].push_back(game.weight_names[i]);
        doc["weights"].push_back(i < file.weights.size() ? file.weights[i] : 0.0f);
    }
    return doc.dump(2);
}

void write_player_file(const std::string& path, const GameInfo& game, const PlayerFile& file) {
    std::ofstream out(path);
    if (!out) throw InputError(path + ": cannot write player file");
    out << player_file_json(game, file) << '\n';
    if (!out) throw InputError(path + ": error while writing player file");
}

bool builtin_player(const std::string& name, const GameInfo& game, PlayerData* out) {
    PlayerData p;
    p.label = name;
    if (name == "random") {
        p.kind = PlayerKind::Random;
        *out = p;
        return true;
    }
    for (std::size_t i = 0; i < game.policy_names.size(); ++i) {
        if (game.policy_names[i] == name) {
            p.kind = PlayerKind::Policy;
            p.policy = static_cast<int>(i + 1);
            *out = p;
            return true;
        }
    }
    return false;
}

PlayerData parse_player(const std::string& spec, const std::string& flag, const GameInfo& game) {
    PlayerData player;
    if (builtin_player(spec, game, &player)) return player;
    std::ifstream probe(spec);
    if (!probe) {
        std::string names = "random";
        for (const std::string& p : game.policy_names) names += ", " + p;
        const bool vowel =
            !game.name.empty() && std::string("aeiou").find(game.name[0]) != std::string::npos;
        throw InputError(flag + " '" + spec + "': not " + (vowel ? "an " : "a ") + game.name +
                         " player (" + names + ") nor a readable player file");
    }
    const PlayerFile file = read_player_file(spec, game);
    player.kind = PlayerKind::Weighted;
    player.depth = file.depth;
    player.weights = file.weights;
    player.label = spec;
    return player;
}

}  // namespace gaeval::games
