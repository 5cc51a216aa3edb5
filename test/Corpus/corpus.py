#!/usr/bin/env python3
"""Runs real Paddle inference programs end to end and reports where each stops.

    corpus.py [--corpus ../shared/corpus] [--models ../shared/models/paddle]
              [--only NAME,...] [--jobs 2] [--json out.json] [--workdir DIR [--keep]]
              [--stages import,roundtrip,compile,run,match]
              [--expect FILE | --write-expect FILE]

For every program (one folder each, `*.pdmodel` or Fluid `__model__` /
`model`):
  params     the parameters the folder holds, or deterministic synthesized
             ones (seeded; weights scaled by 1/sqrt(fan-in), batch-norm
             variances positive) written as one combined file in the
             importer's order (byte-wise sorted persistable names)
  import     paddle-translate --import-paddle
  roundtrip  --export-paddle, import again, the same IR (weights elided)
  compile    paddle-compile with the dynamic dims bound to the sample sizes
             (with --dynamic: left dynamic, one artifact for every size)
             of the corpus README (batch 1; OCR recognition 48 x 320;
             detection / OCR detection / segmentation 320 x 320; other
             images 224 x 224; integer sequences 16; other dims 8)
  run        paddle-run on seeded inputs
  match      every output against the NumPy reference
             (paddle_mlir.reference) within --rtol relative to its largest
             magnitude; an output whose size depends on the data (NMS
             boxes) may match as a set of rows, since boxes whose scores
             tie to rounding come out in either order
A tool that dies of a signal (exit >= 128 or negative) is reported as a
crash. One row per program: the last stage passed and the first error.
--expect FILE compares each program's last stage with the one the file
lists (test/Corpus/expected.txt; written by --write-expect) and prints
UNEXPECTED for every difference, better or worse, and for every crash.
"""

import argparse
import concurrent.futures
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
STAGES = ("import", "roundtrip", "compile", "run", "match")


def build_dir():
    return os.environ.get("PADDLE_MLIR_BUILD_DIR", os.path.join(ROOT, "build"))


def tool(name):
    return os.path.join(build_dir(), "bin", name)


def program_file(folder):
    for f in sorted(os.listdir(folder)):
        if f.endswith(".pdmodel"):
            return os.path.join(folder, f)
    for f in ("__model__", "model"):
        if os.path.isfile(os.path.join(folder, f)):
            return os.path.join(folder, f)
    return None


def read_index(corpus):
    fams = {}
    path = os.path.join(corpus, "INDEX.tsv")
    if os.path.exists(path):
        with open(path) as f:
            head = f.readline().rstrip("\n").split("\t")
            for line in f:
                row = dict(zip(head, line.rstrip("\n").split("\t")))
                fams[row.get("short_name", "")] = row.get("family", "")
    return fams


def params_present(prog_path):
    if prog_path.endswith(".pdmodel"):
        return os.path.exists(prog_path[:-len(".pdmodel")] + ".pdiparams")
    return None  # Fluid: one file per parameter, or __params__; the importer checks


def np_dtype(data_type):
    """NumPy's dtype for a Paddle VarType (bfloat16 as its uint16 bits)."""
    from paddle_mlir import framework_pb2 as fp, reference
    if data_type == fp.VarType.BF16:
        return np.uint16
    return reference.NP_DTYPE.get(data_type, np.float32)


