"""Shape ops of issue 34's Paddle2ONNX list (roll, also with a run-time
ShiftsTensor, pixel_shuffle, Fluid's expand and expand_as, expand_as_v2, meshgrid, pad,
pad2d, scatter): builder programs with dynamic dims, compiled, against
NumPy / PyTorch, the reference evaluator and the exporter's round trip."""
import numpy as np
import pytest

import paddle_mlir
from paddle_mlir.builder import ProgramBuilder
from test_reductions import check


@pytest.mark.parametrize("shifts,axis", [([2], [1]), ([-3], [1]), ([1, 9], [0, -1]), ([5], []), ([0], [0])])
def test_roll(tmp_path, shifts, axis):
    x = np.arange(3 * 7, dtype=np.float32).reshape(3, 7) - 4.5
    b = ProgramBuilder()
    xv = b.feed("x", [-1, 7])
    b.fetch(b._simple("roll", xv, {"shifts": shifts, "axis": axis}))
    # np.roll is the definition Paddle documents (flattened without axes).
    want = np.roll(x, shifts, axis=tuple(axis) if axis else None)
    check(tmp_path, b, [x], want)


@pytest.mark.parametrize("shifts,axis", [([2, -1], [1, 0]), ([-9], []), ([0, 3], [0, 1])])
def test_roll_with_shifts_tensor(tmp_path, shifts, axis):
    """Shifts read at run time from a ShiftsTensor: one artifact, any shifts."""
    x = np.arange(3 * 7, dtype=np.float32).reshape(3, 7) - 4.5
    b = ProgramBuilder()
    xv = b.feed("x", [-1, 7])
    sv = b.feed("s", [len(shifts)], "int64")
    b.fetch(b.op("roll", {"X": [xv], "ShiftsTensor": [sv]}, {"Out": [b.tmp("roll", [-1, 7])]},
                 {"axis": axis}))
    want = np.roll(x, shifts, axis=tuple(axis) if axis else None)
    check(tmp_path, b, [x, np.array(shifts, np.int64)], want)
    model = paddle_mlir.compile(str(tmp_path / "m"))
    other = [s + 5 for s in shifts]
    np.testing.assert_array_equal(model(x, np.array(other, np.int64))[0],
                                  np.roll(x, other, axis=tuple(axis) if axis else None))


@pytest.mark.parametrize("factor,layout", [(2, "NCHW"), (3, "NCHW"), (2, "NHWC")])
def test_pixel_shuffle(tmp_path, factor, layout):
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(3)
    x = rng.standard_normal((2, 2 * factor * factor, 3, 5)).astype(np.float32)
    want = torch.nn.functional.pixel_shuffle(torch.from_numpy(x), factor).numpy()
    if layout == "NHWC":
        x, want = x.transpose(0, 2, 3, 1).copy(), want.transpose(0, 2, 3, 1).copy()
        shape = [-1, 3 * factor, 5 * factor, 2]
    else:
        shape = [-1, 2, 3 * factor, 5 * factor]
    b = ProgramBuilder()
    xv = b.feed("x", [-1] + list(x.shape[1:]))
    b.fetch(b._simple("pixel_shuffle", xv, {"upscale_factor": factor, "data_format": layout}, shape=shape))
    check(tmp_path, b, [x], want)


@pytest.mark.parametrize("runtime", [False, True])
def test_expand_v1(tmp_path, runtime):
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    b = ProgramBuilder()
    xv = b.feed("x", [-1, 3])
    ins, inputs = {"X": [xv]}, [x]
    if runtime:
        ins["ExpandTimes"] = [b.feed("t", [2], "int32")]
        inputs.append(np.array([3, 2], np.int32))
    b.fetch(b.op("expand", ins, {"Out": [b.tmp("e", [-1, -1 if runtime else 6])]},
                 {"expand_times": [] if runtime else [3, 2]}))
    check(tmp_path, b, inputs, np.tile(x, (3, 2)))


@pytest.mark.parametrize("dynamic", [False, True])
def test_expand_as_v1(tmp_path, dynamic):
    """Fluid's expand_as tiles X (not a broadcast: dims above 1 repeat) up
    to target_tensor's shape, read at run time when dynamic."""
    x = np.arange(6, dtype=np.float32).reshape(2, 3) - 2.5
    t = np.zeros((6, 6), np.float32)
    b = ProgramBuilder()
    xv = b.feed("x", [-1, 3] if dynamic else [2, 3])
    tv = b.feed("t", [-1, -1] if dynamic else [6, 6])
    b.fetch(b.op("expand_as", {"X": [xv], "target_tensor": [tv]},
                 {"Out": [b.tmp("e", [-1, -1] if dynamic else [6, 6])]}))
    check(tmp_path, b, [x, t], np.tile(x, (3, 2)))
    if dynamic:                    # one artifact, another target
        model = paddle_mlir.compile(str(tmp_path / "m"))
        np.testing.assert_array_equal(model(x, np.zeros((4, 9), np.float32))[0], np.tile(x, (2, 3)))


