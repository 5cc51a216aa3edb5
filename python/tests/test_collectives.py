"""Collective and point-to-point ops (c_allreduce_*, c_broadcast,
c_allgather, c_reducescatter, send_v2, recv_v2, barrier) compiled and run:
alone (one rank: every collective leaves X as it is) and on 2 and 3 ranks
under mpirun, each rank with its own inputs, checked against NumPy
computed from all ranks' inputs; and the failures: a rank that stops
answering is named after --comm-timeout, a killed rank stops the job, a
program written for another rank count is refused at run time."""
import json
import os
import shutil
import subprocess
import sys
import time

import numpy as np
import pytest

import paddle_mlir
from paddle_mlir.builder import ProgramBuilder

HERE = os.path.dirname(os.path.abspath(__file__))
MPIRUN = shutil.which("mpirun")
needs_mpi = pytest.mark.skipif(MPIRUN is None, reason="mpirun (openmpi-bin) is not installed")


def comm(b, type, x, attrs, shape, dtype="float32"):
    y = b.tmp(type, shape, dtype)
    b.op(type, {"X": [x]}, {"Out": [y]}, attrs)
    return y


def collectives_program(path, nranks, relu_before_barrier=True):
    """x [4, 3] -> sum, max, min, prod allreduces, a broadcast from the last
    rank, an allgather, a reducescatter of that gather, an int64 sum and a
    barrier (of relu(x), or of x: the inputs are positive, so both give
    x)."""
    b = ProgramBuilder()
    x = b.feed("x", [4, 3])
    ids = b.feed("ids", [2], "int64")
    for kind in ("sum", "max", "min", "prod"):
        b.fetch(comm(b, "c_allreduce_" + kind, x, {"ring_id": 0}, [4, 3]))
    b.fetch(comm(b, "c_broadcast", x, {"root": nranks - 1}, [4, 3]))
    g = comm(b, "c_allgather", x, {"nranks": nranks}, [4 * nranks, 3])
    b.fetch(g)
    b.fetch(comm(b, "c_reducescatter", g, {"nranks": nranks}, [4, 3]))
    b.fetch(comm(b, "c_allreduce_sum", ids, {}, [2], "int64"))
    b.fetch(comm(b, "barrier", b.relu(x) if relu_before_barrier else x, {}, [4, 3]))
    b.save(str(path))


def expected(xs, ids, rank):
    """What rank `rank` should get, from the inputs of all ranks."""
    n = len(xs)
    g = np.concatenate(xs)
    # Every rank holds the same gather g: their sum is n * g, of which rank
    # r keeps rows 4r..4r+3.
    return [sum(xs), np.maximum.reduce(xs), np.minimum.reduce(xs), np.prod(xs, axis=0), xs[-1], g,
            n * g[4 * rank:4 * rank + 4], sum(ids), np.maximum(xs[rank], 0)]


def rank_inputs(rank):
    base = np.arange(12, dtype=np.float64).reshape(4, 3) % 5 + 1
    return (base + rank).astype(np.float32), (np.arange(2) % 5 + 1 + rank).astype(np.int64)


def mpirun(n, *args, timeout=120):
    cmd = [MPIRUN, "--allow-run-as-root", "--oversubscribe", "-np", str(n),
           "--mca", "btl", "self,vader", "--mca", "btl_vader_single_copy_mechanism", "none", *args]
    env = dict(os.environ)
    return subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, env=env)


def test_one_rank(tmp_path):
    """Not launched by mpirun: one rank, each collective is X itself."""
    collectives_program(tmp_path / "m", 1)
    model = paddle_mlir.compile(str(tmp_path / "m"))
    with open(os.path.join(model.artifact_dir, "manifest.json")) as f:
        manifest = json.load(f)
    assert manifest["communication"] == {"collectives": 9, "backend": "libpdrt_mpi.so"}
    assert manifest["kernels"]["calls"]["c_allreduce_sum -> pdk_collective"] == 2
    assert os.path.exists(os.path.join(model.artifact_dir, "libpdrt_mpi.so"))
    assert model.ranks == (0, 1)
    x, ids = rank_inputs(0)
    got = model(x, ids)
    want = expected([x], [ids], 0)
    assert len(got) == len(want)
    for g, w in zip(got, want):
        np.testing.assert_array_equal(g, w)


