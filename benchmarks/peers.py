#!/usr/bin/env python3
"""Side-by-side CPU latency: paddle-mlir vs ONNX Runtime vs PyTorch.

    /usr/bin/python3 benchmarks/peers.py [--models resnet50,mobilenet_v2,bert_base]
        [--batches 1,8] [--threads 2] [--rounds 20] [--warmup 3]
        [--workdir /tmp/paddle-mlir-bench] [--json results.json]

For each model and batch size the zoo builds the model once from a PyTorch
module (torchvision ResNet-50 / MobileNetV2, a 12-layer BERT-base encoder at
sequence length 128), so every system computes with the same weights:

  ours         paddle-compile of the zoo's Paddle model (.pdmodel/.pdiparams)
  ours-onnx    paddle-compile of the ONNX file torch exported (opset 17)
  onnxruntime  that ONNX file in onnxruntime-node (npm, installed here with
               --ignore-scripts; its CPU build needs no download at run time)
  pytorch      the PyTorch module (Debian's torch), torch.no_grad()

All four must agree (max|a - b| / max|b| <= --tol against PyTorch) before
anything is timed. Timing is interleaved: every round runs each system once,
in turn, so drift of the machine hits all of them alike. Every system gets
--threads intra-op threads. The table gives median and p90 per system and the
ratios ours / best peer, ours / ORT, ours / PyTorch; --json writes all of it.

Debian's torch links the reference BLAS through the alternatives system,
which is very slow for matmuls; this script re-runs itself with OpenMP
OpenBLAS (libopenblas0-openmp) first on LD_LIBRARY_PATH and reports the BLAS
library PyTorch actually loaded.
"""

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ORT_PACKAGE = "onnxruntime-node@1.30.0"
OPENBLAS_DIRS = ("/usr/lib/x86_64-linux-gnu/openblas-openmp",
                 "/usr/lib/x86_64-linux-gnu/openblas-pthread")
SEQ = 128


def reexec_with_env(threads):
    """Same thread count everywhere; OpenBLAS for PyTorch."""
    if os.environ.get("PDMLIR_BENCH_CHILD") == "1":
        return
    env = dict(os.environ, PDMLIR_BENCH_CHILD="1", OMP_NUM_THREADS=str(threads))
    for d in OPENBLAS_DIRS:
        if os.path.exists(os.path.join(d, "libblas.so.3")):
            env["LD_LIBRARY_PATH"] = d + (":" + env["LD_LIBRARY_PATH"]
                                          if env.get("LD_LIBRARY_PATH") else "")
            break
    os.execve(sys.executable, [sys.executable] + sys.argv, env)


def loaded_blas():
    """Shared libraries with 'blas' in their name this process has mapped."""
    libs = set()
    with open("/proc/self/maps") as f:
        for line in f:
            p = line.split()[-1]
            if "blas" in os.path.basename(p).lower():
                libs.add(os.path.realpath(p))
    return sorted(libs)


def ensure_ort(workdir):
    mod = os.path.join(workdir, "node_modules", "onnxruntime-node")
    if not os.path.isdir(mod):
        print("installing %s with npm --ignore-scripts ..." % ORT_PACKAGE, flush=True)
        subprocess.run(["npm", "install", "--prefix", workdir, "--ignore-scripts", "--no-audit",
                        "--no-fund", ORT_PACKAGE], check=True, stdout=subprocess.DEVNULL)
    with open(os.path.join(mod, "package.json")) as f:
        return json.load(f)["version"]


def relerr(a, b):
    return float(np.max(np.abs(a.astype(np.float64) - b)) / max(np.max(np.abs(b)), 1e-30))


