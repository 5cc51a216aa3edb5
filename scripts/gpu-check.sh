#!/usr/bin/env bash
# GPU check of cuda artifacts, in two halves (docs/GPU.md):
#   bash scripts/gpu-check.sh prepare [ARCH]   on the build machine (no GPU needed):
#       writes gpu-check-out/ (git-ignored, small enough to carry to a device
#       machine): cuda artifacts of an MLP, a small CNN, MobileNetV2 and a
#       2-layer BERT for ARCH (default sm_90), inputs, reference outputs, the
#       runtime and a runner that needs nothing else
#   bash scripts/gpu-check.sh run [DEVICE]     on a machine with the GPU ($PYTHON or python3, with
#       NumPy): runs each case on DEVICE (default cuda:0), compares it
#       with the reference and prints a table; exits 1 on any mismatch or error
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=gpu-check-out
case "${1:-}" in
prepare)
  PYTHONPATH=build/python PADDLE_MLIR_BUILD_DIR=build /usr/bin/python3 scripts/gpu-check/prepare.py "$OUT" "${2:-sm_90}"
  ;;
run)
  "${PYTHON:-python3}" "$OUT/check.py" "$OUT" "${2:-cuda:0}"
  ;;
*)
  sed -n '2,11p' "$0" >&2
  exit 2
  ;;
esac
