"""Data-parallel training (paddle-compile --partition data --devices N
--train): each rank of an mpirun job steps on its 1/N of the global batch
and the gradients are averaged over the ranks in buckets before the
update. After 20 steps on scikit-learn's digits every rank's parameters
equal training in one process on the same global batches (1e-5 with SGD,
1e-4 with Adam), and so do the losses rank 0 reports (the mean over the
ranks)."""
import json
import os
import subprocess
import sys

import numpy as np
import pytest

import paddle_mlir
import paddle_mlir.train
from paddle_mlir.builder import ProgramBuilder
from test_collectives import HERE, mpirun, needs_mpi

BATCH, STEPS = 16, 20


def digits_batches():
    from sklearn.datasets import load_digits
    d = load_digits()
    xs = (d.data / 16.0).astype(np.float32).reshape(-1, 1, 8, 8)
    ys = d.target.astype(np.int64).reshape(-1, 1)
    return (np.stack([xs[i * BATCH:(i + 1) * BATCH] for i in range(STEPS)]),
            np.stack([ys[i * BATCH:(i + 1) * BATCH] for i in range(STEPS)]))


def digits_cnn(path):
    """conv -> relu -> max pool -> conv -> relu -> avg pool -> fc."""
    g = np.random.default_rng(11)
    b = ProgramBuilder()
    x = b.feed("x", [-1, 1, 8, 8])
    h = b.conv2d(x, b.param("conv1.w", (g.standard_normal((6, 1, 3, 3)) * 0.3).astype(np.float32)),
                 padding=1)
    h = b.pool2d(b.relu(h), "max", 2, stride=2)
    h = b.relu(b.conv2d(h, b.param("conv2.w", (g.standard_normal((8, 6, 3, 3)) * 0.2).astype(np.float32)),
                        padding=1))
    h = b.flatten(b.pool2d(h, "avg", 2, stride=2), 1, 3)
    b.fetch(b.linear(h, b.param("fc.w", (g.standard_normal((32, 10)) * 0.2).astype(np.float32)),
                     b.param("fc.b", np.zeros(10, np.float32))))
    return b.save(str(path))


def digits_bn_cnn(path):
    """conv -> batch_norm -> relu -> max pool -> fc: batch_norm in training
    mode normalizes with the statistics of the batch it sees."""
    g = np.random.default_rng(5)
    b = ProgramBuilder()
    x = b.feed("x", [-1, 1, 8, 8])
    h = b.conv2d(x, b.param("conv.w", (g.standard_normal((6, 1, 3, 3)) * 0.3).astype(np.float32)),
                 padding=1)
    h = b.batch_norm(h, b.param("bn.scale", np.ones(6, np.float32)), b.param("bn.bias", np.zeros(6, np.float32)),
                     b.param("bn.mean", np.zeros(6, np.float32)), b.param("bn.var", np.ones(6, np.float32)))
    h = b.flatten(b.pool2d(b.relu(h), "max", 2, stride=2), 1, 3)
    b.fetch(b.linear(h, b.param("fc.w", (g.standard_normal((96, 10)) * 0.1).astype(np.float32)),
                     b.param("fc.b", np.zeros(10, np.float32))))
    return b.save(str(path))


def train_both(tmp_path, n, optimizer, lr, model_fn=digits_cnn, partition="data", train_opts=None, **kw):
    """Single-process and n-rank training on the same batches: (losses,
    parameters) of the single process, the same per rank, the manifest.
    `train_opts` go to both compiles, `kw` to the partitioned one."""
    model = model_fn(tmp_path / "cnn")
    xs, ys = digits_batches()
    opts = dict(loss_op="softmax_with_cross_entropy", optimizer=optimizer, lr=lr,
                input_shapes={"x": [BATCH, 1, 8, 8]}, **(train_opts or {}))
    alone = paddle_mlir.train.compile(model, **opts)
    want_losses = [alone.step(x=x, label=y) for x, y in zip(xs, ys)]
    want = alone.parameters()
    art = tmp_path / "dp"
    paddle_mlir.train.compile(model, partition=partition, devices=n, output_dir=str(art), **opts, **kw)
    with open(art / "manifest.json") as f:
        manifest = json.load(f)
    np.savez(tmp_path / "batches.npz", x=xs, label=ys)
    out = tmp_path / "out"
    out.mkdir()
    res = mpirun(n, sys.executable, os.path.join(HERE, "mpi", "comm_worker.py"), str(art), str(out),
                 "train", str(tmp_path / "batches.npz"), timeout=300)
    assert res.returncode == 0, res.stdout + res.stderr
    ranks = [dict(np.load(out / ("rank%d.npz" % r))) for r in range(n)]
    return (np.array(want_losses), want), ranks, manifest


