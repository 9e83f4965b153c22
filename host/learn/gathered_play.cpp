#include "host/learn/gathered_play.hpp"

#include <condition_variable>
#include <exception>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <utility>

namespace gaeval::learn {

namespace {

// One step's place at the table: the batch it waits on, then its records or the call's error.
struct Seat {
    const std::vector<games::PlayerData>* players = nullptr;
    const std::vector<Pairing>* pairings = nullptr;
    uint64_t seed = 0;
    bool waiting = false;   // a batch submitted, not yet played
    bool answered = false;  // records (or play_error) are there
    std::vector<GameRecord> records;
    std::exception_ptr play_error, step_error;
};

}  // namespace

void play_steps_together(uint32_t count,
                         const std::function<void(uint32_t step, const PlayFn& play)>& step,
                         const PlayFn& play, const KeyedPlayFn& play_keyed) {
    if (count == 0) return;
    if (count == 1) {
        step(0, play);
        return;
    }
    std::mutex mutex;
    std::condition_variable to_caller, to_steps;
    std::vector<Seat> seats(count);
    uint32_t running = 0, waiting = 0;

    std::vector<PlayFn> plays(count);
    for (uint32_t k = 0; k < count; ++k)
        plays[k] = [&, k](const std::vector<games::PlayerData>& players,
                          const std::vector<Pairing>& pairings, uint64_t seed) {
            std::unique_lock<std::mutex> lock(mutex);
            Seat& s = seats[k];
            s.players = &players;
            s.pairings = &pairings;
            s.seed = seed;
            s.waiting = true;
            ++waiting;
            to_caller.notify_one();
            to_steps.wait(lock, [&] { return s.answered; });
            s.answered = false;
            if (s.play_error) std::rethrow_exception(std::exchange(s.play_error, nullptr));
            return std::move(s.records);
        };

    std::vector<std::thread> threads;
    threads.reserve(count);
    std::exception_ptr start_error;
    for (uint32_t k = 0; k < count; ++k) {
        {
            std::lock_guard<std::mutex> lock(mutex);
            ++running;
        }
        try {
            threads.emplace_back([&, k] {
                try {
                    step(k, plays[k]);
                } catch (...) {
                    seats[k].step_error = std::current_exception();
                }
                std::lock_guard<std::mutex> lock(mutex);
                --running;
                to_caller.notify_one();
            });
        } catch (...) {  // no thread for step k: the steps started finish, then the error
            std::lock_guard<std::mutex> lock(mutex);
            --running;
            start_error = std::current_exception();
            break;
        }
    }

    // ---- rounds: once every running step waits, their batches are one call
    std::unique_lock<std::mutex> lock(mutex);
    while (true) {
        to_caller.wait(lock, [&] { return waiting == running; });
        if (running == 0) break;
        std::vector<uint32_t> round;
        std::vector<games::PlayerData> players;
        std::vector<Pairing> pairings;
        std::vector<GameKey> keys;
        std::vector<size_t> first_game;
        for (uint32_t k = 0; k < count; ++k) {
            const Seat& s = seats[k];
            if (!s.waiting) continue;
            round.push_back(k);
            first_game.push_back(pairings.size());
            const uint32_t base = static_cast<uint32_t>(players.size());
            players.insert(players.end(), s.players->begin(), s.players->end());
            for (size_t i = 0; i < s.pairings->size(); ++i) {
                Pairing p = (*s.pairings)[i];
                p.a += base;
                p.b += base;
                pairings.push_back(p);
                keys.push_back(GameKey{s.seed, static_cast<uint32_t>(i)});
            }
        }
        lock.unlock();
        std::vector<GameRecord> records;
        std::exception_ptr error;
        try {
            records = play_keyed(players, pairings, keys);
            if (records.size() != pairings.size())
                throw std::logic_error("a gathered batch came back with another game count");
        } catch (...) {
            error = std::current_exception();
        }
        lock.lock();
        for (size_t r = 0; r < round.size(); ++r) {
            Seat& s = seats[round[r]];
            if (error) {
                s.play_error = error;
            } else {
                const auto from = records.begin() + static_cast<std::ptrdiff_t>(first_game[r]);
                s.records.assign(from, from + static_cast<std::ptrdiff_t>(s.pairings->size()));
            }
            s.waiting = false;
            s.answered = true;
            --waiting;
        }
        to_steps.notify_all();
    }
    lock.unlock();
    for (std::thread& t : threads) t.join();
    if (start_error) std::rethrow_exception(start_error);
    for (const Seat& s : seats)
        if (s.step_error) std::rethrow_exception(s.step_error);
}

}  // namespace gaeval::learn
