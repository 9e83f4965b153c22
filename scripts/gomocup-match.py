#!/usr/bin/env python3
"""A Gomocup match runner: two brains (any pbrain protocol programs), driven as Gomocup
managers drive them, over openings played with both colours.

Each game starts both brains afresh: START, INFO (timeout_turn, timeout_match, time_left,
max_memory, game_type, rule), then each brain's first move is asked by BOARD (the opening and
the moves so far, 1 = its own stones, 2 = the opponent's) and every later one by TURN x,y.
Every answer is timed on the wall clock from the command's last byte to the answer's line; an
answer later than timeout_turn + grace, an illegal or unreadable answer, or a brain that dies
loses the game (a forfeit, counted apart). The match clock (timeout_match) is kept too: a
brain whose own time runs out forfeits. Five or more in a row wins (freestyle); a full board
is a draw.

Openings: `--openings N` random openings of 2 to 4 stones (black first, alternating) on the
central 7x7 square, drawn from `--seed`; each is played twice, A black then B black.

Prints one line per game and a summary (A's wins, draws, losses, forfeits, score with a 95%
interval, both brains' think times and how many answers came after timeout_turn within the
grace); `--json FILE` writes the games and the summary.

usage: scripts/gomocup-match.py --a "CMD" --b "CMD" [--openings 20] [--turn-ms 200]
       [--match-ms 0] [--grace-ms 50] [--first-grace-ms MS] [--max-memory-mb 64] [--seed 1]
       [--size 15]
       [--json FILE]
"""
import argparse
import json
import math
import os
import random
import select
import shlex
import subprocess
import sys
import time


class Brain:
    """One brain process; lines in and out, MESSAGE / DEBUG lines collected apart."""

    def __init__(self, command, label):
        self.label = label
        self.proc = subprocess.Popen(shlex.split(command), stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                     cwd=os.path.dirname(shlex.split(command)[0]) or None)
        self.buffer = b""
        self.messages = []
        self.think_ms = []
        self.moves_asked = 0  # the ply (stones on the board) of the move being thought

    def send(self, line):
        try:
            self.proc.stdin.write((line + "\r\n").encode())
            self.proc.stdin.flush()
            return True
        except (BrokenPipeError, OSError):
            return False

    def read_answer(self, timeout_s):
        """The next line that is not MESSAGE / DEBUG, or None after timeout_s or at EOF."""
        deadline = time.monotonic() + timeout_s
        while True:
            while b"\n" in self.buffer:
                raw, self.buffer = self.buffer.split(b"\n", 1)
                line = raw.decode("latin-1").strip()
                if not line:
                    continue
                word = line.split(" ", 1)[0].upper()
                if word in ("MESSAGE", "DEBUG", "UNKNOWN"):
                    self.messages.append((self.moves_asked, line))
                    continue
                return line
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            ready, _, _ = select.select([self.proc.stdout], [], [], left)
            if not ready:
                continue
            chunk = os.read(self.proc.stdout.fileno(), 65536)
            if not chunk:
                return None
            self.buffer += chunk

    def close(self):
        try:
            self.send("END")
            self.proc.stdin.close()
        except OSError:
            pass
        try:
            self.proc.wait(timeout=2)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


def five(board, size, x, y, who):
    for dx, dy in ((1, 0), (0, 1), (1, 1), (1, -1)):
        run = 1
        for sign in (1, -1):
            cx, cy = x + sign * dx, y + sign * dy
            while 0 <= cx < size and 0 <= cy < size and board[cy][cx] == who:
                run += 1
                cx += sign * dx
                cy += sign * dy
        if run >= 5:
            return True
    return False


