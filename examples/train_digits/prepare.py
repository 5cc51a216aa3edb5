"""Writes what the README's main job trains and measures (scripts/main.sh):

  WORK/digits_cnn/        an untrained CNN as a Paddle 2.x model (dynamic batch):
                          conv 3x3 (8) + batch_norm + relu + max pool 2,
                          conv 3x3 (16) + relu + avg pool 2, fc 10
  WORK/train.npz          x float32 [1400, 1, 8, 8], label int64 [1400, 1]
  WORK/test_x.npy, test_y.npy   the 397 held-out digits and their labels
  WORK/calibration/       100 training digits, one .npy each, for int8

The data is scikit-learn's bundled 8x8 handwritten digits (scaled to
[0, 1]) in a fixed random order: the first 1400 train, the rest test.

    python3 prepare.py WORK
"""

import os
import sys

import numpy as np
from sklearn.datasets import load_digits

from paddle_mlir.builder import ProgramBuilder


def digits():
    d = load_digits()
    x = (d.data / 16.0).astype(np.float32).reshape(-1, 1, 8, 8)
    y = d.target.astype(np.int64)
    order = np.random.default_rng(0).permutation(len(x))
    return x[order], y[order]


def cnn(path):
    g = np.random.default_rng(11)
    b = ProgramBuilder()
    x = b.feed("x", [-1, 1, 8, 8])
    h = b.conv2d(x, b.param("conv1.w", (g.standard_normal((8, 1, 3, 3)) * 0.3).astype(np.float32)), padding=1)
    h = b.batch_norm(h, b.param("bn1.scale", np.ones(8, np.float32)), b.param("bn1.bias", np.zeros(8, np.float32)),
                     b.param("bn1.mean", np.zeros(8, np.float32)), b.param("bn1.var", np.ones(8, np.float32)))
    h = b.pool2d(b.relu(h), "max", 2, stride=2)
    h = b.relu(b.conv2d(h, b.param("conv2.w", (g.standard_normal((16, 8, 3, 3)) * 0.15).astype(np.float32)),
                        padding=1))
    h = b.flatten(b.pool2d(h, "avg", 2, stride=2), 1, 3)
    b.fetch(b.linear(h, b.param("fc.w", (g.standard_normal((64, 10)) * 0.1).astype(np.float32)),
                     b.param("fc.b", np.zeros(10, np.float32))))
    return b.save(path)


def main(work):
    os.makedirs(os.path.join(work, "calibration"), exist_ok=True)
    x, y = digits()
    cnn(os.path.join(work, "digits_cnn"))
    np.savez(os.path.join(work, "train.npz"), x=x[:1400], label=y[:1400].reshape(-1, 1))
    np.save(os.path.join(work, "test_x.npy"), x[1400:])
    np.save(os.path.join(work, "test_y.npy"), y[1400:])
    for i in range(100):
        np.save(os.path.join(work, "calibration", "%03d.npy" % i), x[i:i + 1])
    print("wrote the untrained CNN, 1400 training and %d test digits, 100 calibration samples to %s"
          % (len(x) - 1400, work))


if __name__ == "__main__":
    main(sys.argv[1])
