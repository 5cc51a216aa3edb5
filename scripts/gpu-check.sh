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
  mkdir -p "$DRY/stand-ins"
  for f in fake_libcuda:PADDLE_MLIR_CUDA_DRIVER fake_cudnn:PADDLE_MLIR_CUDNN \
           fake_cublaslt:PADDLE_MLIR_CUBLASLT fake_cudart:PADDLE_MLIR_CUDART_LIBRARY \
           fake_nccl:PADDLE_MLIR_NCCL_LIBRARY; do
    cc -shared -fPIC -O2 -o "$DRY/stand-ins/lib${f%%:*}.so" "test/e2e/Inputs/${f%%:*}.c"
    export "${f#*:}=$DRY/stand-ins/lib${f%%:*}.so"
  done
  # The runtime's buffers count as device memory for the CUDA runtime stand-in.
  FAKE_CUDART_ALL_DEVICE=1 /usr/bin/python3 "$DRY/check.py" "$DRY" cuda:0 2
  ;;
*)
  sed -n '2,19p' "$0" >&2
  exit 2
  ;;
esac
