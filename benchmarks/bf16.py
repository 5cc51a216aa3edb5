#!/usr/bin/env python3
"""bf16 against fp32 on the zoo models: the same Paddle model (ResNet-50,
MobileNetV2, a 12-layer BERT-base encoder at sequence length 128, built by
paddle_mlir.zoo from PyTorch modules as benchmarks/peers.py does) compiled
with --precision fp32 and --precision bf16, timed interleaved in one run
(each round runs both once, so the machine's drift hits both alike); prints
the medians, the ratio fp32 / bf16 and the agreement (max relative error of
the outputs, and top-1 agreement for the classifiers), with the CPU and its
bf16-related flags.

Usage: PYTHONPATH=build/python /usr/bin/python3 benchmarks/bf16.py
           [--models resnet50,mobilenet_v2,bert_base] [--batches 1,8]
           [--threads 2] [--rounds 20] [--warmup 3] [--layers N] [--json FILE]

On a CPU without AVX512_BF16 or AMX-BF16 paddle-compile refuses bf16; the
script reports that and, with --allow-emulated, times the emulated build
instead (which is expected to be slower than fp32).
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
SEQ = 128
FLAGS = ("avx2", "avx512f", "avx512_vnni", "avx512_bf16", "amx_bf16", "amx_tile", "avx512_fp16")


def cpu_info():
    name, flags = "unknown", []
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("model name") and name == "unknown":
                name = line.split(":", 1)[1].strip()
            if line.startswith("flags") and not flags:
                flags = line.split(":", 1)[1].split()
    return name, [f for f in FLAGS if f in flags]


def make_inputs(name, batch, rng):
    if name == "bert_base":
        ids = rng.randint(1, 30522, size=(batch, SEQ)).astype(np.int64)
        ids[:, SEQ - 16:] = 0
        types = np.zeros((batch, SEQ), np.int64)
        types[:, SEQ // 2:] = 1
        return {"input_ids": ids, "token_type_ids": types}
    return {"image": rng.rand(batch, 3, 224, 224).astype(np.float32)}


def compile_model(src, out, shapes, precision, extra):
    t0 = time.time()
    p = subprocess.run(["paddle-compile", src, "-o", out, "--precision", precision] + shapes + extra,
                       capture_output=True, text=True)
    if p.returncode != 0:
        return None, p.stderr.strip()
    return time.time() - t0, ""


def bench(args, name, batch, zoo, pm, tmp):
    kw = {"layers": args.layers} if args.layers and name == "bert_base" else {}
    b, _ = zoo.build(name, **kw)
    src = os.path.join(tmp, name)
    b.save(src)
    feeds = make_inputs(name, batch, np.random.RandomState(0))
    shapes = ["--input-shape=%s=%s" % (k, "x".join(map(str, v.shape))) for k, v in feeds.items()]
    row = {"model": name, "batch": batch}
    arts = {}
    for prec in ("fp32", "bf16"):
        out = os.path.join(tmp, "%s_b%d_%s" % (name, batch, prec))
        extra = ["--allow-emulated-bf16"] if prec == "bf16" and args.allow_emulated else []
        secs, err = compile_model(src, out, shapes, prec, extra)
        if secs is None:
            row["error"] = err
            return row
        row["compile_s_" + prec] = round(secs, 1)
        arts[prec] = pm.load(out, threads=args.threads)
    with open(os.path.join(tmp, "%s_b%d_bf16" % (name, batch), "manifest.json")) as f:
        man = json.load(f)
    row["bf16_ops"] = man["compute_ops"]["bf16_ops"]
    row["compute_ops"] = len(man["compute_ops"]["ops"])
    row["emulated"] = man["compute_ops"]["bf16"]["emulated"]
    y32, y16 = arts["fp32"](**feeds)[0], arts["bf16"](**feeds)[0]
    row["max_rel_err"] = float(np.abs(y32 - y16).max() / np.abs(y32).max())
    if name != "bert_base":
        row["top1_agree"] = float(np.mean(y32.argmax(-1) == y16.argmax(-1)))
    times = {"fp32": [], "bf16": []}
    for r in range(args.warmup + args.rounds):
        for prec in ("fp32", "bf16"):
            time.sleep(args.pause)
            t0 = time.perf_counter()
            arts[prec](**feeds)
            if r >= args.warmup:
                times[prec].append((time.perf_counter() - t0) * 1e3)
    for prec, ts in times.items():
        row[prec + "_ms"] = statistics.median(ts)
    row["speedup"] = row["fp32_ms"] / row["bf16_ms"]
    return row


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--models", default="resnet50,mobilenet_v2,bert_base")
    ap.add_argument("--batches", default="1,8")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--rounds", type=int, default=20)
    ap.add_argument("--warmup", type=int, default=3)
    ap.add_argument("--pause", type=float, default=0.05)
    ap.add_argument("--layers", type=int, help="BERT encoder layers (default 12)")
    ap.add_argument("--allow-emulated", action="store_true",
                    help="on CPUs without bf16 arithmetic, time the emulated build")
    ap.add_argument("--json")
    args = ap.parse_args()
    import paddle_mlir as pm
    from paddle_mlir import zoo
    build_bin = os.path.join(os.environ.get("PADDLE_MLIR_BUILD_DIR",
                                            os.path.join(HERE, "..", "build")), "bin")
    os.environ["PATH"] = build_bin + os.pathsep + os.environ["PATH"]
    cpu, flags = cpu_info()
    print("CPU: %s; flags: %s; %d threads" % (cpu, " ".join(flags) or "-", args.threads))
    if "avx512_bf16" not in flags and "amx_bf16" not in flags:
        print("no AVX512_BF16 / AMX-BF16: paddle-compile refuses --precision bf16 here%s"
              % (" (timing the emulated build instead)" if args.allow_emulated else ""))
    rows = []
    print("%-13s %5s %10s %10s %8s %9s %9s %8s" % ("model", "batch", "fp32 ms", "bf16 ms",
                                                  "speedup", "bf16 ops", "max rel", "top-1"))
    with tempfile.TemporaryDirectory() as tmp:
        for name in args.models.split(","):
            for batch in (int(x) for x in args.batches.split(",")):
                row = bench(args, name, batch, zoo, pm, tmp)
                rows.append(row)
                if "error" in row:
                    print("%-13s %5d  bf16 refused: %s" % (name, batch, row["error"]))
                    continue
                print("%-13s %5d %10.2f %10.2f %7.2fx %4d/%-4d %9.2e %8s%s"
                      % (name, batch, row["fp32_ms"], row["bf16_ms"], row["speedup"],
                         row["bf16_ops"], row["compute_ops"], row["max_rel_err"],
                         "%.0f%%" % (100 * row["top1_agree"]) if "top1_agree" in row else "-",
                         " (emulated)" if row["emulated"] else ""), flush=True)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"cpu": cpu, "flags": flags, "threads": args.threads, "rows": rows}, f,
                      indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
