#!/usr/bin/env bash
# Stages the dependencies the build needs into .deps/ (git-ignored) for a machine that has
# nvcc, cmake and ninja but no Debian -dev packages and no network (the GPU machine):
#   .deps/include/{Random123/, cxxopts.hpp, nlohmann/}   header-only libraries
#   .deps/googletest/                                    GoogleTest sources (built there)
# Configure there with -DGAEVAL_DEPS_DIR=$PWD/.deps (scripts/gpu-check.sh does).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
rm -rf .deps
mkdir -p .deps/include
cp -r /usr/include/Random123 .deps/include/
cp /usr/include/cxxopts.hpp .deps/include/
cp -r /usr/include/nlohmann .deps/include/
cp -r /usr/src/googletest .deps/googletest
du -sh .deps | sed 's/^/stage-deps: /'
