"""End-to-end coverage of index_select, argsort, less_equal/greater_equal, the
bitwise ops, set_value and index_put (issue 34): tiny programs written with the
builder, compiled for the CPU and checked against NumPy."""
import numpy as np
import pytest

import paddle_mlir
from paddle_mlir.builder import Longs, ProgramBuilder


def run(tmp_path, b, *inputs):
    b.save(str(tmp_path / "m"))
    before = [np.copy(a) for a in inputs]
    out = paddle_mlir.compile(str(tmp_path / "m"))(*inputs)
    # A model never writes into its inputs (index_put's and scatter_nd_add's
    # loops update a copy).
    for a, c in zip(inputs, before):
        np.testing.assert_array_equal(a, c)
    return out


def stable_order(line, descending):
    """The positions of a 1-D line in sorted order, equal values in index order."""
    return np.array(sorted(range(len(line)), key=lambda i: (-line[i] if descending else line[i], i)),
                    np.int64)


# ------------------------------------------------------------ index_select
@pytest.mark.parametrize("dim,index_dtype", [(0, "int64"), (1, "int32"), (-1, "int64")])
def test_index_select(tmp_path, dim, index_dtype):
    b = ProgramBuilder()
    x = b.feed("x", [-1, 5])
    i = b.feed("index", [-1], index_dtype)
    shape = [-1, 5]
    shape[dim] = -1
    b.fetch(b.op("index_select", {"X": [x], "Index": [i]}, {"Out": [b.tmp("index_select", shape)]},
                 {"dim": dim}))
    xv = np.arange(20, dtype=np.float32).reshape(4, 5) * 0.5 - 3.0
    iv = np.array([3, 0, 3] if dim == 0 else [4, 1, 1, 0], index_dtype)
    (got,) = run(tmp_path, b, xv, iv)
    want = xv[iv] if dim == 0 else xv[:, iv]
    assert got.shape == want.shape
    np.testing.assert_array_equal(got, want)


# ------------------------------------------------------------------ argsort
@pytest.mark.parametrize("axis,descending", [(-1, False), (-1, True), (0, False), (0, True)])
def test_argsort_float_with_ties(tmp_path, axis, descending):
    b = ProgramBuilder()
    x = b.feed("x", [-1, 6])
    out, idx = b.tmp("argsort", [-1, 6]), b.tmp("argsort_idx", [-1, 6], "int64")
    b.fetch(b.op("argsort", {"X": [x]}, {"Out": [out], "Indices": [idx]},
                 {"axis": axis, "descending": descending})[0])
    b.fetch(idx)
    xv = np.array([[2.5, -1.0, 2.5, 0.0, -1.0, 7.0],
                   [1.0, 1.0, 1.0, 1.0, 1.0, 1.0],
                   [2.5, 3.0, -4.0, 0.0, -1.0, 7.0],
                   [-3.0, 1.0, 2.5, 0.0, 9.0, 7.0]], np.float32)
    got_v, got_i = run(tmp_path, b, xv)
    a = axis % 2
    want_i = np.apply_along_axis(stable_order, a, xv, descending)
    assert got_i.dtype == np.int64
    np.testing.assert_array_equal(got_i, want_i)
    np.testing.assert_array_equal(got_v, np.take_along_axis(xv, want_i, a))


def test_argsort_int64(tmp_path):
    b = ProgramBuilder()
    x = b.feed("x", [2, 5], "int64")
    out, idx = b.tmp("argsort", [2, 5], "int64"), b.tmp("argsort_idx", [2, 5], "int64")
    b.fetch(b.op("argsort", {"X": [x]}, {"Out": [out], "Indices": [idx]},
                 {"axis": 1, "descending": True})[0])
    b.fetch(idx)
    xv = np.array([[5, -2, 5, 1 << 40, -2], [0, 0, -7, 3, 0]], np.int64)
    got_v, got_i = run(tmp_path, b, xv)
    want_i = np.stack([stable_order(r, True) for r in xv])
    np.testing.assert_array_equal(got_i, want_i)
    np.testing.assert_array_equal(got_v, np.take_along_axis(xv, want_i, 1))


