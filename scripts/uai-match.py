#!/usr/bin/env python3
"""Plays Ataxx matches between two UAI engines, as tournament managers (cuteataxx) do.

Each engine is a command line started once per worker and driven over pipes: `uai`/`uaiok`,
`isready`/`readyok`, then per game `uainewgame` and per move `position ... moves ...` and
`go movetime T` (or `go depth D`), waiting for `bestmove`. Every opening (random plies from the
start position, drawn from --seed) is played twice, once with each engine moving first. The
referee here checks every move (its own Ataxx rules: libataxx's, 7x7, no gaps): an illegal or
unreadable move, a crash, or an answer later than the time plus --margin-ms loses the game and
is counted. Prints one line per game and a summary: score of engine A with a 95% interval over
the opening pairs (pairs are not independent games' halves), the Elo difference, forfeits.

  scripts/uai-match.py --a 'build/cpu/gaeval uai' --b '/work/engines/tiktaxx/bin/tiktaxx' \\
      --movetime 50 --openings 50 --seed 1 --record games.txt

Standard library only.
"""
import argparse
import math
import random
import shlex
import subprocess
import sys
import threading
import time

SIZE = 7
START_FEN = "x5o/7/7/7/7/7/o5x x 0 1"


def neighbours(cell, dist):
    r, f = divmod(cell, SIZE)
    out = []
    for dr in range(-dist, dist + 1):
        for df in range(-dist, dist + 1):
            if max(abs(dr), abs(df)) != dist:
                continue
            rr, ff = r + dr, f + df
            if 0 <= rr < SIZE and 0 <= ff < SIZE:
                out.append(rr * SIZE + ff)
    return out


GROW = [neighbours(c, 1) for c in range(SIZE * SIZE)]
JUMP = [neighbours(c, 2) for c in range(SIZE * SIZE)]


class Board:
    """cells[r * 7 + f] in 'x', 'o', '.', '-'; rank 0 is rank 1."""

    def __init__(self, fen=START_FEN):
        parts = fen.split()
        rows = parts[0].split("/")
        if len(rows) != SIZE:
            raise ValueError("bad FEN " + fen)
        self.cells = ["."] * (SIZE * SIZE)
        for i, row in enumerate(rows):
            r = SIZE - 1 - i
            f = 0
            for ch in row:
                if ch.isdigit():
                    f += int(ch)
                else:
                    self.cells[r * SIZE + f] = ch
                    f += 1
        self.side = parts[1] if len(parts) > 1 else "x"
        self.halfmove = int(parts[2]) if len(parts) > 2 else 0

    def copy(self):
        b = Board.__new__(Board)
        b.cells = list(self.cells)
        b.side = self.side
        b.halfmove = self.halfmove
        return b

    def count(self, who):
        return self.cells.count(who)

    def moves_of(self, who):
        grows, jumps = set(), []
        for c, v in enumerate(self.cells):
            if v != who:
                continue
            for n in GROW[c]:
                if self.cells[n] == ".":
                    grows.add(n)
            for n in JUMP[c]:
                if self.cells[n] == ".":
                    jumps.append((c, n))
        return sorted(grows), jumps

    def over(self):
        if self.count("x") == 0 or self.count("o") == 0 or self.halfmove >= 100:
            return True
        for who in "xo":
            g, j = self.moves_of(who)
            if g or j:
                return False
        return True

    def legal(self):
        """Legal moves of the side to move as (from, to); a grow has from == to, a pass None."""
        if self.over():
            return []
        g, j = self.moves_of(self.side)
        moves = [(t, t) for t in g] + j
        return moves if moves else [None]

    def make(self, move):
        other = "o" if self.side == "x" else "x"
        if move is None:
            self.halfmove += 1
        else:
            frm, to = move
            self.cells[to] = self.side
            if frm != to:
                self.cells[frm] = "."
                self.halfmove += 1
            else:
                self.halfmove = 0
            for n in GROW[to]:
                if self.cells[n] == other:
                    self.cells[n] = self.side
        self.side = other

    def result(self):
        """1 (x wins), 0 (o wins) or 0.5, for a finished game (libataxx's rules)."""
        x, o = self.count("x"), self.count("o")
        if x and o and self.halfmove >= 100:
            g1, j1 = self.moves_of("x")
            g2, j2 = self.moves_of("o")
            if g1 or j1 or g2 or j2:
                return 0.5  # the 50-move rule
        return 1.0 if x > o else 0.0 if o > x else 0.5


