"""Pipeline training (paddle-compile --partition pipeline --devices N
--train [--micro-batches M]): the train step's stages run on N ranks in
the 1F1B order, each updating the parameters it owns. After 20 steps on
scikit-learn's digits each rank's own parameters equal training in one
process on the same batches (1e-5 with SGD, 1e-4 with Adam), and so do
the losses rank 0 reports."""
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
from test_dp_train import BATCH, digits_batches, digits_bn_cnn, digits_cnn
from test_dp_train import train_both as dp_train_both


def train_both(tmp_path, n, micro, optimizer, lr, model_fn=digits_cnn, **opts):
    return dp_train_both(tmp_path, n, optimizer, lr, model_fn=model_fn, partition="pipeline",
                         micro_batches=micro, train_opts=opts)


def owned(manifest, want):
    """{rank: [trained parameters its stage owns]}; each parameter has one
    owner."""
    stages = manifest["partition"]["stages"]
    mine = {s["stage"]: [w for w in s["weights"] if w in want] for s in stages}
    flat = sorted(w for ws in mine.values() for w in ws)
    assert flat == sorted(want), (flat, sorted(want))
    return mine


@needs_mpi
@pytest.mark.parametrize("n,micro,optimizer,lr,tol", [
    (2, 1, "sgd", 0.1, 1e-5), (2, 4, "sgd", 0.1, 1e-5), (3, 4, "adam", 0.01, 1e-4),
    (2, 2, "momentum", 0.05, 1e-5)])
def test_equals_one_process(tmp_path, n, micro, optimizer, lr, tol):
    (want_losses, want), ranks, manifest = train_both(tmp_path, n, micro, optimizer, lr)
    part = manifest["partition"]
    assert part["mode"] == "pipeline" and part["schedule"] == "1F1B"
    assert part["micro_batches"] == micro and len(part["stages"]) == n
    np.testing.assert_allclose(ranks[0]["losses"], want_losses, rtol=tol, atol=1e-6)
    # Rank 0 gathered every stage's parameters (TrainStep.gather_stage_parameters).
    for name, value in want.items():
        np.testing.assert_allclose(ranks[0][name], value, rtol=tol, atol=1e-6, err_msg="rank 0: " + name)
    mine = owned(manifest, want)
    for r, names in mine.items():
        for name in names:
            np.testing.assert_allclose(ranks[r][name], want[name], rtol=tol, atol=1e-6,
                                       err_msg="rank %d: %s" % (r, name))
    # Another rank never read a stage's parameters from the file: zeros.
    for r in range(1, n):
        used = set(part["stages"][r]["weights"])
        for name in want:
            if name not in used:
                assert not ranks[r][name].any(), "rank %d: %s" % (r, name)
    # Every stage computes, and all but the last pass activations on.
    assert all(s["ops"] > 0 and s["flops"] > 0 for s in part["stages"])
    assert all(s["sends_bytes"] > 0 for s in part["stages"])


@needs_mpi
def test_clipping_schedule_and_decay(tmp_path):
    """What the update shares across stages: the global gradient norm
    (partial sums from every stage), the learning rate from the step
    counter (cosine after warmup), Adam's beta powers; and AdamW's decay."""
    (want_losses, want), ranks, manifest = train_both(
        tmp_path, 3, 2, "adamw", 0.01, clip_norm=0.3, schedule="cosine", total_steps=20, warmup_steps=3,
        weight_decay=0.05)
    np.testing.assert_allclose(ranks[0]["losses"], want_losses, rtol=1e-4, atol=1e-6)
    for name, value in want.items():
        np.testing.assert_allclose(ranks[0][name], value, rtol=1e-4, atol=1e-6, err_msg=name)


@needs_mpi
def test_batch_norm_in_one_micro_batch(tmp_path):
    """batch_norm's statistics (and running statistics, stored by the stage
    that computes them) equal one process's with one micro-batch."""
    (want_losses, want), ranks, manifest = train_both(tmp_path, 2, 1, "sgd", 0.1, model_fn=digits_bn_cnn)
    np.testing.assert_allclose(ranks[0]["losses"], want_losses, rtol=1e-5, atol=1e-6)
    mine = owned(manifest, want)
    assert any("bn.mean" in names for names in mine.values())
    for r, names in mine.items():
        for name in names:
            np.testing.assert_allclose(ranks[r][name], want[name], rtol=1e-5, atol=1e-6,
                                       err_msg="rank %d: %s" % (r, name))