# ------------------------------------------------------------ comparisons
@pytest.mark.parametrize("dtype", ["float32", "int32", "uint8"])
def test_less_equal_greater_equal_broadcast(tmp_path, dtype):
    b = ProgramBuilder()
    x = b.feed("x", [-1, 3, 4], dtype)
    y = b.feed("y", [3, 1], dtype)
    for type in ("less_equal", "greater_equal"):
        b.fetch(b.op(type, {"X": [x], "Y": [y]}, {"Out": [b.tmp(type, [-1, 3, 4], "bool")]},
                     {"axis": -1}))
    rng = np.random.RandomState(0)
    # Few distinct values, so many pairs are equal; uint8 takes values
    # above 127 (an unsigned compare).
    lo, hi = (126, 131) if dtype == "uint8" else (-2, 3)
    xv = rng.randint(lo, hi, (2, 3, 4)).astype(dtype)
    yv = rng.randint(lo, hi, (3, 1)).astype(dtype)
    le, ge = run(tmp_path, b, xv, yv)
    assert le.dtype == np.bool_ and le.shape == (2, 3, 4)
    np.testing.assert_array_equal(le, xv <= yv)
    np.testing.assert_array_equal(ge, xv >= yv)


def test_less_equal_greater_equal_nan_inf(tmp_path):
    b = ProgramBuilder()
    x = b.feed("x", [4])
    y = b.feed("y", [4])
    for type in ("less_equal", "greater_equal"):
        b.fetch(b.op(type, {"X": [x], "Y": [y]}, {"Out": [b.tmp(type, [4], "bool")]}, {"axis": -1}))
    xv = np.array([np.nan, 1.0, np.inf, -0.0], np.float32)
    yv = np.array([1.0, np.nan, np.inf, 0.0], np.float32)
    le, ge = run(tmp_path, b, xv, yv)
    np.testing.assert_array_equal(le, [False, False, True, True])
    np.testing.assert_array_equal(ge, [False, False, True, True])


# ---------------------------------------------------------------- bitwise
@pytest.mark.parametrize("dtype", ["int32", "int64", "bool", "uint8"])
def test_bitwise(tmp_path, dtype):
    b = ProgramBuilder()
    x = b.feed("x", [-1, 4], dtype)
    y = b.feed("y", [4], dtype)
    for type in ("bitwise_and", "bitwise_or", "bitwise_xor"):
        b.fetch(b.op(type, {"X": [x], "Y": [y]}, {"Out": [b.tmp(type, [-1, 4], dtype)]}))
    b.fetch(b.op("bitwise_not", {"X": [x]}, {"Out": [b.tmp("bitwise_not", [-1, 4], dtype)]}))
    if dtype == "int32":
        xv = np.array([[0, -1, 0x0F0F, -123456], [7, 2**31 - 1, -2**31, 6]], np.int32)
        yv = np.array([0x00FF, 5, -1, 3], np.int32)
    elif dtype == "int64":
        xv = np.array([[0, -1, 1 << 40, -(1 << 62)], [7, 2**63 - 1, -2**63, 6]], np.int64)
        yv = np.array([(1 << 41) - 1, 5, -1, 1 << 62], np.int64)
    elif dtype == "uint8":
        xv = np.array([[0, 255, 0x0F, 0xA5], [7, 128, 1, 0x5A]], np.uint8)
        yv = np.array([0xFF, 0x0F, 0x80, 3], np.uint8)
    else:
        xv = np.array([[True, True, False, False], [False, True, True, False]])
        yv = np.array([True, False, True, False])
    got = run(tmp_path, b, xv, yv)
    want = [xv & yv, xv | yv, xv ^ yv, ~xv]
    for g, w in zip(got, want):
        assert g.dtype == w.dtype
        np.testing.assert_array_equal(g, w)


# -------------------------------------------------------------- set_value
def set_value(b, x, axes, starts, ends, steps, value=None, decrease_axes=(), **attrs):
    ins = {"Input": [x]}
    if value is not None:
        ins["ValueTensor"] = [value]
    attrs.update(axes=Longs(axes), starts=Longs(starts), ends=Longs(ends), steps=Longs(steps),
                 decrease_axes=Longs(decrease_axes), none_axes=Longs())
    return b.op("set_value", ins, {"Out": [b.tmp("set_value", x.shape, x.dtype)]}, attrs)


def test_set_value_from_value_tensor(tmp_path):
    b = ProgramBuilder()
    x = b.feed("x", [-1, 5])
    v = b.feed("v", [2, 5])
    w = b.feed("w", [2])
    b.fetch(set_value(b, x, [0], [1], [3], [1], v, dtype=5))           # x[1:3] = v
    b.fetch(set_value(b, x, [0, 1], [0, 1], [4, 5], [2, 2], w, dtype=5))  # x[0:4:2, 1:5:2] = w
    xv = np.arange(20, dtype=np.float32).reshape(4, 5)
    vv = -np.arange(10, dtype=np.float32).reshape(2, 5) - 1
    wv = np.array([100.5, 200.25], np.float32)
    got1, got2 = run(tmp_path, b, xv, vv, wv)
    want1, want2 = xv.copy(), xv.copy()
    want1[1:3] = vv
    want2[0:4:2, 1:5:2] = wv
    np.testing.assert_array_equal(got1, want1)
    np.testing.assert_array_equal(got2, want2)


