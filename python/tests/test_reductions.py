"""Reductions and products of issue 34's Paddle2ONNX list (reduce_all,
reduce_any, logsumexp, p_norm, mv, bmm, dot, dist, norm, size and Fluid's
one-element isinf / isnan / isfinite): builder programs with dynamic
dims, compiled, against NumPy written here, the reference evaluator and the
exporter's round trip."""
import os
import subprocess

import numpy as np
import pytest

import paddle_mlir
from paddle_mlir import reference
from paddle_mlir.builder import ProgramBuilder

BUILD = os.environ.get("PADDLE_MLIR_BUILD_DIR",
                       os.path.join(os.path.dirname(__file__), "..", "..", "build"))


def tool(name):
    return os.path.join(BUILD, "bin", name)


def round_trips(model, tmp_path):
    """Export of the imported program re-imports to the same IR."""
    first = subprocess.run([tool("paddle-translate"), "--import-paddle", model], check=True,
                           capture_output=True, text=True).stdout
    subprocess.run([tool("paddle-translate"), "--import-paddle", model, "-o", str(tmp_path / "a.mlir")],
                   check=True)
    subprocess.run([tool("paddle-translate"), "--export-paddle", str(tmp_path / "a.mlir"), "-o",
                    str(tmp_path / "e")], check=True)
    assert subprocess.run([tool("paddle-translate"), "--import-paddle", str(tmp_path / "e")], check=True,
                          capture_output=True, text=True).stdout == first


def check(tmp_path, b, inputs, want, rtol=1e-5):
    """Compiled and reference outputs against `want` (a list: one per fetch)."""
    model = str(tmp_path / "m")
    b.save(model)
    round_trips(model, tmp_path)
    wants = want if isinstance(want, list) else [want]
    got = paddle_mlir.compile(model)(*inputs)
    feeds = reference.load(model)
    ref = list(feeds.run(dict(zip(feeds.input_names, inputs))).values())
    assert len(got) == len(ref) == len(wants)
    for g, r, w in zip(got, ref, wants):
        for y in (g, r):
            assert y.shape == np.shape(w) and y.dtype == np.asarray(w).dtype
            np.testing.assert_allclose(y, w, rtol=rtol, atol=1e-6)


@pytest.mark.parametrize("op,dim,keep,all_", [
    ("reduce_all", [1], False, False), ("reduce_all", [0, 2], True, False),
    ("reduce_any", [-1], False, False), ("reduce_any", [0], False, True)])
def test_bool_reductions(tmp_path, op, dim, keep, all_):
    x = np.zeros((3, 4, 2), bool)
    x[0] = True                 # a slice all true
    x[1, 2, 1] = True           # one true element
    b = ProgramBuilder()
    xv = b.feed("x", [-1, 4, 2], "bool")
    fn = np.all if op == "reduce_all" else np.any
    want = fn(x, axis=tuple(range(3)) if all_ else tuple(d % 3 for d in dim), keepdims=keep)
    want = np.asarray(want).reshape(1) if np.ndim(want) == 0 else want
    shape = [-1 if s == 3 else s for s in want.shape] if not all_ else [1]
    b.fetch(b._simple(op, xv, {"dim": dim, "keep_dim": keep, "reduce_all": all_}, shape=shape))
    check(tmp_path, b, [x], want)


