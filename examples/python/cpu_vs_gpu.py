"""The same GAPI1 batch on the CPU and on the GPU: the fitness bits must agree, and the times
compare. Without a usable CUDA device it prints "no GPU: skipped".
    PYTHONPATH=build/cpu/python /usr/bin/python3 examples/python/cpu_vs_gpu.py
"""
import time

import numpy as np

import gaeval


def timed(backend, scenario, genes):
    gaeval.evaluate_gapi1(backend, scenario, genes[:1024])  # warm-up (threads, CUDA context)
    t0 = time.perf_counter()
    fitness = gaeval.evaluate_gapi1(backend, scenario, genes)
    return fitness, time.perf_counter() - t0


def main(n=1 << 20):
    usable, why = gaeval.Backend.cuda_available()
    if not usable:
        print(f"no GPU: skipped ({why})")
        return
    scenario = gaeval.PileInScenario.load("line_20v20")
    rng = np.random.default_rng(5)
    scale = gaeval.move_scale() // 2  # |dx|, |dy| <= scale / 2: always inside the limit
    d = rng.integers(-scale, scale + 1, size=(2, n, scenario.genes_per_plan), dtype=np.int32)
    genes = (d[0].astype(np.uint32) & 0xFFFF) | ((d[1].astype(np.uint32) & 0xFFFF) << 16)
    cpu, cpu_s = timed(gaeval.Backend.cpu(), scenario, genes)
    gpu, gpu_s = timed(gaeval.Backend.cuda(), scenario, genes)
    same = cpu.tobytes() == gpu.tobytes()
    print(f"{n} plans of {scenario.name}: cpu {n / cpu_s / 1e6:.1f} M plans/s, "
          f"cuda {n / gpu_s / 1e6:.1f} M plans/s (with copies); same bits: {same}")
    if not same:
        raise SystemExit("cpu and cuda fitness differ")


if __name__ == "__main__":
    main()