def make_openings(count, size, seed):
    rng = random.Random(seed)
    centre = [(x, y) for y in range(size // 2 - 3, size // 2 + 4)
              for x in range(size // 2 - 3, size // 2 + 4)]
    openings = []
    for _ in range(count):
        stones = rng.randint(2, 4)
        openings.append(rng.sample(centre, stones))
    return openings


def play_game(commands, labels, opening, args):
    """One game: commands[0] plays black. Returns (result for black: 1 / 0.5 / 0, reason,
    forfeiting colour or None, moves, brains). A forfeit of colour c gives black float(c)
    (white's forfeit: black wins); a five by colour c gives black 1.0 - c."""
    size = args.size
    brains = [Brain(commands[0], labels[0]), Brain(commands[1], labels[1])]
    board = [[0] * size for _ in range(size)]
    moves = []
    for i, (x, y) in enumerate(opening):
        board[y][x] = 1 + i % 2
        moves.append((x, y))
    time_left = [args.match_ms, args.match_ms]
    asked = [False, False]
    result = None
    try:
        for colour, brain in enumerate(brains):
            brain.send("START %d" % size)
            answer = brain.read_answer(args.start_s)
            if answer != "OK":
                return float(colour), "start failed: %r" % answer, colour, moves, brains
            brain.send("INFO timeout_turn %d" % args.turn_ms)
            brain.send("INFO timeout_match %d" % args.match_ms)
            brain.send("INFO max_memory %d" % (args.max_memory_mb * 1024 * 1024))
            brain.send("INFO game_type 1")
            brain.send("INFO rule 0")
            if args.match_ms > 0:
                brain.send("INFO time_left %d" % time_left[colour])
        while True:
            if len(moves) == size * size:
                return 0.5, "full board", None, moves, brains
            colour = len(moves) % 2
            brain = brains[colour]
            if args.match_ms > 0:
                brain.send("INFO time_left %d" % max(0, time_left[colour]))
            if not asked[colour]:
                asked[colour] = True
                brain.send("BOARD")
                for i, (x, y) in enumerate(moves):
                    brain.send("%d,%d,%d" % (x, y, 1 if i % 2 == colour else 2))
                start = time.monotonic()
                ok = brain.send("DONE")
            else:
                x, y = moves[-1]
                start = time.monotonic()
                ok = brain.send("TURN %d,%d" % (x, y))
            brain.moves_asked = len(moves)
            first = len(brain.think_ms) == 0
            grace_ms = args.first_grace_ms if first and args.first_grace_ms >= 0 else args.grace_ms
            limit_ms = args.turn_ms + grace_ms
            if args.match_ms > 0:
                limit_ms = min(limit_ms, time_left[colour] + grace_ms)
            answer = brain.read_answer(limit_ms / 1000.0) if ok else None
            spent = (time.monotonic() - start) * 1000.0
            brain.think_ms.append(spent)
            time_left[colour] -= int(spent)
            if answer is None:
                return float(colour), "no answer within %d ms" % limit_ms, colour, moves, brains
            try:
                xs, ys = answer.split(",")
                x, y = int(xs), int(ys)
            except ValueError:
                return float(colour), "unreadable answer %r" % answer[:60], colour, moves, brains
            if not (0 <= x < size and 0 <= y < size) or board[y][x] != 0:
                return float(colour), "illegal move %r" % answer[:60], colour, moves, brains
            if spent > args.turn_ms + grace_ms:
                return float(colour), "answered after %.0f ms" % spent, colour, moves, brains
            board[y][x] = colour + 1
            moves.append((x, y))
            if five(board, size, x, y, colour + 1):
                return 1.0 - colour, "five", None, moves, brains
    finally:
        for brain in brains:
            brain.close()


def late_answers(think_ms, turn_ms):
    """How many answers came after timeout_turn (within the grace, else the game was forfeited)."""
    return sum(1 for ms in think_ms if ms > turn_ms)


def summary(points, forfeits, label_a, label_b):
    n = len(points)
    wins = sum(1 for p in points if p == 1.0)
    draws = sum(1 for p in points if p == 0.5)
    losses = n - wins - draws
    mean = sum(points) / n
    var = sum((p - mean) ** 2 for p in points) / max(1, n - 1)
    half = 1.96 * math.sqrt(var / n)
    # Wilson score interval of the score as a proportion (draws as half a win).
    z = 1.96
    centre = (mean + z * z / (2 * n)) / (1 + z * z / n)
    spread = z * math.sqrt(mean * (1 - mean) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return {"a": label_a, "b": label_b, "games": n, "a_wins": wins, "draws": draws,
            "a_losses": losses, "a_forfeits": forfeits[0], "b_forfeits": forfeits[1],
            "a_score": mean, "ci95": [max(0.0, mean - half), min(1.0, mean + half)],
            "wilson95": [max(0.0, centre - spread), min(1.0, centre + spread)]}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--a", required=True, help="command of brain A")
    parser.add_argument("--b", required=True, help="command of brain B")
    parser.add_argument("--a-label", default="A")
    parser.add_argument("--b-label", default="B")
    parser.add_argument("--openings", type=int, default=20)
    parser.add_argument("--first-opening", type=int, default=0)
    parser.add_argument("--turn-ms", type=int, default=200)
    parser.add_argument("--match-ms", type=int, default=0)
    parser.add_argument("--grace-ms", type=int, default=50)
    parser.add_argument("--first-grace-ms", type=int, default=-1,
                        help="grace of each brain's first answer of a game (its hash table is "
                             "set up then); default: --grace-ms")
    parser.add_argument("--start-s", type=float, default=30.0)
    parser.add_argument("--max-memory-mb", type=int, default=64,
                        help="INFO max_memory (a brain's hash table is cleared in its time)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--size", type=int, default=15)
    parser.add_argument("--json", default=None)
    args = parser.parse_args()
    if args.openings < 1 or args.turn_ms < 1 or args.size not in (15, 20):
        print("gomocup-match: --openings and --turn-ms must be positive, --size 15 or 20",
              file=sys.stderr)
        return 2
    openings = make_openings(args.first_opening + args.openings, args.size, args.seed)
    openings = openings[args.first_opening:]
    games, points, forfeits = [], [], [0, 0]
    think = {"a": [], "b": []}
    for index, opening in enumerate(openings):
        for a_colour in (0, 1):
            commands = [args.a, args.b] if a_colour == 0 else [args.b, args.a]
            labels = [args.a_label, args.b_label] if a_colour == 0 else [args.b_label,
                                                                          args.a_label]
            black, reason, forfeit, moves, brains = play_game(commands, labels, opening, args)
            a_points = black if a_colour == 0 else 1.0 - black
            points.append(a_points)
            if forfeit is not None:
                forfeits[0 if forfeit == a_colour else 1] += 1
            think["a"] += brains[a_colour].think_ms
            think["b"] += brains[1 - a_colour].think_ms
            a_ms = brains[a_colour].think_ms
            b_ms = brains[1 - a_colour].think_ms
            game = {"opening": args.first_opening + index, "a_colour": "black" if a_colour == 0
                    else "white", "a_points": a_points, "reason": reason,
                    "forfeit": None if forfeit is None else labels[forfeit],
                    "plies": len(moves), "moves": moves,
                    "a_max_ms": round(max(a_ms), 1) if a_ms else 0,
                    "b_max_ms": round(max(b_ms), 1) if b_ms else 0,
                    "a_late": late_answers(a_ms, args.turn_ms),
                    "b_late": late_answers(b_ms, args.turn_ms),
                    "a_messages": brains[a_colour].messages,
                    "b_messages": brains[1 - a_colour].messages}
            games.append(game)
            print("opening %3d  A %s  A scores %.1f  %-28s plies %3d  max ms A %6.1f B %6.1f"
                  % (game["opening"], game["a_colour"], a_points, reason[:28], len(moves),
                     game["a_max_ms"], game["b_max_ms"]), flush=True)
    s = summary(points, forfeits, args.a_label, args.b_label)
    for who in ("a", "b"):
        ms = sorted(think[who])
        s[who + "_think_ms"] = {"mean": round(sum(ms) / len(ms), 1) if ms else 0,
                                "p99": round(ms[int(0.99 * (len(ms) - 1))], 1) if ms else 0,
                                "max": round(ms[-1], 1) if ms else 0,
                                "late": late_answers(ms, args.turn_ms)}
    s["settings"] = {"turn_ms": args.turn_ms, "match_ms": args.match_ms,
                     "grace_ms": args.grace_ms, "first_grace_ms": args.first_grace_ms,
                     "seed": args.seed, "size": args.size,
                     "openings": args.openings, "first_opening": args.first_opening}
    print("%s vs %s: %d games, A %d wins %d draws %d losses (A forfeits %d, B forfeits %d), "
          "A scores %.3f (95%% CI %.3f - %.3f, Wilson %.3f - %.3f); think ms mean/p99/max/late "
          "A %s B %s"
          % (s["a"], s["b"], s["games"], s["a_wins"], s["draws"], s["a_losses"],
             s["a_forfeits"], s["b_forfeits"], s["a_score"], s["ci95"][0], s["ci95"][1],
             s["wilson95"][0], s["wilson95"][1],
             "/".join(str(v) for v in s["a_think_ms"].values()),
             "/".join(str(v) for v in s["b_think_ms"].values())), flush=True)
    if args.json:
        with open(args.json, "w") as out:
            json.dump({"summary": s, "games": games}, out, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
