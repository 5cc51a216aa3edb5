"""Writes a chain of padded convolutions, each reading the previous one's
output (a buffer of the arena, not an input): cuDNN pads every one of them
itself, so the chain is library calls only. x [N, 4, 9, 9] -> 3x3 pad 1 ->
3x3 pad 1 (stride 2) -> 5x5 pad 2 -> 3x3 pad 1 beside a 1x1 of the first
output, so buffers stay live across calls.

Usage: cudnn_chain.py OUTDIR
"""
import sys

import numpy as np

from paddle_mlir.builder import ProgramBuilder

rng = np.random.RandomState(1)


def weights(name, shape):
    return b.param(name, (rng.standard_normal(shape) * 0.3).astype(np.float32))


b = ProgramBuilder()
x = b.feed("x", [-1, 4, 9, 9])
y1 = b.conv2d(x, weights("w1", (6, 4, 3, 3)), padding=1)
y2 = b.conv2d(y1, weights("w2", (6, 6, 3, 3)), stride=2, padding=1)
y3 = b.conv2d(y2, weights("w3", (5, 6, 5, 5)), padding=2)
y4 = b.conv2d(y3, weights("w4", (3, 5, 3, 3)), padding=1)
y5 = b.conv2d(y1, weights("w5", (3, 6, 1, 1)))
b.fetch(y4)
b.fetch(y5)
b.save(sys.argv[1])