class OrtRunner:
    def __init__(self, workdir, onnx_path, threads, feeds, tmp):
        specs = []
        for i, (name, arr) in enumerate(feeds.items()):
            f = os.path.join(tmp, "ort_in%d.bin" % i)
            np.ascontiguousarray(arr).tofile(f)
            specs.append({"name": name, "dtype": str(arr.dtype), "shape": list(arr.shape), "file": f})
        spec_file = os.path.join(tmp, "ort_inputs.json")
        with open(spec_file, "w") as f:
            json.dump(specs, f)
        env = dict(os.environ, NODE_PATH=os.path.join(workdir, "node_modules"))
        self.p = subprocess.Popen(["node", os.path.join(HERE, "ort_runner.js"), onnx_path,
                                   str(threads), spec_file], stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, text=True, env=env)
        if self.p.stdout.readline().strip() != "ready":
            raise RuntimeError("onnxruntime-node did not start (see its message above)")

    def ask(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()
        reply = self.p.stdout.readline().strip()
        if not reply:
            raise RuntimeError("onnxruntime-node exited")
        return reply

    def run(self):
        return float(self.ask("run"))

    def outputs(self, tmp):
        d = os.path.join(tmp, "ort_out")
        os.makedirs(d, exist_ok=True)
        self.ask("dump " + d)
        with open(os.path.join(d, "0.json")) as f:
            shape = json.load(f)
        return np.fromfile(os.path.join(d, "0.bin"), np.float32).reshape(shape)

    def close(self):
        try:
            self.p.stdin.write("quit\n")
            self.p.stdin.flush()
        except BrokenPipeError:
            pass
        self.p.wait(timeout=30)


def make_inputs(name, batch, rng):
    if name == "bert_base":
        ids = rng.randint(1, 30522, size=(batch, SEQ)).astype(np.int64)
        ids[:, SEQ - 16:] = 0  # padding, so the attention mask matters
        types = np.zeros((batch, SEQ), np.int64)
        types[:, SEQ // 2:] = 1
        return {"input_ids": ids, "token_type_ids": types}
    return {"image": rng.rand(batch, 3, 224, 224).astype(np.float32)}


def timed(fn):
    t0 = time.perf_counter()
    fn()
    return (time.perf_counter() - t0) * 1e3


def prepare(tmp, name, batch, torch, zoo):
    """Builds zoo model `name` in a fresh `tmp`: its Paddle model (tmp/paddle),
    the ONNX file torch exports (tmp/model.onnx) and seeded inputs. Returns
    (module, pd_dir, onnx_path, feeds, torch feeds)."""
    shutil.rmtree(tmp, ignore_errors=True)
    os.makedirs(tmp)
    b, module = zoo.build(name)
    pd_dir = os.path.join(tmp, "paddle")
    b.save(pd_dir)
    feeds = make_inputs(name, batch, np.random.RandomState(0))
    tfeeds = tuple(torch.from_numpy(v) for v in feeds.values())
    onnx_path = os.path.join(tmp, "model.onnx")
    torch.onnx.export(module, tfeeds, onnx_path, opset_version=17, input_names=list(feeds),
                      output_names=["out"])
    return module, pd_dir, onnx_path, feeds, tfeeds


def bench_one(args, name, batch, torch, zoo, pm, ort_version):
    tag = "%s_b%d" % (name, batch)
    tmp = os.path.join(args.workdir, tag)
    module, pd_dir, onnx_path, feeds, tfeeds = prepare(tmp, name, batch, torch, zoo)
    shapes = ["--input-shape=%s=%s" % (k, "x".join(map(str, v.shape))) for k, v in feeds.items()]
    compile_s = {}
    arts = {}
    for variant, src in (("ours", pd_dir), ("ours-onnx", onnx_path)):
        art = os.path.join(tmp, variant)
        t0 = time.time()
        subprocess.run(["paddle-compile", src, "-o", art] + shapes, check=True,
                       stdout=subprocess.DEVNULL)
        compile_s[variant] = round(time.time() - t0, 1)
        arts[variant] = pm.load(art)
    ort = OrtRunner(args.workdir, onnx_path, args.threads, feeds, tmp)
    try:
        with torch.no_grad():
            want = module(*tfeeds).numpy()
        got = {v: arts[v](**feeds)[0] for v in arts}
        got["onnxruntime"] = ort.outputs(tmp)
        errors = {k: relerr(v.reshape(want.shape), want) for k, v in got.items()}
        bad = {k: e for k, e in errors.items() if not e <= args.tol}
        if bad:
            raise SystemExit("%s: outputs disagree with PyTorch beyond %g: %s" % (tag, args.tol, bad))

        def torch_call():
            with torch.no_grad():
                module(*tfeeds)
        systems = {
            "ours": lambda: timed(lambda: arts["ours"](**feeds)),
            "ours-onnx": lambda: timed(lambda: arts["ours-onnx"](**feeds)),
            "onnxruntime": ort.run,
            "pytorch": lambda: timed(torch_call),
        }
        times = {k: [] for k in systems}
        for r in range(args.warmup + args.rounds):
            for k, fn in systems.items():
                # Let the previous system's spinning worker threads go idle.
                time.sleep(args.pause)
                t = fn()
                if r >= args.warmup:
                    times[k].append(t)
    finally:
        ort.close()
    row = {"model": name, "batch": batch, "compile_s": compile_s, "max_rel_err_vs_torch": errors}
    for k, ts in times.items():
        ts = sorted(ts)
        row[k] = {"median_ms": statistics.median(ts), "p90_ms": ts[int(0.9 * (len(ts) - 1))],
                  "runs": len(ts)}
    med = {k: row[k]["median_ms"] for k in systems}
    row["ours_over_ort"] = med["ours"] / med["onnxruntime"]
    row["ours_over_torch"] = med["ours"] / med["pytorch"]
    row["ours_over_best_peer"] = med["ours"] / min(med["onnxruntime"], med["pytorch"])
    row["ours_onnx_over_best_peer"] = med["ours-onnx"] / min(med["onnxruntime"], med["pytorch"])
    return row


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--models", default="resnet50,mobilenet_v2,bert_base")
    ap.add_argument("--batches", default="1,8")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--rounds", type=int, default=20)
    ap.add_argument("--warmup", type=int, default=3)
    ap.add_argument("--tol", type=float, default=1e-4)
    ap.add_argument("--pause", type=float, default=0.05,
                    help="seconds of idle before each timed call (thread pools stop spinning)")
    ap.add_argument("--workdir", default="/tmp/paddle-mlir-bench")
    ap.add_argument("--json")
    args = ap.parse_args()
    reexec_with_env(args.threads)
    os.makedirs(args.workdir, exist_ok=True)
    import torch
    import paddle_mlir as pm
    from paddle_mlir import zoo
    torch.set_num_threads(args.threads)
    torch.matmul(torch.ones(64, 64), torch.ones(64, 64))  # loads the BLAS
    blas = loaded_blas()
    ort_version = ensure_ort(args.workdir)
    print("threads %d; PyTorch %s with BLAS %s; onnxruntime-node %s" %
          (args.threads, torch.__version__, ", ".join(blas) or "(none found)", ort_version),
          flush=True)
    rows = []
    hdr = "%-13s %5s | %-19s %-19s %-19s %-19s | %7s %7s %7s" % (
        "model", "batch", "ours med/p90 ms", "ours-onnx med/p90", "onnxruntime med/p90",
        "pytorch med/p90", "/best", "/ORT", "/torch")
    lines = [hdr, "-" * len(hdr)]
    print(hdr, flush=True)
    for name in args.models.split(","):
        for batch in map(int, args.batches.split(",")):
            row = bench_one(args, name, batch, torch, zoo, pm, ort_version)
            rows.append(row)
            cell = lambda k: "%8.1f / %-8.1f" % (row[k]["median_ms"], row[k]["p90_ms"])
            line = "%-13s %5d | %s %s %s %s | %7.2f %7.2f %7.2f" % (
                name, batch, cell("ours"), cell("ours-onnx"), cell("onnxruntime"),
                cell("pytorch"), row["ours_over_best_peer"], row["ours_over_ort"],
                row["ours_over_torch"])
            lines.append(line)
            print(line + "   (compile s: %s)" % row["compile_s"], flush=True)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"threads": args.threads, "torch": torch.__version__, "torch_blas": blas,
                       "onnxruntime_node": ort_version, "cpu": _cpu_name(), "rows": rows}, f,
                      indent=2)
    return 0


def _cpu_name():
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    return "unknown"


if __name__ == "__main__":
    sys.exit(main())
