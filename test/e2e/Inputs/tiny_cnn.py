"""Writes a small image classifier (conv, batch_norm, relu, max pool, global
average pool, linear, softmax) with seeded weights, for the runtime tests.

Usage: tiny_cnn.py OUTDIR
"""
import sys

import numpy as np

from paddle_mlir.builder import ProgramBuilder

rng = np.random.RandomState(0)
b = ProgramBuilder()
x = b.feed("x", [-1, 3, 16, 16])
w = b.param("conv_w", (rng.standard_normal((8, 3, 3, 3)) * 0.3).astype(np.float32))
y = b.conv2d(x, w, padding=1)
y = b.batch_norm(y, b.param("bn_s", np.ones(8, np.float32)), b.param("bn_b", np.zeros(8, np.float32) + 0.1),
                 b.param("bn_m", np.zeros(8, np.float32)), b.param("bn_v", np.ones(8, np.float32)))
y = b.pool2d(b.relu(y), "max", 2, stride=2)
y = b.flatten(b.pool2d(y, "avg", 1, global_pooling=True), 1, 3)
y = b.linear(y, b.param("fc_w", rng.standard_normal((8, 10)).astype(np.float32)),
             b.param("fc_b", rng.standard_normal(10).astype(np.float32)))
b.fetch(b.softmax(y))
b.save(sys.argv[1])
