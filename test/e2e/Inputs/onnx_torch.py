#!/usr/bin/env python3
"""Exports a PyTorch model to ONNX with the local torch, compiles the ONNX
file with paddle-compile, runs it with paddle-run and compares with PyTorch.

    onnx_torch.py NAME OUTDIR [--opset N] [--batch B]

NAME: resnet50, mobilenet_v2, squeezenet1_1, densenet121 (torchvision,
seeded random weights) or transformer (nn.TransformerEncoder, 2 layers,
d_model 64, 4 heads, batch_first). Prints one line: the name, opset, output
shape, the error max|ours - torch| / max|torch| and OK or FAIL (tolerance
1e-4), plus the compile time.
"""
import argparse
import os
import subprocess
import sys
import time

import numpy as np


def build(name):
    import torch
    torch.manual_seed(0)
    if name == "transformer":
        layer = torch.nn.TransformerEncoderLayer(d_model=64, nhead=4, dim_feedforward=128,
                                                 batch_first=True)
        return torch.nn.TransformerEncoder(layer, num_layers=2).eval(), [16, 64]
    import torchvision
    model = getattr(torchvision.models, name)(weights=None).eval()
    # Non-trivial batch-norm statistics, so folding them is tested too.
    with torch.no_grad():
        for m in model.modules():
            if isinstance(m, torch.nn.BatchNorm2d):
                m.running_mean.uniform_(-0.1, 0.1)
                m.running_var.uniform_(0.5, 1.5)
    return model, [3, 224, 224]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("name")
    ap.add_argument("outdir")
    ap.add_argument("--opset", type=int, default=13)
    ap.add_argument("--batch", type=int, default=1)
    args = ap.parse_args()
    import torch
    model, shape = build(args.name)
    x = torch.from_numpy(np.random.default_rng(0).standard_normal([args.batch] + shape)
                         .astype(np.float32))
    os.makedirs(args.outdir, exist_ok=True)
    onnx_path = os.path.join(args.outdir, "%s_op%d.onnx" % (args.name, args.opset))
    torch.onnx.export(model, (x,), onnx_path, opset_version=args.opset, input_names=["x"],
                      output_names=["y"])
    with torch.no_grad():
        want = model(x).numpy()
    art = os.path.join(args.outdir, "%s_op%d" % (args.name, args.opset))
    t0 = time.time()
    subprocess.run(["paddle-compile", onnx_path, "-o", art], check=True,
                   stdout=subprocess.DEVNULL)
    compile_s = time.time() - t0
    np.save(os.path.join(args.outdir, "x.npy"), x.numpy())
    out = os.path.join(args.outdir, "out_%s_%d" % (args.name, args.opset))
    subprocess.run(["paddle-run", art, "--input=x=" + os.path.join(args.outdir, "x.npy"),
                    "--output-dir", out], check=True, stdout=subprocess.DEVNULL)
    got = np.load(os.path.join(out, "y.npy"))
    if got.shape != want.shape:
        print("%s opset %d: shape %s, expected %s FAIL" % (args.name, args.opset,
                                                          list(got.shape), list(want.shape)))
        return 1
    err = float(np.max(np.abs(got - want)) / max(np.max(np.abs(want)), 1e-30))
    ok = err <= 1e-4
    print("%s opset %d: shape %s max|ours-torch|/max|torch| = %.2e (tol 1e-04) %s "
          "(compile %.1f s)" % (args.name, args.opset, list(got.shape), err,
                                "OK" if ok else "FAIL", compile_s))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
