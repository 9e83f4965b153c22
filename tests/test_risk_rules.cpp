// Risk rules against independent truth: the dice against the published exact odds (and the
// addressed Philox dice against them), the battle odds table against a second implementation
// and against battles rolled by the game, the classic map's published counts and the data file,
// map validation, and hand-built positions for cards, conquest, elimination, turns and the cap.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <functional>
#include <map>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "games/core/match.hpp"
#include "host/core/error.hpp"
#include "risk_test_support.hpp"

namespace {

using namespace gaeval;
using namespace gaeval::risk;
using namespace gaeval::risk::testing;

// ---- dice -----------------------------------------------------------------------------------

// One roll by a second implementation: every die listed, sorted with std::sort.
std::vector<long> roll_counts_by_brute_force(int na, int nd) {
    std::vector<long> counts(3, 0);
    int total = 1;
    for (int i = 0; i < na + nd; ++i) total *= 6;
    for (int code = 0; code < total; ++code) {
        std::vector<int> a, d;
        int c = code;
        for (int i = 0; i < na; ++i, c /= 6) a.push_back(c % 6 + 1);
        for (int i = 0; i < nd; ++i, c /= 6) d.push_back(c % 6 + 1);
        std::sort(a.rbegin(), a.rend());
        std::sort(d.rbegin(), d.rend());
        int lost = 0;
        for (int i = 0; i < std::min(na, nd); ++i) lost += d[i] >= a[i];
        ++counts[lost];
    }
    return counts;
}

TEST(RiskDice, OneRollMatchesThePublishedExactOdds) {
    // Attacker losses 0, 1, 2 out of 6^(na + nd) rolls (Tan 1997, Osborne 2003; the 3v2).
    const std::map<std::pair<int, int>, std::vector<long>> published = {
        {{1, 1}, {15, 21, 0}},    {{2, 1}, {125, 91, 0}},     {{3, 1}, {855, 441, 0}},
        {{1, 2}, {55, 161, 0}},   {{2, 2}, {295, 420, 581}},  {{3, 2}, {2890, 2611, 2275}}};
    for (const auto& [dice, expected] : published) {
        const auto [na, nd] = dice;
        double p[3];
        long counts[3];
        roll_odds(na, nd, p, counts);
        for (int i = 0; i < 3; ++i) {
            EXPECT_EQ(counts[i], expected[i]) << na << "v" << nd << " loses " << i;
            EXPECT_EQ(roll_counts_by_brute_force(na, nd)[i], expected[i]) << na << "v" << nd;
        }
    }
}

TEST(RiskDice, AddressedDiceAreUniformAndRollTheExactOdds) {
    const int n = 60000;
    long faces[5][7] = {};
    long losses[3] = {};
    for (int k = 0; k < n; ++k) {
        int dice[5];
        roll_dice(7, 3, static_cast<uint32_t>(k), dice);
        for (int i = 0; i < 5; ++i) {
            ASSERT_GE(dice[i], 1);
            ASSERT_LE(dice[i], 6);
            ++faces[i][dice[i]];
        }
        ++losses[attacker_losses(dice, 3, dice + 3, 2)];
    }
    for (int i = 0; i < 5; ++i) {
        double chi2 = 0;
        for (int f = 1; f <= 6; ++f) chi2 += std::pow(faces[i][f] - n / 6.0, 2) / (n / 6.0);
        EXPECT_LT(chi2, 20.5) << "die " << i;  // 5 degrees of freedom, p = 0.001
    }
    const double exact[3] = {2890 / 7776.0, 2611 / 7776.0, 2275 / 7776.0};
    for (int i = 0; i < 3; ++i) {
        const double sigma = std::sqrt(n * exact[i] * (1 - exact[i]));
        EXPECT_NEAR(losses[i], n * exact[i], 4.5 * sigma) << "3v2 attacker loses " << i;
    }
    // The same address gives the same dice; another match other dice.
    bool all_same = true;
    for (uint32_t k = 0; k < 8; ++k) {
        int a[5], b[5], c[5];
        roll_dice(7, 3, k, a);
        roll_dice(7, 3, k, b);
        roll_dice(7, 4, k, c);
        EXPECT_TRUE(std::equal(a, a + 5, b));
        all_same = all_same && std::equal(a, a + 5, c);
    }
    EXPECT_FALSE(all_same);
}

// ---- battle odds -------------------------------------------------------------------------------

// P(conquest) and E[survivors; conquest] by plain recursion over single rolls whose odds come
// from the brute-force count (a second implementation of the table).
struct Exact {
    std::map<std::pair<int, int>, std::pair<double, double>> memo;
    std::map<std::pair<int, int>, std::vector<long>> rolls;
    std::pair<double, double> operator()(int a, int d) {
        if (d == 0) return {1.0, double(a)};
        if (a == 0) return {0.0, 0.0};
        const auto key = std::make_pair(a, d);
        const auto it = memo.find(key);
        if (it != memo.end()) return it->second;
        const int na = std::min(3, a), nd = std::min(2, d), m = std::min(na, nd);
        if (!rolls.count({na, nd})) rolls[{na, nd}] = roll_counts_by_brute_force(na, nd);
        const std::vector<long> counts = rolls[{na, nd}];
        const double total = std::pow(6.0, na + nd);
        double win = 0, alive = 0;
        for (int lost = 0; lost <= m; ++lost) {
            const auto next = (*this)(a - lost, d - (m - lost));
            win += counts[lost] / total * next.first;
            alive += counts[lost] / total * next.second;
        }
        return memo[key] = {win, alive};
    }
};

TEST(RiskOdds, TableMatchesASecondImplementationAndKnownValues) {
    Odds odds;
    compute_odds(&odds);
    Exact exact;
    for (int a = 1; a <= 40; ++a)
        for (int d = 1; d <= 40; ++d) {
            const auto [win, alive] = exact(a, d);
            ASSERT_NEAR(odds.win[a][d], win, 2e-6) << a << " vs " << d;
            if (win > 1e-9) {
                EXPECT_EQ(odds.won_survivors[a][d],
                          std::max(1L, std::min<long>(a, std::lround(alive / win))))
                    << a << " vs " << d;
            }
        }
    EXPECT_NEAR(odds.win[1][1], 15.0 / 36, 1e-7);
    EXPECT_NEAR(odds.win[2][1], 125.0 / 216 + 91.0 / 216 * 15.0 / 36, 1e-7);
    // Beyond the table the ratio decides.
    const Battle big = battle_odds(odds, 300, 150);
    EXPECT_EQ(big.win, odds.win[127][63]);
    EXPECT_GE(big.survivors, 1);
    EXPECT_LE(big.survivors, 300);
}

// Replays a battle with the match's dice (a second implementation of the loop), checking the
// move-in rule at the conquering roll.
struct Replay {
    int attackers, defenders, last_dice = 0;
    bool moved_enough = true;
};
Replay replay(uint64_t key, uint32_t match, uint32_t first_draw, int committed, int defenders) {
    Replay r{committed, defenders};
    uint32_t draw = first_draw;
    while (r.attackers > 0 && r.defenders > 0) {
        int dice[5];
        roll_dice(key, match, draw++, dice);
        const int na = std::min(3, r.attackers), nd = std::min(2, r.defenders);
        std::vector<int> a(dice, dice + na), d(dice + 3, dice + 3 + nd);
        std::sort(a.rbegin(), a.rend());
        std::sort(d.rbegin(), d.rend());
        for (int i = 0; i < std::min(na, nd); ++i) (d[i] >= a[i] ? r.attackers : r.defenders) -= 1;
        r.last_dice = na;
    }
    if (r.defenders == 0) r.moved_enough = r.attackers >= r.last_dice;
    return r;
}

TEST(RiskOdds, BattlesRolledByTheGameFollowTheTable) {
    Fixture f(true);
    const Game& g = f.game;
    const std::vector<std::pair<int, int>> battles = {{3, 2}, {5, 5}, {10, 7}, {2, 1}};
    for (const auto& [committed, defenders] : battles) {
        const int n = 4000;
        int conquests = 0;
        double survivors = 0;
        for (int i = 0; i < n; ++i) {
            Pos p = blank(2, 99);
            p.match = static_cast<uint32_t>(i);
            p.draws = 5;
            put(p, W1, 0, committed + 1);
            put(p, N0, 1, defenders);
            put(p, W0, 0, 1);
            put(p, S1, 1, 1);
            Move m;
            m.act = Act::Attack;
            m.from = W1;
            m.to = N0;
            m.count = static_cast<uint16_t>(committed);
            const Pos after = g.make(p, m);
            const Replay r = replay(99, p.match, 5, committed, defenders);
            ASSERT_EQ(after.armies[W1], 1);
            ASSERT_EQ(owner_of(after, N0), r.defenders == 0 ? 0 : 1);
            ASSERT_EQ(after.armies[N0], r.defenders == 0 ? r.attackers : r.defenders);
            ASSERT_TRUE(r.moved_enough) << "fewer armies moved in than dice rolled";
            if (r.defenders == 0) {
                ++conquests;
                survivors += r.attackers;
                EXPECT_EQ(after.conquered, 1);
            }
        }
        const Battle b = battle_odds(f.tables->odds, committed, defenders);
        const double sigma = std::sqrt(n * b.win * (1 - b.win));
        EXPECT_NEAR(conquests, n * b.win, 4.5 * sigma) << committed << " vs " << defenders;
        EXPECT_NEAR(survivors / conquests, b.survivors, 0.6) << committed << " vs " << defenders;
    }
}

// ---- the map ----------------------------------------------------------------------------------

TEST(RiskMap, ClassicBoardHasThePublishedCounts) {
    MapNames names;
    const auto tables = load_tables("classic", &names);
    const Map& m = tables->map;
    EXPECT_EQ(m.territories, 42);
    EXPECT_EQ(m.continents, 6);
    int borders = 0;
    for (int t = 0; t < m.territories; ++t) borders += popcount64(m.borders[t]);
    EXPECT_EQ(borders, 2 * 83);
    const std::vector<std::string> continents = {"North America", "South America", "Europe",
                                                 "Africa",        "Asia",          "Australia"};
    const int bonus[] = {5, 2, 5, 3, 7, 2}, sizes[] = {9, 4, 7, 6, 12, 4};
    ASSERT_EQ(names.continents, continents);
    for (int c = 0; c < 6; ++c) {
        EXPECT_EQ(m.bonus[c], bonus[c]) << continents[c];
        EXPECT_EQ(popcount64(m.continent_cells[c]), sizes[c]) << continents[c];
    }
    auto index = [&](const std::string& name) {
        return int(std::find(names.territories.begin(), names.territories.end(), name) -
                   names.territories.begin());
    };
    auto borders_of = [&](const std::string& a, const std::string& b) {
        return (m.borders[index(a)] >> index(b)) & 1;
    };
    // The crossings between continents on the published board.
    EXPECT_TRUE(borders_of("Alaska", "Kamchatka"));
    EXPECT_TRUE(borders_of("Greenland", "Iceland"));
    EXPECT_TRUE(borders_of("Central America", "Venezuela"));
    EXPECT_TRUE(borders_of("Brazil", "North Africa"));
    EXPECT_TRUE(borders_of("Southern Europe", "Egypt"));
    EXPECT_TRUE(borders_of("Middle East", "East Africa"));
    EXPECT_TRUE(borders_of("Siam", "Indonesia"));
    EXPECT_FALSE(borders_of("Alaska", "Greenland"));
    EXPECT_EQ(popcount64(m.borders[index("Ukraine")]), 6);
    EXPECT_EQ(popcount64(m.borders[index("Madagascar")]), 2);
    // The text compiled into gaeval is the data file shipped in the repository.
    std::ifstream file(std::string(GAEVAL_SOURCE_DIR) + "/data/risk/classic.json");
    std::stringstream text;
    text << file.rdbuf();
    EXPECT_EQ(text.str(), std::string(classic_map_text()));
}

// parse_map on the small map with one change; the error message, or "" when accepted.
std::string map_error(const std::function<void(nlohmann::json&)>& change) {
    nlohmann::json doc = nlohmann::json::parse(small_map_text());
    change(doc);
    Map m;
    try {
        parse_map(doc.dump(), "bad.json", &m, nullptr);
    } catch (const InputError& e) {
        return e.what();
    }
    return "";
}

TEST(RiskMap, BadMapsAreRefusedNamingTheField) {
    EXPECT_EQ(map_error([](nlohmann::json&) {}), "");
    auto borders = [](nlohmann::json& d, int t) -> nlohmann::json& {
        return d["territories"][t]["borders"];
    };
    const std::vector<std::pair<std::function<void(nlohmann::json&)>, std::string>> cases = {
        {[&](nlohmann::json& d) { borders(d, 0).push_back("N1"); }, "must be symmetric"},
        {[&](nlohmann::json& d) { borders(d, 0).push_back("W0"); }, "borders itself"},
        {[&](nlohmann::json& d) { borders(d, 0).push_back("W1"); }, "listed twice"},
        {[&](nlohmann::json& d) { borders(d, 0).push_back("Atlantis"); },
         "bad.json.territories[0].borders[2]: 'Atlantis' is not a territory"},
        {[&](nlohmann::json& d) { d["territories"][1]["continent"] = "Mu"; },
         "territories[1].continent: 'Mu' is not a continent"},
        {[&](nlohmann::json& d) { d["continents"][0]["bonus"] = -1; },
         "continents[0].bonus: must be an integer from 0 to 1000"},
        {[&](nlohmann::json& d) { d["continents"][0]["bonus"] = 2.5; }, "must be an integer"},
        {[&](nlohmann::json& d) { d["territories"][1]["name"] = "W0"; }, "listed twice"},
        {[&](nlohmann::json& d) { d["continents"].push_back({{"name", "East"}, {"bonus", 1}}); },
         "'East' has no territory"},
        {[&](nlohmann::json& d) { d["format"] = "risk"; }, "format"},
        {[&](nlohmann::json& d) { d["version"] = 2; }, "version: must be 1"},
        {[&](nlohmann::json& d) { d["extra"] = 1; }, "unknown field"},
        {[&](nlohmann::json& d) {
             // Cut the link W1 - N0 and W3 - S0: the east is unreachable.
             borders(d, W1) = {"W0", "W3"};
             borders(d, W3) = {"W1", "W2"};
             borders(d, N0) = {"N1", "S0"};
             borders(d, S0) = {"N0", "S1"};
         },
         "not connected ('N0' cannot be reached from 'W0')"},
        {[&](nlohmann::json& d) {
             auto t = d["territories"][0];
             for (int i = 0; i < 60; ++i) {
                 t["name"] = "X" + std::to_string(i);
                 t["borders"] = nlohmann::json::array();
                 d["territories"].push_back(t);
             }
         },
         "must list 2 to 64 territories, got 68"},
    };
    for (const auto& [change, fragment] : cases) {
        const std::string error = map_error(change);
        EXPECT_NE(error.find(fragment), std::string::npos) << "'" << error << "' lacks '" << fragment << "'";
        EXPECT_EQ(error.find('\n'), std::string::npos) << error;
    }
    Map m;
    EXPECT_THROW(parse_map("{\"format\": ", "bad.json", &m, nullptr), InputError);
    EXPECT_THROW(load_tables("/nonexistent/map.json"), InputError);
}

// ---- cards -----------------------------------------------------------------------------------

uint64_t cards(std::initializer_list<int> territories) {
    uint64_t hand = 0;
    for (int t : territories) hand |= uint64_t{1} << t;
    return hand;
}

TEST(RiskCards, SetsValuesAndTheCardsATradeTakes) {
    // Symbols by territory index mod 3.
    EXPECT_TRUE(has_set(cards({0, 3, 6}), 0));
    EXPECT_TRUE(has_set(cards({0, 1, 2}), 0));
    EXPECT_TRUE(has_set(cards({0, 3}), 1));
    EXPECT_TRUE(has_set(cards({4}), 2));
    EXPECT_FALSE(has_set(cards({0, 3}), 0));
    EXPECT_FALSE(has_set(cards({0, 1, 3, 4}), 0));
    EXPECT_FALSE(has_set(0, 2));
    // Any five cards hold a set.
    for (uint64_t h = 0; h < (1u << 12); ++h)
        if (popcount64(h) == 5) {
            ASSERT_TRUE(has_set(h, 0)) << h;
        }
    uint64_t taken = 0;
    int wilds = 0;
    pick_set(cards({0, 3, 6, 9, 1, 5}), 0, &taken, &wilds);  // one of each first
    EXPECT_EQ(taken, cards({0, 1, 5}));
    pick_set(cards({0, 3, 6, 9, 1}), 0, &taken, &wilds);
    EXPECT_EQ(taken, cards({0, 3, 6}));
    pick_set(cards({4, 7}), 1, &taken, &wilds);
    EXPECT_EQ(taken, cards({4, 7}));
    EXPECT_EQ(wilds, 1);
    pick_set(cards({4}), 2, &taken, &wilds);
    EXPECT_EQ(wilds, 2);
    const int values[] = {4, 6, 8, 10, 12, 15, 20, 25, 30};
    for (int n = 0; n < 9; ++n) EXPECT_EQ(set_value(n), values[n]) << n;
}

TEST(RiskCards, TradingAddsTheValueAndTwoArmiesOnAnOwnTradedTerritory) {
    Fixture f(true);
    Pos p = blank(2);
    for (int t : {W0, W1, W2, W3}) put(p, t, 0, 1);
    for (int t : {N0, N1, S0, S1}) put(p, t, 1, 1);
    p.hand[0] = cards({N0, W1, W2});  // symbols 1, 1, 2: no set
    p.wilds[0] = 1;
    p.trades = 5;
    start_turn(f.map(), p, 0);
    EXPECT_EQ(p.phase, Phase::Trade);
    EXPECT_EQ(p.pending, 3 + 3);  // max(3, 4 / 3) and West's bonus
    EXPECT_EQ(f.game.count_moves(p), 2);  // trade or keep
    p = f.game.make(p, f.game.nth_move(p, 0));
    EXPECT_EQ(p.pending, 6 + 15);
    EXPECT_EQ(p.trades, 6);
    EXPECT_EQ(p.hand[0], cards({N0}));  // the two lowest cards and the wild card went
    EXPECT_EQ(p.wilds[0], 0);
    EXPECT_EQ(p.armies[W1], 3);  // +2 on W1, the lowest traded territory seat 0 owns
    EXPECT_EQ(p.armies[W2], 1);
    EXPECT_EQ(p.phase, Phase::Place);
    // Five cards: the trade is forced.
    Pos q = blank(2);
    for (int t : {W0, W1, W2, W3}) put(q, t, 0, 1);
    for (int t : {N0, N1, S0, S1}) put(q, t, 1, 1);
    q.hand[0] = cards({W0, W1, W2, W3, N0});
    start_turn(f.map(), q, 0);
    EXPECT_EQ(f.game.count_moves(q), 1);
    EXPECT_EQ(f.game.nth_move(q, 0).act, Act::Trade);
}

// ---- turns, conquest, elimination, the cap ----------------------------------------------------

TEST(RiskTurns, ReinforcementsCountTerritoriesAndWholeContinents) {
    Fixture f;
    const Map& m = f.map();
    const uint64_t australia = m.continent_cells[5];
    uint64_t owned = australia;
    for (int t = 0, added = 0; added < 8; ++t)
        if (!((australia >> t) & 1)) owned |= uint64_t{1} << t, ++added;
    EXPECT_EQ(reinforcements(m, owned), 12 / 3 + 2);
    EXPECT_EQ(reinforcements(m, owned & ~(australia & (~australia + 1))), 3);  // 11 territories
    EXPECT_EQ(reinforcements(m, m.continent_cells[4]), 4 + 7);                 // Asia alone
    EXPECT_EQ(reinforcements(m, m.all), 14 + 5 + 2 + 5 + 3 + 7 + 2);
    for (int seats = 2; seats <= 6; ++seats) EXPECT_EQ(starting_armies(seats), 50 - 5 * seats);
}

TEST(RiskTurns, ConquestEliminationCardsAndTheEnd) {
    Fixture f(true);
    const Game& g = f.game;
    Pos p = blank(3);
    for (int t : {W0, W1, W2, W3, S1}) put(p, t, 0, 3);
    put(p, N0, 1, 2);
    put(p, N1, 2, 2);
    put(p, S0, 2, 2);
    p.hand[0] = cards({W0, W3});
    p.hand[1] = cards({W1, S0, N1});
    p.wilds[1] = 1;
    // Seat 1 loses its last territory: its four cards go to seat 0, who now holds six and trades
    // at once, places, then attacks on.
    end_battle(f.map(), p, W1, N0, 2, 2, 0);
    EXPECT_EQ(owner_of(p, N0), 0);
    EXPECT_EQ(p.armies[N0], 2);
    EXPECT_EQ(p.armies[W1], 1);
    EXPECT_EQ(p.owned[1], 0u);
    EXPECT_EQ(p.hand[0], cards({W0, W3, W1, S0, N1}));
    EXPECT_EQ(p.wilds[0], 1);
    EXPECT_EQ(p.hand[1], 0u);
    EXPECT_EQ(p.phase, Phase::Trade);
    EXPECT_EQ(g.count_moves(p), 1);
    // One of each symbol: W0 (0), W1 (1), N1 (5); +2 on W0, the lowest one seat 0 owns.
    p = g.make(p, g.nth_move(p, 0));
    EXPECT_EQ(p.phase, Phase::Place);
    EXPECT_EQ(p.hand[0], cards({W3, S0}));
    EXPECT_EQ(hand_size(p, 0), 3);
    EXPECT_EQ(p.pending, 4);
    EXPECT_EQ(p.armies[W0], 5);
    while (p.phase == Phase::Place) p = g.make(p, g.nth_move(p, 0));
    EXPECT_EQ(p.phase, Phase::Attack);
    // Stop, fortify: the turn ends with a card (seat 0 conquered); seat 1 is skipped.
    const int cards_before = hand_size(p, 0);
    p = g.make(p, g.nth_move(p, 0));
    EXPECT_EQ(p.phase, Phase::Fortify);
    p = g.make(p, g.nth_move(p, 0));
    EXPECT_EQ(hand_size(p, 0), cards_before + 1);
    EXPECT_EQ(p.mover, 2);
    EXPECT_EQ(p.round, 0);
    // Conquering the last enemy territory ends the game.
    Pos q = blank(2);
    for (int t : {W0, W1, W2, W3, N0, N1, S0}) put(q, t, 0, 2);
    put(q, S1, 1, 1);
    end_battle(f.map(), q, S0, S1, 1, 1, 0);
    EXPECT_TRUE(g.is_over(q));
    EXPECT_EQ(g.winner(q), 0);
    EXPECT_EQ(g.seat_result(q, 1), SeatResult::Loss);
    // A failed attack leaves the defenders and takes the committed armies.
    Pos r = blank(2);
    for (int t : {W0, W1, W2, W3}) put(r, t, 0, 5);
    for (int t : {N0, N1, S0, S1}) put(r, t, 1, 4);
    end_battle(f.map(), r, W1, N0, 4, 0, 2);
    EXPECT_EQ(r.armies[W1], 1);
    EXPECT_EQ(r.armies[N0], 2);
    EXPECT_EQ(owner_of(r, N0), 1);
    EXPECT_EQ(r.conquered, 0);
}

TEST(RiskTurns, CardsComeFromTheDeckOnlyAfterAConquest) {
    Fixture f(true);
    const Game& g = f.game;
    Pos p = blank(2);
    for (int t : {W0, W1, W2, W3}) put(p, t, 0, 2);
    for (int t : {N0, N1, S0, S1}) put(p, t, 1, 2);
    p.phase = Phase::Fortify;
    Move pass;
    pass.act = Act::Pass;
    EXPECT_EQ(hand_size(g.make(p, pass), 0), 0);  // no conquest, no card
    p.conquered = 1;
    p.hand[1] = f.map().all & ~cards({S1});  // every card but S1's and the wild cards
    p.wilds[1] = 2;
    const Pos after = g.make(p, pass);
    EXPECT_EQ(after.hand[0], cards({S1}));
    EXPECT_EQ(after.draws, p.draws + 1);
    p.hand[1] = f.map().all;  // an empty deck: no card
    EXPECT_EQ(hand_size(g.make(p, pass), 0), 0);
}

TEST(RiskTurns, TheTurnCapEndsTheGameWithTheLeaderWinning) {
    Fixture f(true, 0.5f, 7);
    const Game& g = f.game;
    Pos p = blank(3);
    for (int t : {W0, W1, W2}) put(p, t, 0, 2);
    for (int t : {W3, N0, N1}) put(p, t, 1, 2);
    for (int t : {S0, S1}) put(p, t, 2, 9);
    p.phase = Phase::Fortify;
    p.mover = 2;
    p.round = 6;
    Move pass;
    pass.act = Act::Pass;
    Pos end = g.make(p, pass);
    ASSERT_TRUE(g.is_over(end));
    EXPECT_EQ(end.round, 7);
    EXPECT_EQ(g.winner(end), -1);  // seats 0 and 1: 3 territories, 6 armies each
    EXPECT_EQ(g.seat_result(end, 0), SeatResult::Draw);
    EXPECT_EQ(g.seat_result(end, 1), SeatResult::Draw);
    EXPECT_EQ(g.seat_result(end, 2), SeatResult::Loss);
    p.armies[W0] = 3;  // seat 0 now leads on armies
    end = g.make(p, pass);
    EXPECT_EQ(g.winner(end), 0);
    // Before the last seat of the round, the round goes on.
    p.mover = 1;
    EXPECT_FALSE(g.is_over(g.make(p, pass)));
    EXPECT_EQ(g.make(p, pass).mover, 2);
}

TEST(RiskDeal, TerritoriesDealtAtRandomAndStartingArmiesPlaced) {
    Fixture f;
    const Game& g = f.game;
    for (int seats = 2; seats <= 6; ++seats) {
        std::set<uint64_t> deals;
        for (uint32_t match = 0; match < 6; ++match) {
            Pos p = g.start_match(g.start(seats), 5, match);
            deals.insert(p.owned[0]);
            uint64_t all = 0;
            for (int s = 0; s < seats; ++s) {
                EXPECT_EQ(all & p.owned[s], 0u);
                all |= p.owned[s];
                EXPECT_NEAR(popcount64(p.owned[s]), 42.0 / seats, 1.0);
            }
            EXPECT_EQ(all, f.map().all);
            EXPECT_EQ(p.phase, Phase::Setup);
            // Play the setup with the first legal placement: every seat ends with its starting
            // armies, then seat 0 reinforces.
            int plies = 0;
            while (p.phase == Phase::Setup) {
                ASSERT_EQ(g.count_moves(p), popcount64(p.owned[p.mover]));
                p = g.make(p, g.nth_move(p, plies++ % g.count_moves(p)));
            }
            for (int s = 0; s < seats; ++s)
                EXPECT_EQ(armies_on(p, p.owned[s]), starting_armies(seats)) << seats << " seats";
            EXPECT_EQ(p.mover, 0);
            EXPECT_EQ(p.pending, reinforcements(f.map(), p.owned[0]));
        }
        EXPECT_EQ(deals.size(), 6u) << "six matches, six deals";
    }
}

// ---- whole games --------------------------------------------------------------------------

TEST(RiskMoves, EnumerationAndInvariantsOverRandomGames) {
    Fixture f;
    const Game& g = f.game;
    std::mt19937 rng(3);
    for (int seats : {2, 4}) {
        for (uint32_t match = 0; match < 4; ++match) {
            Pos p = g.start_match(g.start(seats), 11, match);
            for (int ply = 0; ply < 3000 && !g.is_over(p); ++ply) {
                const int n = g.count_moves(p);
                ASSERT_GE(n, 1);
                std::vector<Move> listed;
                g.for_each_move(p, [&](const Move& m) { listed.push_back(m); });
                ASSERT_EQ(int(listed.size()), n);
                for (int k = 0; k < n; k += 1 + n / 16) {
                    const Move m = g.nth_move(p, k);
                    ASSERT_TRUE(m.act == listed[k].act && m.from == listed[k].from &&
                                m.to == listed[k].to && m.count == listed[k].count)
                        << "move " << k << " of " << n;
                }
                p = g.make(p, listed[rng() % n]);
                uint64_t all = 0, held = 0;
                int wilds = 0;
                for (int s = 0; s < seats; ++s) {
                    ASSERT_EQ(all & p.owned[s], 0u);
                    all |= p.owned[s];
                    ASSERT_EQ(held & p.hand[s], 0u);
                    held |= p.hand[s];
                    wilds += p.wilds[s];
                }
                ASSERT_EQ(all, f.map().all);
                ASSERT_LE(wilds, kWildCards);
                for (int t = 0; t < 42; ++t) ASSERT_GE(p.armies[t], 1);
                ASSERT_NE(p.owned[p.mover], 0u);
            }
        }
    }
}

}  // namespace
