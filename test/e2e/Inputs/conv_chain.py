"""Writes a chain of convolutions (plain, depthwise, 1x1, strided, one with a
residual add) whose intermediate tensors only convolutions read, so
pd-kernel-layouts keeps them in the convolution layout (NHWC, nChw8c or
nChw16c), for test/e2e/conv-layout.test.

Usage: conv_chain.py OUTDIR
"""
import sys

import numpy as np

from paddle_mlir.builder import ProgramBuilder

rng = np.random.RandomState(5)


def weights(*shape):
    return (rng.standard_normal(shape) * 0.2).astype(np.float32)


b = ProgramBuilder()
x = b.feed("x", [-1, 3, 20, 20])
a = b.relu(b.conv2d(x, b.param("w0", weights(16, 3, 3, 3)), padding=1))
d = b.relu(b.conv2d(a, b.param("w1", weights(16, 1, 3, 3)), padding=1, groups=16, depthwise=True))
p = b.conv2d(d, b.param("w2", weights(32, 16, 1, 1)))
q = b.conv2d(b.relu(p), b.param("w3", weights(32, 32, 3, 3)), padding=1)
r = b.relu(b.elementwise("elementwise_add", q, p))
s = b.conv2d(r, b.param("w4", weights(16, 32, 3, 3)), stride=2, padding=1)
b.fetch(s)
b.save(sys.argv[1])
