"""A NumPy reference evaluator for Paddle inference programs.

Written separately from the compiler (it shares nothing with the C++
importer or the pd lowering) so it can serve as an independent oracle: it
parses the ProgramDesc with the Python protobuf classes, reads parameter
records with its own reader, and executes each op with NumPy following
Paddle's operator definitions.

    from paddle_mlir.reference import load
    model = load("model_dir")              # or a .pdmodel / __model__ path
    outputs = model.run({"image": x})      # {fetch name: ndarray}
"""

import math
import os
import struct

import numpy as np

from . import framework_pb2 as fp

NP_DTYPE = {
    fp.VarType.BOOL: np.bool_, fp.VarType.INT16: np.int16, fp.VarType.INT32: np.int32,
    fp.VarType.INT64: np.int64, fp.VarType.FP16: np.float16, fp.VarType.FP32: np.float32,
    fp.VarType.FP64: np.float64, fp.VarType.UINT8: np.uint8, fp.VarType.INT8: np.int8,
}


def read_records(data, count=None):
    """Parses tensor records back to back; returns a list of ndarrays."""
    out, off = [], 0
    while off < len(data) and (count is None or len(out) < count):
        version, lod_level = struct.unpack_from("<IQ", data, off)
        off += 12
        if version != 0:
            raise ValueError("record version %d at byte %d" % (version, off - 12))
        for _ in range(lod_level):
            (n,) = struct.unpack_from("<Q", data, off)
            off += 8 + n
        _, desc_size = struct.unpack_from("<Ii", data, off)
        off += 8
        desc = fp.VarType.TensorDesc()
        desc.ParseFromString(data[off:off + desc_size])
        off += desc_size
        dtype = np.dtype(NP_DTYPE[desc.data_type])
        shape = tuple(desc.dims)
        n = int(np.prod(shape)) * dtype.itemsize
        out.append(np.frombuffer(data[off:off + n], dtype).reshape(shape).copy())
        off += n
    return out


def _attrs(op):
    a = {}
    for at in op.attrs:
        t = at.type
        a[at.name] = {fp.INT: lambda: at.i, fp.FLOAT: lambda: at.f, fp.STRING: lambda: at.s,
                      fp.INTS: lambda: list(at.ints), fp.FLOATS: lambda: list(at.floats),
                      fp.STRINGS: lambda: list(at.strings), fp.BOOLEAN: lambda: at.b,
                      fp.BOOLEANS: lambda: list(at.bools), fp.LONG: lambda: at.l,
                      fp.LONGS: lambda: list(at.longs), fp.FLOAT64: lambda: at.float64,
                      fp.FLOAT64S: lambda: list(at.float64s), fp.BLOCK: lambda: at.block_idx,
                      fp.SCALARS: lambda: [_scalar(v) for v in at.scalars]}.get(t, lambda: None)()
    return a


def _scalar(v):
    """The number a Scalar message (Paddle 2.6+ attributes) holds."""
    if v.type == fp.Scalar.BOOLEAN:
        return bool(v.b)
    if v.type == fp.Scalar.LONG:
        return int(v.i)
    if v.type == fp.Scalar.COMPLEX128:
        return complex(v.c.r, v.c.i)
    return float(v.r)


def _copy(v):
    """A copy of a tensor or of a tensor array (a list of tensors)."""
    return [np.array(e) for e in v] if isinstance(v, list) else np.array(v)


def _align(y, x_rank, axis):
    """Reshapes Y so it broadcasts against X with Paddle's axis rule."""
    if axis == -1 or y.ndim == x_rank:
        return y
    return y.reshape(y.shape + (1,) * (x_rank - axis - y.ndim))


def _elementwise(fn):
    def run(ins, a):
        x, y = ins["X"][0], ins["Y"][0]
        axis = a.get("axis", -1)
        if x.ndim >= y.ndim:
            y = _align(y, x.ndim, axis)
        else:
            x = _align(x, y.ndim, axis)
        return {"Out": fn(x, y)}
    return run


def _pads(p):
    return (p[0], p[0], p[1], p[1]) if len(p) == 2 else tuple(p)