def test_one_rank_refuses_a_program_for_two(tmp_path):
    collectives_program(tmp_path / "m", 2)
    model = paddle_mlir.compile(str(tmp_path / "m"))
    with pytest.raises(RuntimeError, match=r"c_broadcast \(collective 4 of the program\): root 1 is "
                                           r"not a rank of this 1-rank job"):
        model(*rank_inputs(0))
    b = ProgramBuilder()
    b.fetch(comm(b, "c_allgather", b.feed("x", [4, 3]), {"nranks": 2}, [8, 3]))
    b.save(str(tmp_path / "g"))
    model = paddle_mlir.compile(str(tmp_path / "g"))
    with pytest.raises(RuntimeError, match=r"c_allgather \(collective 0 of the program\): the "
                                           r"program was written for nranks = 2, but the job has 1 rank$"):
        model(rank_inputs(0)[0])


@needs_mpi
@pytest.mark.parametrize("n", [2, 3])
def test_collectives_on_ranks(tmp_path, n):
    collectives_program(tmp_path / "m", n)
    paddle_mlir.compile(str(tmp_path / "m"), output_dir=str(tmp_path / "art"))
    out = tmp_path / "out"
    out.mkdir()
    run_and_check_ranks(tmp_path / "art", out, n)


def run_and_check_ranks(art, out, n):
    """comm_worker.py runs collectives_program's artifact ART on n ranks,
    each on rank_inputs of its own; each rank's outputs must be what
    `expected` computes from all ranks' inputs."""
    r = mpirun(n, sys.executable, os.path.join(HERE, "mpi", "comm_worker.py"), str(art), str(out),
               "run")
    assert r.returncode == 0, r.stdout + r.stderr
    xs, ids = zip(*[rank_inputs(k) for k in range(n)])
    for k in range(n):
        got = np.load(out / ("rank%d.npz" % k))
        assert int(got["size"]) == n
        want = expected(list(xs), list(ids), k)
        assert len(got.files) == len(want) + 1
        for i, w in enumerate(want):
            np.testing.assert_array_equal(got["out%d" % i], w, err_msg="rank %d, output %d" % (k, i))


def two_allreduces(path, count):
    b = ProgramBuilder()
    x = b.feed("x", [4, 3])
    for _ in range(count):
        x = comm(b, "c_allreduce_sum", x, {}, [4, 3])
    b.fetch(x)
    b.save(str(path))


@needs_mpi
def test_point_to_point(tmp_path):
    """Rank 0 sends x * 2 to rank 1 and receives rank 1's x + 1 back:
    one artifact per rank, as a pipeline stage is."""
    b = ProgramBuilder()
    x = b.feed("x", [4, 3])
    b.op("send_v2", {"X": [b.op("scale", {"X": [x]}, {"Out": [b.tmp("s", [4, 3])]}, {"scale": 2.0})]},
         {}, {"peer": 1})
    b.fetch(b.op("recv_v2", {}, {"Out": [b.tmp("r", [4, 3])]}, {"peer": 1, "out_shape": [4, 3], "dtype": 5}))
    b.save(str(tmp_path / "m0"))
    b = ProgramBuilder()
    x = b.feed("x", [4, 3])
    got = b.op("recv_v2", {}, {"Out": [b.tmp("r", [4, 3])]}, {"peer": 0, "out_shape": [4, 3], "dtype": 5})
    b.op("send_v2", {"X": [b.op("scale", {"X": [x]}, {"Out": [b.tmp("s", [4, 3])]}, {"bias": 1.0})]},
         {}, {"peer": 0})
    b.fetch(got)
    b.save(str(tmp_path / "m1"))
    for r in (0, 1):
        paddle_mlir.compile(str(tmp_path / ("m%d" % r)), output_dir=str(tmp_path / ("art_r%d" % r)))
    out = tmp_path / "out"
    out.mkdir()
    res = mpirun(2, sys.executable, os.path.join(HERE, "mpi", "comm_worker.py"),
                 str(tmp_path / "art"), str(out), "p2p")
    assert res.returncode == 0, res.stdout + res.stderr
    x0, _ = rank_inputs(0)
    x1, _ = rank_inputs(1)
    np.testing.assert_array_equal(np.load(out / "rank0.npz")["out0"], x1 + 1)
    np.testing.assert_array_equal(np.load(out / "rank1.npz")["out0"], x0 * 2)


