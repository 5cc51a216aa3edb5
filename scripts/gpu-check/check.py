"""Runs every case of a gpu-check folder on the device and compares it with
the reference outputs computed when the folder was prepared (NumPy for the
MLP, the CPU artifact for the others). Needs python3 and NumPy only.

Usage: python3 check.py DIR [DEVICE]"""
import glob
import json
import os
import subprocess
import sys

import numpy as np


def find_cublaslt():
    """cuBLASLt for the matrix products: $PADDLE_MLIR_CUBLASLT, else the
    runtime's own search (libcublasLt.so.13/.12 on the loader's path or in
    /usr/local/cuda/lib64), else the copy a PyTorch install ships."""
    if os.environ.get("PADDLE_MLIR_CUBLASLT"):
        return os.environ["PADDLE_MLIR_CUBLASLT"]
    for d in ["/usr/local/cuda/lib64"] + os.environ.get("LD_LIBRARY_PATH", "").split(":"):
        if d and glob.glob(os.path.join(d, "libcublasLt.so.1[23]")):
            return None
    for d in sys.path:
        for pattern in ("nvidia/cublas/lib/libcublasLt.so.1[23]", "torch/lib/libcublasLt.so.1[23]"):
            found = sorted(glob.glob(os.path.join(d, pattern)))
            if found:
                return found[-1]
    return None


def main():
    root = os.path.abspath(sys.argv[1])
    env = dict(os.environ)
    cublaslt = find_cublaslt()
    if cublaslt:
        env["PADDLE_MLIR_CUBLASLT"] = cublaslt
    print("cuBLASLt: %s" % (cublaslt or "the runtime's search (libcublasLt.so.13/.12)"))
    device = sys.argv[2] if len(sys.argv) > 2 else "cuda:0"
    cases = json.load(open(os.path.join(root, "cases.json")))
    runner = os.path.join(root, "runner")
    failed = 0
    print("%-14s %-8s %12s %12s  %s" % ("case", "result", "max abs err", "tolerance", "ms"))
    for case in cases:
        work = os.path.join(root, case["name"])
        p = subprocess.run([runner, os.path.join(work, "artifact"), device, work],
                           capture_output=True, text=True, timeout=600, env=env)
        if p.returncode != 0:
            failed += 1
            print("%-14s %-8s %s" % (case["name"], "ERROR", p.stderr.strip()))
            continue
        worst, ok = 0.0, True
        for i, out in enumerate(case["outputs"]):
            got = np.fromfile(os.path.join(work, "out%d.bin" % i),
                              dtype=out["dtype"]).reshape(out["shape"])
            want = np.load(os.path.join(work, "ref%d.npy" % i))
            err = float(np.max(np.abs(got.astype(np.float64) - want))) if want.size else 0.0
            worst = max(worst, err)
            ok = ok and np.allclose(got, want, rtol=case["rtol"], atol=case["atol"])
        failed += not ok
        print("%-14s %-8s %12.3g %12s  %s" % (case["name"], "ok" if ok else "MISMATCH", worst,
                                              "%g+%g*|ref|" % (case["atol"], case["rtol"]),
                                              p.stdout.strip()))
    print("%d of %d cases failed" % (failed, len(cases)))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
