#!/usr/bin/env bash
# Builds the libFuzzer targets with clang 14 (ASan + UBSan) and runs each for
# a time budget. Crashing inputs land in test/Fuzz/regressions/<target>/ and
# are replayed by the test suite (test/Fuzz/regressions.test).
#   scripts/fuzz.sh [SECONDS_PER_TARGET] [TARGET...]   (default 200 s; all targets)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${PADDLE_MLIR_BUILD_DIR:-$root/build}"
secs="${1:-200}"
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(fuzz_program fuzz_params fuzz_import)
out="$build/fuzz"
mkdir -p "$out"
bash "$root/scripts/build.sh" PaddleMLIRPaddleFrontend
gen="$build/lib/Frontend/Paddle"
flags=(-std=c++17 -O1 -g -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined
       -I"$root/include" -I"$build/include" -I"$gen" -isystem /usr/lib/llvm-22/include)
fmt_srcs=("$root/lib/Frontend/Paddle/PaddleFormat.cpp" "$gen/framework.pb.cc")
for t in "${targets[@]}"; do
  srcs=("$root/test/Fuzz/$t.cpp" "${fmt_srcs[@]}")
  libs=(-lprotobuf)
  if [ "$t" = fuzz_import ]; then
    srcs+=("$root/lib/Frontend/Paddle/PaddleImport.cpp" "$root"/lib/Dialect/Pd/IR/*.cpp)
    libs+=(-L/usr/lib/llvm-22/lib -lMLIR -lLLVM -Wl,-rpath,/usr/lib/llvm-22/lib)
  fi
  echo "== building $t"
  clang++-14 "${flags[@]}" "${srcs[@]}" "${libs[@]}" -o "$out/$t"
  corpus="$out/corpus-$t"
  mkdir -p "$corpus" "$root/test/Fuzz/regressions/$t"
  # Seeds: the real and zoo-like models, so mutations start from valid files.
  for f in "$root"/../shared/models/paddle/*/*.pdmodel "$root"/../shared/models/paddle/*/__model__; do
    [ -f "$f" ] && [ "$t" != fuzz_params ] && cp "$f" "$corpus/" || true
  done
  for f in "$root"/../shared/models/paddle/*/*.pdiparams; do
    [ -f "$f" ] && [ "$t" = fuzz_params ] && cp "$f" "$corpus/" || true
  done
  echo "== running $t for $secs s"
  (cd "$out" && "./$t" -max_total_time="$secs" -timeout=10 -rss_limit_mb=4096 \
      -artifact_prefix="$root/test/Fuzz/regressions/$t/" "$corpus" 2>&1 | tail -n 15) || true
done
