#include "host/pac/bot.hpp"

#include <algorithm>
#include <chrono>
#include <numeric>

#include "games/core/rng.hpp"
#include "host/batch/batch.hpp"

namespace gaeval::pac {

namespace {

constexpr float kTurnBackChance = 0.1f;        // a walk may step back where it came from
constexpr float kMutationChance = 0.8f;        // a child's plan gets a redrawn tail
constexpr uint32_t kSeedGeneration = 0xffffu;  // draws of the plans a turn starts with

// The bot's own frame: side 0 is the bot, side 1 its opponent.
constexpr int kMe = 0, kThem = 1;

}  // namespace

Bot::Bot(const Map& map, const BotSettings& settings, uint64_t seed, uint32_t match, int seat,
         const BackendChoice& backend)
    : map_(map),
      game_{&map},
      settings_(settings),
      seed_(seed),
      match_(match),
      seat_(seat),
      backend_(backend) {
    belief_ = seen_ = supers_ = BB::none();
    for (int k = 0; k < kMaxPacs; ++k) expected_cell_[k] = -1;
}

// ---- knowledge --------------------------------------------------------------------------------

void Bot::start(const Observation& obs) {
    started_ = true;
    BB starts = BB::none();
    for (const PacView& v : obs.pacs)
        if (v.mine) {
            pacs_ = std::max(pacs_, v.id + 1);
            starts.set(v.cell);
        }
    for (int k = 0; k < kMaxPacs; ++k) enemy_[k] = Enemy{};
    for (const PacView& v : obs.pacs) {
        if (!v.mine) continue;
        // The enemies start on the mirror images of our pacs, with our types (the rules).
        Enemy& e = enemy_[v.id];
        e.known = true;
        e.pac.cell = static_cast<int16_t>(map_.mirror(v.cell));
        e.pac.type = static_cast<uint8_t>(v.id % 3);
        e.pac.alive = 1;
        e.seen_turn = obs.turn;
        e.seen = e.pac;
        starts.set(e.pac.cell);
    }
    BB supers = BB::none();
    for (const auto& [c, value] : obs.pellets)
        if (value == kSuperValue) supers.set(c);
    belief_ = map_.floor.minus(starts).minus(supers);
    initial_pellets_ = belief_.count();
    // Corridors: maximal chains of floor cells with at most two floor neighbours; an end is open
    // when it touches a junction. Chains through a start cell are left out (those cells never
    // held a pellet, so emptiness there says nothing about who came through).
    auto degree = [&](int c) {
        int n = 0;
        for (int d = 0; d < 4; ++d) n += map_.neighbour[c][d] >= 0;
        return n;
    };
    BB corridor = BB::none();
    for_each_cell(map_.floor, [&](int c) {
        if (degree(c) <= 2) corridor.set(c);
    });
    BB done = BB::none();
    for_each_cell(corridor, [&](int c) {
        if (done.test(c)) return;
        // Walk to one end of c's chain, then collect the chain from there.
        int end = c, prev = -1;
        for (int steps = 0; steps < kMaxCells; ++steps) {
            int next = -1;
            for (int d = 0; d < 4; ++d) {
                const int n = map_.neighbour[end][d];
                if (n >= 0 && n != prev && corridor.test(n) && n != end) next = n;
            }
            if (next < 0 || next == c) break;
            prev = end;
            end = next;
        }
        Chain chain;
        prev = -1;
        for (int cur = end; cur >= 0 && !done.test(cur);) {
            chain.cells.push_back(cur);
            done.set(cur);
            int next = -1;
            for (int d = 0; d < 4; ++d) {
                const int n = map_.neighbour[cur][d];
                if (n >= 0 && n != prev && corridor.test(n) && !done.test(n)) next = n;
            }
            prev = cur;
            cur = next;
        }
        auto open = [&](int cell) {
            for (int d = 0; d < 4; ++d) {
                const int n = map_.neighbour[cell][d];
                if (n >= 0 && !corridor.test(n)) return true;
            }
            return false;
        };
        chain.open_start = open(chain.cells.front());
        chain.open_end = open(chain.cells.back());
        bool clean = chain.cells.size() >= 3;
        for (int cell : chain.cells) clean = clean && !starts.test(cell);
        if (clean) chains_.push_back(chain);
    });
}

void Bot::infer_path(const Enemy& before, int turn, int cell) {
    // Seen again after k turns: if it cannot have used SPEED meanwhile (its cooldown was at
    // least k) and it is exactly as far as its most steps allow, it took a shortest path, and
    // the cells every shortest path passes through (the only cell of their distance layer)
    // were eaten.
    const int k = turn - before.seen_turn;
    if (k <= 0 || before.seen.cooldown < k) return;
    const int most = k + std::min(k, int(before.seen.speed_turns));
    const int from = before.seen.cell;
    const int d = map_.dist[from][cell];
    if (d != most || d < 2) return;
    std::vector<int> layer_count(d + 1, 0), layer_cell(d + 1, -1);
    for_each_cell(map_.floor, [&](int x) {
        const int a = map_.dist[from][x], b = map_.dist[x][cell];
        if (a + b != d) return;
        ++layer_count[a];
        layer_cell[a] = x;
    });
    for (int layer = 1; layer < d; ++layer)
        if (layer_count[layer] == 1) belief_.reset(layer_cell[layer]);
}

void Bot::infer_corridors(const BB& seen_pellets) {
    // Pacs enter a corridor only at its open ends and eat as they go, so its eaten cells are a
    // run from an open end (or two runs, one from each). A cell known empty with a pellet seen
    // between it and one end was reached from the other end: everything from it to that end
    // was eaten. With one open end, everything between it and the empty cell was.
    for (const Chain& chain : chains_) {
        const int n = static_cast<int>(chain.cells.size());
        int first_pellet = n, last_pellet = -1, first_empty = n, last_empty = -1;
        std::vector<bool> empty(n, false);
        for (int i = 0; i < n; ++i) {
            const int c = chain.cells[i];
            if (seen_.test(c) && (seen_pellets.test(c) || supers_.test(c))) {
                first_pellet = std::min(first_pellet, i);
                last_pellet = std::max(last_pellet, i);
            } else if (!belief_.test(c) && !supers_.test(c)) {
                empty[i] = true;
                first_empty = std::min(first_empty, i);
                last_empty = std::max(last_empty, i);
            }
        }
        if (last_empty < 0) continue;
        auto eaten = [&](int from, int to) {
            for (int i = from; i <= to; ++i) belief_.reset(chain.cells[i]);
        };
        if (chain.open_start && chain.open_end) {
            for (int j = 0; j < n; ++j) {
                if (!empty[j]) continue;
                if (first_pellet < j) eaten(j, n - 1);
                if (last_pellet > j) eaten(0, j);
            }
        } else if (chain.open_start) {
            eaten(0, last_empty);
        } else if (chain.open_end) {
            eaten(first_empty, n - 1);
        }
    }
}

void Bot::update(const Observation& obs) {
    turn_ = obs.turn;
    bool listed[kMaxPacs] = {};
    seen_ = supers_ = BB::none();
    for (const PacView& v : obs.pacs) {
        if (!v.mine) continue;
        Pac& a = own_[v.id];
        a.cell = static_cast<int16_t>(v.cell);
        a.alive = v.type != kDead;
        a.type = static_cast<uint8_t>(a.alive ? v.type : a.type);
        a.speed_turns = static_cast<uint8_t>(v.speed_turns);
        a.cooldown = static_cast<uint8_t>(v.cooldown);
        a.blocked = a.alive && expected_cell_[v.id] >= 0 && expected_cell_[v.id] != v.cell;
        if (a.alive) seen_ |= map_.sight[v.cell];
    }
    BB seen_pellets = BB::none();
    for (const auto& [c, value] : obs.pellets) {
        if (value == kSuperValue)
            supers_.set(c);
        else if (seen_.test(c))
            seen_pellets.set(c);
    }
    belief_ = belief_.minus(seen_) | seen_pellets;
    for (const PacView& v : obs.pacs) {
        if (v.mine) continue;
        Enemy& e = enemy_[v.id];
        listed[v.id] = true;
        if (v.type == kDead) {
            e.dead = true;
            e.known = false;
            continue;
        }
        Pac now;
        now.cell = static_cast<int16_t>(v.cell);
        now.type = static_cast<uint8_t>(v.type);
        now.alive = 1;
        now.speed_turns = static_cast<uint8_t>(v.speed_turns);
        now.cooldown = static_cast<uint8_t>(v.cooldown);
        infer_path(e, obs.turn, v.cell);
        e.known = true;
        e.pac = now;
        e.seen_turn = obs.turn;
        e.seen = now;
    }
    for (int k = 0; k < pacs_; ++k) {
        Enemy& e = enemy_[k];
        if (listed[k] || e.dead || !e.known || !have_last_) continue;
        // Unseen: where last turn's search expected it, unless we look there and it is not.
        e.pac = predicted_[k];
        if (!e.pac.alive || seen_.test(e.pac.cell)) e.known = false;
    }
    infer_corridors(seen_pellets);
}

Pos Bot::believed_position(const Observation& obs) const {
    Pos p;
    p.pacs = static_cast<uint8_t>(pacs_);
    p.pellets = belief_;
    p.supers = supers_;
    p.maybe[0] = p.maybe[1] = belief_;
    for (int k = 0; k < kMaxPacs; ++k) {
        p.pac[kMe][k] = k < pacs_ ? own_[k] : Pac{};
        p.pac[kThem][k] = k < pacs_ && enemy_[k].known ? enemy_[k].pac : Pac{};
        if (k < pacs_ && !enemy_[k].known && !enemy_[k].dead) p.hidden |= 2;
        p.pending[k] = Command::wait();
    }
    p.score[kMe] = static_cast<int16_t>(obs.my_score);
    p.score[kThem] = static_cast<int16_t>(obs.their_score);
    p.turn = static_cast<uint16_t>(obs.turn);
    return p;
}

// ---- plans ------------------------------------------------------------------------------------

void Bot::walk(const Pos& p, int side, Plan* plan, int pac, int from, int population,
               uint32_t generation, uint32_t individual, uint32_t salt) const {
    int16_t* cells = plan->cell[pac];
    while (from > 0 && cells[from - 1] < 0)
        --from;  // a plan that stopped short goes on from its end
    int cur = from == 0 ? p.pac[side][pac].cell : cells[from - 1];
    int prev = from >= 2 ? cells[from - 2] : from == 1 ? p.pac[side][pac].cell : -1;
    for (int i = from; i < kPlanCells; ++i) {
        int options[4], n = 0, back = -1;
        for (int d = 0; d < 4; ++d) {
            const int c = map_.neighbour[cur][d];
            if (c < 0) continue;
            if (c == prev) back = c;
            options[n++] = c;
        }
        const Random4 r =
            philox(seed_, Purpose::PacWalk, match_,
                   (uint32_t(turn_) << 8) | (uint32_t(seat_) << 1) | uint32_t(population),
                   generation, (individual << 12) | (salt << 6) | uint32_t(pac * kPlanCells + i));
        if (back >= 0 && n > 1 && unit_float(r.v[0]) >= kTurnBackChance) {
            int kept = 0;
            for (int j = 0; j < n; ++j)
                if (options[j] != back) options[kept++] = options[j];
            n = kept;
        }
        const int next = options[below(r.v[1], static_cast<uint32_t>(n))];
        cells[i] = static_cast<int16_t>(next);
        prev = cur;
        cur = next;
    }
}

Plan Bot::random_plan(const Pos& p, int side, int population, uint32_t individual) const {
    Plan plan;
    for (int k = 0; k < kMaxPacs; ++k) {
        for (int i = 0; i < kPlanCells; ++i) plan.cell[k][i] = -1;
        if (k < p.pacs && p.pac[side][k].alive)
            walk(p, side, &plan, k, 0, population, kSeedGeneration, individual, 0);
    }
    return plan;
}

Plan Bot::greedy_plan(const Pos& p, int side) const {
    // Each pac in turn walks to the nearest pellet it believes in that no earlier step took
    // (ties to the lowest cell), then to the next one.
    Plan plan;
    BB targets = p.pellets | p.supers;
    for (int k = 0; k < kMaxPacs; ++k) {
        for (int i = 0; i < kPlanCells; ++i) plan.cell[k][i] = -1;
        if (k >= p.pacs || !p.pac[side][k].alive) continue;
        int cur = p.pac[side][k].cell, target = -1;
        for (int i = 0; i < kPlanCells; ++i) {
            if (target < 0 || target == cur) {
                target = -1;
                int best = kNoPath;
                for_each_cell(targets, [&](int c) {
                    if (c != cur && map_.dist[cur][c] < best) {
                        best = map_.dist[cur][c];
                        target = c;
                    }
                });
                if (target < 0) break;
            }
            cur = next_step(map_, cur, target);
            plan.cell[k][i] = static_cast<int16_t>(cur);
            targets.reset(cur);
        }
    }
    return plan;
}

Plan Bot::shifted_plan(const Plan& last, const Pos& p, int side, int population) const {
    // Last turn's best, without the cells the pac has since reached; a pac that left its plan
    // gets a fresh walk.
    Plan plan;
    for (int k = 0; k < kMaxPacs; ++k) {
        for (int i = 0; i < kPlanCells; ++i) plan.cell[k][i] = -1;
        if (k >= p.pacs || !p.pac[side][k].alive) continue;
        int at = -1;
        for (int i = 0; i < kPlanCells && at < 0; ++i)
            if (last.cell[k][i] == p.pac[side][k].cell) at = i;
        int kept = 0;
        if (at >= 0)
            for (int i = at + 1; i < kPlanCells && last.cell[k][i] >= 0; ++i)
                plan.cell[k][kept++] = last.cell[k][i];
        if (kept < kPlanCells) walk(p, side, &plan, k, kept, population, kSeedGeneration, 1, 1);
    }
    return plan;
}

std::vector<Plan> Bot::breed(const std::vector<Plan>& parents, const std::vector<float>& fitness,
                             const Pos& p, int side, int population, uint32_t generation) const {
    // Elitism (the best eighth kept), binary tournaments, one parent per pac (uniform
    // crossover of whole pac plans), and mutation: a tail redrawn from a random point of one
    // living pac's plan. Ties by index.
    const uint32_t n = static_cast<uint32_t>(parents.size());
    std::vector<uint32_t> order(n);
    std::iota(order.begin(), order.end(), 0u);
    std::stable_sort(order.begin(), order.end(),
                     [&](uint32_t a, uint32_t b) { return fitness[a] > fitness[b]; });
    const uint32_t elites = std::max(1u, n / 8);
    std::vector<Plan> children;
    children.reserve(n);
    for (uint32_t c = 0; c < elites; ++c) children.push_back(parents[order[c]]);
    int alive[kMaxPacs], alive_count = 0;
    for (int k = 0; k < p.pacs; ++k)
        if (p.pac[side][k].alive) alive[alive_count++] = k;
    const uint32_t pop_word =
        (uint32_t(turn_) << 8) | (uint32_t(seat_) << 1) | uint32_t(population);
    for (uint32_t c = elites; c < n; ++c) {
        const Random4 pick = philox(seed_, Purpose::PacSelection, match_, pop_word, generation, c);
        auto tournament = [&](uint32_t x, uint32_t y) {
            const uint32_t a = below(x, n), b = below(y, n);
            if (fitness[b] > fitness[a] || (fitness[b] == fitness[a] && b < a)) return b;
            return a;
        };
        const Plan& mother = parents[tournament(pick.v[0], pick.v[1])];
        const Plan& father = parents[tournament(pick.v[2], pick.v[3])];
        const uint32_t mask =
            philox(seed_, Purpose::PacCrossover, match_, pop_word, generation, c).v[0];
        Plan child;
        for (int k = 0; k < kMaxPacs; ++k)
            for (int i = 0; i < kPlanCells; ++i)
                child.cell[k][i] = ((mask >> k) & 1) ? father.cell[k][i] : mother.cell[k][i];
        const Random4 mutation =
            philox(seed_, Purpose::PacMutation, match_, pop_word, generation, c);
        if (alive_count > 0 && unit_float(mutation.v[0]) < kMutationChance) {
            const int k = alive[below(mutation.v[1], static_cast<uint32_t>(alive_count))];
            const int from = static_cast<int>(below(mutation.v[2], kPlanCells));
            walk(p, side, &child, k, from, population, generation, c, 2);
        }
        children.push_back(child);
    }
    return children;
}

// ---- a turn -----------------------------------------------------------------------------------

RolloutOp Bot::make_op(const Pos& p, const Observation& obs) const {
    RolloutOp op;
    op.game = game_;
    op.start = p;
    op.known = seen_;
    // Pellets still out (scores count eaten ones; both sides eating one pellet is rare), the
    // seen ones apart; an unseen believed cell holds one with probability unseen / cells.
    const int supers_eaten = kSuperPellets - supers_.count();
    const int eaten = obs.my_score + obs.their_score - kSuperValue * supers_eaten;
    const int remaining = std::max(0, initial_pellets_ - eaten);
    const int seen_pellets = (belief_ & seen_).count();
    const int unseen_cells = belief_.minus(seen_).count();
    const int unseen_pellets = std::max(0, remaining - seen_pellets);
    op.unseen_value =
        unseen_cells > 0 ? std::min(1.0f, float(unseen_pellets) / float(unseen_cells)) : 0.0f;
    int pacs_alive = 0;
    for (int k = 0; k < pacs_; ++k) pacs_alive += own_[k].alive + !enemy_[k].dead;
    const int value_left = remaining + kSuperValue * supers_.count();
    op.kill_value = pacs_alive > 0 ? float(value_left) / float(pacs_alive) : 0.0f;
    op.voronoi_weight = settings_.voronoi_weight;
    float decay = 1.0f;
    for (int d = 0; d < kDecaySteps; ++d) {
        op.decay[d] = decay;
        decay = decay * 0.9f;
    }
    op.side = kMe;
    op.depth = kPlanDepth;
    op.population = 0;
    return op;
}

Move Bot::choose(const Observation& obs) {
    if (!started_) start(obs);
    update(obs);
    const Pos p = believed_position(obs);
    RolloutOp op = make_op(p, obs);
    // The opponent's population evolves only when some enemy pac is placed (under fog there may
    // be none: then every generation goes to ours).
    int placed = 0;
    for (int k = 0; k < pacs_; ++k) placed += p.pac[kThem][k].alive;
    const int populations = settings_.coevolution && placed > 0 ? 2 : 1;
    const uint32_t size = static_cast<uint32_t>(std::max(2, settings_.population));
    std::vector<Plan> pops[2];
    std::vector<float> fitness[2];
    Plan best[2];
    for (int s = 0; s < populations; ++s) {
        pops[s].reserve(size);
        if (have_last_) pops[s].push_back(shifted_plan(last_plans_[s], p, s, s));
        pops[s].push_back(greedy_plan(p, s));
        for (uint32_t i = static_cast<uint32_t>(pops[s].size()); i < size; ++i)
            pops[s].push_back(random_plan(p, s, s, i));
        pops[s].resize(size);
        best[s] = pops[s][0];
    }
    if (populations == 1) best[kThem] = greedy_plan(p, kThem);
    const auto begin = std::chrono::steady_clock::now();
    bool evaluated[2] = {false, false};
    for (uint32_t g = 0;; ++g) {
        if (settings_.ms > 0) {
            const double spent =
                std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - begin)
                    .count();
            if (g >= 2 && spent >= settings_.ms) break;
        } else if (g >= static_cast<uint32_t>(settings_.generations)) {
            break;
        }
        const int s = static_cast<int>(g % populations);
        if (evaluated[s]) pops[s] = breed(pops[s], fitness[s], p, s, s, g);
        std::vector<Plan> inputs = pops[s];
        inputs.push_back(best[1 - s]);
        op.side = static_cast<uint8_t>(s);
        op.population = size;
        fitness[s] = batch::evaluate(op, inputs, size, backend_);
        uint32_t top = 0;
        for (uint32_t i = 1; i < size; ++i)
            if (fitness[s][i] > fitness[s][top]) top = i;
        best[s] = pops[s][top];
        evaluated[s] = true;
        last_fitness_ = fitness[s];
        rollouts_ += size;
        ++generations_;
    }
    // This turn's commands: the reflexes with the best plan, at the real position.
    Move move;
    Command theirs[kMaxPacs];
    for (int k = 0; k < kMaxPacs; ++k) {
        int next = 0, their_next = 0;
        move.pac[k] = k < pacs_ ? plan_command(map_, p, kMe, k, best[kMe], &next) : Command::wait();
        theirs[k] =
            k < pacs_ ? plan_command(map_, p, kThem, k, best[kThem], &their_next) : Command::wait();
        expected_cell_[k] = -1;
        const Pac& a = p.pac[kMe][k];
        const Command& c = move.pac[k];
        if (k < pacs_ && a.alive && c.kind == kMoveTo && c.target != a.cell) {
            int cell = next_step(map_, a.cell, c.target);
            if (a.speed_turns > 0 && cell != c.target) cell = next_step(map_, cell, c.target);
            expected_cell_[k] = cell;
        }
    }
    // Where the enemies should be next turn if they play the best plan found for them.
    Pos q = p;
    resolve_turn(map_, q, move.pac, theirs, nullptr, false);
    for (int k = 0; k < kMaxPacs; ++k) predicted_[k] = q.pac[kThem][k];
    last_plans_[kMe] = best[kMe];
    last_plans_[kThem] = best[kThem];
    have_last_ = true;
    return move;
}

}  // namespace gaeval::pac
