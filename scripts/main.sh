#!/usr/bin/env bash
# The README's main job: installs the Debian packages, builds, writes the zoo's
# MobileNetV2 (torchvision weights) as a Paddle model, compiles it ahead of time,
# runs it on a sample input with the plain C example (top-5) and times it with
# paddle-run (min/median/p90).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bash "$root/scripts/setup.sh"
bash "$root/scripts/build.sh" paddle-compile paddle-run pdrt paddle_mlir_python
build="${PADDLE_MLIR_BUILD_DIR:-$root/build}"
work="$build/main-job"
rm -rf "$work" && mkdir -p "$work"

echo "== writing the zoo MobileNetV2 as a Paddle model"
PYTHONPATH="$build/python" /usr/bin/python3 -m paddle_mlir.zoo mobilenet_v2 "$work/mobilenet_v2"
echo "== paddle-compile"
"$build/bin/paddle-compile" "$work/mobilenet_v2" -o "$work/artifact"
ls -l "$work/artifact"
echo "== top-5 with the C example (examples/c/classify.c, input pattern x[i] = (i % 251) / 251)"
cc -O2 -I "$work/artifact" -I "$root/include/PaddleMLIR/Runtime" -o "$work/classify" \
  "$root/examples/c/classify.c" -L "$build/lib" -lpdrt -Wl,-rpath,"$build/lib"
"$work/classify" "$work/artifact"
echo "== latency with paddle-run (batch 1, 10 runs after 2 warm-up runs)"
PYTHONPATH="$build/python" /usr/bin/python3 -c \
  "import numpy as np; np.save('$work/image.npy', np.random.RandomState(0).rand(1, 3, 224, 224).astype('float32'))"
"$build/bin/paddle-run" "$work/artifact" --input image="$work/image.npy" --iterations 10 --warmup 2
