// Games of the registry through the public API: sessions (host/games/session.hpp) behind Game.
#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

#include "host/api/impl.hpp"
#include "host/core/error.hpp"
#include "host/learn/learn.hpp"

namespace gaeval {

Game Game::open(const std::string& name, const std::map<std::string, std::string>& options) {
    const games::GameEntry& entry = games::find_game(name);
    for (const auto& [key, value] : options) {
        (void)value;
        const auto& known = entry.info().options;
        if (std::none_of(known.begin(), known.end(),
                         [&](const games::GameOption& o) { return o.name == key; }))
            throw InputError(name + ": unknown option '" + key + "'");
    }
    auto impl = std::make_shared<Impl>();
    impl->session = entry.open(options);
    return Game(std::move(impl));
}

std::vector<std::string> Game::names() {
    std::vector<std::string> out;
    for (const auto& entry : games::all_games()) out.push_back(entry->info().name);
    return out;
}

std::string Game::name() const { return impl_->session->info().name; }
std::string Game::description() const { return impl_->session->info().summary; }
int Game::seats() const { return impl_->session->seats(); }
std::vector<std::string> Game::weight_names() const { return impl_->session->info().weight_names; }
std::vector<std::string> Game::policy_names() const { return impl_->session->info().policy_names; }
std::vector<float> Game::initial_weights() const { return impl_->session->info().initial_weights; }
bool Game::has_perft() const { return impl_->session->info().perft; }

uint64_t Game::perft(int depth, const Backend& backend) const {
    if (depth < 0) throw InputError("perft: depth must be >= 0, got " + std::to_string(depth));
    return impl_->session->perft(depth, backend.impl().choice);
}

namespace {

// The session's player for a public one; InputError naming what does not fit the game.
games::PlayerData player_data(const games::GameInfo& info, const GamePlayer& p, std::size_t index) {
    const std::string where = "players[" + std::to_string(index) + "]";
    games::PlayerData out;
    out.depth = p.depth;
    if (p.depth < 1 || p.depth > 8)
        throw InputError(where + ": depth must be in 1..8, got " + std::to_string(p.depth));
    switch (p.kind) {
        case GamePlayer::Kind::Random:
            out.kind = PlayerKind::Random;
            out.label = "random";
            break;
        case GamePlayer::Kind::Policy:
            if (p.policy < 1 || p.policy > static_cast<int>(info.policy_names.size()))
                throw InputError(where + ": policy " + std::to_string(p.policy) + ": " + info.name +
                                 " has policies 1.." + std::to_string(info.policy_names.size()));
            out.kind = PlayerKind::Policy;
            out.policy = p.policy;
            out.label = info.policy_names[p.policy - 1];
            break;
        case GamePlayer::Kind::Weighted:
            if (info.weight_names.empty() || p.weights.size() != info.weight_names.size())
                throw InputError(where + ": " + std::to_string(p.weights.size()) + " weights; " +
                                 info.name + "'s weighted player has " +
                                 std::to_string(info.weight_names.size()));
            out.kind = PlayerKind::Weighted;
            out.weights = p.weights;
            out.label = "weighted";
            break;
        default:
            throw InputError(where + ": unknown player kind");
    }
    return out;
}

GameResult result_of(const GameRecord& r) {
    GameResult out;
    out.plies = r.plies;
    out.a_seat = r.a_seat;
    out.winner = r.winner;
    out.a_result = r.a_result;
    out.stopped = r.stopped != 0;
    out.move_hash = r.move_hash;
    return out;
}

}  // namespace

std::vector<GameResult> Game::play_pairings(const std::vector<GamePlayer>& players,
                                            const std::vector<GamePairing>& pairings, uint64_t seed,
                                            uint32_t max_plies, const Backend& backend,
                                            const BetweenPieces& between_pieces) const {
    const games::GameSession& session = *impl_->session;
    const games::GameInfo& info = session.info();
    if (max_plies == 0) throw InputError("max_plies: must be >= 1");
    std::vector<games::PlayerData> data;
    for (std::size_t i = 0; i < players.size(); ++i)
        data.push_back(player_data(info, players[i], i));
    std::vector<Pairing> typed(pairings.size());
    const int seats = session.seats();
    for (std::size_t i = 0; i < pairings.size(); ++i) {
        const GamePairing& p = pairings[i];
        if (p.a >= players.size() || p.b >= players.size() || p.a_seat >= seats)
            throw InputError("pairings[" + std::to_string(i) + "]: players " + std::to_string(p.a) +
                             " and " + std::to_string(p.b) + ", seat " + std::to_string(p.a_seat) +
                             ": out of range (" + std::to_string(players.size()) + " players, " +
                             std::to_string(seats) + " seats)");
        typed[i] = Pairing{p.a, p.b, p.a_seat};
    }
    const BackendChoice& choice = backend.impl().choice;
    std::vector<GameResult> out;
    out.reserve(pairings.size());
    // Pieces keyed as the one batch would key its games (seed, i): the same games in one call or
    // many (host/learn/gathered_play.hpp plays gathered batches so).
    constexpr std::size_t kPiece = std::size_t{1} << 16;
    try {
        if (pairings.size() <= kPiece) {
            for (const GameRecord& r : session.play_pairings(data, typed, seed, max_plies, choice))
                out.push_back(result_of(r));
            return out;
        }
        for (std::size_t first = 0; first < typed.size(); first += kPiece) {
            const std::size_t count = std::min(kPiece, typed.size() - first);
            std::vector<Pairing> piece(typed.begin() + first, typed.begin() + first + count);
            std::vector<GameKey> keys(count);
            for (std::size_t k = 0; k < count; ++k)
                keys[k] = GameKey{seed, static_cast<uint32_t>(first + k)};
            for (const GameRecord& r :
                 session.play_keyed_pairings(data, piece, keys, max_plies, choice))
                out.push_back(result_of(r));
            if (between_pieces && first + count < typed.size()) between_pieces();
        }
    } catch (const std::invalid_argument& e) {
        throw InputError(std::string("play_pairings: ") + e.what());
    }
    return out;
}

std::vector<float> Game::learn(const LearnSettings& settings, const Backend& backend,
                               const OnGeneration& on_generation) const {
    const games::GameSession& session = *impl_->session;
    const games::GameInfo& info = session.info();
    if (info.weight_names.empty())
        throw InputError("learn: " + info.name + " has no weighted player");
    auto game_default = [&](const char* key) {
        const auto it = info.learn_defaults.find(key);
        return it == info.learn_defaults.end() ? std::string() : it->second;
    };
    std::string scheme = settings.scheme;
    if (scheme.empty()) scheme = game_default("scheme");
    if (scheme.empty()) scheme = learn::kDefaultScheme;
    learn::LearnConfig c =
        learn::default_config(scheme, static_cast<uint32_t>(info.weight_names.size()));
    if (settings.population > 0) {
        c.population = settings.population;
    } else if (const std::string p = game_default("population"); !p.empty()) {
        c.population = static_cast<uint32_t>(std::stoul(p));
    }
    c.generations = settings.generations;
    c.seed = settings.seed;
    c.max_plies = settings.max_plies;
    c.depth = settings.depth;
    learn::validate(c);
    const BackendChoice& choice = backend.impl().choice;
    const learn::PlayFn play = [&](const std::vector<games::PlayerData>& players,
                                   const std::vector<gaeval::Pairing>& pairings, uint64_t seed) {
        return session.play_pairings(players, pairings, seed, c.max_plies, choice);
    };
    learn::LearnState state = learn::initial_state(c);
    while (state.generation < c.generations) {
        const learn::GenerationReport report = learn::step(c, state, play);
        LearnGeneration g;
        g.generation = state.generation;
        g.best_value = state.best_value;
        g.mean_value = state.mean_value;
        g.best_weights = state.best_weights;
        g.games = report.games;
        g.plies = report.plies;
        if (on_generation && !on_generation(g)) break;
    }
    return state.best_weights;
}

}  // namespace gaeval
