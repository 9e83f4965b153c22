#!/usr/bin/env bash
# OpenMP wait policy on a shared machine: a GAPI1 pile-in (20v20, 2000 plans, 200 generations)
# with OMP_WAIT_POLICY=PASSIVE (gaeval's default) and ACTIVE (spinning), 1 and 2 threads, three
# repetitions. Prints: label, repetition, policy, threads, wall s, user s, sys s, load averages.
# usage: scripts/measure-omp-wait.sh GAEVAL LABEL   (run from the repository root)
set -euo pipefail
g=$1; label=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for rep in 1 2 3; do
for policy in PASSIVE ACTIVE; do
  for t in 1 2; do
    rm -rf "$tmp/run"
    s=$( { /usr/bin/time -f "%e %U %S" env OMP_WAIT_POLICY=$policy $g pile-in --scenario scenarios/line_20v20.json --population 2000 --generations 200 --threads $t --quiet --out "$tmp/run" > /dev/null; } 2>&1 | tail -1)
    echo "$label $rep $policy $t $s $(cut -d' ' -f1-3 /proc/loadavg)"
  done
done
done
