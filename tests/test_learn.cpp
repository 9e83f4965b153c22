// gaeval learn (host/learn/): the 9-bit fixed-point genome code; each scheme's invariants
// checked generation by generation against expectations computed here from the games a scripted
// PlayFn reported (population kept, offspring value = parents' mean, the stated counts of
// children and mutants, the global-best replacement rule, elitism); tournament schedules;
// validation of bad configurations; play_pairings against play_match_seated; whole runs: resume
// equals uninterrupted, corrupt or foreign checkpoints and occupied folders are refused without
// touching a file, thread counts and backends give the same learned weights.
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>
#include <map>
#include <numeric>
#include <random>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include <nlohmann/json.hpp>

#include "ataxx_test_support.hpp"
#include "gpu_test_support.hpp"
#include "host/backend/backend.hpp"
#include "host/core/error.hpp"
#include "host/games/registry.hpp"
#include "host/learn/learn.hpp"
#include "host/learn/learn_run.hpp"

namespace gaeval::learn {
namespace {

namespace fs = std::filesystem;
using Player = games::PlayerData;
constexpr uint32_t kAtaxxWeights = ataxx::kFeatureCount;

// ---- helpers --------------------------------------------------------------------------------

std::vector<uint32_t> bits_of(const std::vector<float>& v) {
    std::vector<uint32_t> out(v.size());
    if (!v.empty()) std::memcpy(out.data(), v.data(), v.size() * sizeof(float));
    return out;
}

uint32_t bits_of(float f) {
    uint32_t u;
    std::memcpy(&u, &f, sizeof u);
    return u;
}

// The genome of the scripted tests weighs features 2, 0 and 7: genome weight 0 is feature 2.
const std::vector<int> kFeatures = {2, 0, 7};
constexpr int kF0 = 2;

LearnConfig small_config(const std::string& scheme, uint32_t population) {
    LearnConfig c = default_config(scheme, kAtaxxWeights);
    c.population = population;
    c.generations = 3;
    c.seed = 11;
    c.features = kFeatures;
    c.max_plies = 200;
    return c;
}

std::vector<float> row(const std::vector<float>& w, uint32_t m, uint32_t d) {
    return std::vector<float>(w.begin() + size_t(m) * d, w.begin() + size_t(m + 1) * d);
}

std::vector<uint16_t> code_row(const std::vector<uint16_t>& codes, uint32_t m, uint32_t d) {
    return std::vector<uint16_t>(codes.begin() + size_t(m) * d, codes.begin() + size_t(m + 1) * d);
}

// The genome weights of a weighted player (over kFeatures).
std::vector<float> genome_of(const Player& p) {
    std::vector<float> out;
    for (int f : kFeatures) out.push_back(p.weights[f]);
    return out;
}

// One batch as the scripted PlayFn saw and answered it.
struct Batch {
    std::vector<Player> players;
    std::vector<Pairing> pairings;
    std::vector<GameRecord> records;
};

// A's result (1 win, 0 draw, -1 loss) of game `index` of a batch.
using Decide =
    std::function<int(const std::vector<Player>& players, const Pairing& p, size_t index)>;

PlayFn scripted_play(Decide decide, std::vector<Batch>* log) {
    return [decide, log](const std::vector<Player>& players, const std::vector<Pairing>& pairings,
                         uint64_t) {
        std::vector<GameRecord> records(pairings.size());
        for (size_t i = 0; i < pairings.size(); ++i) {
            const Pairing& p = pairings[i];
            if (p.a >= players.size() || p.b >= players.size() || p.a_seat > 1) {
                ADD_FAILURE() << "pairing " << i << " names no player: " << p.a << " " << p.b;
                continue;
            }
            const int r = decide(players, p, i);
            GameRecord& g = records[i];
            g.a_result = static_cast<int8_t>(r);
            g.a_seat = static_cast<int8_t>(p.a_seat);
            g.winner = static_cast<int8_t>(r > 0 ? p.a_seat : r < 0 ? 1 - p.a_seat : -1);
            g.plies = static_cast<uint32_t>(10 + i % 7);
            g.stopped = static_cast<uint8_t>(i % 5 == 0);
        }
        if (log) log->push_back({players, pairings, records});
        return records;
    };
}

// The player with the larger weight of feature kF0 (genome weight 0) wins; equal ones draw.
int stronger_f0(const std::vector<Player>& players, const Pairing& p, size_t) {
    const float x = players[p.a].weights[kF0], y = players[p.b].weights[kF0];
    return x > y ? 1 : x < y ? -1 : 0;
}

// Per-player points (wins + draws / 2), games and wins of a batch, by the batch's player index.
struct Scores {
    std::vector<double> points;
    std::vector<uint32_t> games, wins;
    double fraction(uint32_t m) const { return games[m] ? points[m] / games[m] : 0.0; }
};

Scores scores_of(const Batch& b) {
    Scores s;
    const size_t n = b.players.size();
    s.points.assign(n, 0);
    s.games.assign(n, 0);
    s.wins.assign(n, 0);
    for (size_t i = 0; i < b.pairings.size(); ++i) {
        const Pairing& p = b.pairings[i];
        const int r = b.records[i].a_result;
        ++s.games[p.a];
        ++s.games[p.b];
        s.points[p.a] += r > 0 ? 1 : r == 0 ? 0.5 : 0;
        s.points[p.b] += r < 0 ? 1 : r == 0 ? 0.5 : 0;
        s.wins[p.a] += r > 0;
        s.wins[p.b] += r < 0;
    }
    return s;
}

// Member indexes by key descending, ties by index.
std::vector<uint32_t> by_key_desc(const std::vector<double>& key) {
    std::vector<uint32_t> order(key.size());
    std::iota(order.begin(), order.end(), 0u);
    std::stable_sort(order.begin(), order.end(),
                     [&](uint32_t x, uint32_t y) { return key[x] > key[y]; });
    return order;
}

// Bit b of a member's bitstring: codes in genome order, each code's bits from the sign bit down.
int genome_bit(const std::vector<uint16_t>& codes, uint32_t m, uint32_t d, uint32_t b) {
    return (codes[size_t(m) * d + b / kCodeBits] >> (kCodeBits - 1 - b % kCodeBits)) & 1;
}

const std::string kAllSchemes[] = {"genetic-game", "paired-blend", "ten-tournaments", "modern"};

// ---- fixed point ----------------------------------------------------------------------------

TEST(LearnFixedPoint, EveryCodeRoundTripsBitForBit) {
    std::set<uint32_t> values;
    for (uint32_t c = 0; c < 512; ++c) {
        const uint16_t code = static_cast<uint16_t>(c);
        const float w = decode_weight(code);
        EXPECT_EQ(encode_weight(w), code) << "code " << c;
        EXPECT_EQ(bits_of(decode_weight(encode_weight(w))), bits_of(w)) << "code " << c;
        // (-1)^sign * magnitude / 16, independent of the implementation's arithmetic.
        const double expected = ((c & 0x100) ? -1.0 : 1.0) * double(c & 0xFF) / 16.0;
        EXPECT_EQ(double(w), expected) << "code " << c;
        EXPECT_EQ(std::signbit(w), (c & 0x100) != 0) << "code " << c;
        EXPECT_LE(std::fabs(w), 15.9375f);
        values.insert(bits_of(w));
    }
    EXPECT_EQ(values.size(), 512u);  // -0 (0x100) is distinct from +0 bit for bit
}

TEST(LearnFixedPoint, HandDerivedCodes) {
    EXPECT_EQ(decode_weight(0b0'0001'1000), 1.5f);
    EXPECT_EQ(decode_weight(0b1'0001'1000), -1.5f);
    EXPECT_EQ(decode_weight(0x001), 0.0625f);
    EXPECT_EQ(decode_weight(0x0A8), 10.5f);
    EXPECT_EQ(decode_weight(0x0FF), 15.9375f);
    EXPECT_EQ(decode_weight(0x1FF), -15.9375f);
    EXPECT_EQ(decode_weight(0x000), 0.0f);
    EXPECT_FALSE(std::signbit(decode_weight(0x000)));
    EXPECT_EQ(decode_weight(0x100), 0.0f);
    EXPECT_TRUE(std::signbit(decode_weight(0x100)));
    EXPECT_EQ(kCodeMax, 15.9375f);
    EXPECT_EQ(kCodeBits, 9);

    EXPECT_EQ(encode_weight(1.5f), 0x018);
    EXPECT_EQ(encode_weight(-1.5f), 0x118);
    EXPECT_EQ(encode_weight(10.5f), 0x0A8);
    EXPECT_EQ(encode_weight(0.09f), 0x001);     // 1.44 sixteenths
    EXPECT_EQ(encode_weight(0.1f), 0x002);      // 1.6 sixteenths
    EXPECT_EQ(encode_weight(0.03f), 0x000);     // 0.48 sixteenths
    EXPECT_EQ(encode_weight(0.03125f), 0x001);  // exactly half a step: away from zero
    EXPECT_EQ(encode_weight(-0.03125f), 0x101);
    EXPECT_EQ(encode_weight(1.53125f), 0x019);  // 24.5 sixteenths: away from zero
    EXPECT_EQ(encode_weight(-0.01f), 0x100);    // rounds to -0, keeps its sign
    EXPECT_EQ(encode_weight(-0.0f), 0x100);
    EXPECT_EQ(encode_weight(0.0f), 0x000);
    // Beyond the range: clamped to +-15.9375.
    EXPECT_EQ(encode_weight(15.9375f), 0x0FF);
    EXPECT_EQ(encode_weight(15.97f), 0x0FF);
    EXPECT_EQ(encode_weight(16.0f), 0x0FF);
    EXPECT_EQ(encode_weight(1000.0f), 0x0FF);
    EXPECT_EQ(encode_weight(-16.0f), 0x1FF);
    EXPECT_EQ(encode_weight(-1e30f), 0x1FF);
    EXPECT_EQ(encode_weight(std::numeric_limits<float>::infinity()), 0x0FF);
    EXPECT_EQ(encode_weight(-std::numeric_limits<float>::infinity()), 0x1FF);
    EXPECT_EQ(encode_weight(std::numeric_limits<float>::quiet_NaN()) & 0xFF, 0);
}

TEST(LearnFixedPoint, EncodeGivesTheNearestCode) {
    std::mt19937 rng(5);
    std::uniform_real_distribution<float> any(-20.0f, 20.0f);
    std::vector<float> inputs;
    for (int i = -20 * 64; i <= 20 * 64; ++i) inputs.push_back(i / 64.0f);  // halves included
    for (int i = 0; i < 4000; ++i) inputs.push_back(any(rng));
    for (float w : inputs) {
        const uint16_t code = encode_weight(w);
        ASSERT_LT(code, 512) << w;
        const float got = decode_weight(code);
        const double target = std::max(-15.9375, std::min(15.9375, double(w)));
        double best = 1e9;
        for (uint32_t c = 0; c < 512; ++c)
            best = std::min(best, std::fabs(double(decode_weight(uint16_t(c))) - target));
        EXPECT_EQ(std::fabs(double(got) - target), best) << "w = " << w;
        EXPECT_LE(std::fabs(double(got) - target), 1.0 / 32) << "w = " << w;
        if (w != 0) {
            EXPECT_EQ(std::signbit(got), std::signbit(w)) << "w = " << w;
        }
    }
}

// ---- configuration --------------------------------------------------------------------------

TEST(LearnConfigParse, NamesRoundTripAndUnknownStringsAreRefused) {
    for (const std::string& s : kAllSchemes) EXPECT_EQ(default_config(s, 1).scheme, s);
    for (const char* bad : {"foo", "", "Modern", "genetic", "modern "})
        EXPECT_THROW(default_config(bad, 1), InputError) << bad;

    const TournamentSpec rr = parse_tournament("round-robin");
    EXPECT_EQ(rr.kind, TournamentSpec::RoundRobin);
    EXPECT_FALSE(rr.both_colours);
    const TournamentSpec rr2 = parse_tournament("round-robin:2");
    EXPECT_EQ(rr2.kind, TournamentSpec::RoundRobin);
    EXPECT_TRUE(rr2.both_colours);
    const TournamentSpec r7 = parse_tournament("random:7");
    EXPECT_EQ(r7.kind, TournamentSpec::RandomOpponents);
    EXPECT_EQ(r7.m, 7u);
    for (const char* t : {"round-robin", "round-robin:2", "random:7"})
        EXPECT_EQ(tournament_name(parse_tournament(t)), t);
    for (const char* bad : {"foo", "", "random:0", "random:x", "random:", "random:-1", "random:1.5",
                            "round-robin:3", "random"})
        EXPECT_THROW(parse_tournament(bad), InputError) << bad;

    const ValueUpdate take = parse_value_update("take:10");
    EXPECT_EQ(take.kind, ValueUpdate::Take);
    EXPECT_EQ(take.amount, 10);
    EXPECT_EQ(parse_value_update("take:100").amount, 100);
    const ValueUpdate win = parse_value_update("winrate:2.5");
    EXPECT_EQ(win.kind, ValueUpdate::Winrate);
    EXPECT_EQ(win.amount, 2.5);
    for (const char* v : {"take:10", "winrate:2.5"})
        EXPECT_EQ(value_update_name(parse_value_update(v)), v);
    for (const char* bad : {"foo", "", "take:0", "take:150", "take:-5", "take:x", "take",
                            "take:", "winrate:-1", "winrate:0", "winrate:nan", "give:10"})
        EXPECT_THROW(parse_value_update(bad), InputError) << bad;
}

TEST(LearnConfigValidate, DefaultsAreValid) {
    for (const std::string& s : kAllSchemes) {
        const LearnConfig c = default_config(s, kAtaxxWeights);
        EXPECT_NO_THROW(validate(c)) << s;
        EXPECT_EQ(c.scheme, s);
        EXPECT_EQ(c.dims(), uint32_t(ataxx::kFeatureCount));
    }
    const LearnConfig ten = default_config("ten-tournaments", kAtaxxWeights);
    EXPECT_EQ(ten.init_low, 0);
    EXPECT_EQ(ten.init_high, 10);
}

TEST(LearnConfigValidate, PopulationTooSmallForTheScheme) {
    auto with = [](const std::string& s, uint32_t n) {
        LearnConfig c = default_config(s, kAtaxxWeights);
        c.population = n;
        c.tournament_size = 2;
        c.elites = 1;
        return c;
    };
    EXPECT_THROW(validate(with("modern", 1)), InputError);
    EXPECT_THROW(validate(with("modern", 0)), InputError);
    EXPECT_NO_THROW(validate(with("modern", 2)));  // round-robin needs 2
    EXPECT_THROW(validate(with("genetic-game", 2)), InputError);
    EXPECT_NO_THROW(validate(with("genetic-game", 3)));
    for (uint32_t n : {0u, 1u, 2u, 3u, 5u, 7u, 11u})
        EXPECT_THROW(validate(with("paired-blend", n)), InputError) << n;
    for (uint32_t n : {4u, 6u, 8u}) EXPECT_NO_THROW(validate(with("paired-blend", n))) << n;
    EXPECT_THROW(validate(with("ten-tournaments", 9)), InputError);
    EXPECT_THROW(validate(with("ten-tournaments", 5)), InputError);
    EXPECT_NO_THROW(validate(with("ten-tournaments", 10)));

    // random:M needs M < population.
    for (std::string s : {"genetic-game", "modern"}) {
        LearnConfig c = with(s, 6);
        c.tournament = parse_tournament("random:6");
        EXPECT_THROW(validate(c), InputError) << s;
        c.tournament = parse_tournament("random:9");
        EXPECT_THROW(validate(c), InputError) << s;
        c.tournament = parse_tournament("random:5");
        EXPECT_NO_THROW(validate(c)) << s;
    }
}

TEST(LearnConfigValidate, RatesOutsideTheirRanges) {
    auto refuses = [](const std::string& s, const std::function<void(LearnConfig&)>& change) {
        LearnConfig c = default_config(s, kAtaxxWeights);
        change(c);
        try {
            validate(c);
        } catch (const InputError& e) {
            return std::string(e.what()).find('\n') == std::string::npos;  // one line
        }
        return false;
    };
    EXPECT_TRUE(refuses("genetic-game", [](LearnConfig& c) { c.replace = 0; }));
    EXPECT_TRUE(refuses("genetic-game", [](LearnConfig& c) { c.replace = 1; }));
    EXPECT_TRUE(refuses("genetic-game", [](LearnConfig& c) { c.replace = 1.5; }));
    EXPECT_TRUE(refuses("genetic-game", [](LearnConfig& c) { c.bit_mutation = -0.01; }));
    EXPECT_TRUE(refuses("genetic-game", [](LearnConfig& c) { c.bit_mutation = 2; }));
    EXPECT_TRUE(refuses("genetic-game", [](LearnConfig& c) { c.initial_value = 0; }));
    EXPECT_TRUE(refuses("paired-blend", [](LearnConfig& c) { c.blend = 0; }));
    EXPECT_TRUE(refuses("paired-blend", [](LearnConfig& c) { c.blend = 1.5; }));
    EXPECT_TRUE(refuses("paired-blend", [](LearnConfig& c) { c.replace_best = 0; }));
    EXPECT_TRUE(refuses("paired-blend", [](LearnConfig& c) { c.replace_best = 0.6; }));
    EXPECT_TRUE(refuses("paired-blend", [](LearnConfig& c) { c.scale_mutation = 2; }));
    EXPECT_TRUE(refuses("paired-blend", [](LearnConfig& c) { c.scale_mutation = -0.1; }));
    EXPECT_TRUE(refuses("paired-blend", [](LearnConfig& c) { c.rounds = 0; }));
    EXPECT_TRUE(refuses("modern", [](LearnConfig& c) { c.crossover_rate = 1.1; }));
    EXPECT_TRUE(refuses("modern", [](LearnConfig& c) { c.gene_mutation = -0.1; }));
    EXPECT_TRUE(refuses("modern", [](LearnConfig& c) { c.gene_mutation = 2; }));
    EXPECT_TRUE(refuses("modern", [](LearnConfig& c) { c.sigma = -1; }));
    EXPECT_TRUE(refuses("modern", [](LearnConfig& c) { c.crossover = "uniform"; }));
    EXPECT_TRUE(refuses("modern", [](LearnConfig& c) { c.elites = c.population; }));
    EXPECT_TRUE(refuses("modern", [](LearnConfig& c) { c.tournament_size = 0; }));
    EXPECT_TRUE(refuses("modern", [](LearnConfig& c) { c.tournament_size = c.population + 1; }));
    for (const std::string& s : kAllSchemes) {
        EXPECT_TRUE(refuses(s, [](LearnConfig& c) { c.features.clear(); })) << s;
        EXPECT_TRUE(refuses(s, [](LearnConfig& c) { c.generations = 0; })) << s;
        EXPECT_TRUE(refuses(s, [](LearnConfig& c) { c.max_plies = 0; })) << s;
        if (s != "genetic-game") {
            EXPECT_TRUE(refuses(s, [](LearnConfig& c) { c.init_low = 2, c.init_high = 1; }));
            EXPECT_TRUE(refuses(s, [](LearnConfig& c) { c.init_high = 16; }));
            EXPECT_TRUE(refuses(s, [](LearnConfig& c) { c.init_low = -16; }));
        }
    }
    // The edges of the ranges are accepted.
    LearnConfig edge = default_config("paired-blend", kAtaxxWeights);
    edge.blend = 1;
    edge.replace_best = 0.5;
    edge.scale_mutation = 0;
    EXPECT_NO_THROW(validate(edge));
    LearnConfig gg = default_config("genetic-game", kAtaxxWeights);
    gg.bit_mutation = 1;
    gg.replace = 0.99;
    EXPECT_NO_THROW(validate(gg));
}

TEST(LearnConfigValidate, GamesPerGeneration) {
    LearnConfig c = small_config("modern", 7);
    c.tournament = parse_tournament("round-robin");
    EXPECT_EQ(games_per_generation(c), 21u);
    c.tournament = parse_tournament("round-robin:2");
    EXPECT_EQ(games_per_generation(c), 42u);
    c.tournament = parse_tournament("random:3");
    EXPECT_EQ(games_per_generation(c), 21u);
    LearnConfig ten = small_config("ten-tournaments", 30);
    EXPECT_EQ(games_per_generation(ten), 900u);
    LearnConfig pb = small_config("paired-blend", 8);
    pb.rounds = 5;
    EXPECT_EQ(games_per_generation(pb), 5u * 4 + 5);
}

TEST(LearnPlayer, PlayerOfMapsTheGenomeOntoItsFeatures) {
    LearnConfig c = small_config("modern", 4);
    const float w[] = {1.5f, -2.0f, 3.25f};
    const Player p = player_of(c, w);
    EXPECT_EQ(p.kind, PlayerKind::Weighted);
    for (int f = 0; f < ataxx::kFeatureCount; ++f) {
        const float expected = f == 2 ? 1.5f : f == 0 ? -2.0f : f == 7 ? 3.25f : 0.0f;
        EXPECT_EQ(p.weights[f], expected) << "feature " << f;
    }
}

TEST(LearnInit, InitialPopulationsLieInTheirRanges) {
    for (const std::string& s : kAllSchemes) {
        LearnConfig c = default_config(s, kAtaxxWeights);
        c.population = 40;
        const LearnState st = initial_state(c);
        const uint32_t d = c.dims();
        ASSERT_EQ(st.weights.size(), size_t(40) * d);
        ASSERT_EQ(st.value.size(), 40u);
        EXPECT_EQ(st.generation, 0u);
        if (s == "genetic-game") {
            ASSERT_EQ(st.codes.size(), st.weights.size());
            for (size_t i = 0; i < st.codes.size(); ++i) {
                EXPECT_LT(st.codes[i], 512);
                EXPECT_EQ(bits_of(st.weights[i]), bits_of(decode_weight(st.codes[i])));
            }
            for (double v : st.value) EXPECT_EQ(v, c.initial_value);
        } else {
            EXPECT_TRUE(st.codes.empty());
            float lo = 1e9f, hi = -1e9f;
            for (float w : st.weights) {
                EXPECT_GE(w, c.init_low);
                EXPECT_LE(w, c.init_high);
                lo = std::min(lo, w);
                hi = std::max(hi, w);
            }
            // Spread over the range (40 x 15 uniform draws).
            const double span = c.init_high - c.init_low;
            EXPECT_LT(lo, c.init_low + 0.05 * span) << s;
            EXPECT_GT(hi, c.init_high - 0.05 * span) << s;
        }
        // The same seed gives the same population; another seed another one.
        EXPECT_EQ(bits_of(initial_state(c).weights), bits_of(st.weights));
        c.seed += 1;
        EXPECT_NE(bits_of(initial_state(c).weights), bits_of(st.weights));
    }
}

// ---- schedules ------------------------------------------------------------------------------

TEST(LearnSchedule, RoundRobinPlaysEveryPairOnce) {
    LearnConfig c = small_config("modern", 7);
    c.tournament = parse_tournament("round-robin");
    for (uint32_t g : {0u, 3u}) {
        const auto pairs = tournament_schedule(c, g);
        ASSERT_EQ(pairs.size(), 21u);
        std::map<std::pair<uint32_t, uint32_t>, int> seen;
        std::vector<int> seat0(7, 0), games(7, 0);
        for (const Pairing& p : pairs) {
            ASSERT_LT(p.a, 7u);
            ASSERT_LT(p.b, 7u);
            ASSERT_NE(p.a, p.b);
            ASSERT_LE(p.a_seat, 1);
            ++seen[{std::min(p.a, p.b), std::max(p.a, p.b)}];
            ++games[p.a];
            ++games[p.b];
            ++seat0[p.a_seat == 0 ? p.a : p.b];
        }
        EXPECT_EQ(seen.size(), 21u);
        for (const auto& kv : seen) EXPECT_EQ(kv.second, 1);
        for (int m = 0; m < 7; ++m) {
            EXPECT_EQ(games[m], 6);
            // Colours alternate: nobody always moves first or always second.
            EXPECT_GT(seat0[m], 0) << m;
            EXPECT_LT(seat0[m], 6) << m;
        }
    }
}

TEST(LearnSchedule, RoundRobinTwoPlaysEveryPairTwiceWithBothSeats) {
    LearnConfig c = small_config("genetic-game", 6);
    c.tournament = parse_tournament("round-robin:2");
    const auto pairs = tournament_schedule(c, 1);
    ASSERT_EQ(pairs.size(), 30u);
    // For each unordered pair {x, y}: the seats x took.
    std::map<std::pair<uint32_t, uint32_t>, std::multiset<int>> seats_of_low;
    for (const Pairing& p : pairs) {
        ASSERT_NE(p.a, p.b);
        ASSERT_LT(std::max(p.a, p.b), 6u);
        const uint32_t lo = std::min(p.a, p.b), hi = std::max(p.a, p.b);
        const int seat_of_a = p.a_seat, seat_of_lo = lo == p.a ? seat_of_a : 1 - seat_of_a;
        seats_of_low[{lo, hi}].insert(seat_of_lo);
    }
    EXPECT_EQ(seats_of_low.size(), 15u);
    for (const auto& kv : seats_of_low) EXPECT_EQ(kv.second, (std::multiset<int>{0, 1}));
}

TEST(LearnSchedule, RandomOpponentsGiveEachMemberMGamesAsInitiator) {
    for (uint32_t m : {1u, 3u, 8u}) {
        LearnConfig c = small_config("modern", 9);
        c.tournament = parse_tournament("random:" + std::to_string(m));
        ASSERT_NO_THROW(validate(c));
        std::vector<Pairing> first;
        for (uint32_t g : {0u, 1u}) {
            const auto pairs = tournament_schedule(c, g);
            ASSERT_EQ(pairs.size(), size_t(9) * m);
            std::vector<uint32_t> initiated(9, 0);
            std::set<uint32_t> opponents;
            for (const Pairing& p : pairs) {
                ASSERT_LT(p.a, 9u);
                ASSERT_LT(p.b, 9u);
                EXPECT_NE(p.a, p.b);
                ASSERT_LE(p.a_seat, 1);
                ++initiated[p.a];
                opponents.insert(p.b);
            }
            for (uint32_t i = 0; i < 9; ++i) EXPECT_EQ(initiated[i], m) << "member " << i;
            if (m >= 3) {
                EXPECT_GT(opponents.size(), 3u);  // drawn, not fixed
            }
            if (g == 0) {
                first = pairs;
            } else {
                bool same = true;
                for (size_t i = 0; i < pairs.size(); ++i) same = same && pairs[i].b == first[i].b;
                EXPECT_FALSE(same) << "generation 1 drew the opponents of generation 0";
            }
        }
    }
}

TEST(LearnSchedule, PairedRoundsArePermutations) {
    LearnConfig c = small_config("paired-blend", 10);
    c.rounds = 6;
    const auto pairs = paired_rounds_schedule(c, 2);
    ASSERT_EQ(pairs.size(), 30u);
    std::set<std::vector<uint32_t>> rounds;
    for (uint32_t r = 0; r < 6; ++r) {
        std::vector<uint32_t> members;
        for (uint32_t k = 0; k < 5; ++k) {
            const Pairing& p = pairs[r * 5 + k];
            ASSERT_LE(p.a_seat, 1);
            members.push_back(p.a);
            members.push_back(p.b);
        }
        rounds.insert(members);
        std::sort(members.begin(), members.end());
        std::vector<uint32_t> all(10);
        std::iota(all.begin(), all.end(), 0u);
        EXPECT_EQ(members, all) << "round " << r;
    }
    EXPECT_GT(rounds.size(), 1u);  // random pairings, not one fixed permutation
    const auto next = paired_rounds_schedule(c, 3);
    bool same = next.size() == pairs.size();
    for (size_t i = 0; same && i < pairs.size(); ++i)
        same = next[i].a == pairs[i].a && next[i].b == pairs[i].b;
    EXPECT_FALSE(same) << "generation 3 paired as generation 2";
}

// ---- each scheme through step() with scripted games -------------------------------------------

TEST(LearnStep, EverySchemeKeepsThePopulationAndCountsItsGames) {
    for (const std::string& k : kAllSchemes) {
        LearnConfig c = small_config(k, k == "ten-tournaments" ? 12 : 8);
        c.rounds = 3;
        c.tournament = parse_tournament("round-robin:2");
        ASSERT_NO_THROW(validate(c));
        const uint32_t n = c.population, d = c.dims();
        LearnState s = initial_state(c);
        uint64_t games = 0, plies = 0;
        for (uint32_t g = 0; g < 3; ++g) {
            SCOPED_TRACE(k + " generation " + std::to_string(g));
            const LearnState before = s;
            std::vector<Batch> log;
            const GenerationReport r = step(c, s, scripted_play(stronger_f0, &log));
            EXPECT_EQ(s.generation, g + 1);
            ASSERT_EQ(s.weights.size(), size_t(n) * d);
            ASSERT_EQ(s.value.size(), size_t(n));
            EXPECT_EQ(s.codes.size(), k == "genetic-game" ? size_t(n) * d : 0u);
            EXPECT_EQ(s.best_weights.size(), size_t(d));
            if (k == "paired-blend") {
                EXPECT_EQ(s.global_best.size(), size_t(d));
            }
            for (float w : s.weights) EXPECT_TRUE(std::isfinite(w));
            // Games as reported = games played = games_per_generation (paired-blend: no duel
            // in generation 0).
            uint64_t played = 0, batch_plies = 0, stopped = 0;
            for (const Batch& b : log) {
                played += b.records.size();
                for (const GameRecord& rec : b.records)
                    batch_plies += rec.plies, stopped += rec.stopped;
            }
            EXPECT_EQ(r.games, played);
            EXPECT_EQ(r.plies, batch_plies);
            EXPECT_EQ(r.stopped, stopped);
            EXPECT_EQ(played,
                      games_per_generation(c) - (k == "paired-blend" && g == 0 ? c.rounds : 0));
            games += played;
            plies += batch_plies;
            EXPECT_EQ(s.games, games);
            EXPECT_EQ(s.plies, plies);
            // The first batch plays the members as they were before the step.
            ASSERT_FALSE(log.empty());
            if (k != "ten-tournaments") {
                ASSERT_EQ(log[0].players.size(), size_t(n));
                for (uint32_t m = 0; m < n; ++m)
                    EXPECT_EQ(bits_of(genome_of(log[0].players[m])),
                              bits_of(row(before.weights, m, d)));
            } else {
                EXPECT_EQ(log[0].players.size(), 100u);
            }
            EXPECT_EQ(log.size(), k == "paired-blend" && g > 0 ? 2u : 1u);
        }
    }
}

// Values after the generation's games, computed here: take:P in schedule order, or
// winrate:K from (wins + draws / 2) / games.
std::vector<double> updated_values(const LearnConfig& c, std::vector<double> v, const Batch& b) {
    if (c.update.kind == ValueUpdate::Take) {
        for (size_t i = 0; i < b.pairings.size(); ++i) {
            const int r = b.records[i].a_result;
            if (r == 0) continue;
            const uint32_t winner = r > 0 ? b.pairings[i].a : b.pairings[i].b;
            const uint32_t loser = r > 0 ? b.pairings[i].b : b.pairings[i].a;
            const double taken = v[loser] * c.update.amount / 100.0;
            v[winner] += taken;
            v[loser] -= taken;
        }
    } else {
        const Scores sc = scores_of(b);
        for (size_t m = 0; m < v.size(); ++m)
            if (sc.games[m]) v[m] += c.update.amount * (100.0 * sc.fraction(m) - 50.0);
    }
    return v;
}

// Checks one genetic-game generation: survivors untouched, round(replace * N) children in the
// places of the lowest values, each a one-point crossover of two survivors (bits flipped when
// bit_mutation is 1) whose value is the mean of its parents' values.
void check_genetic_generation(const LearnConfig& c, const LearnState& before, const LearnState& s,
                              const Batch& batch, const GenerationReport& r) {
    const uint32_t n = c.population, d = c.dims(), bits = d * kCodeBits;
    const std::vector<double> v = updated_values(c, before.value, batch);
    const auto order = by_key_desc(v);
    const uint32_t replaced = uint32_t(std::lround(c.replace * n));
    const uint32_t survivors = n - replaced;
    EXPECT_EQ(r.children, replaced);
    EXPECT_NEAR(s.best_value, v[order[0]], 1e-9);
    EXPECT_EQ(bits_of(s.best_weights), bits_of(row(before.weights, order[0], d)));
    double mean = 0;
    for (double x : v) mean += x / n;
    EXPECT_NEAR(s.mean_value, mean, 1e-9);
    for (size_t i = 0; i < s.codes.size(); ++i) {
        ASSERT_LT(s.codes[i], 512);
        EXPECT_EQ(bits_of(s.weights[i]), bits_of(decode_weight(s.codes[i])));
    }
    for (uint32_t k = 0; k < survivors; ++k) {
        const uint32_t m = order[k];
        EXPECT_EQ(code_row(s.codes, m, d), code_row(before.codes, m, d)) << "survivor " << m;
        EXPECT_NEAR(s.value[m], v[m], 1e-9) << "survivor " << m;
    }
    const int flip = c.bit_mutation == 1 ? 1 : 0;
    for (uint32_t k = survivors; k < n; ++k) {
        const uint32_t m = order[k];
        bool found = false;
        for (uint32_t i = 0; i < survivors && !found; ++i)
            for (uint32_t j = 0; j < survivors && !found; ++j) {
                if (i == j) continue;
                const uint32_t p1 = order[i], p2 = order[j];
                if (std::fabs(s.value[m] - 0.5 * (v[p1] + v[p2])) > 1e-9) continue;
                for (uint32_t point = 1; point < bits && !found; ++point) {
                    bool match = true;
                    for (uint32_t b = 0; b < bits && match; ++b) {
                        const int parent_bit = genome_bit(before.codes, b < point ? p1 : p2, d, b);
                        match = genome_bit(s.codes, m, d, b) == (parent_bit ^ flip);
                    }
                    found = match;
                }
            }
        EXPECT_TRUE(found) << "member " << m << " (value " << s.value[m]
                           << ") is no one-point crossover of two survivors with their mean value";
    }
}

TEST(LearnGeneticGame, OffspringAreCrossoversOfSurvivorsWithTheirParentsMeanValue) {
    struct Variant {
        const char* tournament;
        const char* update;
        double replace, mutation;
        uint32_t population;
    };
    for (const Variant& var : {Variant{"round-robin:2", "take:10", 0.4, 0.0, 10},
                               Variant{"random:3", "winrate:3", 0.5, 0.0, 9},
                               Variant{"round-robin", "take:25", 0.25, 1.0, 8}}) {
        LearnConfig c = small_config("genetic-game", var.population);
        c.tournament = parse_tournament(var.tournament);
        c.update = parse_value_update(var.update);
        c.replace = var.replace;
        c.bit_mutation = var.mutation;
        ASSERT_NO_THROW(validate(c));
        LearnState s = initial_state(c);
        for (uint32_t g = 0; g < 3; ++g) {
            SCOPED_TRACE(std::string(var.tournament) + " " + var.update + " generation " +
                         std::to_string(g));
            const LearnState before = s;
            std::vector<Batch> log;
            const GenerationReport r = step(c, s, scripted_play(stronger_f0, &log));
            ASSERT_EQ(log.size(), 1u);
            check_genetic_generation(c, before, s, log[0], r);
            const uint32_t replaced = uint32_t(std::lround(c.replace * c.population));
            // genetic-game counts flipped bits as mutants.
            EXPECT_EQ(r.mutants, var.mutation == 1 ? replaced * c.dims() * kCodeBits : 0u);
            if (c.update.kind == ValueUpdate::Take) {
                // take:P moves value from loser to winner: the total is kept.
                double total_before = 0, total_after = 0;
                for (double x : before.value) total_before += x;
                for (double x : updated_values(c, before.value, log[0])) total_after += x;
                EXPECT_NEAR(total_after, total_before, 1e-6);
            }
        }
    }
}

// Results by member pair for the three-member hand examples: result_of[{a, b}] is a's result.
Decide scripted_pairs(std::map<std::pair<uint32_t, uint32_t>, int> result_of) {
    return [result_of](const std::vector<Player>&, const Pairing& p, size_t) {
        auto it = result_of.find({p.a, p.b});
        if (it != result_of.end()) return it->second;
        it = result_of.find({p.b, p.a});
        if (it != result_of.end()) return -it->second;
        ADD_FAILURE() << "unscripted pair " << p.a << " " << p.b;
        return 0;
    };
}

TEST(LearnGeneticGame, TakeByHand) {
    // Three members at 100, round-robin (0,1), (0,2), (1,2); 0 beats 1, 0-2 draw, 2 beats 1.
    // take:10: 0 takes 10 of 1 (110, 90, 100); 2 takes 9 of 1 (110, 81, 109). replace 0.3 of 3:
    // one child, in member 1's place, of 0 and 2: value (110 + 109) / 2 = 109.5.
    LearnConfig c = small_config("genetic-game", 3);
    c.tournament = parse_tournament("round-robin");
    c.update = parse_value_update("take:10");
    c.replace = 0.3;
    c.bit_mutation = 0;
    ASSERT_NO_THROW(validate(c));
    LearnState s = initial_state(c);
    const LearnState before = s;
    std::vector<Batch> log;
    const GenerationReport r =
        step(c, s, scripted_play(scripted_pairs({{{0, 1}, 1}, {{0, 2}, 0}, {{1, 2}, -1}}), &log));
    ASSERT_EQ(log.size(), 1u);
    ASSERT_EQ(log[0].pairings.size(), 3u);
    const std::pair<uint32_t, uint32_t> expected_order[] = {{0, 1}, {0, 2}, {1, 2}};
    for (int i = 0; i < 3; ++i) {
        EXPECT_EQ(log[0].pairings[i].a, expected_order[i].first);
        EXPECT_EQ(log[0].pairings[i].b, expected_order[i].second);
    }
    EXPECT_EQ(r.children, 1u);
    EXPECT_EQ(r.mutants, 0u);
    EXPECT_DOUBLE_EQ(s.value[0], 110);
    EXPECT_DOUBLE_EQ(s.value[1], 109.5);
    EXPECT_DOUBLE_EQ(s.value[2], 109);
    EXPECT_DOUBLE_EQ(s.best_value, 110);
    EXPECT_DOUBLE_EQ(s.mean_value, 100);
    EXPECT_EQ(bits_of(s.best_weights), bits_of(row(before.weights, 0, 3)));
    EXPECT_EQ(code_row(s.codes, 0, 3), code_row(before.codes, 0, 3));
    EXPECT_EQ(code_row(s.codes, 2, 3), code_row(before.codes, 2, 3));
    check_genetic_generation(c, before, s, log[0], r);
}

TEST(LearnGeneticGame, WinrateByHand) {
    LearnConfig c = small_config("genetic-game", 3);
    c.tournament = parse_tournament("round-robin");
    c.replace = 0.3;
    c.bit_mutation = 0;
    {
        // winrate:1; 0 beats 1 and 2, 2 beats 1: win% 100, 0, 50 -> 150, 50, 100; member 1
        // is replaced by the child of 0 and 2, value 125.
        c.update = parse_value_update("winrate:1");
        LearnState s = initial_state(c);
        const LearnState before = s;
        std::vector<Batch> log;
        const GenerationReport r = step(
            c, s, scripted_play(scripted_pairs({{{0, 1}, 1}, {{0, 2}, 1}, {{1, 2}, -1}}), &log));
        EXPECT_EQ(r.children, 1u);
        EXPECT_DOUBLE_EQ(s.value[0], 150);
        EXPECT_DOUBLE_EQ(s.value[1], 125);
        EXPECT_DOUBLE_EQ(s.value[2], 100);
        EXPECT_DOUBLE_EQ(s.best_value, 150);
        EXPECT_DOUBLE_EQ(s.mean_value, 100);
        check_genetic_generation(c, before, s, log[0], r);
    }
    {
        // winrate:2 with a draw (half a point): 0-1 draw, 2 beats 0, 1 beats 2: win% 25, 75,
        // 50 -> 50, 150, 100; member 0 is replaced by the child of 1 and 2, value 125.
        c.update = parse_value_update("winrate:2");
        LearnState s = initial_state(c);
        const LearnState before = s;
        std::vector<Batch> log;
        const GenerationReport r = step(
            c, s, scripted_play(scripted_pairs({{{0, 1}, 0}, {{0, 2}, -1}, {{1, 2}, 1}}), &log));
        EXPECT_EQ(r.children, 1u);
        EXPECT_DOUBLE_EQ(s.value[0], 125);
        EXPECT_DOUBLE_EQ(s.value[1], 150);
        EXPECT_DOUBLE_EQ(s.value[2], 100);
        EXPECT_EQ(bits_of(s.best_weights), bits_of(row(before.weights, 1, 3)));
        check_genetic_generation(c, before, s, log[0], r);
    }
}

// ---- ten-tournaments ------------------------------------------------------------------------

TEST(LearnTenTournaments, TwelveAveragedChildrenAndThreeOneWeightMutants) {
    LearnConfig c = small_config("ten-tournaments", 20);
    ASSERT_EQ(c.init_low, 0);
    ASSERT_EQ(c.init_high, 10);
    ASSERT_NO_THROW(validate(c));
    const uint32_t n = c.population, d = c.dims();
    for (uint32_t g = 0; g < 3; ++g) {
        SCOPED_TRACE("generation " + std::to_string(g));
        // Each generation from a fresh uniform population (distinct members, so that every
        // player of the batch names one member and no two weights 0 tie).
        c.seed = 11 + g;
        LearnState s = initial_state(c);
        s.generation = g;
        const LearnState before = s;
        std::vector<Batch> log;
        const GenerationReport r = step(c, s, scripted_play(stronger_f0, &log));
        ASSERT_EQ(log.size(), 1u);
        const Batch& b = log[0];
        EXPECT_EQ(r.games, 900u);
        EXPECT_EQ(r.children, 12u);
        EXPECT_EQ(r.mutants, 3u);
        // Who each of the 100 players is (members' weights are distinct).
        ASSERT_EQ(b.players.size(), 100u);
        std::vector<uint32_t> member_of(100, n);
        for (uint32_t p = 0; p < 100; ++p) {
            for (uint32_t m = 0; m < n; ++m)
                if (bits_of(genome_of(b.players[p])) == bits_of(row(before.weights, m, d))) {
                    ASSERT_EQ(member_of[p], n) << "two members with player " << p << "'s weights";
                    member_of[p] = m;
                }
            ASSERT_LT(member_of[p], n) << "player " << p << " is no member";
        }
        // Ten tournaments of ten distinct members, each a round-robin among its ten in which
        // every pair plays twice, A in seat 0 and in seat 1.
        std::set<std::pair<uint32_t, uint32_t>> pairs;
        std::set<std::tuple<uint32_t, uint32_t, int>> seated;
        for (const Pairing& p : b.pairings) {
            ASSERT_EQ(p.a / 10, p.b / 10) << "a game across tournaments";
            pairs.insert({std::min(p.a, p.b), std::max(p.a, p.b)});
            seated.insert({p.a, p.b, p.a_seat});
        }
        EXPECT_EQ(pairs.size(), 450u);
        EXPECT_EQ(seated.size(), 900u);
        EXPECT_EQ(b.pairings.size(), 900u);
        std::set<uint32_t> parents;
        for (uint32_t t = 0; t < 10; ++t) {
            std::set<uint32_t> entrants;
            std::vector<std::pair<float, uint32_t>> by_strength;
            for (uint32_t e = 0; e < 10; ++e) {
                entrants.insert(member_of[t * 10 + e]);
                by_strength.push_back({b.players[t * 10 + e].weights[kF0], member_of[t * 10 + e]});
            }
            EXPECT_EQ(entrants.size(), 10u) << "tournament " << t;
            // With "stronger weight 0 wins", a tournament's top 3 are its 3 strongest entrants.
            std::sort(by_strength.rbegin(), by_strength.rend());
            for (int k = 0; k < 3; ++k) parents.insert(by_strength[k].second);
        }
        // Generation fitness: wins / games over all of a member's games.
        const Scores sc = scores_of(b);
        std::vector<double> fitness(n, -1);
        std::vector<uint32_t> wins(n, 0), games(n, 0);
        for (uint32_t p = 0; p < 100; ++p) {
            wins[member_of[p]] += sc.wins[p];
            games[member_of[p]] += sc.games[p];
        }
        for (uint32_t m = 0; m < n; ++m)
            if (games[m]) fitness[m] = double(wins[m]) / games[m];
        double best = -1;
        for (double f : fitness) best = std::max(best, f);
        EXPECT_DOUBLE_EQ(s.best_value, best);

        uint32_t children = 0, mutants = 0;
        std::vector<uint32_t> replaced, kept;
        for (uint32_t m = 0; m < n; ++m) {
            const auto now = row(s.weights, m, d);
            if (bits_of(now) == bits_of(row(before.weights, m, d))) {
                kept.push_back(m);
                continue;
            }
            replaced.push_back(m);
            bool child = false;
            for (uint32_t p : parents)
                for (uint32_t q : parents) {
                    bool same = true;
                    for (uint32_t j = 0; j < d; ++j)
                        same = same && bits_of(now[j]) ==
                                           bits_of(0.5f * (before.weights[size_t(p) * d + j] +
                                                           before.weights[size_t(q) * d + j]));
                    child = child || same;
                }
            bool mutant = false;
            for (uint32_t p : parents) {
                int differ = 0;
                bool in_range = true;
                for (uint32_t j = 0; j < d; ++j)
                    if (now[j] != before.weights[size_t(p) * d + j]) {
                        ++differ;
                        in_range = in_range && now[j] >= c.init_low && now[j] <= c.init_high;
                    }
                mutant = mutant || (differ == 1 && in_range);
            }
            EXPECT_TRUE(child || mutant)
                << "member " << m << " is neither an average of two parents nor a parent with "
                << "one weight redrawn in [0, 10]";
            children += child;
            mutants += !child && mutant;
        }
        EXPECT_EQ(replaced.size(), 15u);
        EXPECT_EQ(children, 12u);
        EXPECT_EQ(mutants, 3u);
        // The newcomers took the places of the weakest members of the generation.
        for (uint32_t m : replaced) {
            ASSERT_GE(fitness[m], 0) << "member " << m << " played no game but was replaced";
            for (uint32_t k : kept)
                if (fitness[k] >= 0) {
                    EXPECT_LE(fitness[m], fitness[k]) << m << " vs " << k;
                }
        }
        for (float w : s.weights) {
            EXPECT_GE(w, 0.0f);
            EXPECT_LE(w, 10.0f);
        }
    }
}

// ---- paired-blend ---------------------------------------------------------------------------

struct DuelCase {
    std::vector<int> results;  // the local best's results in the N_R duel games
    bool replaced;
};

TEST(LearnPairedBlend, LocalBestReplacesGlobalBestOnlyWithMoreThanHalfThePoints) {
    const std::vector<DuelCase> cases = {
        {{1, 1, 1, -1}, true},      // 3 of 4
        {{1, 1, 0, -1}, true},      // 2.5 of 4
        {{1, 1, -1, -1}, false},    // exactly half
        {{0, 0, 0, 0}, false},      // exactly half, all draws
        {{1, 0, -1, -1}, false},    // 1.5 of 4
        {{-1, -1, -1, -1}, false},  // none
    };
    for (const DuelCase& dc : cases) {
        SCOPED_TRACE(::testing::PrintToString(dc.results));
        LearnConfig c = small_config("paired-blend", 8);
        c.rounds = 4;
        c.blend = 0.25;
        c.replace_best = 0.25;  // 2 of 8
        c.scale_mutation = 0;
        ASSERT_NO_THROW(validate(c));
        const uint32_t n = c.population, d = c.dims();
        LearnState s = initial_state(c);
        // The duel is told apart from the rounds by its two players.
        auto decide = [&](const std::vector<Player>& players, const Pairing& p, size_t index) {
            if (players.size() == 2) return p.a == 0 ? dc.results.at(index) : -dc.results.at(index);
            return stronger_f0(players, p, index);
        };
        for (uint32_t g = 0; g < 2; ++g) {
            SCOPED_TRACE("generation " + std::to_string(g));
            // Generation 1 starts from a global best no member has (and that loses to all).
            const std::vector<float> sentinel = {-15.0f, 0.5f, -0.25f};
            if (g == 1) s.global_best = sentinel;
            const LearnState before = s;
            std::vector<Batch> log;
            const GenerationReport r = step(c, s, scripted_play(decide, &log));
            ASSERT_EQ(log.size(), g == 0 ? 1u : 2u);
            const Batch& rounds = log[0];
            EXPECT_EQ(rounds.pairings.size(), size_t(c.rounds) * n / 2);
            EXPECT_EQ(r.games, c.rounds * n / 2 + (g == 0 ? 0 : c.rounds));
            EXPECT_EQ(r.children, n / 2);
            EXPECT_EQ(r.mutants, n);
            const Scores sc = scores_of(rounds);
            double top = -1;
            for (uint32_t m = 0; m < n; ++m) {
                EXPECT_EQ(sc.games[m], c.rounds);
                top = std::max(top, sc.fraction(m));
            }
            EXPECT_DOUBLE_EQ(s.best_value, top);
            std::vector<float> local;
            if (g == 0) {
                EXPECT_FALSE(r.global_replaced);
                // The first global best is the generation's best.
                local = s.global_best;
            } else {
                const Batch& duel = log[1];
                ASSERT_EQ(duel.players.size(), 2u);
                ASSERT_EQ(duel.pairings.size(), size_t(c.rounds));
                int seat0 = 0;
                for (const Pairing& p : duel.pairings) {
                    EXPECT_EQ(std::min(p.a, p.b), 0u);
                    EXPECT_EQ(std::max(p.a, p.b), 1u);
                    seat0 += (p.a == 0) == (p.a_seat == 0);
                }
                EXPECT_EQ(seat0, int(c.rounds) / 2) << "colours alternate in the duel";
                // Player 0 is the local best, player 1 the global best.
                local = genome_of(duel.players[0]);
                EXPECT_EQ(bits_of(genome_of(duel.players[1])), bits_of(sentinel));
                EXPECT_EQ(r.global_replaced, dc.replaced);
                EXPECT_EQ(bits_of(s.global_best), bits_of(dc.replaced ? local : sentinel));
            }
            // The local best is a member with the top score.
            bool is_top = false;
            for (uint32_t m = 0; m < n; ++m)
                is_top = is_top || (bits_of(row(before.weights, m, d)) == bits_of(local) &&
                                    sc.fraction(m) == top);
            EXPECT_TRUE(is_top) << "the local best is not a best-scoring member";
            EXPECT_EQ(bits_of(s.best_weights), bits_of(s.global_best));

            // Without mutation: the top half is unchanged, the bottom s share holds the two
            // bests (its worse half the global best, the rest the local best: one each of 2),
            // the rest of the bottom half moved a quarter of the way to a top-half member.
            std::vector<uint32_t> unchanged, copies, global_copies, local_copies, blended;
            for (uint32_t m = 0; m < n; ++m) {
                const auto now = row(s.weights, m, d), was = row(before.weights, m, d);
                if (bits_of(now) == bits_of(was)) {
                    unchanged.push_back(m);
                } else if (bits_of(now) == bits_of(s.global_best) ||
                           bits_of(now) == bits_of(local)) {
                    copies.push_back(m);
                    (bits_of(now) == bits_of(s.global_best) ? global_copies : local_copies)
                        .push_back(m);
                } else {
                    blended.push_back(m);
                }
            }
            EXPECT_EQ(copies.size(), 2u);
            if (bits_of(local) != bits_of(s.global_best)) {
                ASSERT_EQ(global_copies.size(), 1u);
                ASSERT_EQ(local_copies.size(), 1u);
                EXPECT_LE(sc.fraction(global_copies[0]), sc.fraction(local_copies[0]))
                    << "the worst member takes the global best";
            }
            EXPECT_EQ(unchanged.size(), n / 2);
            EXPECT_EQ(blended.size(), n / 2 - 2);
            for (uint32_t m : copies)
                for (uint32_t k : unchanged) EXPECT_LE(sc.fraction(m), sc.fraction(k));
            for (uint32_t m : blended) {
                bool toward_top = false;
                for (uint32_t t : unchanged) {
                    bool same = true;
                    for (uint32_t j = 0; j < d; ++j) {
                        const float w = before.weights[size_t(m) * d + j];
                        const float expected = static_cast<float>(
                            w + c.blend * (double(before.weights[size_t(t) * d + j]) - w));
                        same = same && std::fabs(s.weights[size_t(m) * d + j] - expected) <=
                                           1e-6f * (1 + std::fabs(expected));
                    }
                    toward_top = toward_top || same;
                }
                EXPECT_TRUE(toward_top) << "member " << m << " was not blended toward the top half";
                for (uint32_t k : unchanged) EXPECT_LE(sc.fraction(m), sc.fraction(k));
            }
        }
    }
}

TEST(LearnPairedBlend, MutationScalesEachWeightByAtMostM) {
    LearnConfig c = small_config("paired-blend", 8);
    c.rounds = 3;
    LearnState s = initial_state(c);
    for (uint32_t g = 0; g < 3; ++g) {
        // The same generation with and without mutation: same games, same blends.
        LearnConfig flat = c;
        flat.scale_mutation = 0;
        LearnState a = s, b = s;
        step(flat, a, scripted_play(stronger_f0, nullptr));
        const GenerationReport r = step(c, b, scripted_play(stronger_f0, nullptr));
        EXPECT_EQ(r.mutants, c.population);
        int moved = 0;
        for (size_t i = 0; i < a.weights.size(); ++i) {
            if (a.weights[i] == 0) continue;
            const double ratio = double(b.weights[i]) / a.weights[i];
            EXPECT_GE(ratio, 1 - c.scale_mutation - 1e-6) << i;
            EXPECT_LE(ratio, 1 + c.scale_mutation + 1e-6) << i;
            moved += ratio != 1.0;
        }
        EXPECT_GT(moved, int(a.weights.size()) / 2);
        s = b;
    }
}

// ---- modern ---------------------------------------------------------------------------------

TEST(LearnModern, ElitesAreKeptUnchangedAndOnlyChildrenMutate) {
    for (const char* crossover : {"blx", "sbx"}) {
        SCOPED_TRACE(crossover);
        LearnConfig c = small_config("modern", 8);
        c.tournament = parse_tournament("round-robin");
        c.elites = 2;
        c.crossover = crossover;
        c.gene_mutation = 1;  // every gene of every child takes a gaussian step
        c.sigma = 3;
        ASSERT_NO_THROW(validate(c));
        const uint32_t n = c.population, d = c.dims();
        LearnState s = initial_state(c);
        for (uint32_t g = 0; g < 3; ++g) {
            SCOPED_TRACE("generation " + std::to_string(g));
            const LearnState before = s;
            std::vector<Batch> log;
            const GenerationReport r = step(c, s, scripted_play(stronger_f0, &log));
            ASSERT_EQ(log.size(), 1u);
            const Scores sc = scores_of(log[0]);
            std::vector<double> fitness(n);
            for (uint32_t m = 0; m < n; ++m) fitness[m] = sc.fraction(m);
            const auto order = by_key_desc(fitness);
            ASSERT_GT(fitness[order[1]], fitness[order[2]]) << "the test needs distinct elites";
            EXPECT_DOUBLE_EQ(s.best_value, fitness[order[0]]);
            EXPECT_EQ(bits_of(s.best_weights), bits_of(row(before.weights, order[0], d)));
            for (uint32_t e = 0; e < c.elites; ++e) {
                EXPECT_EQ(bits_of(row(s.weights, e, d)), bits_of(row(before.weights, order[e], d)))
                    << "elite " << e;
                EXPECT_DOUBLE_EQ(s.value[e], fitness[order[e]]);
            }
            EXPECT_EQ(r.children, n - c.elites);
            EXPECT_EQ(r.mutants, (n - c.elites) * d);
            for (float w : s.weights) {
                EXPECT_GE(w, -kCodeMax);
                EXPECT_LE(w, kCodeMax);
            }
        }
    }
}

TEST(LearnModern, WithoutVariationChildrenAreCopiesOfTournamentWinners) {
    LearnConfig c = small_config("modern", 8);
    c.tournament = parse_tournament("round-robin");
    c.elites = 1;
    c.crossover_rate = 0;
    c.gene_mutation = 0;
    c.tournament_size = 8;  // the weakest member wins a tournament only if drawn 8 times
    ASSERT_NO_THROW(validate(c));
    const uint32_t n = c.population, d = c.dims();
    LearnState s = initial_state(c);
    for (uint32_t g = 0; g < 3; ++g) {
        const LearnState before = s;
        std::vector<Batch> log;
        const GenerationReport r = step(c, s, scripted_play(stronger_f0, &log));
        EXPECT_EQ(r.mutants, 0u);
        const Scores sc = scores_of(log[0]);
        std::vector<double> fitness(n);
        for (uint32_t m = 0; m < n; ++m) fitness[m] = sc.fraction(m);
        const uint32_t weakest = by_key_desc(fitness)[n - 1];
        for (uint32_t m = 0; m < n; ++m) {
            bool copy = false;
            for (uint32_t p = 0; p < n; ++p)
                if (p != weakest || g > 0)
                    copy =
                        copy || bits_of(row(s.weights, m, d)) == bits_of(row(before.weights, p, d));
            EXPECT_TRUE(copy) << "member " << m << " is no copy of a member";
            if (g == 0) {
                EXPECT_NE(bits_of(row(s.weights, m, d)), bits_of(row(before.weights, weakest, d)));
            }
        }
    }
}

TEST(LearnModern, BlxChildrenLieInTheirParentsExtendedBox) {
    LearnConfig c = small_config("modern", 8);
    c.tournament = parse_tournament("random:3");
    c.crossover_rate = 1;
    c.gene_mutation = 0;
    c.blx_alpha = 0.5;
    ASSERT_NO_THROW(validate(c));
    const uint32_t n = c.population, d = c.dims();
    LearnState s = initial_state(c);
    for (uint32_t g = 0; g < 3; ++g) {
        const LearnState before = s;
        step(c, s, scripted_play(stronger_f0, nullptr));
        for (uint32_t m = c.elites; m < n; ++m) {
            bool inside = false;
            for (uint32_t p = 0; p < n && !inside; ++p)
                for (uint32_t q = 0; q < n && !inside; ++q) {
                    bool all = true;
                    for (uint32_t j = 0; j < d; ++j) {
                        const double x = before.weights[size_t(p) * d + j],
                                     y = before.weights[size_t(q) * d + j];
                        const double lo = std::min(x, y), hi = std::max(x, y), span = hi - lo;
                        const double w = s.weights[size_t(m) * d + j];
                        all = all && w >= lo - c.blx_alpha * span - 1e-6 &&
                              w <= hi + c.blx_alpha * span + 1e-6;
                    }
                    inside = all;
                }
            EXPECT_TRUE(inside) << "child " << m << " is outside every BLX-0.5 box";
        }
    }
}

// ---- play_pairings --------------------------------------------------------------------------

TEST(LearnPlayPairings, RecordsEqualPlayMatchSeatedForEachPairing) {
    using namespace ataxx::testing;
    const ataxx::GameSetup setup = fen_setup("startpos");
    std::vector<Player> players(5);
    std::vector<gaeval::Player<ataxx::Square7Game>> typed(5);
    for (int k = 0; k < 4; ++k) {
        players[k] = player_data(k);
        typed[k] = player_of_kind(k);
    }
    players[4] = player_data(3);
    typed[4] = player_of_kind(3);
    players[3].weights[0] = typed[3].weights[0] = 1.0f;
    players[3].weights[4] = typed[3].weights[4] = -0.5f;
    players[4].weights[1] = typed[4].weights[1] = -1.0f;
    players[4].weights[7] = typed[4].weights[7] = 2.0f;
    std::vector<Pairing> pairings;
    for (uint32_t a = 0; a < 5; ++a)
        for (uint32_t b = 0; b < 5; ++b) pairings.push_back({a, b, uint8_t((a * 3 + b) % 2)});
    const uint64_t seed = 4242;
    const uint32_t max_plies = 150;
    Square7Fixture f(setup);
    std::vector<GameRecord> expected;
    for (size_t i = 0; i < pairings.size(); ++i)
        expected.push_back(play_match_seated(f.game, f.pos, typed[pairings[i].a],
                                             typed[pairings[i].b], pairings[i].a_seat, seed,
                                             uint32_t(i), max_plies));
    int finished = 0;
    for (const auto& e : expected) finished += !e.stopped;
    EXPECT_GT(finished, 0);
    for (int threads : {1, 2}) {
        for (bool generic : {false, true}) {
            const auto got =
                ataxx::open_session(setup, generic)
                    ->play_pairings(players, pairings, seed, max_plies, cpu_backend(threads));
            ASSERT_EQ(got.size(), expected.size());
            for (size_t i = 0; i < got.size(); ++i) {
                SCOPED_TRACE("game " + std::to_string(i) + (generic ? " (table)" : "") + ", " +
                             std::to_string(threads) + " threads");
                EXPECT_EQ(got[i].plies, expected[i].plies);
                EXPECT_EQ(got[i].a_seat, expected[i].a_seat);
                EXPECT_EQ(got[i].winner, expected[i].winner);
                EXPECT_EQ(got[i].a_result, expected[i].a_result);
                EXPECT_EQ(got[i].stopped, expected[i].stopped);
                if (!generic) {
                    EXPECT_EQ(got[i].move_hash, expected[i].move_hash);
                }
            }
        }
    }
    EXPECT_TRUE(ataxx::open_session(setup)
                    ->play_pairings(players, {}, seed, max_plies, cpu_backend(1))
                    .empty());
}

TEST(LearnPlayPairings, AnIndexThatNamesNoPlayerIsRefused) {
    using namespace ataxx::testing;
    const auto session = ataxx::open_session(fen_setup("startpos"));
    std::vector<Player> players(3);
    EXPECT_THROW(session->play_pairings(players, {{0, 1, 0}, {0, 3, 1}}, 1, 50, cpu_backend(1)),
                 std::invalid_argument);
    EXPECT_THROW(session->play_pairings(players, {{7, 0, 0}}, 1, 50, cpu_backend(1)),
                 std::invalid_argument);
    EXPECT_THROW(session->play_pairings({}, {{0, 0, 0}}, 1, 50, cpu_backend(1)),
                 std::invalid_argument);
}

// ---- whole runs -----------------------------------------------------------------------------

std::string temp_dir(const std::string& name) {
    const fs::path p =
        fs::path(::testing::TempDir()) / ("gaeval_learn_" + std::to_string(getpid()) + "_" + name);
    fs::remove_all(p);
    return p.string();
}

std::string slurp(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

// Every file of a folder by name, with its bytes.
std::map<std::string, std::string> snapshot(const std::string& dir) {
    std::map<std::string, std::string> out;
    for (const auto& e : fs::directory_iterator(dir))
        if (e.is_regular_file()) out[e.path().filename().string()] = slurp(e.path());
    return out;
}

// generations.csv without the timing columns (seconds, games_per_s).
std::string csv_without_timing(const std::string& text) {
    std::stringstream in(text);
    std::string line, out;
    while (std::getline(in, line)) {
        std::stringstream cells(line);
        std::string cell;
        for (int col = 0; std::getline(cells, cell, ','); ++col)
            if (col != 9 && col != 10) out += cell + ",";
        out += "\n";
    }
    return out;
}

LearnJob real_job(const std::string& scheme, uint32_t generations, const std::string& out,
                  int threads) {
    LearnJob job;
    job.config = default_config(scheme, kAtaxxWeights);
    LearnConfig& c = job.config;
    c.population = scheme == "ten-tournaments" ? 12 : 6;
    c.generations = generations;
    c.seed = 5;
    c.max_plies = 200;
    c.rounds = 3;
    c.tournament = parse_tournament("round-robin");
    c.bit_mutation = 0.05;
    job.session = games::find_game("ataxx").open({});
    job.backend = resolve_backend("cpu", threads);
    job.verify_every = 2;
    job.verify_games = 4;
    job.out_dir = out;
    job.quiet = true;
    return job;
}

void expect_same_result(const LearnResult& a, const LearnResult& b) {
    EXPECT_EQ(a.state.generation, b.state.generation);
    EXPECT_EQ(bits_of(a.state.weights), bits_of(b.state.weights));
    EXPECT_EQ(a.state.codes, b.state.codes);
    EXPECT_EQ(a.state.value, b.state.value);
    EXPECT_EQ(bits_of(a.state.global_best), bits_of(b.state.global_best));
    EXPECT_EQ(bits_of(a.state.best_weights), bits_of(b.state.best_weights));
    EXPECT_EQ(a.state.best_value, b.state.best_value);
    EXPECT_EQ(a.state.mean_value, b.state.mean_value);
    EXPECT_EQ(a.state.games, b.state.games);
    EXPECT_EQ(a.state.plies, b.state.plies);
    ASSERT_EQ(a.generations.size(), b.generations.size());
    for (size_t i = 0; i < a.generations.size(); ++i) {
        const GenerationRow &x = a.generations[i], &y = b.generations[i];
        EXPECT_EQ(x.generation, y.generation);
        EXPECT_EQ(x.report.games, y.report.games);
        EXPECT_EQ(x.report.plies, y.report.plies);
        EXPECT_EQ(x.report.stopped, y.report.stopped);
        EXPECT_EQ(x.report.children, y.report.children);
        EXPECT_EQ(x.report.mutants, y.report.mutants);
        EXPECT_EQ(x.report.global_replaced, y.report.global_replaced);
        EXPECT_EQ(x.best_value, y.best_value);
        EXPECT_EQ(x.mean_value, y.mean_value);
        EXPECT_EQ(bits_of(x.best_weights), bits_of(y.best_weights));
    }
    ASSERT_EQ(a.verification.size(), b.verification.size());
    for (size_t i = 0; i < a.verification.size(); ++i) {
        const VerifyRow &x = a.verification[i], &y = b.verification[i];
        EXPECT_EQ(x.generation, y.generation);
        EXPECT_EQ(x.opponent, y.opponent);
        EXPECT_EQ(x.games, y.games);
        EXPECT_EQ(x.wins, y.wins);
        EXPECT_EQ(x.draws, y.draws);
        EXPECT_EQ(x.losses, y.losses);
        EXPECT_EQ(x.win_rate, y.win_rate);
    }
}

TEST(LearnRun, ResumedRunEndsWhereAnUninterruptedOneDoes) {
    for (std::string scheme : {"genetic-game", "paired-blend", "modern"}) {
        const std::string name = scheme;
        SCOPED_TRACE(name);
        const LearnJob whole_job = real_job(scheme, 4, temp_dir("whole_" + name), 2);
        const LearnResult whole = run_learn(whole_job);
        EXPECT_EQ(whole.state.generation, 4u);
        EXPECT_EQ(whole.generations.size(), 4u);
        EXPECT_EQ(whole.verification.size(), 6u);  // generations 2 and 4, three opponents

        const LearnJob part_job = real_job(scheme, 2, temp_dir("part_" + name), 1);
        const LearnResult part = run_learn(part_job);
        EXPECT_EQ(part.state.generation, 2u);
        LearnJob resumed = learn_job_from_folder(part_job.out_dir);
        EXPECT_TRUE(resumed.resume);
        EXPECT_EQ(resumed.out_dir, part_job.out_dir);
        EXPECT_EQ(learn_fingerprint(resumed), learn_fingerprint(part_job));
        EXPECT_EQ(resumed.config.generations, 2u);
        resumed.config.generations = 4;
        resumed.backend = resolve_backend("cpu", 2);
        resumed.quiet = true;
        const LearnResult r = run_learn(resumed);
        expect_same_result(r, whole);
        const fs::path a = part_job.out_dir, b = whole_job.out_dir;
        EXPECT_EQ(slurp(a / "weights.json"), slurp(b / "weights.json"));
        EXPECT_EQ(slurp(a / "verification.csv"), slurp(b / "verification.csv"));
        EXPECT_EQ(csv_without_timing(slurp(a / "generations.csv")),
                  csv_without_timing(slurp(b / "generations.csv")));
    }
}

TEST(LearnRun, WritesItsFilesAndWeightsJsonHoldsTheBestMember) {
    const LearnJob job = real_job("genetic-game", 3, temp_dir("files"), 2);
    const LearnResult r = run_learn(job);
    const fs::path dir = job.out_dir;
    for (const char* f : {"run.json", "generations.csv", "verification.csv", "learning.svg",
                          "weights.json", "checkpoint.bin"})
        EXPECT_TRUE(fs::exists(dir / f)) << f;
    const auto run = nlohmann::json::parse(slurp(dir / "run.json"));
    EXPECT_EQ(run["kind"], "learn");
    EXPECT_EQ(run["config"]["scheme"], "genetic-game");
    EXPECT_EQ(run["config"]["population"], 6);
    EXPECT_EQ(run["config"]["seed"], 5);
    const auto weights = nlohmann::json::parse(slurp(dir / "weights.json"));
    ASSERT_EQ(weights["weights"].size(), size_t(ataxx::kFeatureCount));
    for (uint32_t j = 0; j < job.config.dims(); ++j)
        EXPECT_EQ(weights["weights"][job.config.features[j]].get<float>(), r.state.best_weights[j]);
    // One line per generation after the header; games = 6 * 5 / 2 each.
    std::stringstream csv(slurp(dir / "generations.csv"));
    std::string line;
    std::getline(csv, line);
    EXPECT_EQ(line.rfind("generation,games,", 0), 0u) << line;
    for (int g = 1; g <= 3; ++g) {
        ASSERT_TRUE(std::getline(csv, line));
        EXPECT_EQ(line.rfind(std::to_string(g) + ",15,", 0), 0u) << line;
    }
    EXPECT_FALSE(std::getline(csv, line));
    EXPECT_EQ(slurp(dir / "learning.svg").rfind("<svg", 0), 0u);
}

TEST(LearnRun, CorruptOrForeignCheckpointsAndOccupiedFoldersAreRefusedUntouched) {
    const LearnJob job = real_job("paired-blend", 2, temp_dir("refuse"), 1);
    run_learn(job);
    const fs::path ck = fs::path(job.out_dir) / "checkpoint.bin";
    const std::string good = slurp(ck);
    ASSERT_GT(good.size(), 100u);
    auto resume = [&] {
        LearnJob again = learn_job_from_folder(job.out_dir);
        again.config.generations = 4;
        again.backend = resolve_backend("cpu", 1);
        again.quiet = true;
        return run_learn(again);
    };
    auto write = [](const fs::path& p, const std::string& bytes) {
        std::ofstream(p, std::ios::binary | std::ios::trunc) << bytes;
    };
    // A fresh run into a folder that holds a run.
    {
        const auto before = snapshot(job.out_dir);
        EXPECT_THROW(run_learn(job), InputError);
        LearnJob other = real_job("modern", 2, job.out_dir, 1);
        EXPECT_THROW(run_learn(other), InputError);
        EXPECT_EQ(snapshot(job.out_dir), before);
    }
    // Flipped bytes (in the header and in the blobs) and a truncated file.
    for (size_t at : {size_t(20), good.size() / 2, good.size() - 3}) {
        std::string bad = good;
        bad[at] = static_cast<char>(bad[at] ^ 0x5a);
        write(ck, bad);
        const auto before = snapshot(job.out_dir);
        EXPECT_THROW(resume(), InputError) << "byte " << at;
        EXPECT_EQ(snapshot(job.out_dir), before) << "byte " << at;
    }
    for (size_t keep : {size_t(0), size_t(10), good.size() / 2, good.size() - 1}) {
        write(ck, good.substr(0, keep));
        const auto before = snapshot(job.out_dir);
        EXPECT_THROW(resume(), InputError) << "truncated to " << keep;
        EXPECT_EQ(snapshot(job.out_dir), before) << "truncated to " << keep;
    }
    // A checkpoint of another configuration: run.json's seed edited.
    write(ck, good);
    const fs::path run_json = fs::path(job.out_dir) / "run.json";
    const std::string run_text = slurp(run_json);
    auto run = nlohmann::json::parse(run_text);
    run["config"]["seed"] = 6;
    write(run_json, run.dump(2));
    {
        const auto before = snapshot(job.out_dir);
        try {
            resume();
            ADD_FAILURE() << "a checkpoint of another seed was resumed";
        } catch (const InputError& e) {
            EXPECT_NE(std::string(e.what()).find("checkpoint.bin"), std::string::npos) << e.what();
        }
        EXPECT_EQ(snapshot(job.out_dir), before);
    }
    // Restored: the run resumes.
    write(run_json, run_text);
    EXPECT_EQ(resume().state.generation, 4u);
}

TEST(LearnRun, ResumeNeedsARunFolder) {
    const std::string empty = temp_dir("empty");
    fs::create_directories(empty);
    EXPECT_THROW(learn_job_from_folder(empty), InputError);
    EXPECT_THROW(learn_job_from_folder(empty + "/missing"), InputError);
    std::ofstream(fs::path(empty) / "run.json") << "{\"kind\": \"pile-in\"}";
    EXPECT_THROW(learn_job_from_folder(empty), InputError);
    std::ofstream(fs::path(empty) / "run.json", std::ios::trunc) << "not json";
    EXPECT_THROW(learn_job_from_folder(empty), InputError);
}

TEST(LearnRun, SameLearnedWeightsOnAnyThreadCount) {
    for (const std::string& scheme : kAllSchemes) {
        SCOPED_TRACE(scheme);
        const uint32_t generations = scheme == "ten-tournaments" ? 1 : 3;
        LearnJob one = real_job(scheme, generations, "", 1);
        one.verify_every = 0;
        if (scheme == "ten-tournaments") one.config.max_plies = 100;  // 900 games
        const LearnResult reference = run_learn(one);
        ASSERT_EQ(reference.state.generation, generations);
        EXPECT_EQ(reference.verification.size(), 3u);
        for (int threads : {2, 3}) {
            SCOPED_TRACE(std::to_string(threads) + " threads");
            LearnJob job = one;
            job.backend = resolve_backend("cpu", threads);
            EXPECT_EQ(job.backend.threads, threads);
            expect_same_result(run_learn(job), reference);
        }
    }
}

TEST(LearnRun, CudaLearnsTheSameWeightsAsCpu) {
    GAEVAL_REQUIRE_DEVICE_OR_SKIP();
    for (const std::string& scheme : kAllSchemes) {
        SCOPED_TRACE(scheme);
        LearnJob cpu = real_job(scheme, 2, "", 2);
        LearnJob gpu = cpu;
        gpu.backend = resolve_backend("cuda", 0);
        expect_same_result(run_learn(gpu), run_learn(cpu));
    }
}

}  // namespace
}  // namespace gaeval::learn
