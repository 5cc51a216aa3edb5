#!/usr/bin/env bash
# Builds the libFuzzer targets of test/Fuzz in a separate build folder
# (build-fuzz: clang 14, -DPADDLE_MLIR_FUZZ=ON, every project source with
# libFuzzer coverage + ASan/UBSan) and runs each, one process, for a time
# budget. Crashing inputs land in test/Fuzz/regressions/<target>/ and are
# replayed by the unit tests (FuzzRegressions.*).
#   scripts/fuzz.sh [SECONDS_PER_TARGET] [TARGET...]   (default 200 s; all targets)
# Targets: fuzz_program fuzz_params fuzz_import fuzz_export fuzz_compile.
# PADDLE_MLIR_FUZZ_BUILD_DIR overrides the build folder; PADDLE_MLIR_JOBS the
# build's parallelism; extra libFuzzer flags go in PADDLE_MLIR_FUZZ_FLAGS.
# PADDLE_MLIR_FUZZ_PREBUILT=DIR (e.g. build) makes fuzz_compile link DIR's
# uninstrumented pass libraries, built there first: much faster to build on
# a small machine, but the passes then give libFuzzer no coverage
# (test/Fuzz/CMakeLists.txt).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${PADDLE_MLIR_FUZZ_BUILD_DIR:-$root/build-fuzz}"
jobs="${PADDLE_MLIR_JOBS:-$(nproc)}"
secs="${1:-200}"
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(fuzz_program fuzz_params fuzz_import fuzz_export fuzz_compile)

if [ ! -f "$build/build.ninja" ]; then
  # Assertions on (no NDEBUG), so LLVM's cast<> checks fire too; -O0 and line
  # tables only, because the instrumented build of the whole compiler is slow
  # on small machines (the time of a run goes to the uninstrumented libMLIR).
  cmake -S "$root" -B "$build" -G Ninja \
    -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_FLAGS_RELEASE=-O0 -DCMAKE_C_FLAGS_RELEASE=-O0 \
    -DCMAKE_C_COMPILER=clang-14 -DCMAKE_CXX_COMPILER=clang++-14 \
    -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir \
    -DLLVM_EXTERNAL_LIT=/usr/lib/llvm-22/bin/lit \
    -DPADDLE_MLIR_FUZZ=ON
fi
# Set (even empty), PADDLE_MLIR_FUZZ_PREBUILT changes the folder's choice;
# unset, the folder keeps the one it was configured with.
if [ -n "${PADDLE_MLIR_FUZZ_PREBUILT+set}" ]; then
  prebuilt="$PADDLE_MLIR_FUZZ_PREBUILT"
  if [ -n "$prebuilt" ]; then
    prebuilt="$(cd "$prebuilt" && pwd)"
    PADDLE_MLIR_BUILD_DIR="$prebuilt" bash "$root/scripts/build.sh" PaddleMLIRArtifact
  fi
  cmake -S "$root" -B "$build" -DPADDLE_MLIR_FUZZ_PREBUILT="$prebuilt" >/dev/null
fi
cmake --build "$build" -j "$jobs" --target "${targets[@]}"

# Seeds: the real programs (and, for fuzz_params, parameter files), so
# mutations start from valid files. fuzz_export takes a program after a
# mode byte (even: a raw program); fuzz_compile's inputs are generator
# choices and start from an empty corpus.
seed() {
  local t="$1" corpus="$2" f i=0
  local progs=("$root"/../shared/models/paddle/*/*.pdmodel "$root"/../shared/models/paddle/*/__model__
               "$root"/../shared/corpus/*/*.pdmodel "$root"/../shared/corpus/*/__model__
               "$root"/../shared/corpus/*/model)
  case "$t" in
    fuzz_params)
      for f in "$root"/../shared/models/paddle/*/*.pdiparams; do
        [ -f "$f" ] && cp "$f" "$corpus/" || true
      done ;;
    fuzz_program|fuzz_import)
      for f in "${progs[@]}"; do
        [ -f "$f" ] && cp "$f" "$corpus/$i-$(basename "$f")" && i=$((i + 1)) || true
      done ;;
    fuzz_export)
      for f in "${progs[@]}"; do
        [ -f "$f" ] && { printf '\0'; cat "$f"; } > "$corpus/$i-$(basename "$f")" && i=$((i + 1)) || true
      done ;;
  esac
}

for t in "${targets[@]}"; do
  corpus="$build/fuzz/corpus-$t"
  mkdir -p "$corpus" "$root/test/Fuzz/regressions/$t"
  seed "$t" "$corpus"
  echo "== running $t for $secs s"
  # shellcheck disable=SC2086
  (cd "$build/fuzz" && "./$t" -max_total_time="$secs" -timeout=30 -rss_limit_mb=4096 \
      -print_final_stats=1 -report_slow_units=100000 -artifact_prefix="$root/test/Fuzz/regressions/$t/" \
      ${PADDLE_MLIR_FUZZ_FLAGS:-} "$corpus" > "$build/fuzz/$t.log" 2>&1) || true
  # The last coverage line, the stats and any report (the whole run: $t.log).
  grep '^#[0-9]' "$build/fuzz/$t.log" | tail -n 1 || true
  grep -v '^#[0-9]\|^\[libprotobuf' "$build/fuzz/$t.log" | tail -n 25
done
