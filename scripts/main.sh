#!/usr/bin/env bash
# The README's main job, the whole product on real data: installs the Debian
# packages, builds, then
#   1. writes an untrained digits CNN (conv + batch_norm + pooling + fc) as a
#      Paddle model and scikit-learn's handwritten digits as .npz/.npy files,
#   2. compiles a train step of it (paddle-compile --train, Adam),
#   3. trains it natively with paddle-run --train (progress bar) and saves the
#      result as a Paddle inference model,
#   4. compiles that saved model for inference in fp32 and in int8
#      (calibrated on 100 training digits),
#   5. prints the test accuracy and batch-1 latency of each.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bash "$root/scripts/setup.sh"
bash "$root/scripts/build.sh" paddle-compile paddle-run pdrt paddle_mlir_python
build="${PADDLE_MLIR_BUILD_DIR:-$root/build}"
work="$build/main-job"
rm -rf "$work" && mkdir -p "$work"
py() { PYTHONPATH="$build/python" /usr/bin/python3 "$@"; }

echo "== 1. the untrained CNN as a Paddle model, and the digits"
py "$root/examples/train_digits/prepare.py" "$work"

echo "== 2. paddle-compile --train (Adam, lr 0.01, batch 50)"
"$build/bin/paddle-compile" "$work/digits_cnn" --train --loss-op softmax_with_cross_entropy \
  --label label --optimizer adam --lr 0.01 --input-shape x=50x1x8x8 -o "$work/train_step"

echo "== 3. paddle-run --train: 8 epochs over 1400 digits, saved as a Paddle model"
"$build/bin/paddle-run" "$work/train_step" --train "$work/train.npz" --epochs 8 \
  --save-params "$work/trained"

echo "== 4. the trained model compiled for inference: fp32, and int8 calibrated on 100 digits"
"$build/bin/paddle-compile" "$work/trained" -o "$work/fp32"
"$build/bin/paddle-compile" "$work/trained" --precision int8 \
  --calibration-data "$work/calibration" -o "$work/int8"

echo "== 5. test accuracy (397 held-out digits) and latency"
py "$root/examples/train_digits/evaluate.py" "$work" "$build/bin/paddle-run" \
  fp32="$work/fp32" int8="$work/int8"
