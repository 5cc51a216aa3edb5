"""Writes every op of Paddle2ONNX's list (python/tests/op_list.py) into one
Paddle program: make_op_list_model.py TESTS_DIR OUT_DIR [INPUTS.npz]."""
import sys

import numpy as np

sys.path.insert(0, sys.argv[1])
import op_list  # noqa: E402
import op_list_nn  # noqa: E402,F401  (registers the rest of the cases)

inputs = op_list.one_program(op_list.op_types(), sys.argv[2])
if len(sys.argv) > 3:
    np.savez(sys.argv[3], **inputs)
