"""Test accuracy and batch-1 latency of compiled digit classifiers
(scripts/main.sh): each ARTIFACT classifies the 397 held-out digits at once
(accuracy), and paddle-run times one digit (median of 200 runs after 20
warm-up runs).

    python3 evaluate.py WORK PADDLE_RUN NAME=ARTIFACT ...
"""

import os
import re
import subprocess
import sys

import numpy as np

import paddle_mlir


def main(work, paddle_run, specs):
    x = np.load(os.path.join(work, "test_x.npy"))
    y = np.load(os.path.join(work, "test_y.npy"))
    one = os.path.join(work, "one_digit.npy")
    np.save(one, x[:1])
    rows = []
    for spec in specs:
        name, artifact = spec.split("=", 1)
        model = paddle_mlir.CompiledModel(artifact)
        accuracy = float((model(x)[0].argmax(axis=1) == y).mean())
        p = subprocess.run([paddle_run, artifact, "--input", "x=" + one, "--iterations", "200", "--warmup", "20"],
                           capture_output=True, text=True, check=True)
        median = float(re.search(r"median ([0-9.]+)", p.stdout).group(1))
        rows.append((name, accuracy, median))
    print("%-6s %14s %26s" % ("model", "test accuracy", "latency (batch 1, median)"))
    for name, accuracy, median in rows:
        print("%-6s %13.2f%% %23.3f ms" % (name, 100 * accuracy, median))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], sys.argv[3:])
