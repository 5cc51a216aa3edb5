"""Writes a model made only of unpadded convolutions, each a different
cuDNN problem: a plain one with strides (2, 1), a grouped one (2 groups)
with dilation 2, and a depthwise one (8 groups of one channel) with
stride 2 and a 2x3 window.

Usage: cudnn_convs.py OUTDIR
"""
import sys

import numpy as np

from paddle_mlir.builder import ProgramBuilder

rng = np.random.RandomState(0)


def weights(name, shape):
    return b.param(name, (rng.standard_normal(shape) * 0.3).astype(np.float32))


b = ProgramBuilder()
x = b.feed("x", [-1, 4, 15, 13])
y = b.conv2d(x, weights("w1", (8, 4, 3, 3)), stride=(2, 1))
y = b.conv2d(y, weights("w2", (8, 4, 3, 3)), groups=2, dilation=2)
y = b.conv2d(y, weights("w3", (8, 1, 2, 3)), groups=8, stride=2, depthwise=True)
b.fetch(y)
b.save(sys.argv[1])