@needs_mpi
@pytest.mark.parametrize("steps", [1, 20])
def test_batch_norm_in_micro_batches(tmp_path, steps):
    """With 2 micro-batches each normalizes with its own statistics, like a
    rank of data-parallel training with local statistics on its half: the
    parameters equal those of 2-rank data-parallel training. The running
    statistics are updated once per micro-batch in turn, so after one step
    they are momentum * (rank 0's) + (rank 1's) - momentum * (the initial)."""
    import test_dp_train
    saved = test_dp_train.STEPS
    test_dp_train.STEPS = steps
    try:
        pp_dir, dp_dir = tmp_path / "pp", tmp_path / "dp"
        pp_dir.mkdir()
        dp_dir.mkdir()
        _, pp, manifest = train_both(pp_dir, 2, 2, "sgd", 0.1, model_fn=digits_bn_cnn)
        _, dp, _ = dp_train_both(dp_dir, 2, "sgd", 0.1, model_fn=digits_bn_cnn)
    finally:
        test_dp_train.STEPS = saved
    np.testing.assert_allclose(pp[0]["losses"], dp[0]["losses"], rtol=1e-5, atol=1e-6)
    params = {k: v for k, v in dp[0].items() if k != "losses"}
    for r, names in owned(manifest, params).items():
        for name in names:
            if name in ("bn.mean", "bn.var"):
                if steps == 1:
                    initial = 0.0 if name == "bn.mean" else 1.0
                    want = 0.9 * dp[0][name] + dp[1][name] - 0.9 * initial
                    np.testing.assert_allclose(pp[r][name], want, rtol=1e-5, atol=1e-6, err_msg=name)
                continue
            np.testing.assert_allclose(pp[r][name], dp[0][name], rtol=1e-4, atol=1e-6,
                                       err_msg="rank %d: %s" % (r, name))


def test_refusals(tmp_path):
    model = digits_cnn(tmp_path / "cnn")
    opts = dict(loss_op="softmax_with_cross_entropy", input_shapes={"x": [BATCH, 1, 8, 8]},
                partition="pipeline", devices=2)
    with pytest.raises(RuntimeError, match="--keep-gradients does not combine with --partition pipeline"):
        paddle_mlir.train.compile(model, keep_gradients=True, **opts)
    with pytest.raises(RuntimeError, match="a batch of 16 does not split into 3 micro-batches"):
        paddle_mlir.train.compile(model, micro_batches=3, **opts)


@needs_mpi
def test_paddle_run_checkpoints_per_rank(tmp_path):
    """paddle-run trains a 2-stage pipeline (Adam, 4 micro-batches) under
    mpirun: each rank saves its own checkpoint, resuming from them after
    one epoch ends with the loss of one process trained for two epochs, and
    --save-params (the stages' parameters gathered on rank 0) writes the
    model that process writes."""
    from test_reductions import tool
    model = digits_cnn(tmp_path / "cnn")
    xs, ys = digits_batches()
    np.savez(tmp_path / "digits.npz", x=xs.reshape(-1, 1, 8, 8), label=ys.reshape(-1, 1))
    common = ["--train", "--loss-op", "softmax_with_cross_entropy", "--optimizer", "adam", "--lr", "0.01",
              "--input-shape", "x=%dx1x8x8" % BATCH]
    for out, extra in (("one", []), ("pp", ["--partition", "pipeline", "--devices", "2", "--micro-batches", "4"])):
        p = subprocess.run([tool("paddle-compile"), model, *common, *extra, "-o", str(tmp_path / out)],
                           capture_output=True, text=True)
        assert p.returncode == 0, p.stderr
    data = ["--train", str(tmp_path / "digits.npz")]
    one = subprocess.run([tool("paddle-run"), str(tmp_path / "one"), *data, "--epochs", "2", "--save-params",
                          str(tmp_path / "one_model")], capture_output=True, text=True)
    assert one.returncode == 0, one.stderr
    ck = str(tmp_path / "ck")
    first = mpirun(2, tool("paddle-run"), str(tmp_path / "pp"), *data, "--save-checkpoint", ck)
    assert first.returncode == 0, first.stdout + first.stderr
    assert "ranks: 2 (pipeline stages" in first.stdout and "one per rank" in first.stdout, first.stdout
    assert sorted(f for f in os.listdir(tmp_path) if f.startswith("ck")) == ["ck.rank0", "ck.rank1"]
    second = mpirun(2, tool("paddle-run"), str(tmp_path / "pp"), *data, "--resume", ck, "--save-params",
                    str(tmp_path / "pp_model"))
    assert second.returncode == 0, second.stdout + second.stderr
    final = [float(p.stdout.split("final loss ")[1].split()[0]) for p in (one, second)]
    assert abs(final[0] - final[1]) <= 1e-4 * abs(final[0]), final
    # The saved models compute the same (conv1.w lives on stage 0, the
    # classifier on stage 1: both reached rank 0).
    x = xs[0]
    logits = [paddle_mlir.compile(str(tmp_path / d))(x)[0] for d in ("one_model", "pp_model")]
    np.testing.assert_allclose(logits[1], logits[0], rtol=1e-4, atol=1e-5)
    initial = paddle_mlir.compile(model)(x)[0]
    assert np.abs(logits[1] - initial).max() > 1e-2  # trained, not the initial weights


