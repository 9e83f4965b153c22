#include "host/gomoku/engine.hpp"

#include <sys/mman.h>
#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <new>

#include "games/gomoku/players.hpp"
#include "games/gomoku/threats.hpp"
#include "host/gomoku/patterns.hpp"

namespace gaeval::gomoku {

namespace {

using Clock = std::chrono::steady_clock;

constexpr int kMaxPly = 96;
constexpr int kWinLimit = kEngineWin - 1000;  // scores beyond this are forced results
constexpr int kInfinity = kEngineWin + 1;
// Moves searched at a node without a forced reply besides the hash move and the cells of
// threat levels 1-2 of either side: the best by move value (bench/results/gomoku-engines.md,
// fifth round; before it, every four and three cell of either side and 12 quiet moves).
constexpr int kMaxScored = 10;
// Late move pruning near the horizon: of those other moves, only the first
// kLateMoves[depth] at a node of remaining depth 1 to 3 below the root (bench/results/
// gomoku-engines.md, tenth and twelfth rounds: the pruned plies buy depth at 200 ms a turn).
constexpr int kLateMoves[4] = {kMaxScored, 4, 6, 8};

// Shares of the move's time (elapsed from its start): the root VCF runs until kVcfShare, the
// root VCT until kVctShare, and no new main-search iteration starts after kIterationShare
// (measured in games: the root threat searches used to take 40% and left the main search one
// iteration; docs/gomoku.md).
constexpr double kVcfShare = 0.10, kVctShare = 0.20, kIterationShare = 0.50;
// The answer's check against the opponent's VCT: threats deep and nodes per candidate.
constexpr int kAvoidVctDepth = 5;
constexpr uint64_t kAvoidVctNodes = 20000;

// The moves of one node, in search order (no allocation: the search makes one per node).
struct MoveList {
    int cells[512];
    int size = 0;
    void clear() { size = 0; }
    void push_back(int c) { cells[size++] = c; }
    bool empty() const { return size == 0; }
    const int* begin() const { return cells; }
    const int* end() const { return cells + size; }
    int operator[](int i) const { return cells[i]; }
};

enum Bound : uint8_t { kNone = 0, kUpper = 1, kLower = 2, kExact = 3 };

struct TtEntry {
    uint64_t key = 0;
    int32_t score = 0;
    int16_t move = -1;
    int8_t depth = -1;
    uint8_t bound = kNone;
};

uint64_t splitmix(uint64_t& state) {
    uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

// Zobrist keys of (side, cell) for cell indexes below 512 (20x20 uses 420), fixed seed.
const std::array<std::array<uint64_t, 512>, 2>& zobrist() {
    static const auto keys = [] {
        std::array<std::array<uint64_t, 512>, 2> k{};
        uint64_t state = 0x6761657661ull;  // "gaeva"
        for (auto& side : k)
            for (auto& key : side) key = splitmix(state);
        return k;
    }();
    return keys;
}

// Mate scores in the table are stored from the node, not the root.
int to_tt(int score, int ply) {
    if (score > kWinLimit) return score + ply;
    if (score < -kWinLimit) return score - ply;
    return score;
}
int from_tt(int score, int ply) {
    if (score > kWinLimit) return score - ply;
    if (score < -kWinLimit) return score + ply;
    return score;
}

}  // namespace

// The transposition table: a power-of-2 array of entries on 2 MB-aligned memory, advised to
// the kernel as huge pages (its probes are the search's costliest cache and TLB misses).
class TtTable {
  public:
    TtTable() = default;
    TtTable(const TtTable&) = delete;
    TtTable& operator=(const TtTable&) = delete;
    ~TtTable() { std::free(entries_); }

    // `count` entries (a power of 2), all empty.
    void assign(std::size_t count) {
        if (count != size_) {
            std::free(entries_);
            constexpr std::size_t kAlign = std::size_t{1} << 21;
            const std::size_t bytes = (count * sizeof(TtEntry) + kAlign - 1) / kAlign * kAlign;
            entries_ = static_cast<TtEntry*>(std::aligned_alloc(kAlign, bytes));
            if (!entries_) throw std::bad_alloc();
#ifdef MADV_HUGEPAGE
            madvise(entries_, bytes, MADV_HUGEPAGE);
#endif
            size_ = count;
        }
        clear();
    }
    void clear() {
        for (std::size_t i = 0; i < size_; ++i) entries_[i] = TtEntry{};
    }
    std::size_t size() const { return size_; }
    TtEntry& at(uint64_t key) { return entries_[key & (size_ - 1)]; }
    void prefetch(uint64_t key) const { __builtin_prefetch(&entries_[key & (size_ - 1)]); }

