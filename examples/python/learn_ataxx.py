"""Learning Ataxx weights with your own selection loop over gaeval's play_pairings.

Each generation every member plays every other in both seats (one backend call); members are
ranked by points (win 2, draw 1) and the best half breed the next half by Gaussian mutation.
    PYTHONPATH=build/cpu/python /usr/bin/python3 examples/python/learn_ataxx.py
"""
import itertools

import numpy as np

import gaeval


def main(members=6, generations=4, max_plies=120, seed=3):
    backend = gaeval.Backend.cpu()
    ataxx = gaeval.Game.open("ataxx")
    rng = np.random.default_rng(seed)
    start = np.asarray(ataxx.initial_weights or [0.0] * len(ataxx.weight_names), dtype=np.float32)
    population = start + rng.normal(0, 0.5, (members, len(start))).astype(np.float32)
    pairs = [(a, b, seat) for a, b in itertools.permutations(range(members), 2) for seat in (0, 1)]
    pairings = np.array(pairs, dtype=np.int64)
    print(f"ataxx weights {ataxx.weight_names}, {members} members, {len(pairs)} games a generation")
    for generation in range(generations):
        players = [gaeval.Player.weighted(w) for w in population]
        results = ataxx.play_pairings(players, pairings, seed * 1000 + generation, max_plies,
                                      backend)
        points = np.zeros(members)
        np.add.at(points, pairings[:, 0], results["a_result"] + 1)
        np.add.at(points, pairings[:, 1], 1 - results["a_result"])
        order = np.argsort(-points, kind="stable")
        print(f"generation {generation}: points {points[order].astype(int).tolist()}")
        keep = population[order[: members // 2]]
        children = keep + rng.normal(0, 0.2, keep.shape).astype(np.float32)
        population = np.concatenate([keep, children]).astype(np.float32)
    best = gaeval.Player.weighted(population[0])
    check = np.array([[0, 1, s] for s in (0, 1)] * 20, dtype=np.int64)
    r = ataxx.play_pairings([best, gaeval.Player.random()], check, 99, max_plies, backend)
    wins = int((r["a_result"] == 1).sum())
    print(f"best member against random: {wins} wins of {len(check)}")
    return wins


if __name__ == "__main__":
    main()
