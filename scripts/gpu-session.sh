#!/usr/bin/env bash
# Several steps of scripts/gpu-check.sh in one device call, in the order given, each bounded to
# its own seconds and all of them to one deadline; the steps' logs go to a scratch folder and are
# packed into OUTDIR/gpu-check.tgz at the end (the device tool returns at most 8 files), with
# summary.txt beside it.
#
#   usage: scripts/gpu-session.sh OUTDIR DEADLINE_SECONDS STEP:SECONDS...
#   e.g.   scripts/gpu-session.sh "$OUT" 540 build:330 tests:100 bench:120
#          scripts/gpu-session.sh "$OUT" 540 prebuilt:30 build:330 tests:200 bench:150
#          (the build runs only where the bundle of scripts/gpu-bundle.sh does not)
set -uo pipefail
cd "$(dirname "$0")/.."
out=${1:?usage: scripts/gpu-session.sh OUTDIR DEADLINE_SECONDS STEP:SECONDS...}
deadline=${2:?deadline in seconds}
shift 2
logs=${TMPDIR:-/tmp}/gaeval-gpu-session
mkdir -p "$out" "$logs"
pack() {
    cp "$logs/summary.txt" "$out/" 2>/dev/null
    tar czf "$out/gpu-check.tgz" -C "$logs" . 2>/dev/null
}
trap pack EXIT
prebuilt_ok=0
for entry in "$@"; do
    step=${entry%%:*}
    want=${entry#*:}
    # A bundle that runs here makes the build unneeded (scripts/gpu-bundle.sh).
    if [ "$step" = build ] && ((prebuilt_ok)); then continue; fi
    left=$((deadline - SECONDS - 5))
    ((left < 20)) && { echo "gpu-session: no time left for $step" | tee -a "$logs/summary.txt"; break; }
    ((want > left)) && want=$left
    GAEVAL_STEP_SECONDS=$want scripts/gpu-check.sh "$step" "$logs"
    rc=$?
    echo "gpu-session: $step exit $rc at ${SECONDS}s" | tee -a "$logs/summary.txt"
    [ "$step" = prebuilt ] && ((rc == 0)) && prebuilt_ok=1
    if [ "$step" = build ] && ((rc != 0 && rc != 75)); then break; fi
    pack
done
