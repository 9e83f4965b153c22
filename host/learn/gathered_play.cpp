#include "host/learn/gathered_play.hpp"

#include <condition_variable>
#include <exception>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <utility>

namespace gaeval::learn {

namespace {

// One step's place at the table: the request it waits on, then its answer or the call's error.
template <class Request, class Answer>
struct Seat {
    const Request* request = nullptr;
    bool waiting = false;   // a request submitted, not yet served
    bool answered = false;  // answer (or serve_error) is there
    Answer answer;
    std::exception_ptr serve_error, step_error;
};

// Runs step(k, ask) for every k < count on threads of their own; once every running step waits
// on ask(request), the waiting steps' requests (in order of k) are answered by one call of
// serve on the calling thread (answers[r] for the r-th request of the round). The exceptions
// as play_steps_together says.
template <class Request, class Answer>
void steps_together(
    uint32_t count,
    const std::function<void(uint32_t, const std::function<Answer(const Request&)>&)>& step,
    const std::function<std::vector<Answer>(const std::vector<const Request*>&)>& serve) {
    std::mutex mutex;
    std::condition_variable to_caller, to_steps;
    std::vector<Seat<Request, Answer>> seats(count);
    uint32_t running = 0, waiting = 0;

    std::vector<std::function<Answer(const Request&)>> asks(count);
    for (uint32_t k = 0; k < count; ++k)
        asks[k] = [&, k](const Request& request) {
            std::unique_lock<std::mutex> lock(mutex);
            auto& s = seats[k];
            s.request = &request;
            s.waiting = true;
            ++waiting;
            to_caller.notify_one();
            to_steps.wait(lock, [&] { return s.answered; });
            s.answered = false;
            if (s.serve_error) std::rethrow_exception(std::exchange(s.serve_error, nullptr));
            return std::move(s.answer);
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
                    step(k, asks[k]);
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

    // ---- rounds: once every running step waits, their requests are one call
    std::unique_lock<std::mutex> lock(mutex);
    while (true) {
        to_caller.wait(lock, [&] { return waiting == running; });
        if (running == 0) break;
        std::vector<uint32_t> round;
        std::vector<const Request*> requests;
        for (uint32_t k = 0; k < count; ++k)
            if (seats[k].waiting) {
                round.push_back(k);
                requests.push_back(seats[k].request);
            }
        lock.unlock();
        std::vector<Answer> answers;
        std::exception_ptr error;
        try {
            answers = serve(requests);
            if (answers.size() != requests.size())
                throw std::logic_error("a gathered call came back with another request count");
        } catch (...) {
            error = std::current_exception();
        }
        lock.lock();
        for (size_t r = 0; r < round.size(); ++r) {
            auto& s = seats[round[r]];
            if (error)
                s.serve_error = error;
            else
                s.answer = std::move(answers[r]);
            s.waiting = false;
            s.answered = true;
            --waiting;
        }
        to_steps.notify_all();
    }
    lock.unlock();
    for (std::thread& t : threads) t.join();
    if (start_error) std::rethrow_exception(start_error);
    for (const auto& s : seats)
        if (s.step_error) std::rethrow_exception(s.step_error);
}

// A step's batch of games.
struct GameBatch {
    const std::vector<games::PlayerData>* players = nullptr;
    const std::vector<Pairing>* pairings = nullptr;
    uint64_t seed = 0;
};

// A step's genomes to evaluate (floats or words).
template <class Gene>
struct GenomeBatch {
    const std::vector<Gene>* genomes = nullptr;
    uint32_t count = 0;
};

// evaluate_steps_together over genomes of Gene; Evaluate is EvaluateFn or EvaluateWordsFn.
template <class Gene, class Evaluate>
void evaluate_together(uint32_t count, const std::function<void(uint32_t, const Evaluate&)>& step,
                       const Evaluate& evaluate, uint32_t dimension) {
    if (count == 0) return;
    if (count == 1) {
        step(0, evaluate);
        return;
    }
    using Batch = GenomeBatch<Gene>;
    using Fitness = std::vector<double>;
    using Ask = std::function<Fitness(const Batch&)>;
    steps_together<Batch, Fitness>(
        count,
        [&](uint32_t k, const Ask& ask) {
            const Evaluate gathered = [&](const std::vector<Gene>& genomes, uint32_t n) {
                return ask(Batch{&genomes, n});
            };
            step(k, gathered);
        },
        [&](const std::vector<const Batch*>& batches) {
            // The first `count` genomes of every batch, in order, as one array.
            std::vector<Gene> genomes;
            uint32_t total = 0;
            for (const Batch* b : batches) {
                const size_t genes = size_t(b->count) * dimension;
                if (b->genomes->size() < genes)
                    throw std::logic_error("evaluate: fewer genomes than the count");
                genomes.insert(genomes.end(), b->genomes->begin(), b->genomes->begin() + genes);
                total += b->count;
            }
            const Fitness fitness = evaluate(genomes, total);
            if (fitness.size() != total)
                throw std::logic_error("a gathered evaluation came back with another count");
            std::vector<Fitness> answers;
            size_t first = 0;
            for (const Batch* b : batches) {
                answers.emplace_back(fitness.begin() + first, fitness.begin() + first + b->count);
                first += b->count;
            }
            return answers;
        });
}

}  // namespace

void play_steps_together(uint32_t count,
                         const std::function<void(uint32_t step, const PlayFn& play)>& step,
                         const PlayFn& play, const KeyedPlayFn& play_keyed) {
    if (count == 0) return;
    if (count == 1) {
        step(0, play);
        return;
    }
    using Records = std::vector<GameRecord>;
    using Ask = std::function<Records(const GameBatch&)>;
    steps_together<GameBatch, Records>(
        count,
        [&](uint32_t k, const Ask& ask) {
            const PlayFn gathered = [&](const std::vector<games::PlayerData>& players,
                                        const std::vector<Pairing>& pairings, uint64_t seed) {
                return ask(GameBatch{&players, &pairings, seed});
            };
            step(k, gathered);
        },
        [&](const std::vector<const GameBatch*>& batches) {
            // Players appended, pairings moved to them, keys (seed, i).
            std::vector<games::PlayerData> players;
            std::vector<Pairing> pairings;
            std::vector<GameKey> keys;
            std::vector<size_t> first_game;
            for (const GameBatch* b : batches) {
                first_game.push_back(pairings.size());
                const uint32_t base = static_cast<uint32_t>(players.size());
                players.insert(players.end(), b->players->begin(), b->players->end());
                for (size_t i = 0; i < b->pairings->size(); ++i) {
                    Pairing p = (*b->pairings)[i];
                    p.a += base;
                    p.b += base;
                    pairings.push_back(p);
                    keys.push_back(GameKey{b->seed, static_cast<uint32_t>(i)});
                }
            }
            const Records records = play_keyed(players, pairings, keys);
            if (records.size() != pairings.size())
                throw std::logic_error("a gathered batch came back with another game count");
            std::vector<Records> answers;
            for (size_t r = 0; r < batches.size(); ++r) {
                const auto from = records.begin() + static_cast<std::ptrdiff_t>(first_game[r]);
                answers.emplace_back(
                    from, from + static_cast<std::ptrdiff_t>(batches[r]->pairings->size()));
            }
            return answers;
        });
}

void evaluate_steps_together(
    uint32_t count, const std::function<void(uint32_t step, const EvaluateFn& evaluate)>& step,
    const EvaluateFn& evaluate, uint32_t dimension) {
    evaluate_together<float, EvaluateFn>(count, step, evaluate, dimension);
}

void evaluate_steps_together(
    uint32_t count, const std::function<void(uint32_t step, const EvaluateWordsFn& evaluate)>& step,
    const EvaluateWordsFn& evaluate, uint32_t dimension) {
    evaluate_together<uint32_t, EvaluateWordsFn>(count, step, evaluate, dimension);
}

}  // namespace gaeval::learn
