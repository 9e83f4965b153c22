// Risk as a game of the plug-in interface (games/core/game.hpp): the rules of rules.hpp on a map
// read from tables in memory (the CUDA backend copies them to the device), the built-in players
// and the alpha-beta agent of agent.hpp. Moves, in one fixed order per phase:
//   Setup    place one starting army: every own territory, ascending
//   Trade    trade the set pick_set chooses; keep the cards (only below kForcedTrade cards)
//   Place    place k armies on t: every own territory t ascending, k = 1 .. armies left
//   Attack   stop; then attack from -> to committing k armies: from ascending (own, at least
//            2 armies), to ascending (enemy neighbours), k = 1 .. armies on from - 1
//   Fortify  none; then move k armies from -> to: from ascending (own, at least 2 armies), to
//            ascending (own neighbours), k = 1 .. armies on from - 1
// The game ends when one seat holds every territory, or after `turn_cap` rounds: then the seat
// with the most territories wins (ties: the most armies; still tied: a draw among those tied).
#pragma once

#include <cstddef>
#include <cstdint>

#include "games/core/game.hpp"
#include "games/core/hd.hpp"
#include "games/core/lanes.hpp"
#include "games/core/players.hpp"
#include "games/core/rng.hpp"
#include "games/risk/agent.hpp"
#include "games/risk/lane_agent.hpp"
#include "games/risk/rules.hpp"

namespace gaeval::risk {

// Built-in policies (player names; values are part of saved results).
enum Policy : int { kPassive = 1, kAggressive = 2, kDrafter = 3 };

struct Game {
    using Pos = risk::Pos;
    using Move = risk::Move;
    static constexpr int kMaxSeats = risk::kMaxSeats;
    static constexpr int kFeatureCount = risk::kFeatureCount;
    static constexpr int kWeightCount = risk::kFeatureCount;
    static constexpr int kPolicyCount = 3;
    static constexpr bool kHasPerft = false;
    static constexpr const char* kWeightNames[kWeightCount] = {"territory_share", "army_share",
                                                               "continent_share", "border_safety"};
    static constexpr const char* kPolicyNames[kPolicyCount] = {"passive", "aggressive", "drafter"};

    Config config;

    GAEVAL_HD_INLINE const Map& map() const { return config.tables->map; }

    // The position before the deal: `seats` seats and nothing else (start_match deals).
    GAEVAL_HD_INLINE Pos start(int seats) const {
        Pos p = deal(map(), seats, 0, 0);
        for (int s = 0; s < kMaxSeats; ++s) p.owned[s] = 0;
        for (int t = 0; t < kMaxTerritories; ++t) p.armies[t] = 0;
        return p;
    }
    // Match `index` of a batch keyed by `seed`: its own deal and dice.
    GAEVAL_HD_INLINE Pos start_match(const Pos& start, uint64_t seed, uint32_t index) const {
        return deal(map(), start.seats, seed, index);
    }

    // Playouts in per-thread scratch (games/core/scratch.hpp, games/core/match.hpp:
    // play_match_in_scratch): the position, whose army counts are indexed by territory at run
    // time, and the drafter's ratios (the deal's shuffle uses the same bytes first).
    struct PlayoutScratch {
        Pos pos;
        float work[kMaxTerritories];
    };
    GAEVAL_HD_INLINE void start_match_in(PlayoutScratch& s, const Pos& start, uint64_t seed,
                                         uint32_t index) const {
        deal_into(map(), start.seats, seed, index, s.pos, reinterpret_cast<uint8_t*>(s.work));
    }

    // The move as one number for the record's move hash (games/core/match.hpp): Move has a
    // padding byte, which must not be hashed.
    GAEVAL_HD_INLINE uint64_t move_code(const Move& m) const {
        return static_cast<uint64_t>(m.act) | static_cast<uint64_t>(m.from) << 8 |
               static_cast<uint64_t>(m.to) << 16 | static_cast<uint64_t>(m.count) << 24;
    }

    GAEVAL_HD_INLINE int seats(const Pos& p) const { return p.seats; }
    GAEVAL_HD_INLINE int to_move(const Pos& p) const { return p.mover; }
    GAEVAL_HD_INLINE bool is_over(const Pos& p) const { return p.phase == Phase::Over; }

    // Territories the mover may attack (Attack) or fortify into (Fortify) from `from`.
    GAEVAL_HD_INLINE uint64_t targets(const Pos& p, int from) const {
        const uint64_t own = p.owned[p.mover];
        return map().borders[from] & (p.phase == Phase::Attack ? ~own : own);
    }

