"""paddle-compile --train and paddle-run --train (docs/Training.md, issue 32
step d): a train-step artifact compiled from the command line, trained over
an .npz of scikit-learn's digits with the C runtime's pdrt_train_step, its
per-epoch and final losses against PyTorch run on the same batches, and the
errors (bad data, bad labels, misused flags) as one line each with an exit
code below 128 and nothing written."""

import json
import os
import re
import subprocess

import numpy as np
import pytest
import torch

from paddle_mlir.builder import ProgramBuilder

BUILD = os.environ.get("PADDLE_MLIR_BUILD_DIR",
                       os.path.join(os.path.dirname(__file__), "..", "..", "build"))


def tool(name):
    return os.path.join(BUILD, "bin", name)


def run(*args):
    return subprocess.run([str(a) for a in args], capture_output=True, text=True, timeout=600)


def _digits(n):
    from sklearn.datasets import load_digits
    d = load_digits()
    order = np.random.default_rng(0).permutation(len(d.data))[:n]
    return (d.data[order] / 16.0).astype(np.float32), d.target[order].astype(np.int64)


def _weights():
    g = np.random.default_rng(3)
    return {"fc1.w": (g.standard_normal((64, 32)) * 0.2).astype(np.float32),
            "fc1.b": np.zeros(32, np.float32),
            "fc2.w": (g.standard_normal((32, 10)) * 0.2).astype(np.float32),
            "fc2.b": np.zeros(10, np.float32)}


def _model(tmp_path, batch=20):
    w = _weights()
    b = ProgramBuilder()
    x = b.feed("x", [batch, 64])
    h = b.linear(x, b.param("fc1.w", w["fc1.w"]), b.param("fc1.b", w["fc1.b"]), act="relu")
    b.fetch(b.linear(h, b.param("fc2.w", w["fc2.w"]), b.param("fc2.b", w["fc2.b"])))
    return b.save(str(tmp_path / "mlp")), w


def _compile(tmp_path, *extra, out="step"):
    model, _ = _model(tmp_path)
    p = run(tool("paddle-compile"), model, "--train", "--loss-op", "softmax_with_cross_entropy",
            "--label", "label", *extra, "-o", tmp_path / out)
    return p, tmp_path / out


