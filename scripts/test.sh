#!/usr/bin/env bash
# The README's test command: installs the Debian packages, builds, and runs every test
# (lit + FileCheck, GoogleTest through lit). Exits non-zero on any failure.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${PADDLE_MLIR_BUILD_DIR:-$root/build}"
start=$(date +%s)
bash "$root/scripts/setup.sh"
bash "$root/scripts/build.sh" all mlir-doc
built=$(date +%s)

set +e
/usr/lib/llvm-22/bin/lit -v "$build/test" "$build/test/Unit" 2>&1 | tee "$build/lit.log"
status=${PIPESTATUS[0]}
set -e

# Python tests (package from build/python, Debian's interpreter and pytest),
# spread over the cores with pytest-xdist (installed by setup.sh): one
# worker per core, at most 4 (each compiles models; memory, not cores,
# bounds it on big machines).
parallel=()
if /usr/bin/python3 -c "import xdist" 2>/dev/null; then
  cores=$(nproc)
  parallel=(-n "$((cores < 4 ? cores : 4))")
fi
set +e
PYTHONPATH="$build/python" PADDLE_MLIR_BUILD_DIR="$build" /usr/bin/python3 -m pytest -q "${parallel[@]}" \
  "$root/python/tests" 2>&1 | tee "$build/pytest.log"
pystatus=${PIPESTATUS[0]}
set -e

passed=$(grep -Eo '^ *Passed *: *[0-9]+' "$build/lit.log" | grep -Eo '[0-9]+' || echo 0)
failed=$(grep -E '^ *(Failed|Unresolved|Timed Out|Unexpectedly Passed) *: *[0-9]+' "$build/lit.log" |
  awk -F: '{ n += $2 } END { print n + 0 }' || true)
end=$(date +%s)
echo "build: $((built - start)) s, tests: $((end - built)) s"
echo "lit: ${passed} passed, ${failed} failed"
pyline=$(tail -n 1 "$build/pytest.log")
count() { echo "$pyline" | awk -v pat="$1" '{ for (i = 2; i <= NF; i++) if ($i ~ pat) n += $(i - 1) } END { print n + 0 }'; }
pypassed=$(count '^passed')
pyfailed=$(count '^(failed|errors?)')
[ "$pystatus" -eq 0 ] || [ "$pyfailed" -gt 0 ] || pyfailed=1
echo "total: $((passed + pypassed)) passed, $((failed + pyfailed)) failed"
if [ "$status" -ne 0 ] && [ "$failed" -eq 0 ]; then
  echo "lit exited with status $status" >&2
fi
[ "$status" -eq 0 ] || exit "$status"
exit "$pystatus"