    GAEVAL_HD_INLINE int count_moves(const Pos& p) const {
        const uint64_t own = p.owned[p.mover];
        switch (p.phase) {
            case Phase::Setup:
                return popcount64(own);
            case Phase::Trade:
                return hand_size(p, p.mover) >= kForcedTrade ? 1 : 2;
            case Phase::Place:
                return popcount64(own) * p.pending;
            case Phase::Attack:
            case Phase::Fortify: {
                int n = 1;
                for (uint64_t x = own; x; x = clear_lowest(x)) {
                    const int from = lowest_bit(x);
                    if (p.armies[from] >= 2)
                        n += popcount64(targets(p, from)) * (p.armies[from] - 1);
                }
                return n;
            }
            default:
                return 0;
        }
    }

    template <class F>
    GAEVAL_HD_INLINE void for_each_move(const Pos& p, F&& f) const {
        const uint64_t own = p.owned[p.mover];
        switch (p.phase) {
            case Phase::Setup:
                for (uint64_t x = own; x; x = clear_lowest(x)) f(place_move(lowest_bit(x), 1));
                break;
            case Phase::Trade:
                f(act_move(Act::Trade));
                if (hand_size(p, p.mover) < kForcedTrade) f(act_move(Act::Keep));
                break;
            case Phase::Place:
                for (uint64_t x = own; x; x = clear_lowest(x))
                    for (int k = 1; k <= p.pending; ++k) f(place_move(lowest_bit(x), k));
                break;
            case Phase::Attack:
            case Phase::Fortify: {
                const bool attack = p.phase == Phase::Attack;
                f(act_move(attack ? Act::Stop : Act::Pass));
                for (uint64_t x = own; x; x = clear_lowest(x)) {
                    const int from = lowest_bit(x);
                    for (uint64_t y = targets(p, from); y && p.armies[from] >= 2;
                         y = clear_lowest(y))
                        for (int k = 1; k < p.armies[from]; ++k)
                            f(troop_move(attack ? Act::Attack : Act::Fortify, from, lowest_bit(y),
                                         k));
                }
                break;
            }
            default:
                break;
        }
    }

    GAEVAL_HD_INLINE Move nth_move(const Pos& p, int k) const {
        const uint64_t own = p.owned[p.mover];
        switch (p.phase) {
            case Phase::Setup:
                return place_move(nth_set_bit(own, k), 1);
            case Phase::Trade:
                return act_move(k == 0 ? Act::Trade : Act::Keep);
            case Phase::Place:
                return place_move(nth_set_bit(own, k / p.pending), k % p.pending + 1);
            case Phase::Attack:
            case Phase::Fortify: {
                const bool attack = p.phase == Phase::Attack;
                if (k == 0) return act_move(attack ? Act::Stop : Act::Pass);
                --k;
                for (uint64_t x = own; x; x = clear_lowest(x)) {
                    const int from = lowest_bit(x);
                    const int per_target = p.armies[from] - 1;
                    if (per_target < 1) continue;
                    for (uint64_t y = targets(p, from); y; y = clear_lowest(y)) {
                        if (k < per_target)
                            return troop_move(attack ? Act::Attack : Act::Fortify, from,
                                              lowest_bit(y), k + 1);
                        k -= per_target;
                    }
                }
                return act_move(Act::Stop);  // k out of range
            }
            default:
                return act_move(Act::Stop);
        }
    }

    GAEVAL_HD_INLINE void make_in_place(Pos& p, const Move& mv) const {
        if (mv.act == Act::Attack)
            roll_attack(config, p, mv);
        else
            apply(config, p, mv, true);
    }
    GAEVAL_HD_INLINE Pos make(const Pos& p, const Move& mv) const {
        Pos n = p;
        make_in_place(n, mv);
        return n;
    }

