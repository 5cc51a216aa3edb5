"""Writes a model made only of matrix products, each a different cuBLASLt
problem: x[N, 6, 8] @ W[8, 12] (the batch folded into m), y @ y^T per
batch (transposed right input), z^T @ y per batch (transposed left input).

Usage: matmul_chain.py OUTDIR
"""
import sys

import numpy as np

from paddle_mlir.builder import ProgramBuilder

rng = np.random.RandomState(0)
b = ProgramBuilder()
x = b.feed("x", [-1, 6, 8])
y = b.matmul_v2(x, b.param("w", rng.standard_normal((8, 12)).astype(np.float32)))
z = b.matmul_v2(y, y, trans_y=True)
b.fetch(b.matmul_v2(z, y, trans_x=True))
b.save(sys.argv[1])
