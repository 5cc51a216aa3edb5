#!/usr/bin/env python3
"""Runs the ONNX backend node tests (libonnx-testdata) through paddle-mlir.

Each case directory holds model.onnx and test_data_set_*/{input,output}_N.pb.
A case is compiled with paddle-compile, run with paddle-run on every data
set, and its outputs compared with the stored ones (rtol 1e-3, atol 1e-5).

    conformance.py [--data DIR] [--filter REGEX] [--cases FILE] [--jobs N]
                   [--xfail FILE] [--json OUT] [--write-xfail FILE]

Outcomes: pass; fail (wrong numbers, or a run-time error); unsupported (the
importer or the CPU backend reports an op or attribute value it does not
handle, which it must do with a clear error). Prints counts overall and per
op, and writes a JSON summary with every case's outcome and message.

With --xfail FILE (lines "case_name  reason"), a failing or unsupported
case listed there is expected; the exit status is non-zero only for
unexpected failures (and for listed cases that now pass, so the list stays
honest). --write-xfail FILE rewrites such a list from this run (keeping the
file's leading comment lines); only meaningful for a run over all cases.
"""
import argparse
import collections
import concurrent.futures
import glob
import json
import os
import re
import subprocess
import sys
import tempfile

import numpy as np
import onnx
from onnx import numpy_helper

UNSUPPORTED = re.compile(r"unsupported ONNX op|(is|are) not supported|cannot map to pd\.|"
                         r"code generation cannot compile|unsupported data type|"
                         r"must be a constant|must be constant|only the '.*' form|"
                         r"inputs are supported|must be a tensor of a supported type")


def default_data():
    try:
        files = subprocess.run(["dpkg", "-L", "libonnx-testdata"], capture_output=True,
                               text=True).stdout.split()
        for f in files:
            if f.endswith("/node/test_relu/model.onnx"):
                return os.path.dirname(os.path.dirname(f))
    except OSError:
        pass
    return "/usr/share/libonnx-testdata/data/node"


def first_line(text):
    for line in text.splitlines():
        if "error" in line:
            return line.strip()[:300]
    return text.strip().splitlines()[-1][:300] if text.strip() else ""


