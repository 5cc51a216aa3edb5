"""Interpolation (nearest/bilinear, Paddle 2.x *_v2 and Fluid 1.x v1) and
adaptive pooling: minimal programs compiled once, run at two input sizes,
compared with the NumPy reference and with the per-pixel formulas below
(written here, in float64, from Paddle's documented rules)."""
import math

import numpy as np
import pytest

import paddle_mlir
from paddle_mlir import reference
from paddle_mlir.builder import ProgramBuilder

TOL = dict(rtol=1e-5, atol=1e-5)


def ratio(i, o, align, scale=None):
    if o <= 1:
        return 0.0
    if align:
        return (i - 1) / (o - 1)
    return 1.0 / scale if scale else i / o


def nearest(x, oh, ow, align, sh=None, sw=None):
    n, c, ih, iw = x.shape
    rh, rw = ratio(ih, oh, align, sh), ratio(iw, ow, align, sw)
    src = (lambda r, o, i: min(int(math.floor(r * o + 0.5)) if align else int(math.floor(r * o)), i - 1))
    out = np.empty((n, c, oh, ow))
    for y in range(oh):
        for xx in range(ow):
            out[:, :, y, xx] = x[:, :, src(rh, y, ih), src(rw, xx, iw)]
    return out


def bilinear(x, oh, ow, align, mode, sh=None, sw=None):
    n, c, ih, iw = x.shape
    rh, rw = ratio(ih, oh, align, sh), ratio(iw, ow, align, sw)

    def coord(r, o, i):
        s = max(r * (o + 0.5) - 0.5, 0.0) if (mode == 0 and not align) else r * o
        i0 = min(int(math.floor(s)), i - 1)
        return i0, min(i0 + 1, i - 1), s - i0
    out = np.empty((n, c, oh, ow))
    for y in range(oh):
        y0, y1, fy = coord(rh, y, ih)
        for xx in range(ow):
            x0, x1, fx = coord(rw, xx, iw)
            out[:, :, y, xx] = ((1 - fy) * ((1 - fx) * x[:, :, y0, x0] + fx * x[:, :, y0, x1])
                                + fy * ((1 - fx) * x[:, :, y1, x0] + fx * x[:, :, y1, x1]))
    return out


def adaptive(x, oh, ow, kind):
    n, c, h, w = x.shape
    out = np.empty((n, c, oh, ow))
    for i in range(oh):
        h0, h1 = math.floor(i * h / oh), math.ceil((i + 1) * h / oh)
        for j in range(ow):
            w0, w1 = math.floor(j * w / ow), math.ceil((j + 1) * w / ow)
            win = x[:, :, h0:h1, w0:w1]
            out[:, :, i, j] = win.max(axis=(2, 3)) if kind == "max" else win.mean(axis=(2, 3))
    return out


def nhwc(f):
    return lambda x, *a, **k: f(x.transpose(0, 3, 1, 2), *a, **k).transpose(0, 2, 3, 1)


