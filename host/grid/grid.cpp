#include "host/grid/grid.hpp"

#include <algorithm>
#include <cmath>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "games/grid/variants.hpp"
#include "host/backend/parallel.hpp"
#if GAEVAL_HAVE_CUDA
#include "kernels/grid_kernels.hpp"
#endif

namespace gaeval::grid {

namespace {

// Calls f(game, position) with the typed variant that serves `setup` and returns its result.
template <int W, class F>
auto with_table_variant(const GameSetup& setup, F&& f) {
    auto board = std::make_unique<Board<W>>();
    if (!setup_board(setup, board.get()))
        throw std::logic_error("grid: setup does not fit its size class");  // checked at the edge
    if (setup.players == 2) {
        const Game<TableGeometry<W>, 2> game{TableGeometry<W>{board.get()}, setup.rules};
        return f(game, setup_position<W, 2>(setup));
    }
    const Game<TableGeometry<W>, 4> game{TableGeometry<W>{board.get()}, setup.rules};
    return f(game, setup_position<W, 4>(setup));
}

template <class F>
auto with_variant(const GameSetup& setup, EngineChoice engine, F&& f) {
    if (!engine.generic && fits_square7(setup)) {
        const Square7Game game{setup_square7_geometry(setup), setup.rules};
        return f(game, setup_square7_position(setup));
    }
    switch (words_for_cells(shape_cells(setup.shape))) {
        case 1:
            return with_table_variant<1>(setup, f);
        case 2:
            return with_table_variant<2>(setup, f);
        case 4:
            return with_table_variant<4>(setup, f);
        default:
            throw std::logic_error("grid: board larger than the largest bitboard");
    }
}

// Perft on the cpu backend: serial on one thread; otherwise the tree is expanded breadth-first
// to enough subtrees to balance the threads, which count them (dynamic schedule) and the
// counts are summed in index order.
template <class G>
uint64_t perft_cpu(const G& game, const typename G::Pos& root, int depth, int threads) {
    using Pos = typename G::Pos;
    if (threads <= 1 || depth <= 2) return perft(game, root, depth);
    std::vector<Pos> frontier{root};
    int remaining = depth;
    const std::size_t enough = 256 * static_cast<std::size_t>(threads);
    while (remaining > 2 && frontier.size() < enough) {
        std::vector<Pos> next;
        for (const Pos& p : frontier)
            for_each_child(game, p, [&](const Pos& c) { next.push_back(c); });
        frontier.swap(next);
        --remaining;
    }
    std::vector<uint64_t> nodes(frontier.size());
    parallel_for_dynamic(static_cast<int64_t>(frontier.size()), threads,
                         [&](int64_t i) { nodes[i] = perft(game, frontier[i], remaining); });
    uint64_t total = 0;
    for (uint64_t n : nodes) total += n;
    return total;
}

}  // namespace

std::string variant_name(const GameSetup& setup, EngineChoice engine) {
    if (!engine.generic && fits_square7(setup)) return "square7 fast path";
    return "table W=" + std::to_string(words_for_cells(shape_cells(setup.shape))) +
           " P=" + std::to_string(setup.players == 2 ? 2 : 4);
}

uint64_t perft(const GameSetup& setup, int depth, const BackendChoice& backend,
               EngineChoice engine) {
    return with_variant(setup, engine, [&](const auto& game, const auto& root) -> uint64_t {
        if (backend.kind == BackendKind::Cuda) {
#if GAEVAL_HAVE_CUDA
            return cuda::grid_perft(game, root, depth);
#else
            throw std::logic_error("grid: cuda backend requested in a build without CUDA");
#endif
        }
        return perft_cpu(game, root, depth, backend.threads);
    });
}

std::vector<uint64_t> perft_divide(const GameSetup& setup, int depth, const BackendChoice& backend,
                                   EngineChoice engine) {
    return with_variant(setup, engine, [&](const auto& game, const auto& root) {
        using Pos = std::decay_t<decltype(root)>;
        std::vector<Pos> children;
        for_each_child(game, root, [&](const Pos& c) { children.push_back(c); });
        std::vector<uint64_t> counts;
        for (const Pos& child : children) {
            if (depth <= 1) {
                counts.push_back(1);
            } else if (backend.kind == BackendKind::Cuda) {
#if GAEVAL_HAVE_CUDA
                counts.push_back(cuda::grid_perft(game, child, depth - 1));
#else
                throw std::logic_error("grid: cuda backend requested in a build without CUDA");
#endif
            } else {
                counts.push_back(perft_cpu(game, child, depth - 1, backend.threads));
            }
        }
        return counts;
    });
}

std::vector<GameRecord> play_batch(const GameSetup& start, const PlayRequest& request,
                                   const BackendChoice& backend, EngineChoice engine) {
    std::vector<GameRecord> records(request.games);
    with_variant(start, engine, [&](const auto& game, const auto& position) -> int {
        if (backend.kind == BackendKind::Cuda) {
#if GAEVAL_HAVE_CUDA
            cuda::grid_play(game, position, request.a, request.b, request.seed, request.games,
                            request.max_plies, records.data());
            return 0;
#else
            throw std::logic_error("grid: cuda backend requested in a build without CUDA");
#endif
        }
        parallel_for_dynamic(
            static_cast<int64_t>(request.games), backend.threads,
            [&](int64_t i) {
                records[i] = play_match(game, position, request.a, request.b, request.seed,
                                        static_cast<uint32_t>(i), request.max_plies);
            },
            16);
        return 0;
    });
    return records;
}

std::vector<GameRecord> play_pairings(const GameSetup& start, const std::vector<Player>& players,
                                      const std::vector<Pairing>& pairings, uint64_t seed,
                                      uint32_t max_plies, const BackendChoice& backend,
                                      EngineChoice engine) {
    for (const Pairing& p : pairings)
        if (p.a >= players.size() || p.b >= players.size() || p.a_seat >= start.players)
            throw std::invalid_argument("grid: a pairing names a player or seat that is not there");
    std::vector<GameRecord> records(pairings.size());
    with_variant(start, engine, [&](const auto& game, const auto& position) -> int {
        if (backend.kind == BackendKind::Cuda) {
#if GAEVAL_HAVE_CUDA
            cuda::grid_play_pairings(game, position, players.data(), players.size(),
                                     pairings.data(), pairings.size(), seed, max_plies,
                                     records.data());
            return 0;
#else
            throw std::logic_error("grid: cuda backend requested in a build without CUDA");
#endif
        }
        parallel_for_dynamic(
            static_cast<int64_t>(pairings.size()), backend.threads,
            [&](int64_t i) {
                records[i] = play_pairing(game, position, players.data(), pairings[i], seed,
                                          static_cast<uint32_t>(i), max_plies);
            },
            4);
        return 0;
    });
    return records;
}

PlaySummary summarize(const std::vector<GameRecord>& records) {
    PlaySummary s;
    for (const GameRecord& r : records) {
        ++s.games;
        s.wins += r.a_result > 0;
        s.draws += r.a_result == 0;
        s.losses += r.a_result < 0;
        s.stopped += r.stopped;
        s.plies += r.plies;
    }
    return s;
}

void PlaySummary::score_interval(double* low, double* high) const {
    if (games == 0) {
        *low = 0;
        *high = 1;
        return;
    }
    const double mean = score();
    const double second_moment = (wins + 0.25 * draws) / games;
    const double variance = std::max(0.0, second_moment - mean * mean);
    const double half = 1.96 * std::sqrt(variance / games);
    *low = std::max(0.0, mean - half);
    *high = std::min(1.0, mean + half);
}

}  // namespace gaeval::grid
