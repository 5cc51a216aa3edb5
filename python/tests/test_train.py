"""Compiled train steps (docs/Training.md): every gradient rule against
PyTorch autograd (float64) and central finite differences of a NumPy
forward (float64), an MLP trained with SGD step for step against PyTorch,
the MLP trained on scikit-learn's handwritten digits, and the errors."""

import json
import math
import os

import numpy as np
import pytest
import torch

import paddle_mlir
import paddle_mlir.train
from paddle_mlir.builder import Long, ProgramBuilder

RNG = np.random.default_rng(20261203)


def rand(*shape, lo=-1.0, hi=1.0):
    return RNG.uniform(lo, hi, size=shape).astype(np.float32)


# ----------------------------------------------------------------- rules
# Each case: parameter arrays, a builder function of (b, params) -> output
# var, a NumPy forward and a PyTorch forward of the same parameters. The
# loss is mean(out * R) for a fixed random R, so every output element gets
# its own weight.

def _gelu_tanh_np(x):
    return 0.5 * x * (1 + np.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x ** 3)))


def _erf_np(x):
    return np.vectorize(math.erf)(x)


def _softmax_np(x, axis):
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def unary_case(op, np_fn, torch_fn, attrs=None, shape=(3, 5), lo=-2.0, hi=2.0):
    return dict(params={"a": rand(*shape, lo=lo, hi=hi)},
                build=lambda b, p: b.act(op, p["a"], **(attrs or {})),
                np_fn=lambda p: np_fn(p["a"]), torch_fn=lambda p: torch_fn(p["a"]))


def binary_case(op, np_op, shape_x, shape_y, axis=-1):
    # Paddle's axis rule: y's dims start at `axis` of x's (-1: at the end).
    off = len(shape_x) - len(shape_y) if axis == -1 else axis
    aligned = tuple(shape_y) + (1,) * (len(shape_x) - off - len(shape_y))
    lo = 0.5 if op == "elementwise_div" else -1.0
    return dict(params={"x": rand(*shape_x), "y": rand(*shape_y, lo=lo, hi=1.5)},
                build=lambda b, p: b.elementwise(op, p["x"], p["y"], axis=axis),
                np_fn=lambda p: np_op(p["x"], p["y"].reshape(aligned)),
                torch_fn=lambda p: np_op(p["x"], p["y"].reshape(aligned)))


def matmul_case(sx, sy, tx, ty):
    def f(p, lib):
        x, y = p["x"], p["y"]
        if tx:
            x = lib.swapaxes(x, -1, -2) if lib is np else x.transpose(-1, -2)
        if ty:
            y = lib.swapaxes(y, -1, -2) if lib is np else y.transpose(-1, -2)
        return x @ y
    return dict(params={"x": rand(*sx), "y": rand(*sy)},
                build=lambda b, p: b.matmul_v2(p["x"], p["y"], trans_x=tx, trans_y=ty),
                np_fn=lambda p: f(p, np), torch_fn=lambda p: f(p, torch))


def _mul_op(b, p):
    x, y = p["x"], p["y"]
    out = b.tmp("mul", [2, 3, 5])
    return b.op("mul", {"X": [x], "Y": [y]}, {"Out": [out]}, {"x_num_col_dims": 2, "y_num_col_dims": 1})


def _reduce(kind, dims, keep):
    def build(b, p):
        x = p["x"]
        shape = [1 if i in dims else d for i, d in enumerate(x.shape)] if keep else \
            [d for i, d in enumerate(x.shape) if i not in dims]
        out = b.tmp(kind, shape)
        return b.op(kind, {"X": [x]}, {"Out": [out]}, {"dim": list(dims), "keep_dim": keep,
                                                       "reduce_all": False})
    f = (lambda a, lib: a.sum(axis=tuple(dims), keepdims=keep)) if kind == "reduce_sum" else \
        (lambda a, lib: a.mean(axis=tuple(dims), keepdims=keep))
    return dict(params={"x": rand(2, 3, 4)}, build=build, np_fn=lambda p: f(p["x"], np),
                torch_fn=lambda p: (p["x"].sum(dim=tuple(dims), keepdim=keep) if kind == "reduce_sum"
                                    else p["x"].mean(dim=tuple(dims), keepdim=keep)))


def _swce_case():
    label = RNG.integers(0, 6, size=(4, 1)).astype(np.int64)
    def build(b, p):
        lab = b.param("lab", label)
        sm = b.tmp("softmax", [4, 6])
        loss = b.tmp("swce_loss", [4, 1])
        b.op("softmax_with_cross_entropy", {"Logits": [p["x"]], "Label": [lab]},
             {"Softmax": [sm], "Loss": [loss]}, {"soft_label": False, "axis": -1})
        return loss
    def np_fn(p):
        s = _softmax_np(p["x"], -1)
        return -np.log(np.take_along_axis(s, label, axis=1))
    def torch_fn(p):
        return torch.nn.functional.cross_entropy(p["x"], torch.from_numpy(label[:, 0]),
                                                 reduction="none").reshape(4, 1)
    return dict(params={"x": rand(4, 6, lo=-3, hi=3)}, build=build, np_fn=np_fn, torch_fn=torch_fn)


def conv_case(x_shape, w_shape, stride=1, padding=0, dilation=1, groups=1, depthwise=False):
    def np_conv(p):
        return _np_conv2d(p["x"], p["w"], stride, padding, dilation, groups)
    def torch_conv(p):
        return torch.nn.functional.conv2d(p["x"], p["w"], stride=stride, padding=padding,
                                          dilation=dilation, groups=groups)
    return dict(params={"x": rand(*x_shape), "w": rand(*w_shape)},
                build=lambda b, p: b.conv2d(p["x"], p["w"], stride=stride, padding=padding,
                                            dilation=dilation, groups=groups, depthwise=depthwise),
                np_fn=np_conv, torch_fn=torch_conv)


def _np_conv2d(x, w, s, p, d, g):
    n, c, h, wd = x.shape
    o, cg, kh, kw = w.shape
    xp = np.pad(x, ((0, 0), (0, 0), (p, p), (p, p)))
    oh = (h + 2 * p - d * (kh - 1) - 1) // s + 1
    ow = (wd + 2 * p - d * (kw - 1) - 1) // s + 1
    out = np.zeros((n, o, oh, ow), x.dtype)
    og = o // g
    for oc in range(o):
        grp = oc // og
        for i in range(kh):
            for j in range(kw):
                patch = xp[:, grp * cg:(grp + 1) * cg, i * d:i * d + s * (oh - 1) + 1:s,
                           j * d:j * d + s * (ow - 1) + 1:s]
                out[:, oc] += np.einsum("nchw,c->nhw", patch, w[oc, :, i, j])
    return out


