#!/usr/bin/env python3
"""How much of the gradient allreduce time data-parallel training hides
behind backward, measured on this machine.

Compiles a train step of ResNet-50 (torchvision's, seeded; or --model
lenet for a quick run) three ways: for one process at the per-rank batch
(the compute alone), and for --ranks ranks with the gradient buckets
overlapped (the default) and blocking (--overlap-buckets=false). Each rank
of `mpirun -np RANKS` runs the same steps; the medians of the step times
give

  exposed communication (blocking)   = T_blocking - T_compute
  exposed communication (overlapped) = T_overlapped - T_compute
  hidden fraction                    = 1 - exposed overlapped / exposed blocking

The one-process step runs with as many threads as each rank has (1), in a
job of as many busy processes, so the three see the same cores. On a
machine with as many cores as ranks the ranks, their progress threads and
MPI share those cores, which bounds what overlap can hide here.

Usage: PYTHONPATH=build/python /usr/bin/python3 benchmarks/dp_overlap.py
           [--model resnet50|lenet] [--ranks 2] [--batch 2] [--steps 5] [--bucket-mb 32]
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np


def build_model(name, tmp):
    from paddle_mlir import zoo
    from paddle_mlir.builder import ProgramBuilder
    if name == "resnet50":
        b, _ = zoo.resnet50(seed=0)
        return b.save(os.path.join(tmp, "m")), "image", [3, 224, 224]
    g = np.random.default_rng(1)
    b = ProgramBuilder()
    x = b.feed("x", [-1, 1, 28, 28])
    h = b.relu(b.conv2d(x, b.param("c1", (g.standard_normal((32, 1, 5, 5)) * 0.2).astype(np.float32))))
    h = b.pool2d(h, "max", 2, stride=2)
    h = b.relu(b.conv2d(h, b.param("c2", (g.standard_normal((64, 32, 5, 5)) * 0.05).astype(np.float32))))
    h = b.flatten(b.pool2d(h, "max", 2, stride=2), 1, 3)
    h = b.linear(h, b.param("f1", (g.standard_normal((1024, 512)) * 0.03).astype(np.float32)),
                 b.param("b1", np.zeros(512, np.float32)), act="relu")
    b.fetch(b.linear(h, b.param("f2", (g.standard_normal((512, 10)) * 0.05).astype(np.float32)),
                     b.param("b2", np.zeros(10, np.float32))))
    return b.save(os.path.join(tmp, "m")), "x", [1, 28, 28]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--model", default="resnet50", choices=["resnet50", "lenet"])
    ap.add_argument("--ranks", type=int, default=2)
    ap.add_argument("--batch", type=int, default=2, help="per rank")
    ap.add_argument("--steps", type=int, default=5)
    ap.add_argument("--bucket-mb", type=float, default=32)
    args = ap.parse_args()
    import paddle_mlir.train
    mpirun = shutil.which("mpirun")
    if not mpirun:
        sys.exit("mpirun (openmpi-bin) is needed")
    n = args.ranks
    with tempfile.TemporaryDirectory() as tmp:
        model, feed, shape = build_model(args.model, tmp)
        opts = dict(loss_op="softmax_with_cross_entropy", optimizer="sgd", lr=0.01)
        arts = {}
        for key, batch, kw in (("compute", args.batch, {}),
                               ("overlapped", args.batch * n,
                                dict(partition="data", devices=n, bucket_mb=args.bucket_mb)),
                               ("blocking", args.batch * n,
                                dict(partition="data", devices=n, bucket_mb=args.bucket_mb,
                                     overlap=False))):
            t0 = time.time()
            arts[key] = os.path.join(tmp, key)
            paddle_mlir.train.compile(model, input_shapes={feed: [batch] + shape},
                                      output_dir=arts[key], **opts, **kw)
            print("compiled %s in %.0f s" % (key, time.time() - t0), flush=True)
        with open(os.path.join(arts["overlapped"], "manifest.json")) as f:
            part = json.load(f)["partition"]
        grad_mb = sum(b["bytes"] for b in part["buckets"]) / 2**20
        # The step-timing worker train_partitions.py runs too.
        sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
        from train_partitions import WORKER
        worker = os.path.join(tmp, "worker.py")
        with open(worker, "w") as f:
            f.write(WORKER)
        base = [mpirun, "--allow-run-as-root", "--oversubscribe", "--mca", "btl", "self,vader",
                "--mca", "btl_vader_single_copy_mechanism", "none"]
        med = {}
        for key in ("compute", "blocking", "overlapped"):
            out = os.path.join(tmp, key + ".json")
            # The one-process step has no collectives: under mpirun its n
            # copies are independent jobs loading the cores alike.
            cmd = base + ["-np", str(n), sys.executable, worker, arts[key], str(args.steps), "1", out]
            p = subprocess.run(cmd, capture_output=True, text=True, timeout=3600)
            if p.returncode != 0:
                sys.exit(p.stdout + p.stderr)
            with open(out) as f:
                med[key] = statistics.median(json.load(f))
    exposed_block = med["blocking"] - med["compute"]
    exposed_over = med["overlapped"] - med["compute"]
    print("\n%s, %d ranks, batch %d per rank, %.1f MiB of gradients in %d bucket(s)" %
          (args.model, n, args.batch, grad_mb, len(part["buckets"])))
    for key in ("compute", "blocking", "overlapped"):
        print("  step %-11s %8.1f ms" % (key, med[key] * 1e3))
    print("  exposed communication: blocking %.1f ms, overlapped %.1f ms" %
          (exposed_block * 1e3, exposed_over * 1e3))
    if exposed_block > 0:
        print("  hidden fraction: %.2f" % (1 - exposed_over / exposed_block))


if __name__ == "__main__":
    main()
