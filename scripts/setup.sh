#!/usr/bin/env bash
# Installs every Debian package the project needs (DESIGN.md section 2). Idempotent.
set -euo pipefail

PKGS=(
  # build
  cmake ninja-build g++ ccache git
  # MLIR + LLVM 22
  llvm-22-dev libmlir-22-dev mlir-22-tools llvm-22-tools
  # formats
  protobuf-compiler libprotobuf-dev libonnx-dev libonnx-testdata
  # kernels
  libdnnl-dev
  # the runtime's manifest.json reader (header-only)
  nlohmann-json3-dev
  # benchmarks: an optimized BLAS for the PyTorch peer (benchmarks/peers.py)
  libopenblas0-openmp
  # tests
  libgtest-dev
  # python
  python3-dev python3-numpy python3-protobuf python3-pytest pybind11-dev
  # the Python tests on every core (pytest -n)
  python3-pytest-xdist
  # CPU collectives
  libopenmpi-dev openmpi-bin
  # oracles (tests only)
  python3-torch python3-torchvision python3-onnx
  # real data for accuracy tests: handwritten digits, sample photos
  python3-sklearn python3-skimage
  # fuzzing (clang 14 + libFuzzer runtime)
  clang-14 libclang-rt-14-dev
  # memory checking of the runtime
  valgrind
)

missing=()
for p in "${PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all ${#PKGS[@]} packages already installed"
  exit 0
fi

SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
echo "setup: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
