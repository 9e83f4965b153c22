#!/usr/bin/env bash
# Installs what gaeval builds with, from Debian's packages, when missing. Idempotent.
# The CUDA toolkit is not a Debian package here: when /usr/local/cuda/bin/nvcc exists the
# CUDA backend is built too, otherwise the CPU backend alone.
#   usage: scripts/setup.sh [--fuzz]   (--fuzz: clang and its sanitizer runtimes, for
#                                      scripts/fuzz.sh's libFuzzer targets)
set -euo pipefail
# libopenmpi-dev, openmpi-bin: islands over MPI (GAEVAL_MPI=AUTO builds them when found).
# pybind11-dev .. python3-pytest: the Python module (GAEVAL_PYTHON=AUTO builds it when found).
packages=(cmake ninja-build g++ libgtest-dev libcxxopts-dev nlohmann-json3-dev librandom123-dev
          libopenmpi-dev openmpi-bin pybind11-dev python3-pybind11 python3-dev python3-numpy
          python3-pytest)
case ${1:-} in
"") ;;
--fuzz) packages=(clang-14 libclang-rt-14-dev) ;;
*) echo "usage: scripts/setup.sh [--fuzz]" >&2; exit 2 ;;
esac
missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
    echo "setup: installing ${missing[*]}" >&2
    sudo_cmd=()
    [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
    export DEBIAN_FRONTEND=noninteractive
    "${sudo_cmd[@]}" apt-get update -qq
    "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