def pool_case(kind, k, s, p, exclusive=True, global_pooling=False, adaptive=False, shape=(2, 3, 6, 6)):
    def build(b, prm):
        x = prm["x"]
        if not exclusive:
            n, c, h, w = x.shape
            out = [n, c, (h + 2 * p - k) // s + 1, (w + 2 * p - k) // s + 1]
            return b._simple("pool2d", x, {"pooling_type": kind, "ksize": [k, k], "strides": [s, s],
                                           "paddings": [p, p], "exclusive": False,
                                           "global_pooling": False, "adaptive": False,
                                           "ceil_mode": False, "data_format": "NCHW",
                                           "padding_algorithm": "EXPLICIT"}, shape=out)
        return b.pool2d(x, kind, k, stride=s, padding=p, global_pooling=global_pooling, adaptive=adaptive)
    def torch_fn(prm):
        x = prm["x"]
        if global_pooling:
            return x.amax(dim=(2, 3), keepdim=True) if kind == "max" else x.mean(dim=(2, 3), keepdim=True)
        if adaptive:
            f = torch.nn.functional.adaptive_max_pool2d if kind == "max" else torch.nn.functional.adaptive_avg_pool2d
            return f(x, k)
        if kind == "max":
            return torch.nn.functional.max_pool2d(x, k, s, p)
        return torch.nn.functional.avg_pool2d(x, k, s, p, count_include_pad=not exclusive)
    def np_fn(prm):
        return torch_fn({"x": torch.from_numpy(prm["x"])}).numpy()
    # Values distinct enough that finite differences never cross a max.
    x = RNG.permutation(np.prod(shape)).reshape(shape).astype(np.float32) / np.prod(shape)
    return dict(params={"x": x}, build=build, np_fn=np_fn, torch_fn=torch_fn, fd_eps=1e-8)


def _same_pads(size, k, s, d=1):
    # SAME: output ceil(size / s), the odd pixel of padding at the end.
    out = -(-size // s)
    total = max((out - 1) * s + d * (k - 1) + 1 - size, 0)
    return total // 2, total - total // 2


def conv_layout_case(x_shape, w_shape, stride=1, padding=0, algorithm="EXPLICIT", nhwc=False,
                     groups=1, depthwise=False):
    """conv2d / depthwise_conv2d in the forms the train step takes on
    transposed views or resolved paddings: NHWC data, SAME (asymmetric
    when the total is odd) and VALID padding."""
    nchw = (x_shape[0], x_shape[3], x_shape[1], x_shape[2]) if nhwc else x_shape
    k = w_shape[2:]
    if algorithm == "SAME":
        (t, bo), (l, r) = _same_pads(nchw[2], k[0], stride), _same_pads(nchw[3], k[1], stride)
    elif algorithm == "VALID":
        t = bo = l = r = 0
    else:
        t = bo = l = r = padding
    oh = (nchw[2] + t + bo - k[0]) // stride + 1
    ow = (nchw[3] + l + r - k[1]) // stride + 1
    out = [nchw[0], w_shape[0], oh, ow]
    if nhwc:
        out = [out[0], oh, ow, out[1]]

    def build(b, p):
        kind = "depthwise_conv2d" if depthwise else "conv2d"
        y = b.tmp(kind, out)
        return b.op(kind, {"Input": [p["x"]], "Filter": [p["w"]]}, {"Output": [y]},
                    {"strides": [stride] * 2, "paddings": [padding] * 2, "dilations": [1, 1],
                     "groups": groups, "padding_algorithm": algorithm,
                     "data_format": "NHWC" if nhwc else "NCHW"})

    def torch_fn(p):
        x = p["x"].permute(0, 3, 1, 2) if nhwc else p["x"]
        y = torch.nn.functional.conv2d(torch.nn.functional.pad(x, (l, r, t, bo)), p["w"],
                                       stride=stride, groups=groups)
        return y.permute(0, 2, 3, 1) if nhwc else y

    def np_fn(p):
        x = p["x"].transpose(0, 3, 1, 2) if nhwc else p["x"]
        x = np.pad(x, ((0, 0), (0, 0), (t, bo), (l, r)))
        y = _np_conv2d(x, p["w"], stride, 0, 1, groups)
        return y.transpose(0, 2, 3, 1) if nhwc else y
    return dict(params={"x": rand(*x_shape), "w": rand(*w_shape)}, build=build, np_fn=np_fn,
                torch_fn=torch_fn)


def pool_layout_case(kind, k, s, p=0, algorithm="EXPLICIT", nhwc=False, ceil_mode=False,
                     shape=(2, 3, 7, 8)):
    """pool2d in NHWC, with SAME padding (asymmetric when the total is odd)
    or with ceil_mode's partial last window; averages exclusive (divided by
    the cells inside the input)."""
    n, c, h, w = shape
    if algorithm == "SAME":
        (t, bo), (l, r) = _same_pads(h, k, s), _same_pads(w, k, s)
    else:
        t = bo = l = r = p

    def size(i, lo, hi):
        num = i + lo + hi - k
        return (-(-num // s) if ceil_mode else num // s) + 1
    oh, ow = size(h, t, bo), size(w, l, r)
    if ceil_mode:  # the overhang beyond the padding, as padding at the end
        bo += max((oh - 1) * s + k - (h + t + bo), 0)
        r += max((ow - 1) * s + k - (w + l + r), 0)

    def build(b, prm):
        out = [n, oh, ow, c] if nhwc else [n, c, oh, ow]
        return b._simple("pool2d", prm["x"], {
            "pooling_type": kind, "ksize": [k, k], "strides": [s, s], "paddings": [p, p],
            "exclusive": True, "global_pooling": False, "adaptive": False, "ceil_mode": ceil_mode,
            "data_format": "NHWC" if nhwc else "NCHW", "padding_algorithm": algorithm}, shape=out)

    def torch_fn(prm):
        x = prm["x"].permute(0, 3, 1, 2) if nhwc else prm["x"]
        F = torch.nn.functional
        if kind == "max":
            y = F.max_pool2d(F.pad(x, (l, r, t, bo), value=-math.inf), k, s)
        else:  # window sums over the cells inside the input
            sums = F.avg_pool2d(F.pad(x, (l, r, t, bo)), k, s) * (k * k)
            cells = F.avg_pool2d(F.pad(torch.ones_like(x), (l, r, t, bo)), k, s) * (k * k)
            y = sums / cells
        return y.permute(0, 2, 3, 1) if nhwc else y

    def np_fn(prm):
        return torch_fn({"x": torch.from_numpy(prm["x"])}).numpy()
    in_shape = (n, h, w, c) if nhwc else shape
    x = RNG.permutation(np.prod(in_shape)).reshape(in_shape).astype(np.float32) / np.prod(in_shape)
    return dict(params={"x": x}, build=build, np_fn=np_fn, torch_fn=torch_fn, fd_eps=1e-8)


def _bn_case(shape=(4, 3, 5, 5)):
    c = shape[1]
    axes = tuple(i for i in range(len(shape)) if i != 1)
    bshape = [1, c] + [1] * (len(shape) - 2)
    def build(b, p):
        mean = b.param("bn.mean", np.zeros(c, np.float32))
        var = b.param("bn.var", np.ones(c, np.float32))
        return b.batch_norm(p["x"], p["scale"], p["bias"], mean, var, epsilon=1e-5)
    def np_fn(p):
        x = p["x"]
        m = x.mean(axis=axes, keepdims=True)
        v = ((x - m) ** 2).mean(axis=axes, keepdims=True)
        return (x - m) / np.sqrt(v + 1e-5) * p["scale"].reshape(bshape) + p["bias"].reshape(bshape)
    def torch_fn(p):
        return torch.nn.functional.batch_norm(p["x"], None, None, p["scale"], p["bias"], training=True, eps=1e-5)
    return dict(params={"x": rand(*shape), "scale": rand(c, lo=0.5, hi=1.5), "bias": rand(c)},
                build=build, np_fn=np_fn, torch_fn=torch_fn)


def layer_norm_case(shape, begin, scale=True, bias=True, eps=1e-5):
    norm = tuple(shape[begin:])
    n = int(np.prod(norm))
    params = {"x": rand(*shape)}
    if scale:
        params["scale"] = rand(n, lo=0.5, hi=1.5)
    if bias:
        params["bias"] = rand(n)
    def build(b, p):
        ins = {"X": [p["x"]]}
        if scale:
            ins["Scale"] = [p["scale"]]
        if bias:
            ins["Bias"] = [p["bias"]]
        rows = int(np.prod(shape[:begin]))
        outs = {"Y": [b.tmp("layer_norm", shape)], "Mean": [b.tmp("layer_norm_mean", [rows])],
                "Variance": [b.tmp("layer_norm_var", [rows])]}
        return b.op("layer_norm", ins, outs, {"epsilon": eps, "begin_norm_axis": begin})[0]
    def np_fn(p):
        x = p["x"]
        axes = tuple(range(begin, len(shape)))
        m = x.mean(axis=axes, keepdims=True)
        v = ((x - m) ** 2).mean(axis=axes, keepdims=True)
        y = (x - m) / np.sqrt(v + eps)
        if scale:
            y = y * p["scale"].reshape(norm)
        if bias:
            y = y + p["bias"].reshape(norm)
        return y
    def torch_fn(p):
        return torch.nn.functional.layer_norm(p["x"], norm, p["scale"].reshape(norm) if scale else None,
                                              p["bias"].reshape(norm) if bias else None, eps)
    return dict(params=params, build=build, np_fn=np_fn, torch_fn=torch_fn)


def lookup_case(ids_shape, vocab=7, dim=4, padding_idx=-1, v1=False):
    """An embedding lookup with repeated ids (their rows' gradients add up);
    rows of padding_idx read as zeros and get no gradient. lookup_table's
    ids have a trailing dim of 1."""
    ids = RNG.integers(0, vocab, size=ids_shape).astype(np.int64)
    ids.flat[:3] = [1, 1, padding_idx if padding_idx >= 0 else 3]
    flat = ids[..., 0] if v1 else ids
    keep = (flat != padding_idx).astype(np.float64)[..., None]
    def build(b, p):
        i = b.param("ids", ids)
        if not v1:
            return b.lookup_table_v2(p["w"], i, padding_idx=padding_idx)
        out = b.tmp("embedding", list(flat.shape) + [dim])
        return b.op("lookup_table", {"W": [p["w"]], "Ids": [i]}, {"Out": [out]},
                    {"padding_idx": Long(padding_idx), "is_sparse": False})
    return dict(params={"w": rand(vocab, dim)}, build=build,
                np_fn=lambda p: p["w"][flat] * keep,
                torch_fn=lambda p: torch.nn.functional.embedding(torch.from_numpy(flat), p["w"])
                * torch.from_numpy(keep))


def cross_entropy2_case(shape, softmax=False):
    """cross_entropy2 of probabilities (a softmax of the parameter, or the
    parameter itself, positive) against hard labels; one row's label is
    ignore_index (-100) and gets no loss and no gradient."""
    label = RNG.integers(0, shape[-1], size=tuple(shape[:-1]) + (1,)).astype(np.int64)
    label.flat[1] = -100
    keep = (label != -100).astype(np.float64)
    safe = np.where(label == -100, 0, label)
    def build(b, p):
        x = b.softmax(p["x"], axis=-1) if softmax else p["x"]
        y = b.tmp("cross_entropy2", list(label.shape))
        match = b.tmp("cross_entropy2_match", list(label.shape))
        xshape = b.tmp("cross_entropy2_xshape", [0] + list(shape))
        return b.op("cross_entropy2", {"X": [x], "Label": [b.param("label", label)]},
                    {"Y": [y], "MatchX": [match], "XShape": [xshape]}, {"ignore_index": -100})[0]
    def np_fn(p):
        x = _softmax_np(p["x"], -1) if softmax else p["x"]
        return -np.log(np.take_along_axis(x, safe, axis=-1)) * keep
    def torch_fn(p):
        x = torch.softmax(p["x"], -1) if softmax else p["x"]
        return -torch.log(torch.gather(x, -1, torch.from_numpy(safe))) * torch.from_numpy(keep)
    lo, hi = (-2.0, 2.0) if softmax else (0.2, 1.0)
    return dict(params={"x": rand(*shape, lo=lo, hi=hi)}, build=build, np_fn=np_fn, torch_fn=torch_fn)


def _square_error(b, p):
    # Paddle's fluid square_error_cost: elementwise_sub, then square.
    return b.act("square", b.elementwise("elementwise_sub", p["pred"], p["label"]))


def _cat(lib, xs, axis):
    return np.concatenate(xs, axis) if lib is np else torch.cat(xs, axis)


def concat_case(shapes, axis):
    names = ["x%d" % i for i in range(len(shapes))]
    return dict(params={n: rand(*s) for n, s in zip(names, shapes)},
                build=lambda b, p: b.concat([p[n] for n in names], axis),
                np_fn=lambda p: _cat(np, [p[n] for n in names], axis),
                torch_fn=lambda p: _cat(torch, [p[n] for n in names], axis))


def split_case(shape, axis, order, num=0, sections=()):
    """split x, then concat the outputs listed in `order` (outputs left out
    get no gradient) along the same axis."""
    a = axis % len(shape)
    sizes = list(sections) if sections else [shape[a] // num] * num
    bounds = np.cumsum([0] + sizes)
    def build(b, p):
        outs = []
        for n in sizes:
            s = list(shape)
            s[a] = n
            outs.append(b.tmp("split", s))
        b.op("split", {"X": [p["x"]]}, {"Out": outs}, {"num": num, "sections": list(sections), "axis": axis})
        return b.concat([outs[i] for i in order], axis)
    def f(p, lib):
        x = p["x"]
        parts = [x[(slice(None),) * a + (slice(bounds[i], bounds[i + 1]),)] for i in range(len(sizes))]
        return _cat(lib, [parts[i] for i in order], a)
    return dict(params={"x": rand(*shape)}, build=build, np_fn=lambda p: f(p, np),
                torch_fn=lambda p: f(p, torch))


def slice_case(shape, axes, starts, ends, decrease=()):
    index = [slice(None)] * len(shape)
    for ax, st, en in zip(axes, starts, ends):
        index[ax] = slice(st, en)
    probe = np.zeros(shape)[tuple(index)]
    out_shape = [d for i, d in enumerate(probe.shape) if i not in decrease]
    def build(b, p):
        out = b.tmp("slice", out_shape)
        return b.op("slice", {"Input": [p["x"]]}, {"Out": [out]},
                    {"axes": list(axes), "starts": list(starts), "ends": list(ends),
                     "infer_flags": [1] * len(axes), "decrease_axis": list(decrease)})
    def f(p):
        return p["x"][tuple(index)].reshape(out_shape)
    return dict(params={"x": rand(*shape)}, build=build, np_fn=f, torch_fn=f)


CASES = {
    "add_same": binary_case("elementwise_add", lambda a, b: a + b, (3, 4), (3, 4)),
    "add_bias": binary_case("elementwise_add", lambda a, b: a + b, (2, 3, 4), (4,)),
    "add_axis1": binary_case("elementwise_add", lambda a, b: a + b, (2, 3, 4), (3,), axis=1),
    "sub_bcast1": binary_case("elementwise_sub", lambda a, b: a - b, (2, 3, 4), (2, 1, 4)),
    "mul_axis1": binary_case("elementwise_mul", lambda a, b: a * b, (2, 3, 4), (3, 4), axis=1),
    "div_bias": binary_case("elementwise_div", lambda a, b: a / b, (3, 5), (5,)),
    "relu": unary_case("relu", lambda a: np.maximum(a, 0), torch.relu),
    "relu6": unary_case("relu6", lambda a: np.clip(a, 0, 6), lambda a: torch.clamp(a, 0, 6), lo=-3, hi=9),
    "leaky_relu": unary_case("leaky_relu", lambda a: np.where(a > 0, a, 0.1 * a),
                             lambda a: torch.nn.functional.leaky_relu(a, 0.1), {"alpha": 0.1}),
    "sigmoid": unary_case("sigmoid", lambda a: 1 / (1 + np.exp(-a)), torch.sigmoid),
    "tanh": unary_case("tanh", np.tanh, torch.tanh),
    "gelu": unary_case("gelu", lambda a: 0.5 * a * (1 + _erf_np(a / math.sqrt(2))),
                       torch.nn.functional.gelu),
    "gelu_tanh": unary_case("gelu", _gelu_tanh_np,
                            lambda a: torch.nn.functional.gelu(a, approximate="tanh"),
                            {"approximate": True}),
    "swish": unary_case("swish", lambda a: a / (1 + np.exp(-1.5 * a)),
                        lambda a: a * torch.sigmoid(1.5 * a), {"beta": 1.5}),
    "hard_swish": unary_case("hard_swish", lambda a: a * np.clip(a + 3, 0, 6) / 6,
                             torch.nn.functional.hardswish, lo=-5, hi=5),
    "square": unary_case("square", np.square, torch.square),
    "softmax": dict(params={"a": rand(3, 5, lo=-2, hi=2)}, build=lambda b, p: b.softmax(p["a"], axis=-1),
                    np_fn=lambda p: _softmax_np(p["a"], -1), torch_fn=lambda p: torch.softmax(p["a"], -1)),
    "softmax_axis0": dict(params={"a": rand(3, 5, lo=-2, hi=2)}, build=lambda b, p: b.softmax(p["a"], axis=0),
                          np_fn=lambda p: _softmax_np(p["a"], 0), torch_fn=lambda p: torch.softmax(p["a"], 0)),
    "log_softmax": dict(params={"a": rand(3, 5, lo=-2, hi=2)},
                        build=lambda b, p: b._simple("log_softmax", p["a"], {"axis": -1}),
                        np_fn=lambda p: np.log(_softmax_np(p["a"], -1)),
                        torch_fn=lambda p: torch.log_softmax(p["a"], -1)),
    "matmul": matmul_case((3, 4), (4, 5), False, False),
    "matmul_tx": matmul_case((4, 3), (4, 5), True, False),
    "matmul_ty": matmul_case((3, 4), (5, 4), False, True),
    "matmul_txty": matmul_case((4, 3), (5, 4), True, True),
    "matmul_batch_bcast": matmul_case((2, 3, 4), (4, 5), False, False),
    "mul": dict(params={"x": rand(2, 3, 4), "y": rand(4, 5)}, build=_mul_op,
                np_fn=lambda p: p["x"] @ p["y"], torch_fn=lambda p: p["x"] @ p["y"]),
    "reduce_sum": _reduce("reduce_sum", [1], False),
    "reduce_mean_keep": _reduce("reduce_mean", [0, 2], True),
    "reshape_transpose": dict(params={"a": rand(2, 3, 4)},
                              build=lambda b, p: b.transpose2(b.reshape2(p["a"], [6, 4]), [1, 0]),
                              np_fn=lambda p: p["a"].reshape(6, 4).T,
                              torch_fn=lambda p: p["a"].reshape(6, 4).T),
    "softmax_with_cross_entropy": _swce_case(),
    "conv2d": conv_case((2, 3, 7, 7), (4, 3, 3, 3), padding=1),
    "conv2d_stride_dilation": conv_case((2, 2, 9, 9), (3, 2, 3, 3), stride=2, padding=1, dilation=2),
    "conv2d_stride_crop": conv_case((1, 2, 8, 8), (3, 2, 3, 3), stride=2),
    "conv2d_groups": conv_case((2, 4, 6, 6), (6, 2, 3, 3), padding=1, groups=2),
    "depthwise_conv2d": conv_case((2, 4, 6, 6), (4, 1, 3, 3), padding=1, groups=4, depthwise=True),
    "conv2d_nhwc": conv_layout_case((2, 7, 6, 3), (4, 3, 3, 3), padding=1, nhwc=True),
    "conv2d_same_stride2": conv_layout_case((2, 3, 8, 7), (4, 3, 3, 3), stride=2, padding=5,
                                            algorithm="SAME"),
    "conv2d_valid": conv_layout_case((1, 2, 6, 6), (3, 2, 3, 3), padding=2, algorithm="VALID"),
    "depthwise_conv2d_nhwc_same": conv_layout_case((2, 6, 5, 4), (4, 1, 3, 3), algorithm="SAME",
                                                   nhwc=True, groups=4, depthwise=True),
    "max_pool": pool_case("max", 2, 2, 0),
    "max_pool_overlap_pad": pool_case("max", 3, 2, 1, shape=(2, 2, 7, 7)),
    "avg_pool_exclusive_pad": pool_case("avg", 3, 2, 1, shape=(2, 2, 7, 7)),
    "avg_pool_inclusive_pad": pool_case("avg", 3, 2, 1, exclusive=False, shape=(2, 2, 7, 7)),
    "global_avg_pool": pool_case("avg", 1, 1, 0, global_pooling=True),
    "global_max_pool": pool_case("max", 1, 1, 0, global_pooling=True),
    "adaptive_avg_pool": pool_case("avg", 4, 1, 0, adaptive=True, shape=(2, 2, 7, 7)),
    "max_pool_nhwc": pool_layout_case("max", 2, 2, nhwc=True, shape=(2, 3, 6, 6)),
    "avg_pool_nhwc_pad": pool_layout_case("avg", 3, 2, 1, nhwc=True),
    "max_pool_same": pool_layout_case("max", 3, 2, algorithm="SAME"),
    "avg_pool_same": pool_layout_case("avg", 3, 2, algorithm="SAME"),
    "max_pool_ceil": pool_layout_case("max", 3, 2, ceil_mode=True, shape=(2, 2, 8, 6)),
    "avg_pool_ceil": pool_layout_case("avg", 3, 2, 1, ceil_mode=True, shape=(2, 2, 8, 6)),
    "batch_norm_train": _bn_case(),
    "batch_norm_train_2d": _bn_case((6, 4)),
    "concat_axis1": concat_case([(2, 3, 4), (2, 2, 4), (2, 1, 4)], 1),
    "concat_neg_axis": concat_case([(2, 3), (2, 5)], -1),
    "split_sections_unused": split_case((2, 6, 3), 1, [2, 0], sections=(1, 3, 2)),
    "split_num_neg_axis": split_case((2, 3, 6), -1, [2, 1, 0], num=3),
    "slice_neg_clamped": slice_case((3, 5, 4), [0, 2], [1, -3], [100, -1]),
    "slice_decrease": slice_case((3, 5, 4), [1], [2], [3], decrease=[1]),
    "slice_neg_start_decrease": slice_case((4, 3, 2), [0, 2], [-1, 0], [10000, 1], decrease=[0, 2]),
    "layer_norm_last": layer_norm_case((4, 6), 1),
    "layer_norm_axis1": layer_norm_case((2, 3, 4), 1),
    "layer_norm_axis2_scale_only": layer_norm_case((2, 3, 5), 2, bias=False),
    "layer_norm_plain": layer_norm_case((3, 2, 4), 1, scale=False, bias=False),
    "lookup_table_v2": lookup_case((3, 5)),
    "lookup_table_v2_padding": lookup_case((2, 3, 4), padding_idx=2),
    "lookup_table_padding": lookup_case((4, 3, 1), padding_idx=0, v1=True),
    "cross_entropy2": cross_entropy2_case((5, 4)),
    "cross_entropy2_softmax_3d": cross_entropy2_case((2, 3, 4), softmax=True),
    "square_error_cost": dict(params={"pred": rand(4, 3), "label": rand(4, 3)}, build=_square_error,
                              np_fn=lambda p: (p["pred"] - p["label"]) ** 2,
                              torch_fn=lambda p: (p["pred"] - p["label"]) ** 2),
}


def _compile_grads(case):
    b = ProgramBuilder()
    params = {k: b.param(k, v) for k, v in case["params"].items()}
    out = case["build"](b, params)
    r = rand(*out.shape)
    rv = b.feed("r", list(out.shape))
    prod = b.elementwise("elementwise_mul", out, rv)
    loss = b._simple("mean", prod, shape=[1])
    b.fetch(loss)
    return b, r, loss.name


def _trainer(case, tmp_path, **options):
    b, r, loss_name = _compile_grads(case)
    d = b.save(str(tmp_path / "model"))
    return paddle_mlir.train.compile(d, loss=loss_name, keep_gradients=True, lr=1e-30, **options), r


def _ours(case, tmp_path):
    trainer, r = _trainer(case, tmp_path)
    loss = trainer.step(r)
    return loss, trainer.last_gradients, r


def _torch_grads(case, r):
    tp = {k: torch.tensor(v.astype(np.float64), requires_grad=True) for k, v in case["params"].items()}
    t_loss = (case["torch_fn"](tp) * torch.from_numpy(r.astype(np.float64))).mean()
    t_loss.backward()
    return t_loss.item(), {k: v.grad.numpy() for k, v in tp.items()}


CONV_CASES = sorted(k for k in CASES if "conv" in k)


@pytest.mark.parametrize("name,kernels", [(n, k) for n in CONV_CASES for k in ("onednn", "none")])
def test_conv_gradient_kernels(name, kernels, tmp_path):
    """The convolutions' gradients both ways they are computed: oneDNN's
    backward primitives (the default) and the generated loop nests
    (kernels="none", which f64 programs also take), against PyTorch; the
    manifest names the kernels that ran."""
    case = CASES[name]
    trainer, r = _trainer(case, tmp_path, kernels=kernels)
    loss, grads = trainer.step(r), trainer.last_gradients
    t_loss, want = _torch_grads(case, r)
    assert abs(loss - t_loss) <= 1e-4 * abs(t_loss) + 1e-5
    for k in case["params"]:
        np.testing.assert_allclose(grads[k], want[k], rtol=1e-4, atol=1e-5, err_msg="%s: d/d%s" % (name, k))
    with open(os.path.join(trainer.artifact_dir, "manifest.json")) as f:
        calls = json.load(f)["kernels"]["calls"]
    backward = {k: v for k, v in calls.items() if "conv2d_grad" in k}
    if kernels == "none":
        assert backward == {}
    else:
        assert backward == {"pd.conv2d_grad_input -> pdk_conv2d_backward_data": 1,
                            "pd.conv2d_grad_filter -> pdk_conv2d_backward_weights": 1}, calls


@pytest.mark.parametrize("name", sorted(CASES))
def test_gradient_rule(name, tmp_path):
    case = CASES[name]
    loss, grads, r = _ours(case, tmp_path)
    p64 = {k: v.astype(np.float64) for k, v in case["params"].items()}

    # PyTorch autograd in float64.
    tp = {k: torch.tensor(v, requires_grad=True) for k, v in p64.items()}
    t_loss = (case["torch_fn"](tp) * torch.from_numpy(r.astype(np.float64))).mean()
    t_loss.backward()
    assert abs(loss - t_loss.item()) <= 1e-4 * abs(t_loss.item()) + 1e-5
    for k in case["params"]:
        want = tp[k].grad.numpy()
        np.testing.assert_allclose(grads[k], want, rtol=1e-4, atol=1e-5, err_msg="%s: d/d%s" % (name, k))

    # Central finite differences of the NumPy forward in float64, on a few
    # coordinates of each parameter.
    def f(p):
        return float((case["np_fn"](p) * r.astype(np.float64)).mean())
    eps = case.get("fd_eps", 1e-6)
    for k, v in p64.items():
        flat = v.reshape(-1)
        for idx in RNG.choice(flat.size, size=min(6, flat.size), replace=False):
            plus, minus = dict(p64), dict(p64)
            vp, vm = flat.copy(), flat.copy()
            vp[idx] += eps
            vm[idx] -= eps
            plus[k], minus[k] = vp.reshape(v.shape), vm.reshape(v.shape)
            fd = (f(plus) - f(minus)) / (2 * eps)
            got = grads[k].reshape(-1)[idx]
            assert abs(got - fd) <= 1e-4 * abs(fd) + 2e-6, "%s: d/d%s[%d] = %g, fd %g" % (name, k, idx, got, fd)


# ------------------------------------------------------------ MLP on SGD

def _digits():
    from sklearn.datasets import load_digits
    d = load_digits()
    x = (d.data / 16.0).astype(np.float32)
    y = d.target.astype(np.int64)
    order = np.random.default_rng(0).permutation(len(x))
    x, y = x[order], y[order]
    return x[:1400], y[:1400], x[1400:], y[1400:]


def _mlp_program(w1, b1, w2, b2, batch):
    b = ProgramBuilder()
    x = b.feed("x", [batch, 64])
    h = b.linear(x, b.param("fc1.w", w1), b.param("fc1.b", b1), act="relu")
    logits = b.linear(h, b.param("fc2.w", w2), b.param("fc2.b", b2))
    b.fetch(logits)
    return b


def _init_mlp():
    g = np.random.default_rng(7)
    w1 = (g.standard_normal((64, 32)) * 0.2).astype(np.float32)
    b1 = np.zeros(32, np.float32) + 0.01
    w2 = (g.standard_normal((32, 10)) * 0.2).astype(np.float32)
    b2 = np.zeros(10, np.float32)
    return w1, b1, w2, b2


def test_mlp_sgd_matches_pytorch(tmp_path):
    xs, ys, _, _ = _digits()
    batch, steps, lr = 32, 50, 0.2
    w1, b1, w2, b2 = _init_mlp()
    d = _mlp_program(w1, b1, w2, b2, batch).save(str(tmp_path / "mlp"))
    trainer = paddle_mlir.train.compile(d, loss_op="softmax_with_cross_entropy", label="label",
                                        optimizer="sgd", lr=lr)
    assert [s.name for s in trainer.inputs] == ["x", "label"]

    tw = [torch.tensor(a, requires_grad=True) for a in (w1, b1, w2, b2)]
    opt = torch.optim.SGD(tw, lr=lr)
    for step in range(steps):
        lo = (step * batch) % (len(xs) - batch)
        x, y = xs[lo:lo + batch], ys[lo:lo + batch]
        ours = trainer.step(x, y.reshape(batch, 1))
        opt.zero_grad()
        logits = torch.relu(torch.from_numpy(x) @ tw[0] + tw[1]) @ tw[2] + tw[3]
        ref = torch.nn.functional.cross_entropy(logits, torch.from_numpy(y))
        ref.backward()
        opt.step()
        assert abs(ours - ref.item()) <= 1e-4 * abs(ref.item()), "step %d: %g vs %g" % (step, ours, ref.item())
    params = trainer.parameters()
    for name, t in zip(["fc1.w", "fc1.b", "fc2.w", "fc2.b"], tw):
        np.testing.assert_allclose(params[name], t.detach().numpy(), rtol=1e-4, atol=1e-5, err_msg=name)


def test_square_error_regression_matches_pytorch(tmp_path):
    """A linear regression trained on mean(square_error_cost(pred, y)) (fluid's
    elementwise_sub + square) with SGD follows PyTorch's MSE step for step."""
    g = np.random.default_rng(3)
    batch, steps, lr = 16, 20, 0.1
    w0 = (g.standard_normal((5, 2)) * 0.3).astype(np.float32)
    b0 = np.zeros(2, np.float32)
    b = ProgramBuilder()
    x = b.feed("x", [batch, 5])
    y = b.feed("y", [batch, 2])
    pred = b.linear(x, b.param("w", w0), b.param("b", b0))
    cost = b.act("square", b.elementwise("elementwise_sub", pred, y))
    loss = b._simple("mean", cost, shape=[1])
    b.fetch(loss)
    trainer = paddle_mlir.train.compile(b.save(str(tmp_path / "reg")), loss=loss.name, lr=lr)
    tw, tb = torch.tensor(w0, requires_grad=True), torch.tensor(b0, requires_grad=True)
    opt = torch.optim.SGD([tw, tb], lr=lr)
    true_w = g.standard_normal((5, 2)).astype(np.float32)
    for step in range(steps):
        xs = g.standard_normal((batch, 5)).astype(np.float32)
        ys = xs @ true_w + 0.5
        ours = trainer.step(xs, ys)
        opt.zero_grad()
        ref = torch.nn.functional.mse_loss(torch.from_numpy(xs) @ tw + tb, torch.from_numpy(ys))
        ref.backward()
        opt.step()
        assert abs(ours - ref.item()) <= 1e-4 * abs(ref.item()), "step %d: %g vs %g" % (step, ours, ref.item())
    params = trainer.parameters()
    np.testing.assert_allclose(params["w"], tw.detach().numpy(), rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(params["b"], tb.detach().numpy(), rtol=1e-4, atol=1e-5)


def _lenet_program(w, batch):
    """conv 3x3 (8) + batch_norm + relu + max pool 2, conv 3x3 (16) + relu +
    avg pool 2, flatten, fc 10, on 1x8x8 digit images."""
    b = ProgramBuilder()
    x = b.feed("x", [batch, 1, 8, 8])
    h = b.conv2d(x, b.param("conv1.w", w["conv1.w"]), padding=1)
    h = b.batch_norm(h, b.param("bn1.scale", w["bn1.scale"]), b.param("bn1.bias", w["bn1.bias"]),
                     b.param("bn1.mean", w["bn1.mean"]), b.param("bn1.var", w["bn1.var"]))
    h = b.pool2d(b.relu(h), "max", 2, stride=2)
    h = b.relu(b.conv2d(h, b.param("conv2.w", w["conv2.w"]), padding=1))
    h = b.flatten(b.pool2d(h, "avg", 2, stride=2), 1, 3)
    b.fetch(b.linear(h, b.param("fc.w", w["fc.w"]), b.param("fc.b", w["fc.b"])))
    return b


def _init_lenet():
    g = np.random.default_rng(11)
    return {"conv1.w": (g.standard_normal((8, 1, 3, 3)) * 0.3).astype(np.float32),
            "bn1.scale": np.ones(8, np.float32), "bn1.bias": np.zeros(8, np.float32),
            "bn1.mean": np.zeros(8, np.float32), "bn1.var": np.ones(8, np.float32),
            "conv2.w": (g.standard_normal((16, 8, 3, 3)) * 0.15).astype(np.float32),
            "fc.w": (g.standard_normal((64, 10)) * 0.1).astype(np.float32),
            "fc.b": np.zeros(10, np.float32)}


def test_lenet_sgd_matches_pytorch(tmp_path):
    """A CNN with batch_norm in training mode, 50 SGD steps: the loss and the
    parameters follow PyTorch's, and the running statistics Paddle's update
    (momentum 0.9, biased batch variance)."""
    xs, ys, _, _ = _digits()
    xs = xs.reshape(-1, 1, 8, 8)
    batch, steps, lr = 16, 50, 0.1
    w = _init_lenet()
    d = _lenet_program(w, batch).save(str(tmp_path / "lenet"))
    trainer = paddle_mlir.train.compile(d, loss_op="softmax_with_cross_entropy", lr=lr)
    assert sorted(trainer.trainable) == sorted(w)

    F = torch.nn.functional
    t = {k: torch.tensor(v, requires_grad=k not in ("bn1.mean", "bn1.var")) for k, v in w.items()}
    trained = [k for k in w if k not in ("bn1.mean", "bn1.var")]
    opt = torch.optim.SGD([t[k] for k in trained], lr=lr)
    running_mean, running_var = w["bn1.mean"].astype(np.float64), w["bn1.var"].astype(np.float64)
    for step in range(steps):
        lo = (step * batch) % (len(xs) - batch)
        x, y = xs[lo:lo + batch], ys[lo:lo + batch]
        ours = trainer.step(x, y.reshape(batch, 1))
        opt.zero_grad()
        c1 = F.conv2d(torch.from_numpy(x), t["conv1.w"], padding=1)
        bm, bv = c1.detach().mean(dim=(0, 2, 3)).numpy(), c1.detach().var(dim=(0, 2, 3), unbiased=False).numpy()
        running_mean = 0.9 * running_mean + 0.1 * bm
        running_var = 0.9 * running_var + 0.1 * bv
        h = F.batch_norm(c1, None, None, t["bn1.scale"], t["bn1.bias"], training=True, eps=1e-5)
        h = F.max_pool2d(F.relu(h), 2, 2)
        h = F.avg_pool2d(F.relu(F.conv2d(h, t["conv2.w"], padding=1)), 2, 2).flatten(1)
        ref = F.cross_entropy(h @ t["fc.w"] + t["fc.b"], torch.from_numpy(y))
        ref.backward()
        opt.step()
        assert abs(ours - ref.item()) <= 1e-4 * abs(ref.item()), "step %d: %g vs %g" % (step, ours, ref.item())
    params = trainer.parameters()
    for k in trained:
        np.testing.assert_allclose(params[k], t[k].detach().numpy(), rtol=1e-4, atol=1e-5, err_msg=k)
    np.testing.assert_allclose(params["bn1.mean"], running_mean, rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(params["bn1.var"], running_var, rtol=1e-4, atol=1e-5)


def test_mlp_learns_digits(tmp_path):
    """Real data: two epochs of SGD on 1400 digits, then the trained
    weights compiled for inference classify the 397 held-out ones."""
    xs, ys, xt, yt = _digits()
    batch = 50
    w1, b1, w2, b2 = _init_mlp()
    d = _mlp_program(w1, b1, w2, b2, batch).save(str(tmp_path / "mlp"))
    trainer = paddle_mlir.train.compile(d, loss_op="softmax_with_cross_entropy", lr=0.5)
    first = None
    for epoch in range(8):
        for lo in range(0, len(xs) - batch + 1, batch):
            loss = trainer.step(xs[lo:lo + batch], ys[lo:lo + batch].reshape(-1, 1))
            first = loss if first is None else first
    assert loss < first / 4, (first, loss)
    p = trainer.parameters()
    infer_dir = _mlp_program(p["fc1.w"], p["fc1.b"], p["fc2.w"], p["fc2.b"], len(xt)).save(str(tmp_path / "trained"))
    model = paddle_mlir.compile(infer_dir)
    accuracy = float((model(xt)[0].argmax(axis=1) == yt).mean())
    assert accuracy >= 0.93, accuracy


def test_set_parameters_round_trip(tmp_path):
    w1, b1, w2, b2 = _init_mlp()
    d = _mlp_program(w1, b1, w2, b2, 4).save(str(tmp_path / "mlp"))
    trainer = paddle_mlir.train.compile(d, loss_op="softmax_with_cross_entropy", lr=0.1)
    np.testing.assert_array_equal(trainer.parameters()["fc1.w"], w1)
    trainer.set_parameters({"fc1.w": np.zeros_like(w1)})
    np.testing.assert_array_equal(trainer.parameters()["fc1.w"], 0)
    with pytest.raises(ValueError, match=r"weight 'fc1.w' is float32\[64, 32\], got float32\[3, 3\]"):
        trainer.set_parameters({"fc1.w": np.zeros((3, 3), np.float32)})


def test_updates_written_in_place(tmp_path):
    """A parameter's update is written into the parameter itself: the step's
    update output is the new value (read from the parameter), and the next
    step starts from it. loss = mean(x * w), SGD lr 0.5: each step subtracts
    0.5 * x / n from w."""
    x = rand(6)
    w0 = rand(6)
    b = ProgramBuilder()
    w = b.param("w", w0)
    prod = b.elementwise("elementwise_mul", b.feed("x", [6]), w)
    b.fetch(b._simple("mean", prod, shape=[1]))
    d = b.save(str(tmp_path / "m"))
    trainer = paddle_mlir.train.compile(d, loss="mean_0.tmp_0", optimizer="sgd", lr=0.5)
    model = paddle_mlir.load(trainer.artifact_dir)
    outs = [o.name for o in model.outputs]
    assert outs == ["mean_0.tmp_0", "w"], outs
    want = w0.astype(np.float64)
    for step in range(3):
        loss, new_w = model(x)
        # float32 sums of six terms in [-1, 1]: the loss can be a small
        # difference (cancellation), so its error is absolute (~1e-7); each
        # step moves it by 0.5 * mean(x * x) / 6, far more.
        np.testing.assert_allclose(loss, [np.mean(x * want)], rtol=1e-6, atol=1e-6)
        want = want - 0.5 * x / 6
        np.testing.assert_allclose(new_w, want, rtol=1e-6, atol=1e-7, err_msg="step %d" % step)


def test_instances_start_from_the_weights_file(tmp_path):
    """The runtime maps the weights file and drops a trained weight's pages
    once an instance has copied them: every instance still starts from the
    file's values, whatever the others did. A recompile into the same
    directory replaces the files (rename), so a loaded model keeps running
    on its own weights."""
    from paddle_mlir import _pdrt
    x, w0 = rand(6), rand(6)

    def program(w_init, path):
        b = ProgramBuilder()
        w = b.param("w", w_init)
        prod = b.elementwise("elementwise_mul", b.feed("x", [6]), w)
        b.fetch(b._simple("mean", prod, shape=[1]))
        return b.save(str(path))

    out = tmp_path / "step"
    trainer = paddle_mlir.train.compile(program(w0, tmp_path / "m"), loss="mean_0.tmp_0",
                                        optimizer="sgd", lr=0.5, output_dir=str(out))
    model = paddle_mlir.load(trainer.artifact_dir)
    first = model._instance()
    for _ in range(3):
        first.run(model._bind((x,), {}))
    want = w0.astype(np.float64) - 0.5 * x / 6
    # Recompiled in place with other initial weights: the loaded model's
    # file is the old one.
    w3 = (w0 * 3).astype(np.float32)
    paddle_mlir.train.compile(program(w3, tmp_path / "m3"), loss="mean_0.tmp_0",
                              optimizer="sgd", lr=0.5, output_dir=str(out))
    second = _pdrt.Instance(model._model)
    loss, new_w = second.run(model._bind((x,), {}))
    np.testing.assert_allclose(loss, [np.mean(x * w0)], rtol=1e-6)
    np.testing.assert_allclose(new_w, want, rtol=1e-6, atol=1e-7)
    # A fresh load reads the new file.
    loss3, _ = paddle_mlir.load(str(out))(x)
    np.testing.assert_allclose(loss3, [np.mean(x * w3)], rtol=1e-5)


def test_step_copies_out_only_loss_and_gradients(tmp_path):
    """The runtime binding's run(fetch=) copies only the outputs asked for
    (None for the others); TrainStep asks for the loss and the gradients,
    never the updated weights, which stay in the instance."""
    b = ProgramBuilder()
    w = b.param("w", rand(6))
    prod = b.elementwise("elementwise_mul", b.feed("x", [6]), w)
    b.fetch(b._simple("mean", prod, shape=[1]))
    d = b.save(str(tmp_path / "m"))
    trainer = paddle_mlir.train.compile(d, loss="mean_0.tmp_0", optimizer="sgd", lr=0.5)
    assert trainer._fetch == [0]
    model = paddle_mlir.load(trainer.artifact_dir)
    x = rand(6)
    loss, new_w = model._instance().run(model._bind((x,), {}), fetch=[0])
    assert new_w is None and loss.shape == (1,)
    with pytest.raises(TypeError):
        model._instance().run(model._bind((x,), {}), fetch="all")


# ---------------------------------------------------------------- errors

def test_op_without_rule_is_named(tmp_path):
    b = ProgramBuilder()
    a = b.elementwise("elementwise_add", b.param("a", rand(2, 5)), b.feed("x", [2, 5]))
    c = b.cumsum(a, axis=1)
    b.fetch(b._simple("mean", c, shape=[1]))
    d = b.save(str(tmp_path / "m"))
    with pytest.raises(RuntimeError, match=r"no gradient rule for 'pd.cumsum'"):
        paddle_mlir.train.compile(d, loss="mean_0.tmp_0")


def test_loss_must_be_scalar(tmp_path):
    b = ProgramBuilder()
    a = b.elementwise("elementwise_add", b.param("a", rand(2, 5)), b.feed("x", [2, 5]))
    b.fetch(b.act("relu", a))
    d = b.save(str(tmp_path / "m"))
    with pytest.raises(RuntimeError, match=r"must be a float tensor of one element, got 'tensor<2x5xf32>'"):
        paddle_mlir.train.compile(d, loss="relu_0.tmp_0")


def test_bad_options(tmp_path):
    w1, b1, w2, b2 = _init_mlp()
    d = _mlp_program(w1, b1, w2, b2, 4).save(str(tmp_path / "mlp"))
    with pytest.raises(ValueError, match="--optimizer must be sgd, momentum, adam or adamw, not 'lamb'"):
        paddle_mlir.train.compile(d, loss_op="softmax_with_cross_entropy", optimizer="lamb")
    with pytest.raises(ValueError, match="--lr must be a positive number"):
        paddle_mlir.train.compile(d, loss_op="softmax_with_cross_entropy", lr=-1)
    with pytest.raises(ValueError, match="exactly one of"):
        paddle_mlir.train.compile(d)
    with pytest.raises(RuntimeError, match="needs static shapes"):
        dyn = _mlp_program(w1, b1, w2, b2, -1).save(str(tmp_path / "dyn"))
        paddle_mlir.train.compile(dyn, loss_op="softmax_with_cross_entropy")
    # Fixing the batch with input_shapes makes the same program trainable.
    trainer = paddle_mlir.train.compile(dyn, loss_op="softmax_with_cross_entropy", input_shapes={"x": [4, 64]})
    assert trainer.step(np.zeros((4, 64), np.float32), np.zeros((4, 1), np.int64)) == pytest.approx(math.log(10), rel=0.3)


def _runtime_shape_op(kind, b, a):
    """concat, split or slice of `a` (a parameter) whose axis or starts come
    from a run-time input."""
    if kind == "concat":
        out = b.tmp("concat", [2, 6])
        b.op("concat", {"X": [a, b.feed("x", [2, 3])], "AxisTensor": [b.feed("axis", [1], "int32")]},
             {"Out": [out]}, {"axis": 1})
        return out
    if kind == "split":
        outs = [b.tmp("split", [2, 1]) for _ in range(3)]
        b.op("split", {"X": [a], "AxisTensor": [b.feed("axis", [1], "int32")]}, {"Out": outs},
             {"num": 3, "axis": 1})
        return outs[0]
    out = b.tmp("slice", [1, 3])
    b.op("slice", {"Input": [a], "StartsTensor": [b.feed("starts", [1], "int64")]}, {"Out": [out]},
         {"axes": [0], "starts": [0], "ends": [1]})
    return out


@pytest.mark.parametrize("kind,what", [("concat", "a run-time AxisTensor"),
                                       ("split", "a run-time AxisTensor"),
                                       ("slice", "run-time starts or ends")])
def test_runtime_axis_has_no_rule(kind, what, tmp_path):
    """The gradients of concat, split and slice need their axis, starts and
    ends at compile time: run-time inputs are an error naming the op."""
    b = ProgramBuilder()
    out = _runtime_shape_op(kind, b, b.param("a", rand(2, 3)))
    b.fetch(b._simple("mean", out, shape=[1]))
    d = b.save(str(tmp_path / "m"))
    with pytest.raises(RuntimeError, match=r"no gradient rule for 'pd\.%s' with %s" % (kind, what)):
        paddle_mlir.train.compile(d, loss="mean_0.tmp_0")


def _block_program(w, batch):
    """A ResNet stem and bottleneck at 16/32 channels: conv 3x3 + batch_norm +
    relu + max pool 2; conv 1x1 + bn + relu, conv 3x3 + bn + relu, conv 1x1
    + bn, residual add + relu; global average pool, fc 10."""
    b = ProgramBuilder()
    x = b.feed("x", [batch, 16, 8, 8])

    def bn(h, i):
        return b.batch_norm(h, *[b.param("bn%d.%s" % (i, k), w["bn%d.%s" % (i, k)])
                                 for k in ("scale", "bias", "mean", "var")])

    s = b.pool2d(b.relu(bn(b.conv2d(x, b.param("c0", w["c0"]), padding=1), 0)), "max", 2, stride=2)
    h = b.relu(bn(b.conv2d(s, b.param("c1", w["c1"])), 1))
    h = b.relu(bn(b.conv2d(h, b.param("c2", w["c2"]), padding=1), 2))
    h = bn(b.conv2d(h, b.param("c3", w["c3"])), 3)
    h = b.relu(b.elementwise("elementwise_add", h, s))
    h = b.flatten(b.pool2d(h, "avg", 1, global_pooling=True), 1, 3)
    b.fetch(b.linear(h, b.param("fc.w", w["fc.w"]), b.param("fc.b", w["fc.b"])))
    return b


def test_blocked_layout_train_step_matches_pytorch(tmp_path):
    """The train step of a ResNet-style block whose channels are multiples
    of 16: pd-train-layouts keeps its activations nChw16c through the
    convolution kernels, batch norms, relus, the residual add and their
    gradients (the manifest says how many ops), converting at the max
    pool. 10 momentum steps: the loss and every parameter (running
    statistics included) follow PyTorch's."""
    g = np.random.default_rng(5)
    shapes = {"c0": (32, 16, 3, 3), "c1": (16, 32, 1, 1), "c2": (16, 16, 3, 3), "c3": (32, 16, 1, 1)}
    w = {k: (g.standard_normal(s) * (2.0 / np.prod(s[1:])) ** 0.5).astype(np.float32)
         for k, s in shapes.items()}
    for i, c in enumerate((32, 16, 16, 32)):
        w["bn%d.scale" % i] = (1 + 0.1 * g.standard_normal(c)).astype(np.float32)
        w["bn%d.bias" % i] = (0.1 * g.standard_normal(c)).astype(np.float32)
        w["bn%d.mean" % i] = np.zeros(c, np.float32)
        w["bn%d.var" % i] = np.ones(c, np.float32)
    w["fc.w"] = (g.standard_normal((32, 10)) * 0.2).astype(np.float32)
    w["fc.b"] = np.zeros(10, np.float32)
    batch, steps, lr = 4, 10, 0.05
    xs = g.standard_normal((steps, batch, 16, 8, 8)).astype(np.float32)
    ys = g.integers(0, 10, size=(steps, batch)).astype(np.int64)
    d = _block_program(w, batch).save(str(tmp_path / "block"))
    trainer = paddle_mlir.train.compile(d, loss_op="softmax_with_cross_entropy", lr=lr,
                                        optimizer="momentum", momentum=0.9)
    with open(os.path.join(trainer.artifact_dir, "manifest.json")) as f:
        layout = json.load(f)["kernels"]["train_layout"]
    assert layout["layout"] == "nChw16c" and layout["ops"] >= 20, layout

    F = torch.nn.functional
    running = {k for k in w if k.endswith(".mean") or k.endswith(".var")}
    t = {k: torch.tensor(v, requires_grad=k not in running) for k, v in w.items()}
    stats = {k: w[k].astype(np.float64) for k in running}
    opt = torch.optim.SGD([t[k] for k in w if k not in running], lr=lr, momentum=0.9)

    def bn(h, i):
        m = h.detach().mean(dim=(0, 2, 3)).numpy()
        v = h.detach().var(dim=(0, 2, 3), unbiased=False).numpy()
        stats["bn%d.mean" % i] = 0.9 * stats["bn%d.mean" % i] + 0.1 * m
        stats["bn%d.var" % i] = 0.9 * stats["bn%d.var" % i] + 0.1 * v
        return F.batch_norm(h, None, None, t["bn%d.scale" % i], t["bn%d.bias" % i], training=True, eps=1e-5)

    for step in range(steps):
        ours = trainer.step(xs[step], ys[step].reshape(batch, 1))
        opt.zero_grad()
        s = F.max_pool2d(F.relu(bn(F.conv2d(torch.from_numpy(xs[step]), t["c0"], padding=1), 0)), 2, 2)
        h = F.relu(bn(F.conv2d(s, t["c1"]), 1))
        h = F.relu(bn(F.conv2d(h, t["c2"], padding=1), 2))
        h = F.relu(bn(F.conv2d(h, t["c3"]), 3) + s).mean(dim=(2, 3))
        ref = F.cross_entropy(h @ t["fc.w"] + t["fc.b"], torch.from_numpy(ys[step]))
        ref.backward()
        opt.step()
        assert abs(ours - ref.item()) <= 1e-4 * abs(ref.item()), "step %d: %g vs %g" % (step, ours, ref.item())
    params = trainer.parameters()
    for k in w:
        want = stats[k] if k in running else t[k].detach().numpy()
        np.testing.assert_allclose(params[k], want, rtol=1e-4, atol=1e-5, err_msg=k)
