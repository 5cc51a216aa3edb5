"""Attribute quirks of real Paddle programs, each reduced to a minimal program
written with the builder (issue 23): they import, compile and match the NumPy
reference."""
import os

import numpy as np

import paddle_mlir
from paddle_mlir import ir, reference
from paddle_mlir.builder import ProgramBuilder


def test_global_pooling_ignores_negative_ksize(tmp_path):
    # Fluid 1.x programs write ksize=[-1, -1] under global_pooling=True;
    # Paddle ignores ksize then, and so must the importer.
    rng = np.random.RandomState(0)
    b = ProgramBuilder()
    x = b.feed("image", [-1, 3, 6, 5])
    y = b.conv2d(x, b.param("w", rng.standard_normal((4, 3, 3, 3)).astype(np.float32)), padding=1)
    for kind in ("avg", "max"):
        b.fetch(b.pool2d(y, kind, [-1, -1], global_pooling=True))
    b.save_fluid(str(tmp_path / "m"))
    model = paddle_mlir.compile(str(tmp_path / "m"))
    img = rng.rand(2, 3, 6, 5).astype(np.float32)
    want = list(reference.load(str(tmp_path / "m")).run({"image": img}).values())
    got = model(img)
    assert len(got) == 2
    for g, w in zip(got, want):
        assert g.shape == (2, 4, 1, 1)
        np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-5)


def test_negative_ksize_without_global_pooling_is_an_error(tmp_path):
    b = ProgramBuilder()
    x = b.feed("image", [1, 3, 4, 4])
    b.fetch(b.pool2d(x, "max", [-1, -1]))
    b.save_fluid(str(tmp_path / "m"))
    try:
        ir.import_paddle(str(tmp_path / "m"))
    except Exception as e:  # the verifier names the op and the attribute
        assert "pool2d" in str(e) and "ksize" in str(e)
    else:
        raise AssertionError("a negative ksize outside global pooling was accepted")
