"""Windowed ops over dynamic spatial sizes (issue 34 step c): one artifact,
compiled with H and W left dynamic, runs every image size. Pooling with
ceil_mode, SAME and exclusive averages over padding, SAME convolutions
(plain, dilated, depthwise, fused with bias and relu) and transposed
convolutions, each against a NumPy computation written here from Paddle's
definitions (and the reference evaluator where it has the op)."""
import numpy as np
import pytest

import paddle_mlir
from paddle_mlir import reference
from paddle_mlir.builder import ProgramBuilder

SIZES = [(7, 9), (8, 8), (5, 12), (1, 3)]


def same_pads(size, k, s, d=1):
    """Paddle's SAME: out = ceil(size / s), the odd pixel at the end."""
    out = -(-size // s)
    total = max((out - 1) * s + d * (k - 1) + 1 - size, 0)
    return total // 2, total - total // 2


def np_pool(x, kind, k, s, pads, ceil, exclusive):
    """Paddle's CPU pooling loop: windows clipped to the input, averages
    divided by the clipped cells (exclusive) or by k * k."""
    n, c, h, w = x.shape
    (t, b), (l, r) = pads

    def out(size, lo, hi):
        num = size + lo + hi - k
        return (num + s - 1) // s + 1 if ceil else num // s + 1
    oh, ow = out(h, t, b), out(w, l, r)
    y = np.zeros((n, c, oh, ow), np.float32)
    for i in range(oh):
        for j in range(ow):
            h0, w0 = i * s - t, j * s - l
            hs, he = max(h0, 0), min(h0 + k, h)
            ws, we = max(w0, 0), min(w0 + k, w)
            win = x[:, :, hs:he, ws:we]
            if kind == "max":
                y[:, :, i, j] = win.max(axis=(2, 3))
            else:
                cells = (he - hs) * (we - ws) if exclusive else k * k
                y[:, :, i, j] = win.sum(axis=(2, 3)) / cells
    return y


def np_conv(x, w, s, pads, d, groups):
    (t, b), (l, r) = pads
    xp = np.pad(x, ((0, 0), (0, 0), (t, b), (l, r)))
    n, cin, h, wd = xp.shape
    cout, cpg, kh, kw = w.shape
    oh = (h - (d * (kh - 1) + 1)) // s + 1
    ow = (wd - (d * (kw - 1) + 1)) // s + 1
    y = np.zeros((n, cout, oh, ow), np.float64)
    opg = cout // groups
    for o in range(cout):
        g = o // opg
        for ci in range(cpg):
            for a in range(kh):
                for bb in range(kw):
                    patch = xp[:, g * cpg + ci, a * d:a * d + (oh - 1) * s + 1:s,
                               bb * d:bb * d + (ow - 1) * s + 1:s]
                    y[:, o] += patch * w[o, ci, a, bb]
    return y.astype(np.float32)


def np_conv_transpose(x, w, s, pads, d, out_pad, groups):
    """Each input pixel scatters x * w into the full output; the paddings
    crop it, output_padding extends its end."""
    n, cin, h, wd = x.shape
    _, opg, kh, kw = w.shape
    (t, b), (l, r) = pads
    fh, fw = (h - 1) * s + d * (kh - 1) + 1, (wd - 1) * s + d * (kw - 1) + 1
    full = np.zeros((n, opg * groups, fh + out_pad, fw + out_pad), np.float64)
    cpg = cin // groups
    for c in range(cin):
        g = c // cpg
        for o in range(opg):
            for a in range(kh):
                for bb in range(kw):
                    full[:, g * opg + o, a * d:a * d + (h - 1) * s + 1:s,
                         bb * d:bb * d + (wd - 1) * s + 1:s] += x[:, c] * w[c, o, a, bb]
    oh, ow = fh - t - b + out_pad, fw - l - r + out_pad
    return full[:, :, t:t + oh, l:l + ow].astype(np.float32)


def run_sizes(b, tmp_path, want, channels, check_reference=True):
    """Compiles the program once and runs it for every size of SIZES."""
    model = b.save(str(tmp_path / "m"))
    art = paddle_mlir.compile(model)
    rng = np.random.default_rng(5)
    for h, w in SIZES:
        x = rng.standard_normal((2, channels, h, w)).astype(np.float32)
        got = art(x)[0]
        expect = want(x)
        assert got.shape == expect.shape, (h, w)
        np.testing.assert_allclose(got, expect, rtol=1e-4, atol=1e-5, err_msg=str((h, w)))
        if check_reference:
            feeds = reference.load(model)
            ref = list(feeds.run({feeds.input_names[0]: x}).values())[0]
            np.testing.assert_allclose(ref, expect, rtol=1e-4, atol=1e-5, err_msg=str((h, w)))


def pool_attrs(kind, k, s, p, ceil, exclusive, algo="EXPLICIT"):
    return {"pooling_type": kind, "ksize": [k, k], "strides": [s, s], "paddings": [p, p],
            "global_pooling": False, "adaptive": False, "ceil_mode": ceil,
            "exclusive": exclusive, "data_format": "NCHW", "padding_algorithm": algo}


@pytest.mark.parametrize("kind,k,s,p,ceil,exclusive", [
    ("avg", 2, 2, 0, True, True),    # ResNet-vd's shortcut pooling
    ("avg", 3, 2, 1, True, True),
    ("avg", 3, 2, 1, True, False),
    ("avg", 3, 2, 1, False, True),
    ("max", 2, 2, 0, True, True),    # BlazeFace
    ("max", 3, 2, 1, True, True),
])
def test_pool2d_windows(tmp_path, kind, k, s, p, ceil, exclusive):
    b = ProgramBuilder()
    x = b.feed("x", [-1, 3, -1, -1])
    b.fetch(b._simple("pool2d", x, pool_attrs(kind, k, s, p, ceil, exclusive),
                      shape=[-1, 3, -1, -1]))
    run_sizes(b, tmp_path, lambda v: np_pool(v, kind, k, s, ((p, p), (p, p)), ceil, exclusive), 3)


@pytest.mark.parametrize("kind,exclusive", [("avg", True), ("avg", False), ("max", True)])
def test_pool2d_same(tmp_path, kind, exclusive):
    b = ProgramBuilder()
    x = b.feed("x", [-1, 2, -1, -1])
    b.fetch(b._simple("pool2d", x, pool_attrs(kind, 3, 2, 0, False, exclusive, "SAME"),
                      shape=[-1, 2, -1, -1]))

    def want(v):
        pads = (same_pads(v.shape[2], 3, 2), same_pads(v.shape[3], 3, 2))
        return np_pool(v, kind, 3, 2, pads, False, exclusive)
    run_sizes(b, tmp_path, want, 2)


@pytest.mark.parametrize("stride,dilation,conv,fused", [
    (2, 1, "plain", False), (1, 2, "plain", False), (2, 1, "depthwise", False),
    (2, 1, "plain", True),
    (2, 1, "multiplier", False),  # depthwise with 3 outputs per channel (BiSeNet)
    (1, 1, "groups", False),      # 2 groups of 2 channels
])
def test_conv2d_same(tmp_path, stride, dilation, conv, fused):
    rng = np.random.default_rng(1)
    cin = 4
    cout, groups = {"plain": (5, 1), "depthwise": (4, 4), "multiplier": (12, 4),
                    "groups": (6, 2)}[conv]
    w = rng.standard_normal((cout, cin // groups, 3, 3)).astype(np.float32)
    bias = rng.standard_normal(cout).astype(np.float32)
    b = ProgramBuilder()
    x = b.feed("x", [-1, cin, -1, -1])
    kind = "depthwise_conv2d" if conv in ("depthwise", "multiplier") else "conv2d"
    y = b.op(kind, {"Input": [x], "Filter": [b.param("w", w)]},
             {"Output": [b.tmp(kind, [-1, cout, -1, -1])]},
             {"strides": [stride] * 2, "paddings": [0, 0], "dilations": [dilation] * 2,
              "groups": groups, "padding_algorithm": "SAME", "data_format": "NCHW"})
    if fused:  # conv + bias + relu: compiled as one fused convolution
        y = b.relu(b.elementwise("elementwise_add", y, b.param("bias", bias), axis=1))
    b.fetch(y)

    def want(v):
        pads = (same_pads(v.shape[2], 3, stride, dilation), same_pads(v.shape[3], 3, stride, dilation))
        out = np_conv(v, w, stride, pads, dilation, groups)
        return np.maximum(out + bias[None, :, None, None], 0) if fused else out
    run_sizes(b, tmp_path, want, cin)


def test_grouped_conv2d_static_f64(tmp_path):
    """A grouped float64 convolution (no oneDNN kernel: generated code)
    with explicit padding and static sizes."""
    rng = np.random.default_rng(4)
    w = rng.standard_normal((6, 2, 3, 3))
    b = ProgramBuilder()
    x = b.feed("x", [2, 4, 7, 6], "float64")
    b.fetch(b.conv2d(x, b.param("w", w), stride=2, padding=1, groups=2))
    model = b.save(str(tmp_path / "m"))
    xv = rng.standard_normal((2, 4, 7, 6))
    got = paddle_mlir.compile(model)(xv)[0]
    assert got.dtype == np.float64
    np.testing.assert_allclose(got, np_conv(xv, w, 2, ((1, 1), (1, 1)), 1, 2), rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("k,s,p,out_pad,groups", [
    (2, 2, 0, 0, 1),   # the DB text detector's upsampling head
    (4, 2, 1, 0, 2),
    (3, 2, 1, 1, 1),
])
def test_conv2d_transpose(tmp_path, k, s, p, out_pad, groups):
    rng = np.random.default_rng(2)
    cin, opg = 4, 3
    w = rng.standard_normal((cin, opg, k, k)).astype(np.float32)
    b = ProgramBuilder()
    x = b.feed("x", [-1, cin, -1, -1])
    attrs = {"strides": [s, s], "paddings": [p, p], "dilations": [1, 1], "groups": groups,
             "padding_algorithm": "EXPLICIT", "data_format": "NCHW", "output_size": [],
             "output_padding": [out_pad, out_pad] if out_pad else []}
    b.fetch(b.op("conv2d_transpose", {"Input": [x], "Filter": [b.param("w", w)]},
                 {"Output": [b.tmp("conv2d_transpose", [-1, opg * groups, -1, -1])]}, attrs))
    run_sizes(b, tmp_path, lambda v: np_conv_transpose(v, w, s, ((p, p), (p, p)), 1, out_pad, groups),
              cin)


def test_deep_chain_compiles_quickly(tmp_path):
    """Forty SAME poolings in a row over a dynamic image: each size
    expression reuses the one before it twice, which made the memory
    planner's size evaluation exponential in the depth (HarDNet compiled
    with dynamic sizes took more than ten minutes); now it is linear."""
    import subprocess, sys
    b = ProgramBuilder()
    y = b.feed("x", [1, 2, -1, -1])
    for _ in range(40):
        y = b._simple("pool2d", y, pool_attrs("max", 3, 1, 0, False, True, "SAME"),
                      shape=[1, 2, -1, -1])
    b.fetch(y)
    model = b.save(str(tmp_path / "m"))
    code = ("import sys, numpy as np, paddle_mlir\n"
            "a = paddle_mlir.compile(sys.argv[1])\n"
            "x = np.random.default_rng(0).standard_normal((1, 2, 9, 11)).astype(np.float32)\n"
            "np.save(sys.argv[2], a(x)[0]); np.save(sys.argv[3], x)\n")
    subprocess.run([sys.executable, "-c", code, model, str(tmp_path / "y.npy"), str(tmp_path / "x.npy")],
                   check=True, timeout=120)
    x = np.load(tmp_path / "x.npy")
    want = x
    for _ in range(40):
        want = np_pool(want, "max", 3, 1, ((1, 1), (1, 1)), False, True)
    np.testing.assert_allclose(np.load(tmp_path / "y.npy"), want)
