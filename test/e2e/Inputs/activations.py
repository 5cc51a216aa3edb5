"""Writes one small model per activation: conv + batch_norm + ACT (which
pd-fuse-conv folds into one fused_conv2d) followed by a matmul and the same
ACT standalone (lowered on its own), for the activation numerics test.

Usage: activations.py OUTDIR   (writes OUTDIR/<act>/model.pd*)
"""
import os
import sys

import numpy as np

from paddle_mlir.builder import ProgramBuilder

ACTS = ["relu6", "leaky_relu", "sigmoid", "swish", "hard_swish", "tanh", "gelu"]

for act in ACTS:
    rng = np.random.RandomState(0)
    b = ProgramBuilder()
    x = b.feed("x", [-1, 3, 6, 6])
    y = b.conv2d(x, b.param("w", rng.standard_normal((4, 3, 3, 3)).astype(np.float32)), padding=1)
    y = b.batch_norm(y, b.param("s", rng.rand(4).astype(np.float32) + 0.5),
                     b.param("o", rng.standard_normal(4).astype(np.float32)),
                     b.param("m", rng.standard_normal(4).astype(np.float32) * 0.1),
                     b.param("v", rng.rand(4).astype(np.float32) + 0.5))
    y = b.act(act, y)
    y = b.flatten(y, 1, 3)
    y = b.matmul_v2(y, b.param("fc", rng.standard_normal((144, 5)).astype(np.float32) * 0.1))
    b.fetch(b.act(act, y))
    b.save(os.path.join(sys.argv[1], act))
