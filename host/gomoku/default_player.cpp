#include "host/gomoku/default_player.hpp"

#include "games/gomoku/players.hpp"
#include "host/core/error.hpp"
#include "host/gomoku/patterns.hpp"

namespace gaeval::gomoku {

games::PlayerData default_player() {
    // data/gomoku/default-player.json, weight for weight (tests/test_gomoku_engine.cpp).
    static const float kWeights[kWeightCount] = {
        1196258.5f,          82106.28125f,       7668.6943359375f,    4205.2197265625f,
        2427.267822265625f,  556.451904296875f,  226.76327514648438f, 83.04093933105469f,
        15.447565078735352f, 4.054417610168457f, 1.1595101356506348f, 0.11607649177312851f};
    games::PlayerData p;
    p.kind = PlayerKind::Weighted;
    p.depth = 2;
    p.weights.assign(kWeights, kWeights + kWeightCount);
    p.label = "default-player";
    return p;
}

std::vector<float> default_shape_weights() { return {}; }

std::vector<float> read_shape_weights(const nlohmann::json& doc, const std::string& path) {
    std::vector<float> out;
    if (!doc.is_object() || !doc.contains("shape_weights")) return out;
    const nlohmann::json& field = doc["shape_weights"];
    if (!field.is_array() || field.size() != static_cast<std::size_t>(kShapeWeightCount))
        throw InputError(path + ": shape_weights: expected an array of " +
                         std::to_string(kShapeWeightCount) + " numbers");
    for (const auto& v : field) {
        if (!v.is_number())
            throw InputError(path + ": shape_weights: expected an array of " +
                             std::to_string(kShapeWeightCount) + " numbers");
        out.push_back(v.get<float>());
    }
    return out;
}

}  // namespace gaeval::gomoku