  private:
    TtEntry* entries_ = nullptr;
    std::size_t size_ = 0;
};

struct SharedState {
    TtTable tt;
    std::vector<float> weights;
    // The line-shape weights (patterns.hpp, kShapeWeightCount), rounded; empty: no shape term
    // (the learned table's value alone, as before shape weights existed).
    std::vector<int> shape;
    int history[2][512] = {};
};

template <int N>
class Searcher {
  public:
    using Geo = Geometry<N>;
    using BB = typename Geo::BB;

    Searcher(SharedState& shared, RuleSet rule, const std::vector<int8_t>& cells,
             const EngineLimits& limits)
        : s_(shared), exact_(rule == RuleSet::Standard), limits_(limits) {
        stones_[0] = stones_[1] = BB::none();
        inc_.reset(exact_, !s_.shape.empty());
        for (int y = 0; y < N; ++y)
            for (int x = 0; x < N; ++x) {
                const int8_t owner = cells[static_cast<std::size_t>(y * N + x)];
                if (owner == 1 || owner == 2) place(owner == 1 ? 0 : 1, Geo::cell(x, y));
            }
        side_ = 0;
        start_ = Clock::now();
        if (limits_.time_ms > 0) deadline_ = start_ + std::chrono::milliseconds(limits_.time_ms);
        // The table's rank order: rank_key_[r] is higher for a higher reward.
        const float* w = s_.weights.data();
        int order[kRanks];
        ranks_by_reward(w, order);
        for (int i = 0; i < kRanks; ++i) rank_key_[order[i]] = kRanks - i;
        float lo = w[0], hi = w[0];
        for (int r = 1; r < kRanks; ++r) {
            lo = std::min(lo, w[r]);
            hi = std::max(hi, w[r]);
        }
        for (int r = 0; r < kRanks; ++r)
            rank_value_[r] = hi > lo ? static_cast<int>(64.0f * (w[r] - lo) / (hi - lo)) : 0;
        std::memset(killers_, -1, sizeof(killers_));
    }

    EngineResult run() {
        EngineResult out;
        const int me = side_, op = me ^ 1;
        const BB empty = empty_cells();
        const BB all = stones_[0] | stones_[1];
        if (all.empty()) {
            const int centre = Geo::cell(N / 2, N / 2);
            return finish(out, centre, 0, "only");
        }
        const BB wins = inc_.five[me];
        if (wins.any()) return finish(out, wins.lowest(), kEngineWin - 1, "five");
        const BB losses = inc_.five[op];
        if (losses.any()) {
            // One block, or the first of several (the game is lost either way).
            const int block = losses.lowest();
            if (losses.count() >= 2) return finish(out, block, -(kEngineWin - 2), "block");
        }
        if (limits_.threat_search && losses.empty()) {
            // Own VCF (a quarter of the time), then own VCT (up to 40% of it).
            threat_share_ = kVcfShare;
            const bool clock = limits_.time_ms > 0;
            for (int depth : {4, 8, 14, 20}) {
                threat_budget_ = clock ? 30000 : 5000;
                threat_nodes_ = 0;
                int first = -1;
                if (attack(me, depth, true, &first) && first >= 0 && empty.test(first))
                    return finish(out, first, kEngineWin - 2 * depth, "vcf");
                if (stopped_ || threat_abort_) break;
            }
            threat_share_ = kVctShare;
            threat_abort_ = false;
            for (int depth = 2; depth <= (clock ? 8 : 4) && !stopped_ && !threat_abort_; ++depth) {
                threat_budget_ = clock ? 40000 : 3000;
                threat_nodes_ = 0;
                int first = -1;
                if (attack(me, depth, false, &first) && first >= 0 && empty.test(first))
                    return finish(out, first, kEngineWin - 4 * depth, "vct");
            }
            threat_share_ = 0;
            threat_abort_ = false;
        }
        // Iterative deepening; the fixed learned player's move is searched first at the root.
        root_hint_ = fallback_move();
        int best = -1, best_score = 0;
        std::vector<int> best_pv;
        for (int depth = 1; depth <= limits_.max_depth; ++depth) {
            root_best_ = -1;
            root_depth_ = depth;
            const int score = search(depth, -kInfinity, kInfinity, 0);
            if (stopped_) {
                // A partly searched iteration: keep its best move when the first (the previous
                // best) was searched and a better one replaced it; in the first iteration, no
                // move is known and the fixed player answers (below).
                if (root_best_ >= 0 && best >= 0 && root_best_ != best && root_improved_)
                    best = root_best_;
                break;
            }
            best = root_best_;
            best_score = score;
            out.depth = depth;
            best_pv = principal_variation(best);
            if (score > kWinLimit || score < -kWinLimit) break;
            if (limits_.time_ms > 0 && !time_share(kIterationShare))
                break;  // the next one would not end
        }
        if (best < 0 || !empty.test(best)) {
            out.pv.clear();
            return finish(out, fallback_move(), 0, "fixed");
        }
        if (limits_.threat_search) best = avoid_opponent_vcf(best);
        out.pv = best_pv;
        return finish(out, best, best_score, "search");
    }

