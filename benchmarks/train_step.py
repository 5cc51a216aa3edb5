#!/usr/bin/env python3
"""fp32 train steps against PyTorch: ResNet-50 (batch 8, 224x224, softmax
cross-entropy, momentum 0.9) and a BERT-base encoder with a 2-class head
on its first position (batch 8, sequence 128, AdamW), built by
paddle_mlir.zoo from the same seeded PyTorch modules, so both sides start
from the same weights and see the same batch.

Ours: `paddle-compile --train` (compile time and the compiler's peak RSS
measured), then the steps in a fresh process that imports only numpy and
paddle_mlir. PyTorch: the same module in train mode, the same loss and
optimizer, in another fresh process. Each process reports its step times
and its own peak resident memory (getrusage), so neither side pays for the
other. Prints the medians, ours/PyTorch for time and memory, the first
step's loss of each (they should agree: same weights, same batch), and the
CPU with its flags. Not a test: nothing is asserted.

Usage: PYTHONPATH=build/python /usr/bin/python3 benchmarks/train_step.py
           [--models resnet50,bert_base] [--batch 8] [--threads 2]
           [--steps 5] [--warmup 2] [--layers N] [--json FILE]

bert_base's dropouts are the zoo's inference-mode ones on both sides (the
PyTorch module has none); batch_norm runs in training mode on both.
"""
import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bf16 import cpu_info  # noqa: E402  (model name and the flags that matter)

SEQ = 128
CLASSES = {"resnet50": 1000, "bert_base": 2}
OPTIMIZER = {"resnet50": ("momentum", 0.01), "bert_base": ("adamw", 1e-4)}


def make_batch(name, batch):
    rng = np.random.RandomState(0)
    if name == "bert_base":
        ids = rng.randint(1, 30522, size=(batch, SEQ)).astype(np.int64)
        ids[:, SEQ - 16:] = 0
        types = np.zeros((batch, SEQ), np.int64)
        types[:, SEQ // 2:] = 1
        feeds = {"input_ids": ids, "token_type_ids": types}
    else:
        feeds = {"image": rng.rand(batch, 3, 224, 224).astype(np.float32)}
    feeds["label"] = rng.randint(0, CLASSES[name], size=(batch, 1)).astype(np.int64)
    return feeds


def zoo_kwargs(name, args):
    kw = {}
    if name == "bert_base":
        kw["classes"] = CLASSES[name]
        if args.layers:
            kw["layers"] = args.layers
    return kw


def peak_rss_mib():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0


def worker_ours(args):
    import paddle_mlir.train
    data = dict(np.load(args.data))
    step = paddle_mlir.train.TrainStep(args.artifact, threads=args.threads)
    names = [spec.name for spec in step.inputs]
    times, losses = [], []
    for i in range(args.warmup + args.steps):
        t0 = time.perf_counter()
        loss = step.step(**{n: data[n] for n in names})
        dt = time.perf_counter() - t0
        losses.append(float(loss))
        if i >= args.warmup:
            times.append(dt)
    return {"times": times, "losses": losses, "rss_mib": peak_rss_mib()}


def worker_torch(args):
    import torch
    torch.set_num_threads(args.threads)
    from paddle_mlir import zoo
    kw = zoo_kwargs(args.model, args)
    if args.model == "resnet50":
        model = zoo.make_torch_resnet50(0)
    else:
        model = zoo.make_torch_bert(0, **kw)
    model.train()
    data = {k: torch.from_numpy(v) for k, v in np.load(args.data).items()}
    label = data.pop("label")[:, 0]
    inputs = [data["image"]] if args.model == "resnet50" else [data["input_ids"], data["token_type_ids"]]
    kind, lr = OPTIMIZER[args.model]
    if kind == "momentum":
        opt = torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9)
    else:
        opt = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=0.01, eps=1e-8)
    times, losses = [], []
    for i in range(args.warmup + args.steps):
        t0 = time.perf_counter()
        opt.zero_grad(set_to_none=True)
        loss = torch.nn.functional.cross_entropy(model(*inputs), label)
        loss.backward()
        opt.step()
        dt = time.perf_counter() - t0
        losses.append(float(loss))
        if i >= args.warmup:
            times.append(dt)
    return {"times": times, "losses": losses, "rss_mib": peak_rss_mib()}


def run_worker(kind, args, extra):
    cmd = [sys.executable, os.path.abspath(__file__), "--worker", kind, "--threads", str(args.threads),
           "--steps", str(args.steps), "--warmup", str(args.warmup)] + extra
    if args.layers:
        cmd += ["--layers", str(args.layers)]
    env = dict(os.environ, OMP_NUM_THREADS=str(args.threads))
    p = subprocess.run(cmd, capture_output=True, text=True, env=env)
    if p.returncode != 0:
        return {"error": (p.stderr.strip().splitlines() or ["exit %d" % p.returncode])[-1]}
    return json.loads(p.stdout.strip().splitlines()[-1])


