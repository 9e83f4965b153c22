// gaeval from C++: score random pile-in plans, count perft, play a batch of Ataxx games.
#include <cstdint>
#include <cstdio>
#include <random>
#include <vector>

#include <gaeval/gaeval.hpp>

int main() {
    try {
        const gaeval::Backend cpu = gaeval::Backend::cpu();
        std::printf("gaeval %s on %s (%s)\n", gaeval::version().c_str(), cpu.name().c_str(),
                    cpu.device().c_str());

        // Pile-in: 10000 random plans of a shipped scenario, scored in place.
        const gaeval::PileInScenario s = gaeval::PileInScenario::load("demo_10v10");
        const uint64_t n = 10000;
        std::vector<uint32_t> genes(n * s.genes_per_plan());
        std::mt19937 rng(1);
        const int32_t half = gaeval::PileInScenario::move_scale() / 2;
        std::uniform_int_distribution<int32_t> move(-half, half);
        for (uint32_t& gene : genes) gene = gaeval::pack_move(move(rng), move(rng));
        std::vector<float> fitness(n);
        gaeval::evaluate_gapi1(cpu, s, genes.data(), n, fitness.data());
        float best = fitness[0];
        for (float f : fitness) best = f > best ? f : best;
        std::printf("%s: best of %llu random plans %.2f\n", s.name().c_str(),
                    static_cast<unsigned long long>(n), best);

        // Perft and a batch of games.
        const gaeval::Game ataxx = gaeval::Game::open("ataxx");
        std::printf("ataxx perft(3) = %llu\n",
                    static_cast<unsigned long long>(ataxx.perft(3, cpu)));
        const std::vector<gaeval::GamePlayer> players = {
            gaeval::GamePlayer::weighted(std::vector<float>(ataxx.weight_names().size(), 1.0f)),
            gaeval::GamePlayer::random()};
        std::vector<gaeval::GamePairing> pairings;
        for (uint8_t seat : {0, 1})
            for (int i = 0; i < 10; ++i) pairings.push_back({0, 1, seat});
        int wins = 0;
        for (const gaeval::GameResult& r : ataxx.play_pairings(players, pairings, 7, 200, cpu))
            wins += r.a_result == 1;
        std::printf("weighted vs random: %d wins of %zu\n", wins, pairings.size());

        // Errors are exceptions carrying the CLI's one-line message.
        try {
            gaeval::PileInScenario::load("no_such_scenario");
        } catch (const gaeval::InputError& e) {
            std::printf("as expected: %s\n", e.what());
        }
        return ataxx.perft(3, cpu) == 6460 ? 0 : 1;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "gaeval_example: %s\n", e.what());
        return 1;
    }
}
