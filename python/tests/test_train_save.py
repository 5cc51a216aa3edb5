"""Saving what a train step learned (docs/Training.md, issue 32 step e): a
LeNet-style CNN with batch_norm trained on scikit-learn's digits reaches
>= 95% test accuracy, and the Paddle inference model it saves (program +
.pdiparams) re-imports and classifies the test digits identically through
paddle_mlir.compile and through paddle-run; checkpoints resume
bit-exactly; bad checkpoints are refused without changing anything."""

import os
import subprocess

import numpy as np
import pytest

import paddle_mlir
import paddle_mlir.train
from paddle_mlir.builder import ProgramBuilder

BUILD = os.environ.get("PADDLE_MLIR_BUILD_DIR",
                       os.path.join(os.path.dirname(__file__), "..", "..", "build"))


def tool(name):
    return os.path.join(BUILD, "bin", name)


def _digits():
    from sklearn.datasets import load_digits
    d = load_digits()
    x = (d.data / 16.0).astype(np.float32).reshape(-1, 1, 8, 8)
    y = d.target.astype(np.int64)
    order = np.random.default_rng(0).permutation(len(x))
    x, y = x[order], y[order]
    return x[:1400], y[:1400], x[1400:], y[1400:]


def _lenet(tmp_path):
    """conv 3x3 (8) + batch_norm + relu + max pool, conv 3x3 (16) + relu +
    avg pool, fc 10; the batch dim is dynamic, fixed for training."""
    g = np.random.default_rng(11)
    b = ProgramBuilder()
    x = b.feed("x", [-1, 1, 8, 8])
    h = b.conv2d(x, b.param("conv1.w", (g.standard_normal((8, 1, 3, 3)) * 0.3).astype(np.float32)),
                 padding=1)
    h = b.batch_norm(h, b.param("bn1.scale", np.ones(8, np.float32)), b.param("bn1.bias", np.zeros(8, np.float32)),
                     b.param("bn1.mean", np.zeros(8, np.float32)), b.param("bn1.var", np.ones(8, np.float32)))
    h = b.pool2d(b.relu(h), "max", 2, stride=2)
    h = b.relu(b.conv2d(h, b.param("conv2.w", (g.standard_normal((16, 8, 3, 3)) * 0.15).astype(np.float32)),
                        padding=1))
    h = b.flatten(b.pool2d(h, "avg", 2, stride=2), 1, 3)
    b.fetch(b.linear(h, b.param("fc.w", (g.standard_normal((64, 10)) * 0.1).astype(np.float32)),
                     b.param("fc.b", np.zeros(10, np.float32))))
    return b.save(str(tmp_path / "lenet"))


