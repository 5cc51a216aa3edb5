"""The unary math and activation ops of issue 34's Paddle2ONNX list (log2,
log10, log1p, logsigmoid, hard_shrink, softshrink, tanh_shrink, brelu,
hardtanh, round, isfinite_v2): each in a builder program, compiled, against
NumPy expressions written here from Paddle's definitions, the reference
evaluator, and the exporter's round trip."""
import numpy as np
import pytest

import paddle_mlir
from paddle_mlir import reference
from paddle_mlir.builder import ProgramBuilder
from test_reductions import round_trips

# Halves, values on and next to every threshold below, signed zeros, large
# magnitudes (logsigmoid must not overflow), and the specials.
X = np.array([-100.0, -7.5, -2.5, -1.5, -1.0, -0.75, -0.5, -0.49, -0.25, -0.0, 0.0, 0.25, 0.49,
              0.5, 0.51, 0.75, 1.0, 1.5, 2.5, 3.5, 6.0, 7.25, 24.0, 30.0, 100.0], np.float32)
POSITIVE = np.array([1e-30, 1e-6, 0.1, 0.5, 1.0, 2.0, 3.0, 10.0, 1000.0, 1e30], np.float32)

CASES = {
    # name: (attrs, input, expected, rtol)
    "log2": ({}, POSITIVE, lambda x: np.log2(x.astype(np.float64)), 1e-6),
    "log10": ({}, POSITIVE, lambda x: np.log10(x.astype(np.float64)), 1e-6),
    "log1p": ({}, np.concatenate([POSITIVE, [-0.5, -1e-7, 0.0]]).astype(np.float32),
              lambda x: np.log1p(x.astype(np.float64)), 1e-6),
    "logsigmoid": ({}, X, lambda x: -np.log1p(np.exp(-x.astype(np.float64))), 1e-5),
    "hard_shrink": ({"threshold": 0.5}, X, lambda x: np.where((x > 0.5) | (x < -0.5), x, 0), 0),
    "softshrink": ({"lambda": 0.5}, X,
                   lambda x: np.where(x > 0.5, x - 0.5, np.where(x < -0.5, x + 0.5, 0)), 0),
    "tanh_shrink": ({}, X, lambda x: x.astype(np.float64) - np.tanh(x.astype(np.float64)), 1e-5),
    "brelu": ({"t_min": 1.0, "t_max": 6.0}, X, lambda x: np.minimum(np.maximum(x, 1.0), 6.0), 0),
    "hardtanh": ({"t_min": -1.0, "t_max": 1.0}, X, lambda x: np.minimum(np.maximum(x, -1.0), 1.0), 0),
    "round": ({}, X, lambda x: np.trunc(x + np.copysign(0.5, x)), 0),
}


def build(tmp_path, name, attrs, shape, out_dtype="float32"):
    b = ProgramBuilder()
    x = b.feed("x", shape)
    b.fetch(b._simple(name, x, attrs, dtype=out_dtype))
    model = str(tmp_path / "m")
    b.save(model)
    return model


@pytest.mark.parametrize("name", sorted(CASES))
def test_unary(tmp_path, name):
    attrs, x, want, rtol = CASES[name]
    model = build(tmp_path, name, attrs, [-1])
    round_trips(model, tmp_path)
    expect = np.asarray(want(x), np.float64)
    got = paddle_mlir.compile(model)(x)[0]
    assert got.dtype == np.float32 and got.shape == x.shape
    np.testing.assert_allclose(got, expect, rtol=rtol, atol=1e-6 if rtol else 0)
    feeds = reference.load(model)
    ref = list(feeds.run({"x": x}).values())[0]
    np.testing.assert_allclose(ref, expect, rtol=max(rtol, 1e-6), atol=1e-6)


def test_isfinite_v2(tmp_path):
    x = np.array([[0.0, -1.5, np.inf], [-np.inf, np.nan, 3e38]], np.float32)
    model = build(tmp_path, "isfinite_v2", {}, [-1, 3], out_dtype="bool")
    round_trips(model, tmp_path)
    got = paddle_mlir.compile(model)(x)[0]
    want = np.array([[True, True, False], [False, False, True]])
    np.testing.assert_array_equal(got, want)
    feeds = reference.load(model)
    np.testing.assert_array_equal(list(feeds.run({"x": x}).values())[0], want)
