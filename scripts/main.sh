#!/usr/bin/env bash
# The README's main job: installs the Debian packages, builds, and runs the bundled
# example program through the graph pipeline (--pd-optimize), printing the result.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bash "$root/scripts/setup.sh"
bash "$root/scripts/build.sh" paddle-opt
build="${PADDLE_MLIR_BUILD_DIR:-$root/build}"
echo "== paddle-opt --pd-optimize examples/mobilenet_block.mlir"
"$build/bin/paddle-opt" --pd-optimize "$root/examples/mobilenet_block.mlir"
