"""Writes a model made only of convolutions, each a different cuDNN
problem: from the input, a plain one with strides (2, 1) and padding 1
and a grouped one (2 groups) with dilation 2 and padding 2, both padded
by cuDNN; then a depthwise one (8 groups of one channel) with stride 2
and a 2x3 window on the first's output. No generated kernel is left.

Usage: cudnn_convs.py OUTDIR
"""
import sys

import numpy as np

from paddle_mlir.builder import ProgramBuilder

rng = np.random.RandomState(0)


def weights(name, shape):
    return b.param(name, (rng.standard_normal(shape) * 0.3).astype(np.float32))


b = ProgramBuilder()
x = b.feed("x", [-1, 8, 15, 13])
y1 = b.conv2d(x, weights("w1", (8, 8, 3, 3)), stride=(2, 1), padding=1)
y2 = b.conv2d(x, weights("w2", (8, 4, 3, 3)), groups=2, dilation=2, padding=2)
y3 = b.conv2d(y1, weights("w3", (8, 1, 2, 3)), groups=8, stride=2, depthwise=True)
b.fetch(y2)
b.fetch(y3)
b.save(sys.argv[1])