@needs_mpi
@pytest.mark.parametrize("n,overlap", [(2, True), (4, True), (2, False)])
def test_sgd_equals_one_process(tmp_path, n, overlap):
    """Overlapped buckets (allreduce_start / _wait) and blocking ones."""
    (want_losses, want), ranks, manifest = train_both(tmp_path, n, "sgd", 0.1, overlap=overlap)
    for got in ranks:
        np.testing.assert_allclose(got["losses"], want_losses, rtol=1e-5, atol=1e-6)
        for name, value in want.items():
            np.testing.assert_allclose(got[name], value, rtol=1e-5, atol=1e-6, err_msg=name)
    part = manifest["partition"]
    assert part["mode"] == "data" and part["devices"] == n
    # Every parameter's gradient is in one bucket (the default 32 MiB holds
    # them all): 6*9 + 8*6*9 + 32*10 + 10 floats.
    (bucket,) = part["buckets"]
    assert sorted(bucket["gradients"]) == ["conv1.w", "conv2.w", "fc.b", "fc.w"]
    assert bucket["bytes"] == 4 * (54 + 432 + 320 + 10)
    assert part["allreduce_bytes_per_step"] == bucket["bytes"] * 2 * (n - 1) // n


@needs_mpi
@pytest.mark.parametrize("n", [2, 4])
def test_adam_small_buckets_equal_one_process(tmp_path, n):
    """Adam, buckets of at most 2048 bytes, filled in the order backward
    computes the gradients (the last layer first): fc.w and fc.b (1320
    bytes) together; conv2.w (1728) does not fit beside them and starts a
    bucket, which conv1.w (216) joins. The buckets do not depend on the
    rank count; the bytes each rank sends per step do."""
    (want_losses, want), ranks, manifest = train_both(tmp_path, n, "adam", 0.01,
                                                      bucket_mb=2048 / 2**20)
    for got in ranks:
        np.testing.assert_allclose(got["losses"], want_losses, rtol=1e-4, atol=1e-6)
        for name, value in want.items():
            np.testing.assert_allclose(got[name], value, rtol=1e-4, atol=1e-6, err_msg=name)
    buckets = [sorted(b["gradients"]) for b in manifest["partition"]["buckets"]]
    assert buckets == [["fc.b", "fc.w"], ["conv1.w", "conv2.w"]], buckets
    assert [b["bytes"] for b in manifest["partition"]["buckets"]] == [1320, 1944]
    assert manifest["partition"]["allreduce_bytes_per_step"] == (1320 + 1944) * 2 * (n - 1) // n


@needs_mpi
@pytest.mark.parametrize("n,optimizer,lr,tol", [(2, "sgd", 0.1, 1e-5), (4, "adam", 0.01, 1e-4),
                                                 (2, "momentum", 0.05, 1e-5)])
