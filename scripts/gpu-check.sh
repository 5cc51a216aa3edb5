#!/usr/bin/env bash
# GPU check of cuda artifacts, in two halves (docs/GPU.md):
#   bash scripts/gpu-check.sh prepare [ARCH]   on the build machine (no GPU needed):
#       writes gpu-check-out/ (git-ignored, ~55 MiB of the 64 a device call carries): cuda
#       artifacts for ARCH (default sm_90) of an MLP, a small CNN, collectives (one rank, host
#       copies and NCCL), and at batch 1 and 8 MobileNetV2, ResNet-50 a quarter as wide, a
#       2-layer BERT and ../shared/models' MobileNetV1 (simple_model at batch 1; both skipped,
#       saying so, where that folder is missing), inputs, references (the CPU artifact's), the
#       runtime, a runner and the zoo models' PyTorch originals (reading the artifacts' weights)
#   bash scripts/gpu-check.sh run [DEVICE]     on a machine with the GPU ($PYTHON or python3, with
#       NumPy): runs each case on DEVICE (default cuda:0), a match when each output's max
#       |gpu - ref| <= 1e-3 * max |ref|, beside PyTorch eager on the same weights where PyTorch
#       is installed ("n/a" and why with no PyTorch original, as for the Paddle models), prints
#       a table, runs the NCCL backend's collectives on the GPU; exits 1 on a mismatch or error
#   bash scripts/gpu-check.sh dry-run [ARCH]   on the build machine: the same with the kernels
#       emulated on the host (paddle-compile --cuda-emulate) and the CUDA libraries replaced by
#       the tests' stand-ins (test/e2e/Inputs, built with cc), into gpu-check-dry-run/
#       (or $GPU_CHECK_DRY_RUN_DIR): checks
#       the artifacts, the runner and check.py before a GPU session spends its time on them
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
dry-run)
  DRY=$(realpath -m "${GPU_CHECK_DRY_RUN_DIR:-gpu-check-dry-run}")
  PYTHONPATH=build/python PADDLE_MLIR_BUILD_DIR=build /usr/bin/python3 scripts/gpu-check/prepare.py "$DRY" "${2:-sm_90}" --emulate
  # The stand-ins of the CUDA driver, cuDNN, cuBLASLt, CUDA runtime and NCCL.
  libs=$(/usr/bin/python3 test/e2e/Inputs/stand_ins.py "$DRY/stand-ins")
  while IFS= read -r assignment; do
    export "$assignment"
  done <<<"$libs"
  # The runtime's buffers count as device memory for the CUDA runtime stand-in.
  FAKE_CUDART_ALL_DEVICE=1 /usr/bin/python3 "$DRY/check.py" "$DRY" cuda:0 2
  ;;
*)
  sed -n '2,19p' "$0" >&2
  exit 2
  ;;
esac
