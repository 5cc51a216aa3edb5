"""Writes convolutions with max poolings between them for
test/e2e/pool-layout.test: a ResNet-like stem (conv, relu, 3x3 / 2 pooling
with padding) whose pooled result a conv reads both as input and as
residual, a ceil_mode pooling (the last window hangs over the edge), a
pooling of a pooling, and a pooling whose result is fetched. Odd image
sizes; 16 channels, so every layout (NHWC, nChw8c, nChw16c) applies.

Usage: pool_chain.py OUTDIR
"""
import sys

import numpy as np

from paddle_mlir.builder import ProgramBuilder

rng = np.random.RandomState(11)


def weights(*shape):
    return (rng.standard_normal(shape) * 0.2).astype(np.float32)


def conv(b, x, name, cout, cin, k, padding=0):
    """conv + bias (fused into one convolution kernel with what follows)."""
    y = b.conv2d(x, b.param(name, weights(cout, cin, k, k)), padding=padding)
    return b.elementwise("elementwise_add", y, b.param(name + "_b", weights(cout)), axis=1)


b = ProgramBuilder()
x = b.feed("x", [-1, 3, 19, 19])
a = b.relu(conv(b, x, "w0", 16, 3, 3, padding=1))
p = b.pool2d(a, "max", 3, stride=2, padding=1)                  # 10x10
c = b.relu(b.elementwise("elementwise_add", conv(b, p, "w1", 16, 16, 1), p))
q = b.pool2d(c, "max", 3, stride=2, ceil_mode=True)             # 5x5 (floor: 4x4)
r = b.pool2d(q, "max", 2, stride=2)                             # 2x2
s = conv(b, r, "w2", 8, 16, 1)
t = b.pool2d(conv(b, x, "w3", 16, 3, 1), "max", 2, stride=2)    # 9x9
b.fetch(s)
b.fetch(t)
b.save(sys.argv[1])