def _conv2d(ins, a):
    x, w = ins["Input"][0], ins["Filter"][0]
    nhwc = a.get("data_format", "NCHW") == "NHWC"
    if nhwc:
        x = x.transpose(0, 3, 1, 2)
    s, d, g = a.get("strides", [1, 1]), a.get("dilations", [1, 1]), a.get("groups", 1)
    pt, pb, pl, pr = _pads(a.get("paddings", [0, 0]))
    algo = a.get("padding_algorithm", "EXPLICIT")
    kh, kw = w.shape[2], w.shape[3]
    if algo == "VALID":
        pt = pb = pl = pr = 0
    elif algo == "SAME":
        def same(i, k, st, dl):
            out = -(-i // st)
            total = max((out - 1) * st + dl * (k - 1) + 1 - i, 0)
            return total // 2, total - total // 2
        pt, pb = same(x.shape[2], kh, s[0], d[0])
        pl, pr = same(x.shape[3], kw, s[1], d[1])
    x = np.pad(x, ((0, 0), (0, 0), (pt, pb), (pl, pr)))
    n, c, h, wd = x.shape
    oh = (h - (d[0] * (kh - 1) + 1)) // s[0] + 1
    ow = (wd - (d[1] * (kw - 1) + 1)) // s[1] + 1
    cg, og = c // g, w.shape[0] // g
    out = np.empty((n, w.shape[0], oh, ow), np.float32)
    for gi in range(g):
        xs = x[:, gi * cg:(gi + 1) * cg]
        cols = np.empty((n, cg, kh, kw, oh, ow), x.dtype)
        for i in range(kh):
            for j in range(kw):
                hi, wj = i * d[0], j * d[1]
                cols[:, :, i, j] = xs[:, :, hi:hi + s[0] * (oh - 1) + 1:s[0], wj:wj + s[1] * (ow - 1) + 1:s[1]]
        wg = w[gi * og:(gi + 1) * og]
        out[:, gi * og:(gi + 1) * og] = np.einsum("ncijhw,ocij->nohw", cols, wg, optimize=True)
    # What Paddle's oneDNN kernel adds: Bias per output channel, ResidualData
    # with fuse_residual_connection, then a fused relu.
    if ins.get("Bias"):
        out = out + ins["Bias"][0].reshape(1, -1, 1, 1)
    out = out.transpose(0, 2, 3, 1) if nhwc else out
    if ins.get("ResidualData") and a.get("fuse_residual_connection", False):
        out = out + ins["ResidualData"][0]
    if a.get("fuse_activation", "") == "relu" or a.get("fuse_relu", False):
        out = np.maximum(out, 0)
    return {"Output": out.astype(np.float32)}


def _pool2d(ins, a):
    x = ins["X"][0]
    kind = a.get("pooling_type", "max")
    n, c, h, w = x.shape
    if a.get("global_pooling", False):
        r = x.max(axis=(2, 3), keepdims=True) if kind == "max" else x.mean(axis=(2, 3), keepdims=True)
        return {"Out": r}
    ks = a["ksize"]
    if a.get("adaptive", False):
        out = np.empty((n, c, ks[0], ks[1]), x.dtype)
        for i in range(ks[0]):
            h0, h1 = (i * h) // ks[0], -(-((i + 1) * h) // ks[0])
            for j in range(ks[1]):
                w0, w1 = (j * w) // ks[1], -(-((j + 1) * w) // ks[1])
                win = x[:, :, h0:h1, w0:w1]
                out[:, :, i, j] = win.max(axis=(2, 3)) if kind == "max" else win.mean(axis=(2, 3))
        return {"Out": out}
    s = a.get("strides", [1, 1])
    pt, pb, pl, pr = _pads(a.get("paddings", [0, 0]))
    ceil = a.get("ceil_mode", False)
    algo = a.get("padding_algorithm", "EXPLICIT")

    def osz(i, k, st, p0, p1):
        if algo == "SAME":  # ceil(i / st) whatever ceil_mode says
            return -(-i // st)
        num = i + p0 + p1 - k
        return (num + st - 1) // st + 1 if ceil else num // st + 1

    def same(i, k, st):  # the padding SAME needs, the odd pixel at the end
        total = max((-(-i // st) - 1) * st + k - i, 0)
        return total // 2, total - total // 2
    if algo == "VALID":
        pt = pb = pl = pr = 0
    elif algo == "SAME":
        (pt, pb), (pl, pr) = same(h, ks[0], s[0]), same(w, ks[1], s[1])
    oh, ow = osz(h, ks[0], s[0], pt, pb), osz(w, ks[1], s[1], pl, pr)
    out = np.empty((n, c, oh, ow), x.dtype)
    exclusive = a.get("exclusive", True)
    for i in range(oh):
        h0 = i * s[0] - pt
        hs, he = max(h0, 0), min(h0 + ks[0], h)
        for j in range(ow):
            w0 = j * s[1] - pl
            ws, we = max(w0, 0), min(w0 + ks[1], w)
            win = x[:, :, hs:he, ws:we]
            if kind == "max":
                out[:, :, i, j] = win.max(axis=(2, 3))
            else:
                cnt = (he - hs) * (we - ws) if exclusive else ks[0] * ks[1]
                out[:, :, i, j] = win.sum(axis=(2, 3)) / cnt
    return {"Out": out}


def _batch_norm(ins, a):
    x = ins["X"][0]
    ch = x.ndim - 1 if a.get("data_layout", "NCHW") == "NHWC" else 1
    shape = [1] * x.ndim
    shape[ch] = -1

    def r(v):
        return v.reshape(shape)
    eps = a.get("epsilon", 1e-5)
    y = (x - r(ins["Mean"][0])) / np.sqrt(r(ins["Variance"][0]) + eps) * r(ins["Scale"][0]) + r(ins["Bias"][0])
    return {"Y": y.astype(x.dtype)}


def _layer_norm(ins, a):
    x = ins["X"][0]
    b = a.get("begin_norm_axis", 1)
    axes = tuple(range(b, x.ndim))
    mean = x.mean(axis=axes, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=axes, keepdims=True)
    y = (x - mean) / np.sqrt(var + a.get("epsilon", 1e-5))
    tail = x.shape[b:]
    if ins.get("Scale"):
        y = y * ins["Scale"][0].reshape(tail)
    if ins.get("Bias"):
        y = y + ins["Bias"][0].reshape(tail)
    return {"Y": y.astype(x.dtype)}


def _mul(ins, a):
    x, y = ins["X"][0], ins["Y"][0]
    xn, yn = a.get("x_num_col_dims", 1), a.get("y_num_col_dims", 1)
    x2 = x.reshape(int(np.prod(x.shape[:xn])), -1)
    y2 = y.reshape(int(np.prod(y.shape[:yn])), -1)
    return {"Out": (x2 @ y2).reshape(x.shape[:xn] + y.shape[yn:])}


def _matmul(tx_key, ty_key, alpha_key=None):
    def run(ins, a):
        x, y = ins["X"][0], ins["Y"][0]
        if a.get(tx_key, False) and x.ndim >= 2:
            x = np.swapaxes(x, -1, -2)
        if a.get(ty_key, False) and y.ndim >= 2:
            y = np.swapaxes(y, -1, -2)
        out = np.matmul(x, y)
        if alpha_key:
            out = out * a.get(alpha_key, 1.0)
        return {"Out": out.astype(ins["X"][0].dtype)}
    return run


def _softmax(x, axis):
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def _reshape2(ins, a):
    x = ins["X"][0]
    # The target comes from the ShapeTensor list (one number per dim) first,
    # then the Shape tensor, then the attribute; 0 keeps the input's dim.
    if ins.get("ShapeTensor"):
        target = [int(np.asarray(t).reshape(-1)[0]) for t in ins["ShapeTensor"]]
    elif ins.get("Shape"):
        target = [int(v) for v in np.asarray(ins["Shape"][0]).reshape(-1)]
    else:
        target = list(a["shape"])
    shape = [x.shape[i] if d == 0 else d for i, d in enumerate(target)]
    return {"Out": x.reshape(shape)}


def _squeeze2(ins, a):
    x = ins["X"][0]
    axes = [ax % x.ndim for ax in a.get("axes", [])] or [i for i, d in enumerate(x.shape) if d == 1]
    return {"Out": x.reshape([d for i, d in enumerate(x.shape) if not (i in axes and d == 1)])}


def _unsqueeze2(ins, a):
    x = ins["X"][0]
    shape = list(x.shape)
    for ax in a["axes"]:
        shape.insert(ax if ax >= 0 else ax + len(shape) + 1, 1)
    return {"Out": x.reshape(shape)}


def _flatten2(ins, a):
    x = ins["X"][0]
    axis = a.get("axis", 1)
    return {"Out": x.reshape(int(np.prod(x.shape[:axis])), int(np.prod(x.shape[axis:])))}


def _fill_constant(ins, a):
    if ins.get("ValueTensor"):
        raise NotImplementedError("reference: fill_constant with a run-time value")
    dtype = NP_DTYPE[a.get("dtype", 5)]
    value = float(a["str_value"]) if a.get("str_value") else a.get("value", 0.0)
    if ins.get("ShapeTensor"):
        shape = [int(d) for d in ins["ShapeTensor"][0].reshape(-1)]
    elif ins.get("ShapeTensorList"):
        shape = [int(t.reshape(-1)[0]) for t in ins["ShapeTensorList"]]
    else:
        shape = [int(d) for d in a.get("shape", [])]
    return {"Out": np.full(shape, value, dtype=dtype)}


def _flatten(ins, a):
    x = ins["X"][0]
    s, e = a.get("start_axis", 1) % max(x.ndim, 1), a.get("stop_axis", 1) % max(x.ndim, 1)
    return {"Out": x.reshape(x.shape[:s] + (-1,) + x.shape[e + 1:])}


def _lookup(ins, a):
    w, ids = ins["W"][0], ins["Ids"][0]
    out = w[ids]
    pad = a.get("padding_idx", -1)
    if pad != -1:
        out[ids == (pad if pad >= 0 else pad + w.shape[0])] = 0
    return {"Out": out}


def _cumsum(ins, a):
    x = ins["X"][0]
    if a.get("flatten", False):
        x = x.reshape(-1)
    axis = a.get("axis", -1)
    if a.get("reverse", False):
        x = np.flip(x, axis)
    r = np.cumsum(x, axis=axis, dtype=x.dtype)
    if a.get("exclusive", False):
        r = r - x
    if a.get("reverse", False):
        r = np.flip(r, axis)
    return {"Out": r}


_erf = np.vectorize(math.erf, otypes=[np.float64])


def _gelu(x, approximate):
    if approximate:
        return (0.5 * x * (1 + np.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x ** 3)))).astype(x.dtype)
    return (0.5 * x * (1 + _erf(x / math.sqrt(2)))).astype(x.dtype)


def _scale(ins, a):
    x = ins["X"][0]
    s, b = a.get("scale", 1.0), a.get("bias", 0.0)
    y = x * s + b if a.get("bias_after_scale", True) else (x + b) * s
    return {"Out": y.astype(x.dtype)}


def _cubic_weights(t):
    """Keys' cubic convolution weights (A = -0.75) of the taps at -1, 0, 1, 2."""
    A = np.float32(-0.75)
    one = np.float32(1)

    def near(v):
        return ((A + 2) * v - (A + 3)) * v * v + one

    def far(v):
        return ((A * v - 5 * A) * v + 8 * A) * v - 4 * A
    return [far(t + one), near(t), near(one - t), far(one - t + one)]


def _interp(method, v1):
    """nearest / linear / bilinear / trilinear / bicubic interpolation after
    Paddle's kernels: phi interpolate_kernel.cc (the *_v2 ops) and Fluid
    interpolate_op.h (v1). Missing attributes take the op definitions'
    defaults (align_corners True, align_mode 1)."""
    k = {"linear": 1, "trilinear": 3}.get(method, 2)

    def run(ins, a):
        x = ins["X"][0]
        last = a.get("data_layout", "NCHW") in ("NHWC", "NDHWC")
        if last:
            x = np.moveaxis(x, -1, 1)
        insz = list(x.shape[2:])
        align = a.get("align_corners", True)
        mode = a.get("align_mode", 1)
        outs = [a.get("out_d", 0), a.get("out_h", 0), a.get("out_w", 0)][3 - k:]
        sc = [-1.0] * k
        if "SizeTensor" in ins:
            outs = [int(np.asarray(t).reshape(-1)[0]) for t in ins["SizeTensor"]]
        else:
            if v1:
                s = float(ins["Scale"][0].reshape(-1)[0]) if "Scale" in ins else float(a.get("scale", 0.0))
                sc = [s] * k
            elif "Scale" in ins:
                v = ins["Scale"][0].reshape(-1)
                sc = [float(v[min(i, v.size - 1)]) for i in range(k)]
            elif len(a.get("scale", [])) > 0:
                v = a["scale"]
                sc = [float(v[min(i, len(v) - 1)]) for i in range(k)]
            if all(s > 0 for s in sc):
                outs = [int(np.float32(i) * np.float32(s)) for i, s in zip(insz, sc)]
            if "OutSize" in ins:
                outs = [int(v) for v in ins["OutSize"][0].reshape(-1)[:k]]
        if v1:  # Fluid's ratio never uses the scale
            sc = [-1.0] * k
        if outs == insz:
            y = x.copy()
        else:
            def ratio(i, o, s):
                if o <= 1:
                    return np.float32(0)
                if align:
                    return np.float32(i - 1) / np.float32(o - 1)
                if s > 0:
                    return np.float32(1.0 / s)
                return np.float32(i) / np.float32(o)
            rs = [ratio(i, o, s) for i, o, s in zip(insz, outs, sc)]

            def at(idx):
                """x at one index array per spatial axis (an open mesh)."""
                return x[(slice(None), slice(None)) + np.ix_(*idx)].astype(np.float32)

            def shaped(w, axis):
                return w.reshape([-1 if d == axis else 1 for d in range(k)])
            if method == "nearest":
                def src(r, o, i):
                    kk = np.arange(o, dtype=np.float32)
                    v = r * kk + np.float32(0.5) if align else r * kk
                    return np.minimum(v.astype(np.int64), i - 1)
                y = x[(slice(None), slice(None)) + np.ix_(*[src(r, o, i) for r, o, i in zip(rs, outs, insz)])]
            elif method == "bicubic":
                taps, ws = [], []
                for d, (r, o, i) in enumerate(zip(rs, outs, insz)):
                    kk = np.arange(o, dtype=np.float32)
                    sv = r * kk if align else r * (kk + np.float32(0.5)) - np.float32(0.5)
                    fl = np.floor(sv)
                    base = fl.astype(np.int64)
                    taps.append([np.clip(base + j - 1, 0, i - 1) for j in range(4)])
                    ws.append([shaped(w.astype(np.float32), d) for w in _cubic_weights((sv - fl).astype(np.float32))])

                def nest(d, idx):
                    """Cubic sums along the last axis first, as Paddle nests them."""
                    if d == k:
                        return at(idx)
                    total = None
                    for j in range(4):
                        term = nest(d + 1, idx + [taps[d][j]]) * ws[d][j]
                        total = term if total is None else total + term
                    return total
                y = nest(0, []).astype(x.dtype)
            else:
                half = mode == 0 and not align
                lo_hi_w = []
                for d, (r, o, i) in enumerate(zip(rs, outs, insz)):
                    kk = np.arange(o)
                    if half:
                        lo = np.maximum((float(r) * (kk + 0.5) - 0.5).astype(np.int64), 0)
                        sv = np.maximum(r * (kk.astype(np.float32) + np.float32(0.5)) - np.float32(0.5), 0)
                    else:
                        sv = r * kk.astype(np.float32)
                        lo = sv.astype(np.int64)
                    lo = np.minimum(lo, i - 1)
                    hi = np.minimum(lo + 1, i - 1)
                    frac = shaped((sv - lo.astype(np.float32)).astype(np.float32), d)
                    lo_hi_w.append(((lo, hi), (np.float32(1) - frac, frac)))
                y = None
                for c in range(1 << k):      # the first spatial axis varies fastest
                    bits = [(c >> d) & 1 for d in range(k)]
                    term = at([lo_hi_w[d][0][bits[d]] for d in range(k)])
                    for d in range(k):
                        term = term * lo_hi_w[d][1][bits[d]]
                    y = term if y is None else y + term
                y = y.astype(x.dtype)
        return {"Out": np.moveaxis(y, 1, -1) if last else y}
    return run


def _dropout(ins, a):
    x = ins["X"][0]
    if a.get("dropout_implementation", "downgrade_in_infer") == "upscale_in_train":
        return {"Out": x}
    return {"Out": (x * (1 - a.get("dropout_prob", 0.5))).astype(x.dtype)}


def _ints_from(ins, list_slot, tensor_slot, attr):
    """Numbers from a list of single-element tensors, else a 1-D tensor,
    else the attribute (Paddle's order for run-time shape inputs)."""
    if ins.get(list_slot):
        return [int(np.asarray(t).reshape(-1)[0]) for t in ins[list_slot]]
    if ins.get(tensor_slot):
        return [int(v) for v in np.asarray(ins[tensor_slot][0]).reshape(-1)]
    return [int(v) for v in attr]


def _slice(ins, a):
    x = ins["Input"][0]
    axes = a.get("axes", [])
    starts = _ints_from(ins, "StartsTensorList", "StartsTensor", a.get("starts", []))
    ends = _ints_from(ins, "EndsTensorList", "EndsTensor", a.get("ends", []))
    index = [slice(None)] * x.ndim
    for ax, st, en in zip(axes, starts, ends):
        d = x.shape[ax]
        # Negative bounds count from the end; both are clamped to [0, d].
        st, en = st + d if st < 0 else st, en + d if en < 0 else en
        index[ax] = slice(min(max(st, 0), d), min(max(en, 0), d))
    out = x[tuple(index)]
    dec = [ax % x.ndim for ax in a.get("decrease_axis", [])]
    if dec:
        out = out.reshape([n for i, n in enumerate(out.shape) if i not in dec])
    return {"Out": out}


def _split(ins, a):
    x = ins["X"][0]
    axis = int(np.asarray(ins["AxisTensor"][0]).reshape(-1)[0]) if ins.get("AxisTensor") else a.get("axis", 0)
    axis %= x.ndim
    sections = _ints_from(ins, "SectionsTensorList", "", a.get("sections", []))
    if sections:
        if -1 in sections:
            k = sections.index(-1)
            sections[k] = x.shape[axis] - (sum(sections) + 1)
        cuts = np.cumsum(sections)[:-1]
    else:
        cuts = a["num"]
    return {"Out": np.split(x, cuts, axis=axis)}


def _reduce(fn):
    def run(ins, a):
        x = ins["X"][0]
        dims = a.get("dim", [0])
        if a.get("reduce_all", False) or len(dims) == 0:
            dims = list(range(x.ndim))
        keep = a.get("keep_dim", False)
        out = fn(x, axis=tuple(d % x.ndim for d in dims), keepdims=keep)
        return {"Out": np.asarray(out).astype(x.dtype)}
    return run


def _arg_extreme(fn, ins, a):
    """arg_max / arg_min (fn np.argmax / np.argmin): `dtype` -1 (the ops'
    default) means int64; `flatten` over all elements, else along `axis`."""
    x = ins["X"][0]
    code = a.get("dtype", -1)
    dtype = np.int64 if code < 0 else NP_DTYPE[code]
    if a.get("flatten", False):
        return {"Out": np.asarray(fn(x.reshape(-1))).astype(dtype)}
    axis = a.get("axis", -1) % x.ndim
    r = fn(x, axis=axis)
    return {"Out": (np.expand_dims(r, axis) if a.get("keepdims", False) else r).astype(dtype)}


def _clip(ins, a):
    x = ins["X"][0]
    lo = float(np.asarray(ins["Min"][0]).reshape(-1)[0]) if ins.get("Min") else a.get("min", -np.inf)
    hi = float(np.asarray(ins["Max"][0]).reshape(-1)[0]) if ins.get("Max") else a.get("max", np.inf)
    return {"Out": np.minimum(np.maximum(x, lo), hi).astype(x.dtype)}


def _conv2d_transpose(ins, a):
    x, w = ins["Input"][0], ins["Filter"][0]
    nhwc = a.get("data_format", "NCHW") == "NHWC"
    if nhwc:
        x = x.transpose(0, 3, 1, 2)
    s, d, g = a.get("strides", [1, 1]), a.get("dilations", [1, 1]), a.get("groups", 1)
    if a.get("padding_algorithm", "EXPLICIT") == "SAME":
        raise NotImplementedError("reference: conv2d_transpose with padding_algorithm SAME")
    pt, pb, pl, pr = _pads(a.get("paddings", [0, 0]))
    if a.get("padding_algorithm", "EXPLICIT") == "VALID":
        pt = pb = pl = pr = 0
    n, c, h, wd = x.shape
    cin_g, cout_g, kh, kw = w.shape[0] // g, w.shape[1], w.shape[2], w.shape[3]
    # Each input pixel scatters its kernel-sized patch into the output at
    # stride s; the full (unpadded) output is then cropped by the paddings.
    fh, fw = (h - 1) * s[0] + d[0] * (kh - 1) + 1, (wd - 1) * s[1] + d[1] * (kw - 1) + 1
    op = list(a.get("output_padding", [])) or [0, 0]
    size = a.get("output_size", [])
    oh = size[0] if size else fh - pt - pb + op[0]
    ow = size[1] if size else fw - pl - pr + op[1]
    full = np.zeros((n, cout_g * g, max(fh, pt + oh), max(fw, pl + ow)), np.float64)
    for gi in range(g):
        xs = x[:, gi * cin_g:(gi + 1) * cin_g].astype(np.float64)
        for i in range(kh):
            for j in range(kw):
                wk = w[gi * cin_g:(gi + 1) * cin_g, :, i, j].astype(np.float64)
                full[:, gi * cout_g:(gi + 1) * cout_g,
                     i * d[0]:i * d[0] + s[0] * (h - 1) + 1:s[0],
                     j * d[1]:j * d[1] + s[1] * (wd - 1) + 1:s[1]] += np.einsum("ncij,co->noij", xs, wk)
    out = full[:, :, pt:pt + oh, pl:pl + ow].astype(np.float32)
    return {"Output": out.transpose(0, 2, 3, 1) if nhwc else out}


def _group_norm(ins, a):
    x = ins["X"][0]
    nhwc = a.get("data_layout", "NCHW") == "NHWC"
    if nhwc:
        x = np.moveaxis(x, -1, 1)
    g, eps = a.get("groups", 1), a.get("epsilon", 1e-5)
    n, c = x.shape[:2]
    xg = x.reshape(n, g, -1).astype(np.float64)
    mean, var = xg.mean(axis=2), xg.var(axis=2)
    y = ((xg - mean[:, :, None]) / np.sqrt(var[:, :, None] + eps)).reshape(x.shape)
    bshape = (1, c) + (1,) * (x.ndim - 2)
    if ins.get("Scale"):
        y = y * ins["Scale"][0].reshape(bshape)
    if ins.get("Bias"):
        y = y + ins["Bias"][0].reshape(bshape)
    y = y.astype(x.dtype)
    return {"Y": np.moveaxis(y, 1, -1) if nhwc else y, "Mean": mean.astype(x.dtype),
            "Variance": var.astype(x.dtype)}


def _expand_v2(ins, a):
    x = ins["X"][0]
    shape = _ints_from(ins, "expand_shapes_tensor", "Shape", a.get("shape", []))
    lead = len(shape) - x.ndim
    shape = [x.shape[i - lead] if v == -1 else v for i, v in enumerate(shape)]
    return {"Out": np.broadcast_to(x, shape).copy()}


def _lookup_v1(ins, a):
    ids = ins["Ids"][0]
    # Fluid's lookup_table takes ids with a trailing dim of 1.
    ins = dict(ins, Ids=[ids.reshape(ids.shape[:-1]) if ids.ndim > 1 and ids.shape[-1] == 1 else ids])
    return _lookup(ins, a)


def _prior_box(ins, a):
    feat, img = ins["Input"][0], ins["Image"][0]
    fh, fw, ih, iw = feat.shape[2], feat.shape[3], img.shape[2], img.shape[3]
    ratios = [1.0]
    for r in a.get("aspect_ratios", [1.0]):
        if all(abs(r - q) >= 1e-6 for q in ratios):
            ratios += [r, 1.0 / r] if a.get("flip", False) else [r]
    mins, maxs = a["min_sizes"], a.get("max_sizes", [])
    sizes = []  # (width, height) of every prior at one position
    for s_, m in enumerate(mins):
        square = [(math.sqrt(m * maxs[s_]),) * 2] if maxs else []
        by_ratio = [(m * math.sqrt(r), m / math.sqrt(r)) for r in ratios]
        if a.get("min_max_aspect_ratios_order", False):
            sizes += [(m, m)] + square + [wh for r, wh in zip(ratios, by_ratio) if abs(r - 1) >= 1e-6]
        else:
            sizes += by_ratio + square
    sw, sh = a.get("step_w", 0.0), a.get("step_h", 0.0)
    if sw == 0 or sh == 0:
        sw, sh = iw / fw, ih / fh
    off = a.get("offset", 0.5)
    cx = ((np.arange(fw) + off) * sw)[None, :, None]
    cy = ((np.arange(fh) + off) * sh)[:, None, None]
    half = np.array(sizes, np.float64) / 2
    bw, bh = half[None, None, :, 0], half[None, None, :, 1]
    boxes = np.stack(np.broadcast_arrays((cx - bw) / iw, (cy - bh) / ih, (cx + bw) / iw, (cy + bh) / ih),
                     axis=-1)
    if a.get("clip", False):
        boxes = np.clip(boxes, 0, 1)
    var = np.broadcast_to(np.array(a.get("variances", [0.1, 0.1, 0.2, 0.2]), np.float32), boxes.shape)
    return {"Boxes": boxes.astype(np.float32), "Variances": var.copy()}


def _box_coder(ins, a):
    prior, target = ins["PriorBox"][0].astype(np.float64), ins["TargetBox"][0].astype(np.float64)
    one = 0.0 if a.get("box_normalized", True) else 1.0
    pw, ph = prior[:, 2] - prior[:, 0] + one, prior[:, 3] - prior[:, 1] + one
    pcx, pcy = prior[:, 0] + pw / 2, prior[:, 1] + ph / 2
    if ins.get("PriorBoxVar"):
        var = ins["PriorBoxVar"][0].astype(np.float64)
    elif a.get("variance"):
        var = np.tile(np.array(a["variance"], np.float64), (prior.shape[0], 1))
    else:
        var = None
    if a.get("code_type", "encode_center_size") == "encode_center_size":
        tw, th = target[:, 2] - target[:, 0] + one, target[:, 3] - target[:, 1] + one
        tcx, tcy = (target[:, 2] + target[:, 0]) / 2, (target[:, 3] + target[:, 1]) / 2
        out = np.stack([(tcx[:, None] - pcx) / pw, (tcy[:, None] - pcy) / ph,
                        np.log(np.abs(tw[:, None] / pw)), np.log(np.abs(th[:, None] / ph))], axis=-1)
        if var is not None:
            out = out / var[None]
        return {"OutputBox": out.astype(np.float32)}
    # Decode: priors run along dim 1 (axis 0) or dim 0 (axis 1) of TargetBox.
    ex = (lambda v: v[None, :]) if a.get("axis", 0) == 0 else (lambda v: v[:, None])
    v = np.ones((prior.shape[0], 4)) if var is None else var
    tcx = ex(v[:, 0]) * target[..., 0] * ex(pw) + ex(pcx)
    tcy = ex(v[:, 1]) * target[..., 1] * ex(ph) + ex(pcy)
    tw = np.exp(ex(v[:, 2]) * target[..., 2]) * ex(pw)
    th = np.exp(ex(v[:, 3]) * target[..., 3]) * ex(ph)
    out = np.stack([tcx - tw / 2, tcy - th / 2, tcx + tw / 2 - one, tcy + th / 2 - one], axis=-1)
    return {"OutputBox": out.astype(np.float32)}


def _yolo_box(ins, a):
    x, size = ins["X"][0].astype(np.float64), ins["ImgSize"][0]
    n, _, h, w = x.shape
    anchors = np.array(a["anchors"], np.float64).reshape(-1, 2)
    an, k = anchors.shape[0], a["class_num"]
    sig = lambda v: 1 / (1 + np.exp(-v))
    if a.get("iou_aware", False):
        iou, x = sig(x[:, :an]), x[:, an:]
    x = x.reshape(n, an, 5 + k, h, w)
    conf = sig(x[:, :, 4])
    if a.get("iou_aware", False):
        f = a.get("iou_aware_factor", 0.5)
        conf = conf ** (1 - f) * iou ** f
    s = a.get("scale_x_y", 1.0)
    bias = -0.5 * (s - 1)
    img_h = size[:, 0].astype(np.float64)[:, None, None, None]
    img_w = size[:, 1].astype(np.float64)[:, None, None, None]
    gx, gy = np.arange(w)[None, None, None, :], np.arange(h)[None, None, :, None]
    cx = (gx + sig(x[:, :, 0]) * s + bias) * img_w / w
    cy = (gy + sig(x[:, :, 1]) * s + bias) * img_h / h
    ds = a.get("downsample_ratio", 32)
    bw = np.exp(x[:, :, 2]) * anchors[None, :, 0, None, None] * img_w / (ds * w)
    bh = np.exp(x[:, :, 3]) * anchors[None, :, 1, None, None] * img_h / (ds * h)
    x0, y0, x1, y1 = cx - bw / 2, cy - bh / 2, cx + bw / 2, cy + bh / 2
    if a.get("clip_bbox", True):
        x0, y0 = np.maximum(x0, 0), np.maximum(y0, 0)
        x1, y1 = np.minimum(x1, img_w - 1), np.minimum(y1, img_h - 1)
    keep = ~(conf < a.get("conf_thresh", 0.01))
    boxes = np.stack([x0, y0, x1, y1], axis=-1) * keep[..., None]
    scores = (conf[:, :, None] * sig(x[:, :, 5:])) * keep[:, :, None]
    return {"Boxes": boxes.reshape(n, an * h * w, 4).astype(np.float32),
            "Scores": scores.transpose(0, 1, 3, 4, 2).reshape(n, an * h * w, k).astype(np.float32)}


def _unary(fn):
    return lambda ins, a: {"Out": fn(ins["X"][0], a).astype(ins["X"][0].dtype)}


OPS = {
    "conv2d": _conv2d, "depthwise_conv2d": _conv2d, "pool2d": _pool2d,
    "nearest_interp_v2": _interp("nearest", False), "bilinear_interp_v2": _interp("bilinear", False),
    "nearest_interp": _interp("nearest", True), "bilinear_interp": _interp("bilinear", True),
    "linear_interp_v2": _interp("linear", False), "trilinear_interp_v2": _interp("trilinear", False),
    "bicubic_interp_v2": _interp("bicubic", False), "linear_interp": _interp("linear", True),
    "trilinear_interp": _interp("trilinear", True), "bicubic_interp": _interp("bicubic", True),
    "batch_norm": _batch_norm, "layer_norm": _layer_norm,
    "relu": _unary(lambda x, a: np.maximum(x, 0)),
    "relu6": _unary(lambda x, a: np.clip(x, 0, a.get("threshold", 6.0))),
    "sigmoid": _unary(lambda x, a: 1 / (1 + np.exp(-x))),
    "tanh": _unary(lambda x, a: np.tanh(x)),
    "hard_swish": _unary(lambda x, a: x * np.clip(x + a.get("offset", 3.0), 0, a.get("threshold", 6.0))
                         / a.get("scale", 6.0)),
    "hard_sigmoid": _unary(lambda x, a: np.clip(a.get("slope", 0.2) * x + a.get("offset", 0.5), 0, 1)),
    "leaky_relu": _unary(lambda x, a: np.where(x > 0, x, a.get("alpha", 0.02) * x)),
    "swish": _unary(lambda x, a: x / (1 + np.exp(-a.get("beta", 1.0) * x))),
    "gelu": lambda ins, a: {"Out": _gelu(ins["X"][0], a.get("approximate", False))},
    "exp": _unary(lambda x, a: np.exp(x)), "sqrt": _unary(lambda x, a: np.sqrt(x)),
    "softmax": lambda ins, a: {"Out": _softmax(ins["X"][0], a.get("axis", -1)).astype(ins["X"][0].dtype)},
    "elementwise_add": _elementwise(np.add), "elementwise_sub": _elementwise(np.subtract),
    "elementwise_mul": _elementwise(np.multiply), "elementwise_div": _elementwise(np.divide),
    "elementwise_max": _elementwise(np.maximum), "elementwise_min": _elementwise(np.minimum),
    "equal": _elementwise(np.equal), "not_equal": _elementwise(np.not_equal),
    "less_than": _elementwise(np.less), "greater_than": _elementwise(np.greater),
    "mul": _mul, "matmul_v2": _matmul("trans_x", "trans_y"),
    "matmul": _matmul("transpose_X", "transpose_Y", "alpha"),
    "scale": _scale, "dropout": _dropout,
    "reshape2": _reshape2, "squeeze2": _squeeze2, "unsqueeze2": _unsqueeze2,
    "transpose2": lambda ins, a: {"Out": ins["X"][0].transpose(a["axis"])},
    "flatten_contiguous_range": _flatten, "flatten2": _flatten2,
    "fill_constant": _fill_constant,
    "concat": lambda ins, a: {"Out": np.concatenate(ins["X"], axis=a.get("axis", 0))},
    "lookup_table_v2": _lookup,
    "cast": lambda ins, a: {"Out": ins["X"][0].astype(NP_DTYPE[a["out_dtype"]])},
    "fill_any_like": lambda ins, a: {"Out": np.full_like(
        ins["X"][0], a.get("value", 0.0),
        dtype=ins["X"][0].dtype if a.get("dtype", -1) == -1 else NP_DTYPE[a["dtype"]])},
    "cumsum": _cumsum,
    "assign": lambda ins, a: {"Out": [_copy(ins["X"][0])] if isinstance(ins["X"][0], list)  # a tensor array
                              else ins["X"][0].copy()},
    "shape": lambda ins, a: {"Out": np.array(ins["Input"][0].shape, np.int32)},
    "slice": _slice, "split": _split,
    "reduce_mean": _reduce(np.mean), "reduce_sum": _reduce(np.sum), "reduce_max": _reduce(np.max),
    "reduce_min": _reduce(np.min), "reduce_prod": _reduce(np.prod),
    "arg_max": lambda ins, a: _arg_extreme(np.argmax, ins, a), "clip": _clip,
    "conv2d_transpose": _conv2d_transpose,
    "group_norm": _group_norm, "expand_v2": _expand_v2, "lookup_table": _lookup_v1,
    "stack": lambda ins, a: {"Y": np.stack(ins["X"], axis=a.get("axis", 0))},
    "tile": lambda ins, a: {"Out": np.tile(ins["X"][0], _ints_from(ins, "repeat_times_tensor", "RepeatTimes",
                                                                     a.get("repeat_times", [])))},
    "unstack": lambda ins, a: {"Y": [np.take(ins["X"][0], i, axis=a.get("axis", 0))
                                     for i in range(ins["X"][0].shape[a.get("axis", 0)])]},
    "sum": lambda ins, a: {"Out": sum(ins["X"][1:], ins["X"][0].copy())},
    "prior_box": _prior_box, "box_coder": _box_coder, "yolo_box": _yolo_box,
}


# ---- ops of real programs that had stopped at import (issue 23), each from
# Paddle's operator definition.

def _assign_value(ins, a):
    dtype = NP_DTYPE[a.get("dtype", fp.VarType.FP32)]
    if a.get("values") is not None:   # Paddle 2.6+: one list of Scalars
        vals = a["values"]
    else:
        key = {np.bool_: "bool_values", np.int32: "int32_values", np.int64: "int64_values",
               np.float32: "fp32_values"}[dtype]
        vals = a.get(key, [])
    return {"Out": np.array(vals).astype(dtype).reshape([int(d) for d in a.get("shape", [])])}


def _fill_constant_batch_size_like(ins, a):
    shape = list(a["shape"])
    shape[a.get("output_dim_idx", 0)] = ins["Input"][0].shape[a.get("input_dim_idx", 0)]
    value = float(a["str_value"]) if a.get("str_value") else a.get("value", 0.0)
    return {"Out": np.full(shape, value, dtype=NP_DTYPE[a.get("dtype", 5)])}


def _cross_entropy2(ins, a):
    x, label = ins["X"][0], ins["Label"][0]
    ignore = a.get("ignore_index", -100)
    lbl = label[..., 0].astype(np.int64)
    safe = np.where(lbl == ignore, 0, lbl)
    match = np.take_along_axis(x, safe[..., None], axis=-1)
    with np.errstate(divide="ignore"):
        y = -np.clip(np.log(match), -1e20, 1e20)
    keep = (lbl != ignore)[..., None]
    return {"Y": np.where(keep, y, 0).astype(x.dtype), "MatchX": np.where(keep, match, 0).astype(x.dtype)}


def _order(x, axis, descending):
    """Stable sort indices along `axis`; descending keeps equal values in
    index order too (and puts NaN first, as Paddle's top_k does)."""
    if not descending:
        return np.argsort(x, axis=axis, kind="stable")
    n = x.shape[axis]
    return n - 1 - np.flip(np.argsort(np.flip(x, axis), axis=axis, kind="stable"), axis)


def _top_k(ins, a):
    """top_k (last axis) and top_k_v2 (axis, largest; sorted output either way)."""
    x = ins["X"][0]
    k = int(ins["K"][0].reshape(-1)[0]) if ins.get("K") else a.get("k", 1)
    axis = a.get("axis", -1) % x.ndim
    order = np.take(_order(x, axis, a.get("largest", True)), np.arange(k), axis=axis)
    return {"Out": np.take_along_axis(x, order, axis=axis), "Indices": order.astype(np.int64)}


def _accuracy(ins, a):
    ind, label = ins["Indices"][0], ins["Label"][0]
    correct = int((ind == label.reshape(-1, 1)).any(axis=1).sum())
    total = ind.shape[0]
    return {"Accuracy": np.array([correct / total], np.float32), "Correct": np.array([correct], np.int32),
            "Total": np.array([total], np.int32)}


def _bin(bits):
    return float(2 ** (bits - 1) - 1)


def _inv(s):
    return np.float32(1.0) / (s + np.float32(1e-6)) if s <= 1e-30 else np.float32(1.0) / s


def _quant(x, s, bits, round_type):
    """Paddle's ClipAndFakeQuant: integers held in float."""
    b = np.float32(_bin(bits))
    if round_type == 0:
        return np.clip(np.rint(b * _inv(s) * x), -b - 1, b).astype(x.dtype)
    v = b * _inv(s) * np.clip(x, -s, s)
    return (np.sign(v) * np.floor(np.abs(v) + 0.5)).astype(x.dtype)   # half away from zero


def _fq_moving_average(dequant):
    def run(ins, a):
        x, scale = ins["X"][0], ins["InScale"][0]
        s = scale.reshape(-1)[0]
        bits, rt = a.get("bit_length", 8), a.get("round_type", 1)
        q = _quant(x, s, bits, rt)
        out = (q * s / np.float32(_bin(bits))).astype(x.dtype) if dequant else q
        return {"Out": out, "OutScale": scale}
    return run


def _fq_channel_wise(ins, a):
    x = ins["X"][0]
    axis = a.get("quant_axis", 0)
    bits, rt = a.get("bit_length", 8), a.get("round_type", 1)
    other = tuple(d for d in range(x.ndim) if d != axis)
    scales = np.abs(x).max(axis=other)
    out = np.empty_like(x)
    for c in range(x.shape[axis]):
        sl = [slice(None)] * x.ndim
        sl[axis] = c
        out[tuple(sl)] = _quant(x[tuple(sl)], scales[c], bits, rt) * scales[c] / np.float32(_bin(bits))
    return {"Out": out, "OutScale": scales.astype(x.dtype)}


def _fake_channel_wise_dequantize(ins, a):
    x, scales = ins["X"][0], ins["Scales"]
    bits = a.get("quant_bits", [8])
    if len(scales) == 1:
        axis = a.get("quant_axis", 0)
        shape = [1] * x.ndim
        shape[axis] = -1
        return {"Out": (x * scales[0].reshape(shape) / np.float32(_bin(bits[0]))).astype(x.dtype)}
    shape = [1] * x.ndim
    shape[1] = -1
    r = np.float32(_bin(bits[0]) * _bin(bits[1]))
    return {"Out": (x * scales[0].reshape(shape) * scales[1].reshape(-1)[0] / r).astype(x.dtype)}


def _per_axis(x, scale, axis):
    """`scale` broadcast along `axis` of x (-1: one value for all)."""
    if axis < 0:
        return scale.reshape(-1)[0]
    shape = [1] * x.ndim
    shape[axis] = -1
    return scale.reshape(shape)


def _quantize_linear(ins, a):
    # PaddleSlim 2.x (is_test): symmetric, the zero point is not used.
    x, scale = ins["X"][0], ins["Scale"][0]
    axis, bits, rt = a.get("quant_axis", -1), a.get("bit_length", 8), a.get("round_type", 0)
    if axis < 0:
        return {"Y": _quant(x, scale.reshape(-1)[0], bits, rt)}
    out = np.empty_like(x)
    for c in range(x.shape[axis]):
        sl = [slice(None)] * x.ndim
        sl[axis] = c
        out[tuple(sl)] = _quant(x[tuple(sl)], scale.reshape(-1)[c], bits, rt)
    return {"Y": out}


def _dequantize_linear(ins, a):
    x, scale = ins["X"][0].astype(np.float32), ins["Scale"][0].astype(np.float32)
    s = _per_axis(x, scale, a.get("quant_axis", -1))
    return {"Y": (x * s / np.float32(_bin(a.get("bit_length", 8)))).astype(np.float32)}


def _conv3d(ins, a):
    x, w = ins["Input"][0], ins["Filter"][0]
    s, d, g = a.get("strides", [1, 1, 1]), a.get("dilations", [1, 1, 1]), a.get("groups", 1)
    p = a.get("paddings", [0, 0, 0])
    pads = [(p[2 * i], p[2 * i + 1]) if len(p) == 6 else (p[i], p[i]) for i in range(3)]
    algo = a.get("padding_algorithm", "EXPLICIT")
    if algo == "VALID":
        pads = [(0, 0)] * 3
    elif algo == "SAME":
        pads = []
        for i in range(3):
            o = -(-x.shape[2 + i] // s[i])
            t = max((o - 1) * s[i] + d[i] * (w.shape[2 + i] - 1) + 1 - x.shape[2 + i], 0)
            pads.append((t // 2, t - t // 2))
    x = np.pad(x, [(0, 0), (0, 0)] + pads)
    k = w.shape[2:]
    o = [(x.shape[2 + i] - d[i] * (k[i] - 1) - 1) // s[i] + 1 for i in range(3)]
    cg, og = x.shape[1] // g, w.shape[0] // g
    out = np.zeros((x.shape[0], w.shape[0]) + tuple(o), np.float64)
    for gi in range(g):
        xs, ws = x[:, gi * cg:(gi + 1) * cg], w[gi * og:(gi + 1) * og]
        for i in range(k[0]):
            for j in range(k[1]):
                for m in range(k[2]):
                    patch = xs[:, :, i * d[0]:i * d[0] + s[0] * (o[0] - 1) + 1:s[0],
                               j * d[1]:j * d[1] + s[1] * (o[1] - 1) + 1:s[1],
                               m * d[2]:m * d[2] + s[2] * (o[2] - 1) + 1:s[2]]
                    out[:, gi * og:(gi + 1) * og] += np.einsum("ncdhw,oc->nodhw", patch, ws[:, :, i, j, m])
    return {"Output": out.astype(ins["Input"][0].dtype)}


def _grid_sampler(ins, a):
    x, grid = ins["X"][0], ins["Grid"][0]
    align = a.get("align_corners", True)
    mode, padding = a.get("mode", "bilinear"), a.get("padding_mode", "zeros")
    n, c, h, w = x.shape

    def coord(g, size):
        v = (g + 1) / 2 * (size - 1) if align else ((g + 1) * size - 1) / 2
        if padding == "border":
            v = np.clip(v, 0, size - 1)
        elif padding == "reflection":
            lo, span = (0.0, size - 1.0) if align else (-0.5, float(size))
            if span <= 0:
                v = np.zeros_like(v)
            else:
                dist = np.abs(v - lo)
                flips = np.floor(dist / span)
                extra = dist - flips * span
                v = np.where(flips % 2 == 0, extra + lo, span - extra + lo)
            v = np.clip(v, 0, size - 1)
        return v
    gx = coord(grid[..., 0].astype(np.float64), w)
    gy = coord(grid[..., 1].astype(np.float64), h)
    batch = np.arange(n)[:, None, None]

    def at(yy, xx):
        inside = (xx >= 0) & (xx <= w - 1) & (yy >= 0) & (yy <= h - 1)
        xi = np.clip(xx, 0, w - 1).astype(np.int64)
        yi = np.clip(yy, 0, h - 1).astype(np.int64)
        v = x[batch, :, yi, xi]                       # [N, Ho, Wo, C]
        return np.where(inside[..., None], v, 0)
    if mode == "nearest":
        rnd = lambda v: np.sign(v) * np.floor(np.abs(v) + 0.5)
        out = at(rnd(gy), rnd(gx))
    else:
        x0, y0 = np.floor(gx), np.floor(gy)
        wx1, wy1 = (gx - x0)[..., None], (gy - y0)[..., None]
        out = ((at(y0, x0) * (1 - wx1) + at(y0, x0 + 1) * wx1) * (1 - wy1)
               + (at(y0 + 1, x0) * (1 - wx1) + at(y0 + 1, x0 + 1) * wx1) * wy1)
    return {"Output": out.transpose(0, 3, 1, 2).astype(x.dtype)}


# ---- multiclass NMS (issue 34): Paddle's MultiClassNMS / NMSFast, with
# Scores [N, C, M] and BBoxes [N, M, 4]; comparisons and IoU in float32.

def _nms_iou(p, q, normalized):
    if q[0] > p[2] or q[2] < p[0] or q[1] > p[3] or q[3] < p[1]:
        return np.float32(0.0)
    one = np.float32(0.0 if normalized else 1.0)

    def area(b):
        return np.float32(0.0) if (b[2] < b[0] or b[3] < b[1]) else (b[2] - b[0] + one) * (b[3] - b[1] + one)

    w = min(p[2], q[2]) - max(p[0], q[0]) + one
    h = min(p[3], q[3]) - max(p[1], q[1]) + one
    return (w * h) / (area(p) + area(q) - w * h)


def _nms_image(boxes, scores, a):
    """{label: kept box indices} of one image."""
    thresh, top_k = np.float32(a["score_threshold"]), a["nms_top_k"]
    eta, normalized = np.float32(a.get("nms_eta", 1.0)), a.get("normalized", True)
    kept = {}
    for label in range(scores.shape[0]):
        if label == a.get("background_label", 0):
            continue
        s = scores[label]
        order = sorted((i for i in range(len(s)) if s[i] > thresh), key=lambda i: -s[i])
        if top_k > -1:
            order = order[:top_k]
        limit, chosen = np.float32(a.get("nms_threshold", 0.3)), []
        for i in order:
            if any(_nms_iou(boxes[i], boxes[k], normalized) > limit for k in chosen):
                continue
            chosen.append(i)
            if eta < 1 and limit > 0.5:
                limit = np.float32(limit * eta)
        if chosen:
            kept[label] = chosen
    total = sum(len(v) for v in kept.values())
    keep_top_k = a["keep_top_k"]
    if keep_top_k > -1 and total > keep_top_k:
        pairs = [(scores[label][i], label, i) for label in sorted(kept) for i in kept[label]]
        pairs.sort(key=lambda t: -t[0])
        kept = {}
        for _, label, i in pairs[:keep_top_k]:
            kept.setdefault(label, []).append(i)
    return kept


def _multiclass_nms(version):
    def run(ins, a):
        boxes, scores = ins["BBoxes"][0].astype(np.float32), ins["Scores"][0].astype(np.float32)
        if scores.ndim != 3:
            raise NotImplementedError("multiclass_nms with 2-D (LoD) scores")
        rows, index, counts = [], [], []
        for n in range(scores.shape[0]):
            kept = _nms_image(boxes[n], scores[n], a)
            counts.append(sum(len(v) for v in kept.values()))
            for label in sorted(kept):
                for i in kept[label]:
                    rows.append([label, scores[n, label, i], *boxes[n, i]])
                    index.append(n * scores.shape[2] + i)
        out = np.array(rows, np.float32).reshape(-1, 6)
        if version == 1:
            return {"Out": out if rows else np.full((1, 1), -1, np.float32)}
        res = {"Out": out, "Index": np.array(index, np.int32).reshape(-1, 1)}
        if version == 3:
            res["NmsRoisNum"] = np.array(counts, np.int32)
        return res
    return run


def _matrix_nms(ins, a):
    """Paddle's MatrixNMS: per class, scores decayed by the IoU with every
    better box (compensated by that box's own largest IoU), then the best
    keep_top_k decayed scores of the image over all classes."""
    boxes, scores = ins["BBoxes"][0].astype(np.float32), ins["Scores"][0].astype(np.float32)
    f32 = np.float32
    rows, index, counts = [], [], []
    for n in range(scores.shape[0]):
        found = []  # (decayed score, label, box)
        for label in range(scores.shape[1]):
            if label == a.get("background_label", 0):
                continue
            s = scores[n, label]
            order = sorted((i for i in range(len(s)) if s[i] > f32(a["score_threshold"])), key=lambda i: -s[i])
            if a["nms_top_k"] > -1:
                order = order[:a["nms_top_k"]]
            ious = [[_nms_iou(boxes[n, order[i]], boxes[n, order[j]], a.get("normalized", True))
                     for j in range(i)] for i in range(len(order))]
            worst = [max(row, default=f32(0)) for row in ious]
            for i, b in enumerate(order):
                decay = f32(1)
                for j in range(i):
                    if a.get("use_gaussian", False):
                        d = np.exp(f32((worst[j] * worst[j] - ious[i][j] * ious[i][j])
                                       * f32(a.get("gaussian_sigma", 2.0))))
                    else:
                        d = (f32(1) - ious[i][j]) / (f32(1) - worst[j])
                    decay = min(decay, f32(d))
                score = f32(decay * s[b])
                if score > f32(a.get("post_threshold", 0.0)):
                    found.append((score, label, b))
        found.sort(key=lambda t: -t[0])
        if a["keep_top_k"] > -1:
            found = found[:a["keep_top_k"]]
        counts.append(len(found))
        for score, label, b in found:
            rows.append([label, score, *boxes[n, b]])
            index.append(n * scores.shape[2] + b)
    return {"Out": np.array(rows, np.float32).reshape(-1, 6),
            "Index": np.array(index, np.int32).reshape(-1, 1), "RoisNum": np.array(counts, np.int32)}


OPS.update({
    "matrix_nms": _matrix_nms,
    "where_index": lambda ins, a: {"Out": np.argwhere(ins["Condition"][0]).astype(np.int64)},
    "masked_select": lambda ins, a: {"Y": ins["X"][0][ins["Mask"][0].astype(bool)]},
    "multiclass_nms": _multiclass_nms(1),
    "multiclass_nms2": _multiclass_nms(2),
    "multiclass_nms3": _multiclass_nms(3),
})


OPS.update({
    "silu": _unary(lambda x, a: x / (1 + np.exp(-x))),
    "assign_value": _assign_value,
    "fill_constant_batch_size_like": _fill_constant_batch_size_like,
    "cross_entropy2": _cross_entropy2,
    "mean": lambda ins, a: {"Out": np.array([ins["X"][0].mean()], ins["X"][0].dtype)},
    "top_k": _top_k,
    "accuracy": _accuracy,
    "fake_quantize_moving_average_abs_max": _fq_moving_average(False),
    "fake_quantize_dequantize_moving_average_abs_max": _fq_moving_average(True),
    "fake_channel_wise_quantize_dequantize_abs_max": _fq_channel_wise,
    "fake_dequantize_max_abs": lambda ins, a: {"Out": (ins["X"][0] * ins["Scale"][0].reshape(-1)[0]
                                                       / np.float32(a["max_range"])).astype(ins["X"][0].dtype)},
    "fake_channel_wise_dequantize_max_abs": _fake_channel_wise_dequantize,
    "quantize_linear": _quantize_linear,
    "dequantize_linear": _dequantize_linear,
    "conv3d": _conv3d,
    "grid_sampler": _grid_sampler,
})


# ---- ops of the Deformable DETR program, each from Paddle's operator
# definition (phi kernels).

def _bound(st, en, step, d):
    """A Python slice for Paddle's normalised start/end/step on a dim of d
    (phi CheckAndUpdateSliceAttrs): with step < 0 an end of -1, after
    the normalisation, means past the first element."""
    st = max(st + d if st < 0 else st, 0)
    en = min(en + d if step > 0 and en < 0 else en, d)
    if step > 0:
        return slice(min(st, d), max(en, 0), step)
    st, en = min(st, d - 1), en + d if en < -1 else en
    return slice(st, None if en <= -1 else en, step)


def _set_value(ins, a):
    x = ins["Input"][0].copy()
    axes = a.get("axes", [])
    starts = _ints_from(ins, "StartsTensorList", "", a.get("starts", []))
    ends = _ints_from(ins, "EndsTensorList", "", a.get("ends", []))
    steps = _ints_from(ins, "StepsTensorList", "", a.get("steps", [])) or [1] * len(axes)
    index = [slice(None)] * x.ndim
    for ax, st, en, sp in zip(axes, starts, ends, steps):
        index[ax] = _bound(st, en, sp, x.shape[ax])
    region = x[tuple(index)].shape
    if ins.get("ValueTensor"):
        value = ins["ValueTensor"][0]
    else:
        if a.get("values"):   # Paddle 2.6+: one list of Scalars
            vals = a["values"]
        else:
            key = {fp.VarType.BOOL: "bool_values", fp.VarType.INT32: "int32_values",
                   fp.VarType.INT64: "int64_values", fp.VarType.FP32: "fp32_values",
                   fp.VarType.FP64: "fp64_values", fp.VarType.FP16: "fp16_values"}
            vals = a.get(key[a.get("dtype", fp.VarType.FP32)], [])
        value = np.array(vals).astype(NP_DTYPE[a.get("dtype", fp.VarType.FP32)]).reshape(a.get("shape", []))
    # The value broadcasts against the region less decrease_axes, with a 1
    # at each of none_axes.
    dec, none = set(a.get("decrease_axes", [])), sorted(a.get("none_axes", []))
    target, k = [], 0
    for i, d in enumerate(region):
        while k < len(none) and none[k] <= i:
            target.append(1)
            k += 1
        if i not in dec:
            target.append(d)
    target += [1] * (len(none) - k)
    x[tuple(index)] = np.broadcast_to(value, target).reshape(region)
    return {"Out": x}


def _index_put(ins, a):
    x = ins["x"][0].copy()
    idx = []
    for t in ins["indices"]:   # a bool mask stands for its nonzero positions
        idx += list(np.nonzero(t)) if t.dtype == np.bool_ else [t]
    value = ins["value"][0].astype(x.dtype)
    if a.get("accumulate", False):
        np.add.at(x, tuple(idx), np.broadcast_to(value, x[tuple(idx)].shape))
    else:
        x[tuple(idx)] = value
    return {"out": x}


def _range(ins, a):
    start, end, step = (np.asarray(ins[s][0]).reshape(-1)[0] for s in ("Start", "End", "Step"))
    dtype = np.asarray(ins["Start"][0]).dtype
    if np.issubdtype(dtype, np.integer):
        n = (abs(int(end) - int(start)) + abs(int(step)) - 1) // abs(int(step))
    else:
        n = int(math.ceil(abs((float(end) - float(start)) / float(step))))
    # Paddle's kernel adds the step repeatedly in the output type.
    seq = np.full(n, step, dtype)
    if n:
        seq[0] = start
    return {"Out": np.cumsum(seq, dtype=dtype)}


def _gather(ins, a):
    x, index = ins["X"][0], ins["Index"][0]
    axis = int(np.asarray(ins["Axis"][0]).reshape(-1)[0]) if ins.get("Axis") else a.get("axis", 0)
    return {"Out": np.take(x, index.reshape(-1) if index.ndim > 1 else index, axis=axis)}


def _gather_nd(ins, a):
    x, index = ins["X"][0], ins["Index"][0]
    k = index.shape[-1]
    out = x[tuple(index[..., i] for i in range(k))] if k else np.broadcast_to(x, index.shape[:-1] + x.shape)
    return {"Out": np.array(out)}


def _take_along_axis(ins, a):
    x, index = ins["Input"][0], ins["Index"][0]
    axis = a["Axis"] % x.ndim
    # Index may be shorter than Input off the axis; it reads the leading part.
    x = x[tuple(slice(None) if i == axis else slice(0, n) for i, n in enumerate(index.shape))]
    return {"Result": np.take_along_axis(x, index.astype(np.int64), axis=axis)}


def _argsort(ins, a):
    x = ins["X"][0]
    axis = a.get("axis", -1) % x.ndim
    order = _order(x, axis, a.get("descending", False))
    return {"Out": np.take_along_axis(x, order, axis=axis), "Indices": order.astype(np.int64)}


def _where(ins, a):
    x = ins["X"][0]
    return {"Out": np.where(ins["Condition"][0].astype(bool), x, ins["Y"][0]).astype(x.dtype)}


def _pixel_shuffle(ins, a):
    x, f = ins["X"][0], a.get("upscale_factor", 1)
    nhwc = a.get("data_format", "NCHW") == "NHWC"
    if nhwc:
        x = x.transpose(0, 3, 1, 2)
    n, c, h, w = x.shape
    y = x.reshape(n, c // (f * f), f, f, h, w).transpose(0, 1, 4, 2, 5, 3).reshape(n, c // (f * f), h * f, w * f)
    return {"Out": y.transpose(0, 2, 3, 1).copy() if nhwc else y}


def _reduced_axes(x, axes, all_):
    return tuple(range(x.ndim)) if all_ or not len(axes) else tuple(d % x.ndim for d in axes)


def _full_1d(y):
    """Paddle <= 2.4 keeps a full reduction 1-D."""
    return y.reshape(1) if y.ndim == 0 else y


def _reduce_bool(fn, x, a):
    axes = _reduced_axes(x, a.get("dim", [0]), a.get("reduce_all", False))
    return _full_1d(np.asarray(fn(x.astype(bool), axis=axes, keepdims=a.get("keep_dim", False))))


def _logsumexp(ins, a):
    x = ins["X"][0]
    axes = _reduced_axes(x, a.get("axis", [0]), a.get("reduce_all", False))
    m = np.max(x, axis=axes, keepdims=True)
    m = np.where(np.isinf(m), 0, m)
    with np.errstate(divide="ignore"):   # a slice of -inf: log(0) = -inf, as Paddle gives
        y = np.log(np.sum(np.exp(x.astype(np.float64) - m), axis=axes, keepdims=True)) + m
    if not a.get("keepdim", False):
        y = np.squeeze(y, axis=axes)
    return {"Out": _full_1d(np.asarray(y)).astype(x.dtype)}


def _p_norm(ins, a):
    x = ins["X"][0].astype(np.float64)
    p, keep = a.get("porder", 2.0), a.get("keepdim", False)
    axes = tuple(range(x.ndim)) if a.get("asvector", False) else (a.get("axis", -1) % x.ndim,)
    ax = np.abs(x)
    if np.isinf(p):
        y = (np.max if p > 0 else np.min)(ax, axis=axes, keepdims=keep)
    elif p == 0:
        y = np.sum(x != 0, axis=axes, keepdims=keep).astype(np.float64)
    else:
        y = np.sum(ax ** p, axis=axes, keepdims=keep) ** (1.0 / p)
    return {"Out": _full_1d(np.asarray(y)).astype(ins["X"][0].dtype)}


def _prelu(ins, a):
    x, alpha = ins["X"][0], ins["Alpha"][0].reshape(-1)
    mode = a.get("mode", "all")
    if mode == "channel":
        c = x.ndim - 1 if a.get("data_format", "NCHW") == "NHWC" else 1
        alpha = alpha.reshape([-1 if i == c else 1 for i in range(x.ndim)])
    elif mode == "element":
        alpha = alpha.reshape((1,) + x.shape[1:])
    return {"Out": np.where(x > 0, x, alpha * x).astype(x.dtype)}


def _affine_channel(ins, a):
    x = ins["X"][0]
    c = x.ndim - 1 if a.get("data_layout", "AnyLayout") == "NHWC" else 1
    shape = [-1 if i == c else 1 for i in range(x.ndim)]
    return {"Out": (x * ins["Scale"][0].reshape(shape) + ins["Bias"][0].reshape(shape)).astype(x.dtype)}


def _pad_modes(x, widths, mode, value):
    """np.pad with Paddle's mode names (widths: (before, after) per dim)."""
    if mode == "constant":
        return np.pad(x, widths, mode="constant", constant_values=value)
    return np.pad(x, widths, mode={"reflect": "reflect", "replicate": "edge", "edge": "edge",
                                   "circular": "wrap"}[mode])


def _pad3d(ins, a):
    x = ins["X"][0]
    p = [int(v) for v in (ins["Paddings"][0] if ins.get("Paddings") else a.get("paddings", [0] * 6))]
    w = 3 if a.get("data_format", "NCDHW") == "NDHWC" else 4
    widths = [(0, 0)] * 5
    for i in range(3):
        widths[w - i] = (p[2 * i], p[2 * i + 1])
    return {"Out": _pad_modes(x, widths, a.get("mode", "constant"), a.get("value", 0.0)).astype(x.dtype)}


def _dist(ins, a):
    d = np.abs(ins["X"][0].astype(np.float64) - ins["Y"][0])
    p = a.get("p", 2.0)
    if np.isinf(p):
        y = d.max() if p > 0 else d.min()
    elif p == 0:
        y = np.count_nonzero(d)
    else:
        y = np.sum(d ** p) ** (1.0 / p)
    return {"Out": np.array([y], ins["X"][0].dtype)}


def _norm(ins, a):
    x = ins["X"][0]
    n = np.sqrt(np.sum(x.astype(np.float64) ** 2, axis=a["axis"], keepdims=True) + a.get("epsilon", 1e-10))
    return {"Out": (x / n).astype(x.dtype), "Norm": n.astype(x.dtype)}


def _expand_as_v2(ins, a):
    x = ins["X"][0]
    if ins.get("Y"):
        shape = list(ins["Y"][0].shape)
    else:
        shape = list(a["target_shape"])
        lead = len(shape) - x.ndim
        shape = [x.shape[i - lead] if v == -1 else v for i, v in enumerate(shape)]
    return {"Out": np.broadcast_to(x, shape).copy()}


def _pad2d(ins, a):
    x = ins["X"][0]
    p = [int(v) for v in (ins["Paddings"][0] if ins.get("Paddings") else a.get("paddings", [0] * 4))]
    h = 1 if a.get("data_format", "NCHW") == "NHWC" else 2
    widths = [(0, 0)] * 4
    widths[h], widths[h + 1] = (p[0], p[1]), (p[2], p[3])
    return {"Out": _pad_modes(x, widths, a.get("mode", "constant"), a.get("pad_value", 0.0)).astype(x.dtype)}


def _scatter(ins, a):
    x, ids, upd = ins["X"][0].copy(), ins["Ids"][0].reshape(-1), ins["Updates"][0]
    if a.get("overwrite", True):
        for i, row in enumerate(ids):
            x[row] = upd[i]
    else:
        x[ids] = 0
        for i, row in enumerate(ids):
            x[row] += upd[i]
    return {"Out": x}


def _pool3d(ins, a):
    x = ins["X"][0]
    last = a.get("data_format", "NCDHW") == "NDHWC"
    if last:
        x = np.moveaxis(x, -1, 1)
    ks, st = list(a["ksize"]), list(a.get("strides", [1, 1, 1]))
    p = list(a.get("paddings", [0, 0, 0]))
    lo = [p[2 * i] if len(p) == 6 else p[i] for i in range(3)]
    hi = [p[2 * i + 1] if len(p) == 6 else p[i] for i in range(3)]
    algo, ins_ = a.get("padding_algorithm", "EXPLICIT"), x.shape[2:]
    glob, adaptive = a.get("global_pooling", False), a.get("adaptive", False)
    outs = []
    for i in range(3):
        if algo == "VALID":
            lo[i] = hi[i] = 0
        if glob:
            outs.append(1)
        elif adaptive:
            outs.append(ks[i])
        elif algo == "SAME":
            o = -(-ins_[i] // st[i])
            lo[i] = max((o - 1) * st[i] + ks[i] - ins_[i], 0) // 2
            outs.append(o)
        else:
            span = ins_[i] + lo[i] + hi[i] - ks[i]
            outs.append((-(-span // st[i]) if a.get("ceil_mode", False) else span // st[i]) + 1)
    is_max = a.get("pooling_type", "max") == "max"
    exclusive = a.get("exclusive", True) or adaptive
    y = np.empty(x.shape[:2] + tuple(outs), x.dtype)
    for o in np.ndindex(*outs):
        sl = []
        for i in range(3):
            if glob:
                s0, e0 = 0, ins_[i]
            elif adaptive:
                s0, e0 = (o[i] * ins_[i]) // outs[i], -(-((o[i] + 1) * ins_[i]) // outs[i])
            else:
                s0 = o[i] * st[i] - lo[i]
                e0, s0 = min(s0 + ks[i], ins_[i]), max(s0, 0)
            sl.append(slice(s0, e0))
        win = x[(slice(None), slice(None)) + tuple(sl)].astype(np.float32)
        if is_max:
            y[(slice(None), slice(None)) + o] = win.max(axis=(2, 3, 4))
        else:
            div = win[0, 0].size if exclusive else int(np.prod(ks))
            y[(slice(None), slice(None)) + o] = win.sum(axis=(2, 3, 4)) / np.float32(div)
    return {"Out": np.moveaxis(y, 1, -1) if last else y}


def _anchor_generator(ins, a):
    h, w = ins["Input"][0].shape[2:]
    f = np.float32
    sw, sh = (f(v) for v in a.get("stride", [16.0, 16.0]))
    off = f(a.get("offset", 0.5))
    boxes = []
    for ar in a.get("aspect_ratios", [0.5, 1.0, 2.0]):
        for size in a.get("anchor_sizes", [64.0, 128.0, 256.0, 512.0]):
            base_w = np.floor(np.sqrt(sw * sh / f(ar)) + f(0.5))    # C round: half away from zero
            base_h = np.floor(base_w * f(ar) + f(0.5))
            boxes.append((0.5 * np.float64(f(size) / sw * base_w - 1), 0.5 * np.float64(f(size) / sh * base_h - 1)))
    xc = np.arange(w, dtype=f) * sw + off * (sw - 1)
    yc = np.arange(h, dtype=f) * sh + off * (sh - 1)
    out = np.empty((h, w, len(boxes), 4), f)
    for k, (ex, ey) in enumerate(boxes):
        out[:, :, k, 0] = (xc[None, :].astype(np.float64) - ex)
        out[:, :, k, 1] = (yc[:, None].astype(np.float64) - ey)
        out[:, :, k, 2] = (xc[None, :].astype(np.float64) + ex)
        out[:, :, k, 3] = (yc[:, None].astype(np.float64) + ey)
    var = np.broadcast_to(np.asarray(a.get("variances", [0.1, 0.1, 0.2, 0.2]), f), out.shape).copy()
    return {"Anchors": out, "Variances": var}


OPS.update({
    "abs": _unary(lambda x, a: np.abs(x)), "floor": _unary(lambda x, a: np.floor(x)),
    "cos": _unary(lambda x, a: np.cos(x)), "sin": _unary(lambda x, a: np.sin(x)),
    "log": _unary(lambda x, a: np.log(x)),
    "log2": _unary(lambda x, a: np.log2(x)), "log10": _unary(lambda x, a: np.log10(x)),
    "log1p": _unary(lambda x, a: np.log1p(x)),
    "logsigmoid": _unary(lambda x, a: -np.logaddexp(0, -x)),
    "hard_shrink": _unary(lambda x, a: np.where(np.abs(x) > a.get("threshold", 0.5), x, 0)),
    "softshrink": _unary(lambda x, a: np.sign(x) * np.maximum(np.abs(x) - a.get("lambda", 0.5), 0)),
    "tanh_shrink": _unary(lambda x, a: x - np.tanh(x)),
    "brelu": _unary(lambda x, a: np.clip(x, a.get("t_min", 0.0), a.get("t_max", 24.0))),
    "hardtanh": _unary(lambda x, a: np.clip(x, a.get("t_min", -1.0), a.get("t_max", 1.0))),
    "round": _unary(lambda x, a: np.sign(x) * np.floor(np.abs(x) + 0.5)),
    "isfinite_v2": lambda ins, a: {"Out": np.isfinite(ins["X"][0])},
    "reduce_all": lambda ins, a: {"Out": _reduce_bool(np.all, ins["X"][0], a)},
    "reduce_any": lambda ins, a: {"Out": _reduce_bool(np.any, ins["X"][0], a)},
    "logsumexp": _logsumexp, "p_norm": _p_norm,
    "prelu": _prelu, "affine_channel": _affine_channel, "pad3d": _pad3d, "pad2d": _pad2d,
    "depthwise_conv2d_transpose": _conv2d_transpose, "pool3d": _pool3d, "anchor_generator": _anchor_generator,
    "pad": lambda ins, a: {"Out": np.pad(ins["X"][0], np.reshape(a["paddings"], (-1, 2)), mode="constant",
                                         constant_values=a.get("pad_value", 0.0))},
    "dist": _dist, "norm": _norm, "expand_as_v2": _expand_as_v2,
    # Fluid's expand_as tiles X by target / X along each dim.
    "expand_as": lambda ins, a: {"Out": np.tile(ins["X"][0], tuple(
        t // x for t, x in zip(ins["target_tensor"][0].shape, ins["X"][0].shape)))}, "scatter": _scatter,
    "dot": lambda ins, a: {"Out": np.sum(ins["X"][0] * ins["Y"][0], axis=-1, keepdims=True)},
    "size": lambda ins, a: {"Out": np.array([ins["Input"][0].size], np.int64)},
    "expand": lambda ins, a: {"Out": np.tile(ins["X"][0], _ints_from(ins, "expand_times_tensor", "ExpandTimes",
                                                                     a.get("expand_times", [])))},
    "meshgrid": lambda ins, a: {"Out": [g.copy() for g in np.meshgrid(*[v.reshape(-1) for v in ins["X"]],
                                                                      indexing="ij")]},
    "isinf": lambda ins, a: {"Out": np.array([np.isinf(ins["X"][0]).any()])},
    "isnan": lambda ins, a: {"Out": np.array([np.isnan(ins["X"][0]).any()])},
    "isfinite": lambda ins, a: {"Out": np.array([np.isfinite(ins["X"][0]).all()])},
    "instance_norm": lambda ins, a: _group_norm(ins, dict(a, groups=ins["X"][0].shape[1])),
    "mv": lambda ins, a: {"Out": ins["X"][0] @ ins["Vec"][0]},
    "roll": lambda ins, a: {"Out": np.roll(ins["X"][0], _ints_from(ins, "", "ShiftsTensor", a.get("shifts", [])),
                                           axis=tuple(a["axis"]) if a.get("axis") else None)},
    "pixel_shuffle": _pixel_shuffle,
    "bmm": lambda ins, a: {"Out": np.matmul(ins["X"][0], ins["Y"][0])},
    "elementwise_pow": _elementwise(np.power), "elementwise_floordiv": _elementwise(np.floor_divide),
    "elementwise_mod": _elementwise(np.mod),   # the remainder takes the divisor's sign
    "greater_equal": _elementwise(np.greater_equal), "less_equal": _elementwise(np.less_equal),
    "bitwise_and": _elementwise(np.bitwise_and),
    "flip": lambda ins, a: {"Out": np.flip(ins["X"][0], tuple(a["axis"])).copy()},
    "tril_triu": lambda ins, a: {"Out": (np.tril if a.get("lower", True) else np.triu)(
        ins["X"][0], a.get("diagonal", 0))},
    "einsum": lambda ins, a: {"Out": np.einsum(a["equation"], *ins["Operands"], optimize=True).astype(
        ins["Operands"][0].dtype)},
    "argsort": _argsort, "top_k_v2": _top_k,
    "gather": _gather, "gather_nd": _gather_nd,
    "index_select": lambda ins, a: {"Out": np.take(ins["X"][0], ins["Index"][0], axis=a.get("dim", 0))},
    "take_along_axis": _take_along_axis,
    "index_put": _index_put, "set_value": _set_value, "range": _range, "where": _where,
})



def _counter_hash(z):
    """splitmix64's finalizer of z + 0x9E3779B97F4A7C15 (uint64, wrapping)."""
    with np.errstate(over="ignore"):
        z = z + np.uint64(0x9E3779B97F4A7C15)
        z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        return z ^ (z >> np.uint64(31))


def _uniform_values(shape, a):
    """The documented generator of uniform_random: element p (row-major) is
    min + (max - min) * u, u from the top 24 (float32) or 53 (float64) bits
    of counter_hash(seed * 0xD1B54A32D192ED03 + p)."""
    dt = np.float64 if a.get("dtype", 5) == fp.VarType.FP64 else np.float32
    n = int(np.prod(shape, dtype=np.int64))
    seed = np.uint64(a.get("seed", 0) & 0xFFFFFFFF)
    with np.errstate(over="ignore"):
        z = _counter_hash(seed * np.uint64(0xD1B54A32D192ED03) + np.arange(n, dtype=np.uint64))
    shift = 11 if dt == np.float64 else 40
    u = (z >> np.uint64(shift)).astype(dt) * dt(2.0 ** -(64 - shift))
    lo, hi = a.get("min", -1.0), a.get("max", 1.0)
    v = dt(lo) + dt(hi - lo) * u
    diag = np.arange(a.get("diag_num", 0), dtype=np.int64) * (a.get("diag_step", 0) + 1)
    v[diag[diag < n]] = a.get("diag_val", 1.0)
    return v.reshape(shape)


def _uniform_random(ins, a):
    shape = _ints_from(ins, "ShapeTensorList", "ShapeTensor", a.get("shape", []))
    return {"Out": _uniform_values(shape, a)}


def _uniform_random_bsl(ins, a):
    shape = list(a["shape"])
    shape[a.get("output_dim_idx", 0)] = ins["Input"][0].shape[a.get("input_dim_idx", 0)]
    return {"Out": _uniform_values(shape, a)}


def _unique(ins, a):
    x = ins["X"][0]
    axes = a.get("axis", [])
    idt = np.int32 if a.get("dtype", fp.VarType.INT64) == fp.VarType.INT32 else np.int64
    if axes:
        ax = axes[0] % x.ndim
        rows = np.moveaxis(x, ax, 0).reshape(x.shape[ax], -1)
        _, first, inverse, counts = np.unique(rows, axis=0, return_index=True, return_inverse=True,
                                              return_counts=True)
    else:
        ax = 0
        x = x.reshape(-1)
        _, first, inverse, counts = np.unique(x, return_index=True, return_inverse=True,
                                              return_counts=True)
        if not a.get("is_sorted", False):
            # In order of first appearance.
            order = np.argsort(first, kind="stable")
            rank = np.empty_like(order)
            rank[order] = np.arange(len(order))
            first, counts, inverse = first[order], counts[order], rank[inverse]
    return {"Out": np.take(x, first, axis=ax), "Indices": first.astype(idt),
            "Index": inverse.reshape(-1).astype(idt), "Counts": counts.astype(idt)}


def _collect_fpn_proposals(ins, a):
    """The best post_nms_topN RoIs of all levels by score (ties: the later
    RoI of the concatenation first), then grouped by image, order kept."""
    rois = np.concatenate([r.reshape(-1, 4) for r in ins["MultiLevelRois"]])
    scores = np.concatenate([s.reshape(-1) for s in ins["MultiLevelScores"]])
    nums = ins["MultiLevelRoIsNum"]
    image = np.concatenate([np.repeat(np.arange(len(n)), n) for n in nums])
    pos = np.arange(len(scores))
    best = sorted(pos, key=lambda i: (-float(scores[i]), -int(i)))[:min(a["post_nms_topN"], len(pos))]
    kept = sorted(best, key=lambda i: image[i])
    counts = np.bincount(image[kept].astype(np.int64), minlength=len(nums[0])).astype(np.int32)
    return {"FpnRois": rois[kept].reshape(-1, 4), "RoisNum": counts}


def _deformable_conv(ins, a):
    """Paddle's deformable convolution (v1 without Mask, v2 with it):
    bilinear samples at the offset taps, zero outside, then a grouped
    product with the filter, in float64."""
    x = ins["Input"][0].astype(np.float64)
    off = ins["Offset"][0].astype(np.float64)
    w = ins["Filter"][0].astype(np.float64)
    mask = ins["Mask"][0].astype(np.float64) if ins.get("Mask") else None
    n, c, h, wd = x.shape
    m, cg, kh, kw = w.shape
    sh, sw = a.get("strides", [1, 1])
    ph, pw = a.get("paddings", [0, 0])[:2]
    dh, dw = a.get("dilations", [1, 1])
    groups, dgroups = a.get("groups", 1), a.get("deformable_groups", 1)
    oh, ow = off.shape[2:]
    per = c // dgroups
    ys = (np.arange(oh) * sh - ph)[:, None]
    xs = (np.arange(ow) * sw - pw)[None, :]
    cols = np.zeros((n, c, kh, kw, oh, ow))
    for b in range(n):
        for d in range(dgroups):
            img = x[b, d * per:(d + 1) * per]
            for i in range(kh):
                for j in range(kw):
                    t = i * kw + j
                    hs = ys + i * dh + off[b, d * 2 * kh * kw + 2 * t]
                    ws = xs + j * dw + off[b, d * 2 * kh * kw + 2 * t + 1]
                    inside = (hs > -1) & (ws > -1) & (hs < h) & (ws < wd)
                    h0, w0 = np.floor(hs).astype(np.int64), np.floor(ws).astype(np.int64)
                    lh, lw = hs - h0, ws - w0
                    val = np.zeros((per, oh, ow))
                    for yy, xx, wt in ((h0, w0, (1 - lh) * (1 - lw)), (h0, w0 + 1, (1 - lh) * lw),
                                       (h0 + 1, w0, lh * (1 - lw)), (h0 + 1, w0 + 1, lh * lw)):
                        ok = inside & (yy >= 0) & (yy < h) & (xx >= 0) & (xx < wd)
                        val += np.where(ok, img[:, np.clip(yy, 0, h - 1), np.clip(xx, 0, wd - 1)], 0) * wt
                    if mask is not None:
                        val *= mask[b, d * kh * kw + t]
                    cols[b, d * per:(d + 1) * per, i, j] = val
    mg = m // groups
    out = np.concatenate([np.einsum("nckhyx,mckh->nmyx", cols[:, g * cg:(g + 1) * cg], w[g * mg:(g + 1) * mg])
                          for g in range(groups)], axis=1)
    return {"Output": out.astype(ins["Input"][0].dtype)}


OPS.update({
    "uniform_random": _uniform_random, "uniform_random_batch_size_like": _uniform_random_bsl,
    "unique": _unique, "collect_fpn_proposals": _collect_fpn_proposals,
    "deformable_conv": _deformable_conv, "deformable_conv_v1": _deformable_conv,
})


def _sequence_pool(ins, a):
    """Each sequence (rows of X counted by the lengths) pooled to one row;
    an empty sequence gives pad_value. MaxIndex: the row of X holding each
    maximum (MAX), else -1."""
    if "@lengths" not in ins:
        raise ValueError("reference: sequence_pool needs a LoD input (X has no sequence lengths)")
    x, lengths = ins["X"][0], np.asarray(ins["@lengths"][0]).astype(np.int64)
    if lengths.sum() != x.shape[0] or (lengths < 0).any():
        raise ValueError("reference: sequence lengths %s do not cover the %d rows of X" % (lengths, x.shape[0]))
    kind = a.get("pooltype", "AVERAGE")
    out = np.empty((len(lengths),) + x.shape[1:], x.dtype)
    index = np.full(out.shape, -1, np.int32)
    start = 0
    for s, n in enumerate(lengths):
        seq = x[start:start + n].astype(np.float64)
        if n == 0:
            out[s] = a.get("pad_value", 0.0)
        elif kind == "AVERAGE":
            out[s] = seq.sum(0) / n
        elif kind == "SUM":
            out[s] = seq.sum(0)
        elif kind == "SQRT":
            out[s] = seq.sum(0) / np.sqrt(n)
        elif kind == "MAX":
            out[s] = seq.max(0)
            index[s] = start + seq.argmax(0)
        elif kind == "LAST":
            out[s] = seq[-1]
        else:
            out[s] = seq[0]
        start += n
    return {"Out": out, "MaxIndex": index}


def _sequence_conv(ins, a):
    """Out[s + t] = context(t) @ Filter for row t of the sequence starting
    at row s: the concatenation of rows t + contextStart + k, k < contextLength,
    a zero row where that falls outside the sequence."""
    if "@lengths" not in ins:
        raise ValueError("reference: sequence_conv needs a LoD input (X has no sequence lengths)")
    if a.get("paddingTrainable", False):
        raise ValueError("reference: sequence_conv with paddingTrainable is not supported")
    if a.get("contextStride", 1) != 1:
        raise ValueError("reference: sequence_conv contextStride must be 1, got %d" % a["contextStride"])
    x, lengths = ins["X"][0], np.asarray(ins["@lengths"][0]).astype(np.int64)
    if lengths.sum() != x.shape[0] or (lengths < 0).any():
        raise ValueError("reference: sequence lengths %s do not cover the %d rows of X" % (lengths, x.shape[0]))
    w = ins["Filter"][0].astype(np.float64)
    start, size = a.get("contextStart", 0), a.get("contextLength", 1)
    d = x.shape[1]
    if w.shape[0] != size * d:
        raise ValueError("reference: sequence_conv Filter has %d rows, expected contextLength * %d = %d"
                         % (w.shape[0], d, size * d))
    ctx = np.zeros((x.shape[0], size * d))
    s = 0
    for n in lengths:
        for t in range(n):
            for k in range(size):
                j = t + start + k
                if 0 <= j < n:
                    ctx[s + t, k * d:(k + 1) * d] = x[s + j]
        s += n
    return {"Out": (ctx @ w).astype(x.dtype)}


_RNN_GATES = {"LSTM": 4, "GRU": 3, "RNN_TANH": 1, "RNN_RELU": 1}


def _rnn_cell(mode, x, h, c, w_ih, w_hh, b_ih, b_hh):
    """One step of a cell on a batch: (h', c'); c is None except for LSTM."""
    sig = lambda v: 1 / (1 + np.exp(-v))
    gx, gh = x @ w_ih.T + b_ih, h @ w_hh.T + b_hh
    if mode == "LSTM":
        i, f, g, o = np.split(gx + gh, 4, axis=1)
        c = sig(f) * c + sig(i) * np.tanh(g)
        return sig(o) * np.tanh(c), c
    if mode == "GRU":
        xr, xz, xc = np.split(gx, 3, axis=1)
        hr, hz, hc = np.split(gh, 3, axis=1)
        r, z = sig(xr + hr), sig(xz + hz)
        return z * h + (1 - z) * np.tanh(xc + r * hc), None
    g = gx + gh
    return (np.tanh(g) if mode == "RNN_TANH" else np.maximum(g, 0)), None


def _rnn(ins, a):
    """Paddle 2.x's rnn op (cuDNN layout) at inference: num_layers stacked
    layers, each one or two directions; with SequenceLength sequence n runs
    only its first len[n] steps (backward: from step len[n] - 1 down), its
    other output rows are zero. In float64."""
    mode = a.get("mode", "LSTM")
    if mode not in _RNN_GATES:
        raise ValueError("reference: rnn mode %r is not LSTM, GRU, RNN_TANH or RNN_RELU" % mode)
    gates, layers = _RNN_GATES[mode], a.get("num_layers", 1)
    dirs = 2 if a.get("is_bidirec", False) else 1
    hidden = a["hidden_size"]
    x = ins["Input"][0]
    if x.ndim != 3:
        raise ValueError("reference: rnn Input must be [T, N, I], got shape %s" % (x.shape,))
    steps, batch = x.shape[:2]
    weights = [w.astype(np.float64) for w in ins["WeightList"]]
    cells = layers * dirs
    if len(weights) != 4 * cells:
        raise ValueError("reference: rnn %s with %d layer(s) x %d direction(s) needs %d weights, got %d"
                         % (mode, layers, dirs, 4 * cells, len(weights)))
    states = [s.astype(np.float64) for s in ins["PreState"]]
    if len(states) != (2 if mode == "LSTM" else 1):
        raise ValueError("reference: rnn %s needs %d PreState tensors, got %d"
                         % (mode, 2 if mode == "LSTM" else 1, len(states)))
    for s in states:
        if s.shape != (cells, batch, hidden):
            raise ValueError("reference: rnn PreState has shape %s, expected %s"
                             % (s.shape, (cells, batch, hidden)))
    if ins.get("SequenceLength"):
        lengths = np.asarray(ins["SequenceLength"][0]).astype(np.int64).reshape(-1)
        if lengths.shape != (batch,) or (lengths < 0).any() or (lengths > steps).any():
            raise ValueError("reference: rnn SequenceLength %s does not fit batch %d of %d steps"
                             % (lengths, batch, steps))
    else:
        lengths = np.full(batch, steps, np.int64)
    h_n, c_n = np.zeros((cells, batch, hidden)), np.zeros((cells, batch, hidden))
    inp = x.astype(np.float64)
    for l in range(layers):
        out = np.zeros((steps, batch, dirs * hidden))
        for d in range(dirs):
            k = l * dirs + d
            w_ih, w_hh = weights[2 * k], weights[2 * k + 1]
            b_ih, b_hh = weights[2 * cells + 2 * k], weights[2 * cells + 2 * k + 1]
            if (w_ih.shape != (gates * hidden, inp.shape[2]) or w_hh.shape != (gates * hidden, hidden)
                    or b_ih.shape != (gates * hidden,) or b_hh.shape != (gates * hidden,)):
                raise ValueError("reference: rnn weights of layer %d direction %d have shapes %s, %s, %s, %s; "
                                 "expected %s, %s, %s, %s" % (
                                     l, d, w_ih.shape, w_hh.shape, b_ih.shape, b_hh.shape,
                                     (gates * hidden, inp.shape[2]), (gates * hidden, hidden),
                                     (gates * hidden,), (gates * hidden,)))
            h = states[0][k]
            c = states[1][k] if mode == "LSTM" else None
            for t in (range(steps) if d == 0 else range(steps - 1, -1, -1)):
                live = (t < lengths)[:, None]
                h2, c2 = _rnn_cell(mode, inp[t], h, c, w_ih, w_hh, b_ih, b_hh)
                h = np.where(live, h2, h)
                if c is not None:
                    c = np.where(live, c2, c)
                out[t, :, d * hidden:(d + 1) * hidden] = np.where(live, h2, 0)
            h_n[k] = h
            if c is not None:
                c_n[k] = c
        inp = out
    f32 = lambda v: v.astype(np.float32)
    return {"Out": f32(inp), "State": [f32(h_n), f32(c_n)] if mode == "LSTM" else [f32(h_n)]}


def _cudnn_lstm(ins, a):
    """Fluid's cudnn_lstm: rnn in mode LSTM whose weights come packed in W
    (per layer and direction W_ih [4H, I_l] then W_hh [4H, H]; after all of
    them b_ih then b_hh), or as a WeightList; LastH / LastC are the states."""
    hidden, layers = a["hidden_size"], a.get("num_layers", 1)
    dirs = 2 if a.get("is_bidirec", False) else 1
    x = ins["Input"][0]
    weights = ins.get("WeightList")
    if not weights:
        w = np.asarray(ins["W"][0]).reshape(-1)
        shapes = []
        for l in range(layers):
            for _ in range(dirs):
                shapes += [(4 * hidden, x.shape[2] if l == 0 else dirs * hidden), (4 * hidden, hidden)]
        shapes += [(4 * hidden,)] * (2 * layers * dirs)
        sizes = [int(np.prod(sh)) for sh in shapes]
        if sum(sizes) != w.size:
            raise ValueError("reference: cudnn_lstm W has %d values, expected %d" % (w.size, sum(sizes)))
        bounds = np.cumsum([0] + sizes)
        weights = [w[lo:hi].reshape(sh) for lo, hi, sh in zip(bounds[:-1], bounds[1:], shapes)]
    out = _rnn({"Input": [x], "PreState": [ins["InitH"][0], ins["InitC"][0]], "WeightList": weights,
                "SequenceLength": ins.get("SequenceLength")}, dict(a, mode="LSTM"))
    return {"Out": out["Out"], "LastH": out["State"][0], "LastC": out["State"][1]}


_FLUID_ACTS = {
    "sigmoid": lambda v: 1 / (1 + np.exp(-v)), "tanh": np.tanh,
    "relu": lambda v: np.maximum(v, 0), "identity": lambda v: v,
}


def _fluid_act(op, a, key, default):
    name = a.get(key, default) or default
    if name not in _FLUID_ACTS:
        raise ValueError("reference: %s %s %r is not one of %s" % (op, key, name, ", ".join(sorted(_FLUID_ACTS))))
    return _FLUID_ACTS[name]


def _fluid_rnn_args(op, ins, a, gates, states):
    """Checked (x, lengths, initial states, weight, bias) of Fluid's gru /
    lstm: x [T, gates * H] packed sequences, weight [H, gates * H], each of
    `states` (slot names) [N, H] or zeros, bias a flat row or None."""
    if "@lengths" not in ins:
        raise ValueError("reference: %s needs a LoD input (Input has no sequence lengths)" % op)
    x = ins["Input"][0].astype(np.float64)
    lengths = np.asarray(ins["@lengths"][0]).astype(np.int64).reshape(-1)
    if x.ndim != 2 or lengths.sum() != x.shape[0] or (lengths < 0).any():
        raise ValueError("reference: %s sequence lengths %s do not cover the rows of Input %s"
                         % (op, lengths, x.shape))
    w = ins["Weight"][0].astype(np.float64)
    hidden = w.shape[0]
    if w.shape != (hidden, gates * hidden) or x.shape[1] != gates * hidden:
        raise ValueError("reference: %s Weight %s and Input %s do not match a hidden size H "
                         "(Weight [H, %dH], Input [T, %dH])" % (op, w.shape, x.shape, gates, gates))
    init = []
    for slot in states:
        if ins.get(slot):
            v = ins[slot][0].astype(np.float64)
            if v.shape != (len(lengths), hidden):
                raise ValueError("reference: %s %s has shape %s, expected %s"
                                 % (op, slot, v.shape, (len(lengths), hidden)))
            init.append(v)
        else:
            init.append(np.zeros((len(lengths), hidden)))
    bias = ins["Bias"][0].astype(np.float64).reshape(-1) if ins.get("Bias") else None
    return x, lengths, init, w, bias


def _fluid_rows(lengths, reverse):
    """Row indices of each sequence in processing order."""
    starts = np.concatenate([[0], np.cumsum(lengths)[:-1]]).astype(np.int64)
    for s, n in zip(starts, lengths):
        rows = range(s, s + n)
        yield rows[::-1] if reverse else rows


def _fluid_gru(ins, a):
    """Fluid's LoD gru: Input holds the projected update, reset and candidate
    parts of each row; every sequence runs on its own from H0 (or zeros),
    backwards with is_reverse. Weight's memory is the [H, 2H] update/reset
    weights followed by the [H, H] candidate weights. Hidden: a row per
    input row."""
    x, lengths, (h0,), w, bias = _fluid_rnn_args("gru", ins, a, 3, ["H0"])
    hidden = w.shape[0]
    if bias is not None and bias.shape != (3 * hidden,):
        raise ValueError("reference: gru Bias has %d values, expected 3 * H = %d" % (bias.size, 3 * hidden))
    flat = w.reshape(-1)
    w_ur = flat[:2 * hidden * hidden].reshape(hidden, 2 * hidden)
    w_c = flat[2 * hidden * hidden:].reshape(hidden, hidden)
    act = _fluid_act("gru", a, "activation", "tanh")
    gate_act = _fluid_act("gru", a, "gate_activation", "sigmoid")
    origin = a.get("origin_mode", False)
    if bias is not None:
        x = x + bias
    out = np.zeros((x.shape[0], hidden))
    for n, rows in enumerate(_fluid_rows(lengths, a.get("is_reverse", False))):
        h = h0[n]
        for t in rows:
            ur = x[t, :2 * hidden] + h @ w_ur
            u, r = gate_act(ur[:hidden]), gate_act(ur[hidden:])
            m = act(x[t, 2 * hidden:] + (r * h) @ w_c)
            h = u * h + (1 - u) * m if origin else (1 - u) * h + u * m
            out[t] = h
    return {"Hidden": out.astype(np.float32)}


def _fluid_lstm(ins, a):
    """Fluid's LoD lstm: Input holds the projected candidate, input, forget
    and output gates of each row (Weight [H, 4H] in the same order); every
    sequence runs on its own from H0, C0 (or zeros), backwards with
    is_reverse. With use_peepholes Bias is [1, 7H], its last 3H the
    diagonal cell weights of the input, forget and output gates. Hidden and
    Cell: a row per input row."""
    x, lengths, (h0, c0), w, bias = _fluid_rnn_args("lstm", ins, a, 4, ["H0", "C0"])
    hidden = w.shape[0]
    peep = a.get("use_peepholes", True)
    width = (7 if peep else 4) * hidden
    if bias is None:
        bias = np.zeros(width)
    if bias.shape != (width,):
        raise ValueError("reference: lstm Bias has %d values, expected %d * H = %d (use_peepholes %s)"
                         % (bias.size, 7 if peep else 4, width, peep))
    w_ic, w_fc, w_oc = np.split(bias[4 * hidden:], 3) if peep else (0, 0, 0)
    gate_act = _fluid_act("lstm", a, "gate_activation", "sigmoid")
    cell_act = _fluid_act("lstm", a, "cell_activation", "tanh")
    cand_act = _fluid_act("lstm", a, "candidate_activation", "tanh")
    x = x + bias[:4 * hidden]
    hs, cs = np.zeros((x.shape[0], hidden)), np.zeros((x.shape[0], hidden))
    for n, rows in enumerate(_fluid_rows(lengths, a.get("is_reverse", False))):
        h, c = h0[n], c0[n]
        for t in rows:
            gc, gi, gf, go = np.split(x[t] + h @ w, 4)
            i, f = gate_act(gi + w_ic * c), gate_act(gf + w_fc * c)
            c = f * c + i * cand_act(gc)
            h = gate_act(go + w_oc * c) * cell_act(c)
            hs[t], cs[t] = h, c
    return {"Hidden": hs.astype(np.float32), "Cell": cs.astype(np.float32)}


def _fluid_lstmp(ins, a):
    """Fluid's LoD lstmp: an LSTM of hidden size D whose hidden state h is
    projected, r = proj_act(h @ ProjWeight [D, P]) clipped to +-proj_clip
    (when > 0); the gates read r @ Weight [P, 4D]; the cell is clipped to
    +-cell_clip (when > 0) before the output gate. The first r comes from
    H0 [N, D] the same way without the clip, or is zeros. Projection [T, P]
    and Cell [T, D]: a row per input row."""
    if "@lengths" not in ins:
        raise ValueError("reference: lstmp needs a LoD input (Input has no sequence lengths)")
    x = ins["Input"][0].astype(np.float64)
    lengths = np.asarray(ins["@lengths"][0]).astype(np.int64).reshape(-1)
    w, pw = ins["Weight"][0].astype(np.float64), ins["ProjWeight"][0].astype(np.float64)
    d, p = pw.shape
    if w.shape != (p, 4 * d) or x.shape[1] != 4 * d or lengths.sum() != x.shape[0]:
        raise ValueError("reference: lstmp shapes Input %s, Weight %s, ProjWeight %s, lengths %s"
                         % (x.shape, w.shape, pw.shape, lengths))
    peep = a.get("use_peepholes", True)
    bias = ins["Bias"][0].astype(np.float64).reshape(-1)
    w_ic, w_fc, w_oc = np.split(bias[4 * d:], 3) if peep else (0, 0, 0)
    gate_act = _fluid_act("lstmp", a, "gate_activation", "sigmoid")
    cell_act = _fluid_act("lstmp", a, "cell_activation", "tanh")
    cand_act = _fluid_act("lstmp", a, "candidate_activation", "tanh")
    proj_act = _fluid_act("lstmp", a, "proj_activation", "tanh")
    cell_clip, proj_clip = a.get("cell_clip", 0.0), a.get("proj_clip", 0.0)
    n = len(lengths)
    h0 = ins["H0"][0].astype(np.float64) if ins.get("H0") else None
    c0 = ins["C0"][0].astype(np.float64) if ins.get("C0") else np.zeros((n, d))
    x = x + bias[:4 * d]
    rs, cs = np.zeros((x.shape[0], p)), np.zeros((x.shape[0], d))
    for s, rows in enumerate(_fluid_rows(lengths, a.get("is_reverse", False))):
        r = proj_act(h0[s] @ pw) if h0 is not None else np.zeros(p)
        c = c0[s]
        for t in rows:
            gc, gi, gf, go = np.split(x[t] + r @ w, 4)
            i, f = gate_act(gi + w_ic * c), gate_act(gf + w_fc * c)
            c = f * c + i * cand_act(gc)
            if cell_clip > 0:
                c = np.clip(c, -cell_clip, cell_clip)
            h = gate_act(go + w_oc * c) * cell_act(c)
            r = proj_act(h @ pw)
            if proj_clip > 0:
                r = np.clip(r, -proj_clip, proj_clip)
            rs[t], cs[t] = r, c
    return {"Projection": rs.astype(np.float32), "Cell": cs.astype(np.float32)}


def _crf_decoding(ins, a):
    """Viterbi over each sequence: Transition rows are the start weights,
    the end weights, then from-tag rows; the first maximum wins ties."""
    if "@lengths" not in ins:
        raise ValueError("reference: crf_decoding needs a LoD Emission (no sequence lengths)")
    if ins.get("Label") or ins.get("Length"):
        raise ValueError("reference: crf_decoding's Label and padded (Length) forms are not implemented")
    e, w = ins["Emission"][0].astype(np.float64), ins["Transition"][0].astype(np.float64)
    lengths = np.asarray(ins["@lengths"][0]).astype(np.int64)
    if lengths.sum() != e.shape[0] or w.shape != (e.shape[1] + 2, e.shape[1]):
        raise ValueError("reference: crf_decoding got Emission %s, Transition %s, lengths %s"
                         % (e.shape, w.shape, lengths))
    path, first = np.zeros((e.shape[0], 1), np.int64), 0
    for n in lengths:
        if n:
            score, back = w[0] + e[first], []
            for k in range(1, n):
                cand = score[:, None] + w[2:]          # [from, to]
                back.append(cand.argmax(0))
                score = cand.max(0) + e[first + k]
            tag = int((score + w[1]).argmax())
            for k in range(n - 1, -1, -1):
                path[first + k, 0] = tag
                if k:
                    tag = int(back[k - 1][tag])
        first += n
    return {"ViterbiPath": path}


def _viterbi_decode(ins, a):
    """Paddle 2.x's padded CRF decoding: per row n, its first Length[n]
    steps; with include_bos_eos_tag the last Transition row is added at the
    first step and the second-last after the last step. Path is
    [N, min(T, max Length)], zero past each length."""
    x, w = ins["Input"][0].astype(np.float64), ins["Transition"][0].astype(np.float64)
    lengths = np.asarray(ins["Length"][0]).astype(np.int64)
    n, steps, tags = x.shape
    if w.shape != (tags, tags) or lengths.shape != (n,) or (lengths < 0).any() or (lengths > steps).any():
        raise ValueError("reference: viterbi_decode got Input %s, Transition %s, Length %s"
                         % (x.shape, w.shape, lengths))
    bos = a.get("include_bos_eos_tag", True)
    width = min(steps, int(lengths.max())) if n else 0
    scores, path = np.zeros(n, x.dtype), np.zeros((n, width), np.int64)
    for s in range(n):
        if steps == 0:
            continue
        length = lengths[s]
        score = x[s, 0] + (w[-1] if bos else 0) + (w[-2] if bos and length == 1 else 0)
        back = []
        for i in range(1, length):
            cand = score[:, None] + w
            back.append(cand.argmax(0))
            score = cand.max(0) + x[s, i] + (w[-2] if bos and i == length - 1 else 0)
        tag = int(score.argmax())
        scores[s] = score[tag]
        for i in range(length - 1, -1, -1):
            path[s, i] = tag
            if i:
                tag = int(back[i - 1][tag])
    return {"Scores": scores.astype(ins["Input"][0].dtype), "Path": path}


# Ops that read the sequence lengths of their LoD input (as ins["@lengths"]),
# and those whose outputs are no longer sequences of it.
LOD_OPS = {"sequence_pool", "sequence_conv", "gru", "lstm", "lstmp", "crf_decoding", "sequence_softmax",
           "sequence_expand", "sequence_expand_as", "sequence_reshape", "box_clip", "lod_rank_table",
           "reorder_lod_tensor_by_rank", "shrink_rnn_memory"}
LOD_CONSUMERS = {"sequence_pool", "lod_rank_table", "lod_tensor_to_array"}
# The input slot whose LoD an op's outputs share, where it is not the first
# of LOD_MAIN_SLOTS the op has.
LOD_FROM = {"lookup_table": "Ids", "lookup_table_v2": "Ids", "sequence_expand_as": "Y"}
LOD_MAIN_SLOTS = ("X", "Input", "Ids", "Emission")


def _array_lod(op, env, lod):
    """A tensor array keeps each element's LoD: write_to_array records X's
    (None without) at the index, read_from_array gives it back."""
    arg = lambda slots, name: next(n for v in slots if v.parameter == name for n in v.arguments)
    i = _array_index(env[arg(op.inputs, "I")], op.type)
    if op.type == "write_to_array":
        arr = arg(op.outputs, "Out")
        elems = list(lod.get(arr, []))
        elems += [None] * (i + 1 - len(elems))
        elems[i] = lod.get(arg(op.inputs, "X"))
        lod[arr] = elems
    else:
        elems = lod.get(arg(op.inputs, "X"), [])
        out = arg(op.outputs, "Out")
        if i < len(elems) and elems[i] is not None:
            lod[out] = elems[i]
        else:
            lod.pop(out, None)

# ---- ops of Fluid while loops (greedy decoding heads such as SLANet's).

def _one_hot_v2(ins, a):
    """Out = X's shape + [depth], 1 at each index; an index outside
    [0, depth) is an error unless allow_out_of_range (then a zero row)."""
    x = np.asarray(ins["X"][0]).astype(np.int64)
    depth = int(np.asarray(ins["depth_tensor"][0]).reshape(-1)[0]) if ins.get("depth_tensor") else a["depth"]
    bad = (x < 0) | (x >= depth)
    if bad.any() and not a.get("allow_out_of_range", False):
        raise ValueError("one_hot_v2: index %d outside [0, %d)" % (x[bad][0], depth))
    out = (x[..., None] == np.arange(depth)) & ~bad[..., None]
    return {"Out": out.astype(NP_DTYPE[a.get("dtype", fp.VarType.FP32)])}


def _increment(ins, a):
    """Out = X + step (X has one element) in X's dtype: the step is cast
    first, as Paddle's static_cast<T>(step)."""
    x = ins["X"][0]
    return {"Out": (x + np.asarray(a.get("step", 1.0)).astype(x.dtype)).astype(x.dtype)}


OPS.update({"one_hot_v2": _one_hot_v2, "increment": _increment})


def _crop(ins, a):
    """Fluid's crop / crop_tensor with attribute offsets: X[offsets :
    offsets + shape], the shape Y's when given, -1 meaning to the end."""
    x = ins["X"][0]
    shape = list(ins["Y"][0].shape) if ins.get("Y") else list(a["shape"])
    offsets = list(a.get("offsets") or [0] * x.ndim)
    return {"Out": x[tuple(slice(o, x.shape[i] if s == -1 else o + s)
                           for i, (o, s) in enumerate(zip(offsets, shape)))]}


def _one_hot(ins, a):
    """Fluid's one_hot: X [.., 1] of indices -> [.., depth]."""
    x = np.asarray(ins["X"][0])
    assert x.shape[-1] == 1, "one_hot: X's last dim must be 1"
    return _one_hot_v2(dict(ins, X=[x[..., 0]]), a)


# The Fluid 1.x forms of the *2 ops (no XShape output; same semantics).
OPS.update({"reshape": OPS["reshape2"], "transpose": OPS["transpose2"], "squeeze": OPS["squeeze2"],
            "unsqueeze": OPS["unsqueeze2"], "flatten": OPS["flatten2"], "crop": _crop,
            "crop_tensor": _crop, "one_hot": _one_hot})

# ---- ops of Fluid branches (conditional_block runs in Model.run_op).

def _branch(mask, n, op):
    """The branch a select_input/select_output Mask (int32, one element) picks."""
    m = np.asarray(mask).reshape(-1)
    if m.size != 1:
        raise ValueError("%s: Mask has %d elements, not 1" % (op, m.size))
    k = int(m[0])
    if not 0 <= k < n:
        raise ValueError("%s: Mask %d outside [0, %d)" % (op, k, n))
    return k


def _select_input(ins, a):
    """Out = X[Mask[0]] (run_op passes None for an X no branch has set)."""
    k = _branch(ins["Mask"][0], len(ins["X"]), "select_input")
    if ins["X"][k] is None:
        raise ValueError("select_input: X[%d] has no value" % k)
    v = ins["X"][k]
    return {"Out": [_copy(v)] if isinstance(v, list) else np.array(v)}  # [a tensor array]


def _select_output(ins, a):
    """Out[Mask[0]] = X; None leaves the other outputs as they were (run_op
    gives the number of Out variables as ins["@outs"])."""
    n = ins["@outs"][0]
    k = _branch(ins["Mask"][0], n, "select_output")
    return {"Out": [_copy(ins["X"][0]) if i == k else None for i in range(n)]}


OPS.update({
    "select_input": _select_input, "select_output": _select_output,
    "logical_not": lambda ins, a: {"Out": np.logical_not(ins["X"][0])},
    "logical_and": _elementwise(np.logical_and), "logical_or": _elementwise(np.logical_or),
    "logical_xor": _elementwise(np.logical_xor),
})

# ---- tensor arrays (LOD_TENSOR_ARRAY variables): a Python list of arrays
# in env. Ops return an array as a one-name list slot ({"Out": [list]}) so
# that run_op binds the list itself.

def _array_index(i, op):
    i = np.asarray(i)
    if i.size != 1 or i.dtype not in (np.int32, np.int64):
        raise ValueError("%s: I must be one int32 or int64 index, got %s %s" % (op, i.dtype, i.shape))
    return int(i.reshape(-1)[0])


def _array_arg(v, op):
    if not isinstance(v, list):
        raise ValueError("%s: X is not a tensor array" % op)
    return v


def _write_to_array(ins, a):
    """Out[I] = X on a copy of the array Out held before (run_op passes it
    as ins["@array"], None where Out held nothing); the array grows to
    I + 1 elements where shorter. Paddle leaves the elements skipped over
    empty; here they are zeros of X's shape, as in the compiler. Every
    element must have X's type and X's dims after the first (a DynamicRNN's
    memory array holds fewer rows at each step)."""
    x = np.array(ins["X"][0])
    i = _array_index(ins["I"][0], "write_to_array")
    if i < 0:
        raise ValueError("write_to_array: index %d is negative" % i)
    prev = ins.get("@array", [None])[0]
    arr = _copy(prev) if isinstance(prev, list) else []
    for e in arr:
        if e.shape[1:] != x.shape[1:] or e.ndim != x.ndim or e.dtype != x.dtype:
            raise ValueError("write_to_array: element %d (%s %s) does not match the array's elements "
                             "(%s %s)" % (i, x.dtype, x.shape, e.dtype, e.shape))
    while len(arr) <= i:
        arr.append(np.zeros_like(x))
    arr[i] = x
    return {"Out": [arr]}


def _read_from_array(ins, a):
    arr = _array_arg(ins["X"][0], "read_from_array")
    i = _array_index(ins["I"][0], "read_from_array")
    if not 0 <= i < len(arr):
        raise ValueError("read_from_array: index %d is outside the array's %d elements" % (i, len(arr)))
    return {"Out": np.array(arr[i])}


def _lod_array_length(ins, a):
    return {"Out": np.array([len(_array_arg(ins["X"][0], "lod_array_length"))], np.int64)}


def _tensor_array_to_tensor(ins, a):
    """Out: the elements stacked at axis (use_stack) or concatenated along
    it; OutIndex (int32): each element's dim at axis, also when stacked
    (Paddle's LoDTensorArray2TensorOp reads inx[i].dims()[axis] either
    way, so stacking after the last dim has no OutIndex: an error here)."""
    arr = _array_arg(ins["X"][0], "tensor_array_to_tensor")
    if not arr:
        raise ValueError("tensor_array_to_tensor: the array has no elements")
    rank = arr[0].ndim
    stack = bool(a.get("use_stack", False))
    axis = a.get("axis", 1)
    axis = axis + (rank + 1 if stack else rank) if axis < 0 else axis
    if not 0 <= axis < rank:
        raise ValueError("tensor_array_to_tensor: axis %d outside the elements' %d dims" % (a.get("axis", 1), rank))
    out = np.stack(arr, axis) if stack else np.concatenate(arr, axis)
    return {"Out": out, "OutIndex": np.array([e.shape[axis] for e in arr], np.int32)}


OPS.update({"write_to_array": _write_to_array, "read_from_array": _read_from_array,
            "lod_array_length": _lod_array_length, "tensor_array_to_tensor": _tensor_array_to_tensor})


# ---- Fluid's DynamicRNN, as Paddle runs it: a rank table lists the
# sequences (index, length) longest first, ties in batch order; an array
# over time steps holds at step t only the sequences longer than t, in rank
# order, so its elements shrink.

def _rank_table(t, op):
    t = np.asarray(t)
    if t.ndim != 2 or t.shape[1] != 2 or sorted(t[:, 0].tolist()) != list(range(len(t))):
        raise ValueError("%s: RankTable is not a rank table: %s" % (op, t.tolist()))
    return [(int(i), int(n)) for i, n in t]


def _lod_rank_table(ins, a):
    if "@lengths" not in ins:
        raise ValueError("lod_rank_table: X has no LoD")
    if a.get("level", 0) != 0:
        raise ValueError("lod_rank_table: level %d of a one-level LoD" % a["level"])
    lengths = [int(n) for n in np.asarray(ins["@lengths"][0]).reshape(-1)]
    order = sorted(range(len(lengths)), key=lambda i: -lengths[i])   # sorted() is stable
    return {"Out": np.array([[i, lengths[i]] for i in order], np.int64).reshape(-1, 2)}


def _max_sequence_len(ins, a):
    table = _rank_table(ins["RankTable"][0], "max_sequence_len")
    return {"Out": np.array([table[0][1] if table else 0], np.int64)}


def _lod_tensor_to_array(ins, a):
    x = np.asarray(ins["X"][0])
    table = _rank_table(ins["RankTable"][0], "lod_tensor_to_array")
    lengths = dict(table)
    starts = np.concatenate([[0], np.cumsum([lengths[i] for i in range(len(table))])]).astype(np.int64)
    if starts[-1] != x.shape[0]:
        raise ValueError("lod_tensor_to_array: X has %d rows, the table's sequences %d" % (x.shape[0], starts[-1]))
    longest = table[0][1] if table else 0
    # (A list slot binds one name per element: the array is one value.)
    return {"Out": [[np.stack([x[starts[i] + t] for i, n in table if n > t]) for t in range(longest)]]}


def _array_to_lod_tensor(ins, a):
    arr = _array_arg(ins["X"][0], "array_to_lod_tensor")
    table = _rank_table(ins["RankTable"][0], "array_to_lod_tensor")
    rows = {}
    for j, (i, n) in enumerate(table):
        if n > len(arr):
            raise ValueError("array_to_lod_tensor: sequence %d needs %d elements, the array has %d" % (i, n, len(arr)))
        rows[i] = [arr[t][j] for t in range(n)]
    lengths = np.array([len(rows[i]) for i in range(len(table))], np.int64)
    parts = [np.stack(rows[i]) for i in range(len(table)) if rows[i]]
    width = arr[0].shape[1:] if arr else ()
    out = np.concatenate(parts) if parts else np.zeros((0,) + width, arr[0].dtype if arr else np.float32)
    return {"Out": out, "@lod": lengths}


def _shrink_rnn_memory(ins, a):
    """The rows (or, for a LoD batch, the sequences, with their LoD) of the
    sequences longer than step I: the first ones in rank order."""
    x = np.asarray(ins["X"][0])
    table = _rank_table(ins["RankTable"][0], "shrink_rnn_memory")
    step = _array_index(ins["I"][0], "shrink_rnn_memory")
    keep = sum(1 for _, n in table if n > step)
    if "@lengths" not in ins:
        return {"Out": x[:keep]}
    lengths = np.asarray(ins["@lengths"][0]).astype(np.int64)
    return {"Out": x[:int(lengths[:keep].sum())], "@lod": lengths[:keep]}


def _reorder_lod_tensor_by_rank(ins, a):
    """The rows of X (one per sequence) or, for a LoD batch, its sequences,
    in rank order."""
    x = np.asarray(ins["X"][0])
    table = _rank_table(ins["RankTable"][0], "reorder_lod_tensor_by_rank")
    order = [i for i, _ in table]
    if "@lengths" not in ins:
        if x.shape[0] != len(table):
            raise ValueError("reorder_lod_tensor_by_rank: X has %d rows for %d sequences" % (x.shape[0], len(table)))
        return {"Out": x[order]}
    lengths = _seq_lengths(ins, "reorder_lod_tensor_by_rank", x.shape[0], "X")
    if len(lengths) != len(table):
        raise ValueError("reorder_lod_tensor_by_rank: X has %d sequences for %d in the table" % (len(lengths), len(table)))
    starts = np.concatenate([[0], np.cumsum(lengths)]).astype(np.int64)
    parts = [x[starts[i]:starts[i + 1]] for i in order]
    out = np.concatenate(parts) if parts else x[:0]
    return {"Out": out, "@lod": lengths[order]}


OPS.update({"lod_rank_table": _lod_rank_table, "max_sequence_len": _max_sequence_len,
            "lod_tensor_to_array": _lod_tensor_to_array, "array_to_lod_tensor": _array_to_lod_tensor,
            "shrink_rnn_memory": _shrink_rnn_memory, "reorder_lod_tensor_by_rank": _reorder_lod_tensor_by_rank})

def _seq_lengths(ins, op, rows, slot):
    if "@lengths" not in ins:
        raise ValueError("reference: %s needs a LoD input (%s has no sequence lengths)" % (op, slot))
    lengths = np.asarray(ins["@lengths"][0]).astype(np.int64)
    if lengths.sum() != rows or (lengths < 0).any():
        raise ValueError("reference: sequence lengths %s do not cover the %d rows of %s" % (lengths, rows, slot))
    return lengths


def _sequence_softmax(ins, a):
    """Softmax over the rows of each sequence (X [T] or [T, 1])."""
    x = ins["X"][0]
    lengths = _seq_lengths(ins, "sequence_softmax", x.shape[0], "X")
    flat = x.reshape(-1).astype(np.float64)
    out = np.empty_like(flat)
    start = 0
    for n in lengths:
        seq = flat[start:start + n]
        e = np.exp(seq - seq.max()) if n else seq
        out[start:start + n] = e / e.sum() if n else e
        start += n
    return {"Out": out.reshape(x.shape).astype(x.dtype)}


def _sequence_expand(ins, a):
    """sequence_expand(_as) of an X without LoD: row i of X once per row of
    Y's sequence i."""
    x, y = ins["X"][0], ins["Y"][0]
    lengths = _seq_lengths(ins, "sequence_expand", y.shape[0], "Y")
    if x.shape[0] != len(lengths):
        raise ValueError("reference: X has %d rows but Y has %d sequences" % (x.shape[0], len(lengths)))
    return {"Out": np.repeat(x, lengths, axis=0)}


def _im2sequence(ins, a):
    """Each image of X [N, C, H, W] becomes one sequence: a row per kernel
    position (row-major over the output grid), holding the C x KH x KW
    patch there (zeros outside the image; paddings: up, left, down,
    right). '@lod': OH*OW rows per image."""
    if ins.get("Y"):
        raise ValueError("reference: im2sequence with Y (real image sizes) is not implemented")
    x = ins["X"][0]
    kh, kw = a["kernels"]
    sh, sw = a.get("strides", [1, 1])
    up, left, down, right = a.get("paddings", [0, 0, 0, 0])
    n, c, h, w = x.shape
    padded = np.zeros((n, c, h + up + down, w + left + right), x.dtype)
    padded[:, :, up:up + h, left:left + w] = x
    oh = (h + up + down - kh) // sh + 1
    ow = (w + left + right - kw) // sw + 1
    rows = []
    for img in range(n):
        for i in range(oh):
            for j in range(ow):
                rows.append(padded[img, :, i * sh:i * sh + kh, j * sw:j * sw + kw].reshape(-1))
    out = np.array(rows, x.dtype).reshape(n * oh * ow, c * kh * kw)
    return {"Out": out, "@lod": np.full(n, oh * ow, np.int64)}


def _lod_reset(ins, a):
    """Out = X with new sequences: Y's LoD when Y has one ('@ylod'), else
    Y's values as offsets, else target_lod. Offsets must run from 0 to X's
    rows without decreasing."""
    x = ins["X"][0]
    if ins.get("@ylod"):
        return {"Out": x, "@lod": np.asarray(ins["@ylod"][0], np.int64)}
    offsets = np.asarray(ins["Y"][0]).reshape(-1) if ins.get("Y") else np.asarray(a.get("target_lod", []))
    offsets = offsets.astype(np.int64)
    if offsets.size < 2 or offsets[0] != 0 or offsets[-1] != x.shape[0] or (np.diff(offsets) < 0).any():
        raise ValueError("lod_reset: offsets %s are not a LoD of %d rows" % (offsets.tolist(), x.shape[0]))
    return {"Out": x, "@lod": np.diff(offsets)}


def _gru_unit(ins, a):
    """One GRU step: gates from Input (+ Bias) and HiddenPrev times the
    first 2D*D values of Weight read as [D, 2D]; candidate from Input and
    (reset * HiddenPrev) times the last D*D values read as [D, D]."""
    acts = {0: lambda v: v, 1: lambda v: 1 / (1 + np.exp(-v)), 2: np.tanh, 3: lambda v: np.maximum(v, 0)}
    x = ins["Input"][0].astype(np.float64)
    hp = ins["HiddenPrev"][0].astype(np.float64)
    w = ins["Weight"][0].astype(np.float64).reshape(-1)
    d = hp.shape[1]
    if ins.get("Bias"):
        x = x + ins["Bias"][0].astype(np.float64).reshape(1, -1)
    gate_act, act = acts[a.get("gate_activation", 1)], acts[a.get("activation", 2)]
    ur = gate_act(x[:, :2 * d] + hp @ w[:2 * d * d].reshape(d, 2 * d))
    u, r = ur[:, :d], ur[:, d:]
    reset = r * hp
    c = act(x[:, 2 * d:] + reset @ w[2 * d * d:].reshape(d, d))
    h = u * hp + (1 - u) * c if a.get("origin_mode", False) else (1 - u) * hp + u * c
    f = np.float32
    return {"Gate": np.concatenate([ur, c], 1).astype(f), "ResetHiddenPrev": reset.astype(f),
            "Hidden": h.astype(f)}


def _sequence_reshape(ins, a):
    """X [T, D] re-cut to rows of new_dim; sequence n gets len*D/new_dim
    rows ('@lod'), which must be whole."""
    x = ins["X"][0]
    lengths = _seq_lengths(ins, "sequence_reshape", x.shape[0], "X")
    new_dim = a["new_dim"]
    if ((lengths * x.shape[1]) % new_dim).any():
        raise ValueError("sequence_reshape: a sequence's values do not fill rows of %d" % new_dim)
    return {"Out": x.reshape(-1, new_dim), "@lod": lengths * x.shape[1] // new_dim}


def _box_clip(ins, a):
    """Each image's boxes clipped to [0, round(w/scale) - 1] (x) and
    [0, round(h/scale) - 1] (y); C's round is half away from zero."""
    boxes, info = ins["Input"][0], ins["ImInfo"][0]
    lengths = _seq_lengths(ins, "box_clip", boxes.shape[0], "Input")
    out = boxes.copy()
    start = 0
    for img, n in enumerate(lengths):
        h, w, s = (float(v) for v in info[img])
        hi = np.array([np.floor(w / s + 0.5) - 1, np.floor(h / s + 0.5) - 1], np.float32)
        seg = out[start:start + n]
        flat = seg.reshape(len(seg), -1, 2)
        out[start:start + n] = np.maximum(np.minimum(flat, hi), 0).reshape(seg.shape)
        start += n
    return {"Output": out}


def _lstm_unit(ins, a):
    """One LSTM step: X's four [N, D] blocks are the input, forget, output
    gates and the candidate; forget_bias is added before its sigmoid."""
    x = ins["X"][0].astype(np.float64)
    c0 = ins["C_prev"][0].astype(np.float64)
    d = c0.shape[1]
    sig = lambda v: 1 / (1 + np.exp(-v))
    i, f, o, g = (x[:, k * d:(k + 1) * d] for k in range(4))
    c = sig(f + a.get("forget_bias", 0.0)) * c0 + sig(i) * np.tanh(g)
    return {"C": c.astype(np.float32), "H": (sig(o) * np.tanh(c)).astype(np.float32)}


OPS.update({"lstm_unit": _lstm_unit})

OPS.update({"im2sequence": _im2sequence, "lod_reset": _lod_reset, "gru_unit": _gru_unit,
            "sequence_reshape": _sequence_reshape, "box_clip": _box_clip})

OPS.update({"sequence_pool": _sequence_pool, "sequence_conv": _sequence_conv, "rnn": _rnn,
            "cudnn_lstm": _cudnn_lstm,
            "gru": _fluid_gru, "lstm": _fluid_lstm, "lstmp": _fluid_lstmp, "crf_decoding": _crf_decoding,
            "viterbi_decode": _viterbi_decode, "sequence_softmax": _sequence_softmax,
            "sequence_expand": _sequence_expand, "sequence_expand_as": _sequence_expand,
            "is_empty": lambda ins, a: {"Out": np.array([np.asarray(ins["X"][0]).size == 0])}})

# ---- the rest of Paddle2ONNX's list (issue 34): unary math, arg_min,
# log_softmax, strided_slice, scatter_nd_add, softmax_with_cross_entropy,
# and the two-stage detector ops (generate_proposals(_v2), roi_align,
# distribute_fpn_proposals), each from Paddle's op definition.

def _wide(fn):
    """A unary op computed in float64 and rounded once to X's type."""
    return _unary(lambda x, a: fn(x.astype(np.float64), a))


def _softplus(x, a):
    beta, threshold = a.get("beta", 1.0), a.get("threshold", 20.0)
    # Linear where beta * x passes the threshold, as Paddle's kernel.
    return np.where(x * beta > threshold, x, np.logaddexp(0.0, x * beta) / beta)


def _pow(ins, a):
    x = ins["X"][0]
    factor = ins["FactorTensor"][0].reshape(-1)[0] if "FactorTensor" in ins else a.get("factor", 1.0)
    return {"Out": np.power(x.astype(np.float64), float(factor)).astype(x.dtype)}


def _strided_positions(d, start, end, stride):
    """The positions Paddle's strided_slice takes along an axis of size d:
    negative bounds count from the end and clamp to 0, except an end of -1
    with a negative stride, which means "through position 0" (Python's
    None)."""
    if stride == 0:
        raise ValueError("strided_slice: stride 0")
    if start < 0:
        start = max(start + d, 0)
    through_zero = end == -1 and stride < 0
    if end < 0 and not through_zero:
        end = max(end + d, 0)
    if stride > 0:
        return list(range(min(max(start, 0), d), min(end, d), stride))
    start = min(start, d - 1)
    return list(range(start, -1 if through_zero else end, stride))


def _strided_slice(ins, a):
    x = ins["Input"][0]
    starts = _ints_from(ins, "StartsTensorList", "StartsTensor", a.get("starts", []))
    ends = _ints_from(ins, "EndsTensorList", "EndsTensor", a.get("ends", []))
    strides = _ints_from(ins, "StridesTensorList", "StridesTensor", a.get("strides", []))
    out = x
    for ax, st, en, sd in zip(a.get("axes", []), starts, ends, strides):
        out = np.take(out, _strided_positions(x.shape[ax], st, en, sd), axis=ax)
    dec = [ax % x.ndim for ax in a.get("decrease_axis", [])]
    if dec:
        out = out.reshape([n for i, n in enumerate(out.shape) if i not in dec])
    return {"Out": out}


def _scatter_nd_add(ins, a):
    x, index, updates = ins["X"][0], ins["Index"][0], ins["Updates"][0]
    out = np.array(x, copy=True)
    k = index.shape[-1]
    rows = index.reshape(-1, k)
    upd = updates.reshape((rows.shape[0],) + x.shape[k:])
    for r, u in zip(rows, upd):
        out[tuple(int(i) for i in r)] += u
    return {"Out": out}


def _log_softmax(ins, a):
    x = ins["X"][0]
    axis = a.get("axis", -1)
    w = x.astype(np.float64)
    m = w.max(axis=axis, keepdims=True)
    return {"Out": (w - m - np.log(np.exp(w - m).sum(axis=axis, keepdims=True))).astype(x.dtype)}


def _softmax_with_cross_entropy(ins, a):
    """Softmax along `axis` and each position's cross entropy: -sum(label *
    log p) for soft labels, else -log p[label] (0 at ignore_index); the
    loss keeps the axis with size 1."""
    logits, label = ins["Logits"][0], ins["Label"][0]
    axis = a.get("axis", -1) % logits.ndim
    w = logits.astype(np.float64)
    if a.get("use_softmax", True):
        logp = w - w.max(axis=axis, keepdims=True)
        logp = logp - np.log(np.exp(logp).sum(axis=axis, keepdims=True))
    else:
        logp = np.log(w)
    if a.get("soft_label", False):
        loss = -(label.astype(np.float64) * logp).sum(axis=axis, keepdims=True)
    else:
        lab = label.astype(np.int64)
        ignore = a.get("ignore_index", -100)
        safe = np.where(lab == ignore, 0, lab)
        loss = -np.take_along_axis(logp, safe, axis=axis)
        loss = np.where(lab == ignore, 0.0, loss)
    return {"Softmax": np.exp(logp).astype(logits.dtype), "Loss": loss.astype(logits.dtype)}


_LOG_MAX_RATIO = np.float32(math.log(1000.0 / 16.0))


def _proposals_image(scores, deltas, im, anchors, variances, a, v2):
    """One image's proposals: (boxes [K, 4], scores [K]) in float32."""
    f = np.float32
    pre, post = a.get("pre_nms_topN", 6000), a.get("post_nms_topN", 1000)
    thresh, eta = f(a.get("nms_thresh", 0.5)), f(a.get("eta", 1.0))
    pixel = a.get("pixel_offset", True) if v2 else True
    off = f(1 if pixel else 0)
    na, h, w = scores.shape
    s = scores.transpose(1, 2, 0).reshape(-1)                       # (h, w, a) order
    d = deltas.reshape(na, 4, h, w).transpose(2, 3, 0, 1).reshape(-1, 4)
    order = np.argsort(-s, kind="stable")
    if 0 < pre < len(order):
        order = order[:pre]
    an, var, dd = anchors[order], variances[order], d[order]
    aw, ah = an[:, 2] - an[:, 0] + off, an[:, 3] - an[:, 1] + off
    cx0 = (an[:, 0].astype(np.float64) + 0.5 * aw).astype(f)
    cy0 = (an[:, 1].astype(np.float64) + 0.5 * ah).astype(f)
    cx, cy = var[:, 0] * dd[:, 0] * aw + cx0, var[:, 1] * dd[:, 1] * ah + cy0
    bw = np.exp(np.minimum(var[:, 2] * dd[:, 2], _LOG_MAX_RATIO)) * aw
    bh = np.exp(np.minimum(var[:, 3] * dd[:, 3], _LOG_MAX_RATIO)) * ah
    box = np.stack([cx - bw / f(2), cy - bh / f(2), cx + bw / f(2) - off, cy + bh / f(2) - off], 1)
    imh, imw = im[0], im[1]
    box[:, 0::2] = np.maximum(np.minimum(box[:, 0::2], imw - off), f(0))
    box[:, 1::2] = np.maximum(np.minimum(box[:, 1::2], imh - off), f(0))
    bws, bhs = box[:, 2] - box[:, 0] + off, box[:, 3] - box[:, 1] + off
    least = max(f(a.get("min_size", 0.1)), f(1))
    if pixel:
        xc, yc = box[:, 0] + bws / f(2), box[:, 1] + bhs / f(2)
        if not v2:  # generate_proposals measures sizes in ImInfo's scale
            bws = (box[:, 2] - box[:, 0]) / im[2] + f(1)
            bhs = (box[:, 3] - box[:, 1]) / im[2] + f(1)
        keep = (bws >= least) & (bhs >= least) & (xc <= imw) & (yc <= imh)
    else:
        keep = (bws >= least) & (bhs >= least)
    box, sc = box[keep], s[order][keep]
    if len(box) == 0:
        return np.zeros((1, 4), f), np.zeros(1, f)
    if thresh <= 0:
        return box, sc
    picked, t = [], thresh
    for j in range(len(box)):
        if all(_nms_iou(box[j], box[k], not pixel) <= t for k in picked):
            picked.append(j)
            if eta < 1 and t > 0.5:
                t = f(t * eta)
    if 0 < post < len(picked):
        picked = picked[:post]
    return box[picked], sc[picked]


def _generate_proposals(v2):
    def run(ins, a):
        scores, deltas = ins["Scores"][0].astype(np.float32), ins["BboxDeltas"][0].astype(np.float32)
        im = ins["ImShape" if v2 else "ImInfo"][0].astype(np.float32)
        anchors = ins["Anchors"][0].reshape(-1, 4).astype(np.float32)
        variances = ins["Variances"][0].reshape(-1, 4).astype(np.float32)
        rois, probs, counts = [], [], []
        for i in range(scores.shape[0]):
            box, sc = _proposals_image(scores[i], deltas[i], im[i], anchors, variances, a, v2)
            rois.append(box)
            probs.append(sc)
            counts.append(len(box))
        return {"RpnRois": np.concatenate(rois).astype(np.float32),
                "RpnRoiProbs": np.concatenate(probs).reshape(-1, 1).astype(np.float32),
                "RpnRoisNum": np.array(counts, np.int32)}
    return run


def _roi_align(ins, a):
    """Each RoI's bins, each the mean of a grid of bilinear samples (float32
    arithmetic, as Paddle's CPU kernel)."""
    f = np.float32
    x, rois = ins["X"][0], ins["ROIs"][0].astype(f)
    n, c, h, w = x.shape
    counts = ins["RoisNum"][0] if "RoisNum" in ins else np.array([len(rois)])
    image = np.repeat(np.arange(n), np.asarray(counts, np.int64))
    ph, pw = a.get("pooled_height", 1), a.get("pooled_width", 1)
    scale, ratio, aligned = f(a.get("spatial_scale", 1.0)), a.get("sampling_ratio", -1), a.get("aligned", False)
    off = f(0.5 if aligned else 0)
    out = np.zeros((len(rois), c, ph, pw), f)
    for r, roi in enumerate(rois):
        x0, y0, x1, y1 = [v * scale - off for v in roi]
        rw, rh = x1 - x0, y1 - y0
        if not aligned:
            rw, rh = max(rw, f(1)), max(rh, f(1))
        bh, bw = rh / f(ph), rw / f(pw)
        gh = ratio if ratio > 0 else int(math.ceil(bh))
        gw = ratio if ratio > 0 else int(math.ceil(bw))
        img = x[image[r]].astype(f)
        for py in range(ph):
            for px in range(pw):
                total = np.zeros(c, f)
                for iy in range(gh):
                    yy = y0 + bh * (f(py) + f(iy + 0.5) / f(gh))
                    for ix in range(gw):
                        xx = x0 + bw * (f(px) + f(ix + 0.5) / f(gw))
                        if yy < -1 or yy > h or xx < -1 or xx > w:
                            continue
                        sy, sx = max(yy, f(0)), max(xx, f(0))
                        yl, xl = int(sy), int(sx)
                        yh, xh = yl + 1, xl + 1
                        if yl >= h - 1:
                            yl = yh = h - 1
                            sy = f(yl)
                        if xl >= w - 1:
                            xl = xh = w - 1
                            sx = f(xl)
                        ly, lx = sy - f(yl), sx - f(xl)
                        hy, hx = f(1) - ly, f(1) - lx
                        total = total + (hy * hx * img[:, yl, xl] + hy * lx * img[:, yl, xh]
                                         + ly * hx * img[:, yh, xl] + ly * lx * img[:, yh, xh])
                out[r, :, py, px] = total * f(1.0 / max(gh * gw, 1))
    return {"Out": out.astype(x.dtype)}


def _distribute_fpn_proposals(ins, a):
    """FPN level of each RoI: floor(refer_level + log2(sqrt(area) /
    refer_scale + 1e-6)) clamped to [min_level, max_level]; each level's
    RoIs in input order, the index restoring the input order, and each
    level's count per image."""
    f = np.float32
    rois = ins["FpnRois"][0].astype(f)
    counts = np.asarray(ins["RoisNum"][0] if "RoisNum" in ins else [len(rois)], np.int64)
    lo, hi = a["min_level"], a["max_level"]
    pixel = a.get("pixel_offset", True)
    bw, bh = rois[:, 2] - rois[:, 0], rois[:, 3] - rois[:, 1]
    area = np.where((bw < 0) | (bh < 0), f(0), (bw + f(1)) * (bh + f(1)) if pixel else bw * bh).astype(f)
    level = np.floor(np.log2(np.sqrt(area) / f(a["refer_scale"]) + f(1e-6)) + f(a["refer_level"]))
    level = np.clip(level.astype(np.int64), lo, hi) - lo
    order = np.argsort(level, kind="stable")
    restore = np.empty(len(rois), np.int32)
    restore[order] = np.arange(len(rois), dtype=np.int32)
    image = np.repeat(np.arange(len(counts)), counts)
    levels = range(hi - lo + 1)
    return {"MultiFpnRois": [rois[level == l] for l in levels], "RestoreIndex": restore.reshape(-1, 1),
            "MultiLevelRoIsNum": [np.array([np.sum((level == l) & (image == i)) for i in range(len(counts))],
                                           np.int32) for l in levels]}


OPS.update({
    "acos": _wide(lambda x, a: np.arccos(x)), "asin": _wide(lambda x, a: np.arcsin(x)),
    "atan": _wide(lambda x, a: np.arctan(x)), "tan": _wide(lambda x, a: np.tan(x)),
    "cosh": _wide(lambda x, a: np.cosh(x)), "sinh": _wide(lambda x, a: np.sinh(x)),
    "erf": _wide(lambda x, a: np.vectorize(math.erf, otypes=[np.float64])(x)),
    "ceil": _unary(lambda x, a: np.ceil(x)), "sign": _unary(lambda x, a: np.sign(x)),
    "square": _wide(lambda x, a: x * x), "rsqrt": _wide(lambda x, a: 1.0 / np.sqrt(x)),
    "reciprocal": _wide(lambda x, a: 1.0 / x), "softsign": _wide(lambda x, a: x / (1.0 + np.abs(x))),
    "elu": _wide(lambda x, a: np.where(x > 0, x, a.get("alpha", 1.0) * np.expm1(x))),
    "selu": _wide(lambda x, a: a.get("scale", 1.0507009873554805)
                  * np.where(x > 0, x, a.get("alpha", 1.6732632423543772) * np.expm1(x))),
    "softplus": _wide(_softplus),
    "thresholded_relu": _unary(lambda x, a: np.where(x > a.get("threshold", 1.0), x, 0)),
    "pow": _pow, "arg_min": lambda ins, a: _arg_extreme(np.argmin, ins, a),
    "log_softmax": _log_softmax, "strided_slice": _strided_slice, "scatter_nd_add": _scatter_nd_add,
    "softmax_with_cross_entropy": _softmax_with_cross_entropy,
    "generate_proposals": _generate_proposals(False), "generate_proposals_v2": _generate_proposals(True),
    "roi_align": _roi_align, "distribute_fpn_proposals": _distribute_fpn_proposals,
})

# Paddle-Lite keeps the weights of an `enable_int8` op as integers with the
# step of each output channel in an attribute: (op type, weight slot, dim of
# the output channels).
_INT8_WEIGHTS = {"conv2d": ("Filter", 0), "depthwise_conv2d": ("Filter", 0),
                 "conv2d_transpose": ("Filter", 1), "mul": ("Y", 1), "matmul": ("Y", 1),
                 "matmul_v2": ("Y", 1), "fc": ("W", 1)}


def _int8_weight_values(op, ins):
    """Replaces an `enable_int8` op's integer weight by its real values:
    integer times the step (`weight_scale`, or `<slot>0_scale`) of its
    output channel. Float weights already hold real values."""
    slot, axis = _INT8_WEIGHTS.get(op.type, (None, 0))
    a = _attrs(op) if slot else {}
    if not a.get("enable_int8") or slot not in ins:
        return
    w = np.asarray(ins[slot][0])
    if not np.issubdtype(w.dtype, np.integer):
        return
    steps = a.get("weight_scale", a.get(slot + "0_scale"))
    if steps is None:
        raise ValueError("%s: enable_int8 with integer %s but no weight scale" % (op.type, slot))
    steps = np.asarray(steps, np.float32).reshape(-1)
    shape = [1] * w.ndim
    if steps.size > 1:
        shape[axis] = steps.size
    ins[slot] = [(w.astype(np.float32) * steps.reshape(shape)).astype(np.float32)]


class Model:
    def __init__(self, program, params):
        self.program, self.params = program, params
        block = program.blocks[0]
        self.feeds = sorted((_attrs(o)["col"], o.outputs[0].arguments[0]) for o in block.ops if o.type == "feed")
        self.fetches = sorted((_attrs(o)["col"], o.inputs[0].arguments[0]) for o in block.ops if o.type == "fetch")
        levels = {v.name: v.type.lod_tensor.lod_level for v in block.vars if v.type.HasField("lod_tensor")}
        # A LoD feed (a batch of variable-length sequences, rows packed
        # along dim 0) takes its sequence lengths as input NAME@lengths.
        self.lod_feeds = {n for _, n in self.feeds if levels.get(n, 0) >= 1}

    @property
    def input_names(self):
        names = []
        for _, n in self.feeds:
            names.append(n)
            if n in self.lod_feeds:
                names.append(n + "@lengths")
        return names

    @property
    def output_names(self):
        return [n for _, n in self.fetches]

    def run(self, inputs):
        env = dict(self.params)
        env.update(inputs)
        # Sequence lengths of the LoD values: from the feeds, then from an
        # op's first LoD input to its outputs (Paddle's ShareLoD), except
        # through the ops that pool sequences into rows.
        lod = {n: np.asarray(inputs[n + "@lengths"]) for n in self.lod_feeds if n + "@lengths" in inputs}
        self.run_block(0, env, lod)
        return {n: env[n] for _, n in self.fetches}

    def run_block(self, idx, env, lod):
        """Runs the ops of block `idx` in order on `env` (names to values),
        which they read and update in place."""
        for op in self.program.blocks[idx].ops:
            if op.type not in ("feed", "fetch"):
                self.run_op(op, env, lod)

    def run_op(self, op, env, lod):
        if op.type == "while":
            # Fluid's while: the sub-block runs while the Condition variable
            # (which the body re-assigns) holds; its ops read and write the
            # enclosing variables directly.
            cond = op.inputs[[v.parameter for v in op.inputs].index("Condition")].arguments[0]
            sub = _attrs(op)["sub_block"]
            while bool(np.asarray(env[cond]).reshape(-1)[0]):
                self.run_block(sub, env, lod)
            return
        if op.type == "conditional_block":
            # The sub-block runs once, on the enclosing variables, when the
            # condition holds; otherwise the Out variables keep their values.
            a = _attrs(op)
            conds = [np.asarray(env[n]) for v in op.inputs if v.parameter == "Cond" for n in v.arguments]
            if a.get("is_scalar_condition", False):
                if conds[0].size != 1:
                    raise ValueError("conditional_block: scalar condition of %d elements" % conds[0].size)
                taken = bool(conds[0].reshape(-1)[0])
            else:
                taken = all(c.size != 0 for c in conds)
            if taken:
                self.run_block(a["sub_block"], env, lod)
            return
        fn = OPS.get(op.type)
        if fn is None:
            raise NotImplementedError("reference: op %r is not implemented" % op.type)
        # select_input reads one of its X: those of a branch not taken are unset.
        get = env.get if op.type == "select_input" else env.__getitem__
        ins = {v.parameter: [get(n) for n in v.arguments] for v in op.inputs if v.arguments}
        _int8_weight_values(op, ins)
        first = next((lod[n] for v in op.inputs for n in v.arguments if n in lod), None)
        if first is not None and op.type in LOD_OPS:
            ins["@lengths"] = [first]
        if op.type == "select_output":
            ins["@outs"] = [sum(len(v.arguments) for v in op.outputs if v.parameter == "Out")]
        if op.type == "write_to_array":
            # Paddle writes in place: the op updates the array Out holds.
            ins["@array"] = [env.get(n) for v in op.outputs if v.parameter == "Out" for n in v.arguments]
        if op.type == "lod_reset":
            ylod = [lod[n] for v in op.inputs if v.parameter == "Y" for n in v.arguments if n in lod]
            if ylod:
                ins["@ylod"] = ylod
        outs = fn(ins, _attrs(op))
        if "@lod" in outs:
            # An op that makes sequences (im2sequence, lod_reset).
            for n in op.outputs[[v.parameter for v in op.outputs].index("Out")].arguments:
                lod[n] = outs["@lod"]
        elif op.type in ("write_to_array", "read_from_array"):
            _array_lod(op, env, lod)
        else:
            # Paddle's ShareLoD: the outputs take the LoD of the op's main
            # input (none after the ops that pool sequences into rows).
            slot = LOD_FROM.get(op.type) or next(
                (v.parameter for v in op.inputs if v.parameter in LOD_MAIN_SLOTS and v.arguments), None)
            src = next((v.arguments[0] for v in op.inputs if v.parameter == slot and v.arguments), None)
            share = lod.get(src) if src is not None and op.type not in LOD_CONSUMERS else None
            for v in op.outputs:
                for n in v.arguments:
                    if share is None or isinstance(share, list):
                        lod.pop(n, None)
                    else:
                        lod[n] = share
        for v in op.outputs:
            if v.parameter in outs and v.arguments:
                val = outs[v.parameter]
                # A list slot (split's Out) binds each of its names.
                vals = val if isinstance(val, list) else [val]
                for n, r in zip(v.arguments, vals):
                    if r is not None:   # select_output's untouched outputs
                        # A tensor array stays a list of arrays.
                        env[n] = r if isinstance(r, list) else np.asarray(r)


def persistable_names(program):
    """The parameters of `program` in the order combined parameter files hold
    them: byte-wise sorted persistable variables, less feeds and fetches."""
    block = program.blocks[0]
    feed_targets = {o.outputs[0].arguments[0] for o in block.ops if o.type == "feed"}
    return sorted((v.name for v in block.vars if v.persistable and v.name not in feed_targets
                   and v.type.type not in (fp.VarType.FEED_MINIBATCH, fp.VarType.FETCH_LIST, fp.VarType.RAW)),
                  key=lambda n: n.encode())


def load(path, params=None):
    """Loads a Paddle inference model (same layouts as paddle-translate)."""
    if os.path.isdir(path):
        if os.path.exists(os.path.join(path, "__model__")):
            path = os.path.join(path, "__model__")
        else:
            found = [f for f in os.listdir(path) if f.endswith(".pdmodel")]
            path = os.path.join(path, found[0] if found else "model")  # Paddle-Lite: model + params
    program = fp.ProgramDesc()
    with open(path, "rb") as f:
        program.ParseFromString(f.read())
    names = persistable_names(program)
    d = os.path.dirname(path)
    if params is None and path.endswith(".pdmodel"):
        params = path[:-len(".pdmodel")] + ".pdiparams"
    elif params is None and os.path.basename(path) == "model" and os.path.exists(os.path.join(d, "params")):
        params = os.path.join(d, "params")
    elif params is None and os.path.exists(os.path.join(d, "__params__")):
        params = os.path.join(d, "__params__")
    values = {}
    if params:
        with open(params, "rb") as f:
            arrays = read_records(f.read())
        values = dict(zip(names, arrays))
    else:
        for n in names:
            with open(os.path.join(d, n), "rb") as f:
                values[n] = read_records(f.read(), 1)[0]
    return Model(program, values)
