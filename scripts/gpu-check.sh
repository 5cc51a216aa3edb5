#!/usr/bin/env bash
# GPU check of cuda artifacts, in two halves (docs/GPU.md):
#   bash scripts/gpu-check.sh prepare [ARCH]   on the build machine (no GPU needed):
#       writes gpu-check-out/ (git-ignored, under 64 MiB to carry to a device
#       machine): cuda artifacts of an MLP, a small CNN, collectives (one
#       rank, host copies and NCCL), MobileNetV2 and a 2-layer BERT (these
#       two at batch 1 and 8) for ARCH (default sm_90),
#       inputs, reference outputs, the runtime, a runner that needs nothing
#       else and the zoo models' PyTorch originals, traced with their weights
#   bash scripts/gpu-check.sh run [DEVICE]     on a machine with the GPU ($PYTHON or python3, with
#       NumPy): runs each case on DEVICE (default cuda:0), compares it
#       with the reference, times it beside PyTorch eager where PyTorch is
#       installed and prints a table, then runs the NCCL backend's
#       collectives on the GPU; exits 1 on any mismatch or error
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
  sed -n '2,14p' "$0" >&2
  exit 2
  ;;
esac
