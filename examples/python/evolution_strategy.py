"""A (mu, lambda) evolution strategy written in NumPy, scored by gaeval's GAPI1 evaluator.

The optimiser is yours: gaeval only turns a (n, genes) uint32 array of plans into n fitness
values, in place on the CPU (no copy), on whichever backend you pick.
    PYTHONPATH=build/cpu/python /usr/bin/python3 examples/python/evolution_strategy.py
"""
import sys

import numpy as np

import gaeval


def pack(dx, dy):
    return (dx.astype(np.uint32) & 0xFFFF) | ((dy.astype(np.uint32) & 0xFFFF) << 16)


def clip_to_limit(dx, dy, scale):
    """Moves longer than the limit scaled back inside it (integers, dx^2 + dy^2 <= scale^2)."""
    length = np.sqrt(dx.astype(np.float64) ** 2 + dy.astype(np.float64) ** 2)
    shrink = np.where(length > scale, scale / np.maximum(length, 1), 1.0)
    return np.trunc(dx * shrink).astype(np.int32), np.trunc(dy * shrink).astype(np.int32)


def main(generations=40, lam=4000, mu=400, seed=1):
    backend = gaeval.Backend.cpu()
    scenario = gaeval.PileInScenario.load(sys.argv[1] if len(sys.argv) > 1 else "demo_10v10")
    scale = gaeval.move_scale()
    rng = np.random.default_rng(seed)
    g = scenario.genes_per_plan
    dx = np.zeros((lam, g), dtype=np.int32)  # generation 0: nobody moves, plus noise
    dy = np.zeros((lam, g), dtype=np.int32)
    sigma = scale / 2
    fitness = np.empty(lam, dtype=np.float32)
    print(f"{scenario!r} on {backend.name} ({backend.device}): lambda={lam}, mu={mu}")
    for generation in range(generations):
        dx, dy = clip_to_limit(dx + rng.normal(0, sigma, dx.shape).astype(np.int32),
                               dy + rng.normal(0, sigma, dy.shape).astype(np.int32), scale)
        genes = pack(dx, dy)
        gaeval.evaluate_gapi1(backend, scenario, genes, out=fitness)
        parents = np.argsort(-fitness, kind="stable")[:mu]
        if generation % 10 == 0 or generation == generations - 1:
            print(f"generation {generation:3d}: best {fitness[parents[0]]:9.2f}  "
                  f"mean of parents {fitness[parents].mean():9.2f}  sigma {sigma:7.0f}")
        pick = parents[rng.integers(0, mu, lam)]
        dx, dy = dx[pick], dy[pick]
        sigma *= 0.93
    return float(fitness.max())


if __name__ == "__main__":
    main()