def synthesize_params(program, fp, out_path, seed=0):
    """Writes deterministic values for every persistable variable; returns
    how many. Values depend on the slot that reads the variable."""
    from paddle_mlir import reference
    from paddle_mlir.builder import tensor_record
    block = program.blocks[0]
    role = {}
    for op in block.ops:
        for v in op.inputs:
            for a in v.arguments:
                role.setdefault(a, (op.type, v.parameter))
    vars_by_name = {v.name: v for v in block.vars}
    rng = np.random.RandomState(seed)
    with open(out_path, "wb") as f:
        names = reference.persistable_names(program)
        for name in names:
            t = vars_by_name[name].type.lod_tensor.tensor
            if vars_by_name[name].type.type == fp.VarType.SELECTED_ROWS:
                t = vars_by_name[name].type.selected_rows
            shape = [max(int(d), 1) for d in t.dims]
            dtype = np_dtype(t.data_type)
            op, slot = role.get(name, ("", ""))
            n = int(np.prod(shape)) if shape else 1
            if np.issubdtype(dtype, np.integer) or dtype == np.bool_:
                a = np.zeros(shape, dtype)
            elif slot == "Variance":
                a = (1.0 + 0.1 * rng.rand(n)).reshape(shape).astype(dtype)
            elif slot in ("Scale",) and op in ("batch_norm", "layer_norm", "instance_norm",
                                               "group_norm", "affine_channel"):
                a = (1.0 + 0.1 * rng.standard_normal(n)).reshape(shape).astype(dtype)
            elif slot in ("Mean", "Bias") or len(shape) == 1:
                a = (0.05 * rng.standard_normal(n)).reshape(shape).astype(dtype)
            else:
                fan_in = max(1, n // max(1, shape[0])) if op.startswith("conv") else shape[0]
                if op in ("mul", "matmul", "matmul_v2", "fc") and len(shape) >= 2:
                    fan_in = shape[-2]
                a = (rng.standard_normal(n) / np.sqrt(max(1, fan_in))).reshape(shape).astype(dtype)
            dname = "bfloat16" if dtype == np.uint16 else np.dtype(dtype).name
            f.write(tensor_record(a, dname))
    return len(names)


def sample_shape(name, dims, dtype, family):
    """The shape a dynamic input is bound to (the corpus README's sample sizes)."""
    dims = list(dims)
    if name == "im_shape" or name == "scale_factor":
        return [1 if d < 0 else d for d in dims]
    out = []
    for i, d in enumerate(dims):
        if d >= 0:
            out.append(d)
        elif i == 0:
            out.append(1)
        elif len(dims) == 4 and i >= 2 and np.issubdtype(dtype, np.floating):
            if family == "ocr_rec":
                out.append(48 if i == 2 else 320)
            elif family in ("det", "ocr_det", "seg", "table"):
                out.append(320)
            else:
                out.append(224)
        elif np.issubdtype(dtype, np.integer):
            out.append(16)
        else:
            out.append(8)
    return out


def id_bound(block, vars_by_name, name):
    """The rows of the smallest embedding table that feed `name` indexes
    directly (ids must stay below it), or a large number."""
    bound = 1 << 30
    for op in block.ops:
        if op.type in ("lookup_table", "lookup_table_v2"):
            ids = [a for v in op.inputs if v.parameter == "Ids" for a in v.arguments]
            table = [a for v in op.inputs if v.parameter == "W" for a in v.arguments]
            if name in ids and table and table[0] in vars_by_name:
                dims = vars_by_name[table[0]].type.lod_tensor.tensor.dims
                if len(dims) and dims[0] > 0:
                    bound = min(bound, dims[0])
    return bound


def make_inputs(program, fp, family, seed=0):
    block = program.blocks[0]
    vars_by_name = {v.name: v for v in block.vars}
    feeds = sorted((next(a.i for a in o.attrs if a.name == "col"), o.outputs[0].arguments[0])
                   for o in block.ops if o.type == "feed")
    rng = np.random.RandomState(seed)
    inputs = {}
    image_hw = None
    lengths = {}
    for _, name in feeds:
        t = vars_by_name[name].type.lod_tensor.tensor
        dtype = np_dtype(t.data_type)
        shape = sample_shape(name, t.dims, dtype, family)
        if vars_by_name[name].type.lod_tensor.lod_level >= 1 and t.dims[0] < 0:
            # A LoD feed: dim 0 counts the packed rows of the batch's
            # sequences (one sequence at batch 1), given as NAME@lengths.
            shape[0] = 16 if np.issubdtype(dtype, np.integer) else 8
            lengths[name + "@lengths"] = np.array([shape[0]], np.int64)
        if len(shape) == 4 and image_hw is None:
            image_hw = shape[2:]
        inputs[name] = (shape, dtype)
    out = {}
    for name, (shape, dtype) in inputs.items():
        if name == "im_shape":
            out[name] = np.array([image_hw or [320, 320]] * shape[0], dtype).reshape(shape)
        elif name == "scale_factor":
            out[name] = np.ones(shape, dtype)
        elif np.issubdtype(dtype, np.integer):
            out[name] = rng.randint(0, min(10, id_bound(block, vars_by_name, name)), size=shape).astype(dtype)
        elif dtype == np.bool_:
            out[name] = np.ones(shape, dtype)
        else:
            out[name] = rng.rand(*shape).astype(dtype)
        if name + "@lengths" in lengths:
            out[name + "@lengths"] = lengths[name + "@lengths"]
    return out


def run_tool(cmd, timeout):
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None, "timed out after %d s: %s" % (timeout, os.path.basename(cmd[0]))
    if p.returncode < 0 or p.returncode >= 128:
        return p, "CRASH (exit %d) in %s" % (p.returncode, os.path.basename(cmd[0]))
    if p.returncode != 0:
        err = [l for l in p.stderr.splitlines() if "error" in l] or p.stderr.splitlines() or [""]
        p.error_lines = [l.strip() for l in err]
        return p, err[0].strip()
    return p, None


def strip_ir(text):
    # Identical IR modulo the file names in locations and resource blob keys.
    text = re.sub(r'loc\(.*?\)', "", text)
    return text


def check_program(folder, family, args):
    name = os.path.basename(folder)
    row = {"program": name, "family": family, "passed": [], "error": None}
    t0 = time.time()
    work = os.path.join(args.workdir, name)
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    from paddle_mlir import framework_pb2 as fp
    prog_path = program_file(folder)
    if not prog_path:
        row["error"] = "no program file"
        return row
    program = fp.ProgramDesc()
    with open(prog_path, "rb") as f:
        program.ParseFromString(f.read())
    row["ops"] = sum(len(b.ops) for b in program.blocks)
    params = []
    present = params_present(prog_path)
    if present is False or (present is None and not _fluid_params_present(program, folder)):
        synth = os.path.join(work, "synth.pdiparams")
        synthesize_params(program, fp, synth)
        params = ["--params", synth]
        row["params"] = "synthesized"
    else:
        row["params"] = "present"
    elide = ["-mlir-elide-resource-strings-if-larger=16"]
    stages = args.stages

    def stage(label, cmd, timeout=args.timeout):
        t = time.time()
        p, err = run_tool(cmd, timeout)
        row.setdefault("stage_seconds", {})[label] = round(time.time() - t, 2)
        if err:
            row["error"] = "%s: %s" % (label, err)
            # Every error line, for the JSON summary (a compile names each
            # op it cannot lower).
            row["errors"] = getattr(p, "error_lines", [err])
            return None
        row["passed"].append(label)
        return p

    a = os.path.join(work, "a.mlirbc")
    if not stage("import", [tool("paddle-translate"), "--import-paddle", prog_path] + params +
                 ["--emit-bytecode", "-o", a]):
        return _done(row, t0)
    if "roundtrip" in stages:
        exp = os.path.join(work, "export")
        p, err = run_tool([tool("paddle-translate"), "--export-paddle", a, "-o", exp], args.timeout)
        if err:
            row["error"] = "roundtrip: export: " + err
            return _done(row, t0)
        p1, e1 = run_tool([tool("paddle-opt"), a] + elide, args.timeout)
        p2, e2 = run_tool([tool("paddle-translate"), "--import-paddle", exp] + elide + ["-o", "-"],
                          args.timeout)
        if e1 or e2:
            row["error"] = "roundtrip: re-import: " + (e1 or e2)
            return _done(row, t0)
        if strip_ir(p1.stdout) != strip_ir(p2.stdout):
            row["error"] = "roundtrip: the re-imported IR differs"
            return _done(row, t0)
        row["passed"].append("roundtrip")
    if "compile" not in stages:
        return _done(row, t0)
    inputs = make_inputs(program, fp, family)
    shapes = ["--input-shape=%s=%s" % (k, "x".join(map(str, v.shape))) for k, v in inputs.items()]
    if args.dynamic:
        shapes = []  # one artifact for every size: the program's own dims
    art = os.path.join(work, "artifact")
    target = ["--target", "cuda", "--cuda-emulate"] if args.target == "cuda-emulated" else []
    if not stage("compile", [tool("paddle-compile"), prog_path] + params + shapes + target +
                 ["-o", art], timeout=args.compile_timeout):
        return _done(row, t0)
    if "run" not in stages:
        return _done(row, t0)
    feeds = []
    for k, v in inputs.items():
        f = os.path.join(work, "in_%s.npy" % re.sub(r"[^A-Za-z0-9_.]", "_", k))
        np.save(f, v)
        feeds += ["--input", "%s=%s" % (k, f)]
    out = os.path.join(work, "out")
    if not stage("run", [tool("paddle-run"), art] + feeds + ["--output-dir", out]):
        return _done(row, t0)
    if "match" not in stages:
        return _done(row, t0)
    try:
        from paddle_mlir import reference
        ref = reference.load(prog_path, params[1] if params else None)
        want = ref.run(inputs)
    except NotImplementedError as e:
        row["error"] = "match: " + str(e)
        return _done(row, t0)
    except Exception as e:  # the reference itself failed
        row["error"] = "match: reference failed: %s: %s" % (type(e).__name__, str(e)[:200])
        return _done(row, t0)
    worst = 0.0
    # Outputs whose size depends on the data (NMS): boxes whose scores tie
    # to float rounding may come out in either order, so those are compared
    # as sets of rows when the rows in order differ.
    with open(os.path.join(art, "manifest.json")) as mf:
        dependent = {o["name"] for o in json.load(mf)["outputs"] if o.get("data_dependent")}
    for k, w in want.items():
        f = os.path.join(out, k.replace("/", "_") + ".npy")
        if not os.path.exists(f):
            row["error"] = "match: no output file for %r" % k
            return _done(row, t0)
        g = np.load(f)
        w = np.asarray(w)
        if g.shape != w.shape:
            row["error"] = "match: output %r has shape %s, reference %s" % (k, g.shape, w.shape)
            return _done(row, t0)
        if g.dtype.kind in "fc":
            scale = max(float(np.max(np.abs(w))) if w.size else 0.0, 1e-30)
            err = float(np.max(np.abs(g.astype(np.float64) - w))) / scale if w.size else 0.0
            if not np.all(np.isfinite(w)):
                row["error"] = "match: reference output %r is not finite" % k
                return _done(row, t0)
        else:
            err = 0.0 if np.array_equal(g, w) else 1.0
        if err > args.rtol and k in dependent and g.ndim == 2:
            reordered = rows_error(g, w) / (scale if g.dtype.kind in "fc" else 1.0)
            if reordered <= args.rtol:
                row.setdefault("reordered", []).append(k)
            err = reordered
        worst = max(worst, err)
    row["max_rel_err"] = worst
    if worst > args.rtol:
        row["error"] = "match: max relative error %.3g > %g" % (worst, args.rtol)
        return _done(row, t0)
    row["passed"].append("match")
    return _done(row, t0)


def rows_error(got, want):
    """The largest difference between the rows of `got` and the rows of
    `want` paired in any order (each `got` row with its nearest unpaired
    `want` row, greedily), or infinity when the row counts differ."""
    if got.shape != want.shape:
        return float("inf")
    g, w = got.astype(np.float64), want.astype(np.float64)
    free = np.ones(len(w), bool)
    worst = 0.0
    for r in g:
        d = np.where(free, np.max(np.abs(w - r), axis=1), np.inf)
        j = int(np.argmin(d))
        free[j] = False
        worst = max(worst, float(d[j]))
    return worst


def _fluid_params_present(program, folder):
    from paddle_mlir import reference
    names = reference.persistable_names(program)
    if os.path.exists(os.path.join(folder, "__params__")):
        return True
    return all(os.path.exists(os.path.join(folder, n)) for n in names)


def _done(row, t0):
    row["seconds"] = round(time.time() - t0, 1)
    return row


def stand_ins(workdir):
    """Builds test/e2e/Inputs' stand-ins of the CUDA driver, cuDNN and
    cuBLASLt into `workdir` and points this process's environment (which
    paddle-run inherits) at them."""
    sys.path.insert(0, os.path.join(ROOT, "test", "e2e", "Inputs"))
    import stand_ins as cuda_stand_ins
    os.environ.update(cuda_stand_ins.build(workdir, ["driver", "cudnn", "cublaslt"]))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--corpus", default=os.path.join(ROOT, "..", "shared", "corpus"))
    ap.add_argument("--models", default=os.path.join(ROOT, "..", "shared", "models", "paddle"))
    ap.add_argument("--only", help="comma-separated program names")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--stages", default=",".join(STAGES))
    ap.add_argument("--rtol", type=float, default=1e-4)
    ap.add_argument("--timeout", type=int, default=120)
    ap.add_argument("--compile-timeout", type=int, default=600)
    ap.add_argument("--workdir")
    ap.add_argument("--keep", action="store_true", help="keep each program's files in --workdir")
    ap.add_argument("--json")
    ap.add_argument("--dynamic", action="store_true",
                    help="compile with the program's dynamic dims left dynamic (one artifact for "
                         "every size), then run at the sample sizes")
    ap.add_argument("--expect", help="fail on any program whose last stage differs from FILE's")
    ap.add_argument("--write-expect", help="write each program's last stage and error to FILE")
    ap.add_argument("--target", choices=("cpu", "cuda-emulated"), default="cpu",
                    help="cuda-emulated: cuda artifacts whose kernels run as host loops "
                         "(paddle-compile --target cuda --cuda-emulate), run on the tests' "
                         "stand-ins of the CUDA driver, cuDNN and cuBLASLt (built with cc)")
    args = ap.parse_args()
    args.stages = args.stages.split(",")
    sys.path.insert(0, os.path.join(build_dir(), "python"))
    index = read_index(args.corpus)
    folders = []
    for base in (args.corpus, args.models):
        if os.path.isdir(base):
            folders += [os.path.join(base, d) for d in sorted(os.listdir(base))
                        if os.path.isdir(os.path.join(base, d))]
    if args.only:
        keep = set(args.only.split(","))
        folders = [f for f in folders if os.path.basename(f) in keep]
    if not folders:
        print("corpus: no programs found under %s and %s" % (args.corpus, args.models))
        return 1
    tmp = None
    if not args.workdir:
        tmp = args.workdir = tempfile.mkdtemp(prefix="paddle-corpus-")
    if args.target == "cuda-emulated":
        stand_ins(args.workdir)
    rows = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        def one(folder):
            try:
                return check_program(folder, index.get(os.path.basename(folder), "model"), args)
            finally:
                if not args.keep:  # synthesized weights and IR of big programs add up
                    shutil.rmtree(os.path.join(args.workdir, os.path.basename(folder)),
                                  ignore_errors=True)
        futs = [pool.submit(one, f) for f in folders]
        for fut in futs:
            r = fut.result()
            if r["error"]:  # program paths as the corpus names them
                for base in (args.corpus, args.models):
                    r["error"] = r["error"].replace(os.path.join(base, ""), "")
            rows.append(r)
            last = r["passed"][-1] if r["passed"] else "-"
            print("%-38s %-8s %-10s %-9s %s" % (r["program"], r["family"], last,
                                                "ok" if not r["error"] else "",
                                                r["error"] or ""), flush=True)
    counts = {s: sum(1 for r in rows if s in r["passed"]) for s in STAGES}
    crashes = [r["program"] for r in rows if r["error"] and "CRASH" in r["error"]]
    print("corpus: %d programs; %s; %d crashes" % (
        len(rows), ", ".join("%s %d" % (s, counts[s]) for s in STAGES if s in args.stages),
        len(crashes)))
    print_families(rows, args.stages)
    compiled = [r for r in rows if "compile" in r["passed"]]
    if compiled:
        big = max(compiled, key=lambda r: r.get("ops", 0))
        print("largest compiled program: %s (%d ops), paddle-compile %.1f s" % (
            big["program"], big.get("ops", 0), big["stage_seconds"]["compile"]))
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"rows": rows, "counts": counts, "crashes": crashes}, f, indent=1)
    if tmp:
        shutil.rmtree(tmp, ignore_errors=True)
    if args.write_expect:
        with open(args.write_expect, "w") as f:
            f.write(EXPECT_HEADER % ",".join(args.stages))
            for r in sorted(rows, key=lambda r: r["program"]):
                last = r["passed"][-1] if r["passed"] else "-"
                f.write("%-38s %-10s %s\n" % (r["program"], last, (r["error"] or "")[:300]))
    bad = ["UNEXPECTED crash: %s: %s" % (r["program"], r["error"]) for r in rows
           if r["error"] and "CRASH" in r["error"]]
    if args.expect:
        want = {}
        with open(args.expect) as f:
            for line in f:
                if line.strip() and not line.startswith("#"):
                    name, last = line.split()[:2]
                    want[name] = last
        for r in rows:
            last = r["passed"][-1] if r["passed"] else "-"
            if r["program"] not in want:
                bad.append("UNEXPECTED: %s is not listed in %s (reached: %s)" %
                           (r["program"], args.expect, last))
            elif want[r["program"]] != last:
                better = _rank(last) > _rank(want[r["program"]])
                bad.append("UNEXPECTED %s: %s reached %s, listed %s (%s)" % (
                    "improvement" if better else "regression", r["program"], last,
                    want[r["program"]], r["error"] or "no error"))
    for line in bad:
        print(line)
    return 1 if bad else 0


def print_families(rows, stages):
    """One row per family: programs, and how many pass each stage."""
    fams = {}
    for r in rows:
        fams.setdefault(r["family"], []).append(r)
    shown = [s for s in STAGES if s in stages]
    print("%-9s %8s %s" % ("family", "programs", " ".join("%9s" % s for s in shown)))
    for fam in sorted(fams) + ["all"]:
        rs = rows if fam == "all" else fams[fam]
        print("%-9s %8d %s" % (fam, len(rs), " ".join(
            "%9d" % sum(1 for r in rs if s in r["passed"]) for s in shown)))


EXPECT_HEADER = """# Real Paddle programs (../shared/corpus, ../shared/models/paddle): the last
# stage each reaches with test/Corpus/corpus.py --stages %s, and its first
# error. corpus.py --expect fails on any program that now stops earlier or
# later (update this file: --write-expect) and on any crash.
"""


def _rank(stage):
    return STAGES.index(stage) if stage in STAGES else -1


if __name__ == "__main__":
    sys.exit(main())
