"""Writes a chain of 3x3 convolutions for
test/e2e/winograd.test: odd image sizes (partial 2x2 output tiles), bias
with relu, relu6, a residual add, leaky relu (also with alpha 0), and two convolutions the
Winograd kernel must not take (1x1 first, stride 2 last).

Usage: winograd_chain.py OUTDIR
"""
import sys

import numpy as np

from paddle_mlir.builder import ProgramBuilder

rng = np.random.RandomState(7)


def weights(*shape):
    return (rng.standard_normal(shape) * 0.15).astype(np.float32)


def conv(b, x, name, cout, cin, k=3, stride=1):
    """conv + bias (the graph optimizer fuses them into one fused_conv2d,
    which then takes the activation and residual too)."""
    y = b.conv2d(x, b.param(name, weights(cout, cin, k, k)), stride=stride, padding=k // 2)
    return b.elementwise("elementwise_add", y, b.param(name + "_b", weights(cout)), axis=1)


b = ProgramBuilder()
x = b.feed("x", [-1, 8, 11, 9])
c0 = b.relu(conv(b, x, "w0", 16, 8, k=1))
c1 = b.relu(conv(b, c0, "w1", 16, 16))
c2 = b.act("relu6", conv(b, c1, "w2", 24, 16))
c3 = b.relu(b.elementwise("elementwise_add", conv(b, c2, "w3", 16, 24), c1))
c4 = b.act("leaky_relu", conv(b, c3, "w4", 16, 16), alpha=0.1)
c5 = b.act("leaky_relu", conv(b, c4, "w5", 16, 16), alpha=0.0)  # relu by another name
b.fetch(conv(b, c5, "w6", 8, 16, stride=2))
b.save(sys.argv[1])