@needs_mpi
def test_stuck_rank_is_named(tmp_path):
    """Rank 1 joins the job and stops answering: rank 0's collective fails
    after the timeout naming rank 1, and the job ends non-zero."""
    two_allreduces(tmp_path / "m", 1)
    paddle_mlir.compile(str(tmp_path / "m"), output_dir=str(tmp_path / "art"))
    start = time.monotonic()
    res = mpirun(2, "-x", "PADDLE_MLIR_COMM_TIMEOUT=2", sys.executable,
                 os.path.join(HERE, "mpi", "comm_worker.py"), str(tmp_path / "art"), str(tmp_path), "stall")
    assert res.returncode != 0
    assert ("rank 0: c_allreduce_sum (collective 0 of the program): rank 1 did not reach it within "
            "2 s (lost or stuck)") in res.stdout + res.stderr, res.stdout + res.stderr
    assert time.monotonic() - start < 60


@needs_mpi
def test_killed_rank_stops_the_job(tmp_path):
    """Both ranks complete a first run's allreduce, then rank 1 is killed
    (SIGKILL) while rank 0 runs a second time: rank 0's runtime names rank
    1 as lost within --comm-timeout and rank 0 exits non-zero.
    --enable-recovery keeps mpirun from stopping rank 0 as soon as rank 1
    dies (it would, with its own message, before the runtime could say
    anything), so the message checked is ours; mpirun then returns 0, so
    each rank's exit status is recorded by the shell that runs it."""
    two_allreduces(tmp_path / "m", 1)
    paddle_mlir.compile(str(tmp_path / "m"), output_dir=str(tmp_path / "art"))
    timeout = 2
    script = '"$@"; echo $? > "$0/rank$OMPI_COMM_WORLD_RANK.rc"'
    start = time.monotonic()
    res = mpirun(2, "--enable-recovery", "-x", "PADDLE_MLIR_COMM_TIMEOUT=%d" % timeout, "sh", "-c", script,
                 str(tmp_path), sys.executable, os.path.join(HERE, "mpi", "comm_worker.py"),
                 str(tmp_path / "art"), str(tmp_path), "die_after_first")
    elapsed = time.monotonic() - start
    out = res.stdout + res.stderr
    assert os.path.exists(tmp_path / "rank0.first"), out  # the first run completed on both ranks
    rcs = [int((tmp_path / ("rank%d.rc" % r)).read_text()) for r in (0, 1)]
    assert rcs[1] == 128 + 9, (rcs, out)  # SIGKILL
    assert rcs[0] != 0, (rcs, out)
    assert ("rank 0: c_allreduce_sum (collective 0 of the program): rank 1 did not reach it within "
            "%d s (lost or stuck)" % timeout) in out, out
    assert "mpirun noticed" not in out, out
    assert not os.path.exists(tmp_path / "rank0.npz"), out
    assert elapsed < timeout + 60, (elapsed, out)