def square(c):
    return "abcdefg"[c % SIZE] + str(c // SIZE + 1)


def move_text(move):
    if move is None:
        return "0000"
    frm, to = move
    return square(to) if frm == to else square(frm) + square(to)


def parse_move(board, text):
    """The legal move `text` names in board, or raises ValueError."""
    legal = board.legal()
    if text == "0000":
        if None in legal:
            return None
        raise ValueError("pass with moves available")

    def sq(s):
        if len(s) != 2 or s[0] not in "abcdefg" or s[1] not in "1234567":
            raise ValueError("not a square: " + s)
        return (int(s[1]) - 1) * SIZE + "abcdefg".index(s[0])

    if len(text) == 2:
        m = (sq(text), sq(text))
    elif len(text) == 4:
        a, b = sq(text[:2]), sq(text[2:])
        m = (b, b) if b in GROW[a] else (a, b)
        if a == b:
            raise ValueError("from equals to")
    else:
        raise ValueError("unreadable move " + text)
    if m not in legal:
        raise ValueError("illegal move " + text)
    return m


class Engine:
    def __init__(self, command, name):
        self.command = command
        self.name = name
        self.proc = None
        self.lines = []
        self.cv = threading.Condition()
        self.start()

    def start(self):
        self.proc = subprocess.Popen(
            shlex.split(self.command), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self.lines = []
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()
        self.send("uai")
        self.wait_for("uaiok", 10.0)
        self.ready()

    def _read(self):
        for line in self.proc.stdout:
            with self.cv:
                self.lines.append(line.rstrip("\r\n"))
                self.cv.notify_all()
        with self.cv:
            self.lines.append(None)
            self.cv.notify_all()

    def send(self, text):
        self.proc.stdin.write(text + "\n")
        self.proc.stdin.flush()

    def wait_for(self, prefix, timeout):
        """The first line starting with prefix (earlier lines dropped), or None."""
        deadline = time.monotonic() + timeout
        with self.cv:
            while True:
                while self.lines:
                    line = self.lines.pop(0)
                    if line is None:
                        self.lines.insert(0, None)
                        return None
                    if line.startswith(prefix):
                        return line
                left = deadline - time.monotonic()
                if left <= 0:
                    return None
                self.cv.wait(left)

    def ready(self):
        self.send("isready")
        if self.wait_for("readyok", 10.0) is None:
            raise RuntimeError(self.name + ": no readyok")

    def restart(self):
        self.close()
        self.start()

    def close(self):
        try:
            self.send("quit")
            self.proc.wait(timeout=2)
        except Exception:
            self.proc.kill()
            self.proc.wait()


def play_game(engines, first, opening, args):
    """engines[first] plays x. Returns (score for engines[0], reason, moves text, forfeit info)."""
    board = Board(args.start_fen)
    moves = []
    for m in opening:
        board.make(m)
        moves.append(move_text(m))
    for e in engines:
        e.send("uainewgame")
        e.ready()
    forfeit = None
    while not board.over():
        mover = first if board.side == "x" else 1 - first
        e = engines[mover]
        pos = "position fen " + args.start_fen + (" moves " + " ".join(moves) if moves else "")
        e.send(pos)
        go = "go movetime %d" % args.movetime if args.movetime else "go depth %d" % args.depth
        t0 = time.monotonic()
        e.send(go)
        limit = (args.movetime + args.margin_ms) / 1000.0 if args.movetime else 600.0
        line = e.wait_for("bestmove", limit + 5.0)
        spent = time.monotonic() - t0
        if line is None:
            forfeit = (mover, "time" if e.proc.poll() is None else "crash")
            e.restart()
            break
        if args.movetime and spent > limit:
            forfeit = (mover, "time")
            break
        text = line.split()[1] if len(line.split()) > 1 else ""
        try:
            m = parse_move(board, text)
        except ValueError as err:
            forfeit = (mover, "illegal (%s)" % err)
            break
        board.make(m)
        moves.append(text)
    if forfeit:
        loser = forfeit[0]
        return (0.0 if loser == 0 else 1.0), "%s forfeits: %s" % (engines[loser].name,
                                                                  forfeit[1]), moves, forfeit
    r = board.result()  # for x
    score_a = r if first == 0 else 1.0 - r
    return score_a, "x %d o %d" % (board.count("x"), board.count("o")), moves, None


def make_openings(count, plies, seed, start_fen):
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        b = Board(start_fen)
        line = []
        for _ in range(plies):
            legal = b.legal()
            if not legal:
                break
            m = rng.choice(legal)
            b.make(m)
            line.append(m)
        if not b.over() and len(line) == plies:
            out.append(line)
    return out


def summary(pair_scores, results):
    n = len(results)
    score = sum(results) / n
    pairs = [s for s in pair_scores if s is not None]
    k = len(pairs)
    mean = sum(pairs) / k if k else score
    var = sum((p - mean) ** 2 for p in pairs) / (k - 1) if k > 1 else 0.0
    half = 1.96 * math.sqrt(var / k) if k > 1 else float("nan")
    lo, hi = max(0.0, score - half), min(1.0, score + half)

    def elo(s):
        s = min(max(s, 1e-6), 1 - 1e-6)
        return -400.0 * math.log10(1.0 / s - 1.0)

    return score, lo, hi, elo(score), elo(lo), elo(hi)


def worker(jobs, lock, args, out, record):
    engines = [Engine(args.a, args.name_a), Engine(args.b, args.name_b)]
    try:
        while True:
            with lock:
                if not jobs:
                    return
                index, pair, first, opening = jobs.pop(0)
            s, why, moves, forfeit = play_game(engines, first, opening, args)
            with lock:
                out.append((index, pair, first, s, why, forfeit))
                line = "game %d pair %d %s plays x: %s %s [%s]" % (
                    index + 1, pair + 1, engines[first].name, args.name_a,
                    {1.0: "wins", 0.0: "loses", 0.5: "draws"}[s], why)
                print(line, flush=True)
                if record:
                    record.write("%s | %s | %s\n" % (line, args.start_fen, " ".join(moves)))
                    record.flush()
    finally:
        for e in engines:
            e.close()


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--a", required=True, help="command of engine A")
    p.add_argument("--b", required=True, help="command of engine B")
    p.add_argument("--name-a", default="A")
    p.add_argument("--name-b", default="B")
    p.add_argument("--movetime", type=int, default=50, help="ms per move (0: use --depth)")
    p.add_argument("--depth", type=int, default=0, help="go depth D when --movetime is 0")
    p.add_argument("--margin-ms", type=int, default=100,
                   help="an answer later than movetime + this loses on time")
    p.add_argument("--openings", type=int, default=50, help="openings, each played twice")
    p.add_argument("--plies", type=int, default=4, help="random plies of an opening")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--start-fen", default=START_FEN)
    p.add_argument("--concurrency", type=int, default=1)
    p.add_argument("--record", help="file: one line per game with its moves")
    args = p.parse_args()
    if args.movetime <= 0 and args.depth <= 0:
        print("uai-match: give --movetime MS or --depth D", file=sys.stderr)
        return 2
    openings = make_openings(args.openings, args.plies, args.seed, args.start_fen)
    jobs = []
    for pair, o in enumerate(openings):
        jobs.append((2 * pair, pair, 0, o))
        jobs.append((2 * pair + 1, pair, 1, o))
    lock = threading.Lock()
    out = []
    record = open(args.record, "w") if args.record else None
    t0 = time.monotonic()
    threads = [threading.Thread(target=worker, args=(jobs, lock, args, out, record))
               for _ in range(max(1, args.concurrency))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    out.sort()
    results = [s for (_, _, _, s, _, _) in out]
    by_pair = {}
    for (_, pair, _, s, _, _) in out:
        by_pair.setdefault(pair, []).append(s)
    pair_scores = [sum(v) / 2 for v in by_pair.values() if len(v) == 2]
    wins = results.count(1.0)
    draws = results.count(0.5)
    losses = results.count(0.0)
    score, lo, hi, e, elo_lo, elo_hi = summary(pair_scores, results)
    forfeits = {args.name_a: {}, args.name_b: {}}
    for (_, _, first, _, _, f) in out:
        if f:
            name = args.name_a if f[0] == 0 else args.name_b
            kind = f[1].split()[0]
            forfeits[name][kind] = forfeits[name].get(kind, 0) + 1
    print("%s vs %s: %d games (%d openings x 2 colours), %s %s, +%d =%d -%d, score %.3f "
          "(95%% CI %.3f - %.3f), Elo %+.0f (%+.0f to %+.0f); forfeits %s; %.0f s" % (
              args.name_a, args.name_b, len(results), len(pair_scores),
              "movetime %d ms" % args.movetime if args.movetime else "depth %d" % args.depth,
              "seed %d" % args.seed, wins, draws, losses, score, lo, hi, e, elo_lo, elo_hi,
              forfeits, time.monotonic() - t0))
    if record:
        record.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