@pytest.mark.parametrize("with_y", [True, False])
def test_expand_as_v2(tmp_path, with_y):
    x = np.arange(4, dtype=np.float32).reshape(1, 4)
    b = ProgramBuilder()
    xv = b.feed("x", [1, 4])
    if with_y:                     # Y's dims at run time
        y = np.zeros((3, 4), np.float32)
        ins, inputs, attrs, shape = {"X": [xv], "Y": [b.feed("y", [-1, 4])]}, [x, y], {}, [-1, 4]
    else:                          # target_shape, -1 keeping x's dim
        ins, inputs, attrs, shape = {"X": [xv]}, [x], {"target_shape": [2, 3, -1]}, [2, 3, 4]
    b.fetch(b.op("expand_as_v2", ins, {"Out": [b.tmp("e", shape)]}, attrs))
    check(tmp_path, b, inputs, np.broadcast_to(x, (3, 4) if with_y else (2, 3, 4)).copy())


def test_meshgrid(tmp_path):
    a = np.array([1, 2, 3], np.float32)
    c = np.array([10, 20], np.float32)
    d = np.array([-1, -2, -3, -4], np.float32)
    b = ProgramBuilder()
    vs = [b.feed("a", [3]), b.feed("c", [-1]), b.feed("d", [-1])]
    outs = [b.tmp(f"g{i}", [3, -1, -1]) for i in range(3)]
    b.op("meshgrid", {"X": vs}, {"Out": outs})
    for o in outs:
        b.fetch(o)
    check(tmp_path, b, [a, c, d], [g.copy() for g in np.meshgrid(a, c, d, indexing="ij")])


def test_pad(tmp_path):
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    b = ProgramBuilder()
    xv = b.feed("x", [-1, 3])
    b.fetch(b._simple("pad", xv, {"paddings": [1, 0, 2, 3], "pad_value": -1.5}, shape=[-1, 8]))
    check(tmp_path, b, [x], np.pad(x, ((1, 0), (2, 3)), constant_values=-1.5))


@pytest.mark.parametrize("mode,fmt,runtime", [("constant", "NCHW", False), ("reflect", "NCHW", False),
                                              ("edge", "NHWC", False), ("reflect", "NHWC", True)])
def test_pad2d(tmp_path, mode, fmt, runtime):
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(6)
    x = rng.standard_normal((2, 3, 5, 6)).astype(np.float32)
    pads = [2, 1, 0, 3]                      # top, bottom, left, right
    t = torch.from_numpy(x if fmt == "NCHW" else x.transpose(0, 3, 1, 2))
    tmode = {"edge": "replicate"}.get(mode, mode)
    kw = {"value": 0.25} if mode == "constant" else {}
    want = torch.nn.functional.pad(t, [pads[2], pads[3], pads[0], pads[1]], mode=tmode, **kw).numpy()
    if fmt == "NHWC":
        want = want.transpose(0, 2, 3, 1)
    b = ProgramBuilder()
    xv = b.feed("x", [-1, 3, 5, 6])
    ins, inputs = {"X": [xv]}, [x]
    shape = [-1] + list(want.shape[1:])
    if runtime:
        ins["Paddings"] = [b.feed("p", [4], "int32")]
        inputs.append(np.array(pads, np.int32))
        shape = [-1, -1, -1, 6] if fmt == "NHWC" else [-1, 3, -1, -1]
    b.fetch(b.op("pad2d", ins, {"Out": [b.tmp("pad", shape)]},
                 {"paddings": [0] * 4 if runtime else pads, "mode": mode, "pad_value": 0.25,
                  "data_format": fmt}))
    check(tmp_path, b, inputs, np.ascontiguousarray(want))


@pytest.mark.parametrize("overwrite,dtype", [(True, "float32"), (False, "float32"), (False, "int32")])
def test_scatter(tmp_path, overwrite, dtype):
    x = np.arange(6 * 3, dtype=dtype).reshape(6, 3)
    ids = np.array([4, 1, 4, 0], np.int64)   # 4 twice: last wins, or both added after zeroing
    upd = (np.arange(4 * 3).reshape(4, 3) * 10 + 7).astype(dtype)
    want = x.copy()
    if overwrite:
        for i, r in enumerate(ids):
            want[r] = upd[i]
    else:
        for r in set(ids.tolist()):
            want[r] = 0
        for i, r in enumerate(ids):
            want[r] += upd[i]
    b = ProgramBuilder()
    xv, iv, uv = b.feed("x", [6, 3], dtype), b.feed("ids", [-1], "int64"), b.feed("u", [-1, 3], dtype)
    b.fetch(b.op("scatter", {"X": [xv], "Ids": [iv], "Updates": [uv]},
                 {"Out": [b.tmp("s", [6, 3], dtype)]}, {"overwrite": overwrite}))
    check(tmp_path, b, [x, ids, upd], want)


@pytest.mark.parametrize("axis", [0, 1, -1])
def test_wide_concat(tmp_path, axis):
    # More than 8 inputs lower to one tensor.concat (a chain of insert_slices
    # made one-shot bufferization take minutes): inputs of different sizes
    # along the axis, a dynamic batch.
    rng = np.random.default_rng(8)
    sizes = [1, 3, 2, 5, 1, 4, 2, 2, 3, 1, 6, 2]
    shapes = [[2 if axis != 0 else s, s if axis != 0 else 3] for s in sizes]
    xs = [rng.standard_normal(sh).astype(np.float32) for sh in shapes]
    b = ProgramBuilder()
    vs = [b.feed("x%d" % i, [-1, sh[1]] if axis != 0 else [-1, 3]) for i, sh in enumerate(shapes)]
    want = np.concatenate(xs, axis=axis)
    out = b.tmp("cat", [-1, want.shape[1]] if axis != 0 else [-1, 3])
    b.op("concat", {"X": vs}, {"Out": [out]}, {"axis": axis})
    b.fetch(out)
    check(tmp_path, b, xs, want)
