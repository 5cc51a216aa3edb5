"""Optimizers, gradient clipping and learning-rate schedules of compiled
train steps (docs/Training.md, issue 32 step c): an MLP on scikit-learn's
digits trained for 50 steps by our artifact and by PyTorch from the same
initial weights and data order; the loss at every step and the parameters
after must agree. PyTorch's optimizers are the oracle for the updates; the
clipping and the schedules are written out below with NumPy/torch
arithmetic (Paddle's formulas), independently of the compiler."""

import math

import numpy as np
import pytest
import torch

import paddle_mlir.train
from paddle_mlir.builder import ProgramBuilder


def _digits():
    from sklearn.datasets import load_digits
    d = load_digits()
    x = (d.data / 16.0).astype(np.float32)
    y = d.target.astype(np.int64)
    order = np.random.default_rng(0).permutation(len(x))
    return x[order], y[order]


def _mlp(tmp_path, batch):
    g = np.random.default_rng(7)
    w = {"fc1.w": (g.standard_normal((64, 32)) * 0.2).astype(np.float32),
         "fc1.b": np.zeros(32, np.float32) + 0.01,
         "fc2.w": (g.standard_normal((32, 10)) * 0.2).astype(np.float32),
         "fc2.b": np.zeros(10, np.float32)}
    b = ProgramBuilder()
    x = b.feed("x", [batch, 64])
    h = b.linear(x, b.param("fc1.w", w["fc1.w"]), b.param("fc1.b", w["fc1.b"]), act="relu")
    b.fetch(b.linear(h, b.param("fc2.w", w["fc2.w"]), b.param("fc2.b", w["fc2.b"])))
    return b.save(str(tmp_path / "mlp")), w


NAMES = ["fc1.w", "fc1.b", "fc2.w", "fc2.b"]


def _clip_(params, clip):
    """Paddle's ClipGradByGlobalNorm: g * clip / max(||g||, clip)."""
    norm = math.sqrt(sum(float((p.grad.double() ** 2).sum()) for p in params))
    factor = clip / max(norm, clip)
    for p in params:
        p.grad.mul_(factor)


def _run(tmp_path, make_torch_opt, lr_at=None, clip=None, steps=50, batch=32, **train_options):
    """Trains the MLP with our artifact and with PyTorch step for step."""
    xs, ys = _digits()
    d, w = _mlp(tmp_path, batch)
    trainer = paddle_mlir.train.compile(d, loss_op="softmax_with_cross_entropy", **train_options)
    tw = [torch.tensor(w[k], requires_grad=True) for k in NAMES]
    opt = make_torch_opt(tw)
    for step in range(steps):
        lo = (step * batch) % (len(xs) - batch)
        x, y = xs[lo:lo + batch], ys[lo:lo + batch]
        ours = trainer.step(x, y.reshape(batch, 1))
        opt.zero_grad()
        logits = torch.relu(torch.from_numpy(x) @ tw[0] + tw[1]) @ tw[2] + tw[3]
        ref = torch.nn.functional.cross_entropy(logits, torch.from_numpy(y))
        ref.backward()
        if clip:
            _clip_(tw, clip)
        if lr_at:
            for group in opt.param_groups:
                group["lr"] = lr_at(step)
        opt.step()
        assert abs(ours - ref.item()) <= 1e-4 * abs(ref.item()), "step %d: %g vs %g" % (step, ours, ref.item())
    params = trainer.parameters()
    assert sorted(params) == sorted(NAMES)
    for name, t in zip(NAMES, tw):
        np.testing.assert_allclose(params[name], t.detach().numpy(), rtol=1e-4, atol=1e-5, err_msg=name)
    return trainer


def test_momentum_matches_pytorch(tmp_path):
    trainer = _run(tmp_path, lambda p: torch.optim.SGD(p, lr=0.05, momentum=0.9),
                   optimizer="momentum", lr=0.05, momentum=0.9)
    assert sorted(trainer.optimizer_state) == sorted(n + "_velocity_0" for n in NAMES)


def test_nesterov_with_l2_decay_matches_pytorch(tmp_path):
    _run(tmp_path, lambda p: torch.optim.SGD(p, lr=0.05, momentum=0.8, nesterov=True, weight_decay=1e-3),
         optimizer="momentum", lr=0.05, momentum=0.8, nesterov=True, weight_decay=1e-3)


def test_sgd_with_l2_decay_and_clipping_matches_pytorch(tmp_path):
    _run(tmp_path, lambda p: torch.optim.SGD(p, lr=0.3, weight_decay=5e-3), clip=0.5,
         optimizer="sgd", lr=0.3, weight_decay=5e-3, clip_norm=0.5)