def test_set_value_from_attribute_values(tmp_path):
    # Paddle keeps the values in the list of the input's dtype (int64_values,
    # fp32_values, ...) with their `shape`, broadcast against the slice.
    b = ProgramBuilder()
    xi = b.feed("xi", [-1, 6], "int64")
    xf = b.feed("xf", [-1, 6])
    # xi[:, 1:5:2] = 7
    b.fetch(set_value(b, xi, [1], [1], [5], [2], dtype=3, shape=Longs([1]), int64_values=Longs([7])))
    # xi[-2:] = -(1 << 40), the end past the dim
    b.fetch(set_value(b, xi, [0], [-2], [1 << 30], [1], dtype=3, shape=Longs([1]),
                      int64_values=Longs([-(1 << 40)])))
    # xf[:, 4:0:-2] = [10, 20]
    b.fetch(set_value(b, xf, [1], [4], [0], [-2], dtype=5, shape=Longs([2]), fp32_values=[10.0, 20.0]))
    xiv = np.arange(18, dtype=np.int64).reshape(3, 6)
    xfv = np.arange(18, dtype=np.float32).reshape(3, 6) / 4
    g1, g2, g3 = run(tmp_path, b, xiv, xfv)
    w1, w2, w3 = xiv.copy(), xiv.copy(), xfv.copy()
    w1[:, 1:5:2] = 7
    w2[-2:] = -(1 << 40)
    w3[:, 4:0:-2] = [10.0, 20.0]
    np.testing.assert_array_equal(g1, w1)
    np.testing.assert_array_equal(g2, w2)
    np.testing.assert_array_equal(g3, w3)


def test_set_value_decrease_axes(tmp_path):
    # x[:, 1] = v: the sliced axis is dropped (decrease_axes), so v [4] lines
    # up with x's dim 0, not with the size-1 slice dim.
    b = ProgramBuilder()
    x = b.feed("x", [4, 3])
    v = b.feed("v", [4])
    b.fetch(set_value(b, x, [1], [1], [2], [1], v, decrease_axes=[1], dtype=5))
    xv = np.zeros((4, 3), np.float32)
    vv = np.array([1.0, 2.0, 3.0, 4.0], np.float32)
    (got,) = run(tmp_path, b, xv, vv)
    want = xv.copy()
    want[:, 1] = vv
    np.testing.assert_array_equal(got, want)


def test_set_value_in_place_and_run_time_bounds(tmp_path):
    # Paddle 2.x writes `y[1] = v` in place (Out is Input's variable) and
    # bounds that are tensors into StartsTensorList / EndsTensorList.
    b = ProgramBuilder()
    x = b.feed("x", [3, 5])
    v = b.feed("v", [5])
    s = b.feed("s", [1], "int64")
    e = b.feed("e", [1], "int64")
    y = b.relu(x)
    b.op("set_value", {"Input": [y], "ValueTensor": [v]}, {"Out": [y]},
         {"axes": Longs([0]), "starts": Longs([1]), "ends": Longs([2]), "steps": Longs([1]),
          "decrease_axes": Longs([0]), "none_axes": Longs(), "dtype": 5})
    b.fetch(b.scale(y, 2.0))
    t = b.op("set_value", {"Input": [x], "StartsTensorList": [s], "EndsTensorList": [e]},
             {"Out": [b.tmp("set_value", [3, 5])]},
             {"axes": Longs([1]), "starts": Longs([0]), "ends": Longs([0]), "steps": Longs([1]),
              "decrease_axes": Longs(), "none_axes": Longs(), "dtype": 5, "shape": Longs([1]),
              "fp32_values": [9.0]})
    b.fetch(t)
    xv = np.arange(15, dtype=np.float32).reshape(3, 5) - 7
    vv = np.array([-1.0, 2.0, -3.0, 4.0, -5.0], np.float32)
    sv, ev = np.array([-4], np.int64), np.array([4], np.int64)
    g1, g2 = run(tmp_path, b, xv, vv, sv, ev)
    w1, w2 = np.maximum(xv, 0), xv.copy()
    w1[1] = vv
    w2[:, -4:4] = 9.0
    np.testing.assert_array_equal(g1, 2 * w1)
    np.testing.assert_array_equal(g2, w2)


