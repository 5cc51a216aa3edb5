"""Prints the top-5 lines classify.c prints, computed with the NumPy
reference evaluator on the same deterministic input pattern.

Usage: classify_oracle.py MODEL_DIR INPUT_NAME C H W [BATCH]
"""
import sys

import numpy as np

from paddle_mlir import reference

model_dir, name, c, h, w = sys.argv[1], sys.argv[2], *map(int, sys.argv[3:6])
batch = int(sys.argv[6]) if len(sys.argv) > 6 else 1
x = ((np.arange(batch * c * h * w) % 251) / 251.0).astype(np.float32).reshape(batch, c, h, w)
(scores,) = reference.load(model_dir).run({name: x}).values()
for i, row in enumerate(scores):
    top = np.argsort(-row, kind="stable")[:5]
    print("image %d top-5: %s" % (i, " ".join(str(t) for t in top)))