def test_reduce_strategy_equals_one_process(tmp_path, n, optimizer, lr, tol):
    """--reduce-strategy reduce, buckets of at most 2048 bytes ({fc.w, fc.b}:
    330 floats; {conv2.w, conv1.w}: 486): each bucket is reduce-scattered,
    each rank updates its 1/n slice (on 4 ranks both buckets are padded,
    to 332 and 488) with optimizer state for that slice only, and the
    allgather gives every rank all parameters: the same as one process."""
    (want_losses, want), ranks, manifest = train_both(
        tmp_path, n, optimizer, lr, bucket_mb=2048 / 2**20, reduce_strategy="reduce")
    for got in ranks:
        np.testing.assert_allclose(got["losses"], want_losses, rtol=tol, atol=1e-6)
        for name, value in want.items():
            np.testing.assert_allclose(got[name], value, rtol=tol, atol=1e-6, err_msg=name)
    part = manifest["partition"]
    assert part["strategy"] == "reduce"
    shards = [-(-330 // n), -(-486 // n)]
    assert [b["shard_elements"] for b in part["buckets"]] == shards
    assert part["updated_bytes_per_rank"] == 4 * sum(shards)
    assert part["reducescatter_bytes_per_step"] == part["allgather_bytes_per_step"] \
        == 4 * n * sum(shards) * (n - 1) // n
    # The optimizer state is per bucket and holds this rank's slice.
    state = {w["name"]: w["shape"] for w in manifest["weights"] if w.get("optimizer_state")}
    per_tensor = {"sgd": [], "momentum": ["velocity"], "adam": ["moment1", "moment2"]}[optimizer]
    for k, shard in enumerate(shards):
        for kind in per_tensor:
            assert state["grad_bucket_%d_%s_0" % (k, kind)] == [shard], state
    assert not any(name.startswith(("fc.", "conv")) for name in state), state


@needs_mpi
def test_reduce_strategy_with_clipping_schedule_and_decay(tmp_path):
    """The Reduce mode's global norm sums each rank's slice over the ranks;
    the learning rate schedule and AdamW's decay act on the slices."""
    (want_losses, want), ranks, _ = train_both(
        tmp_path, 2, "adamw", 0.01, train_opts=dict(clip_norm=0.3, schedule="cosine", total_steps=20,
                                                     warmup_steps=3, weight_decay=0.05),
        bucket_mb=2048 / 2**20, reduce_strategy="reduce")
    for got in ranks:
        np.testing.assert_allclose(got["losses"], want_losses, rtol=1e-4, atol=1e-6)
        for name, value in want.items():
            np.testing.assert_allclose(got[name], value, rtol=1e-4, atol=1e-6, err_msg=name)


@needs_mpi
def test_sync_batch_norm_equals_one_process(tmp_path):
    """--sync-batch-norm: batch_norm's statistics are the global batch's,
    so 2 ranks of 8 images train exactly like one process on 16, running
    statistics included; with local statistics (the default) they do
    not."""
    (want_losses, want), ranks, _ = train_both(tmp_path, 2, "sgd", 0.1, model_fn=digits_bn_cnn,
                                               sync_batch_norm=True)
    assert "bn.mean" in want and "bn.var" in want
    for got in ranks:
        np.testing.assert_allclose(got["losses"], want_losses, rtol=1e-4, atol=1e-6)
        for name, value in want.items():
            np.testing.assert_allclose(got[name], value, rtol=1e-4, atol=1e-5, err_msg=name)
    local = tmp_path / "local"
    local.mkdir()
    _, ranks, _ = train_both(local, 2, "sgd", 0.1, model_fn=digits_bn_cnn)
    assert np.abs(ranks[0]["bn.var"] - want["bn.var"]).max() > 1e-3
    assert np.abs(ranks[0]["losses"] - want_losses).max() > 1e-4


@needs_mpi
@pytest.mark.parametrize("overlap", [True, False])
def test_stalled_rank_is_named(tmp_path, overlap):
    """Rank 1 stops answering: rank 0's first bucket (started and waited
    for, or blocking) fails after the timeout naming rank 1, and the job
    ends."""
    model = digits_cnn(tmp_path / "cnn")
    xs, ys = digits_batches()
    art = tmp_path / "dp"
    paddle_mlir.train.compile(model, loss_op="softmax_with_cross_entropy", partition="data", devices=2,
                              input_shapes={"x": [BATCH, 1, 8, 8]}, overlap=overlap, output_dir=str(art))
    np.savez(tmp_path / "batches.npz", x=xs[:2], label=ys[:2])
    out = tmp_path / "out"
    out.mkdir()
    res = mpirun(2, "-x", "PADDLE_MLIR_COMM_TIMEOUT=2", sys.executable,
                 os.path.join(HERE, "mpi", "comm_worker.py"), str(art), str(out), "train_stall",
                 str(tmp_path / "batches.npz"))
    assert res.returncode != 0
    assert ("rank 0: c_allreduce_sum (collective 0 of the program): rank 1 did not reach it within 2 s"
            if not overlap else
            "rank 0: c_allreduce_sum of gradient bucket 0: rank 1 did not reach it within 2 s") \
        in res.stdout + res.stderr, res.stdout + res.stderr


def test_bad_bucket_sizes(tmp_path):
    model = digits_cnn(tmp_path / "cnn")
    opts = dict(loss_op="softmax_with_cross_entropy", input_shapes={"x": [BATCH, 1, 8, 8]})
    with pytest.raises(RuntimeError, match=r"--bucket-mb must be a number > 0, not '0.0'"):
        paddle_mlir.train.compile(model, partition="data", devices=2, bucket_mb=0, **opts)
    with pytest.raises(RuntimeError, match="--bucket-mb applies to --partition data --train only"):
        paddle_mlir.train.compile(model, bucket_mb=4, **opts)
    with pytest.raises(RuntimeError, match="--reduce-strategy must be allreduce or reduce, not 'zero'"):
        paddle_mlir.train.compile(model, partition="data", devices=2, reduce_strategy="zero", **opts)
    with pytest.raises(RuntimeError, match="--reduce-strategy applies to --partition data --train only"):
        paddle_mlir.train.compile(model, reduce_strategy="reduce", **opts)
    with pytest.raises(RuntimeError, match="--sync-batch-norm applies to --partition data --train only"):
        paddle_mlir.train.compile(model, sync_batch_norm=True, **opts)
    with pytest.raises(RuntimeError, match="--overlap-buckets applies to --reduce-strategy allreduce only"):
        paddle_mlir.train.compile(model, partition="data", devices=2, reduce_strategy="reduce", overlap=True,
                                  **opts)


@needs_mpi
def test_paddle_run_trains_on_two_ranks(tmp_path):
    """paddle-run --train under mpirun: rank 0 alone reports and saves; the
    final loss is the single process's."""
    from test_reductions import tool
    model = digits_cnn(tmp_path / "cnn")
    xs, ys = digits_batches()
    np.savez(tmp_path / "digits.npz", x=xs.reshape(-1, 1, 8, 8), label=ys.reshape(-1, 1))
    common = ["--train", "--loss-op", "softmax_with_cross_entropy", "--optimizer", "sgd", "--lr", "0.1",
              "--input-shape", "x=%dx1x8x8" % BATCH]
    for out, extra in (("one", []), ("dp", ["--partition", "data", "--devices", "2"])):
        p = subprocess.run([tool("paddle-compile"), model, *common, *extra, "-o", str(tmp_path / out)],
                           capture_output=True, text=True)
        assert p.returncode == 0, p.stderr
    run = ["--train", str(tmp_path / "digits.npz"), "--epochs", "2"]
    one = subprocess.run([tool("paddle-run"), str(tmp_path / "one"), *run], capture_output=True, text=True)
    assert one.returncode == 0, one.stderr
    dp = mpirun(2, tool("paddle-run"), str(tmp_path / "dp"), *run, "--save-params", str(tmp_path / "saved"))
    assert dp.returncode == 0, dp.stdout + dp.stderr
    assert dp.stdout.count("final loss") == 1 and "ranks: 2 (data-parallel" in dp.stdout, dp.stdout
    final = [float(p.stdout.split("final loss ")[1].split()[0]) for p in (one, dp)]
    assert abs(final[0] - final[1]) <= 1e-5 * abs(final[0]), final
    assert sorted(os.listdir(tmp_path / "saved")) == ["model.pdiparams", "model.pdmodel"]


@needs_mpi
def test_paddle_run_reduce_strategy_checkpoints_per_rank(tmp_path):
    """--reduce-strategy reduce with Adam under paddle-run: each rank saves
    its own checkpoint (its slice of the moments); resuming the job from
    them after one epoch ends with the loss of one process trained for two
    epochs straight."""
    from test_reductions import tool
    model = digits_cnn(tmp_path / "cnn")
    xs, ys = digits_batches()
    np.savez(tmp_path / "digits.npz", x=xs.reshape(-1, 1, 8, 8), label=ys.reshape(-1, 1))
    common = ["--train", "--loss-op", "softmax_with_cross_entropy", "--optimizer", "adam", "--lr", "0.01",
              "--input-shape", "x=%dx1x8x8" % BATCH]
    for out, extra in (("one", []), ("dp", ["--partition", "data", "--devices", "2", "--reduce-strategy",
                                            "reduce", "--bucket-mb", str(2048 / 2**20)])):
        p = subprocess.run([tool("paddle-compile"), model, *common, *extra, "-o", str(tmp_path / out)],
                           capture_output=True, text=True)
        assert p.returncode == 0, p.stderr
    data = ["--train", str(tmp_path / "digits.npz")]
    one = subprocess.run([tool("paddle-run"), str(tmp_path / "one"), *data, "--epochs", "2"],
                         capture_output=True, text=True)
    assert one.returncode == 0, one.stderr
    ck = str(tmp_path / "ck")
    first = mpirun(2, tool("paddle-run"), str(tmp_path / "dp"), *data, "--save-checkpoint", ck)
    assert first.returncode == 0, first.stdout + first.stderr
    assert "one per rank" in first.stdout, first.stdout
    assert sorted(f for f in os.listdir(tmp_path) if f.startswith("ck")) == ["ck.rank0", "ck.rank1"]
    second = mpirun(2, tool("paddle-run"), str(tmp_path / "dp"), *data, "--resume", ck)
    assert second.returncode == 0, second.stdout + second.stderr
    assert "after %d steps" % STEPS in second.stdout, second.stdout
    final = [float(p.stdout.split("final loss ")[1].split()[0]) for p in (one, second)]
    assert abs(final[0] - final[1]) <= 1e-4 * abs(final[0]), final