    // The static value of the position for the side to move (GomokuEngine::evaluate).
    int static_value() const { return evaluate(levels_of(side_), levels_of(side_ ^ 1)); }

  private:
    SharedState& s_;
    bool exact_;
    EngineLimits limits_;
    BB stones_[2];
    IncrementalPatterns<N> inc_;  // the threat patterns of stones_, kept move by move
    int side_ = 0;
    uint64_t hash_ = 0;
    uint64_t nodes_ = 0, threat_nodes_ = 0, threat_budget_ = 0, total_threat_nodes_ = 0;
    Clock::time_point start_, deadline_;
    bool stopped_ = false;
    bool threat_abort_ = false;  // the threat search's share of the time is spent
    double threat_share_ = 0;    // that share (0: none but the move's whole time)
    int root_best_ = -1, root_depth_ = 1;
    int seldepth_ = 0;
    int root_hint_ = -1;  // the fixed player's move: the root's first move without a hash move
    bool root_improved_ = false;
    int rank_key_[kRanks] = {};
    int rank_value_[kRanks] = {};
    int16_t killers_[kMaxPly + 8][2];

    // The board's cells, computed once (Geo::board() builds it bit by bit at each call).
    const BB board_ = Geo::board();
    const std::array<std::array<uint64_t, 512>, 2>& keys_ = zobrist();

    BB empty_cells() const { return board_.minus(stones_[0] | stones_[1]); }
    // Geo::neighbours with the board mask above.
    BB neighbours(const BB& from) const {
        const BB spread = from.shifted_up(Geo::kRow) | from.shifted_down(Geo::kRow) |
                          from.shifted_up(Geo::kColumn) | from.shifted_down(Geo::kColumn) |
                          from.shifted_up(Geo::kDiagonal) | from.shifted_down(Geo::kDiagonal) |
                          from.shifted_up(Geo::kAntiDiagonal) |
                          from.shifted_down(Geo::kAntiDiagonal);
        return spread & board_;
    }

    // The threat levels of `side` (as threat_levels(side_threats(...), none)).
    Levels<BB> levels_of(int side) const {
        return Levels<BB>{{inc_.level[side][0], inc_.level[side][1], inc_.level[side][2]}};
    }

    void place(int side, int c) {
        stones_[side].set(c);
        inc_.place(side, c);
        hash_ ^= keys_[side][static_cast<std::size_t>(c)];
    }
    void remove(int side, int c) {
        stones_[side].reset(c);
        inc_.remove(side, c);
        hash_ ^= keys_[side][static_cast<std::size_t>(c)];
    }
    void make(int c) {
        place(side_, c);
        side_ ^= 1;
    }
    void unmake(int c) {
        side_ ^= 1;
        remove(side_, c);
    }

    double elapsed_ms() const {
        return std::chrono::duration<double, std::milli>(Clock::now() - start_).count();
    }
    // Whether less than `share` of the move's time is spent (always true without a clock).
    bool time_share(double share) const {
        return limits_.time_ms <= 0 || elapsed_ms() < share * static_cast<double>(limits_.time_ms);
    }
    void check_limits() {
        if (limits_.time_ms > 0 && Clock::now() >= deadline_) stopped_ = true;
        if (limits_.max_nodes > 0 && nodes_ >= limits_.max_nodes) stopped_ = true;
    }

    EngineResult& finish(EngineResult& out, int cell, int score, const char* reason) {
        out.x = Geo::column_of(cell);
        out.y = Geo::row_of(cell);
        out.score = score;
        out.nodes = nodes_ + total_threat_nodes_;
        out.threat_nodes = total_threat_nodes_;
        out.seldepth = seldepth_;
        out.elapsed_ms = elapsed_ms();
        out.reason = reason;
        if (out.pv.empty() || out.pv[0] != out.y * N + out.x) {
            out.pv.clear();
            out.pv.push_back(out.y * N + out.x);
        }
        return out;
    }

    // The fixed-depth learned player's move (weighted-search, players.hpp): what the engine
    // plays when no iteration of its own search finished in time. Never illegal.
    int fallback_move() const {
        const int count = (stones_[0] | stones_[1]).count();
        return table_search_move<Geo>(stones_, side_, exact_, s_.weights.data(), true, 1, 0,
                                      static_cast<uint32_t>(count));
    }

    // ---- threat-space search (VCF: fours only; VCT: fours and threes) ----

    bool threat_budget_left() {
        ++threat_nodes_;
        ++total_threat_nodes_;
        if ((total_threat_nodes_ & 15) == 0) {
            check_limits();
            if (threat_share_ > 0 && !time_share(threat_share_)) threat_abort_ = true;
        }
        return threat_nodes_ <= threat_budget_ && !stopped_ && !threat_abort_;
    }

