"""Runs a compiled artifact with paddle-run and compares every output with an
independent oracle: the NumPy reference evaluator (for any Paddle model) or
the PyTorch module a zoo model was built from.

Usage:
  compare.py ARTIFACT --reference MODEL_DIR --shape NAME=DxD[:int64:HIGH]... [--seed N]
  compare.py ARTIFACT --torch ZOO_NAME [--zoo-arg K=V] --shape ... [--seed N]

Prints one line per output: "<name>: max|ours-oracle|/max|oracle| = E (tol T) OK"
and exits 1 if any output is off (fp32 tolerance 1e-4, DESIGN.md section 9).
"""
import argparse
import os
import subprocess
import sys
import json
import tempfile

import numpy as np

TOL = 1e-4

ap = argparse.ArgumentParser()
ap.add_argument("artifact")
ap.add_argument("--reference")
ap.add_argument("--torch")
ap.add_argument("--shape", action="append", default=[])
ap.add_argument("--seed", type=int, default=0)
ap.add_argument("--zoo-arg", action="append", default=[], help="K=V passed to the zoo builder")
args = ap.parse_args()

rng = np.random.RandomState(args.seed)
# --shape NAME=DxD[:int64:HIGH]: float32 uniform [0, 1), or integers in [0, HIGH).
shapes = {}
for spec in args.shape:
    name, rest = spec.split("=")
    dims, _, kind = rest.partition(":")
    shapes[name] = ([int(d) for d in dims.split("x")], kind)
work = tempfile.mkdtemp()
inputs = {}
for name, (shape, kind) in shapes.items():
    if kind:
        dtype, high = kind.split(":")
        inputs[name] = rng.randint(0, int(high), size=shape).astype(dtype)
    else:
        inputs[name] = rng.rand(*shape).astype(np.float32)
    np.save(os.path.join(work, name + ".npy"), inputs[name])

if args.reference:
    from paddle_mlir import reference
    oracle = reference.load(args.reference).run(inputs)
else:
    import torch
    from paddle_mlir import zoo
    kw = {k: int(v) for k, v in (a.split("=") for a in args.zoo_arg)}
    _, module = zoo.build(args.torch, **kw)
    order = [i["name"] for i in json.load(open(os.path.join(args.artifact, "manifest.json")))["inputs"]]
    with torch.no_grad():
        out = module(*[torch.from_numpy(inputs[n]) for n in order])
    oracle = None
    oracle_list = [out.numpy()]

cmd = ["paddle-run", args.artifact, "--output-dir", os.path.join(work, "out")]
cmd += ["--input=%s=%s" % (n, os.path.join(work, n + ".npy")) for n in shapes]
subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)

manifest = json.load(open(os.path.join(args.artifact, "manifest.json")))
bad = 0
for i, o in enumerate(manifest["outputs"]):
    ours = np.load(os.path.join(work, "out", o["name"].replace("/", "_") + ".npy"))
    want = oracle[o["name"]] if oracle is not None else oracle_list[i]
    if ours.shape != want.shape:
        print("%s: shape %s, oracle %s FAIL" % (o["name"], ours.shape, want.shape))
        bad += 1
        continue
    err = float(np.max(np.abs(ours - want)) / max(float(np.max(np.abs(want))), 1e-5))
    ok = err <= TOL
    bad += not ok
    print("%s: shape %s max|ours-oracle|/max|oracle| = %.2e (tol %.0e) %s"
          % (o["name"], list(ours.shape), err, TOL, "OK" if ok else "FAIL"))
sys.exit(1 if bad else 0)
