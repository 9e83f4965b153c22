#!/usr/bin/env bash
# Exit 0 when this machine can run the CUDA backend: `nvidia-smi -L` lists a GPU and nvcc exists
# (on PATH or /usr/local/cuda/bin). Used by scripts/test.sh and scripts/demo.sh to choose their
# preset: a machine without a GPU builds the CPU backend alone.
if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L 2>/dev/null | grep -q GPU &&
    { command -v nvcc >/dev/null 2>&1 || [ -x /usr/local/cuda/bin/nvcc ]; }; then
    exit 0
fi
exit 1