    // Attacker `a` to move: whether it wins by continuous threats within `depth` own threat
    // moves, whatever the defender does; *first receives the first move when it does.
    bool attack(int a, int depth, bool fours_only, int* first) {
        if (!threat_budget_left()) return false;
        const int d = a ^ 1;
        const BB a5 = inc_.five[a];
        if (a5.any()) {
            *first = a5.lowest();
            return true;
        }
        const BB d5 = inc_.five[d];
        if (d5.count() >= 2) return false;
        if (d5.count() == 1) {
            // The attacker must block; the line goes on only if the block is a threat.
            const int c = d5.lowest();
            place(a, c);
            const bool win = defend(a, depth, fours_only);
            remove(a, c);
            if (win) *first = c;
            return win;
        }
        if (depth <= 0) return false;
        const Levels<BB> la = levels_of(a);
        const BB fours = inc_.four[a];
        BB groups[4] = {la.level[0], fours.minus(la.level[0]), BB::none(), BB::none()};
        if (!fours_only) {
            groups[2] = la.level[1].minus(fours);
            groups[3] = la.level[2].minus(fours);
        }
        for (int g = 0; g < 4; ++g) {
            BB todo = groups[g];
            while (todo.any()) {
                const int c = todo.lowest();
                todo.reset(c);
                // The last four of a line (groups 0-1 at depth 1) is decided without its stone
                // where last_four can.
                bool win;
                if (depth != 1 || g >= 2 || !last_four(a, c, fours_only, &win)) {
                    place(a, c);
                    win = defend(a, depth, fours_only);
                    remove(a, c);
                }
                if (win) {
                    *first = c;
                    return true;
                }
                if (stopped_ || threat_abort_ || threat_nodes_ > threat_budget_) return false;
            }
        }
        return false;
    }

    // Defender (a ^ 1) to move after the attacker's threat: whether every defence loses.
    bool defend(int a, int depth, bool fours_only) {
        if (!threat_budget_left()) return false;
        const int d = a ^ 1;
        const BB empty = empty_cells();
        if (empty.empty()) return false;
        if (inc_.five[d].any()) return false;  // he wins
        const BB a5 = inc_.five[a];
        if (a5.count() >= 2) return true;
        if (a5.count() == 1) return attack_after_defence(a, a5.lowest(), depth - 1, fours_only);
        if (fours_only) return false;
        if (inc_.level[a][0].empty()) return false;  // no threat to answer: the attack stops here
        BB defences = inc_.level[a][0] | inc_.four[a] | inc_.four[d];
        while (defences.any()) {
            const int c = defences.lowest();
            defences.reset(c);
            if (!attack_after_defence(a, c, depth - 1, fours_only)) return false;
        }
        return true;
    }

    // defend(a, 1, fours_only) after the attacker's four on empty cell c (attack's groups 0-1
    // at depth 1: neither side has a five-point before c), without placing c: the same nodes
    // counted, *win its value. False, nothing counted, where c must be placed: its one
    // five-point makes the defender a four there (his reply goes on), or, outside a VCF, it
    // makes none.
    bool last_four(int a, int c, bool fours_only, bool* win) {
        const int d = a ^ 1;
        int point = -1;
        const int fives = inc_.fives_after(a, c, &point);
        if (fives == 1 && inc_.four_after_other(d, c, point)) return false;
        if (fives == 0 && !fours_only) return false;
        *win = false;
        if (!threat_budget_left()) return true;
        BB rest = empty_cells();
        rest.reset(c);
        if (rest.empty()) return true;
        // The defender has no five-point: he had none, and the attacker's stone makes none.
        if (fives >= 2) {
            *win = true;
        } else if (fives == 1) {
            threat_budget_left();  // attack_after_defence at depth 0
        }
        return true;
    }

    // attack(a, depth, fours_only) after the defender's stone on empty cell x; neither side
    // has a five-point then but those that x makes the defender. At depth 0 or less, when x
    // makes him no four (so no five-point), attack() would count its node and fail: the
    // node is counted and x not placed.
    bool attack_after_defence(int a, int x, int depth, bool fours_only) {
        const int d = a ^ 1;
        if (depth <= 0 && !inc_.four[d].test(x)) {
            threat_budget_left();
            return false;
        }
        place(d, x);
        int dummy = -1;
        const bool win = attack(a, depth, fours_only, &dummy);
        remove(d, x);
        return win;
    }

    // The VCF of `side` in the current position (small budget), or -1.
    int quick_vcf(int side, int depth, uint64_t budget) {
        return quick_threat_win(side, depth, true, budget);
    }

