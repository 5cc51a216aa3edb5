#!/usr/bin/env bash
# Configures (once) and builds paddle-mlir in ./build with Ninja against Debian's LLVM/MLIR 22.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${PADDLE_MLIR_BUILD_DIR:-$root/build}"
jobs="${PADDLE_MLIR_JOBS:-$(nproc)}"
# ccache keys on paths relative to the checkout, so other checkouts (git worktrees) share hits.
export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$root}"

# CI (a fresh clone, so a fresh configure) treats warnings in the project's sources as errors.
werror=OFF
if [ "${CI:-}" = "true" ]; then
  werror=ON
fi

if [ ! -f "$build/build.ninja" ]; then
  cmake -S "$root" -B "$build" -G Ninja \
    -DCMAKE_BUILD_TYPE=Release \
    -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir \
    -DLLVM_EXTERNAL_LIT=/usr/lib/llvm-22/bin/lit \
    -DPADDLE_MLIR_WERROR=$werror
fi
if [ $# -gt 0 ]; then
  cmake --build "$build" -j "$jobs" --target "$@"
else
  cmake --build "$build" -j "$jobs"
fi
