"""where_index and masked_select, whose result size depends on the data:
compiled with dynamic shapes and checked against NumPy (np.argwhere and
boolean indexing) for several shapes from one artifact, conditions of
several dtypes, and no true element at all."""
import numpy as np

import paddle_mlir
from paddle_mlir import reference
from paddle_mlir.builder import ProgramBuilder


def test_where_index(tmp_path):
    rng = np.random.RandomState(0)
    for dtype in ("bool", "float32", "int32"):
        b = ProgramBuilder()
        c = b.feed("cond", [-1, 3, -1], dtype)
        out = b.op("where_index", {"Condition": [c]}, {"Out": [b.tmp("where_index", [-1, 3], "int64")]})
        b.fetch(out)
        b.save(str(tmp_path / dtype))
        model = paddle_mlir.compile(str(tmp_path / dtype))
        assert model.outputs[0].data_dependent
        ref = reference.load(str(tmp_path / dtype))
        for shape in ((2, 3, 5), (1, 3, 1), (4, 3, 7)):
            cond = (rng.rand(*shape) > 0.6).astype(dtype)
            if dtype == "float32":
                cond = cond * rng.uniform(-2, 2, size=shape).astype(np.float32)
            (got,) = model(cond)
            np.testing.assert_array_equal(got, np.argwhere(cond))
            np.testing.assert_array_equal(got, list(ref.run({"cond": cond}).values())[0])
        (got,) = model(np.zeros((3, 3, 2), dtype))
        assert got.shape == (0, 3) and got.dtype == np.int64


def test_masked_select(tmp_path):
    rng = np.random.RandomState(1)
    b = ProgramBuilder()
    x = b.feed("x", [-1, 4])
    m = b.feed("mask", [-1, 4], "bool")
    y = b.op("masked_select", {"X": [x], "Mask": [m]}, {"Y": [b.tmp("masked_select", [-1])]})
    b.fetch(y)
    b.save(str(tmp_path / "ms"))
    model = paddle_mlir.compile(str(tmp_path / "ms"))
    ref = reference.load(str(tmp_path / "ms"))
    for n in (1, 5, 3):
        xv = rng.standard_normal((n, 4)).astype(np.float32)
        mv = rng.rand(n, 4) > 0.5
        (got,) = model(xv, mv)
        np.testing.assert_array_equal(got, xv[mv])
        np.testing.assert_array_equal(got, list(ref.run({"x": xv, "mask": mv}).values())[0])
    (got,) = model(np.ones((2, 4), np.float32), np.zeros((2, 4), bool))
    assert got.shape == (0,)
