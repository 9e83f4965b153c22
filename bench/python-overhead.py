#!/usr/bin/env python3
"""Calling overhead of the Python module: GAPI1 fitness of 10^6 plans from Python
(gaeval.evaluate_gapi1, NumPy arrays in place) against the same C++ call timed inside C++, in one
run, same backend and threads, interleaved (A B A B ...), median of each. With --cli it also prints
`gaeval bench --what rules-pile-in`'s GAPI1 row for 10^6 plans of its own 20 v 20 scenario.
    PYTHONPATH=build/cpu/python /usr/bin/python3 bench/python-overhead.py [--threads T] [--cli BIN]
"""
import argparse
import os
import statistics
import subprocess
import time

import numpy as np

import gaeval
from gaeval import _gaeval


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--plans", type=int, default=1_000_000)
    ap.add_argument("--threads", type=int, default=0)
    ap.add_argument("--rounds", type=int, default=15)
    ap.add_argument("--scenario", default="line_20v20")
    ap.add_argument("--cli", help="path of the gaeval binary, to print its bench row too")
    a = ap.parse_args()
    backend = gaeval.Backend.cpu(a.threads)
    scenario = gaeval.PileInScenario.load(a.scenario)
    rng = np.random.default_rng(17)
    half = gaeval.move_scale() // 2
    d = rng.integers(-half, half + 1, size=(2, a.plans, scenario.genes_per_plan), dtype=np.int32)
    genes = (d[0].astype(np.uint32) & 0xFFFF) | ((d[1].astype(np.uint32) & 0xFFFF) << 16)
    out = np.empty(a.plans, dtype=np.float32)
    gaeval.evaluate_gapi1(backend, scenario, genes, out=out)  # warm-up
    py_s, cpp_s = [], []
    for _ in range(a.rounds):
        t0 = time.perf_counter()
        gaeval.evaluate_gapi1(backend, scenario, genes, out=out)
        py_s.append(time.perf_counter() - t0)
        cpp_s.append(_gaeval._time_evaluate_gapi1_in_cpp(backend, scenario, genes, out, 1)[0])
    py, cpp = statistics.median(py_s), statistics.median(cpp_s)
    print(f"machine: {backend.device}; load average {os.getloadavg()[0]:.2f}")
    print(f"{a.plans} plans of {scenario.name} ({scenario.genes_per_plan} models), "
          f"{a.rounds} interleaved rounds, median:")
    print(f"  from Python  {py * 1e3:8.2f} ms  {a.plans / py / 1e6:7.2f} M plans/s")
    print(f"  inside C++   {cpp * 1e3:8.2f} ms  {a.plans / cpp / 1e6:7.2f} M plans/s")
    print(f"  Python / C++ {py / cpp:.4f}  (min {min(py_s) / min(cpp_s):.4f})")
    if a.cli:
        # `--backend cpu` is every core: compare with --threads 0 (the default here).
        r = subprocess.run([a.cli, "bench", "--what", "rules-pile-in", "--population",
                            str(a.plans), "--models", "20", "--backend", "cpu"],
                           capture_output=True, text=True)
        rows = [line for line in r.stdout.splitlines() if "gapi1" in line.lower()]
        print("gaeval bench (its own 20 v 20 scenario, the population's gene-major layout):")
        for line in rows or r.stdout.splitlines()[-5:] or [r.stderr.strip()]:
            print("  " + line)


if __name__ == "__main__":
    main()
