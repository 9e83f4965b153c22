#include "host/pac/match.hpp"

#include <memory>
#include <stdexcept>

#include "games/core/players.hpp"
#include "host/pac/protocol.hpp"

namespace gaeval::pac {

namespace {

Player<Game> per_thread_player(const games::PlayerData& data) {
    Player<Game> p;
    p.kind = data.kind;
    if (data.kind == PlayerKind::Policy) {
        if (data.policy != 1) throw std::invalid_argument("pac: policy out of range");
        p.policy = 1;
    } else if (data.kind != PlayerKind::Random) {
        throw std::invalid_argument("pac: no weighted player");
    }
    return p;
}

TurnLog snapshot(const Pos& before, const Pos& after) {
    TurnLog t;
    t.turn = after.turn;
    for (int s = 0; s < 2; ++s) {
        t.score[s] = after.score[s];
        for (int k = 0; k < kMaxPacs; ++k) t.pacs[s][k] = after.pac[s][k];
    }
    for_each_cell((before.pellets | before.supers).minus(after.pellets | after.supers),
                  [&](int c) { t.eaten.push_back(c); });
    return t;
}

}  // namespace

GameRecord play_host_match(const Game& game, const Pos& start, const games::PlayerData& a,
                           const games::PlayerData& b, int a_seat, uint64_t seed, uint32_t index,
                           uint32_t max_plies, const BotSettings& bots,
                           const BackendChoice& backend, MatchLog* log) {
    GameRecord record;
    record.a_seat = static_cast<int8_t>(a_seat);
    std::unique_ptr<Bot> bot[2];
    Player<Game> typed[2];
    for (int seat = 0; seat < 2; ++seat) {
        const games::PlayerData& data = seat == a_seat ? a : b;
        if (is_bot(data)) {
            BotSettings settings = bots;
            settings.coevolution = data.policy == kCoevoPolicy;
            bot[seat] = std::make_unique<Bot>(*game.map, settings, seed, index, seat, backend);
        } else {
            typed[seat] = per_thread_player(data);
        }
    }
    Pos p = start;
    if (log) log->turns.push_back(snapshot(p, p));
    uint32_t ply = 0;
    record.move_hash = kMoveHashStart;
    while (!game.is_over(p)) {
        if (ply >= max_plies) {
            record.stopped = 1;
            break;
        }
        const int seat = game.to_move(p);
        const Move m = bot[seat] ? bot[seat]->choose(observe(*game.map, p, seat))
                                 : choose_move(game, p, typed[seat], DrawAddress{seed, index, ply});
        record.move_hash = move_hash_step(game, record.move_hash, m);
        const Pos before = p;
        p = game.make(p, m);
        ++ply;
        if (log && p.side == 0) log->turns.push_back(snapshot(before, p));
    }
    record.plies = ply;
    record.winner = static_cast<int8_t>(game.winner(p));
    record.a_result = static_cast<int8_t>(game.seat_result(p, a_seat));
    return record;
}

}  // namespace gaeval::pac