@pytest.fixture(scope="module")
def adam_step(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("adam")
    p, out = _compile(tmp, "--optimizer", "adam", "--lr", "0.01")
    assert p.returncode == 0, p.stderr
    return out


def test_manifest_describes_the_train_step(adam_step):
    m = json.load(open(adam_step / "manifest.json"))
    assert [i["name"] for i in m["inputs"]] == ["x", "label"]
    label = m["inputs"][1]
    assert (label["dtype"], label["shape"], label["classes"], label["ignore_index"]) == \
        ("int64", [20, 1], 10, -100)
    params = sorted(w["name"] for w in m["weights"] if w.get("trainable") and not w.get("optimizer_state"))
    state = sorted(w["name"] for w in m["weights"] if w.get("optimizer_state"))
    assert params == ["fc1.b", "fc1.w", "fc2.b", "fc2.w"]
    assert state == sorted(["beta1_pow_acc_0", "beta2_pow_acc_0"] +
                           [p + s for p in params for s in ("_moment1_0", "_moment2_0")])
    assert all(w.get("trainable") for w in m["weights"] if w.get("optimizer_state"))
    assert m["outputs"][0]["name"] == "loss"


def test_paddle_run_trains_like_pytorch(adam_step, tmp_path):
    """Two epochs over 100 digits in batches of 20 (the 7 left over are
    dropped): the mean loss of each epoch and the final loss agree with
    PyTorch's Adam on the same batches."""
    x, y = _digits(107)
    np.savez(tmp_path / "digits.npz", x=x, label=y.reshape(-1, 1))
    p = run(tool("paddle-run"), adam_step, "--train", tmp_path / "digits.npz", "--epochs", "2")
    assert p.returncode == 0, p.stderr
    assert "2 epochs of 5 steps (batch 20); 7 samples that fill no whole batch are left out" in p.stdout
    means = [float(v) for v in re.findall(r"epoch \d/2: mean loss ([0-9.]+)", p.stdout)]
    final = float(re.search(r"trained 10 steps \(200 samples\) in [0-9.]+ s: final loss ([0-9.]+)", p.stdout)[1])

    w = _weights()
    t = [torch.tensor(w[k], requires_grad=True) for k in ("fc1.w", "fc1.b", "fc2.w", "fc2.b")]
    opt = torch.optim.Adam(t, lr=0.01)
    ref_means = []
    for _ in range(2):
        losses = []
        for lo in range(0, 100, 20):
            opt.zero_grad()
            logits = torch.relu(torch.from_numpy(x[lo:lo + 20]) @ t[0] + t[1]) @ t[2] + t[3]
            loss = torch.nn.functional.cross_entropy(logits, torch.from_numpy(y[lo:lo + 20]))
            loss.backward()
            opt.step()
            losses.append(loss.item())
        ref_means.append(sum(losses) / len(losses))
    np.testing.assert_allclose(means, ref_means, rtol=1e-4)
    assert final == pytest.approx(losses[-1], rel=1e-4)


def test_data_directory_of_npz_files(adam_step, tmp_path):
    x, y = _digits(80)
    os.mkdir(tmp_path / "parts")
    np.savez(tmp_path / "parts" / "a.npz", x=x[:40], label=y[:40].reshape(-1, 1))
    np.savez(tmp_path / "parts" / "b.npz", x=x[40:], label=y[40:].reshape(-1, 1))
    p = run(tool("paddle-run"), adam_step, "--train", tmp_path / "parts")
    assert p.returncode == 0, p.stderr
    assert "1 epoch of 4 steps (batch 20)" in p.stdout and "trained 4 steps (80 samples)" in p.stdout


def _bad_data(tmp_path, **arrays):
    np.savez(tmp_path / "bad.npz", **arrays)
    return tmp_path / "bad.npz"


def test_bad_training_data_is_one_clear_error(adam_step, tmp_path):
    x, y = _digits(40)
    label = y.reshape(-1, 1)
    cases = [
        (dict(x=x, label=np.where(np.arange(40) == 23, 12, y).reshape(-1, 1)),
         r"samples 20-39: input 'label': label 12 at element 3 is outside \[0, 10\) \(the model has 10 classes\)"),
        (dict(x=x.astype(np.float64), label=label), "array 'x' is float64, the model's input is float32"),
        (dict(x=x, y=label), r"has no array 'label' for the model's input \(it has: x, y\)"),
        (dict(x=x[:, :60], label=label), r"array 'x' has shape \[40, 60\], the model's input takes samples of \[N, 64\]"),
        (dict(x=x, label=label[:30]), "array 'label' has 30 samples, the others 40"),
        (dict(x=x[:10], label=label[:10]), "has 10 samples, fewer than one batch of 20"),
    ]
    for arrays, message in cases:
        p = run(tool("paddle-run"), adam_step, "--train", _bad_data(tmp_path, **arrays))
        assert p.returncode == 1, (message, p.stdout, p.stderr)
        assert re.search(message, p.stderr), (message, p.stderr)
        assert p.stderr.count("error:") == 1, p.stderr
    p = run(tool("paddle-run"), adam_step, "--train", tmp_path / "missing.npz")
    assert p.returncode == 1 and "missing.npz" in p.stderr


def test_diverging_loss_stops_with_advice(tmp_path):
    p, out = _compile(tmp_path, "--optimizer", "sgd", "--lr", "1e30")
    assert p.returncode == 0, p.stderr
    x, y = _digits(100)
    p = run(tool("paddle-run"), out, "--train", _bad_data(tmp_path, x=x * 100, label=y.reshape(-1, 1)),
            "--epochs", "5")
    assert p.returncode == 1
    assert re.search(r"the loss is (nan|inf) at epoch \d step \d \(a lower --lr, or --clip-norm, may help\)", p.stderr)


def test_paddle_run_train_misuse(adam_step, tmp_path):
    model, _ = _model(tmp_path)
    inference = tmp_path / "infer"
    assert run(tool("paddle-compile"), model, "-o", inference).returncode == 0
    x, y = _digits(40)
    data = _bad_data(tmp_path, x=x, label=y.reshape(-1, 1))
    p = run(tool("paddle-run"), inference, "--train", _bad_data(tmp_path, x=x))
    assert p.returncode == 1 and "is not a train step (compile it with paddle-compile --train)" in p.stderr
    p = run(tool("paddle-run"), adam_step, "--epochs", "2")
    assert p.returncode == 1 and "--epochs only applies with --train" in p.stderr
    p = run(tool("paddle-run"), adam_step, "--train", data, "--iterations", "3")
    assert p.returncode == 1 and "does not combine with --input" in p.stderr
    p = run(tool("paddle-run"), adam_step, "--train", data, "--epochs", "0")
    assert p.returncode == 1 and "--epochs must be >= 1" in p.stderr


@pytest.mark.parametrize("args, message", [
    (["--optimizer", "adam"], "--optimizer only applies with --train"),
    (["--nesterov"], "--nesterov only applies with --train"),
    (["--train"], "--train needs exactly one of --loss NAME"),
    (["--train", "--loss", "x", "--loss-op", "softmax_with_cross_entropy"], "--train needs exactly one of"),
    (["--train", "--loss-op", "softmax_with_cross_entropy", "--optimizer", "rmsprop"],
     "--optimizer must be sgd, momentum, adam or adamw, not 'rmsprop'"),
    (["--train", "--loss-op", "softmax_with_cross_entropy", "--lr", "fast"], "--lr must be a positive number, not 'fast'"),
    (["--train", "--loss-op", "softmax_with_cross_entropy", "--schedule", "cosine"],
     "the cosine schedule needs total-steps > 0"),
    (["--train", "--loss", "nothing"], "no result or variable named 'nothing'"),
])
def test_paddle_compile_train_flag_errors(tmp_path, args, message):
    model, _ = _model(tmp_path)
    p = run(tool("paddle-compile"), model, *args, "-o", tmp_path / "out")
    assert 0 < p.returncode < 128, p.stderr
    assert message in p.stderr, p.stderr
    assert not os.path.exists(tmp_path / "out")


def test_momentum_and_step_schedule_state_in_manifest(tmp_path):
    p, out = _compile(tmp_path, "--optimizer", "momentum", "--nesterov", "--lr", "0.1",
                      "--schedule", "step", "--step-size", "3", "--gamma", "0.5")
    assert p.returncode == 0, p.stderr
    m = json.load(open(out / "manifest.json"))
    state = sorted(w["name"] for w in m["weights"] if w.get("optimizer_state"))
    assert state == sorted(["@LR_DECAY_COUNTER@"] + [n + "_velocity_0" for n in ("fc1.w", "fc1.b", "fc2.w", "fc2.b")])
