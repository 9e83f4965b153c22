#include "host/risk/engine.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <thread>

#include "host/core/clock.hpp"
#include "host/core/error.hpp"

namespace gaeval::risk {

namespace {

// Rollouts overrule the agent's own choice only when they prefer another edge by more than
// this many standard errors of the paired difference (chosen on seed 101: 1 and 2 gave the
// same score against aggressive, 2 one more win against random).
constexpr double kRolloutConfidence = 2.0;

// The opponents' model of the rollouts (Engine::observe): once an opponent has been seen off
// the reply model in kOffModelTurns turns, every kRandomReplyPeriod-th round of rollouts
// (rounds 0, 2, 4, ...) plays the other seats as uniform movers, the other rounds by the reply
// model (chosen on seed 101 with the seed-1 weights: every second round, after one turn).
constexpr int kOffModelTurns = 1;
constexpr int kRandomReplyPeriod = 2;

// The end game (Engine::endgame_move): samples of the finishing line, and the share of them
// that must end the game with the searcher's win for the engine to play it.
constexpr int kFinishSamples = 16;
constexpr float kFinishShare = 0.5f;
// In the last round, the likeliest conquest is played while its odds are above this (the
// standings count territories first); the seat moving last plays down to the threshold.
constexpr float kLastRoundOdds = 0.5f;

// The seat moving after `mover` in p (seats without a territory skipped; `mover` itself when
// it is alone).
int next_seat(const Pos& p, int mover) {
    int next = mover;
    do {
        next = next + 1 == p.seats ? 0 : next + 1;
    } while (p.owned[next] == 0 && next != mover);
    return next;
}

}  // namespace

Engine::Engine(const Config& config, const float* weights) : config_(config) {
    for (int i = 0; i < kFeatureCount; ++i) weights_[i] = weights[i];
}

bool Engine::out_of_budget() {
    if (aborted_) return true;
    if (!budget_active_) return false;
    if (node_limit_ > 0 && nodes_ > node_limit_) aborted_ = true;
    if (deadline_ > 0 && (nodes_ & 255) == 0 && now_seconds() > deadline_) aborted_ = true;
    return aborted_;
}

// ---- the agent's tree (agent.hpp's search, recursive) ---------------------------------------

// The value of child k (0: stop; k: attack edges[k - 1] with outcome `won`) of a node `depth`
// edges above the leaves, as agent.hpp's search computes it.
float Engine::agent_child(const Pos& p, const Edge* edges, int k, bool won, int depth, float alpha,
                          float beta) {
    ++nodes_;
    Pos child;
    edge_child(config_, p, edges, k, won, &child, depth <= 1);
    if (depth <= 1 || child.phase == Phase::Over)
        return evaluate(config_.tables->map, child, us_, weights_);
    int unused = 0;
    return agent_node(child, depth - 1, alpha, beta, &unused);
}

// Fail-soft alpha-beta over the agent's edges: stop first, then attacks by descending odds;
// chance children with a full window; ties to the first edge.
float Engine::agent_node(const Pos& p, int depth, float alpha, float beta, int* best_edge) {
    Edge edges[kMaxAttackEdges];
    const int count = 1 + attack_edges(config_, p, edges);
    const bool maximize = p.mover == us_;
    float best = maximize ? -kSearchInfinity : kSearchInfinity;
    *best_edge = 0;
    for (int k = 0; k < count; ++k) {
        if (out_of_budget()) return 0.0f;
        float value;
        if (k == 0) {
            value = agent_child(p, edges, 0, true, depth, alpha, beta);
        } else {
            const float conquest =
                agent_child(p, edges, k, true, depth, -kSearchInfinity, kSearchInfinity);
            const float win = edges[k - 1].win;
            value = win < 1.0f ? chance_value(win, conquest,
                                              agent_child(p, edges, k, false, depth,
                                                          -kSearchInfinity, kSearchInfinity))
                               : conquest;
        }
        if (maximize) {
            if (value > best) {
                best = value;
                *best_edge = k;
            }
            alpha = max(alpha, best);
        } else {
            if (value < best) {
                best = value;
                *best_edge = k;
            }
            beta = min(beta, best);
        }
        if (alpha >= beta) break;
    }
    return best;
}

// ---- the turn tree -----------------------------------------------------------------------

float Engine::reply_value(const Pos& p, int us) {
    const Tables& tb = *config_.tables;
    const Map& m = tb.map;
    Pos q = p;
    q.phase = Phase::Fortify;
    apply(config_, q, fortify_move(m, q), false);
    // The other seats' turns: cards, the seed's drafting, the likeliest conquest while its odds
    // are above 1/2 (moved in at the expected survivors), fortification.
    while (q.phase != Phase::Over && q.mover != us) {
        if (q.phase == Phase::Attack) {
            const Move mv = greedy_attack(tb, q, 0.5f, true);
            if (mv.act == Act::Stop) {
                apply(config_, q, mv, false);
                continue;
            }
            const Battle b = battle_odds(tb.odds, mv.count, q.armies[mv.to]);
            end_battle(m, q, mv.from, mv.to, mv.count, b.survivors, 0);
            continue;
        }
        apply(config_, q, planned_move(m, q), false);
    }
    return evaluate(m, q, us, weights_);
}

// Expectimax over the searching seat's attack edges, `depth` edges deep; stopping (and the
// horizon) scored by reply_value. Ties to the first edge.
float Engine::turn_node(const Pos& p, int depth, int* best_edge) {
    Edge edges[kMaxAttackEdges];
    const int count = 1 + attack_edges(config_, p, edges);
    float best = -kSearchInfinity;
    *best_edge = 0;
    for (int k = 0; k < count; ++k) {
        if (out_of_budget()) return 0.0f;
        float value;
        if (k == 0) {
            ++nodes_;
            value = reply_value(p, us_);
        } else {
            float outcome[2] = {0.0f, 0.0f};
            const float win = edges[k - 1].win;
            for (int o = 0; o < (win < 1.0f ? 2 : 1); ++o) {
                ++nodes_;
                Pos child;
                edge_child(config_, p, edges, k, o == 0, &child);
                if (child.phase == Phase::Over) {
                    outcome[o] = evaluate(config_.tables->map, child, us_, weights_);
                } else if (depth <= 1 || child.mover != us_ || child.phase != Phase::Attack) {
                    outcome[o] = reply_value(child, us_);
                } else {
                    int unused = 0;
                    outcome[o] = turn_node(child, depth - 1, &unused);
                }
            }
            value = chance_value(win, outcome[0], outcome[1]);
        }
        if (value > best) {
            best = value;
            *best_edge = k;
        }
    }
    return best;
}

// ---- rollouts ---------------------------------------------------------------------------

// One sample of p (the searcher's attack decision, its edge just played): the rest of its turn
// by the agent's depth-1 search with dice of the rollout key (never the match's), the others'
// turns as the reply model plays them with those dice (or, with `random_replies`, as uniform
// movers: any legal move of every phase, drawn from the rollout key), scored when the turn
// comes back.
float Engine::rollout(const Pos& start, const Move& first, uint64_t key, bool random_replies) {
    const Tables& tb = *config_.tables;
    const Map& m = tb.map;
    Pos q = start;
    q.key = key;
    q.draws = 0;
    if (first.act == Act::Attack)
        roll_attack(config_, q, first);
    else
        apply(config_, q, first, false);
    // To the searcher's next turn (before its cards and reinforcements).
    bool others = false;
    const Game game{config_};
    uint32_t random_moves = 0;
    while (q.phase != Phase::Over) {
        others = others || q.mover != us_;
        if (others && q.mover == us_) break;
        if (random_replies && q.mover != us_) {
            // A uniform mover (the opponents of this round): every phase, any legal move.
            const uint32_t r =
                philox(key, Purpose::PlayerRandomMove, q.match, q.draws, random_moves++, 0x7e57u)
                    .v[0];
            const Move mv = game.nth_move(
                q, static_cast<int>(below(r, static_cast<uint32_t>(game.count_moves(q)))));
            q = game.make(q, mv);
            ++nodes_;
            continue;
        }
        if (q.phase == Phase::Attack) {
            Move mv;
            if (q.mover == us_)
                mv = risk::search(config_, q, weights_, 1).move;
            else
                mv = greedy_attack(tb, q, 0.5f, true);
            if (mv.act == Act::Stop)
                apply(config_, q, mv, false);
            else
                roll_attack(config_, q, mv);
            ++nodes_;
            continue;
        }
        apply(config_, q, planned_move(m, q), false);
    }
    return evaluate(m, q, us_, weights_);
}

// Rollouts of every root edge (stop, then the attack edges), round by round: round s plays
// one sample of each edge with the same rollout key (common dice for all edges), `samples`
// rounds, or (samples 0) rounds until `deadline` (at least one). The best mean (ties: the
// first edge) replaces the agent's own choice at `agent_depth` only when it is ahead of it by
// more than kRolloutConfidence standard errors of the per-round difference. Once observe has
// seen an opponent off the reply model, every kRandomReplyPeriod-th round plays the other
// seats as uniform movers.
EngineResult Engine::rollout_search(const Pos& p, int samples, double deadline, int agent_depth) {
    Edge edges[kMaxAttackEdges];
    const int count = 1 + attack_edges(config_, p, edges);
    Move moves[kMaxAttackEdges + 1];
    float sums[kMaxAttackEdges + 1];
    for (int k = 0; k < count; ++k) {
        moves[k] = act_move(Act::Stop);
        sums[k] = 0.0f;
        if (k == 0) continue;
        moves[k].act = Act::Attack;
        moves[k].from = edges[k - 1].from;
        moves[k].to = edges[k - 1].to;
        moves[k].count = edges[k - 1].count;
    }
    std::vector<float> values;  // [round][edge]
    const bool random_replies = off_model_ >= kOffModelTurns;
    int rounds = 0;
    while (samples > 0 ? rounds < samples : rounds == 0 || now_seconds() < deadline) {
        // The rollout key: a draw of its own purpose-free stream keyed by the match and the
        // position's draw counter, never the match's dice stream.
        const Random4 r4 = philox(p.key ^ 0x5bd1e9955bd1e995ull, Purpose::RiskDice, p.match,
                                  p.draws, static_cast<uint32_t>(rounds), 0x7e57u);
        const uint64_t key = (uint64_t{r4.v[0]} | uint64_t{r4.v[1]} << 32) | uint64_t{1} << 63;
        for (int k = 0; k < count; ++k) {
            values.push_back(
                rollout(p, moves[k], key, random_replies && rounds % kRandomReplyPeriod == 0));
            sums[k] += values.back();
        }
        ++rounds;
    }
    EngineResult r;
    r.value = -kSearchInfinity;
    for (int k = 0; k < count; ++k) {
        const float value = sums[k] / static_cast<float>(rounds);
        if (value > r.value) {
            r.value = value;
            r.edge = k;
        }
    }
    // The agent's own choice stays unless the rollouts prefer another edge by more than
    // `confidence` standard errors of the paired difference.
    const int agent = risk::search(config_, p, weights_, agent_depth).edge;
    if (r.edge != agent && rounds >= 2) {
        double mean = 0, squares = 0;
        for (int s = 0; s < rounds; ++s)
            mean += values[s * count + r.edge] - values[s * count + agent];
        mean /= rounds;
        for (int s = 0; s < rounds; ++s) {
            const double d = values[s * count + r.edge] - values[s * count + agent] - mean;
            squares += d * d;
        }
        const double error = std::sqrt(squares / (rounds - 1) / rounds);
        if (!(mean > kRolloutConfidence * error)) {
            r.edge = agent;
            r.value = sums[agent] / static_cast<float>(rounds);
        }
    }
    r.move = moves[r.edge];
    r.depth = rounds;
    r.nodes = nodes_;
    return r;
}

// ---- the opponents' model -------------------------------------------------------------------

// Called at the searcher's attack decisions of one game after another (a new match key or index
// starts over). At the first decision of each turn, compares the position with the one at the
// first decision of the previous turn: a territory that was and is interior to one opponent
// (every neighbour its own) and gained armies (beyond the 2 each traded set may put there) was
// reinforced or fortified where the reply model never puts armies (drafting and fortification
// go to threatened territories, the aggressive base borders an enemy). Each turn with such a
// territory counts once in off_model_.
void Engine::observe(const Pos& p) {
    const Map& m = config_.tables->map;
    if (!seen_valid_ || p.key != seen_.key || p.match != seen_.match || p.round < seen_.round ||
        p.mover != seen_.mover) {
        seen_ = p;
        seen_valid_ = true;
        off_model_ = 0;
        return;
    }
    if (p.round == seen_.round) return;  // the same turn
    const int bonus = 2 * (p.trades - seen_.trades);
    bool off = false;
    for (int s = 0; s < p.seats && !off; ++s) {
        if (s == p.mover) continue;
        for (uint64_t x = p.owned[s] & seen_.owned[s]; x; x = clear_lowest(x)) {
            const int t = lowest_bit(x);
            if ((m.borders[t] & ~p.owned[s]) || (m.borders[t] & ~seen_.owned[s])) continue;
            if (p.armies[t] > seen_.armies[t] + bonus) {
                off = true;
                break;
            }
        }
    }
    if (off) ++off_model_;
    seen_ = p;
}

// ---- the end game -------------------------------------------------------------------------

// The finishing line of p: the likeliest conquest (all armies but one) while any attack is
// left. Returns the share of kFinishSamples samples (rollout dice, never the match's) in which
// it ends the game with the mover's win this turn.
float Engine::finish_share(const Pos& p) {
    const Tables& tb = *config_.tables;
    const int us = p.mover;
    int wins = 0;
    for (int s = 0; s < kFinishSamples; ++s) {
        const Random4 r4 = philox(p.key ^ 0x2545f4914f6cdd1dull, Purpose::RiskDice, p.match,
                                  p.draws, static_cast<uint32_t>(s), 0xf1u);
        Pos q = p;
        q.key = (uint64_t{r4.v[0]} | uint64_t{r4.v[1]} << 32) | uint64_t{1} << 62;
        q.draws = 0;
        while (q.phase == Phase::Attack && q.mover == us) {
            const Move mv = greedy_attack(tb, q, 0.0f, true);
            if (mv.act != Act::Attack) break;
            roll_attack(config_, q, mv);
        }
        if (q.phase == Phase::Over && Game{config_}.winner(q) == us) ++wins;
    }
    return static_cast<float>(wins) / static_cast<float>(kFinishSamples);
}

// The end-game rules, before any search (p: an attack decision). Finish: when the finishing
// line (finish_share) wins this turn in at least kFinishShare of its samples, its next attack.
// Last round (the turn cap ends the game after it, and the standings count territories first):
// the likeliest conquest while its odds are above kLastRoundOdds, or (the seat moving last,
// whose territories no one can take back) at least the threshold. Returns false otherwise.
bool Engine::endgame_move(const Pos& p, Move* move) {
    const Tables& tb = *config_.tables;
    const Move greedy = greedy_attack(tb, p, 0.0f, true);
    if (greedy.act != Act::Attack) return false;
    if (finish_share(p) >= kFinishShare) {
        *move = greedy;
        return true;
    }
    if (p.round + 1 < config_.turn_cap) return false;
    const bool last = next_seat(p, p.mover) <= p.mover;
    const Move mv = last ? greedy_attack(tb, p, config_.threshold, false)
                         : greedy_attack(tb, p, kLastRoundOdds, true);
    if (mv.act != Act::Attack) return false;
    *move = mv;
    return true;
}

// ---- limits and moves --------------------------------------------------------------------

EngineResult Engine::search(const Pos& p, const EngineLimits& limits) {
    us_ = p.mover;
    nodes_ = 0;
    aborted_ = false;
    if (limits.tree == EngineTree::Rollout)
        return rollout_search(p, limits.depth,
                              limits.depth > 0 ? 0.0 : now_seconds() + limits.ms / 1000.0,
                              limits.agent_depth);
    node_limit_ = limits.depth > 0 ? 0 : limits.nodes;
    deadline_ = limits.depth == 0 && limits.ms > 0 ? now_seconds() + limits.ms / 1000.0 : 0;
    const int deepest = limits.tree == EngineTree::Agent ? kMaxSearchDepth : kEngineMaxDepth;
    const int first = limits.depth > 0 ? min(limits.depth, deepest) : 1;
    const int last = limits.depth > 0 ? first : deepest;
    EngineResult r;
    r.move = act_move(Act::Stop);
    Edge edges[kMaxAttackEdges];
    attack_edges(config_, p, edges);
    for (int depth = first; depth <= last; ++depth) {
        budget_active_ = depth > first;  // the first iteration always completes
        int edge = 0;
        const float value = limits.tree == EngineTree::Agent
                                ? agent_node(p, depth, -kSearchInfinity, kSearchInfinity, &edge)
                                : turn_node(p, depth, &edge);
        if (aborted_) break;
        aborted_ = false;
        r.value = value;
        r.edge = edge;
        r.depth = depth;
        if (limits.depth == 0 && limits.nodes <= 0 && limits.ms <= 0) break;
        if (node_limit_ > 0 && nodes_ >= node_limit_) break;
        if (deadline_ > 0 && now_seconds() > deadline_) break;
    }
    r.nodes = nodes_;
    if (r.edge > 0) {
        const Edge& e = edges[r.edge - 1];
        r.move.act = Act::Attack;
        r.move.from = e.from;
        r.move.to = e.to;
        r.move.count = e.count;
    }
    return r;
}

Move Engine::choose(const Pos& p, const EngineLimits& limits, EngineResult* result) {
    const Game game{config_};
    if (game.count_moves(p) <= 1) return game.nth_move(p, 0);
    if (p.phase != Phase::Attack) return planned_move(config_.tables->map, p);
    Move endgame;
    if (limits.tree == EngineTree::Rollout) observe(p);
    if (limits.tree != EngineTree::Agent && endgame_move(p, &endgame)) {
        if (result) {
            *result = EngineResult{};
            result->move = endgame;
        }
        return endgame;
    }
    const EngineResult r = search(p, limits);
    if (result) *result = r;
    return r.move;
}

// ---- flags and matches -------------------------------------------------------------------

EngineLimits parse_engine_limits(const std::string& text, const std::string& flag) {
    const std::size_t colon = text.find(':');
    const std::string kind = text.substr(0, colon);
    const std::string number = colon == std::string::npos ? "" : text.substr(colon + 1);
    char* end = nullptr;
    const long long value = std::strtoll(number.c_str(), &end, 10);
    const bool integer = !number.empty() && *end == '\0';
    EngineLimits limits;
    auto check = [&](long long low, long long high) {
        if (!integer || value < low || value > high)
            throw InputError(flag + " '" + text + "': " + kind + ":N takes N from " +
                             std::to_string(low) + " to " + std::to_string(high));
    };
    if (kind == "nodes") {
        check(1, 1000000000);
        limits.nodes = value;
    } else if (kind == "ms") {
        check(1, 600000);
        limits.tree = EngineTree::Rollout;
        limits.ms = static_cast<double>(value);
    } else if (kind == "depth") {
        check(1, kEngineMaxDepth);
        limits.depth = static_cast<int>(value);
    } else if (kind == "rollouts") {
        check(1, 100000);
        limits.tree = EngineTree::Rollout;
        limits.depth = static_cast<int>(value);
    } else if (kind == "agent") {
        check(1, kMaxSearchDepth);
        limits.tree = EngineTree::Agent;
        limits.depth = static_cast<int>(value);
    } else {
        throw InputError(
            flag + " '" + text +
            "': expected rollouts:N, ms:N, depth:N, nodes:N or agent:N (docs/risk.md)");
    }
    return limits;
}

std::vector<GameRecord> play_engine_games(const Game& game, const Pos& start, const EngineSide& a,
                                          const EngineSide& b, uint64_t first, uint64_t games,
                                          uint64_t seed, uint32_t max_plies, int threads) {
    std::vector<GameRecord> records(games);
    const int seats = game.seats(start);
    auto worker = [&](int thread) {
        Engine engine_a(game.config, a.player.weights), engine_b(game.config, b.player.weights);
        for (uint64_t k = static_cast<uint64_t>(thread); k < games;
             k += static_cast<uint64_t>(threads)) {
            const uint64_t index = first + k;
            const int a_seat = static_cast<int>(index % static_cast<uint64_t>(seats));
            records[k] = play_match_by(
                game, start, a.player, b.player, a_seat, seed, static_cast<uint32_t>(index),
                max_plies, [&](const Pos& p, const Player<Game>& mover, const DrawAddress& at) {
                    const bool is_a = p.mover == a_seat;
                    const EngineSide& side = is_a ? a : b;
                    if (side.engine) {
                        EngineLimits limits = side.limits;
                        limits.agent_depth = mover.depth;
                        return (is_a ? engine_a : engine_b).choose(p, limits);
                    }
                    return choose_move<Game>(game, p, mover, at);
                });
        }
    };
    threads = static_cast<int>(std::max<uint64_t>(1, std::min<uint64_t>(threads, games)));
    std::vector<std::thread> pool;
    for (int t = 1; t < threads; ++t) pool.emplace_back(worker, t);
    worker(0);
    for (std::thread& t : pool) t.join();
    return records;
}

}  // namespace gaeval::risk