# (name, builder call, expected(x, size, scale) as a NumPy function of NCHW x).
# `size` is the OutSize / SizeTensor feed, `scale` the Scale feed.
def cases(b, x, xh, size, sizes, scale):
    D = [-1, 3, -1, -1]
    ih = lambda x: x.shape[2]
    iw = lambda x: x.shape[3]
    return [
        ("nearest_scale", b.interp("nearest_interp_v2", x, D, scale=[2.0, 2.0], align_corners=False),
         lambda x, s, k: nearest(x, 2 * ih(x), 2 * iw(x), False, 2.0, 2.0)),
        ("nearest_hw_align", b.interp("nearest_interp_v2", x, [-1, 3, 5, 7], out_h=5, out_w=7),
         lambda x, s, k: nearest(x, 5, 7, True)),
        ("nearest_hw", b.interp("nearest_interp_v2", x, [-1, 3, 5, 7], out_h=5, out_w=7, align_corners=False),
         lambda x, s, k: nearest(x, 5, 7, False)),
        ("nearest_scale_tensor", b.interp("nearest_interp_v2", x, D, scale_tensor=scale, align_corners=False),
         lambda x, s, k: nearest(x, int(ih(x) * k[0]), int(iw(x) * k[0]), False, k[0], k[0])),
        ("nearest_nhwc", b.interp("nearest_interp_v2", xh, [-1, -1, -1, 3], scale=[1.5, 2.0],
                                  align_corners=False, data_layout="NHWC"),
         lambda x, s, k: nhwc(nearest)(x.transpose(0, 2, 3, 1), int(ih(x) * 1.5), 2 * iw(x), False, 1.5, 2.0)),
        ("bilinear_outsize_half", b.interp("bilinear_interp_v2", x, D, out_size=size, align_corners=False,
                                           align_mode=0),
         lambda x, s, k: bilinear(x, s[0], s[1], False, 0)),
        ("bilinear_outsize_mode1", b.interp("bilinear_interp_v2", x, D, out_size=size, align_corners=False,
                                            align_mode=1),
         lambda x, s, k: bilinear(x, s[0], s[1], False, 1)),
        ("bilinear_sizetensor_align", b.interp("bilinear_interp_v2", x, D, size_tensor=sizes),
         lambda x, s, k: bilinear(x, s[0], s[1], True, 1)),
        # A scale that is not the size ratio: v2 takes 1 / scale.
        ("bilinear_scale_nhwc", b.interp("bilinear_interp_v2", xh, [-1, -1, -1, 3], scale=[1.5, 1.7],
                                         align_corners=False, align_mode=0, data_layout="NHWC"),
         lambda x, s, k: nhwc(bilinear)(x.transpose(0, 2, 3, 1), int(np.float32(ih(x)) * np.float32(1.5)),
                                        int(np.float32(iw(x)) * np.float32(1.7)), False, 0, 1.5, 1.7)),
        # Fluid 1.x: OutSize wins over the scalar scale; align_corners.
        ("v1_nearest_outsize", b.interp("nearest_interp", x, D, out_size=size, scale=2.0, out_h=-1, out_w=-1),
         lambda x, s, k: nearest(x, s[0], s[1], True)),
        # Fluid 1.x: the scale sets the size only, the ratio is in / out.
        ("v1_bilinear_scale", b.interp("bilinear_interp", x, D, scale=1.5, align_corners=False, align_mode=0),
         lambda x, s, k: bilinear(x, int(ih(x) * 1.5), int(iw(x) * 1.5), False, 0)),
        ("v1_bilinear_scale_tensor", b.interp("bilinear_interp", x, D, scale_tensor=scale, align_corners=True),
         lambda x, s, k: bilinear(x, int(ih(x) * k[0]), int(iw(x) * k[0]), True, 1)),
        ("adaptive_avg_3x2", b.pool2d(x, "avg", [3, 2], adaptive=True),
         lambda x, s, k: adaptive(x, 3, 2, "avg")),
        ("adaptive_max_4x4", b.pool2d(x, "max", [4, 4], adaptive=True),
         lambda x, s, k: adaptive(x, 4, 4, "max")),
        ("adaptive_avg_1x1", b.pool2d(x, "avg", [1, 1], adaptive=True),
         lambda x, s, k: adaptive(x, 1, 1, "avg")),
    ]


@pytest.fixture(scope="module")
def program(tmp_path_factory):
    b = ProgramBuilder()
    x = b.feed("x", [-1, 3, -1, -1])
    xh = b.feed("xh", [-1, -1, -1, 3])
    size = b.feed("size", [2], "int32")
    sh, sw = b.feed("size_h", [1], "int32"), b.feed("size_w", [1], "int32")
    scale = b.feed("scale", [1], "float32")
    cs = cases(b, x, xh, size, [sh, sw], scale)
    for _, v, _ in cs:
        b.fetch(v)
    path = str(tmp_path_factory.mktemp("interp") / "m")
    b.save(path)
    return path, cs, paddle_mlir.compile(path)


@pytest.mark.parametrize("shape,size,scale", [((2, 3, 5, 6), (7, 9), 2.5), ((1, 3, 8, 11), (4, 5), 0.5)])
def test_interp_and_adaptive_pool(program, shape, size, scale):
    path, cs, model = program
    rng = np.random.RandomState(sum(shape))
    x = rng.standard_normal(shape).astype(np.float32)
    feeds = {"x": x, "xh": np.ascontiguousarray(x.transpose(0, 2, 3, 1)),
             "size": np.array(size, np.int32), "size_h": np.array([size[0]], np.int32),
             "size_w": np.array([size[1]], np.int32), "scale": np.array([scale], np.float32)}
    got = model(**feeds)
    want = list(reference.load(path).run(feeds).values())
    assert len(got) == len(cs) == len(want)
    for (name, _, formula), g, w in zip(cs, got, want):
        mine = formula(x, size, [scale])
        assert g.shape == w.shape == mine.shape, name
        np.testing.assert_allclose(g, w, err_msg=name, **TOL)
        np.testing.assert_allclose(g, mine, err_msg=name, **TOL)


# linear (1-D), trilinear (3-D) and bicubic: PyTorch's F.interpolate is the
# oracle where its coordinate rule is Paddle's (align_corners, or half-pixel
# with align_mode 0; bicubic ignores align_mode); align_mode 1 without
# align_corners (s = ratio * o) is written here in float64.

