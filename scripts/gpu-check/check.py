"""Runs every case of a gpu-check folder on the device and compares it with
the reference outputs computed when the folder was prepared (NumPy for the
MLP, the CPU artifact for the others): a case matches when each output's
max |out - ref| is at most rtol * max |ref| (rtol 1e-3, cases.json), so
fp32 within 1e-3 relative to the reference's largest value. Needs python3
and NumPy; where PyTorch is installed, the zoo cases' PyTorch originals
(the same weights: read from the artifact's weights file) run in eager mode
on the same device beside them: their time, the speedup (PyTorch's time
over ours) and their own error against the reference. The other cases
(the real Paddle models among them) have no PyTorch original, and their
line says so. Then nccl_check.py runs the NCCL backend's collectives on
the GPU.

A folder prepared with --emulate (kernels as host loops) runs only on the
tests' stand-ins of the CUDA libraries (gpu-check.sh dry-run): it checks
this script and the artifacts' host side, not a GPU, and says so.

Usage: python3 check.py DIR [DEVICE [RUNS]]"""
import glob
import json
import os
import shutil
import subprocess
import sys
import time

import numpy as np


def find_library(variable, pattern, wheel_dirs):
    """A CUDA library for the runtime: $variable, else the runtime's own
    search (the loader's path, /usr/local/cuda/lib64) when that finds it,
    else the copy a PyTorch install ships (`wheel_dirs` under sys.path)."""
    if os.environ.get(variable):
        return os.environ[variable]
    for d in ["/usr/local/cuda/lib64"] + os.environ.get("LD_LIBRARY_PATH", "").split(":"):
        if d and glob.glob(os.path.join(d, pattern)):
            return None
    for d in sys.path:
        for sub in wheel_dirs:
            found = sorted(glob.glob(os.path.join(d, sub, pattern)))
            if found:
                return found[-1]
    return None


def input_file(root, case, i):
    """Input i of `case`: its own, or that of the case whose inputs it
    shares (one copy carried)."""
    return os.path.join(root, case.get("inputs_of", case["name"]), "in%d.bin" % i)


def load_torch(root, case, device, torch):
    """The case's traced PyTorch model on `device`, with each tensor that
    prepare.py left as a placeholder read from the artifact's weights file
    (its place recorded in the case's torch_weights)."""
    model = torch.jit.load(os.path.join(root, case["torch"]), map_location="cpu")
    shared = case.get("torch_weights")
    if shared:
        blob = os.path.join(root, shared["file"])
        named = dict(model.named_parameters())
        named.update(model.named_buffers())
        for key, t in shared["tensors"].items():
            a = np.fromfile(blob, dtype=t["dtype"], count=int(np.prod(t["shape"])),
                            offset=t["offset"]).reshape(t["shape"])
            named[key].data = torch.from_numpy(np.ascontiguousarray(a.T if t["transposed"] else a))
    return model.to(device).eval()


def torch_eager(root, case, device, runs=20):
    """Runs the case's PyTorch model (traced with its weights when the
    folder was prepared) in eager mode on `device`, in fp32 (no TF32), each
    run copying the inputs in and the output out as the runner does.
    Returns (median ms, max abs error against the reference), or (None,
    why not)."""
    try:
        import torch
    except ImportError as e:
        return None, "no PyTorch (%s)" % e
    if device.startswith("cuda") and not torch.cuda.is_available():
        return None, "PyTorch sees no CUDA device"
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    work = os.path.join(root, case["name"])
    model = load_torch(root, case, device, torch)
    inputs = [torch.from_numpy(np.fromfile(input_file(root, case, i), dtype=d["dtype"])
                               .reshape(d["shape"])) for i, d in enumerate(case["inputs"])]

    def run():
        with torch.no_grad():
            out = model(*[x.to(device) for x in inputs]).cpu()
        return out

    for _ in range(3):
        out = run()
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        run()
        times.append((time.perf_counter() - start) * 1e3)
    want = np.load(os.path.join(work, "ref0.npy"))
    err = float(np.max(np.abs(out.numpy().astype(np.float64) - want)))
    return float(np.median(times)), err


