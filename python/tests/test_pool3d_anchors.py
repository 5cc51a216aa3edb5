"""pool3d, depthwise_conv2d_transpose and anchor_generator of issue 34's
Paddle2ONNX list: builder programs with dynamic dims, compiled, against
NumPy loops written here from Paddle's kernels (Pool3dFunctor,
anchor_generator_op.h) and PyTorch, the reference evaluator and the
exporter's round trip."""
import itertools
import math

import numpy as np
import pytest

from paddle_mlir.builder import ProgramBuilder
from test_reductions import check


def pool3d_loops(x, kind, ks, st, lo, outs, exclusive, adaptive=False):
    """Paddle's Pool3dFunctor in float64: windows clipped to the input."""
    n, c = x.shape[:2]
    ins = x.shape[2:]
    y = np.empty((n, c) + tuple(outs))
    for o in itertools.product(*[range(v) for v in outs]):
        bounds = []
        for i in range(3):
            if adaptive:
                s0, e0 = math.floor(o[i] * ins[i] / outs[i]), math.ceil((o[i] + 1) * ins[i] / outs[i])
            else:
                s0 = o[i] * st[i] - lo[i]
                s0, e0 = max(s0, 0), min(s0 + ks[i], ins[i])
            bounds.append((s0, e0))
        win = x[:, :, bounds[0][0]:bounds[0][1], bounds[1][0]:bounds[1][1], bounds[2][0]:bounds[2][1]]
        win = win.astype(np.float64).reshape(n, c, -1)
        if kind == "max":
            y[(slice(None), slice(None)) + o] = win.max(axis=2)
        else:
            div = win.shape[2] if exclusive else ks[0] * ks[1] * ks[2]
            y[(slice(None), slice(None)) + o] = win.sum(axis=2) / div
    return y.astype(np.float32)


@pytest.mark.parametrize("kind,ks,st,pads,ceil,exclusive,fmt", [
    ("max", [2, 2, 2], [2, 2, 2], [0, 0, 0], False, True, "NCDHW"),
    ("avg", [3, 3, 2], [2, 1, 2], [1, 1, 0], False, True, "NCDHW"),
    ("avg", [3, 3, 2], [2, 1, 2], [1, 1, 0], True, False, "NCDHW"),
    ("max", [2, 3, 3], [2, 2, 2], [0, 1, 0, 1, 1, 1], True, True, "NDHWC"),
    ("avg", [2, 2, 2], [1, 1, 1], [0, 0, 0], False, True, "NDHWC")])