def test_adam_matches_pytorch(tmp_path):
    trainer = _run(tmp_path, lambda p: torch.optim.Adam(p, lr=3e-3), optimizer="adam", lr=3e-3)
    state = trainer.optimizer_state_values()
    assert sorted(state) == sorted(["beta1_pow_acc_0", "beta2_pow_acc_0"] +
                                   [n + s for n in NAMES for s in ("_moment1_0", "_moment2_0")])
    # After 50 steps the powers are beta^51 (they start at beta^1).
    np.testing.assert_allclose(state["beta1_pow_acc_0"], [0.9 ** 51], rtol=1e-5)
    np.testing.assert_allclose(state["beta2_pow_acc_0"], [0.999 ** 51], rtol=1e-5)


def test_adam_with_clipping_matches_pytorch(tmp_path):
    _run(tmp_path, lambda p: torch.optim.Adam(p, lr=3e-3, betas=(0.8, 0.99), eps=1e-6), clip=0.3,
         optimizer="adam", lr=3e-3, beta1=0.8, beta2=0.99, epsilon=1e-6, clip_norm=0.3)


def test_adamw_with_warmup_and_cosine_matches_pytorch(tmp_path):
    lr, warmup, total, floor = 5e-3, 5, 30, 1e-4

    def lr_at(t):
        s = min(max(t - warmup, 0), total)
        return (floor + (lr - floor) * (1 + math.cos(math.pi * s / total)) / 2) * min(t / warmup, 1.0)

    trainer = _run(tmp_path, lambda p: torch.optim.AdamW(p, lr=lr, weight_decay=0.05), lr_at=lr_at,
                   optimizer="adamw", lr=lr, weight_decay=0.05, schedule="cosine", total_steps=total,
                   min_lr=floor, warmup_steps=warmup)
    np.testing.assert_array_equal(trainer.optimizer_state_values()["@LR_DECAY_COUNTER@"], [50])


def test_momentum_with_step_schedule_matches_pytorch(tmp_path):
    _run(tmp_path, lambda p: torch.optim.SGD(p, lr=0.1, momentum=0.9),
         lr_at=lambda t: 0.1 * 0.5 ** (t // 7),
         optimizer="momentum", lr=0.1, schedule="step", step_size=7, gamma=0.5)


def test_adamw_default_decay_is_one_hundredth(tmp_path):
    _run(tmp_path, lambda p: torch.optim.AdamW(p, lr=2e-3, weight_decay=0.01), steps=10,
         optimizer="adamw", lr=2e-3)


@pytest.mark.parametrize("options, message", [
    (dict(optimizer="lamb"), "--optimizer must be sgd, momentum, adam or adamw, not 'lamb'"),
    (dict(optimizer="adam", beta1=1.0), r"--beta1 must be in \[0, 1\), not '1.0'"),
    (dict(optimizer="momentum", momentum=-0.5), "--momentum must be a number >= 0, not '-0.5'"),
    (dict(weight_decay=-1.0), "--weight-decay must be a number >= 0, not '-1.0'"),
    (dict(clip_norm=float("nan")), r"--clip-norm must be a number >= 0 \(0: no clipping\), not 'nan'"),
    (dict(schedule="exponential"), "--schedule must be constant, step or cosine, not 'exponential'"),
    (dict(schedule="step", step_size=0), "--step-size must be an integer >= 1, not '0'"),
    (dict(warmup_steps=-3), "--warmup-steps must be an integer >= 0, not '-3'"),
])
def test_bad_optimizer_options(tmp_path, options, message):
    d, _ = _mlp(tmp_path, 4)
    with pytest.raises(ValueError, match=message):
        paddle_mlir.train.compile(d, loss_op="softmax_with_cross_entropy", **options)


@pytest.mark.parametrize("options, message", [
    (dict(schedule="step"), "the step schedule needs step-size > 0 and gamma > 0"),
    (dict(schedule="cosine"), "the cosine schedule needs total-steps > 0"),
    (dict(schedule="cosine", total_steps=10, lr=0.1, min_lr=0.5), r"min-lr must be in \[0, lr\], got 0.5"),
])
def test_inconsistent_schedules_are_refused(tmp_path, options, message):
    d, _ = _mlp(tmp_path, 4)
    with pytest.raises(RuntimeError, match=message):
        paddle_mlir.train.compile(d, loss_op="softmax_with_cross_entropy", **options)
