"""pytest setup: the package is imported from the build tree (build/python)."""
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BUILD_PY = os.path.join(os.environ.get("PADDLE_MLIR_BUILD_DIR", os.path.join(ROOT, "build")), "python")
if BUILD_PY not in sys.path:
    sys.path.insert(0, BUILD_PY)
# The stand-ins of the CUDA libraries (test/e2e/Inputs/stand_ins.py).
INPUTS = os.path.join(ROOT, "test", "e2e", "Inputs")
if INPUTS not in sys.path:
    sys.path.append(INPUTS)
