#!/usr/bin/env python3
"""Measures what the graph pipeline and the memory planner do (issue 5).

For each zoo model and batch size it reports: pd op count before and after
--pd-optimize, the activation arena with the static memory plan against the
sum of all intermediate buffers (no reuse), and the median latency with the
graph pipeline on and off (paddle-compile [--no-optimize], paddle-run) and
with the pipeline on plus --memory-plan. Run from
the repository root after the build:

    PATH=build/bin:$PATH PYTHONPATH=build/python \
        /usr/bin/python3 benchmarks/graph_opt.py [--models resnet50,...] [--batches 1,8]

Writes a Markdown table to stdout and JSON to --json (default
build/graph_opt.json). Compile and run times are this machine's; nothing is
asserted.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time

import numpy as np

INPUTS = {
    "resnet50": lambda b: {"image": ("float32", [b, 3, 224, 224], None)},
    "mobilenet_v2": lambda b: {"image": ("float32", [b, 3, 224, 224], None)},
    "bert_base": lambda b: {"input_ids": ("int64", [b, 128], 30522),
                            "token_type_ids": ("int64", [b, 128], 2)},
}


def run(cmd, **kw):
    return subprocess.run(cmd, check=True, capture_output=True, text=True, **kw)


def op_count(text):
    return len(re.findall(r"= pd\.[a-z_0-9]+", text))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--models", default="resnet50,mobilenet_v2,bert_base")
    ap.add_argument("--batches", default="1,8")
    ap.add_argument("--iterations", type=int, default=3)
    ap.add_argument("--json", default="build/graph_opt.json")
    args = ap.parse_args()
    rows = []
    work = tempfile.mkdtemp(prefix="graph_opt.")
    for name in args.models.split(","):
        model = os.path.join(work, name)
        run([sys.executable, "-m", "paddle_mlir.zoo", name, model])
        imported = run(["paddle-translate", "--import-paddle", model]).stdout
        optimized = run(["paddle-opt", "--pd-optimize"], input=imported).stdout
        before, after = op_count(imported), op_count(optimized)
        for batch in [int(b) for b in args.batches.split(",")]:
            rng = np.random.default_rng(batch)
            feeds, shapes = [], []
            for inp, (dtype, shape, high) in INPUTS[name](batch).items():
                path = os.path.join(work, "%s_%s_%d.npy" % (name, inp, batch))
                data = (rng.integers(0, high, shape) if high else rng.standard_normal(shape))
                np.save(path, data.astype(dtype))
                feeds.append("--input=%s=%s" % (inp, path))
                shapes.append("--input-shape=%s=%s" % (inp, "x".join(map(str, shape))))
            row = {"model": name, "batch": batch, "ops_before": before, "ops_after": after}
            # on / off: graph pipeline with and without (no memory plan, the
            # default); plan: graph pipeline + --memory-plan (arena numbers).
            for mode in ("on", "off", "plan"):
                out = os.path.join(work, "%s_%d_%s" % (name, batch, mode))
                flags = {"on": [], "off": ["--no-optimize"], "plan": ["--memory-report"]}[mode]
                t0 = time.time()
                res = run(["paddle-compile", model, "-o", out] + shapes + flags)
                row["compile_s_" + mode] = round(time.time() - t0, 1)
                if mode == "plan":
                    m = re.search(r"arena (\d+) bytes, without reuse (\d+) bytes", res.stderr)
                    row["arena_bytes"] = int(m.group(1))
                    row["no_reuse_bytes"] = int(m.group(2))
                timing = run(["paddle-run", out, "--iterations", str(args.iterations),
                              "--warmup", "1"] + feeds).stdout
                m = re.search(r"median ([0-9.]+)", timing)
                row["median_ms_" + mode] = float(m.group(1)) if m else None
            rows.append(row)
            print(json.dumps(row), file=sys.stderr, flush=True)
    os.makedirs(os.path.dirname(args.json) or ".", exist_ok=True)
    with open(args.json, "w") as f:
        json.dump(rows, f, indent=2)
    mib = lambda b: "%.1f" % (b / 2**20)
    print("| model | batch | pd ops before -> after | arena MiB (planned) | intermediates MiB "
          "(no reuse) | cut | median ms: pipeline on | off | on + memory plan | compile s on |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        cut = 100.0 * (1 - r["arena_bytes"] / r["no_reuse_bytes"])
        print("| %s | %d | %d -> %d | %s | %s | %.1f%% | %s | %s | %s | %s |" % (
            r["model"], r["batch"], r["ops_before"], r["ops_after"], mib(r["arena_bytes"]),
            mib(r["no_reuse_bytes"]), cut, r["median_ms_on"], r["median_ms_off"],
            r["median_ms_plan"], r["compile_s_on"]))


if __name__ == "__main__":
    main()