@needs_mpi
def test_paddle_run_on_two_ranks(tmp_path):
    """paddle-run under mpirun: rank 0 writes the outputs; with a rank
    whose program has one collective less, rank 0 names it after
    --comm-timeout."""
    from test_reductions import tool
    two_allreduces(tmp_path / "m", 2)
    paddle_mlir.compile(str(tmp_path / "m"), output_dir=str(tmp_path / "art"))
    x, _ = rank_inputs(0)
    np.save(tmp_path / "x.npy", x)
    res = mpirun(2, tool("paddle-run"), str(tmp_path / "art"), "--input", "x=%s" % (tmp_path / "x.npy"),
                 "--output-dir", str(tmp_path / "out"))
    assert res.returncode == 0, res.stdout + res.stderr
    assert res.stdout.count("output ") == 1 and "ranks: 2 (outputs of rank 0)" in res.stdout, res.stdout
    (name,) = os.listdir(tmp_path / "out")
    np.testing.assert_array_equal(np.load(tmp_path / "out" / name), x * 4)

    two_allreduces(tmp_path / "m1", 1)
    paddle_mlir.compile(str(tmp_path / "m1"), output_dir=str(tmp_path / "art_r1"))
    script = ('if [ "$OMPI_COMM_WORLD_RANK" = 1 ]; then a="$0_r1"; else a="$0"; fi; '
              'exec "$1" "$a" --input "x=$2" --comm-timeout 2')
    res = mpirun(2, "sh", "-c", script, str(tmp_path / "art"), tool("paddle-run"), str(tmp_path / "x.npy"))
    assert res.returncode != 0
    assert ("rank 0: c_allreduce_sum (collective 1 of the program): rank 1 did not reach it within 2 s"
            in res.stdout + res.stderr), res.stdout + res.stderr


def run_data_parallel(tmp_path, model_dir, feeds, n):
    """Compiles `model_dir` alone and with --partition data --devices n,
    runs the partitioned one under mpirun on `feeds` (the whole batch on
    every rank) and returns (alone's outputs, each rank's outputs)."""
    alone = paddle_mlir.compile(model_dir)
    part = paddle_mlir.compile(model_dir, partition="data", devices=n,
                               output_dir=str(tmp_path / "dp"))
    with open(os.path.join(part.artifact_dir, "manifest.json")) as f:
        manifest = json.load(f)
    want = alone(**feeds)
    # What each rank sends to gather the outputs: the n - 1 parts it did
    # not compute (with static output shapes; dynamic ones decide it at run
    # time, and the manifest leaves it out).
    static = all(d >= 0 for o in manifest["outputs"] for d in o["shape"])
    gathered = {"allgather_bytes_per_run": sum(o.nbytes // n * (n - 1) for o in want)}
    assert manifest["partition"] == {"mode": "data", "devices": n, **(gathered if static else {})}
    np.savez(tmp_path / "in.npz", **feeds)
    out = tmp_path / "out"
    out.mkdir()
    res = mpirun(n, sys.executable, os.path.join(HERE, "mpi", "comm_worker.py"),
                 str(tmp_path / "dp"), str(out), "run", str(tmp_path / "in.npz"), timeout=300)
    assert res.returncode == 0, res.stdout + res.stderr
    ranks = [np.load(out / ("rank%d.npz" % r)) for r in range(n)]
    return want, [[z["out%d" % i] for i in range(len(z.files) - 1)] for z in ranks]


@needs_mpi
def test_data_parallel_bert(tmp_path):
    """A 2-layer BERT (dynamic batch and sequence) split over 2 ranks gives
    every rank the single-process outputs."""
    from paddle_mlir import zoo
    b, _ = zoo.bert_base(seed=3, layers=2, hidden=64, heads=4)
    b.save(str(tmp_path / "bert"))
    rng = np.random.default_rng(0)
    feeds = {"input_ids": rng.integers(1, 30000, (4, 9)).astype(np.int64),
             "token_type_ids": rng.integers(0, 2, (4, 9)).astype(np.int64)}
    feeds["input_ids"][1, 6:] = 0  # padding, masked
    want, got = run_data_parallel(tmp_path, str(tmp_path / "bert"), feeds, 2)
    for outs in got:
        assert len(outs) == len(want)
        for g, w in zip(outs, want):
            assert g.shape == w.shape
            np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-5)


@needs_mpi
def test_data_parallel_cnn_three_ranks(tmp_path):
    """A convolution / batch_norm / pooling / fc network with a static batch
    of 6 over 3 ranks."""
    rng = np.random.default_rng(1)
    b = ProgramBuilder()
    x = b.feed("image", [6, 3, 8, 8])
    w = b.param("w", rng.standard_normal((4, 3, 3, 3)).astype(np.float32) * 0.3)
    y = b.relu(b.batch_norm(b.conv2d(x, w, padding=1), b.param("g", np.ones(4, np.float32) * 1.5),
                            b.param("beta", np.full(4, 0.1, np.float32)),
                            b.param("mean", rng.standard_normal(4).astype(np.float32) * 0.1),
                            b.param("var", np.full(4, 2.0, np.float32))))
    y = b.pool2d(y, "avg", 2, stride=2)
    y = b.linear(b.flatten(y, 1, 3), b.param("fc_w", rng.standard_normal((64, 5)).astype(np.float32) * 0.1),
                 b.param("fc_b", np.arange(5, dtype=np.float32)))
    b.fetch(b.softmax(y))
    b.save(str(tmp_path / "cnn"))
    feeds = {"image": rng.standard_normal((6, 3, 8, 8)).astype(np.float32)}
    want, got = run_data_parallel(tmp_path, str(tmp_path / "cnn"), feeds, 3)
    for outs in got:
        for g, w in zip(outs, want):
            np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-6)


