#!/usr/bin/env python3
"""Allreduce bandwidth of paddle-mlir's MPI backend, beside a plain
MPI_Allreduce on the same buffers in the same processes.

For each size from 1 KB to 256 MB (float32) it compiles a program holding
one c_allreduce_sum, launches `mpirun -np N` of this script, and each
rank runs, in alternating rounds, the compiled program (pdk_collective ->
libpdrt_mpi's polled MPI_Iallreduce, including the announcement that lets
a timeout name a lost rank) and MPI_Allreduce called directly through
ctypes on the same libmpi. Reports the median time, the algorithm
bandwidth (bytes / time) and the bus bandwidth as nccl-tests defines it
for allreduce (algbw * 2 (N - 1) / N), and ours / MPI's time.

Usage: PYTHONPATH=build/python /usr/bin/python3 benchmarks/allreduce.py
           [--ranks 2] [--max-mb 256] [--rounds 20] [--json FILE]
"""
import argparse
import ctypes
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "python", "tests"))


def sizes(max_mb):
    s, out = 1024, []
    while s <= max_mb * 1024 * 1024:
        out.append(s)
        s *= 4
    return out


def build(work, max_mb):
    import paddle_mlir
    from paddle_mlir.builder import ProgramBuilder
    for nbytes in sizes(max_mb):
        b = ProgramBuilder()
        x = b.feed("x", [nbytes // 4])
        y = b.tmp("sum", [nbytes // 4])
        b.op("c_allreduce_sum", {"X": [x]}, {"Out": [y]}, {})
        b.fetch(y)
        b.save(os.path.join(work, "m%d" % nbytes))
        paddle_mlir.compile(os.path.join(work, "m%d" % nbytes),
                            output_dir=os.path.join(work, "a%d" % nbytes))


def worker(work, max_mb, rounds, out):
    import paddle_mlir
    rank = int(os.environ.get("OMPI_COMM_WORLD_RANK", "0"))
    models = {n: paddle_mlir.load(os.path.join(work, "a%d" % n)) for n in sizes(max_mb)}
    first = next(iter(models.values()))
    _, size = first.ranks  # starts MPI (our backend) before ctypes uses it
    mpi = ctypes.CDLL("libmpi.so.40", mode=ctypes.RTLD_GLOBAL)
    sym = lambda name: ctypes.c_void_p(ctypes.addressof(ctypes.c_char.in_dll(mpi, name)))
    world, f32, add = sym("ompi_mpi_comm_world"), sym("ompi_mpi_float"), sym("ompi_mpi_op_sum")
    mpi.MPI_Allreduce.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int, ctypes.c_void_p,
                                  ctypes.c_void_p, ctypes.c_void_p]
    mpi.MPI_Barrier.argtypes = [ctypes.c_void_p]
    results = []
    for n, model in models.items():
        count = n // 4
        x = np.full(count, rank + 1, np.float32)
        recv = np.empty_like(x)
        inst = model._instance()
        iters = max(1, min(200, (64 << 20) // n))
        ours, theirs = [], []
        for r in range(rounds + 2):
            mpi.MPI_Barrier(world)
            t = time.perf_counter()
            for _ in range(iters):
                inst.run([x], fetch=[])
            a = (time.perf_counter() - t) / iters
            mpi.MPI_Barrier(world)
            t = time.perf_counter()
            for _ in range(iters):
                mpi.MPI_Allreduce(x.ctypes.data, recv.ctypes.data, count, f32, add, world)
            m = (time.perf_counter() - t) / iters
            if r >= 2:  # warm-up rounds
                ours.append(a)
                theirs.append(m)
        (got,) = inst.run([x], fetch=[0])
        assert np.all(got == size * (size + 1) / 2) and np.all(recv == got)
        results.append({"bytes": n, "ours_s": statistics.median(ours),
                        "mpi_s": statistics.median(theirs)})
    if rank == 0:
        with open(out, "w") as f:
            json.dump({"ranks": size, "results": results}, f)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ranks", type=int, default=2)
    ap.add_argument("--max-mb", type=int, default=256)
    ap.add_argument("--rounds", type=int, default=20)
    ap.add_argument("--json")
    ap.add_argument("--worker", nargs=2, metavar=("WORK", "OUT"), help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.worker:
        return worker(a.worker[0], a.max_mb, a.rounds, a.worker[1])
    from bf16 import cpu_info
    mpirun = shutil.which("mpirun")
    if not mpirun:
        sys.exit("allreduce.py: mpirun (openmpi-bin) is not installed")
    work = tempfile.mkdtemp(prefix="allreduce_")
    try:
        build(work, a.max_mb)
        out = os.path.join(work, "result.json")
        cmd = [mpirun, "--allow-run-as-root", "--oversubscribe", "-np", str(a.ranks), "--mca", "btl",
               "self,vader", "--mca", "btl_vader_single_copy_mechanism", "none", sys.executable,
               os.path.abspath(__file__), "--max-mb", str(a.max_mb), "--rounds", str(a.rounds),
               "--worker", work, out]
        subprocess.run(cmd, check=True)
        with open(out) as f:
            res = json.load(f)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    n = res["ranks"]
    name, flags = cpu_info()
    print("CPU: %s (%s)" % (name, " ".join(flags)))
    print("allreduce (float32, sum) on %d ranks of this machine, Open MPI shared memory; "
          "busbw = algbw * 2(N-1)/N" % n)
    print("%10s %12s %10s %10s %12s %10s" % ("size", "ours (us)", "algbw GB/s", "busbw GB/s",
                                              "MPI (us)", "ours/MPI"))
    for r in res["results"]:
        alg = r["bytes"] / r["ours_s"] / 1e9
        bus = alg * 2 * (n - 1) / n
        print("%10s %12.1f %10.2f %10.2f %12.1f %10.2f" % (
            human(r["bytes"]), r["ours_s"] * 1e6, alg, bus, r["mpi_s"] * 1e6,
            r["ours_s"] / r["mpi_s"]))
    if a.json:
        with open(a.json, "w") as f:
            json.dump(res, f, indent=1)


def human(n):
    for unit in ("B", "KB", "MB", "GB"):
        if n < 1024:
            return "%d %s" % (n, unit)
        n //= 1024
    return "%d TB" % n


if __name__ == "__main__":
    main()