@pytest.mark.parametrize("axis,keep", [([1], False), ([0, 2], True), ([-1], False)])
def test_logsumexp(tmp_path, axis, keep):
    rng = np.random.default_rng(0)
    x = (rng.standard_normal((3, 5, 4)) * 30).astype(np.float32)   # exp overflows without the max
    x[1, :, 0] = -np.inf                                            # an all -inf slice along 1
    b = ProgramBuilder()
    xv = b.feed("x", [-1, 5, 4])
    x64 = x.astype(np.float64)
    ax = tuple(d % 3 for d in axis)
    with np.errstate(divide="ignore"):
        want = np.log(np.sum(np.exp(x64), axis=ax, keepdims=keep))
    big = np.isinf(want) & (want > 0)           # float64 overflow: fall back to a scaled sum
    if big.any():
        m = np.max(x64, axis=ax, keepdims=True)
        scaled = np.log(np.sum(np.exp(x64 - m), axis=ax, keepdims=True)) + m
        want = np.where(big, scaled if keep else np.squeeze(scaled, ax), want)
    want = want.astype(np.float32)
    shape = [-1 if i == 0 and 0 not in ax else s for i, s in enumerate(want.shape)]
    b.fetch(b._simple("logsumexp", xv, {"axis": axis, "keepdim": keep, "reduce_all": False},
                      shape=shape))
    check(tmp_path, b, [x], want)


@pytest.mark.parametrize("p,axis,asvector,keep", [
    (2.0, 1, False, False), (1.0, 0, False, True), (3.0, -1, False, False),
    (float("inf"), 1, False, False), (float("-inf"), 1, False, False), (0.0, 1, False, False),
    (2.0, 0, True, False)])
def test_p_norm(tmp_path, p, axis, asvector, keep):
    rng = np.random.default_rng(1)
    x = rng.standard_normal((4, 6)).astype(np.float32)
    x[2, 1] = x[0, 3] = 0.0
    b = ProgramBuilder()
    xv = b.feed("x", [-1, 6])
    a = np.abs(x.astype(np.float64))
    ax = (0, 1) if asvector else (axis % 2,)
    if np.isinf(p):
        want = (a.max if p > 0 else a.min)(axis=ax, keepdims=keep)
    elif p == 0:
        want = (x != 0).sum(axis=ax, keepdims=keep).astype(np.float64)
    else:
        want = (a ** p).sum(axis=ax, keepdims=keep) ** (1 / p)
    want = np.asarray(want, np.float32)
    want = want.reshape(1) if want.ndim == 0 else want
    shape = [1] if asvector else [-1 if (i == 0 and ax != (0,)) else s for i, s in enumerate(want.shape)]
    b.fetch(b._simple("p_norm", xv, {"porder": p, "axis": axis, "asvector": asvector, "keepdim": keep,
                                     "epsilon": 1e-12}, shape=shape))
    check(tmp_path, b, [x], want)


def test_mv_and_bmm(tmp_path):
    rng = np.random.default_rng(2)
    x, v = rng.standard_normal((5, 7)).astype(np.float32), rng.standard_normal(7).astype(np.float32)
    b = ProgramBuilder()
    xv, vv = b.feed("x", [-1, 7]), b.feed("v", [7])
    b.fetch(b.op("mv", {"X": [xv], "Vec": [vv]}, {"Out": [b.tmp("mv", [-1])]}))
    check(tmp_path, b, [x, v], (x.astype(np.float64) @ v).astype(np.float32))

    p, q = rng.standard_normal((3, 4, 6)).astype(np.float32), rng.standard_normal((3, 6, 2)).astype(np.float32)
    b = ProgramBuilder()
    pv, qv = b.feed("p", [-1, 4, 6]), b.feed("q", [-1, 6, 2])
    b.fetch(b.op("bmm", {"X": [pv], "Y": [qv]}, {"Out": [b.tmp("bmm", [-1, 4, 2])]}))
    (tmp_path / "b").mkdir()
    check(tmp_path / "b", b, [p, q], np.matmul(p.astype(np.float64), q).astype(np.float32))


@pytest.mark.parametrize("rank,dtype", [(1, "float32"), (2, "float32"), (2, "int64")])
def test_dot(tmp_path, rank, dtype):
    rng = np.random.default_rng(7)
    shape = (5,) if rank == 1 else (3, 5)
    x, y = [(rng.standard_normal(shape) * 10).astype(dtype) for _ in range(2)]
    want = np.einsum("...i,...i->...", x, y)[..., None].astype(dtype)   # Paddle <= 2.4 keeps the dim
    b = ProgramBuilder()
    dims = [5] if rank == 1 else [-1, 5]
    xv, yv = b.feed("x", dims, dtype), b.feed("y", dims, dtype)
    b.fetch(b.op("dot", {"X": [xv], "Y": [yv]}, {"Out": [b.tmp("dot", dims[:-1] + [1], dtype)]}))
    check(tmp_path, b, [x, y], want)


