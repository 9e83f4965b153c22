#!/usr/bin/env bash
# Registers, stack, spills and theoretical occupancy of every CUDA kernel, read from the
# compiler (ptxas -v); no GPU needed. Each kernels/*.cu file and each play unit generated from
# games/games.cmake (build/cuda/generated/kernels/batch_play_<unit>.cu) is compiled once more
# with the flags of the `cuda` preset's compile_commands.json plus `-Xptxas -v` (through ccache
# when CMAKE_CUDA_COMPILER_LAUNCHER or CCACHE_DIR is set, so a rerun over unchanged sources is
# quick), and the kernels of its log are printed as one markdown table on stdout.
#
#   usage: scripts/kernel-resources.sh [--bar] [FILE.cu | UNIT ...]   (default: every kernel file)
#   UNIT: a play unit of games/games.cmake by name: tictactoe, ataxx_square7 (or
#   batch_play_tictactoe); FILE.cu: a path (kernels/batch_perft.cu)
#
# --bar: after the table, one line per non-search playout kernel (a play op of PlayerSet::Playout
#   or PlayerSet::Weighted, any shape, or a batch op's rollout) over issue 30's bar (more than 64
#   registers, or any stack), the count of those checked, and exit status 1 when one is over.
#
# Environment: GAEVAL_KERNEL_LOGS=DIR keeps the ptxas logs there (default: a temporary folder);
# GAEVAL_KERNEL_BLOCK (default 256, for_each_index's block) is the block size the occupancy
# assumes. Occupancy is the register limit of sm_90 (65536 registers and 64 warps per
# multiprocessor, registers allocated per warp in units of 256, at most 32 blocks); static shared
# memory is not a limit for these kernels (the table prints it); a kernel with per-thread
# scratch in dynamic shared memory (index_range_scratch_kernel) is also limited by 228 KB a
# multiprocessor, 1 KB reserved a block.
# Compiling one play unit takes minutes (the searching kernels); on a busy machine
# name the files you changed.
set -uo pipefail
cd "$(dirname "$0")/.."
bar=0
if [ "${1:-}" = "--bar" ]; then bar=1; shift; fi
block=${GAEVAL_KERNEL_BLOCK:-256}
commands=build/cuda/compile_commands.json
generated=build/cuda/generated/kernels
# Configure first when there is no build yet or the game list changed since (the play units are
# generated at configure time).
if ! [ -f "$commands" ] || [ games/games.cmake -nt "$commands" ]; then
    cmake --preset cuda >/dev/null || { echo "kernel-resources: cmake --preset cuda failed" >&2; exit 2; }
