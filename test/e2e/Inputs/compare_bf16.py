"""Runs two artifacts of one model (fp32, bf16) on seeded random inputs and
prints "bf16 vs fp32: ok" when every output agrees within 2e-2 of its
largest magnitude (bf16 keeps 8 significant bits), else the error.

Usage: compare_bf16.py FP32_DIR BF16_DIR
"""
import sys

import numpy as np

import paddle_mlir

fp32, bf16 = paddle_mlir.load(sys.argv[1]), paddle_mlir.load(sys.argv[2])
rng = np.random.RandomState(0)
shape = [d if d is not None else 4 for d in fp32.inputs[0][2]]
x = rng.standard_normal(shape).astype(np.float32)
worst = 0.0
for a, b in zip(fp32(x), bf16(x)):
    worst = max(worst, float(np.abs(a - b).max() / max(np.abs(a).max(), 1e-30)))
print("bf16 vs fp32: ok" if worst <= 2e-2 else "bf16 vs fp32: relative error %g" % worst)
