#!/usr/bin/env python3
"""Paddle 2.x's rnn op compiled by paddle-mlir against PyTorch's nn.GRU /
nn.LSTM holding the same weights, on the shapes of the corpus's recurrent
programs: a one-layer GRU over a long time series (timeseries_rnn: T=1202,
I=1, H=10), the two-layer bidirectional LSTM of OCR CRNN (T=25, I=960,
H=48) and the two-layer bidirectional GRU of LAC (T=64, I=128, H=128).
Each round runs both once (interleaved, so drift hits both alike); prints
the medians, torch / paddle-mlir (above 1: paddle-mlir is faster) and the
largest difference of the outputs, with the CPU.

Usage: PYTHONPATH=build/python /usr/bin/python3 benchmarks/rnn.py
           [--batches 1,8] [--threads 2] [--rounds 30] [--warmup 3] [--json FILE]
"""
import argparse
import json
import os
import statistics
import sys
import tempfile
import time

import numpy as np
import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "python", "tests"))

import paddle_mlir  # noqa: E402
from paddle_mlir.builder import ProgramBuilder  # noqa: E402
from bf16 import cpu_info  # noqa: E402

CASES = {  # name: (mode, steps, input, hidden, layers, directions)
    "timeseries_gru": ("GRU", 1202, 1, 10, 1, 1),
    "crnn_lstm": ("LSTM", 25, 960, 48, 2, 2),
    "lac_bigru": ("GRU", 64, 128, 128, 2, 2),
}
GATES = {"LSTM": 4, "GRU": 3}


def weights(rng, mode, inp, hidden, layers, dirs):
    g, k = GATES[mode] * hidden, 1 / np.sqrt(hidden)
    ws, bs = [], []
    for l in range(layers):
        for _ in range(dirs):
            cols = inp if l == 0 else dirs * hidden
            ws += [rng.uniform(-k, k, (g, cols)), rng.uniform(-k, k, (g, hidden))]
            bs += [rng.uniform(-k, k, g), rng.uniform(-k, k, g)]
    return [w.astype(np.float32) for w in ws + bs]


def paddle_model(path, mode, steps, inp, hidden, layers, dirs, batch, ws):
    b = ProgramBuilder()
    x = b.feed("x", [steps, batch, inp])
    states = [b.param("s%d" % i, np.zeros((layers * dirs, batch, hidden), np.float32))
              for i in range(2 if mode == "LSTM" else 1)]
    out = b.tmp("out", [steps, batch, dirs * hidden])
    outs = [b.tmp("state%d" % i, [layers * dirs, batch, hidden]) for i in range(len(states))]
    b.op("rnn", {"Input": [x], "PreState": states, "WeightList": [b.param("w%d" % i, w) for i, w in enumerate(ws)]},
         {"Out": [out], "State": outs},
         {"mode": mode, "num_layers": layers, "is_bidirec": dirs == 2, "hidden_size": hidden,
          "input_size": inp, "is_test": True})
    b.fetch(out)
    b.save(path)
    return paddle_mlir.compile(path)


def torch_model(mode, inp, hidden, layers, dirs, ws):
    cls = torch.nn.LSTM if mode == "LSTM" else torch.nn.GRU
    m = cls(inp, hidden, layers, bidirectional=dirs == 2)
    cells = layers * dirs
    with torch.no_grad():
        for c in range(cells):
            sfx = "_l%d%s" % (c // dirs, "_reverse" if c % dirs else "")
            getattr(m, "weight_ih" + sfx).copy_(torch.from_numpy(ws[2 * c]))
            getattr(m, "weight_hh" + sfx).copy_(torch.from_numpy(ws[2 * c + 1]))
            getattr(m, "bias_ih" + sfx).copy_(torch.from_numpy(ws[2 * cells + 2 * c]))
            getattr(m, "bias_hh" + sfx).copy_(torch.from_numpy(ws[2 * cells + 2 * c + 1]))
    return m.eval()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--batches", default="1,8")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--rounds", type=int, default=30)
    ap.add_argument("--warmup", type=int, default=3)
    ap.add_argument("--json")
    args = ap.parse_args()
    torch.set_num_threads(args.threads)
    os.environ["PDRT_NUM_THREADS"] = str(args.threads)
    name, flags = cpu_info()
    print("CPU: %s (%s), %d threads, torch %s" % (name, " ".join(flags), args.threads, torch.__version__))
    rows = []
    rng = np.random.default_rng(0)
    with tempfile.TemporaryDirectory() as tmp:
        for case, (mode, steps, inp, hidden, layers, dirs) in CASES.items():
            ws = weights(rng, mode, inp, hidden, layers, dirs)
            ref = torch_model(mode, inp, hidden, layers, dirs, ws)
            for batch in [int(v) for v in args.batches.split(",")]:
                x = rng.standard_normal((steps, batch, inp)).astype(np.float32)
                ours = paddle_model(os.path.join(tmp, "%s_%d" % (case, batch)), mode, steps, inp, hidden,
                                    layers, dirs, batch, ws)
                xt = torch.from_numpy(x)
                t_ours, t_torch = [], []
                for r in range(args.warmup + args.rounds):
                    t0 = time.perf_counter()
                    (got,) = ours(x)
                    t1 = time.perf_counter()
                    with torch.no_grad():
                        want = ref(xt)[0].numpy()
                    t2 = time.perf_counter()
                    if r >= args.warmup:
                        t_ours.append(t1 - t0)
                        t_torch.append(t2 - t1)
                mo, mt = statistics.median(t_ours), statistics.median(t_torch)
                err = float(np.abs(got - want).max())
                rows.append({"case": case, "batch": batch, "paddle_mlir_ms": mo * 1e3, "torch_ms": mt * 1e3,
                             "torch_over_paddle_mlir": mt / mo, "max_abs_diff": err})
                print("%-15s batch %2d  paddle-mlir %8.2f ms  torch %8.2f ms  torch/paddle-mlir %5.2f  max |diff| %.1e"
                      % (case, batch, mo * 1e3, mt * 1e3, mt / mo, err))
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"cpu": name, "flags": flags, "threads": args.threads, "rows": rows}, f, indent=1)


if __name__ == "__main__":
    main()