    // The first move of a VCF (fours_only) or VCT of `side` within `depth` threats and
    // `budget` nodes, or -1.
    int quick_threat_win(int side, int depth, bool fours_only, uint64_t budget) {
        const uint64_t saved_nodes = threat_nodes_, saved_budget = threat_budget_;
        threat_nodes_ = 0;
        threat_budget_ = budget;
        int first = -1;
        const bool win = attack(side, depth, fours_only, &first);
        threat_nodes_ = saved_nodes;
        threat_budget_ = saved_budget;
        return win ? first : -1;
    }

    // Whether the side to move's move c leaves the opponent without a VCF and a VCT (within
    // the check's budgets); true too when the threat search's time share ran out.
    bool refutes(int c) {
        const int me = side_, op = me ^ 1;
        place(me, c);
        bool ok = quick_vcf(op, 16, 4000) < 0 || threat_abort_;
        if (ok && !threat_abort_)
            ok = quick_threat_win(op, kAvoidVctDepth, false, kAvoidVctNodes) < 0 || threat_abort_;
        remove(me, c);
        return ok;
    }

    // When the chosen move leaves the opponent a VCF, the first other candidate (in search
    // order) after which he has none; the move itself when none is found in time.
    int avoid_opponent_vcf(int move) {
        const int op = side_ ^ 1;
        stopped_ = false;
        threat_share_ = 0.9;
        threat_abort_ = false;
        if (limits_.time_ms > 0 && elapsed_ms() > 0.9 * static_cast<double>(limits_.time_ms))
            return move;
        // A forced reply (a five-point to fill) is never replaced.
        if (inc_.five[op].any()) return move;
        if (refutes(move)) return move;
        MoveList moves;
        generate(0, -1, &moves);
        for (int c : moves) {
            if (c == move) continue;
            if (limits_.time_ms > 0 && elapsed_ms() > 0.9 * static_cast<double>(limits_.time_ms))
                break;
            if (refutes(c) && !threat_abort_) return c;
        }
        return move;
    }

    // ---- the main search ----

    // The learned player's value of the position for the side to move (see the header).
    int evaluate(const Levels<BB>& lm, const Levels<BB>& lo) const {
        const int potential = 4 * (lm.level[0].count() - lo.level[0].count()) +
                              2 * (lm.level[1].count() - lo.level[1].count()) +
                              (lm.level[2].count() - lo.level[2].count());
        // The best rank the mover reaches among the candidates (levels as if he moves now).
        const BB empty = empty_cells();
        const BB all = stones_[0] | stones_[1];
        const BB near = neighbours(all) & empty;
        BB ranks[kRanks];
        rank_cells(lm, lo, near | lm.level[0] | lm.level[1] | lm.level[2] | lo.level[0], ranks);
        int best = 0;
        for (int r = 0; r < kRanks; ++r)
            if (ranks[r].any()) best = std::max(best, rank_value_[r]);
        const int totals = (kValueTotalOwn * inc_.value_total(side_) -
                            kValueTotalOpponent * inc_.value_total(side_ ^ 1)) /
                           16;
        return 16 * potential + best + 8 + totals + shape_value();
    }

    // The line-shape term for the side to move: its shape counts weighed by the first 8 shape
    // weights minus the opponent's by the last 8; 0 without shape weights.
    int shape_value() const {
        if (s_.shape.empty()) return 0;
        const int me = side_, op = me ^ 1;
        constexpr int kPerSide = kLineShapes - 1;
        int value = 0;
        for (int k = 1; k < kLineShapes; ++k)
            value += s_.shape[static_cast<std::size_t>(k - 1)] * inc_.shape_count(me, k) -
                     s_.shape[static_cast<std::size_t>(kPerSide + k - 1)] * inc_.shape_count(op, k);
        return value;
    }

    // The moves of the side to move in search order: a forced reply (the opponent threatens
    // an open or double four) by generate_from's rank order, every other node by
    // generate_scored.
    void generate(int ply, int tt_move, MoveList* moves) {
        const int me = side_, op = me ^ 1;
        generate_from(ply, tt_move, levels_of(me), levels_of(op), kMaxScored, moves);
    }