def test_set_value_bool_and_none_axes(tmp_path):
    b = ProgramBuilder()
    m = b.feed("m", [2, 3], "bool")
    x = b.feed("x", [3, 4])
    v = b.feed("v", [1, 2, 4])
    # m[:, 1:] = True
    b.fetch(b.op("set_value", {"Input": [m]}, {"Out": [b.tmp("set_value", [2, 3], "bool")]},
                 {"axes": Longs([1]), "starts": Longs([1]), "ends": Longs([3]), "steps": Longs([1]),
                  "decrease_axes": Longs(), "none_axes": Longs(), "dtype": 0, "shape": Longs([1]),
                  "bool_values": [1]}))
    # x[None, 1:3] = v: the None adds a size-1 dim in front of the slice
    b.fetch(b.op("set_value", {"Input": [x], "ValueTensor": [v]}, {"Out": [b.tmp("set_value", [3, 4])]},
                 {"axes": Longs([0]), "starts": Longs([1]), "ends": Longs([3]), "steps": Longs([1]),
                  "decrease_axes": Longs(), "none_axes": Longs([0]), "dtype": 5}))
    mv = np.array([[False, False, True], [True, False, False]])
    xv = np.zeros((3, 4), np.float32)
    vv = np.arange(8, dtype=np.float32).reshape(1, 2, 4) + 1
    g1, g2 = run(tmp_path, b, mv, xv, vv)
    w1, w2 = mv.copy(), xv.copy()
    w1[:, 1:] = True
    w2[None, 1:3] = vv
    np.testing.assert_array_equal(g1, w1)
    np.testing.assert_array_equal(g2, w2)


# -------------------------------------------------------------- index_put
def index_put(b, x, indices, value, accumulate):
    return b.op("index_put", {"x": [x], "indices": list(indices), "value": [value]},
                {"out": [b.tmp("index_put", x.shape, x.dtype)]}, {"accumulate": accumulate})


@pytest.mark.parametrize("accumulate", [False, True])
def test_index_put_bool_mask(tmp_path, accumulate):
    b = ProgramBuilder()
    x = b.feed("x", [-1, 4])
    m = b.feed("mask", [-1, 4], "bool")
    rows = b.feed("rows", [-1], "bool")
    v = b.feed("v", [1])
    r = b.feed("r", [4])
    b.fetch(index_put(b, x, [m], v, accumulate))     # x[mask] = v[0]
    b.fetch(index_put(b, x, [rows], r, accumulate))  # x[rows] = r, on every selected row
    rng = np.random.RandomState(1)
    xv = rng.standard_normal((3, 4)).astype(np.float32)
    mv = rng.rand(3, 4) > 0.5
    rowsv = np.array([True, False, True])
    vv = np.array([2.5], np.float32)
    rv = np.array([1.0, -2.0, 3.0, -4.0], np.float32)
    g1, g2 = run(tmp_path, b, xv, mv, rowsv, vv, rv)
    w1, w2 = xv.copy(), xv.copy()
    if accumulate:
        w1[mv] += vv[0]
        w2[rowsv] += rv
    else:
        w1[mv] = vv[0]
        w2[rowsv] = rv
    np.testing.assert_allclose(g1, w1, rtol=1e-6, atol=1e-6)
    np.testing.assert_allclose(g2, w2, rtol=1e-6, atol=1e-6)


def test_index_put_index_tuple(tmp_path):
    b = ProgramBuilder()
    x = b.feed("x", [5, 3])
    i = b.feed("i", [3], "int64")
    j = b.feed("j", [3], "int64")
    c = b.feed("c", [3], "int64")
    u = b.feed("u", [3, 3])
    s = b.feed("s", [3])
    b.fetch(index_put(b, x, [i], u, False))    # x[i] = u
    b.fetch(index_put(b, x, [j], u, True))     # x[j] += u, j repeats a row
    b.fetch(index_put(b, x, [j, c], s, True))  # x[j, c] += s, one element twice
    xv = np.arange(15, dtype=np.float32).reshape(5, 3)
    iv = np.array([4, 0, 2], np.int64)
    jv = np.array([-1, 1, 4], np.int64)  # -1 is row 4 too
    cv = np.array([2, 0, -1], np.int64)
    uv = np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]], np.float32)
    sv = np.array([0.5, 0.25, 0.125], np.float32)
    g1, g2, g3 = run(tmp_path, b, xv, iv, jv, cv, uv, sv)
    w1, w2, w3 = xv.copy(), xv.copy(), xv.copy()
    w1[iv] = uv
    np.add.at(w2, jv, uv)
    np.add.at(w3, (jv, cv), sv)
    np.testing.assert_allclose(g1, w1, rtol=1e-6)
    np.testing.assert_allclose(g2, w2, rtol=1e-6)
    np.testing.assert_allclose(g3, w3, rtol=1e-6)