def asymmetric_linear(x, outs):
    """Paddle's align_mode 1 without align_corners, separably per axis."""
    y = x.astype(np.float64)
    for d, o in enumerate(outs):
        axis = 2 + d
        i = y.shape[axis]
        s = (i / o) * np.arange(o)
        lo = np.minimum(s.astype(np.int64), i - 1)
        hi = np.minimum(lo + 1, i - 1)
        f = (s - lo).reshape([-1 if a == axis else 1 for a in range(y.ndim)])
        y = np.take(y, lo, axis) * (1 - f) + np.take(y, hi, axis) * f
    return y


@pytest.mark.parametrize("op,shape,outs,align,mode,layout", [
    ("linear_interp_v2", (2, 3, 7), [12], False, 0, "NCHW"),
    ("linear_interp_v2", (2, 3, 7), [4], True, 1, "NHWC"),
    ("linear_interp_v2", (2, 3, 7), [11], False, 1, "NCHW"),
    ("trilinear_interp_v2", (1, 2, 3, 4, 5), [5, 7, 3], False, 0, "NCDHW"),
    ("trilinear_interp_v2", (1, 2, 3, 4, 5), [6, 2, 9], True, 1, "NDHWC"),
    ("trilinear_interp_v2", (1, 2, 3, 4, 5), [4, 6, 8], False, 1, "NCDHW"),
    ("bicubic_interp_v2", (2, 3, 5, 6), [9, 4], False, 0, "NCHW"),
    ("bicubic_interp_v2", (2, 3, 5, 6), [7, 13], True, 1, "NHWC"),
    ("linear_interp", (2, 3, 7), [12], False, 0, "NCHW"),
    ("trilinear_interp", (1, 2, 3, 4, 5), [5, 7, 3], True, 1, "NCDHW"),
    ("bicubic_interp", (2, 3, 5, 6), [9, 4], False, 1, "NCHW")])
def test_linear_trilinear_bicubic(tmp_path, op, shape, outs, align, mode, layout):
    torch = pytest.importorskip("torch")
    from test_reductions import check
    rng = np.random.default_rng(11)
    x = rng.standard_normal(shape).astype(np.float32)
    method = op.split("_")[0]
    if method != "bicubic" and mode == 1 and not align:
        want = asymmetric_linear(x, outs).astype(np.float32)
    else:
        want = torch.nn.functional.interpolate(torch.from_numpy(x), size=outs, mode=method,
                                               align_corners=align).numpy()
    last = layout in ("NHWC", "NDHWC")
    xin = np.ascontiguousarray(np.moveaxis(x, 1, -1)) if last else x
    want = np.ascontiguousarray(np.moveaxis(want, 1, -1)) if last else want
    names = ["out_d", "out_h", "out_w"][3 - len(outs):]
    b = ProgramBuilder()
    xv = b.feed("x", [-1] + list(xin.shape[1:]))
    b.fetch(b.interp(op, xv, [-1] + list(want.shape[1:]), interp_method=method, align_corners=align,
                     align_mode=mode, data_layout=layout, **dict(zip(names, outs))))
    check(tmp_path, b, [xin], want, rtol=2e-5)


def test_trilinear_with_run_time_size_and_scale(tmp_path):
    """OutSize read at run time, and a scale attribute (ratio 1 / scale)."""
    torch = pytest.importorskip("torch")
    from test_reductions import check
    x = np.random.default_rng(12).standard_normal((1, 2, 3, 4, 5)).astype(np.float32)
    b = ProgramBuilder()
    xv = b.feed("x", [-1, 2, 3, 4, 5])
    sv = b.feed("size", [3], "int32")
    b.fetch(b.interp("trilinear_interp_v2", xv, [-1, 2, -1, -1, -1], out_size=sv, interp_method="trilinear",
                     align_corners=True))
    want = torch.nn.functional.interpolate(torch.from_numpy(x), size=[6, 3, 7], mode="trilinear",
                                           align_corners=True).numpy()
    check(tmp_path, b, [x, np.array([6, 3, 7], np.int32)], want, rtol=2e-5)
    b = ProgramBuilder()
    xv = b.feed("x", [-1, 2, 3, 4, 5])
    b.fetch(b.interp("trilinear_interp_v2", xv, [-1, 2, 6, 8, 10], interp_method="trilinear",
                     align_corners=False, align_mode=0, scale=[2.0, 2.0, 2.0]))
    want = torch.nn.functional.interpolate(torch.from_numpy(x), scale_factor=2.0, mode="trilinear",
                                           align_corners=False).numpy()
    check(tmp_path, b, [x], want, rtol=2e-5)