    void generate_from(int ply, int tt_move, const Levels<BB>& lm, const Levels<BB>& lo,
                       int max_scored, MoveList* moves) {
        moves->clear();
        const int me = side_;
        const BB empty = empty_cells();
        const BB my_fours = inc_.four[me], their_fours = inc_.four[me ^ 1];
        const BB all = stones_[0] | stones_[1];
        const BB near1 = neighbours(all);
        BB candidates;
        bool forced = false;
        if (lo.level[0].any()) {
            // He threatens an open or double four: own fours, or a cell of his lines.
            candidates = (my_fours | lo.level[0] | their_fours) & empty;
            forced = true;
        } else {
            candidates = neighbours(near1 | all) & empty;
            candidates |= my_fours | lm.level[1] | lm.level[2] | lo.level[1];
        }
        if (!forced) {
            generate_scored(ply, tt_move, lm, lo, candidates, max_scored, moves);
            return;
        }
        // A forced reply: every candidate, by the table's rank (highest reward first), then the
        // hash move, killers, own fours, history and closeness.
        BB ranks[kRanks];
        rank_cells(lm, lo, candidates, ranks);
        struct Scored {
            int cell;
            int64_t key;
        };
        Scored scored[512];
        int count = 0;
        for (int r = 0; r < kRanks; ++r) {
            BB todo = ranks[r];
            while (todo.any()) {
                const int c = todo.lowest();
                todo.reset(c);
                int64_t key = static_cast<int64_t>(rank_key_[r]) << 40;
                if (c == tt_move) key += int64_t{1} << 50;
                if (c == killers_[ply][0]) key += int64_t{1} << 36;
                if (c == killers_[ply][1]) key += int64_t{1} << 35;
                key += static_cast<int64_t>(s_.history[me][c]) << 2;
                if (near1.test(c)) key += 2;
                if (my_fours.test(c)) key += int64_t{1} << 37;
                scored[count++] = {c, key};
            }
        }
        std::sort(scored, scored + count, [](const Scored& a, const Scored& b) {
            return a.key != b.key ? a.key > b.key : a.cell < b.cell;
        });
        for (int i = 0; i < count; ++i) moves->push_back(scored[i].cell);
    }

    // The candidates of a node without a forced reply, in search order: the hash move, the
    // cells of threat levels 1-2 of either side (four-threes, double threes), the killers,
    // then the others by their move value (both sides' shapes, IncrementalPatterns::
    // move_value), history breaking ties; of the others only the first max_scored.
    void generate_scored(int ply, int tt_move, const Levels<BB>& lm, const Levels<BB>& lo,
                         const BB& candidates, int max_scored, MoveList* moves) {
        const int me = side_, op = me ^ 1;
        const BB must = lm.level[0] | lm.level[1] | lo.level[0] | lo.level[1];
        struct Scored {
            int cell;
            int64_t key;
        };
        Scored scored[512];
        int count = 0;
        BB todo = candidates;
        while (todo.any()) {
            const int c = todo.lowest();
            todo.reset(c);
            int64_t key = static_cast<int64_t>(inc_.move_value(me, c) + inc_.move_value(op, c))
                          << 24;
            key += s_.history[me][c];
            if (c == tt_move) key += int64_t{1} << 50;
            if (must.test(c)) key += int64_t{1} << 46;
            if (c == killers_[ply][0]) key += int64_t{1} << 41;
            if (c == killers_[ply][1]) key += int64_t{1} << 40;
            scored[count++] = {c, key};
        }
        std::sort(scored, scored + count, [](const Scored& a, const Scored& b) {
            return a.key != b.key ? a.key > b.key : a.cell < b.cell;
        });
        int others = 0;
        for (int i = 0; i < count; ++i) {
            const int c = scored[i].cell;
            const bool kept = c == tt_move || must.test(c);
            if (!kept && others >= max_scored) break;
            if (!kept) ++others;
            moves->push_back(c);
        }
    }