def test_cnn_learns_digits_and_saves_a_paddle_model(tmp_path):
    xs, ys, xt, yt = _digits()
    batch = 50
    trainer = paddle_mlir.train.compile(_lenet(tmp_path), loss_op="softmax_with_cross_entropy",
                                        optimizer="adam", lr=0.01, input_shapes={"x": [batch, 1, 8, 8]})
    for _ in range(8):
        for lo in range(0, len(xs), batch):
            trainer.step(xs[lo:lo + batch], ys[lo:lo + batch].reshape(-1, 1))
    saved = trainer.save(tmp_path / "saved")
    assert sorted(os.listdir(saved)) == ["model.pdiparams", "model.pdmodel"]

    # The saved program keeps the dynamic batch; all 397 test digits at once.
    model = paddle_mlir.compile(saved)
    logits = model(xt)[0]
    accuracy = float((logits.argmax(axis=1) == yt).mean())
    print("LeNet digits test accuracy %.4f" % accuracy)
    assert accuracy >= 0.95, accuracy

    # The same file through paddle-run (compiled in memory from the model).
    np.save(tmp_path / "xt.npy", xt)
    p = subprocess.run([tool("paddle-run"), saved, "--input", "x=%s" % (tmp_path / "xt.npy"),
                        "--output-dir", tmp_path / "out"], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    (out,) = os.listdir(tmp_path / "out")
    np.testing.assert_array_equal(np.load(tmp_path / "out" / out).argmax(axis=1), logits.argmax(axis=1))

    # The trained running statistics went into the file, not the initial ones.
    params = trainer.parameters()
    assert not np.allclose(params["bn1.mean"], 0)


def _mlp(tmp_path):
    g = np.random.default_rng(5)
    b = ProgramBuilder()
    x = b.feed("x", [16, 64])
    h = b.linear(x, b.param("fc1.w", (g.standard_normal((64, 32)) * 0.2).astype(np.float32)),
                 b.param("fc1.b", np.zeros(32, np.float32)), act="relu")
    b.fetch(b.linear(h, b.param("fc2.w", (g.standard_normal((32, 10)) * 0.2).astype(np.float32)),
                     b.param("fc2.b", np.zeros(10, np.float32))))
    return b.save(str(tmp_path / "mlp"))


OPTIONS = dict(loss_op="softmax_with_cross_entropy", optimizer="adamw", lr=5e-3, schedule="cosine",
               total_steps=30, warmup_steps=5, clip_norm=1.0)


def _batches(n):
    xs, ys, _, _ = _digits()
    xs = xs.reshape(-1, 64)
    return [(xs[i * 16:(i + 1) * 16], ys[i * 16:(i + 1) * 16].reshape(-1, 1)) for i in range(n)]


def _state(trainer):
    return {**trainer.parameters(), **trainer.optimizer_state_values()}


def test_checkpoint_at_20_resumes_bit_exactly_at_40(tmp_path):
    batches = _batches(40)
    straight = paddle_mlir.train.compile(_mlp(tmp_path), output_dir=str(tmp_path / "step"), **OPTIONS)
    losses = [straight.step(*b) for b in batches]

    first = paddle_mlir.train.TrainStep(str(tmp_path / "step"))
    for b in batches[:20]:
        first.step(*b)
    first.save_checkpoint(tmp_path / "ck")
    resumed = paddle_mlir.train.TrainStep(str(tmp_path / "step"))
    resumed.load_checkpoint(tmp_path / "ck")
    assert resumed.steps == 20
    resumed_losses = [resumed.step(*b) for b in batches[20:]]
    assert resumed.steps == 40
    assert resumed_losses == losses[20:]
    a, b = _state(straight), _state(resumed)
    assert sorted(a) == sorted(b)
    for k in a:
        np.testing.assert_array_equal(a[k], b[k], err_msg=k)
    assert a["@LR_DECAY_COUNTER@"][0] == 40


def test_bad_checkpoints_are_refused_and_change_nothing(tmp_path):
    step = paddle_mlir.train.compile(_mlp(tmp_path), output_dir=str(tmp_path / "step"), **OPTIONS)
    for b in _batches(3):
        step.step(*b)
    step.save_checkpoint(tmp_path / "ck")
    data = open(tmp_path / "ck", "rb").read()
    before = _state(step)

    other = paddle_mlir.train.compile(_mlp(tmp_path), loss_op="softmax_with_cross_entropy", optimizer="sgd")
    other.save_checkpoint(tmp_path / "other")
    open(tmp_path / "short", "wb").write(data[:-7])
    open(tmp_path / "junk", "wb").write(b"not a checkpoint at all")
    cases = [(tmp_path / "other", "was written by another model"),
             (tmp_path / "short", "is truncated or has trailing bytes"),
             (tmp_path / "junk", "is not a paddle-mlir checkpoint"),
             (tmp_path / "missing", "cannot read checkpoint")]
    for path, message in cases:
        with pytest.raises((ValueError, RuntimeError), match=message):
            step.load_checkpoint(path)
        after = _state(step)
        for k in before:
            np.testing.assert_array_equal(before[k], after[k], err_msg=k)
    assert step.steps == 3

    with pytest.raises(ValueError, match="cannot write"):
        step.save_checkpoint(tmp_path / "no" / "such" / "dir" / "ck")
    assert not os.path.exists(tmp_path / "no")


def test_inference_artifacts_have_nothing_to_save(tmp_path):
    from paddle_mlir import _pdrt
    model = paddle_mlir.compile(_mlp(tmp_path), output_dir=str(tmp_path / "infer"))
    inst = _pdrt.Instance(_pdrt.Model(model.artifact_dir))
    with pytest.raises(RuntimeError, match="has no Paddle inference program to save"):
        inst.save_params(str(tmp_path / "x"))
    with pytest.raises(RuntimeError, match="has no trained weights to checkpoint"):
        inst.save_checkpoint(str(tmp_path / "ck"))
    assert not os.path.exists(tmp_path / "x") and not os.path.exists(tmp_path / "ck")


def test_paddle_run_saves_and_resumes(tmp_path):
    step_dir = tmp_path / "step"
    paddle_mlir.train.compile(_mlp(tmp_path), output_dir=str(step_dir), **OPTIONS)
    xs, ys, _, _ = _digits()
    np.savez(tmp_path / "d.npz", x=xs.reshape(-1, 64)[:320], label=ys[:320].reshape(-1, 1))
    run = lambda *a: subprocess.run([tool("paddle-run"), step_dir, "--train", tmp_path / "d.npz", *a],
                                    capture_output=True, text=True)
    p = run("--epochs", "2", "--save-checkpoint", tmp_path / "ck", "--save-params", tmp_path / "saved")
    assert p.returncode == 0, p.stderr
    assert "saved a checkpoint after 40 steps" in p.stdout
    assert os.path.exists(tmp_path / "saved" / "model.pdiparams")
    straight = run("--epochs", "3")
    resumed = run("--resume", tmp_path / "ck")
    assert "resumed from %s after 40 steps" % (tmp_path / "ck") in resumed.stdout
    final = lambda out: out.strip().splitlines()[-1].split("final loss ")[1]
    assert final(resumed.stdout) == final(straight.stdout)
    p = run("--resume", tmp_path / "missing")
    assert p.returncode == 1 and "cannot read checkpoint" in p.stderr
