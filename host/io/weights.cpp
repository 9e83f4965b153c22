#include "host/io/weights.hpp"

#include <cmath>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "host/io/error.hpp"

namespace gaeval::io {

namespace {

constexpr const char* kFormat = "gaeval-grid-weights";
constexpr int kVersion = 1;

// Indexed by grid::Feature; part of the file format: append, never rename.
constexpr const char* kFeatureNames[grid::kFeatureCount] = {
    "own_pieces",
    "opponent_pieces",
    "own_safe",
    "own_near_safe_1",
    "own_near_safe_2",
    "own_near_safe_3",
    "risky_holes_1",
    "risky_holes_2",
    "risky_holes_3plus",
    "own_holes",
    "opponent_safe",
    "opponent_near_safe_1",
    "opponent_near_safe_2",
    "opponent_near_safe_3",
    "opponent_holes",
};

std::string text_field(const nlohmann::json& doc, const char* key, const std::string& where) {
    if (!doc.contains(key)) throw InputError(where + ": missing field '" + key + "'");
    if (!doc[key].is_string()) throw InputError(where + ": field '" + key + "' must be a string");
    return doc[key].get<std::string>();
}

}  // namespace

const char* feature_name(int i) { return kFeatureNames[i]; }

int feature_index(const std::string& name) {
    for (int i = 0; i < grid::kFeatureCount; ++i)
        if (name == kFeatureNames[i]) return i;
    return -1;
}

GridWeights read_grid_weights(const std::string& path) {
    std::ifstream in(path);
    if (!in) throw InputError(path + ": cannot open weights file");
    nlohmann::json doc;
    try {
        doc = nlohmann::json::parse(in);
    } catch (const nlohmann::json::exception& e) {
        std::string what = e.what();
        throw InputError(path + ": not valid JSON (" + what.substr(what.find(']') + 2) + ")");
    }
    if (!doc.is_object()) throw InputError(path + ": expected a JSON object");
    if (text_field(doc, "format", path) != kFormat)
        throw InputError(path + ": field 'format' must be \"" + std::string(kFormat) + "\"");
    if (!doc.contains("version") || !doc["version"].is_number_integer() ||
        doc["version"].get<int>() != kVersion)
        throw InputError(path + ": field 'version' must be " + std::to_string(kVersion));
    GridWeights w;
    w.game = text_field(doc, "game", path);
    if (w.game != "ataxx")
        throw InputError(path + ": field 'game' is '" + w.game + "', expected ataxx");
    w.board = text_field(doc, "board", path);
    w.rules = text_field(doc, "rules", path);
    if (!doc.contains("features") || !doc["features"].is_array())
        throw InputError(path + ": field 'features' must be an array of feature names");
    if (!doc.contains("weights") || !doc["weights"].is_array())
        throw InputError(path + ": field 'weights' must be an array of numbers");
    const auto& names = doc["features"];
    const auto& values = doc["weights"];
    if (names.size() != values.size())
        throw InputError(path + ": 'features' has " + std::to_string(names.size()) +
                         " entries but 'weights' has " + std::to_string(values.size()));
    bool seen[grid::kFeatureCount] = {};
    for (std::size_t i = 0; i < names.size(); ++i) {
        const std::string where = path + ": features[" + std::to_string(i) + "]";
        if (!names[i].is_string()) throw InputError(where + " must be a string");
        const std::string name = names[i].get<std::string>();
        const int index = feature_index(name);
        if (index < 0) throw InputError(where + ": unknown feature '" + name + "'");
        if (seen[index]) throw InputError(where + ": feature '" + name + "' listed twice");
        seen[index] = true;
        if (!values[i].is_number())
            throw InputError(path + ": weights[" + std::to_string(i) + "] must be a number");
        const double value = values[i].get<double>();
        if (!std::isfinite(value) || std::fabs(value) > 1e30)
            throw InputError(path + ": weights[" + std::to_string(i) + "] is not a finite float");
        w.weights[index] = static_cast<float>(value);
    }
    return w;
}

std::string grid_weights_json(const GridWeights& w) {
    nlohmann::json doc;
    doc["format"] = kFormat;
    doc["version"] = kVersion;
    doc["game"] = w.game;
    doc["board"] = w.board;
    doc["rules"] = w.rules;
    doc["features"] = nlohmann::json::array();
    doc["weights"] = nlohmann::json::array();
    for (int i = 0; i < grid::kFeatureCount; ++i) {
        doc["features"].push_back(kFeatureNames[i]);
        doc["weights"].push_back(w.weights[i]);
    }
    return doc.dump(2);
}

void write_grid_weights(const std::string& path, const GridWeights& w) {
    std::ofstream out(path);
    if (!out) throw InputError(path + ": cannot write weights file");
    out << grid_weights_json(w) << '\n';
    if (!out) throw InputError(path + ": error while writing weights file");
}

grid::Player parse_grid_player(const std::string& spec, const std::string& flag) {
    grid::Player player;
    if (spec == "random") {
        player.kind = grid::PlayerKind::Random;
    } else if (spec == "capture") {
        player.kind = grid::PlayerKind::Capture;
    } else if (spec == "most-pieces") {
        player.kind = grid::PlayerKind::MostPieces;
    } else {
        std::ifstream probe(spec);
        if (!probe)
            throw InputError(flag + " '" + spec +
                             "': not a player (random, capture, most-pieces) nor a readable " +
                             "weights file");
        const GridWeights w = read_grid_weights(spec);
        player.kind = grid::PlayerKind::Weighted;
        for (int i = 0; i < grid::kFeatureCount; ++i) player.weights[i] = w.weights[i];
    }
    return player;
}

}  // namespace gaeval::io