    // How a seat stands for the result: territories first, then armies, as one integer
    // (armies < 2^23).
    GAEVAL_HD_INLINE static int standing(const Pos& p, int seat) {
        return (popcount64(p.owned[seat]) << 23) + armies_on(p, p.owned[seat]);
    }
    GAEVAL_HD_INLINE static int best_standing(const Pos& p) {
        int best = -1;
        for (int s = 0; s < p.seats; ++s) best = max(best, standing(p, s));
        return best;
    }
    // The seat holding every territory; else the leader (most territories, then most armies),
    // or -1 when the lead is shared.
    GAEVAL_HD_INLINE int winner(const Pos& p) const {
        const int best = best_standing(p);
        int leader = -1;
        for (int s = 0; s < p.seats; ++s) {
            if (standing(p, s) != best) continue;
            if (leader >= 0) return -1;
            leader = s;
        }
        return leader;
    }
    // Win for the winner; with a shared lead, a draw for the seats sharing it; else a loss.
    GAEVAL_HD_INLINE SeatResult seat_result(const Pos& p, int seat) const {
        const int w = winner(p);
        if (w >= 0) return w == seat ? SeatResult::Win : SeatResult::Loss;
        return standing(p, seat) == best_standing(p) ? SeatResult::Draw : SeatResult::Loss;
    }

    GAEVAL_HD_INLINE void features(const Pos& p, int seat, float* out) const {
        risk::features(map(), p, seat, out);
    }

    // passive, aggressive or drafter (agent.hpp) in p, which has at least two moves.
    GAEVAL_HD Move policy_move(const Pos& p, int policy, const DrawAddress& at) const {
        float ratio[kMaxTerritories];
        return policy_move(p, policy, at, ratio);
    }
    // The same in a playout's scratch (the drafter's ratios in its working memory).
    GAEVAL_HD_INLINE Move policy_move(const Pos& p, int policy, const DrawAddress& at,
                                      PlayoutScratch& s) const {
        return policy_move(p, policy, at, s.work);
    }

  private:
    // policy_move with kMaxTerritories floats of working memory for the drafter.
    GAEVAL_HD Move policy_move(const Pos& p, int policy, const DrawAddress& at,
                               float* ratio) const {
        const Map& m = map();
        if (p.phase == Phase::Trade) return act_move(Act::Trade);
        if (policy == kPassive) {
            if (p.phase == Phase::Attack) return act_move(Act::Stop);
            if (p.phase == Phase::Fortify) return act_move(Act::Pass);
            const uint32_t r =
                philox(at.seed, Purpose::PlayerRandomMove, at.game, at.ply, 0, 0).v[0];
            return nth_move(p, static_cast<int>(below(r, static_cast<uint32_t>(count_moves(p)))));
        }
        switch (p.phase) {
            case Phase::Setup:
            case Phase::Place: {
                const int armies = p.phase == Phase::Setup ? 1 : p.pending;
                return policy == kAggressive ? concentrated_move(m, p, armies)
                                             : drafting_move(m, p, armies, ratio);
            }
            case Phase::Attack:
                return policy == kAggressive
                           ? greedy_attack(*config.tables, p, 0.5f, true)
                           : greedy_attack(*config.tables, p, config.threshold, false);
            default:
                return fortify_move(m, p);
        }
    }

  public:
    // The alpha-beta agent: drafting, trading and fortifying as planned_move, attacks by a
    // search `depth` edges deep with the leaves scored by `weights`.
    GAEVAL_HD Move weighted_move(const Pos& p, const float* weights, int depth,
                                 const DrawAddress&) const {
        if (p.phase == Phase::Attack) return search(config, p, weights, depth).move;
        return planned_move(map(), p);
    }
    // weighted_move over a lane group (lane_agent.hpp: the attack decisions' root edges split
    // over the lanes): the same move, in every lane. Every lane of the group must call it.
    template <int L>
    GAEVAL_HD Move lane_weighted_move(const Lanes<L>& lanes, const Pos& p, const float* weights,
                                      int depth, const DrawAddress&) const {
        if (p.phase == Phase::Attack) return lane_search<L>(lanes, config, p, weights, depth).move;
        return planned_move(map(), p);
    }

    // The map and the battle odds live in host memory; the CUDA backend copies them.
    std::size_t table_bytes() const { return sizeof(Tables); }
    const void* tables() const { return config.tables; }
    Game with_tables(const void* device_tables) const {
        Game g = *this;
        g.config.tables = static_cast<const Tables*>(device_tables);
        return g;
    }

  private:
    GAEVAL_HD_INLINE static Move troop_move(Act act, int from, int to, int count) {
        Move mv;
        mv.act = act;
        mv.from = static_cast<uint8_t>(from);
        mv.to = static_cast<uint8_t>(to);
        mv.count = static_cast<uint16_t>(count);
        return mv;
    }
};

static_assert(check_game<Game>());

}  // namespace gaeval::risk