    int search(int depth, int alpha, int beta, int ply) {
        if ((++nodes_ & 15) == 0) check_limits();
        if (stopped_) return 0;
        if (ply > seldepth_) seldepth_ = ply;
        const int me = side_, op = me ^ 1;
        const BB empty = empty_cells();
        if (empty.empty()) return 0;
        const BB my5 = inc_.five[me];
        if (my5.any()) {
            if (ply == 0) root_best_ = my5.lowest();
            return kEngineWin - ply - 1;
        }
        const BB op5 = inc_.five[op];
        if (op5.count() >= 2 && ply > 0) return -(kEngineWin - ply - 2);
        if (op5.any() && ply + 1 < kMaxPly) {
            // The forced block, searched to the same depth.
            const int c = op5.lowest();
            if (ply == 0) root_best_ = c;
            make(c);
            const int v = -search(depth, -beta, -alpha, ply + 1);
            unmake(c);
            return v;
        }
        const int alpha_in = alpha;
        TtEntry& entry = s_.tt.at(hash_);
        int tt_move = -1;
        if (entry.key == hash_ && entry.bound != kNone) {
            tt_move = entry.move;
            int v;
            if (ply > 0 && tt_cutoff(entry, depth, alpha, beta, ply, &v)) return v;
            if (tt_move >= 0 && !empty.test(tt_move)) tt_move = -1;
        }
        if (ply == 0 && tt_move < 0) tt_move = root_hint_;
        const Levels<BB> lm = levels_of(me);
        const Levels<BB> lo = levels_of(op);
        if (lm.level[0].any()) {
            // An open or double four now wins: the opponent has no five-point to answer with.
            if (ply == 0) root_best_ = lm.level[0].lowest();
            return kEngineWin - ply - 3;
        }
        if (ply >= kMaxPly) return evaluate(lm, lo);
        if (depth <= 0) {
            // Extend replies to an open three and own four-threes; else the static value (a
            // small VCF of the mover here, 6 fours in 40 nodes, cost depth and lost games in
            // self-play: bench/results/gomoku-engines.md).
            if (lo.level[0].any() || lm.level[1].any()) {
                if (ply < 2 * root_depth_ + 4) depth = 1;
            }
            if (depth <= 0) return evaluate(lm, lo);
        }
        MoveList moves;
        generate_from(ply, tt_move, lm, lo, scored_moves(depth, ply), &moves);
        if (moves.empty()) return evaluate(lm, lo);
        int best = -kInfinity, best_move = moves[0];
        int searched = 0;
        // Moves never reduced: own fours and the cells of threat levels 1-2 of either side.
        const BB threats = inc_.four[me] | lm.level[0] | lm.level[1] | lo.level[0] | lo.level[1];
        s_.tt.prefetch(hash_ ^ keys_[me][static_cast<std::size_t>(moves[0])]);
        for (int i = 0; i < moves.size; ++i) {
            const int c = moves[i];
            // The next child's table entry is fetched while this one is searched.
            if (i + 1 < moves.size)
                s_.tt.prefetch(hash_ ^ keys_[me][static_cast<std::size_t>(moves[i + 1])]);
            // Late quiet moves (from the third, at depth 2 or more) are searched shallower
            // first (late move reductions).
            int reduction = 0;
            if (depth >= 2 && searched >= 2 && !threats.test(c) && c != tt_move &&
                c != killers_[ply][0] && c != killers_[ply][1])
                reduction = searched >= 8 && depth >= 5 ? 2 : 1;
            const bool settled = settles_at_once(c, empty);
            if (!settled) make(c);
            int v;
            if (searched == 0) {
                v = -child(settled, c, depth - 1, -beta, -alpha, ply + 1);
            } else {
                v = -child(settled, c, depth - 1 - reduction, -alpha - 1, -alpha, ply + 1);
                if (reduction > 0 && v > alpha && !stopped_)
                    v = -child(settled, c, depth - 1, -alpha - 1, -alpha, ply + 1);
                if (v > alpha && v < beta && !stopped_)
                    v = -child(settled, c, depth - 1, -beta, -alpha, ply + 1);
            }
            if (!settled) unmake(c);
            if (stopped_) break;
            ++searched;
            if (v > best) {
                best = v;
                best_move = c;
                if (ply == 0) {
                    root_improved_ = searched > 1;
                    root_best_ = c;
                }
            }
            if (v > alpha) alpha = v;
            if (alpha >= beta) {
                if (c != killers_[ply][0]) {
                    killers_[ply][1] = killers_[ply][0];
                    killers_[ply][0] = static_cast<int16_t>(c);
                }
                int& h = s_.history[me][c];
                h = std::min(h + depth * depth, 1 << 20);
                break;
            }
        }
        if (stopped_) return searched > 0 ? best : 0;
        entry.key = hash_;
        entry.score = to_tt(best, ply);
        entry.move = static_cast<int16_t>(best_move);
        entry.depth = static_cast<int8_t>(std::min(depth, 127));
        entry.bound = best >= beta ? kLower : best > alpha_in ? kExact : kUpper;
        return best;
    }

    // How many of a quiet node's other moves (generate_scored) are searched at this remaining
    // depth and ply: kLateMoves near the horizon below the root with
    // EngineLimits::prune_late_moves, else kMaxScored.
    int scored_moves(int depth, int ply) const {
        if (!limits_.prune_late_moves || ply == 0 || depth < 1 || depth > 3) return kMaxScored;
        return kLateMoves[depth];
    }

    // Whether a table entry (of this node's key, bound set) ends the search of a node with
    // this depth and window; *v receives its value.
    static bool tt_cutoff(const TtEntry& entry, int depth, int alpha, int beta, int ply, int* v) {
        if (entry.depth < depth) return false;
        *v = from_tt(entry.score, ply);
        return entry.bound == kExact || (entry.bound == kLower && *v >= beta) ||
               (entry.bound == kUpper && *v <= alpha);
    }

    // Whether the search of the position after the mover's move c is known, without making
    // it, to end at the opponent's open-four check or before it: the opponent (to move there)
    // has no five-point, c makes the mover none (no four), a cell stays empty, and the
    // opponent keeps a level-1 cell. Such a child is searched by settled_search.
    bool settles_at_once(int c, const BB& empty) const {
        const int me = side_, op = me ^ 1;
        if (inc_.four[me].test(c) || inc_.five[op].any() || inc_.level[op][0].empty()) return false;
        BB rest = empty;
        rest.reset(c);
        return rest.any() && inc_.keeps_level1_after(op, c);
    }