@pytest.mark.parametrize("p", [2.0, 1.0, 3.5, float("inf"), float("-inf"), 0.0])
def test_dist(tmp_path, p):
    rng = np.random.default_rng(8)
    x = rng.standard_normal((3, 4)).astype(np.float32)
    y = rng.standard_normal((4,)).astype(np.float32)
    x[1] = y                                  # a row of zeros in x - y (p = 0 counts nonzeros)
    d = (x - y).astype(np.float64).ravel()
    if p == 0:
        want = np.count_nonzero(d)
    elif np.isinf(p):
        want = np.abs(d).max() if p > 0 else np.abs(d).min()
    else:
        want = np.sum(np.abs(d) ** p) ** (1 / p)
    b = ProgramBuilder()
    xv, yv = b.feed("x", [-1, 4]), b.feed("y", [4])
    b.fetch(b.op("dist", {"X": [xv], "Y": [yv]}, {"Out": [b.tmp("dist", [1])]}, {"p": p}))
    check(tmp_path, b, [x, y], np.array([want], np.float32))


@pytest.mark.parametrize("axis", [1, -1, 0])
def test_norm(tmp_path, axis):
    rng = np.random.default_rng(9)
    x = rng.standard_normal((3, 4, 5)).astype(np.float32)
    x[0, :, 0] = 0                            # a zero vector: epsilon keeps it finite
    n = np.sqrt(np.sum(x.astype(np.float64) ** 2, axis=axis, keepdims=True) + 1e-6)
    b = ProgramBuilder()
    xv = b.feed("x", [-1, 4, 5])
    nshape = [-1, 4, 5]
    nshape[axis] = 1
    out = b.tmp("norm_out", [-1, 4, 5])
    norm = b.tmp("norm", nshape)
    b.op("norm", {"X": [xv]}, {"Out": [out], "Norm": [norm]}, {"axis": axis, "epsilon": 1e-6})
    b.fetch(out)
    b.fetch(norm)
    check(tmp_path, b, [x], [(x / n).astype(np.float32), n.astype(np.float32)])


def test_size(tmp_path):
    x = np.zeros((3, 4, 5), np.float32)
    b = ProgramBuilder()
    xv = b.feed("x", [-1, 4, -1])
    b.fetch(b.op("size", {"Input": [xv]}, {"Out": [b.tmp("size", [1], "int64")]}))
    check(tmp_path, b, [x], np.array([60], np.int64))
    model = str(tmp_path / "m")
    np.testing.assert_array_equal(paddle_mlir.compile(model)(np.zeros((2, 4, 1), np.float32))[0], [8])


@pytest.mark.parametrize("op", ["isinf", "isnan", "isfinite"])
def test_one_element_tests(tmp_path, op):
    b = ProgramBuilder()
    xv = b.feed("x", [-1, 3])
    b.fetch(b.op(op, {"X": [xv]}, {"Out": [b.tmp(op, [1], "bool")]}))
    cases = [np.ones((2, 3), np.float32), np.array([[1, np.inf, 2]], np.float32),
             np.array([[1, 2, np.nan]], np.float32), np.array([[-np.inf, np.nan, 0]], np.float32)]
    fn = {"isinf": lambda v: np.isinf(v).any(), "isnan": lambda v: np.isnan(v).any(),
          "isfinite": lambda v: np.isfinite(v).all()}[op]
    check(tmp_path, b, [cases[0]], np.array([fn(cases[0])]))
    model = paddle_mlir.compile(str(tmp_path / "m"))
    for v in cases[1:]:
        np.testing.assert_array_equal(model(v)[0], [fn(v)])
