"""Dropout in compiled train steps (docs/Training.md, issue 32 step b): the
mask is a counter-based hash of (seed, step, element index), checked bit for
bit against a NumPy implementation of the documented hash; the gradient
uses the same mask; masks do not depend on the thread count, change with the
step, differ between layers, and stay fixed with fix_seed."""

import numpy as np
import pytest

import paddle_mlir.train
from paddle_mlir.builder import ProgramBuilder

M64 = (1 << 64) - 1


def _mask(seed, step, n, p):
    """splitmix64(seed * 0xD1B54A32D192ED03 + step * 0x9E3779B97F4A7C15 + i),
    its top 24 bits as u in [0, 1); kept when u >= p."""
    i = np.arange(n, dtype=np.uint64)
    with np.errstate(over="ignore"):
        z = np.uint64((seed * 0xD1B54A32D192ED03 + step * 0x9E3779B97F4A7C15) & M64) + i
        z = z + np.uint64(0x9E3779B97F4A7C15)
        z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        z = z ^ (z >> np.uint64(31))
    u = (z >> np.uint64(40)).astype(np.float32) * np.float32(1.0 / (1 << 24))
    return u >= np.float32(p)


SHAPE = (48, 40)


def _program(tmp_path, layers=1, **dropout):
    """loss = mean(sum_k dropout_k(w) * r), so d loss / d w is r / n times
    the masks (and scales) of the layers."""
    g = np.random.default_rng(2)
    b = ProgramBuilder()
    w = b.param("w", g.uniform(0.5, 1.5, SHAPE).astype(np.float32))
    r = b.feed("r", list(SHAPE))
    total = None
    for _ in range(layers):
        d = b.elementwise("elementwise_mul", b.dropout(w, is_test=False, **dropout), r)
        total = d if total is None else b.elementwise("elementwise_add", total, d)
    b.fetch(b._simple("mean", total, shape=[1]))
    return b.save(str(tmp_path / "m")), b


def _trainer(d, threads=None):
    return paddle_mlir.train.compile(d, loss="mean_0.tmp_0", keep_gradients=True, lr=1e-30,
                                     output_dir=None, threads=threads)


R = np.random.default_rng(3).uniform(1.0, 2.0, SHAPE).astype(np.float32)
N = R.size


@pytest.mark.parametrize("impl, p", [("upscale_in_train", 0.3), ("downgrade_in_infer", 0.5)])
def test_mask_matches_the_documented_hash(tmp_path, impl, p):
    d, _ = _program(tmp_path, p=p, implementation=impl)
    trainer = _trainer(d)
    scale = 1 / (1 - p) if impl == "upscale_in_train" else 1.0
    w = trainer.parameters()["w"]
    for step in range(3):
        loss = trainer.step(R)
        mask = _mask(1, step, N, p).reshape(SHAPE)
        expected = R / N * mask * np.float32(scale)
        np.testing.assert_allclose(trainer.last_gradients["w"], expected, rtol=1e-6, atol=0)
        np.testing.assert_allclose(loss, float((w * mask * scale * R).mean()), rtol=1e-5)
        assert abs(1 - mask.mean() - p) < 0.03
    assert trainer.optimizer_state_values()["@DROPOUT_STEP@"][0] == 3


def test_masks_do_not_depend_on_threads(tmp_path):
    d, _ = _program(tmp_path, p=0.4)
    one, two = _trainer(d, threads=1), _trainer(d, threads=2)
    for _ in range(2):
        one.step(R)
        two.step(R)
        np.testing.assert_array_equal(one.last_gradients["w"], two.last_gradients["w"])


def test_layers_get_their_own_masks_and_fix_seed_repeats(tmp_path):
    d, _ = _program(tmp_path, layers=2, p=0.5)
    trainer = _trainer(d)
    trainer.step(R)
    both = (_mask(1, 0, N, 0.5).astype(np.float32) + _mask(2, 0, N, 0.5)) * 2
    np.testing.assert_allclose(trainer.last_gradients["w"], (R / N * both.reshape(SHAPE)), rtol=1e-6)
    assert not np.array_equal(_mask(1, 0, N, 0.5), _mask(2, 0, N, 0.5))

    d, _ = _program(tmp_path / "fixed", p=0.5, fix_seed=True, seed=7)
    trainer = _trainer(d)
    trainer.step(R)
    first = trainer.last_gradients["w"].copy()
    trainer.step(R)
    np.testing.assert_array_equal(trainer.last_gradients["w"], first)
    np.testing.assert_allclose(first, R / N * _mask(7, 0, N, 0.5).reshape(SHAPE) * 2, rtol=1e-6)


def test_inference_dropout_trains_as_a_constant_scale(tmp_path):
    g = np.random.default_rng(2)
    b = ProgramBuilder()
    w = b.param("w", g.uniform(0.5, 1.5, SHAPE).astype(np.float32))
    r = b.feed("r", list(SHAPE))
    out = b.dropout(w, p=0.25, is_test=True, implementation="downgrade_in_infer")
    b.fetch(b._simple("mean", b.elementwise("elementwise_mul", out, r), shape=[1]))
    trainer = _trainer(b.save(str(tmp_path / "m")))
    trainer.step(R)
    np.testing.assert_allclose(trainer.last_gradients["w"], R / N * 0.75, rtol=1e-6)