    // search(depth, alpha, beta, ply) of the position after the mover's move c, made or (when
    // settled: settles_at_once) not.
    int child(bool settled, int c, int depth, int alpha, int beta, int ply) {
        return settled ? settled_search(c, depth, alpha, beta, ply)
                       : search(depth, alpha, beta, ply);
    }

    // What search() returns for the position after the mover's move c when settles_at_once:
    // the same node count, limits and table probe, then the opponent's open-four win.
    int settled_search(int c, int depth, int alpha, int beta, int ply) {
        if ((++nodes_ & 15) == 0) check_limits();
        if (stopped_) return 0;
        if (ply > seldepth_) seldepth_ = ply;
        const uint64_t key = hash_ ^ keys_[side_][static_cast<std::size_t>(c)];
        const TtEntry& entry = s_.tt.at(key);
        int v;
        if (entry.key == key && entry.bound != kNone &&
            tt_cutoff(entry, depth, alpha, beta, ply, &v))
            return v;
        return kEngineWin - ply - 3;
    }

    // The hash moves from the root after `first`, while legal (at most 16).
    std::vector<int> principal_variation(int first) {
        std::vector<int> pv, played;
        if (first < 0) return pv;
        int c = first;
        while (c >= 0 && pv.size() < 16 && empty_cells().test(c)) {
            pv.push_back(Geo::row_of(c) * N + Geo::column_of(c));
            make(c);
            played.push_back(c);
            const TtEntry& e = s_.tt.at(hash_);
            c = e.key == hash_ && e.bound != kNone ? e.move : -1;
            if (has_five<Geo>(stones_[side_ ^ 1], exact_)) break;
        }
        for (auto it = played.rbegin(); it != played.rend(); ++it) unmake(*it);
        return pv;
    }
};

struct GomokuEngine::Impl {
    SharedState shared;
};

GomokuEngine::GomokuEngine(const std::vector<float>& weights, std::size_t tt_entries,
                           const std::vector<float>& shape_weights)
    : impl_(std::make_unique<Impl>()) {
    if (!shape_weights.empty()) {
        impl_->shared.shape.assign(kShapeWeightCount, 0);
        for (int i = 0; i < kShapeWeightCount && i < static_cast<int>(shape_weights.size()); ++i)
            impl_->shared.shape[static_cast<std::size_t>(i)] =
                static_cast<int>(std::lround(shape_weights[static_cast<std::size_t>(i)]));
    }
    std::size_t size = 1;
    while (size < tt_entries) size <<= 1;
    impl_->shared.tt.assign(size);
    // The pattern and level tables are built now, not in the first move's time.
    pattern_table(false);
    pattern_table(true);
    level_table();
    pattern_value_table(false);
    pattern_value_table(true);
    if (!shape_weights.empty()) {
        shape_table(false);
        shape_table(true);
    }
    impl_->shared.weights.assign(kWeightCount, 0.0f);
    for (int i = 0; i < kWeightCount && i < static_cast<int>(weights.size()); ++i)
        impl_->shared.weights[static_cast<std::size_t>(i)] = weights[static_cast<std::size_t>(i)];
}

GomokuEngine::~GomokuEngine() = default;

int GomokuEngine::evaluate(int size, RuleSet rule, const std::vector<int8_t>& cells) {
    EngineLimits limits;
    if (size == 20) return Searcher<20>(impl_->shared, rule, cells, limits).static_value();
    return Searcher<15>(impl_->shared, rule, cells, limits).static_value();
}

void GomokuEngine::resize_table(std::size_t bytes) {
    std::size_t size = 4096;
    while (size < (std::size_t{1} << 24) && 2 * size * sizeof(TtEntry) <= bytes) size <<= 1;
    if (size == impl_->shared.tt.size()) return;
    impl_->shared.tt.assign(size);
}

std::size_t GomokuEngine::table_bytes() const { return impl_->shared.tt.size() * sizeof(TtEntry); }

void GomokuEngine::clear() {
    impl_->shared.tt.clear();
    std::memset(impl_->shared.history, 0, sizeof(impl_->shared.history));
}

EngineResult GomokuEngine::think(int size, RuleSet rule, const std::vector<int8_t>& cells,
                                 const EngineLimits& limits) {
    // History decays between moves so that old cutoffs fade.
    for (auto& side : impl_->shared.history)
        for (int& h : side) h /= 4;
    if (size == 20) return Searcher<20>(impl_->shared, rule, cells, limits).run();
    return Searcher<15>(impl_->shared, rule, cells, limits).run();
}

}  // namespace gaeval::gomoku