fi
[ -f "$commands" ] || { echo "kernel-resources: no $commands (is nvcc installed?)" >&2; exit 2; }
logs=${GAEVAL_KERNEL_LOGS:-$(mktemp -d)}
mkdir -p "$logs" || { echo "kernel-resources: cannot create $logs" >&2; exit 2; }
if [ $# -gt 0 ]; then files=("$@"); else files=(kernels/*.cu "$generated"/batch_play_*.cu); fi
for i in "${!files[@]}"; do
    f=${files[$i]}
    if ! [ -f "$f" ]; then
        unit=${f#batch_play_}
        if [[ "$f" != */* ]] && [ -f "$generated/batch_play_${unit%.cu}.cu" ]; then
            files[$i]=$generated/batch_play_${unit%.cu}.cu
        else
            echo "kernel-resources: no file or play unit $f (units: games/games.cmake)" >&2
            exit 2
        fi
    fi
done

launcher=${CMAKE_CUDA_COMPILER_LAUNCHER:-}
status=0
for f in "${files[@]}"; do
    name=$(basename "$f" .cu)
    # The file's compile command, its object sent to the log folder, ptxas made verbose.
    cmd=$(python3 - "$commands" "$f" "$logs/$name.o" <<'EOF'
import json, os, shlex, sys
entries = json.load(open(sys.argv[1]))
for e in entries:
    if os.path.realpath(e["file"]) == os.path.realpath(sys.argv[2]):
        args = shlex.split(e["command"])
        if "-o" in args:
            args[args.index("-o") + 1] = sys.argv[3]
        if args and args[0].endswith("ccache"):
            args = args[1:]
        print(shlex.join(args + ["-Xptxas", "-v"]))
        break
EOF
)
    if [ -z "$cmd" ]; then
        echo "kernel-resources: $f is not in $commands" >&2
        status=1
        continue
    fi
    echo "kernel-resources: compiling $f" >&2
    if ! (cd build/cuda && eval "$launcher $cmd") >"$logs/$name.log" 2>&1; then
        echo "kernel-resources: $f did not compile (log: $logs/$name.log)" >&2
        status=1
    fi
done

python3 - "$logs" "$block" "$bar" "${files[@]}" <<'EOF' || status=1
import os, re, subprocess, sys
logs, block, bar, files = sys.argv[1], int(sys.argv[2]), sys.argv[3] == "1", sys.argv[4:]

def demangle(name):
    try:
        return subprocess.run(["c++filt", name], capture_output=True, text=True).stdout.strip()
    except OSError:
        return name

def short(pretty):
    # for_each_index_kernel<gaeval::cuda::batch_play_detail::PlayMatchOp<G, true>> -> the op
    # (the executor's kernels, kernels/executor.cuh: index_range[_bounded]_kernel, lane groups
    # as InLaneGroups<L, op>, printed as "op (L lanes)")
    m = re.search(r"(?:for_each_index|index_range)_kernel<(.*)>\(", pretty)
    bounded = re.search(r"(?:for_each_index|index_range)_bounded_kernel<(.*), (\d+)>\(", pretty)
    scratch = re.search(r"index_range_scratch_kernel<(.*), (\d+), (\d+)>\(", pretty)
    if scratch:
        inner = (scratch.group(1) + " (launch bounds: 256 x " + scratch.group(3) + ", scratch: " +
                 scratch.group(2) + " bytes a thread)")
    elif bounded:
        inner = bounded.group(1) + " (launch bounds: 256 x " + bounded.group(2) + ")"
    else:
        inner = m.group(1) if m else pretty.split("(")[0]
    inner = inner.replace("gaeval::cuda::", "").replace("gaeval::", "")
    inner = re.sub(r"batch_play_detail::|perft_detail::|pile_in_detail::|batch_ops::", "", inner)
    lanes = re.fullmatch(r"executor_detail::InLaneGroups<(\d+), (.*)>", inner.strip())
    if lanes:
        inner = lanes.group(2).strip() + " (" + lanes.group(1) + " lanes)"
    for value, name in (("0", "Playout"), ("1", "Weighted"), ("2", "Search")):
        inner = inner.replace("(PlayerSet)" + value, "PlayerSet::" + name)
    return inner.replace("|", "\\|").strip()

def occupancy(regs, scratch=0):
    warps_per_block = (block + 31) // 32
    per_warp = ((max(regs, 1) * 32 + 255) // 256) * 256
    warps_by_regs = 65536 // per_warp
    blocks = min(warps_by_regs // warps_per_block, 64 // warps_per_block, 32)
    if scratch:  # dynamic shared memory: 228 KB a multiprocessor, 1 KB reserved a block
        blocks = min(blocks, 233472 // (block * scratch + 1024))
    return 100.0 * blocks * warps_per_block / 64

print(f"| file | kernel | registers | stack (bytes, cumulative) | spill stores/loads (bytes) | shared (bytes) | theoretical occupancy (block {block}) |")
print("|---|---|---:|---:|---:|---:|---:|")
checked = []  # (file, kernel, registers, stack) of the non-search playouts, for --bar
for f in files:
    name = os.path.basename(f)[:-3]
    path = os.path.join(logs, name + ".log")
    if not os.path.exists(path):
        continue
    kernel = current = None
    props = {}
    rows = []
    for line in open(path, errors="replace"):
        m = re.search(r"Compiling entry function '([^']+)'", line)
        if m:
            kernel = m.group(1)
            continue
        m = re.search(r"Function properties for (\S+)", line)
        if m:
            current = m.group(1)
            continue
        m = re.search(r"(\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads", line)
        if m and kernel and current == kernel:
            props = {"stack": int(m.group(1)), "stores": int(m.group(2)), "loads": int(m.group(3))}
            continue
        m = re.search(r"Used (\d+) registers", line)
        if m and kernel:
            regs = int(m.group(1))
            smem = re.search(r"(\d+) bytes smem", line)
            cumulative = re.search(r"(\d+) bytes cumulative stack size", line)
            stack = int(cumulative.group(1)) if cumulative else props.get("stack", 0)
            rows.append((short(demangle(kernel)), regs, stack,
                         f"{props.get('stores', 0)}/{props.get('loads', 0)}",
                         int(smem.group(1)) if smem else 0))
            kernel, props = None, {}
    for k, regs, stack, spill, smem in sorted(rows):
        scratch = re.search(r"scratch: (\d+) bytes a thread", k)
        occ = occupancy(regs, int(scratch.group(1)) if scratch else 0)
        print(f"| {name} | `{k}` | {regs} | {stack} | {spill} | {smem} | {occ:.1f}% |")
        if re.search(r"PlayerSet::(Playout|Weighted)\b|RolloutOp\b", k):
            checked.append((name, k, regs, stack))

if bar:
    over = [c for c in checked if c[2] > 64 or c[3] > 0]
    print()
    print(f"Non-search playout kernels: {len(checked)}, over the bar (more than 64 registers or any "
          f"stack): {len(over)}")
    for name, k, regs, stack in over:
        print(f"- over: {name} `{k}`: {regs} registers, {stack} bytes of stack")
    sys.exit(1 if over else 0)
EOF
exit $status
