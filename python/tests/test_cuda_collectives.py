"""Collective ops in cuda artifacts (paddle-compile --target cuda
[--partition data]): compiled on every machine with the CUDA toolkit, and
run under mpirun through the fake CUDA driver (test/e2e/Inputs/
fake_libcuda.c: device memory is host memory, copies are copies, kernels
are counted, not run), so what the host side moves is checked without a
GPU: the part of the batch each rank copies on the device, the MPI
collectives staged through host memory, and the outputs of rank 0. The
programs compute nothing on the device (views and collectives only), since
the fake driver runs no kernel. On a GPU the same artifacts run for real
(scripts/gpu-check.sh)."""
import json
import os
import re
import subprocess
import sys

import numpy as np
import pytest

import paddle_mlir
import stand_ins as cuda_stand_ins
from paddle_mlir.builder import ProgramBuilder
from test_collectives import (collectives_program, mpirun, needs_mpi, rank_inputs,
                              run_and_check_ranks)
from test_cuda_artifact import TOOLKIT
from test_reductions import tool

pytestmark = pytest.mark.skipif(not os.access(os.path.join(TOOLKIT, "bin", "ptxas"), os.X_OK),
                                reason="no CUDA toolkit (ptxas) at %s" % TOOLKIT)


@pytest.fixture(scope="module")
def fake_driver(tmp_path_factory):
    return cuda_stand_ins.library(tmp_path_factory.mktemp("fake"), "driver")


def view_program(path, batch):
    """x [batch, 6] -> reshape2 to [batch, 2, 3] (a view: no kernel)."""
    b = ProgramBuilder()
    x = b.feed("x", [batch, 6])
    b.fetch(b.reshape2(x, [0, 2, 3]))
    b.save(str(path))


def run_job(n, art, inputs, out, *extra):
    """paddle-run ART under mpirun on n ranks (alone: n = 0)."""
    args = [tool("paddle-run"), str(art), "--output-dir", str(out)]
    for name, value in inputs.items():
        np.save(out / (name + ".npy"), value)
        args += ["--input", "%s=%s" % (name, out / (name + ".npy"))]
    args += list(extra)
    if n == 0:
        return subprocess.run(args, capture_output=True, text=True, timeout=120)
    return mpirun(n, *args)