def bench(args, name, tmp):
    from paddle_mlir import zoo
    print("%s: building the program ..." % name, flush=True)
    b, _ = zoo.build(name, **zoo_kwargs(name, args))
    src = os.path.join(tmp, name)
    b.save(src)
    feeds = make_batch(name, args.batch)
    data = os.path.join(tmp, name + "_batch.npz")
    np.savez(data, **feeds)
    kind, lr = OPTIMIZER[name]
    out = os.path.join(tmp, name + "_train")
    cmd = ["paddle-compile", src, "-o", out, "--train", "--loss-op", "softmax_with_cross_entropy",
           "--optimizer", kind, "--lr", repr(lr)]
    cmd += ["--input-shape=%s=%s" % (k, "x".join(map(str, v.shape))) for k, v in feeds.items() if k != "label"]
    if kind == "momentum":
        cmd += ["--momentum", "0.9"]
    print("%s: %s" % (name, " ".join(cmd)), flush=True)
    t0 = time.time()
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    err = p.stderr.read().decode()
    _, status, usage = os.wait4(p.pid, 0)
    row = {"model": name, "batch": args.batch, "compile_s": time.time() - t0,
           "compile_rss_mib": usage.ru_maxrss / 1024.0}
    if status != 0:
        row["error"] = "paddle-compile: " + (err.strip().splitlines() or ["failed"])[-1]
        return row
    print("%s: compiled in %.1f s; timing ours ..." % (name, row["compile_s"]), flush=True)
    row["ours"] = run_worker("ours", args, ["--artifact", out, "--data", data])
    print("%s: timing PyTorch ..." % name, flush=True)
    row["torch"] = run_worker("torch", args, ["--model", name, "--data", data])
    return row


def report(rows, args):
    cpu, flags = cpu_info()
    print()
    print("CPU: %s; flags: %s; %d threads; %d timed steps after %d warm-up" %
          (cpu, " ".join(flags) or "-", args.threads, args.steps, args.warmup))
    print("%-10s %5s %9s %11s %11s %8s %9s %9s %8s %12s %12s" %
          ("model", "batch", "compile", "ours ms", "torch ms", "time", "ours MiB", "torch MiB", "memory",
           "loss1 ours", "loss1 torch"))
    for r in rows:
        if "error" in r:
            print("%-10s %5d  error: %s" % (r["model"], r["batch"], r["error"]))
            continue
        o, t = r["ours"], r["torch"]
        if "error" in o or "error" in t:
            print("%-10s %5d  ours: %s; torch: %s" % (r["model"], r["batch"], o.get("error", "ok"),
                                                        t.get("error", "ok")))
            continue
        om, tm = statistics.median(o["times"]) * 1e3, statistics.median(t["times"]) * 1e3
        print("%-10s %5d %8.1fs %11.1f %11.1f %7.2fx %9.0f %9.0f %7.2fx %12.6f %12.6f" %
              (r["model"], r["batch"], r["compile_s"], om, tm, om / tm, o["rss_mib"], t["rss_mib"],
               o["rss_mib"] / t["rss_mib"], o["losses"][0], t["losses"][0]))
    print("time and memory are ours / PyTorch (lower is better for us); compile: paddle-compile --train "
          "wall time")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--models", default="resnet50,bert_base")
    ap.add_argument("--batch", type=int, default=8)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--steps", type=int, default=5)
    ap.add_argument("--warmup", type=int, default=2)
    ap.add_argument("--layers", type=int, default=0, help="bert_base: encoder layers (default 12)")
    ap.add_argument("--json")
    ap.add_argument("--worker", choices=("ours", "torch"), help=argparse.SUPPRESS)
    ap.add_argument("--artifact", help=argparse.SUPPRESS)
    ap.add_argument("--data", help=argparse.SUPPRESS)
    ap.add_argument("--model", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker:
        result = worker_ours(args) if args.worker == "ours" else worker_torch(args)
        print(json.dumps(result))
        return
    models = [m for m in args.models.split(",") if m]
    for m in models:
        if m not in CLASSES:
            ap.error("unknown model %r (have: %s)" % (m, ", ".join(CLASSES)))
    rows = []
    with tempfile.TemporaryDirectory(prefix="pm_train_bench_") as tmp:
        for m in models:
            rows.append(bench(args, m, tmp))
    report(rows, args)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"cpu": cpu_info()[0], "rows": rows}, f, indent=1)


if __name__ == "__main__":
    main()
