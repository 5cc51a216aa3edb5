"""Writes a Paddle model whose ops are all generated code (compile it with
--kernels=none) and that exercises every kind of loop pd-parallelize-ops
splits: elementwise with broadcasting, pooling windows, a reduction
(layer_norm), a transpose, a scan along a split-free axis (cumsum), a matmul
and a softmax, on a dynamic batch.

Usage: parallel_model.py OUT_DIR
"""
import sys

import numpy as np

from paddle_mlir.builder import ProgramBuilder

rng = np.random.RandomState(7)
b = ProgramBuilder()
x = b.feed("x", [-1, 6, 20, 20])
bias = b.param("bias", rng.randn(6, 1, 1).astype("float32"))
y = b.act("tanh", b.elementwise("elementwise_add", x, bias, axis=1))
y = b.pool2d(y, "max", 3, stride=2, padding=1)                  # [-1, 6, 10, 10]
y = b.elementwise("elementwise_add", y, b.pool2d(y, "avg", 3, stride=1, padding=1))
b.fetch(b.cumsum(y, axis=3))
scale = b.param("ln_scale", rng.rand(100).astype("float32") + 0.5)
shift = b.param("ln_bias", rng.randn(100).astype("float32"))
y = b.reshape2(y, [0, 6, 100])
y = b.layer_norm(y, scale, shift, begin_norm_axis=2)
t = b.transpose2(y, [0, 2, 1])                                  # [-1, 100, 6]
w = b.param("w", rng.randn(6, 16).astype("float32"))
m = b.matmul_v2(t, w)                                           # [-1, 100, 16]
b.fetch(b.softmax(m, axis=1))
b.save(sys.argv[1])
