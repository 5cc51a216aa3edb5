#!/usr/bin/env python3
"""Pipeline inference beside one process on the same cores.

Compiles ResNet-50 (torchvision's, seeded) at a static batch for one
process and as a pipeline of --stages stages with --micro-batches parts
(paddle-compile --partition pipeline), then times, in one run, the one
process with as many threads as there are stages and the pipeline under
`mpirun -np STAGES` with one thread per rank. Reports the median latency
of a batch and the ratio pipeline / one process (below 1: the pipeline is
faster). On one machine the stages share its cores and memory; the
pipeline is the layout for models larger than one device, so this
measures what the cut and the send/recv cost here, not a speed-up.

Usage: PYTHONPATH=build/python /usr/bin/python3 benchmarks/pipeline.py
           [--stages 2] [--batch 4] [--micro-batches 4] [--runs 5]
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile

WORKER = r'''
import os, sys, time, json
import numpy as np
import paddle_mlir
art, runs, threads, out = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
model = paddle_mlir.load(art, threads=threads)
rank = int(os.environ.get("OMPI_COMM_WORLD_RANK", "0"))
(spec,) = model.inputs
x = np.random.default_rng(0).random(spec.shape).astype(np.float32)
model(x)  # warm-up
times = []
for _ in range(runs):
    t0 = time.perf_counter()
    model(x)
    times.append(time.perf_counter() - t0)
if rank == 0:
    with open(out, "w") as f:
        json.dump(times, f)
'''


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--stages", type=int, default=2)
    ap.add_argument("--batch", type=int, default=4)
    ap.add_argument("--micro-batches", type=int, default=4)
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args()
    import paddle_mlir
    from paddle_mlir import zoo
    mpirun = shutil.which("mpirun")
    if not mpirun:
        sys.exit("mpirun (openmpi-bin) is needed")
    with tempfile.TemporaryDirectory() as tmp:
        b, _ = zoo.resnet50(seed=0)
        b.save(os.path.join(tmp, "r50"))
        shapes = {"image": [args.batch, 3, 224, 224]}
        one = os.path.join(tmp, "one")
        pp = os.path.join(tmp, "pp")
        paddle_mlir.compile(os.path.join(tmp, "r50"), input_shapes=shapes, output_dir=one)
        paddle_mlir.compile(os.path.join(tmp, "r50"), input_shapes=shapes, output_dir=pp,
                            partition="pipeline", devices=args.stages,
                            micro_batches=args.micro_batches)
        with open(os.path.join(pp, "manifest.json")) as f:
            stages = json.load(f)["partition"]["stages"]
        worker = os.path.join(tmp, "worker.py")
        with open(worker, "w") as f:
            f.write(WORKER)
        med = {}
        out = os.path.join(tmp, "one.json")
        p = subprocess.run([sys.executable, worker, one, str(args.runs), str(args.stages), out],
                           capture_output=True, text=True)
        if p.returncode:
            sys.exit(p.stderr)
        with open(out) as f:
            med["one process"] = statistics.median(json.load(f))
        out = os.path.join(tmp, "pp.json")
        p = subprocess.run([mpirun, "--allow-run-as-root", "--oversubscribe", "-np", str(args.stages),
                            "--mca", "btl", "self,vader", "--mca", "btl_vader_single_copy_mechanism",
                            "none", sys.executable, worker, pp, str(args.runs), "1", out],
                           capture_output=True, text=True)
        if p.returncode:
            sys.exit(p.stdout + p.stderr)
        with open(out) as f:
            med["pipeline"] = statistics.median(json.load(f))
    print("ResNet-50, batch %d; pipeline of %d stages, %d micro-batches" %
          (args.batch, args.stages, args.micro_batches))
    for s in stages:
        print("  stage %d: %d ops, %.2f GFLOP, sends %.1f MB" %
              (s["stage"], s["ops"], s["flops"] / 1e9, s["sends_bytes"] / 1e6))
    print("  one process (%d threads): %.1f ms" % (args.stages, med["one process"] * 1e3))
    print("  pipeline (1 thread per rank): %.1f ms" % (med["pipeline"] * 1e3))
    print("  pipeline / one process: %.2f" % (med["pipeline"] / med["one process"]))


if __name__ == "__main__":
    main()
