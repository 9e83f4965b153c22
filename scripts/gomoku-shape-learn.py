#!/usr/bin/env python3
"""Learns the Gomoku engine's line-shape weights (host/gomoku/patterns.hpp, 16 numbers: the
mover's kShapeOne..kShapeFive, then the opponent's) with a small genetic algorithm whose
fitness is games of `gaeval gomocup` (the engine that plays them in Gomocup) against the
engine without shape weights (the shipped player), at a fixed work per move.

Each generation draws its openings (2 to 4 stones on the central 7x7, as gomocup-match.py);
every individual plays each opening with both colours against the baseline (paired: the same
openings for all). Fitness: points scored. Next generation: the two best kept (elitism), the
rest from tournaments of 2, blend crossover and log-normal mutation of each weight (sigma
0.25, sign kept; a weight at 0 is drawn from [0, 2]). Games run two at a time.

Writes the best individual of the last generation (by its fitness summed over the generations
it lived) as a player file: the base player file's fields plus "shape_weights" and
"shape_learned_by" (this command).

usage: /usr/bin/python3 scripts/gomoku-shape-learn.py --gaeval build/cpu/gaeval \\
         --base data/gomoku/default-player.json --out data/gomoku/shape-player.json \\
         [--generations 12] [--population 8] [--openings 3] [--turn-ms 60] [--nodes 4000]
         [--seed 1] [--minutes 25]
"""
import argparse
import concurrent.futures
import importlib.util
import json
import math
import os
import random
import shlex
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("gomocup_match", os.path.join(HERE, "gomocup-match.py"))
gm = importlib.util.module_from_spec(spec)
spec.loader.exec_module(gm)

# The starting point: values in the engine's units (a level-1 cell of the table's value is 64,
# level 2 is 32, level 3 is 16).
START = [0, 1, 4, 3, 12, 10, 40, 100,   # mover: one, closed two, open two, closed three,
         0, 1, 4, 3, 10, 8, 30, 80]     # open three, four, open four, five; then opponent's


class MatchArgs:
    def __init__(self, turn_ms):
        self.size = 15
        self.match_ms = 0
        self.start_s = 30.0
        self.max_memory_mb = 64
        self.turn_ms = turn_ms
        self.grace_ms = 1000
        self.first_grace_ms = 2000


def mutate(weights, rng, sigma):
    out = []
    for w in weights:
        if w == 0:
            out.append(round(rng.uniform(0, 2), 2) if rng.random() < 0.3 else 0.0)
        else:
            out.append(round(w * math.exp(rng.gauss(0, sigma)), 2))
    return out


def crossover(a, b, rng):
    t = rng.random()
    return [round(t * x + (1 - t) * y, 2) for x, y in zip(a, b)]


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--gaeval", default="build/cpu/gaeval")
    p.add_argument("--base", default="data/gomoku/default-player.json")
    p.add_argument("--out", required=True)
    p.add_argument("--generations", type=int, default=12)
    p.add_argument("--population", type=int, default=8)
    p.add_argument("--openings", type=int, default=3)
    p.add_argument("--turn-ms", type=int, default=60)
    p.add_argument("--nodes", type=int, default=4000)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--minutes", type=float, default=25.0, help="stop after this many minutes")
    p.add_argument("--workers", type=int, default=2)
    args = p.parse_args()
    if args.population < 4 or args.generations < 1 or args.openings < 1:
        print("gomoku-shape-learn: --population >= 4, --generations and --openings >= 1",
              file=sys.stderr)
        return 2
    base = json.load(open(args.base))
    rng = random.Random(args.seed)
    gaeval = os.path.abspath(args.gaeval)
    tmp = tempfile.mkdtemp(prefix="gomoku-shape-")
    baseline = "%s gomocup --player %s --nodes %d" % (gaeval, os.path.abspath(args.base), args.nodes)
    population = [list(map(float, START))] + [mutate(START, rng, 0.4)
                                               for _ in range(args.population - 1)]
    lived = [[0.0, 0] for _ in population]  # points, games over the generations lived
    match = MatchArgs(args.turn_ms)
    started = time.monotonic()
    for gen in range(args.generations):
        openings = gm.make_openings(args.openings, 15, args.seed * 1000 + gen)
        files = []
        for i, w in enumerate(population):
            doc = dict(base)
            doc["shape_weights"] = w
            path = os.path.join(tmp, "g%d-i%d.json" % (gen, i))
            json.dump(doc, open(path, "w"))
            files.append("%s gomocup --player %s --nodes %d" % (gaeval, path, args.nodes))
        jobs = []
        for i, cmd in enumerate(files):
            for o in openings:
                jobs.append((i, 0, [cmd, baseline], o))  # individual black
                jobs.append((i, 1, [baseline, cmd], o))
        points = [0.0] * len(population)
        forfeits = 0
        with concurrent.futures.ThreadPoolExecutor(args.workers) as pool:
            futures = {pool.submit(gm.play_game, cmds, ["X", "B"], o, match): (i, colour)
                       for i, colour, cmds, o in jobs}
            for f in concurrent.futures.as_completed(futures):
                i, colour = futures[f]
                black, reason, forfeit, moves, brains = f.result()
                if forfeit is not None:
                    forfeits += 1
                points[i] += black if colour == 0 else 1.0 - black
        games = 2 * args.openings
        for i in range(len(population)):
            lived[i][0] += points[i]
            lived[i][1] += games
        order = sorted(range(len(population)), key=lambda i: (-points[i], i))
        print("generation %d: scores %s (of %d), forfeits %d, best %s, %.0f s" %
              (gen, [points[i] for i in order], games, forfeits, population[order[0]],
               time.monotonic() - started), flush=True)
        last = gen == args.generations - 1 or time.monotonic() - started > 60 * args.minutes
        if last:
            best = max(range(len(population)),
                       key=lambda i: (lived[i][0] / lived[i][1], lived[i][1], -i))
            doc = dict(base)
            doc["shape_weights"] = population[best]
            doc["shape_learned_by"] = (
                "/usr/bin/python3 scripts/gomoku-shape-learn.py %s (generations run %d, "
                "population %d, %d games each a generation against the player without shapes; "
                "this individual %.1f of %d over the generations it lived)" %
                (" ".join(shlex.quote(a) for a in sys.argv[1:]), gen + 1, args.population,
                 games, lived[best][0], lived[best][1]))
            with open(args.out, "w") as out:
                json.dump(doc, out, indent=1)
                out.write("\n")
            print("wrote %s: %s" % (args.out, population[best]))
            return 0
        survivors = [population[i] for i in order[:2]]
        survivor_lived = [lived[i] for i in order[:2]]

        def pick():
            a, b = rng.sample(range(len(population)), 2)
            return population[a] if points[a] >= points[b] else population[b]

        children = []
        while len(survivors) + len(children) < args.population:
            children.append(mutate(crossover(pick(), pick(), rng), rng, 0.25))
        population = survivors + children
        lived = survivor_lived + [[0.0, 0] for _ in children]
    return 0


if __name__ == "__main__":
    sys.exit(main())
