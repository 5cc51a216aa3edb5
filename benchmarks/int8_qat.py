"""int8 against fp32 on a fake-quantized (QAT-style) CNN from the builder:
the same program compiled with --precision fp32 (the quantization simulated
in fp32, as Paddle runs it) and --precision int8 (oneDNN int8 kernels),
timed side by side in one run; prints the ratio and the agreement.

Usage: PYTHONPATH=build/python /usr/bin/python3 benchmarks/int8_qat.py [--batch 1] [--threads 2]

The network: a 3x3 stem (3 -> 32, stride 2) and five blocks of 3x3
convolutions (32 -> 64 -> 64 -> 128 -> 128 -> 256, stride 2 at each width
change) with batch norm and relu, global average pooling and an fc to 1000
classes, with PaddleSlim's fake quantizers on every conv / fc input and
weight; thresholds taken from a float run on random images.
"""
import argparse
import os
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "python", "tests"))
import paddle_mlir  # noqa: E402
from paddle_mlir.builder import ProgramBuilder  # noqa: E402
import test_int8  # noqa: E402,F401 (the fake quantizer builders)

WIDTHS = [(3, 32, 2), (32, 64, 2), (64, 64, 1), (64, 128, 2), (128, 128, 1), (128, 256, 2)]


def build(path, thresholds, rng, quantized=True):
    b = ProgramBuilder()
    if not quantized:
        def fake_quant(b, x, t, name):
            return x

        def weight_quant(b, w, axis):
            return w
    else:
        from test_int8 import fake_quant, weight_quant
    y = b.feed("x", [-1, 3, 224, 224])
    for i, (cin, cout, stride) in enumerate(WIDTHS):
        w = b.param("w%d" % i, (rng.standard_normal((cout, cin, 3, 3)) * np.sqrt(2 / (9 * cin)))
                    .astype(np.float32))
        y = b.conv2d(fake_quant(b, y, thresholds[i], "s%d" % i), weight_quant(b, w, 0),
                     stride=stride, padding=1)
        p = lambda n, lo, hi: b.param(n + str(i), rng.uniform(lo, hi, cout).astype(np.float32))
        y = b.relu(b.batch_norm(y, p("g", 0.8, 1.2), p("b", -0.1, 0.1), p("m", -0.1, 0.1),
                                p("v", 0.8, 1.2)))
    y = b.flatten(b.pool2d(y, "avg", 1, global_pooling=True), 1, 3)
    wfc = b.param("wfc", (rng.standard_normal((256, 1000)) * 0.05).astype(np.float32))
    y = b.linear(fake_quant(b, y, thresholds[-1], "sfc"), weight_quant(b, wfc, 1),
                 b.param("bfc", np.zeros(1000, np.float32)))
    b.fetch(y)
    b.save(path)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--batch", type=int, default=1)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--iterations", type=int, default=30)
    a = ap.parse_args()
    rng = np.random.RandomState(0)
    x = rng.standard_normal((a.batch, 3, 224, 224)).astype(np.float32)
    with tempfile.TemporaryDirectory() as d:
        # Thresholds: first a model with huge thresholds (no clipping), run
        # in fp32; its activations' maxima are not exposed, so take a
        # generous fixed threshold per layer (relu outputs of unit-variance
        # activations stay within about 6).
        thresholds = [3.0] + [6.0] * (len(WIDTHS) - 1) + [6.0]
        build(os.path.join(d, "m"), thresholds, np.random.RandomState(1))
        build(os.path.join(d, "f"), thresholds, np.random.RandomState(1), quantized=False)
        sim = paddle_mlir.compile(os.path.join(d, "m"), threads=a.threads)
        plain = paddle_mlir.compile(os.path.join(d, "f"), threads=a.threads)
        int8 = paddle_mlir.compile(os.path.join(d, "m"), precision="int8", threads=a.threads)
        ys, yp, yq = sim(x)[0], plain(x)[0], int8(x)[0]
        ts = paddle_mlir.benchmark(sim, [x], iterations=a.iterations)
        tp = paddle_mlir.benchmark(plain, [x], iterations=a.iterations)
        tq = paddle_mlir.benchmark(int8, [x], iterations=a.iterations)
    rel = np.abs(yq - ys).max() / np.abs(ys).max()
    print("batch %d, %d threads, median: float model (no quantizers) %.2f ms, QAT program in "
          "fp32 (quantization simulated) %.2f ms, int8 %.2f ms" % (a.batch, a.threads,
                                                                  tp["median"], ts["median"],
                                                                  tq["median"]))
    print("int8 speed: %.2fx the float model, %.2fx the simulated QAT program" %
          (tp["median"] / tq["median"], ts["median"] / tq["median"]))
    print("int8 vs simulation: max |diff| / max |sim| = %.2e, top-1 agreement %.0f%%; "
          "int8 vs float model top-1 agreement %.0f%%" %
          (rel, 100 * np.mean(yq.argmax(1) == ys.argmax(1)),
           100 * np.mean(yq.argmax(1) == yp.argmax(1))))


if __name__ == "__main__":
    main()
