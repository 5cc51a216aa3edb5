#!/usr/bin/env python3
"""Latency and throughput on a busy machine: paddle-mlir vs ONNX Runtime.

    /usr/bin/python3 benchmarks/contention.py [--models resnet50,mobilenet_v2,bert_base]
        [--threads 2] [--seconds 3] [--workdir /tmp/paddle-mlir-contention] [--json out.json]

For each zoo model at batch 1 (built once from its PyTorch module; ours is the
Paddle model compiled by paddle-compile, ONNX Runtime runs the ONNX file torch
exports, as in benchmarks/peers.py) and for each system, with --threads
threads (OMP_NUM_THREADS for ours, intraOpNumThreads for ORT), every
scenario runs back-to-back inferences for --seconds in fresh processes:

  idle      one process, nothing else running: median latency
  busy      the same while a busy-loop process pinned to the last CPU runs
  2threads  two instances in two threads of one process (ours only; the
            Python API releases the GIL): total inferences per second
  2procs    two processes at once: total inferences per second
  taskset   one process under `taskset -c 0` (one CPU): median latency

Systems: ours (the runtime's default threading), ours-fixed (the same
artifact with PDRT_ADAPTIVE_THREADS=0: always --threads threads, as before
the runtime adapted the team), ort (onnxruntime-node). Outputs of ours and
ORT are checked against PyTorch first. The table gives each number and the
ratios the targets are stated in (busy / idle, ours / ORT, throughput over
one instance's idle throughput).
"""

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import threading
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import peers  # noqa: E402  (prepare, OrtRunner, ensure_ort, relerr)


def wait_for_start():
    """Tells the driver this worker is warmed up; returns the start time it sends."""
    print("ready", flush=True)
    return float(sys.stdin.readline())


def worker(args):
    """One measuring process: warms up, says "ready", runs its system back to
    back for --seconds from the start time the driver sends on stdin, and
    prints [{"times": [ms, ...], "threads": [teams used]}] (one per instance)."""
    feeds = dict(np.load(args.inputs))
    if args.system == "ort":
        tmp = os.path.join(os.path.dirname(args.inputs), "ort_worker_%d" % os.getpid())
        os.makedirs(tmp, exist_ok=True)
        ort = peers.OrtRunner(args.workdir, args.model, args.threads, feeds, tmp)
        run = ort.run
        for _ in range(3):
            run()
        start = wait_for_start()
        times = []
        while time.time() < start + args.seconds:
            times.append(run())
        ort.close()
        shutil.rmtree(tmp, ignore_errors=True)
        print(json.dumps([{"times": times}]))
        return 0
    import paddle_mlir as pm
    model = pm.load(args.model)
    results = [None] * args.instances

    ready = threading.Barrier(args.instances + 1)
    begin = [0.0]

    def loop(k):
        for _ in range(3):
            model(**feeds)
        ready.wait()
        ready.wait()
        while time.time() < begin[0]:
            time.sleep(0.0005)
        times, teams = [], []
        while time.time() < begin[0] + args.seconds:
            t0 = time.perf_counter()
            model(**feeds)
            times.append((time.perf_counter() - t0) * 1e3)
            teams.append(model.last_num_threads)
        results[k] = {"times": times, "threads": sorted(set(teams))}

    threads = [threading.Thread(target=loop, args=(k,)) for k in range(args.instances)]
    for t in threads:
        t.start()
    ready.wait()  # every instance warmed up
    begin[0] = wait_for_start()
    ready.wait()
    for t in threads:
        t.join()
    print(json.dumps(results))
    return 0


def run_workers(args, system, model_path, inputs, procs=1, instances=1, prefix=()):
    env = dict(os.environ, OMP_NUM_THREADS=str(args.threads))
    if system == "ours-fixed":
        env["PDRT_ADAPTIVE_THREADS"] = "0"
    cmd = list(prefix) + [sys.executable, os.path.abspath(__file__), "--worker",
                          "ort" if system == "ort" else "ours", "--model", model_path,
                          "--inputs", inputs, "--threads", str(args.threads), "--seconds",
                          str(args.seconds), "--instances",
                          str(instances), "--workdir", args.workdir]
    ps = [subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env)
          for _ in range(procs)]
    for p in ps:  # every worker loaded its model and warmed up
        if p.stdout.readline().strip() != "ready":
            raise SystemExit("%s worker did not start" % system)
    start = time.time() + 0.2
    for p in ps:
        p.stdin.write("%r\n" % start)
        p.stdin.flush()
    out = []
    for p in ps:
        text, _ = p.communicate(timeout=120 + args.seconds)
        if p.returncode != 0:
            raise SystemExit("%s worker failed (exit %d)" % (system, p.returncode))
        out.extend(json.loads(text.strip().splitlines()[-1]))
    return out


def median_ms(results):
    return statistics.median(results[0]["times"])


def throughput(results, seconds):
    return sum(len(r["times"]) for r in results) / seconds


