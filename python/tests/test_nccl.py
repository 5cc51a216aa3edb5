"""The NCCL communication backend (libpdrt_nccl.so, selected by
PADDLE_MLIR_COMM_BACKEND=nccl): it loads on every machine without linking
NCCL or CUDA, and where no GPU is visible a job that asks for it fails
with one clear error on every rank instead of crashing or hanging. Where a
GPU is visible, one rank's collectives run through NCCL (host buffers
staged on the GPU) and equal NumPy's."""
import os
import re
import subprocess
import sys

import numpy as np
import pytest

import paddle_mlir
import stand_ins as cuda_stand_ins
from test_collectives import HERE, collectives_program, expected, mpirun, needs_mpi, rank_inputs
from test_cuda_artifact import visible_device

ROOT = os.path.dirname(os.path.dirname(HERE))


def stand_ins(tmp_path):
    """Environment naming the CUDA runtime and NCCL stand-ins of
    test/e2e/Inputs (one device of host memory, one-rank NCCL: every
    collective a copy), compiled into tmp_path."""
    return cuda_stand_ins.build(tmp_path, ["cudart", "nccl"])


def artifact(tmp_path, n):
    collectives_program(tmp_path / "m", n)
    art = tmp_path / "art"
    paddle_mlir.compile(str(tmp_path / "m"), output_dir=str(art))
    return art


def run_one(art, out, **env):
    """comm_worker.py on ART as one rank (not under mpirun), with the NCCL
    backend unless `env` says otherwise."""
    env = dict(os.environ, **{"PADDLE_MLIR_COMM_BACKEND": "nccl", **env})
    return subprocess.run([sys.executable, os.path.join(HERE, "mpi", "comm_worker.py"), str(art), str(out),
                           "run"], capture_output=True, text=True, timeout=120, env=env)


def test_loads_without_nccl_or_cuda_linked(tmp_path):
    """The artifact carries the NCCL backend beside the MPI one; neither
    it nor the runtime links NCCL, the CUDA runtime or the driver, and the
    backend does not link MPI either (one process on one GPU needs none)."""
    art = artifact(tmp_path, 1)
    lib = art / "libpdrt_nccl.so"
    assert lib.exists()
    deps = subprocess.run(["ldd", str(lib)], capture_output=True, text=True).stdout
    for name in ("libnccl", "libcudart", "libcuda.so", "libmpi"):
        assert name not in deps, deps


def test_one_rank(tmp_path):
    """One rank through NCCL: with a GPU, each collective of one rank is X
    itself (as NumPy says); without, the run fails naming why."""
    art = artifact(tmp_path, 1)
    out = tmp_path / "out"
    out.mkdir()
    r = run_one(art, out)
    why = visible_device()
    if why is None:
        assert r.returncode == 0, r.stdout + r.stderr
        got = np.load(out / "rank0.npz")
        x, ids = rank_inputs(0)
        for i, w in enumerate(expected([x], [ids], 0)):
            np.testing.assert_array_equal(got["out%d" % i], w, err_msg="output %d" % i)
        return
    print("no GPU here (%s): checking the error instead" % why)
    assert 0 < r.returncode < 128, r.returncode
    assert "starting NCCL: NCCL backend, rank 0: " in r.stderr, r.stderr
    assert "no CUDA device" in r.stderr or "cannot load" in r.stderr, r.stderr


def test_one_rank_through_stand_ins(tmp_path):
    """The backend's one-rank path on stand-ins of the CUDA runtime and
    NCCL: the host buffers of a CPU artifact are staged on the "device",
    NCCL is called for each collective, and each result is X itself."""
    art = artifact(tmp_path, 1)
    out = tmp_path / "out"
    out.mkdir()
    r = run_one(art, out, **stand_ins(tmp_path))
    assert r.returncode == 0, r.stdout + r.stderr
    got = np.load(out / "rank0.npz")
    x, ids = rank_inputs(0)
    for i, w in enumerate(expected([x], [ids], 0)):
        np.testing.assert_array_equal(got["out%d" % i], w, err_msg="output %d" % i)
    # 4 float allreduces, the int64 sum and the barrier; nothing needed MPI.
    assert "fake-nccl: comms=1 allreduce=6 broadcast=1 allgather=1 reducescatter=1" in r.stderr, \
        r.stderr
    copies = int(re.search(r"fake-cudart: mallocs=\d+ copies=(\d+)", r.stderr).group(1))
    assert copies >= 16, r.stderr  # staged in and out


def test_missing_library_is_named(tmp_path):
    art = artifact(tmp_path, 1)
    r = run_one(art, tmp_path, PADDLE_MLIR_NCCL_LIBRARY="/nonexistent/libnccl.so.2",
                PADDLE_MLIR_CUDART_LIBRARY="/nonexistent/libcudart.so")
    assert 0 < r.returncode < 128
    assert "starting NCCL: NCCL backend, rank 0: cannot load the CUDA runtime (/nonexistent/libcudart.so)" \
        in r.stderr, r.stderr
    assert "install it or set PADDLE_MLIR_CUDART_LIBRARY" in r.stderr, r.stderr


def test_unknown_backend_is_refused(tmp_path):
    art = artifact(tmp_path, 1)
    r = run_one(art, tmp_path, PADDLE_MLIR_COMM_BACKEND="gloo")
    assert 0 < r.returncode < 128
    assert "PADDLE_MLIR_COMM_BACKEND='gloo' is not mpi or nccl" in r.stderr, r.stderr


@needs_mpi
def test_two_ranks_without_gpus_fail_together(tmp_path):
    """Under mpirun with no GPU, every rank reports why and the job ends
    (no rank waits for another in NCCL's start)."""
    if visible_device() is None:
        pytest.skip("a GPU is visible: this checks the failure without one")
    art = artifact(tmp_path, 2)
    out = tmp_path / "out"
    out.mkdir()
    r = mpirun(2, "-x", "PADDLE_MLIR_COMM_BACKEND=nccl", sys.executable,
               os.path.join(HERE, "mpi", "comm_worker.py"), str(art), str(out), "run", timeout=120)
    assert r.returncode != 0
    text = r.stdout + r.stderr
    assert "starting NCCL: NCCL backend, rank 0: " in text or "starting NCCL: NCCL backend, rank 1: " in text, text


@needs_mpi
def test_several_ranks_need_the_mpi_bootstrap(tmp_path):
    """A job of several ranks starts over MPI through libpdrt_mpi.so's
    bootstrap; where it cannot be loaded, each rank says so."""
    art = artifact(tmp_path, 2)
    out = tmp_path / "out"
    out.mkdir()
    r = mpirun(2, "-x", "PADDLE_MLIR_COMM_BACKEND=nccl", "-x",
               "PADDLE_MLIR_MPI_BACKEND=/nonexistent/libpdrt_mpi.so", sys.executable,
               os.path.join(HERE, "mpi", "comm_worker.py"), str(art), str(out), "run", timeout=120)
    assert r.returncode != 0
    text = r.stdout + r.stderr
    assert "starting NCCL: NCCL backend: a job of several ranks starts over MPI, but " \
           "/nonexistent/libpdrt_mpi.so cannot be loaded" in text, text