def test_index_put_int64_accumulate_repeated(tmp_path):
    b = ProgramBuilder()
    x = b.feed("x", [4], "int64")
    i = b.feed("i", [5], "int64")
    v = b.feed("v", [5], "int64")
    b.fetch(index_put(b, x, [i], v, True))
    xv = np.array([10, 20, 30, 40], np.int64)
    iv = np.array([1, 1, 3, -4, 1], np.int64)
    vv = np.array([1, 2, 3, 4, 1 << 35], np.int64)
    (got,) = run(tmp_path, b, xv, iv, vv)
    want = xv.copy()
    np.add.at(want, iv, vv)
    np.testing.assert_array_equal(got, want)


def test_scatter_loops_leave_weights_alone(tmp_path):
    """index_put with index tensors and scatter_nd_add on a weight: every run
    starts from the weight's stored value (their loops update a copy)."""
    b = ProgramBuilder()
    w0 = np.arange(12, dtype=np.float32).reshape(4, 3)
    w = b.param("w", w0)
    i = b.feed("i", [2], "int64")
    u = b.feed("u", [2, 3])
    b.fetch(index_put(b, w, [i], u, True))
    idx = b.feed("idx", [2, 1], "int64")
    b.fetch(b.op("scatter_nd_add", {"X": [w], "Index": [idx], "Updates": [u]},
                 {"Out": [b.tmp("scatter_nd_add", [4, 3])]}))
    b.save(str(tmp_path / "m"))
    model = paddle_mlir.compile(str(tmp_path / "m"))
    iv = np.array([1, 3], np.int64)
    uv = np.ones((2, 3), np.float32)
    want = w0.copy()
    np.add.at(want, iv, uv)
    for _ in range(3):
        g1, g2 = model(iv, uv, iv.reshape(2, 1))
        np.testing.assert_array_equal(g1, want)
        np.testing.assert_array_equal(g2, want)


def test_index_put_with_2d_index_tensors(tmp_path):
    """Index tensors of shape [B, K] (DETR scatters its top-k this way) into a
    dynamic x: x[i[b, k], j[b, k]] = v[b, k] in row-major order of (b, k), a
    value broadcast over the index shape, and accumulation."""
    b = ProgramBuilder()
    x = b.feed("x", [-1, 6], "int64")
    i = b.feed("i", [-1, 3], "int64")
    j = b.feed("j", [-1, 3], "int64")
    v = b.feed("v", [-1, 3], "int64")
    one = b.feed("one", [1], "int64")
    b.fetch(index_put(b, x, [i, j], v, False))
    b.fetch(index_put(b, x, [i, j], one, True))
    xv = np.arange(24, dtype=np.int64).reshape(4, 6)
    iv = np.array([[0, 3, 1], [2, 0, -1]], np.int64)
    jv = np.array([[5, 0, 2], [2, 5, 1]], np.int64)  # (0, 5) twice: the later write wins
    vv = np.array([[-1, -2, -3], [-4, -5, -6]], np.int64)
    g1, g2 = run(tmp_path, b, xv, iv, jv, vv, np.array([10], np.int64))
    w1, w2 = xv.copy(), xv.copy()
    for bb in range(2):
        for k in range(3):
            w1[iv[bb, k], jv[bb, k]] = vv[bb, k]
    np.add.at(w2, (iv, jv), 10)
    np.testing.assert_array_equal(g1, w1)
    np.testing.assert_array_equal(g2, w2)


@pytest.mark.parametrize("dtype", ["int64", "int32", "float32"])
def test_elementwise_floordiv(tmp_path, dtype):
    """floor(x / y), toward negative infinity (Python's //), with Paddle's
    broadcasting of a 0-D divisor."""
    b = ProgramBuilder()
    x = b.feed("x", [-1, 4], dtype)
    y = b.feed("y", [], dtype)
    z = b.feed("z", [-1, 4], dtype)
    b.fetch(b.elementwise("elementwise_floordiv", x, y))
    b.fetch(b.elementwise("elementwise_floordiv", x, z))
    xv = np.array([[7, -7, 0, 12], [-1, 5, -9, 3]], dtype)
    zv = np.array([[2, 2, -3, -5], [3, -3, 4, 1]], dtype)
    g1, g2 = run(tmp_path, b, xv, np.array(3, dtype), zv)
    np.testing.assert_array_equal(g1, np.floor_divide(xv, np.array(3, dtype)))
    np.testing.assert_array_equal(g2, np.floor_divide(xv, zv))