def bench_model(args, name, torch, zoo, pm):
    tmp = os.path.join(args.workdir, name)
    module, pd_dir, onnx_path, feeds, tfeeds = peers.prepare(tmp, name, 1, torch, zoo)
    inputs = os.path.join(tmp, "inputs.npz")
    np.savez(inputs, **feeds)
    art = os.path.join(tmp, "ours")
    shapes = ["--input-shape=%s=%s" % (k, "x".join(map(str, v.shape))) for k, v in feeds.items()]
    subprocess.run(["paddle-compile", pd_dir, "-o", art] + shapes, check=True,
                   stdout=subprocess.DEVNULL)
    with torch.no_grad():
        want = module(*tfeeds).numpy()
    got = pm.load(art)(**feeds)[0]
    ort = peers.OrtRunner(args.workdir, onnx_path, args.threads, feeds, tmp)
    try:
        got_ort = ort.outputs(tmp)
    finally:
        ort.close()
    for who, g in (("ours", got), ("ort", got_ort)):
        err = peers.relerr(g.reshape(want.shape), want)
        if not err <= 1e-4:
            raise SystemExit("%s: %s disagrees with PyTorch (%g)" % (name, who, err))

    last_cpu = str(max(os.sched_getaffinity(0)))
    row = {"model": name}
    for system in ("ours", "ours-fixed", "ort"):
        path = onnx_path if system == "ort" else art
        r = {}
        idle = run_workers(args, system, path, inputs)
        r["idle_ms"] = median_ms(idle)
        r["idle_per_s"] = throughput(idle, args.seconds)
        r["idle_teams"] = idle[0].get("threads")
        busy = subprocess.Popen(["taskset", "-c", last_cpu, sys.executable, "-c",
                                 "while True: pass"])
        try:
            res = run_workers(args, system, path, inputs)
        finally:
            busy.kill()
            busy.wait()
        r["busy_ms"] = median_ms(res)
        r["busy_teams"] = res[0].get("threads")
        if system != "ort":
            res = run_workers(args, system, path, inputs, instances=2)
            r["2threads_per_s"] = throughput(res, args.seconds)
            r["2threads_teams"] = sorted({t for x in res for t in x["threads"]})
        res = run_workers(args, system, path, inputs, procs=2)
        r["2procs_per_s"] = throughput(res, args.seconds)
        r["2procs_teams"] = sorted({t for x in res for t in x.get("threads") or []}) or None
        res = run_workers(args, system, path, inputs, prefix=("taskset", "-c", "0"))
        r["taskset_ms"] = median_ms(res)
        row[system] = r
        print("  %s %-10s %s" % (name, system, json.dumps({k: (round(v, 2) if isinstance(v, float)
                                                                 else v) for k, v in r.items()})),
              flush=True)
    return row


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--models", default="resnet50,mobilenet_v2,bert_base")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--seconds", type=float, default=3.0)
    ap.add_argument("--workdir", default="/tmp/paddle-mlir-contention")
    ap.add_argument("--json")
    ap.add_argument("--worker", choices=("ours", "ort"), dest="system", help=argparse.SUPPRESS)
    ap.add_argument("--model", help=argparse.SUPPRESS)
    ap.add_argument("--inputs", help=argparse.SUPPRESS)
    ap.add_argument("--instances", type=int, default=1, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.system:
        return worker(args)
    os.makedirs(args.workdir, exist_ok=True)
    import torch
    import paddle_mlir as pm
    from paddle_mlir import zoo
    ort_version = peers.ensure_ort(args.workdir)
    cpu = peers._cpu_name()
    print("%s, %d CPUs; threads %d; onnxruntime-node %s; %g s per scenario" %
          (cpu, len(os.sched_getaffinity(0)), args.threads, ort_version, args.seconds), flush=True)
    rows = [bench_model(args, name, torch, zoo, pm) for name in args.models.split(",")]
    hdr = ("%-13s %-10s | %8s | %8s %6s | %10s %6s | %10s %6s | %8s" %
           ("model", "system", "idle ms", "busy ms", "/idle", "2thr inf/s", "/1x", "2proc inf/s",
            "/1x", "taskset"))
    print("\n" + hdr + "\n" + "-" * len(hdr))
    for row in rows:
        for system in ("ours", "ours-fixed", "ort"):
            r = row[system]
            two_thr = r.get("2threads_per_s")
            print("%-13s %-10s | %8.1f | %8.1f %6.2f | %10s %6s | %10.1f %6.2f | %8.1f" % (
                row["model"], system, r["idle_ms"], r["busy_ms"], r["busy_ms"] / r["idle_ms"],
                "%.1f" % two_thr if two_thr else "-",
                "%.2f" % (two_thr / r["idle_per_s"]) if two_thr else "-", r["2procs_per_s"],
                r["2procs_per_s"] / r["idle_per_s"], r["taskset_ms"]))
        o, t = row["ours"], row["ort"]
        print("%-13s ours/ORT   | %8.2f | %8.2f %6s | %10s %6s | %10.2f %6s | %8.2f" % (
            row["model"], o["idle_ms"] / t["idle_ms"], o["busy_ms"] / t["busy_ms"], "", "", "",
            o["2procs_per_s"] / t["2procs_per_s"], "", o["taskset_ms"] / t["taskset_ms"]))
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"cpu": cpu, "threads": args.threads, "onnxruntime_node": ort_version,
                       "seconds": args.seconds, "rows": rows}, f, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
