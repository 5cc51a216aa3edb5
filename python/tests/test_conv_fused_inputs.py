"""conv2d as Paddle's oneDNN kernel takes it (issue 34, item 4): an optional
Bias input, a ResidualData input with fuse_residual_connection, and a fused
relu (fuse_activation or the older fuse_relu), as quantization tools and
programs saved after oneDNN fusion write them. Checked against NumPy; other
fused activations are refused by name."""
import subprocess

import numpy as np
import pytest

import paddle_mlir
from paddle_mlir.builder import ProgramBuilder
from test_int8 import conv, tool


def program(tmp_path, attrs, bias=True, residual=True, depthwise=False):
    rng = np.random.RandomState(2)
    c = 4 if depthwise else 3
    w = rng.standard_normal((4, 1 if depthwise else 3, 3, 3)).astype(np.float32)
    bv = rng.standard_normal(4).astype(np.float32)
    r = rng.standard_normal((2, 4, 6, 6)).astype(np.float32)
    b = ProgramBuilder()
    x = b.feed("x", [-1, c, 6, 6])
    res = b.feed("res", [-1, 4, 6, 6]) if residual else None
    y = b.tmp("conv", [-1, 4, 6, 6])
    ins = {"Input": [x], "Filter": [b.param("w", w)]}
    if bias:
        ins["Bias"] = [b.param("b", bv)]
    if residual:
        ins["ResidualData"] = [res]
    base = {"strides": [1, 1], "paddings": [1, 1], "dilations": [1, 1], "groups": 4 if depthwise else 1,
            "padding_algorithm": "EXPLICIT", "data_format": "NCHW"}
    base.update(attrs)
    b.op("depthwise_conv2d" if depthwise else "conv2d", ins, {"Output": [y]}, base)
    b.fetch(y)
    path = b.save(str(tmp_path / "m"))
    xv = rng.standard_normal((2, c, 6, 6)).astype(np.float32)
    return path, xv, w, bv, r


@pytest.mark.parametrize("attrs,bias,residual,relu,depthwise", [
    ({}, True, False, False, False),
    ({"fuse_activation": "relu"}, True, False, True, False),
    ({"fuse_residual_connection": True, "fuse_activation": "relu"}, True, True, True, False),
    ({"fuse_relu": True}, False, False, True, True),
    # ResidualData without fuse_residual_connection: Paddle's kernel does
    # not read it.
    ({}, False, True, False, False),
])
def test_conv_with_onednn_inputs(tmp_path, attrs, bias, residual, relu, depthwise):
    path, x, w, bv, r = program(tmp_path, attrs, bias, residual, depthwise)
    want = conv(x.astype(np.float64), w, pad=1, groups=4 if depthwise else 1)
    if bias:
        want = want + bv.reshape(1, 4, 1, 1)
    if residual and attrs.get("fuse_residual_connection"):
        want = want + r
    if relu:
        want = np.maximum(want, 0)
    m = paddle_mlir.compile(path)
    got = m(x, r)[0] if residual else m(x)[0]
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4)


def test_other_fused_activation_is_refused(tmp_path):
    path, *_ = program(tmp_path, {"fuse_activation": "swish"}, residual=False)
    p = subprocess.run([tool("paddle-compile"), path, "-o", str(tmp_path / "art")],
                       capture_output=True, text=True)
    assert p.returncode == 1, p.stderr
    assert "conv2d' #" in p.stderr and "'swish'" in p.stderr and "not supported yet" in p.stderr
    assert len(p.stderr.strip().splitlines()) == 1, p.stderr


def test_reference_evaluator_agrees(tmp_path):
    from paddle_mlir import reference
    path, x, w, bv, r = program(tmp_path, {"fuse_residual_connection": True, "fuse_activation": "relu"})
    got = paddle_mlir.compile(path)(x, r)[0]
    want = list(reference.load(path).run({"x": x, "res": r}).values())[0]
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4)
