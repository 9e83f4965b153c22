// The generic registry entry of a game that needs no host code of its own: a game type that
// names itself (kName, kSummary), starts from start(), and lists its weight and policy names
// (kFeatureNames for the default weighted player or kWeightNames for its own weighted_move;
// kPolicyNames). It has no flags of its own.
#pragma once

#include <memory>
#include <string>
#include <type_traits>

#include "games/core/game.hpp"
#include "games/core/perft.hpp"
#include "host/games/registry.hpp"

namespace gaeval::games {

namespace detail {
template <class G, class = void>
struct names_itself : std::false_type {};
template <class G>
struct names_itself<G, std::void_t<decltype(G::kName), decltype(G::kSummary)>> : std::true_type {};
template <class G, class = void>
struct has_weight_names : std::false_type {};
template <class G>
struct has_weight_names<G, std::void_t<decltype(G::kWeightNames)>> : std::true_type {};
template <class G, class = void>
struct has_feature_names : std::false_type {};
template <class G>
struct has_feature_names<G, std::void_t<decltype(G::kFeatureNames)>> : std::true_type {};
template <class G, class = void>
struct has_version1_factors : std::false_type {};
template <class G>
struct has_version1_factors<G, std::void_t<decltype(G::kVersion1WeightFactors)>> : std::true_type {
};
template <class G, class = void>
struct has_policy_names : std::false_type {};
template <class G>
struct has_policy_names<G, std::void_t<decltype(G::kPolicyNames)>> : std::true_type {};
}  // namespace detail

template <class G>
constexpr bool names_itself_v = detail::names_itself<G>::value;

template <class G>
class SimpleEntry final : public GameEntry {
  public:
    SimpleEntry() {
        info_.name = G::kName;
        info_.summary = G::kSummary;
        const G game{};
        info_.min_seats = info_.max_seats = game.seats(game.start());
        if constexpr (G::kWeightCount > 0) {
            if constexpr (has_weighted_move_v<G>) {
                static_assert(detail::has_weight_names<G>::value,
                              "a game with its own weighted_move names its weights: kWeightNames");
                for (int i = 0; i < G::kWeightCount; ++i)
                    info_.weight_names.push_back(G::kWeightNames[i]);
                info_.weighted_player = "the game's own weighted player";
            } else {
                static_assert(detail::has_feature_names<G>::value,
                              "a game with features names them: kFeatureNames");
                for (int i = 0; i < G::kFeatureCount; ++i)
                    info_.weight_names.push_back(G::kFeatureNames[i]);
                if constexpr (detail::has_version1_factors<G>::value)
                    for (int i = 0; i < G::kFeatureCount; ++i)
                        info_.version1_weight_factors.push_back(G::kVersion1WeightFactors[i]);
                info_.weighted_player =
                    "one ply: the move whose position scores highest; depth > 1: alpha-beta";
            }
        }
        if constexpr (G::kPolicyCount > 0) {
            static_assert(detail::has_policy_names<G>::value,
                          "a game with built-in policies names them: kPolicyNames");
            for (int i = 0; i < G::kPolicyCount; ++i)
                info_.policy_names.push_back(G::kPolicyNames[i]);
        }
        info_.perft = has_perft_v<G>;
    }
    const GameInfo& info() const override { return info_; }
    std::unique_ptr<GameSession> open(const std::map<std::string, std::string>&) const override {
        const G game{};
        return std::make_unique<TypedSession<G>>(info_, nlohmann::json{{"game", info_.name}},
                                                 info_.name, game, game.start());
    }

    // `gaeval bench --game NAME` for a game with no host code: perft from the start position at
    // the first depth whose count reaches 10^6 nodes (or the deepest with any node, for a game
    // that ends sooner), random playouts and, for each built-in policy, that policy against
    // random; a tournament when the game has weights. Not in the default workload (its signature
    // stays that of the games with host entries).
    BenchCases bench_cases() const override {
        BenchCases cases;
        const nlohmann::json setup = nlohmann::json::object();
        const G game{};
        if constexpr (has_perft_v<G>) {
            int depth = 0;
            uint64_t nodes = 0;
            for (int d = 1; d <= 32 && nodes < 1000000; ++d) {
                const uint64_t n = perft(game, game.start(), d);
                if (n == 0) break;
                depth = d, nodes = n;
            }
            if (depth > 0) cases.perft.push_back({"start", setup, depth});
        }
        PlayerData random;
        random.label = "random";
        cases.playouts.push_back({"random", info_.name, setup, random, random});
        for (size_t i = 0; i < info_.policy_names.size(); ++i) {
            PlayerData policy;
            policy.kind = PlayerKind::Policy;
            policy.policy = static_cast<int>(i) + 1;
            policy.label = info_.policy_names[i];
            cases.playouts.push_back(
                {info_.policy_names[i] + "-vs-random", info_.name, setup, policy, random});
        }
        if (!info_.weight_names.empty()) cases.tournament_setup = setup;
        return cases;
    }

  private:
    GameInfo info_;
};

}  // namespace gaeval::games
