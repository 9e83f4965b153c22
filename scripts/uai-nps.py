#!/usr/bin/env python3
"""Search speed of UAI Ataxx engines, side by side in one run: each engine searches the same
positions (random games from the start position, drawn from --seed; the referee of
uai-match.py) with `go movetime T`, and the nodes and time of its last `info` line are summed.
Engines count nodes their own way (gaeval: positions made; libataxx engines: nodes visited),
so the ratio is indicative. The engines run one after the other, one thread each.

  scripts/uai-nps.py --engine 'gaeval=build/cpu/gaeval uai --clock cpu' \\
      --engine 'tiktaxx=/work/engines/tiktaxx/bin/tiktaxx' --positions 40 --movetime 500
"""
import argparse
import importlib.util
import os
import random
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("uai_match", os.path.join(HERE, "uai-match.py"))
match = importlib.util.module_from_spec(spec)
spec.loader.exec_module(match)


def positions(count, seed):
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        b = match.Board()
        moves = []
        for _ in range(rng.randrange(0, 60)):
            legal = b.legal()
            if not legal:
                break
            m = rng.choice(legal)
            b.make(m)
            moves.append(match.move_text(m))
        if not b.over():
            out.append(moves)
    return out


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--engine", action="append", required=True, help="NAME=COMMAND")
    p.add_argument("--positions", type=int, default=40)
    p.add_argument("--movetime", type=int, default=500)
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args()
    pos = positions(args.positions, args.seed)
    for spec_text in args.engine:
        name, command = spec_text.split("=", 1)
        e = match.Engine(command, name)
        nodes = ms = depth = 0
        for moves in pos:
            e.send("position startpos" + (" moves " + " ".join(moves) if moves else ""))
            e.send("go movetime %d" % args.movetime)
            last = None
            while True:
                line = e.wait_for("", 30.0)
                if line is None or line.startswith("bestmove"):
                    break
                if line.startswith("info") and " nodes " in line:
                    last = line
            if last:
                n = re.search(r" nodes (\d+)", last)
                t = re.search(r" time (\d+)", last)
                d = re.search(r" depth (\d+)", last)
                nodes += int(n.group(1))
                ms += int(t.group(1)) if t else 0
                depth += int(d.group(1)) if d else 0
        e.close()
        print("%-10s %d positions, movetime %d ms: %d nodes in %d ms reported: %.0f nodes/s, "
              "mean last depth %.1f" % (name, len(pos), args.movetime, nodes, ms,
                                        1000.0 * nodes / max(ms, 1), depth / len(pos)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
