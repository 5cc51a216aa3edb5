"""Fluid 1.x ops whose 2.x successors pd has (issue 34, item 4): reshape,
transpose, squeeze, unsqueeze, flatten (the *2 ops without XShape), crop and
crop_tensor with attribute offsets, one_hot. Each program is checked against
NumPy written here and against the reference evaluator; what is not
supported is refused by name."""
import subprocess

import numpy as np
import pytest

import paddle_mlir
from paddle_mlir import reference
from paddle_mlir.builder import ProgramBuilder
from test_int8 import tool

X = np.arange(2 * 3 * 4 * 5, dtype=np.float32).reshape(2, 3, 4, 5) / 7.0


def one_op(tmp_path, type, attrs, out_shape, x_shape=(2, 3, 4, 5), dtype="float32", extra=None):
    b = ProgramBuilder()
    x = b.feed("x", [-1] + list(x_shape[1:]), dtype)
    y = b.tmp(type, out_shape, "float32" if type == "one_hot" else dtype)
    ins = {"X": [x]}
    ins.update(extra(b) if extra else {})
    b.op(type, ins, {"Out": [y]}, attrs)
    b.fetch(y)
    return b.save(str(tmp_path / type))


CASES = [
    ("reshape", {"shape": [0, 12, -1]}, [-1, 12, 5], lambda x: x.reshape(2, 12, 5)),
    ("transpose", {"axis": [0, 3, 1, 2]}, [-1, 5, 3, 4], lambda x: x.transpose(0, 3, 1, 2)),
    ("flatten", {"axis": 2}, [-1, 20], lambda x: x.reshape(6, 20)),
    ("unsqueeze", {"axes": [1, 4]}, [-1, 1, 3, 4, 1, 5], lambda x: x[:, None, :, :, None]),
    ("crop", {"offsets": [0, 1, 1, 2], "shape": [2, 2, 3, 3]}, [2, 2, 3, 3],
     lambda x: x[:, 1:3, 1:4, 2:5]),
    ("crop_tensor", {"offsets": [0, 0, 2, 1], "shape": [-1, 3, 2, -1]}, [-1, 3, 2, 4],
     lambda x: x[:, :, 2:4, 1:]),
]


@pytest.mark.parametrize("type,attrs,out_shape,numpy", CASES, ids=[c[0] for c in CASES])
def test_legacy_op(tmp_path, type, attrs, out_shape, numpy):
    path = one_op(tmp_path, type, attrs, out_shape)
    got = paddle_mlir.compile(path)(X)[0]
    np.testing.assert_array_equal(got, numpy(X))
    np.testing.assert_array_equal(list(reference.load(path).run({"x": X}).values())[0], numpy(X))


def test_squeeze(tmp_path):
    x = X[:, :1].copy()
    path = one_op(tmp_path, "squeeze", {"axes": [1]}, [-1, 4, 5], x_shape=(2, 1, 4, 5))
    np.testing.assert_array_equal(paddle_mlir.compile(path)(x)[0], x[:, 0])


def test_crop_to_y(tmp_path):
    path = one_op(tmp_path, "crop", {"offsets": [0, 1, 0, 1]}, [2, 2, 4, 3],
                  extra=lambda b: {"Y": [b.param("like", np.zeros((2, 2, 4, 3), np.float32))]})
    np.testing.assert_array_equal(paddle_mlir.compile(path)(X)[0], X[:, 1:3, :, 1:4])


def test_one_hot(tmp_path):
    idx = np.array([[3], [0], [4], [1]], np.int64)
    path = one_op(tmp_path, "one_hot", {"depth": 5}, [-1, 5], x_shape=(4, 1), dtype="int64")
    want = np.eye(5, dtype=np.float32)[idx[:, 0]]
    np.testing.assert_array_equal(paddle_mlir.compile(path)(idx)[0], want)
    np.testing.assert_array_equal(list(reference.load(path).run({"x": idx}).values())[0], want)


@pytest.mark.parametrize("type,attrs,extra,message", [
    ("crop", {"shape": [2, 2, 2, 2]},
     lambda b: {"Offsets": [b.param("off", np.zeros(4, np.int32))]}, "the Offsets input"),
    ("crop", {"offsets": [0, 0, 3, 0], "shape": [2, 3, 2, 5]}, None, "dim 2 of X has 4 values"),
    ("crop", {}, None, "needs a shape attribute"),
])
def test_crop_refusals(tmp_path, type, attrs, extra, message):
    path = one_op(tmp_path, type, attrs, [2, 2, 2, 2], extra=extra)
    p = subprocess.run([tool("paddle-compile"), path, "-o", str(tmp_path / "art")],
                       capture_output=True, text=True)
    assert p.returncode == 1 and message in p.stderr and "crop' #" in p.stderr, p.stderr
    assert len(p.stderr.strip().splitlines()) == 1, p.stderr


def test_one_hot_needs_last_dim_one(tmp_path):
    path = one_op(tmp_path, "one_hot", {"depth": 5}, [-1, 5], x_shape=(4, 2), dtype="int64")
    p = subprocess.run([tool("paddle-compile"), path, "-o", str(tmp_path / "art")],
                       capture_output=True, text=True)
    assert p.returncode == 1 and "one_hot' #" in p.stderr and "last dim must be 1" in p.stderr, p.stderr
    assert len(p.stderr.strip().splitlines()) == 1, p.stderr
