#!/usr/bin/env bash
# Packs a CUDA build made here (nvcc, no GPU needed) for the GPU machine, so that a device session
# spends its minutes on tests and measurements instead of the build (about 300 of its 900 s):
#
#   scripts/gpu-bundle.sh [BUILD_DIR]        (default build/cuda, configured with the cuda preset)
#
# writes build/prebuilt.tar.xz: gaeval and the test binaries (stripped), their ctest files, the
# shared libraries a bare machine may lack (Open MPI's and what they load; the C and C++ runtimes
# and OpenMP are the machine's own), and build/prebuilt.txt (the source folder, the build folder,
# the commit, the CUDA architectures, nvcc). Also build/deps.tar.xz from .deps/ (run
# `scripts/gpu-check.sh stage` first), the fallback build's dependencies: the device tool carries
# at most 64 MiB, too little for .deps/ beside the bundle unpacked.
#
# On the device, `scripts/gpu-check.sh prebuilt OUT` unpacks it, links the source folder the
# binaries name (ctest files and tests hold absolute paths) to the working copy, and runs one GPU
# test; the later steps then use it (docs/gpu-check.md). The binaries must come from the commit
# the device's working copy is at (the step refuses others): commit first, then build and pack.
set -euo pipefail
cd "$(dirname "$0")/.."
bdir=${1:-build/cuda}
cache=$bdir/CMakeCache.txt
[ -f "$cache" ] || { echo "gpu-bundle: no $cache (configure and build the cuda preset first)" >&2; exit 2; }
value() { sed -n "s/^$1:[A-Z]*=//p" "$cache" | head -1; }
source_dir=$(value CMAKE_HOME_DIRECTORY)
arch=$(value CMAKE_CUDA_ARCHITECTURES)
[ -n "$arch" ] || { echo "gpu-bundle: $bdir is not a CUDA build (no CMAKE_CUDA_ARCHITECTURES)" >&2; exit 2; }
[[ ",$arch," == *",90,"* || "$arch" == *90* ]] ||
    echo "gpu-bundle: note: built for CUDA architectures $arch (H100 and H200 are 90)" >&2
abs_bdir=$(cd "$bdir" && pwd -P)
src_real=$(cd "$source_dir" && pwd -P)
case $abs_bdir in "$src_real"/*) rel=${abs_bdir#"$src_real"/} ;;
*) echo "gpu-bundle: $bdir is not inside its source folder $source_dir" >&2; exit 2 ;;
esac
bins=(gaeval tests/gaeval_tests tests/gaeval_api_tests)
for b in "${bins[@]}"; do
    [ -x "$bdir/$b" ] || { echo "gpu-bundle: no $bdir/$b (build it first)" >&2; exit 2; }
done
commit=$(git -C "$source_dir" rev-parse HEAD)
[ -z "$(git -C "$source_dir" status --porcelain --untracked-files=no)" ] ||
    echo "gpu-bundle: note: $source_dir has uncommitted changes; the binaries are of them" >&2

stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/$rel/tests" "$stage/$rel/lib" "$stage/build"
for b in "${bins[@]}"; do strip -o "$stage/$rel/$b" "$bdir/$b"; done
cp "$bdir/CTestTestfile.cmake" "$stage/$rel/"
cp "$bdir"/tests/CTestTestfile.cmake "$bdir"/tests/*_include.cmake "$bdir"/tests/*_tests.cmake \
    "$stage/$rel/tests/"
# Libraries beyond the runtimes every machine with a compiler has.
base='^(linux-vdso|ld-linux|libc\.|libm\.|libstdc\+\+|libgcc_s|libgomp|libdl\.|libpthread|librt\.)'
for b in "${bins[@]}"; do ldd "$bdir/$b"; done | awk '$3 ~ /^\// {print $1, $3}' | sort -u |
    while read -r name path; do
        [[ $name =~ $base ]] || cp -L "$path" "$stage/$rel/lib/$name"
    done
{
    echo "source=$src_real"
    echo "build=$rel"
    echo "commit=$commit"
    echo "cuda_architectures=$arch"
    echo "nvcc=$(sed -n 's/^set(CMAKE_CUDA_COMPILER_VERSION "\(.*\)")/\1/p' \
        "$bdir"/CMakeFiles/*/CMakeCUDACompiler.cmake 2>/dev/null | head -1)"
    echo "date=$(date -u +%Y-%m-%dT%H:%M:%SZ)"
} >"$stage/build/prebuilt.txt"
mkdir -p build
tar cJf build/prebuilt.tar.xz -C "$stage" build/prebuilt.txt "$rel"
size=$(stat -c %s build/prebuilt.tar.xz)
echo "gpu-bundle: build/prebuilt.tar.xz $((size / 1048576)) MiB ($(ls "$stage/$rel/lib" | wc -l) libraries), commit ${commit:0:7}, architectures $arch"
if [ -d .deps ]; then
    tar cJf build/deps.tar.xz .deps
    echo "gpu-bundle: build/deps.tar.xz $(($(stat -c %s build/deps.tar.xz) / 1024)) KiB"
fi
# The device tool carries the working tree and the named paths, 64 MiB in all.
tree=$(git ls-files -z | du -cb --files0-from=- 2>/dev/null | tail -1 | cut -f1)
total=$((size + tree + $(stat -c %s build/deps.tar.xz 2>/dev/null || echo 0)))
if ((total > 64 * 1048576)); then
    echo "gpu-bundle: the bundle, deps.tar.xz and the working tree are $((total / 1048576)) MiB, more than the device tool's 64 MiB" >&2
    exit 1
fi
echo "gpu-bundle: carry build/prebuilt.tar.xz and build/deps.tar.xz ($((total / 1048576)) MiB with the working tree)"
