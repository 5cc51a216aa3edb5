"""Writes a model made only of convolutions, each a different cuDNN
problem: from the input, a plain one with strides (2, 1) and padding 1
and a grouped one (2 groups) with dilation 2 and padding 2, both padded
by cuDNN; then a depthwise one (8 groups of one channel) with stride 2
and a 2x3 window on the first's output. No generated kernel is left.
With "chain": padded convolutions each reading the previous one's output
(a buffer of the arena, not an input), cuDNN padding every one: x [N, 4,
9, 9] -> 3x3 pad 1 -> 3x3 pad 1 stride 2 -> 5x5 pad 2 -> 3x3 pad 1, and a
1x1 of the first output beside them, so buffers stay live across calls.

Usage: cudnn_convs.py OUTDIR [chain]
"""
import sys

import numpy as np

from paddle_mlir.builder import ProgramBuilder

rng = np.random.RandomState(0)


def weights(name, shape):
    return b.param(name, (rng.standard_normal(shape) * 0.3).astype(np.float32))


b = ProgramBuilder()
if sys.argv[2:] == ["chain"]:
    x = b.feed("x", [-1, 4, 9, 9])
    y1 = b.conv2d(x, weights("w1", (6, 4, 3, 3)), padding=1)
    y2 = b.conv2d(y1, weights("w2", (6, 6, 3, 3)), stride=2, padding=1)
    y3 = b.conv2d(y2, weights("w3", (5, 6, 5, 5)), padding=2)
    b.fetch(b.conv2d(y3, weights("w4", (3, 5, 3, 3)), padding=1))
    b.fetch(b.conv2d(y1, weights("w5", (3, 6, 1, 1))))
else:
    x = b.feed("x", [-1, 8, 15, 13])
    y1 = b.conv2d(x, weights("w1", (8, 8, 3, 3)), stride=(2, 1), padding=1)
    y2 = b.conv2d(x, weights("w2", (8, 4, 3, 3)), groups=2, dilation=2, padding=2)
    y3 = b.conv2d(y1, weights("w3", (8, 1, 2, 3)), groups=8, stride=2, depthwise=True)
    b.fetch(y2)
    b.fetch(y3)
b.save(sys.argv[1])