def main():
    root = os.path.abspath(sys.argv[1])
    env = dict(os.environ)
    for variable, pattern, dirs in [
            ("PADDLE_MLIR_CUBLASLT", "libcublasLt.so.1[23]", ["nvidia/cublas/lib", "torch/lib"]),
            ("PADDLE_MLIR_CUDNN", "libcudnn.so.9", ["nvidia/cudnn/lib", "torch/lib"]),
            ("PADDLE_MLIR_NCCL_LIBRARY", "libnccl.so.2", ["nvidia/nccl/lib", "torch/lib"]),
            ("PADDLE_MLIR_CUDART_LIBRARY", "libcudart.so.1[23]",
             ["nvidia/cuda_runtime/lib", "torch/lib"])]:
        found = find_library(variable, pattern, dirs)
        if found:
            env[variable] = found
        print("%s: %s" % (variable, found or "the runtime's own search"))
    device = sys.argv[2] if len(sys.argv) > 2 else "cuda:0"
    runs = sys.argv[3] if len(sys.argv) > 3 else "20"
    cases = json.load(open(os.path.join(root, "cases.json")))
    target = json.load(open(os.path.join(root, cases[0]["name"], "artifact",
                                         "manifest.json")))["target"]
    if target.get("emulated"):
        print("DRY RUN: kernels emulated on the host (prepare.py --emulate); the times are not "
              "GPU times")
    runner = os.path.join(root, "runner")
    failed = 0
    print("match: max |out - ref| <= rtol * max |ref| per output (the bound column)")
    print("%-18s %-8s %11s %11s %9s %9s %8s %10s" % (
        "case", "result", "max abs err", "bound", "ours ms", "torch ms", "speedup", "torch err"))
    for case in cases:
        work = os.path.join(root, case["name"])
        for i in range(len(case["inputs"])):
            if case.get("inputs_of") and not os.path.exists(os.path.join(work, "in%d.bin" % i)):
                shutil.copyfile(input_file(root, case, i), os.path.join(work, "in%d.bin" % i))
        p = subprocess.run([runner, os.path.join(work, "artifact"), device, work, runs],
                           capture_output=True, text=True, timeout=600,
                           env=dict(env, **case.get("env", {})))
        if p.returncode != 0:
            failed += 1
            print("%-18s %-8s %s" % (case["name"], "ERROR", p.stderr.strip()))
            continue
        # The output nearest to (or furthest past) its bound.
        worst, bound, ratio = 0.0, 0.0, -1.0
        for i, out in enumerate(case["outputs"]):
            got = np.fromfile(os.path.join(work, "out%d.bin" % i),
                              dtype=out["dtype"]).reshape(out["shape"])
            want = np.load(os.path.join(work, "ref%d.npy" % i)).astype(np.float64)
            err = float(np.max(np.abs(got.astype(np.float64) - want))) if want.size else 0.0
            limit = case["atol"] + case["rtol"] * (float(np.max(np.abs(want))) if want.size else 0.0)
            r = err / limit if limit > 0 else (0.0 if err == 0 else float("inf"))
            r = float("inf") if r != r else r  # NaN
            if r > ratio:
                worst, bound, ratio = err, limit, r
        ok = ratio <= 1.0
        failed += not ok
        ours = float(p.stdout.strip())
        if "torch" in case:
            eager, torch_err = torch_eager(root, case, device)
            if eager is None:
                print("  (PyTorch eager not timed: %s)" % torch_err)
            torch_cols = ("%.3f" % eager, "%.2fx" % (eager / ours), "%.3g" % torch_err) \
                if eager is not None else ("-", "-", "-")
            note = ""
        else:
            torch_cols = ("n/a", "n/a", "n/a")
            note = "  (not timed beside PyTorch: %s)" % case.get("no_torch", "no PyTorch original")
        print("%-18s %-8s %11.3g %11.3g %9.3f %9s %8s %10s%s" % (
            (case["name"], "ok" if ok else "MISMATCH", worst, bound, ours) + torch_cols + (note,)))
    print("%d of %d cases failed" % (failed, len(cases)))
    # The NCCL backend on this GPU, one rank, in a process of its own.
    p = subprocess.run([sys.executable, os.path.join(root, "nccl_check.py"), root],
                       capture_output=True, text=True, timeout=600, env=env)
    print((p.stdout + p.stderr).strip())
    return 1 if failed or p.returncode else 0


if __name__ == "__main__":
    sys.exit(main())