@needs_mpi
def test_bert_in_two_stages(tmp_path):
    """A 2-layer BERT classifier (int64 ids sliced per micro-batch,
    embeddings, layer_norm, attention, gelu) in 2 stages of 2
    micro-batches: SGD for 5 steps equals one process. (With Adam the
    attention's key bias, whose exact gradient is zero, would follow
    rounding noise that Adam normalizes to full steps, differently in any
    two summation orders.) The cut counts each parameter's gradient and
    update: the 30522-word embedding's outweigh this narrow model's
    layers, so it is stage 0's and the classifier stage 1's."""
    from paddle_mlir import zoo
    b, _ = zoo.bert_base(seed=0, layers=2, hidden=32, heads=2, classes=4)
    model = b.save(str(tmp_path / "bert"))
    batch, seq, steps = 4, 8, 5
    rng = np.random.default_rng(0)
    feeds = dict(input_ids=rng.integers(1, 100, (steps, batch, seq)).astype(np.int64),
                 token_type_ids=np.zeros((steps, batch, seq), np.int64),
                 label=rng.integers(0, 4, (steps, batch, 1)).astype(np.int64))
    opts = dict(loss_op="softmax_with_cross_entropy", optimizer="sgd", lr=0.1,
                input_shapes={"input_ids": [batch, seq], "token_type_ids": [batch, seq]})
    alone = paddle_mlir.train.compile(model, **opts)
    want_losses = [alone.step(**{k: v[i] for k, v in feeds.items()}) for i in range(steps)]
    want = alone.parameters()
    art = tmp_path / "pp"
    paddle_mlir.train.compile(model, partition="pipeline", devices=2, micro_batches=2, output_dir=str(art),
                              **opts)
    np.savez(tmp_path / "batches.npz", **feeds)
    out = tmp_path / "out"
    out.mkdir()
    res = mpirun(2, sys.executable, os.path.join(HERE, "mpi", "comm_worker.py"), str(art), str(out), "train",
                 str(tmp_path / "batches.npz"), timeout=600)
    assert res.returncode == 0, res.stdout + res.stderr
    got = dict(np.load(out / "rank0.npz"))
    np.testing.assert_allclose(got["losses"], want_losses, rtol=1e-5, atol=1e-6)
    for name, value in want.items():
        np.testing.assert_allclose(got[name], value, rtol=1e-4, atol=1e-6, err_msg=name)
    with open(art / "manifest.json") as f:
        stages = json.load(f)["partition"]["stages"]
    assert "word.weight" in stages[0]["owns"] and "cls.weight" in stages[1]["owns"], stages


@needs_mpi
def test_a_rank_holds_only_its_stage_s_weights(tmp_path):
    """Each rank's instance gets memory for the trained weights its stage
    uses; another stage's (here a 16 MiB output layer) are zero pages it
    never touches, so the other rank's instance costs it almost nothing."""
    g = np.random.default_rng(3)
    b = ProgramBuilder()
    x = b.feed("x", [-1, 64])
    h = b.relu(b.linear(x, b.param("fc1.w", (g.standard_normal((64, 64)) * 0.1).astype(np.float32)),
                        b.param("fc1.b", np.zeros(64, np.float32))))
    b.fetch(b.linear(h, b.param("fc2.w", (g.standard_normal((64, 65536)) * 0.01).astype(np.float32)),
                     b.param("fc2.b", np.zeros(65536, np.float32))))
    model = b.save(str(tmp_path / "wide"))
    art = tmp_path / "pp"
    paddle_mlir.train.compile(model, partition="pipeline", devices=2, output_dir=str(art),
                              loss_op="softmax_with_cross_entropy", optimizer="sgd", lr=0.1,
                              input_shapes={"x": [8, 64]})
    with open(art / "manifest.json") as f:
        stages = json.load(f)["partition"]["stages"]
    big = [s["stage"] for s in stages if "fc2.w" in s["weights"]]
    assert len(big) == 1, stages
    out = tmp_path / "out"
    out.mkdir()
    res = mpirun(2, sys.executable, os.path.join(HERE, "mpi", "comm_worker.py"), str(art), str(out),
                 "instance_rss", timeout=300)
    assert res.returncode == 0, res.stdout + res.stderr
    grown = [int((out / ("rank%d.txt" % r)).read_text()) for r in range(2)]
    assert grown[1 - big[0]] < 4096, grown  # kB: not the 16 MiB of fc2.w
    assert grown[big[0]] > 12 * 1024, grown  # the stage that holds fc2.w