def test_data_parallel_alone_is_refused(tmp_path):
    b = ProgramBuilder()
    b.fetch(b.relu(b.feed("x", [-1, 3])))
    b.save(str(tmp_path / "m"))
    model = paddle_mlir.compile(str(tmp_path / "m"), partition="data", devices=2)
    with pytest.raises(RuntimeError, match=r"shard_batch: the artifact was compiled for 2 devices "
                                           r"\(--partition data --devices 2\), but the job has 1 rank "
                                           r"\(run it with mpirun -np 2\)"):
        model(np.ones((4, 3), np.float32))


def test_manifest_cost(tmp_path):
    """The cost model pipeline partitioning will balance stages by, as the
    manifest reports it: the convolution's 2 * 256 outputs * 27
    multiply-adds, the matrix product's 2 * 10 * 256, sums that add up."""
    rng = np.random.default_rng(2)
    b = ProgramBuilder()
    x = b.feed("x", [-1, 3, 8, 8])
    y = b.relu(b.conv2d(x, b.param("w", rng.standard_normal((4, 3, 3, 3)).astype(np.float32)), padding=1))
    y = b.matmul_v2(b.reshape2(y, [0, 256]), b.param("f", rng.standard_normal((256, 10)).astype(np.float32)))
    b.fetch(y)
    b.save(str(tmp_path / "m"))
    model = paddle_mlir.compile(str(tmp_path / "m"))
    with open(os.path.join(model.artifact_dir, "manifest.json")) as f:
        cost = json.load(f)["cost"]
    assert cost["dynamic_dims_as"] == 1
    assert cost["flops"] == sum(o["flops"] for o in cost["ops"])
    assert cost["bytes"] == sum(o["bytes"] for o in cost["ops"])
    by_type = {o["type"]: o for o in cost["ops"]}
    conv = by_type.get("fused_conv2d") or by_type["conv2d"]
    assert conv["flops"] == 2 * 256 * 27 and conv["bytes"] == (192 + 108 + 256) * 4
    assert by_type["matmul_v2"]["flops"] == 2 * 10 * 256
    assert by_type["reshape2"]["flops"] == 0
