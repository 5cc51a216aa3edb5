"""Writes a Fluid 1.x program using the forms of ops that 2.x replaced:
reshape, transpose, squeeze, unsqueeze, flatten, crop, one_hot, and a
conv2d with oneDNN's Bias input and fused relu.

Usage: make_legacy_models.py OUTDIR
"""
import sys

import numpy as np

from paddle_mlir.builder import ProgramBuilder

b = ProgramBuilder()
x = b.feed("x", [-1, 3, 4, 5])
ids = b.feed("ids", [-1, 1], "int64")


def op(type, x, attrs, shape, dtype="float32", extra=None):
    y = b.tmp(type, shape, dtype)
    ins = {"X": [x]}
    ins.update(extra or {})
    b.op(type, ins, {"Out": [y]}, attrs)
    return y


c = b.tmp("conv", [-1, 3, 4, 5])
b.op("conv2d", {"Input": [x], "Filter": [b.param("w", np.ones((3, 3, 1, 1), np.float32))],
                "Bias": [b.param("bias", np.ones(3, np.float32))]}, {"Output": [c]},
     {"strides": [1, 1], "paddings": [0, 0], "dilations": [1, 1], "groups": 1,
      "fuse_activation": "relu"})
y = op("crop", c, {"offsets": [0, 1, 0, 1], "shape": [-1, 2, 4, 4]}, [-1, 2, 4, 4])
y = op("transpose", y, {"axis": [0, 2, 3, 1]}, [-1, 4, 4, 2])
y = op("reshape", y, {"shape": [0, 16, 2]}, [-1, 16, 2])
y = op("unsqueeze", y, {"axes": [1]}, [-1, 1, 16, 2])
y = op("squeeze", y, {"axes": [1]}, [-1, 16, 2])
y = op("flatten", y, {"axis": 1}, [-1, 32])
b.fetch(y)
b.fetch(op("one_hot", ids, {"depth": 7}, [-1, 7]))
b.save_fluid(sys.argv[1] + "/legacy")
