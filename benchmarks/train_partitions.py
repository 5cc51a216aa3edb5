#!/usr/bin/env python3
"""Multi-rank training layouts side by side on this machine: step time
and optimizer state per rank.

Compiles one train step of ResNet-50 (torchvision's, seeded; --model bert
for a 4-layer BERT classifier of width 256 on 64 tokens, --model lenet for
a quick run) with Adam at one global batch four ways and runs each for
--steps steps (medians):

  one process   the whole batch, --ranks threads (the same cores)
  allreduce     --partition data: each rank 1/N of the batch, every rank
                updates every parameter and keeps all Adam moments
  reduce        --reduce-strategy reduce: gradients reduce-scattered, each
                rank updates and keeps the moments of 1/N, then allgather
  pipeline      --partition pipeline --train: N stages, --micro-batches M
                in the 1F1B order, each rank the parameters of its stage

Each rank runs one thread. The optimizer state per rank is read from the
manifests (the optimizer_state weights; for the pipeline, those its stage
owns). On a machine with as many cores as ranks the layouts share those
cores, so this measures their overheads, not multi-device scaling.

Usage: PYTHONPATH=build/python /usr/bin/python3 benchmarks/train_partitions.py
           [--model resnet50|bert|lenet] [--ranks 2] [--batch 4] [--micro-batches 4] [--steps 5]
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

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from dp_overlap import build_model  # noqa: E402

WORKER = r'''
import os, sys, json, time
import numpy as np
from paddle_mlir.train import TrainStep
art, steps, threads, out = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
t = TrainStep(art, threads=threads)
rank = int(os.environ.get("OMPI_COMM_WORLD_RANK", "0"))
rng = np.random.default_rng(0)
feeds = {}
for spec in t.inputs:
    if spec.dtype == "int64":
        high = 1 if spec.name == "token_type_ids" else 10
        feeds[spec.name] = rng.integers(0, high, spec.shape).astype(np.int64)
    else:
        feeds[spec.name] = rng.standard_normal(spec.shape).astype(spec.dtype)
t.step(**feeds)  # warm-up
times = []
for _ in range(steps):
    t0 = time.perf_counter()
    t.step(**feeds)
    times.append(time.perf_counter() - t0)
if rank == 0:
    with open(out, "w") as f:
        json.dump(times, f)
'''


def state_bytes(manifest, rank):
    """Bytes of optimizer state rank `rank` keeps and updates."""
    state = {w["name"]: w["nbytes"] if "nbytes" in w else 4 * _numel(w["shape"])
             for w in manifest["weights"] if w.get("optimizer_state")}
    part = manifest.get("partition") or {}
    if part.get("mode") == "pipeline":
        mine = set(part["stages"][rank]["weights"])
        return sum(v for k, v in state.items() if k in mine)
    return sum(state.values())


def _numel(shape):
    n = 1
    for d in shape:
        n *= d
    return n


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--model", default="resnet50", choices=["resnet50", "bert", "lenet"])
    ap.add_argument("--ranks", type=int, default=2)
    ap.add_argument("--batch", type=int, default=4, help="global batch")
    ap.add_argument("--micro-batches", type=int, default=4)
    ap.add_argument("--steps", type=int, default=5)
    args = ap.parse_args()
    import paddle_mlir.train
    mpirun = shutil.which("mpirun")
    if not mpirun:
        sys.exit("mpirun (openmpi-bin) is needed")
    n = args.ranks
    layouts = (("one process", 1, args.ranks, {}),
               ("allreduce", n, 1, dict(partition="data", devices=n)),
               ("reduce", n, 1, dict(partition="data", devices=n, reduce_strategy="reduce")),
               ("pipeline", n, 1, dict(partition="pipeline", devices=n,
                                       micro_batches=args.micro_batches)))
    with tempfile.TemporaryDirectory() as tmp:
        if args.model == "bert":
            from paddle_mlir import zoo
            b, _ = zoo.bert_base(seed=0, layers=4, hidden=256, heads=4, classes=10)
            model = b.save(os.path.join(tmp, "bert"))
            shapes = {"input_ids": [args.batch, 64], "token_type_ids": [args.batch, 64]}
        else:
            model, feed, shape = build_model(args.model, tmp)
            shapes = {feed: [args.batch] + shape}
        opts = dict(loss_op="softmax_with_cross_entropy", optimizer="adam", lr=1e-3,
                    input_shapes=shapes)
        worker = os.path.join(tmp, "worker.py")
        with open(worker, "w") as f:
            f.write(WORKER)
        base = [mpirun, "--allow-run-as-root", "--oversubscribe", "--mca", "btl", "self,vader",
                "--mca", "btl_vader_single_copy_mechanism", "none"]
        rows = []
        for name, ranks, threads, kw in layouts:
            art = os.path.join(tmp, name.replace(" ", "_"))
            t0 = time.time()
            paddle_mlir.train.compile(model, output_dir=art, **opts, **kw)
            print("compiled %s in %.0f s" % (name, time.time() - t0), flush=True)
            with open(os.path.join(art, "manifest.json")) as f:
                manifest = json.load(f)
            out = os.path.join(tmp, "times.json")
            cmd = base + ["-np", str(ranks), sys.executable, worker, art, str(args.steps), str(threads), out]
            p = subprocess.run(cmd, capture_output=True, text=True, timeout=3600)
            if p.returncode != 0:
                sys.exit(p.stdout + p.stderr)
            with open(out) as f:
                step = statistics.median(json.load(f))
            rows.append((name, step, max(state_bytes(manifest, r) for r in range(ranks))))
            shutil.rmtree(art)
    base_step = rows[0][1]
    print("\n%s, Adam, global batch %d, %d ranks (1 thread each) vs one process with %d threads"
          % (args.model, args.batch, n, n))
    print("  %-12s %10s %8s %22s" % ("layout", "step ms", "ratio", "Adam state per rank MiB"))
    for name, step, state in rows:
        print("  %-12s %10.1f %8.2f %22.1f" % (name, step * 1e3, step / base_step, state / 2**20))


if __name__ == "__main__":
    main()