def test_pool3d(tmp_path, kind, ks, st, pads, ceil, exclusive, fmt):
    rng = np.random.default_rng(13)
    x = rng.standard_normal((2, 3, 5, 6, 7)).astype(np.float32)
    lo = [pads[2 * i] if len(pads) == 6 else pads[i] for i in range(3)]
    hi = [pads[2 * i + 1] if len(pads) == 6 else pads[i] for i in range(3)]
    outs = []
    for i, d in enumerate(x.shape[2:]):
        span = d + lo[i] + hi[i] - ks[i]
        outs.append((-(-span // st[i]) if ceil else span // st[i]) + 1)
    want = pool3d_loops(x, kind, ks, st, lo, outs, exclusive)
    xin = x
    if fmt == "NDHWC":
        xin, want = np.ascontiguousarray(np.moveaxis(x, 1, -1)), np.ascontiguousarray(np.moveaxis(want, 1, -1))
    b = ProgramBuilder()
    # Dynamic batch and depth: the depth's output size is read at run time.
    xv = b.feed("x", [-1, -1] + list(xin.shape[2:]) if fmt == "NDHWC" else [-1, 3, -1, 6, 7])
    shape = [-1] + list(want.shape[1:])
    shape[1 if fmt == "NDHWC" else 2] = -1
    b.fetch(b._simple("pool3d", xv, {"pooling_type": kind, "ksize": ks, "strides": st, "paddings": pads,
                                     "ceil_mode": ceil, "exclusive": exclusive, "data_format": fmt},
                      shape=shape))
    check(tmp_path, b, [xin], want)


@pytest.mark.parametrize("kind", ["max", "avg"])
def test_pool3d_adaptive_and_global(tmp_path, kind):
    torch = pytest.importorskip("torch")
    x = np.random.default_rng(14).standard_normal((2, 3, 5, 7, 6)).astype(np.float32)
    fn = torch.nn.functional.adaptive_max_pool3d if kind == "max" else torch.nn.functional.adaptive_avg_pool3d
    for attrs, outs in [({"adaptive": True, "ksize": [2, 3, 4]}, [2, 3, 4]),
                        ({"global_pooling": True, "ksize": [1, 1, 1]}, [1, 1, 1])]:
        want = fn(torch.from_numpy(x), outs).numpy()
        b = ProgramBuilder()
        xv = b.feed("x", [-1, 3, -1, -1, 6])
        b.fetch(b._simple("pool3d", xv, dict(attrs, pooling_type=kind), shape=[-1, 3] + outs))
        check(tmp_path, b, [x], want)


def test_depthwise_conv2d_transpose(tmp_path):
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(15)
    x = rng.standard_normal((2, 4, 5, 6)).astype(np.float32)
    w = rng.standard_normal((4, 1, 3, 3)).astype(np.float32)
    want = torch.nn.functional.conv_transpose2d(torch.from_numpy(x), torch.from_numpy(w), stride=2,
                                                padding=1, output_padding=1, groups=4).numpy()
    b = ProgramBuilder()
    xv = b.feed("x", [-1, 4, 5, 6])
    y = b.tmp("y", [-1] + list(want.shape[1:]))
    b.fetch(b.op("depthwise_conv2d_transpose", {"Input": [xv], "Filter": [b.param("w", w)]}, {"Output": [y]},
                 {"strides": [2, 2], "paddings": [1, 1], "output_padding": [1, 1], "groups": 4}))
    check(tmp_path, b, [x], want, rtol=1e-4)


def anchors_loops(h, w, sizes, ratios, stride, offset):
    """anchor_generator_op.h, float where the kernel computes in float."""
    f = np.float32
    sw, sh = f(stride[0]), f(stride[1])
    out = np.empty((h, w, len(sizes) * len(ratios), 4), np.float32)
    for hi in range(h):
        for wi in range(w):
            xc = f(f(wi) * sw + f(offset) * (sw - f(1)))
            yc = f(f(hi) * sh + f(offset) * (sh - f(1)))
            k = 0
            for ar in ratios:
                for size in sizes:
                    base_w = f(math.floor(f(math.sqrt(f(sw * sh) / f(ar))) + 0.5))
                    base_h = f(math.floor(f(base_w * f(ar)) + 0.5))
                    aw, ah = f(f(f(size) / sw) * base_w), f(f(f(size) / sh) * base_h)
                    out[hi, wi, k] = [float(xc) - 0.5 * float(aw - 1), float(yc) - 0.5 * float(ah - 1),
                                      float(xc) + 0.5 * float(aw - 1), float(yc) + 0.5 * float(ah - 1)]
                    k += 1
    return out


def test_anchor_generator(tmp_path):
    sizes, ratios, stride, offset = [32.0, 64.0], [0.5, 1.0, 2.0], [16.0, 8.0], 0.5
    x = np.zeros((1, 8, 3, 5), np.float32)
    want = anchors_loops(3, 5, sizes, ratios, stride, offset)
    var = np.broadcast_to(np.array([0.1, 0.1, 0.2, 0.2], np.float32), want.shape).copy()
    b = ProgramBuilder()
    xv = b.feed("x", [1, 8, -1, -1])
    anchors, variances = b.tmp("anchors", [-1, -1, 6, 4]), b.tmp("vars", [-1, -1, 6, 4])
    b.op("anchor_generator", {"Input": [xv]}, {"Anchors": [anchors], "Variances": [variances]},
         {"anchor_sizes": sizes, "aspect_ratios": ratios, "stride": stride, "offset": offset,
          "variances": [0.1, 0.1, 0.2, 0.2]})
    b.fetch(anchors)
    b.fetch(variances)
    check(tmp_path, b, [x], [want, var], rtol=0)