@needs_mpi
@pytest.mark.parametrize("n", [2, 4])
def test_data_parallel_cuda_artifact(tmp_path, fake_driver, monkeypatch, n):
    """--target cuda --partition data: each rank copies its rows on the
    device (one device-to-device copy), the allgather is staged through
    host memory, and rank 0's output is the whole batch in order."""
    view_program(tmp_path / "m", 8)
    art = tmp_path / "art"
    paddle_mlir.compile(str(tmp_path / "m"), target="cuda", partition="data", devices=n,
                        output_dir=str(art))
    manifest = json.load(open(art / "manifest.json"))
    # Each rank sends the parts it did not compute of the 8x2x3 f32 output
    # (192 bytes) to gather it: (n - 1) / n of it per run.
    assert manifest["partition"] == {"mode": "data", "devices": n,
                                     "allgather_bytes_per_run": 192 // n * (n - 1)}
    assert manifest["communication"] == {"collectives": 2, "backend": "libpdrt_mpi.so"}
    assert manifest["kernels"]["calls"] == {"shard_batch -> pdk_collective": 1,
                                            "c_allgather -> pdk_collective": 1}
    # libpdrt_cuda runs the collectives itself: no kernel library, no oneDNN.
    assert manifest["kernels"]["library"] is None
    for lib in ("libpdrt_cuda.so", "libpdrt_mpi.so", "libpdrt_nccl.so"):
        assert (art / lib).exists(), lib
    assert not (art / "libpdrt_kernels.so").exists()
    deps = subprocess.run(["ldd", str(art / "libmodel.so")], capture_output=True, text=True).stdout
    assert "libpdrt_cuda.so" in deps and "libpdrt_kernels" not in deps and "dnnl" not in deps, deps

    x = np.arange(48, dtype=np.float32).reshape(8, 6) * 0.5 - 3
    out = tmp_path / "out"
    out.mkdir()
    monkeypatch.setenv("PADDLE_MLIR_CUDA_DRIVER", fake_driver)
    r = run_job(n, art, {"x": x}, out)
    assert r.returncode == 0, r.stdout + r.stderr
    [name] = [o["name"] for o in manifest["outputs"]]
    np.testing.assert_array_equal(np.load(out / (name + ".npy")), x.reshape(8, 2, 3))
    counts = re.findall(r"fake-cuda: .* d2d=(\d+)", r.stderr)
    assert counts == ["1"] * n, r.stderr  # one part copied on each rank's device


@needs_mpi
@pytest.mark.parametrize("n", [2, 3])
def test_collectives_in_a_cuda_artifact(tmp_path, fake_driver, monkeypatch, n):
    """test_collectives' program (allreduces of every kind, a broadcast, an
    allgather, a reducescatter, an int64 sum, a barrier) compiled for cuda:
    each rank feeds inputs of its own through the Python API on the default
    device, and gets what NumPy computes from all ranks' inputs."""
    collectives_program(tmp_path / "m", n, relu_before_barrier=False)  # no kernel to run
    art = tmp_path / "art"
    paddle_mlir.compile(str(tmp_path / "m"), target="cuda", output_dir=str(art))
    assert json.load(open(art / "manifest.json"))["target"]["kind"] == "cuda"
    out = tmp_path / "out"
    out.mkdir()
    monkeypatch.setenv("PADDLE_MLIR_CUDA_DRIVER", fake_driver)
    run_and_check_ranks(art, out, n)


def test_cuda_artifact_alone_is_refused(tmp_path, fake_driver, monkeypatch):
    """Run as one process, the data-parallel artifact says how to launch it
    and writes nothing; a program written for 2 ranks names the op."""
    view_program(tmp_path / "m", 8)
    paddle_mlir.compile(str(tmp_path / "m"), target="cuda", partition="data", devices=2,
                        output_dir=str(tmp_path / "art"))
    out = tmp_path / "out"
    out.mkdir()
    monkeypatch.setenv("PADDLE_MLIR_CUDA_DRIVER", fake_driver)
    r = run_job(0, tmp_path / "art", {"x": np.zeros((8, 6), np.float32)}, out)
    assert 0 < r.returncode < 128
    assert ("shard_batch: the artifact was compiled for 2 devices (--partition data --devices 2), "
            "but the job has 1 rank (run it with mpirun -np 2)") in r.stderr, r.stderr
    assert sorted(p.name for p in out.iterdir()) == ["x.npy"]  # no output written

    collectives_program(tmp_path / "c", 2)
    paddle_mlir.compile(str(tmp_path / "c"), target="cuda", output_dir=str(tmp_path / "cart"))
    x, ids = rank_inputs(0)
    r = run_job(0, tmp_path / "cart", {"x": x, "ids": ids}, out)  # a process of its own
    assert 0 < r.returncode < 128
    assert "c_broadcast (collective 4 of the program): root 1 is not a rank of this 1-rank job" \
        in r.stderr, r.stderr


def test_nccl_without_a_gpu_fails_clearly(tmp_path, fake_driver, monkeypatch):
    """PADDLE_MLIR_COMM_BACKEND=nccl: the NCCL backend needs the CUDA
    runtime and a GPU; without them the run fails naming why."""
    collectives_program(tmp_path / "c", 1)
    paddle_mlir.compile(str(tmp_path / "c"), target="cuda", output_dir=str(tmp_path / "art"))
    monkeypatch.setenv("PADDLE_MLIR_CUDA_DRIVER", fake_driver)
    monkeypatch.setenv("PADDLE_MLIR_COMM_BACKEND", "nccl")
    out = tmp_path / "out"
    out.mkdir()
    x, ids = rank_inputs(0)
    r = run_job(0, tmp_path / "art", {"x": x, "ids": ids}, out)  # a process of its own
    assert 0 < r.returncode < 128
    assert "starting NCCL: NCCL backend, rank 0: " in r.stderr, r.stderr


def test_nccl_takes_the_device_buffers(tmp_path, fake_driver, monkeypatch):
    """With the NCCL backend a cuda artifact's collectives go to NCCL on
    its device buffers (stand-ins of the CUDA runtime and NCCL, one rank:
    the runtime's buffers count as device memory): nothing is staged
    through the host, a broadcast and a barrier start from a copy on the
    device, and every output is what one rank gets."""
    from test_collectives import HERE, expected
    from test_nccl import stand_ins
    collectives_program(tmp_path / "m", 1, relu_before_barrier=False)
    art = tmp_path / "art"
    paddle_mlir.compile(str(tmp_path / "m"), target="cuda", output_dir=str(art))
    out = tmp_path / "out"
    out.mkdir()
    env = dict(os.environ, PADDLE_MLIR_COMM_BACKEND="nccl", PADDLE_MLIR_CUDA_DRIVER=fake_driver,
               FAKE_CUDART_ALL_DEVICE="1", **stand_ins(tmp_path))
    r = subprocess.run([sys.executable, os.path.join(HERE, "mpi", "comm_worker.py"), str(art),
                        str(out), "run"], capture_output=True, text=True, timeout=120, env=env)
    assert r.returncode == 0, r.stdout + r.stderr
    got = np.load(out / "rank0.npz")
    x, ids = rank_inputs(0)
    for i, w in enumerate(expected([x], [ids], 0)):
        np.testing.assert_array_equal(got["out%d" % i], w, err_msg="output %d" % i)
    assert "fake-nccl: comms=1 allreduce=6 broadcast=1 allgather=1 reducescatter=1" in r.stderr
    assert re.search(r"fake-cudart: mallocs=\d+ copies=0\b", r.stderr), r.stderr
    assert re.search(r"fake-cuda: .* d2d=2\b", r.stderr), r.stderr


@needs_mpi
def test_pipeline_cuda_artifact(tmp_path, fake_driver, monkeypatch):
    """--target cuda --partition pipeline --devices 2: each rank runs its
    stage (its kernels launched, the activations sent and received through
    the communicator) and rank 0 writes the output; alone, the artifact
    says how to launch it. The fake driver runs no kernel, so the values
    are not checked here (the host code is, in pd-gpu-collectives.mlir)."""
    b = ProgramBuilder()
    y = b.feed("x", [4, 16])
    for k in range(4):
        y = b.relu(b.scale(y, 0.5 + k, 0.1))
    b.fetch(y)
    b.save(str(tmp_path / "m"))
    art = tmp_path / "art"
    paddle_mlir.compile(str(tmp_path / "m"), target="cuda", partition="pipeline", devices=2,
                        output_dir=str(art))
    manifest = json.load(open(art / "manifest.json"))
    assert manifest["partition"]["mode"] == "pipeline"
    assert [st["stage"] for st in manifest["partition"]["stages"]] == [0, 1]
    assert manifest["kernels"]["calls"]["is_stage -> pdk_collective"] == 2
    out = tmp_path / "out"
    out.mkdir()
    monkeypatch.setenv("PADDLE_MLIR_CUDA_DRIVER", fake_driver)
    x = np.ones((4, 16), np.float32)
    r = run_job(2, art, {"x": x}, out)
    assert r.returncode == 0, r.stdout + r.stderr
    [name] = [o["name"] for o in manifest["outputs"]]
    assert np.load(out / (name + ".npy")).shape == (4, 16)
    launches = sorted(int(n) for n in re.findall(r"fake-cuda: .* launches=(\d+)", r.stderr))
    assert len(launches) == 2 and launches[0] > 0, r.stderr  # both stages ran kernels

    out2 = tmp_path / "alone"
    out2.mkdir()
    r = run_job(0, art, {"x": x}, out2)
    assert 0 < r.returncode < 128
    assert "is_stage: the artifact is a pipeline of 2 stages (--partition pipeline --devices 2), " \
           "one per rank, but the job has 1 rank (run it with mpirun -np 2)" in r.stderr, r.stderr


def test_nccl_on_another_gpu_is_refused(tmp_path, fake_driver, monkeypatch):
    """An instance opened on another GPU than the one the NCCL backend of
    its rank uses (local rank 0 of 2 fake GPUs: cuda:0) fails its first
    collective saying which GPU to give, instead of handing NCCL another
    device's buffers."""
    from test_nccl import stand_ins
    collectives_program(tmp_path / "m", 1, relu_before_barrier=False)
    art = tmp_path / "art"
    paddle_mlir.compile(str(tmp_path / "m"), target="cuda", output_dir=str(art))
    out = tmp_path / "out"
    out.mkdir()
    x, ids = rank_inputs(0)
    for var, value in dict(PADDLE_MLIR_COMM_BACKEND="nccl", PADDLE_MLIR_CUDA_DRIVER=fake_driver,
                           FAKE_CUDA_DEVICES="2", FAKE_CUDART_ALL_DEVICE="1",
                           **stand_ins(tmp_path)).items():
        monkeypatch.setenv(var, value)
    r = run_job(0, art, {"x": x, "ids": ids}, out, "--device", "cuda:1")
    assert 0 < r.returncode < 128
    assert "the instance runs on cuda:1, but the NCCL backend of this rank uses cuda:0 (the " \
           "local rank modulo the device count): leave --device out, or give cuda:0" in r.stderr, \
        r.stderr
    r = run_job(0, art, {"x": x, "ids": ids}, out)  # the default device: cuda:0
    assert r.returncode == 0, r.stdout + r.stderr
