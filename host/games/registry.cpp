#include "host/games/registry.hpp"

#include "games/registry.hpp"
#include "generated/game_entries.hpp"
#include "host/games/simple_entry.hpp"

namespace gaeval::games {

namespace {

template <class G>
void add_simple(std::vector<std::unique_ptr<GameEntry>>& list) {
    if constexpr (names_itself_v<G>) list.push_back(std::make_unique<SimpleEntry<G>>());
}

std::vector<std::unique_ptr<GameEntry>> make_registry() {
    std::vector<std::unique_ptr<GameEntry>> list;
    // The host entries of games/games.cmake (ENTRY) in its order, then the types that name
    // themselves.
#define GAEVAL_ADD_ENTRY(make) list.push_back(make());
    GAEVAL_FOR_EACH_GAME_ENTRY(GAEVAL_ADD_ENTRY)
#undef GAEVAL_ADD_ENTRY
#define GAEVAL_ADD_SIMPLE(G) add_simple<G>(list);
    GAEVAL_FOR_EACH_GAME_TYPE(GAEVAL_ADD_SIMPLE)
#undef GAEVAL_ADD_SIMPLE
    return list;
}

}  // namespace

std::unique_ptr<GameSession> GameEntry::open_setup(const nlohmann::json& setup,
                                                   const std::string& origin) const {
    if (!setup.is_object()) throw InputError(origin + ": the game setup must be a JSON object");
    std::map<std::string, std::string> options;
    for (const auto& [key, value] : setup.items()) {
        if (key == "game") {
            if (!value.is_string() || value.get<std::string>() != info().name)
                throw InputError(origin + ": game " + value.dump() + " is not " + info().name);
            continue;
        }
        const GameOption* option = nullptr;
        for (const GameOption& o : info().options)
            if (o.name == key) option = &o;
        if (!option)
            throw InputError(origin + ": " + info().name + " has no setting '" + key + "'");
        if (option->is_switch) {
            if (!value.is_boolean())
                throw InputError(origin + ": '" + key + "' must be true or false");
            if (value.get<bool>()) options[key] = "true";
        } else if (value.is_string()) {
            options[key] = value.get<std::string>();
        } else if (value.is_number_integer()) {
            options[key] = std::to_string(value.get<long long>());
        } else {
            throw InputError(origin + ": '" + key + "' must be a string or an integer");
        }
    }
    return open(options);
}

std::string GameEntry::option(const std::map<std::string, std::string>& options,
                              const std::string& name) const {
    const auto it = options.find(name);
    if (it != options.end()) return it->second;
    for (const GameOption& o : info().options)
        if (o.name == name) return o.default_value;
    return std::string();
}

const std::vector<std::unique_ptr<GameEntry>>& all_games() {
    static const std::vector<std::unique_ptr<GameEntry>> registry = make_registry();
    return registry;
}

const GameEntry& find_game(const std::string& name) {
    for (const auto& entry : all_games())
        if (entry->info().name == name) return *entry;
    throw InputError("--game '" + name + "': unknown game (registered: " + game_names() + ")");
}

const GameEntry& default_game() { return *all_games().front(); }

std::string game_names() {
    std::string names;
    for (const auto& entry : all_games()) names += (names.empty() ? "" : ", ") + entry->info().name;
    return names;
}

}  // namespace gaeval::games