def run_case(case_dir, work):
    name = os.path.basename(case_dir)
    model_path = os.path.join(case_dir, "model.onnx")
    model = onnx.load(model_path)
    ops = sorted({n.op_type for n in model.graph.node})
    out_dir = os.path.join(work, name)
    res = subprocess.run(["paddle-compile", model_path, "-o", out_dir],
                         capture_output=True, text=True, timeout=600)
    if res.returncode != 0:
        msg = first_line(res.stderr)
        return name, ops, ("unsupported" if UNSUPPORTED.search(res.stderr) else "fail"), msg
    inits = {i.name for i in model.graph.initializer}
    inputs = [i.name for i in model.graph.input if i.name not in inits]
    outputs = [o.name for o in model.graph.output]
    out_types = {o.name: o.type.tensor_type.elem_type for o in model.graph.output}
    sets = sorted(glob.glob(os.path.join(case_dir, "test_data_set_*")))
    for k, ds in enumerate(sets):
        args = ["paddle-run", out_dir, "--output-dir", os.path.join(out_dir, "out%d" % k)]
        for i, inp in enumerate(inputs):
            t = onnx.TensorProto()
            with open(os.path.join(ds, "input_%d.pb" % i), "rb") as f:
                t.ParseFromString(f.read())
            path = os.path.join(out_dir, "in%d_%d.npy" % (k, i))
            np.save(path, numpy_helper.to_array(t))
            args.append("--input=%s=%s" % (inp, path))
        res = subprocess.run(args, capture_output=True, text=True, timeout=600)
        if res.returncode != 0:
            return name, ops, "fail", "run: " + first_line(res.stderr)
        for i, out in enumerate(outputs):
            t = onnx.TensorProto()
            with open(os.path.join(ds, "output_%d.pb" % i), "rb") as f:
                t.ParseFromString(f.read())
            want = numpy_helper.to_array(t)
            got = np.load(os.path.join(out_dir, "out%d" % k, out.replace("/", "_") + ".npy"))
            if got.shape != want.shape:
                return name, ops, "fail", "output %s: shape %s, expected %s" % (
                    out, list(got.shape), list(want.shape))
            if out_types.get(out) == onnx.TensorProto.BFLOAT16:
                # bfloat16 travels as uint16 bits. The stored outputs truncate
                # float32 (older ONNX); we round to nearest even (the newer
                # Cast spec), so compare the values within one bf16 ulp.
                as_f32 = lambda a: (a.astype(np.uint32) << 16).view(np.float32)
                got, want = as_f32(got), as_f32(want)
                ok = np.allclose(got, want, rtol=2.0 ** -7, atol=0, equal_nan=True)
            elif want.dtype == bool or np.issubdtype(want.dtype, np.integer):
                ok = np.array_equal(got.astype(want.dtype), want)
            else:
                ok = np.allclose(got.astype(np.float64), want.astype(np.float64),
                                 rtol=1e-3, atol=1e-5, equal_nan=True)
            if not ok:
                err = np.max(np.abs(got.astype(np.float64) - want.astype(np.float64)))
                return name, ops, "fail", "output %s: max abs error %.3g" % (out, err)
    return name, ops, "pass", ""


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--data", default=default_data())
    ap.add_argument("--filter", default="")
    ap.add_argument("--cases", help="file listing case names, one per line")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--xfail")
    ap.add_argument("--json")
    ap.add_argument("--write-xfail", metavar="FILE")
    args = ap.parse_args()

    cases = sorted(d for d in glob.glob(os.path.join(args.data, "test_*"))
                   if os.path.exists(os.path.join(d, "model.onnx")))
    if args.cases:
        wanted = {l.split()[0] for l in open(args.cases) if l.strip() and not l.startswith("#")}
        cases = [c for c in cases if os.path.basename(c) in wanted]
        missing = wanted - {os.path.basename(c) for c in cases}
        if missing:
            sys.exit("conformance: cases not found in %s: %s" % (args.data, sorted(missing)))
    if args.filter:
        cases = [c for c in cases if re.search(args.filter, os.path.basename(c))]
    xfail = {}
    if args.xfail:
        for line in open(args.xfail):
            if line.strip() and not line.startswith("#"):
                parts = line.split(None, 1)
                xfail[parts[0]] = parts[1].strip() if len(parts) > 1 else ""

    results = []
    with tempfile.TemporaryDirectory(prefix="onnx-conformance.") as work:
        with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
            futures = [pool.submit(run_case, c, work) for c in cases]
            for f in futures:
                try:
                    results.append(f.result())
                except subprocess.TimeoutExpired as e:
                    results.append((str(e.cmd), [], "fail", "timeout"))

    counts = collections.Counter(r[2] for r in results)
    per_op = collections.defaultdict(collections.Counter)
    for name, ops, outcome, _ in results:
        for op in ops:
            per_op[op][outcome] += 1
    unexpected = []
    for name, ops, outcome, msg in results:
        if outcome != "pass" and name not in xfail:
            unexpected.append((name, outcome, msg))
        if outcome == "pass" and name in xfail:
            unexpected.append((name, "unexpected pass", xfail[name]))
    total = len(results)
    print("ONNX node tests: %d cases, %d pass (%.1f%%), %d fail, %d unsupported" % (
        total, counts["pass"], 100.0 * counts["pass"] / max(total, 1), counts["fail"],
        counts["unsupported"]))
    print("per op (pass/fail/unsupported):")
    for op in sorted(per_op):
        c = per_op[op]
        print("  %-28s %3d %3d %3d" % (op, c["pass"], c["fail"], c["unsupported"]))
    for name, outcome, msg in unexpected:
        print("UNEXPECTED %s: %s %s" % (name, outcome, msg))
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"total": total, "counts": dict(counts),
                       "per_op": {k: dict(v) for k, v in per_op.items()},
                       "cases": [{"name": n, "ops": o, "outcome": r, "message": m}
                                 for n, o, r, m in results]}, f, indent=1)
    if args.write_xfail:
        write_xfail(args.write_xfail, results)
    return 1 if (args.xfail and unexpected) else 0


def reason(msg):
    """The message without the model path and the 'error: ' tag."""
    msg = re.sub(r"^\S*model\.onnx: ", "", msg)
    msg = re.sub(r"\S*/onnx-conformance\.[^/]+/", "", msg)
    return re.sub(r"\berror: ", "", msg).strip()


def write_xfail(path, results):
    header = []
    if os.path.exists(path):
        with open(path) as f:
            for line in f:
                if not line.startswith("#") and line.strip():
                    break
                header.append(line)
    with open(path, "w") as f:
        f.writelines(header)
        for name, _, outcome, msg in sorted(results):
            if outcome != "pass":
                f.write("%-60s %s: %s\n" % (name, outcome, reason(msg)))


if __name__ == "__main__":
    sys.exit(main())
