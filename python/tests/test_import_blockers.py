"""Ops and file quirks that stopped real programs at import (issue 23), each
in a minimal program written with the builder: the program imports, round
trips through the exporter, compiles, runs, and matches both the NumPy
reference and a NumPy computation written here."""
import os
import subprocess

import numpy as np
import pytest

import paddle_mlir
from paddle_mlir import framework_pb2 as fp
from paddle_mlir import ir, reference
from paddle_mlir.builder import ProgramBuilder

BUILD = os.environ.get("PADDLE_MLIR_BUILD_DIR",
                       os.path.join(os.path.dirname(__file__), "..", "..", "build"))


def tool(name):
    return os.path.join(BUILD, "bin", name)


def save(b, path, edit=None):
    """Saves a 2.x program, letting `edit` change the ProgramDesc first."""
    b.save(str(path))
    if edit:
        prog = fp.ProgramDesc()
        with open(path / "model.pdmodel", "rb") as f:
            prog.ParseFromString(f.read())
        edit(prog)
        with open(path / "model.pdmodel", "wb") as f:
            f.write(prog.SerializeToString())
    return str(path)


def round_trips(model, tmp_path):
    mlir = tmp_path / "a.mlir"
    subprocess.run([tool("paddle-translate"), "--import-paddle", model, "-o", str(mlir)], check=True)
    p = subprocess.run([tool("paddle-translate"), "--export-paddle", str(mlir), "-o", str(tmp_path / "e")],
                       capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    again = subprocess.run([tool("paddle-translate"), "--import-paddle", str(tmp_path / "e")], check=True,
                           capture_output=True, text=True).stdout
    assert again == subprocess.run([tool("paddle-opt"), str(mlir)], check=True, capture_output=True,
                                   text=True).stdout


def check(model, inputs, want, tmp_path, rtol=1e-5, atol=1e-5):
    round_trips(model, tmp_path)
    got = paddle_mlir.compile(model)(*inputs)
    feeds = reference.load(model)
    ref = list(feeds.run(dict(zip(feeds.input_names, inputs))).values())
    assert len(got) == len(want) == len(ref)
    for g, r, w in zip(got, ref, want):
        np.testing.assert_allclose(r, w, rtol=rtol, atol=atol)
        np.testing.assert_allclose(g, w, rtol=rtol, atol=atol)


def test_batch_norm_epsilon_above_old_range(tmp_path):
    # Real files store epsilon = 1e-3 as the float just above 0.001, or more.
    rng = np.random.RandomState(0)
    b = ProgramBuilder()
    x = b.feed("x", [-1, 3, 4, 4])
    p = [b.param(n, v) for n, v in (("s", rng.rand(3).astype(np.float32) + 0.5),
                                    ("bb", rng.rand(3).astype(np.float32)),
                                    ("m", rng.rand(3).astype(np.float32)),
                                    ("v", rng.rand(3).astype(np.float32) + 0.1))]
    y = b.batch_norm(x, *p, epsilon=0.001)
    b.fetch(b.batch_norm(y, *p, epsilon=0.5))
    data = rng.rand(2, 3, 4, 4).astype(np.float32)
    s, bb, m, v = (b.params[n].reshape(1, 3, 1, 1) for n in ("s", "bb", "m", "v"))
    want = (data - m) / np.sqrt(v + np.float32(0.001)) * s + bb
    want = (want - m) / np.sqrt(v + 0.5) * s + bb
    check(save(b, tmp_path / "m"), [data], [want], tmp_path, rtol=1e-4)


def test_silu(tmp_path):
    b = ProgramBuilder()
    x = b.feed("x", [-1, 8])
    b.fetch(b._simple("silu", x))
    data = np.linspace(-6, 6, 24, dtype=np.float32).reshape(3, 8)
    check(save(b, tmp_path / "m"), [data], [data / (1 + np.exp(-data))], tmp_path)


def _scalars(prog):
    # Paddle 2.6+ writes assign_value's elements as one SCALARS attribute.
    for op in prog.blocks[0].ops:
        if op.type != "assign_value" or not any(a.name == "int64_values" for a in op.attrs):
            continue
        attrs = [a for a in op.attrs if a.name != "int64_values"]
        values = fp.OpDesc.Attr(name="values", type=fp.SCALARS)
        for v in (3, -2, 7, 5):
            values.scalars.add(type=fp.Scalar.LONG, i=v)
        del op.attrs[:]
        op.attrs.extend(attrs + [values])


@pytest.mark.parametrize("scalars", [False, True])
def test_assign_value(tmp_path, scalars):
    b = ProgramBuilder()
    x = b.feed("x", [-1, 4], "int64")
    c = b.tmp("assign_value", [4], "int64")
    b.op("assign_value", {}, {"Out": [c]}, {"shape": [4], "dtype": fp.VarType.INT64,
                                            "int64_values": [3, -2, 7, 5] if not scalars else [0, 0, 0, 0]})
    f = b.tmp("assign_value", [2, 1], "float32")
    b.op("assign_value", {}, {"Out": [f]}, {"shape": [2, 1], "dtype": fp.VarType.FP32, "fp32_values": [0.5, -1.5]})
    b.fetch(b.elementwise("elementwise_add", x, c))
    b.fetch(f)
    data = np.arange(8, dtype=np.int64).reshape(2, 4)
    check(save(b, tmp_path / "m", _scalars if scalars else None), [data],
          [data + np.array([3, -2, 7, 5]), np.array([[0.5], [-1.5]], np.float32)], tmp_path)


def test_fill_constant_batch_size_like(tmp_path):
    b = ProgramBuilder()
    x = b.feed("x", [3, -1, 5])
    y = b.tmp("fcbsl", [2, -1, 4])
    b.op("fill_constant_batch_size_like", {"Input": [x]}, {"Out": [y]},
         {"shape": [2, 1, 4], "value": 0.25, "dtype": 5, "input_dim_idx": 1, "output_dim_idx": 1,
          "str_value": ""})
    b.fetch(y)
    data = np.zeros((3, 6, 5), np.float32)
    check(save(b, tmp_path / "m"), [data], [np.full((2, 6, 4), 0.25, np.float32)], tmp_path)


def test_fluid_eval_head(tmp_path):
    # softmax -> cross_entropy2 -> mean, and top_k -> accuracy, as Fluid
    # classifiers save them for evaluation.
    rng = np.random.RandomState(1)
    b = ProgramBuilder()
    x = b.feed("x", [-1, 10])
    label = b.feed("label", [-1, 1], "int64")
    prob = b.softmax(x)
    y, match, xs = b.tmp("ce", [-1, 1]), b.tmp("ce_match", [-1, 1]), b.tmp("ce_xshape", [0, -1, 10])
    b.op("cross_entropy2", {"X": [prob], "Label": [label]}, {"Y": [y], "MatchX": [match], "XShape": [xs]},
         {"ignore_index": -100})
    loss = b._simple("mean", y, shape=[1])
    v, i = b.tmp("top_k", [-1, 3]), b.tmp("top_k_idx", [-1, 3], "int64")
    b.op("top_k", {"X": [prob]}, {"Out": [v], "Indices": [i]}, {"k": 3})
    acc, correct, total = b.tmp("acc", [1]), b.tmp("correct", [1], "int32"), b.tmp("total", [1], "int32")
    b.op("accuracy", {"Out": [v], "Indices": [i], "Label": [label]},
         {"Accuracy": [acc], "Correct": [correct], "Total": [total]})
    for t in (y, match, loss, v, i, acc, correct, total):
        b.fetch(t)
    data = rng.standard_normal((6, 10)).astype(np.float32)
    lbl = np.array([[0], [3], [9], [-100], [5], [2]], np.int64)
    e = np.exp(data - data.max(1, keepdims=True))
    p = e / e.sum(1, keepdims=True)
    keep = lbl != -100
    m = np.where(keep, p[np.arange(6), np.where(keep[:, 0], lbl[:, 0], 0)][:, None], 0)
    ce = np.where(keep, -np.log(np.where(keep, m, 1)), 0)
    order = np.argsort(-p, axis=1)[:, :3]
    hits = (order == lbl).any(1).sum()
    want = [ce, m, [ce.mean()], np.sort(p, 1)[:, ::-1][:, :3], order, [hits / 6], [hits], [6]]
    want = [np.asarray(w) for w in want]
    check(save(b, tmp_path / "m"), [data, lbl], want, tmp_path)


def _quant_dequant(x, s, bits=8):
    bin_ = 2 ** (bits - 1) - 1
    v = np.clip(x, -s, s) * bin_ / s
    return np.sign(v) * np.floor(np.abs(v) + 0.5) * s / bin_


def test_fake_quantize_dequantize(tmp_path):
    # The QAT simulation ops at inference: activations with their stored
    # scale, weights with their per-channel abs max.
    rng = np.random.RandomState(2)
    b = ProgramBuilder()
    x = b.feed("x", [-1, 3, 5, 5])
    w = b.param("w", rng.standard_normal((4, 3, 3, 3)).astype(np.float32))
    scale = b.param("in_scale", np.array([0.7], np.float32))
    xq, xs = b.tmp("xq", [-1, 3, 5, 5]), b.tmp("xq_scale", [1])
    b.op("fake_quantize_dequantize_moving_average_abs_max", {"X": [x], "InScale": [scale]},
         {"Out": [xq], "OutScale": [xs]}, {"bit_length": 8, "is_test": True, "moving_rate": 0.9, "round_type": 1})
    wq, ws = b.tmp("wq", [4, 3, 3, 3]), b.tmp("wq_scale", [4])
    b.op("fake_channel_wise_quantize_dequantize_abs_max", {"X": [w]}, {"Out": [wq], "OutScale": [ws]},
         {"bit_length": 8, "quant_axis": 0, "round_type": 1, "is_test": True})
    b.fetch(xq)
    b.fetch(b.conv2d(xq, wq))
    data = rng.standard_normal((1, 3, 5, 5)).astype(np.float32)
    wv = b.params["w"]
    xw = _quant_dequant(data, np.float32(0.7))
    wd = np.stack([_quant_dequant(wv[c], np.abs(wv[c]).max()) for c in range(4)])
    conv = np.zeros((1, 4, 3, 3))
    for i in range(3):
        for j in range(3):
            conv[0, :, i, j] = np.einsum("chw,ochw->o", xw[0, :, i:i + 3, j:j + 3], wd)
    check(save(b, tmp_path / "m"), [data], [xw, conv], tmp_path, rtol=1e-4, atol=1e-4)


def test_fake_quantize_and_dequantize_max_abs(tmp_path):
    # Fluid QAT eval programs: quantize an activation to integers, dequantize
    # per tensor and per channel.
    rng = np.random.RandomState(3)
    b = ProgramBuilder()
    x = b.feed("x", [-1, 4, 2, 2])
    scale = b.param("in_scale", np.array([1.5], np.float32))
    ch = b.param("ch_scale", np.array([1.0, 2.0, 0.5, 4.0], np.float32))
    q, qs = b.tmp("q", [-1, 4, 2, 2]), b.tmp("q_scale", [1])
    b.op("fake_quantize_moving_average_abs_max", {"X": [x], "InScale": [scale]}, {"Out": [q], "OutScale": [qs]},
         {"bit_length": 8, "is_test": True, "moving_rate": 0.9})
    d = b.tmp("d", [-1, 4, 2, 2])
    b.op("fake_dequantize_max_abs", {"X": [q], "Scale": [scale]}, {"Out": [d]}, {"max_range": 127.0})
    c = b.tmp("c", [-1, 4, 2, 2])
    b.op("fake_channel_wise_dequantize_max_abs", {"X": [q], "Scales": [ch]}, {"Out": [c]},
         {"quant_bits": [8], "quant_axis": 1})
    # Two scales (weight per channel, then activation): channels along dim 1.
    c2 = b.tmp("c2", [-1, 4, 2, 2])
    b.op("fake_channel_wise_dequantize_max_abs", {"X": [q], "Scales": [ch, scale]}, {"Out": [c2]},
         {"quant_bits": [8, 8]})
    for t in (q, d, c, c2):
        b.fetch(t)
    data = (rng.standard_normal((2, 4, 2, 2)) * 2).astype(np.float32)
    v = np.clip(data, -1.5, 1.5) * 127 / 1.5
    qv = np.sign(v) * np.floor(np.abs(v) + 0.5)
    per_channel = np.array([1.0, 2.0, 0.5, 4.0]).reshape(1, 4, 1, 1)
    want = [qv, qv * 1.5 / 127, qv * per_channel / 127, qv * per_channel * 1.5 / (127 * 127)]
    check(save(b, tmp_path / "m"), [data], want, tmp_path)


def test_conv3d(tmp_path):
    rng = np.random.RandomState(4)
    b = ProgramBuilder()
    x = b.feed("x", [-1, 4, 5, 6, 6])
    w = b.param("w", rng.standard_normal((6, 2, 3, 1, 3)).astype(np.float32))
    y = b.tmp("conv3d", [-1, 6, 3, 3, 6])
    b.op("conv3d", {"Input": [x], "Filter": [w]}, {"Output": [y]},
         {"strides": [1, 2, 1], "paddings": [0, 0, 0, 0, 1, 1], "dilations": [1, 1, 1], "groups": 2,
          "data_format": "NCDHW", "padding_algorithm": "EXPLICIT"})
    b.fetch(y)
    data = rng.standard_normal((2, 4, 5, 6, 6)).astype(np.float32)
    wv = b.params["w"]
    xp = np.pad(data, [(0, 0)] * 4 + [(1, 1)]).astype(np.float64)
    want = np.zeros((2, 6, 3, 3, 6))
    for f in range(6):
        g = f // 3
        for od in range(3):
            for oh in range(3):
                for ow in range(6):
                    win = xp[:, 2 * g:2 * g + 2, od:od + 3, 2 * oh:2 * oh + 1, ow:ow + 3]
                    want[:, f, od, oh, ow] = (win * wv[f]).sum(axis=(1, 2, 3, 4))
    check(save(b, tmp_path / "m"), [data], [want], tmp_path, rtol=1e-4, atol=1e-4)


def _grid_sample(img, grid, mode, padding, align):
    # One output pixel at a time, straight from the definition.
    n, c, h, w = img.shape
    out = np.zeros((n, c) + grid.shape[1:3])

    def unnorm(g, size):
        v = (g + 1) / 2 * (size - 1) if align else ((g + 1) * size - 1) / 2
        if padding == "border":
            v = min(max(v, 0), size - 1)
        if padding == "reflection":
            lo, hi = (0, size - 1) if align else (-0.5, size - 0.5)
            while v < lo or v > hi:
                v = 2 * lo - v if v < lo else 2 * hi - v
            v = min(max(v, 0), size - 1)
        return v

    def px(b_, yy, xx):
        return img[b_, :, yy, xx] if 0 <= yy < h and 0 <= xx < w else np.zeros(c)
    for b_ in range(n):
        for i in range(grid.shape[1]):
            for j in range(grid.shape[2]):
                sx, sy = unnorm(grid[b_, i, j, 0], w), unnorm(grid[b_, i, j, 1], h)
                if mode == "nearest":
                    out[b_, :, i, j] = px(b_, int(np.floor(sy + 0.5)), int(np.floor(sx + 0.5)))
                    continue
                x0, y0 = int(np.floor(sx)), int(np.floor(sy))
                ax, ay = sx - x0, sy - y0
                out[b_, :, i, j] = ((px(b_, y0, x0) * (1 - ax) + px(b_, y0, x0 + 1) * ax) * (1 - ay)
                                    + (px(b_, y0 + 1, x0) * (1 - ax) + px(b_, y0 + 1, x0 + 1) * ax) * ay)
    return out


@pytest.mark.parametrize("mode,padding,align", [("bilinear", "zeros", True), ("bilinear", "border", False),
                                                ("bilinear", "reflection", False),
                                                ("bilinear", "reflection", True), ("nearest", "zeros", False)])
def test_grid_sampler(tmp_path, mode, padding, align):
    rng = np.random.RandomState(5)
    b = ProgramBuilder()
    x = b.feed("x", [-1, 3, 5, 7])
    g = b.feed("grid", [-1, 4, 6, 2])
    y = b.tmp("grid_sampler", [-1, 3, 4, 6])
    b.op("grid_sampler", {"X": [x], "Grid": [g]}, {"Output": [y]},
         {"mode": mode, "padding_mode": padding, "align_corners": align})
    b.fetch(y)
    img = rng.standard_normal((2, 3, 5, 7)).astype(np.float32)
    grid = rng.uniform(-1.3, 1.3, (2, 4, 6, 2)).astype(np.float32)
    check(save(b, tmp_path / "m"), [img, grid], [_grid_sample(img, grid, mode, padding, align)], tmp_path,
          rtol=1e-4, atol=1e-5)


def test_selected_rows_parameter_with_dense_data(tmp_path):
    # A sparse lookup_table's table is declared SELECTED_ROWS; in an
    # inference program it holds a dense tensor.
    rng = np.random.RandomState(6)
    b = ProgramBuilder()
    ids = b.feed("ids", [-1, 1], "int64")
    table = b.param("embedding", rng.standard_normal((10, 3)).astype(np.float32))
    y = b.tmp("lookup", [-1, 3])
    b.op("lookup_table", {"W": [table], "Ids": [ids]}, {"Out": [y]}, {"is_sparse": True})
    b.fetch(y)

    def sparse(prog):
        for v in prog.blocks[0].vars:
            if v.name == "embedding":
                desc = fp.VarType.TensorDesc()
                desc.CopyFrom(v.type.lod_tensor.tensor)
                v.type.ClearField("lod_tensor")
                v.type.type = fp.VarType.SELECTED_ROWS
                v.type.selected_rows.CopyFrom(desc)
    model = save(b, tmp_path / "m", sparse)
    round_trips(model, tmp_path)
    assert "ml_program.global private @embedding" in ir.import_paddle(model)


def test_selected_rows_feed_is_still_an_error(tmp_path):
    b = ProgramBuilder()
    x = b.feed("x", [-1, 3])
    b.fetch(b.relu(x))

    def sparse(prog):
        for v in prog.blocks[0].vars:
            if v.name == "x":
                v.type.type = fp.VarType.SELECTED_ROWS
    model = save(b, tmp_path / "m", sparse)
    with pytest.raises(Exception, match="SELECTED_ROWS"):
        ir.import_paddle(model)


def test_stack_and_unstack_with_dynamic_dims(tmp_path):
    # BlazeFace stacks four [?, ?] coordinate maps on a last axis (-1).
    rng = np.random.RandomState(3)
    for axis in (-1, 0, 1):
        b = ProgramBuilder()
        xs = [b.feed("x%d" % i, [-1, -1]) for i in range(3)]
        shape = {-1: [-1, -1, 3], 0: [3, -1, -1], 1: [-1, 3, -1]}[axis]
        y = b.op("stack", {"X": xs}, {"Y": [b.tmp("stack", shape)]}, {"axis": axis})
        parts = [b.tmp("unstack", [-1, -1]) for _ in range(3)]
        b.op("unstack", {"X": [y]}, {"Y": parts}, {"axis": axis, "num": 3})
        b.fetch(y)
        b.fetch(parts[2])
        ins = [rng.rand(2, 5).astype(np.float32) for _ in range(3)]
        want = np.stack(ins, axis=axis)
        check(save(b, tmp_path / ("s%d" % (axis + 1))), ins, [want, ins[2]], tmp_path)


def test_matmul_v2_with_vector_operands(tmp_path):
    # PicoDet's distribution head multiplies [?, 8] by a [8] vector.
    rng = np.random.RandomState(4)
    cases = [([-1, 8], [8], [-1], (5, 8), (8,)),
             ([8], [-1, 8, 3], [-1, 3], (8,), (2, 8, 3)),
             ([8], [8], [], (8,), (8,)),
             ([2, -1, 8], [8], [2, -1], (2, 4, 8), (8,))]
    for k, (xs, ys, outs, xv, yv) in enumerate(cases):
        b = ProgramBuilder()
        x, y = b.feed("x", xs), b.feed("y", ys)
        out = b.op("matmul_v2", {"X": [x], "Y": [y]}, {"Out": [b.tmp("matmul", outs)]},
                   {"trans_x": False, "trans_y": False})
        b.fetch(out)
        a, c = rng.rand(*xv).astype(np.float32), rng.rand(*yv).astype(np.float32)
        check(save(b, tmp_path / ("m%d" % k)), [a, c], [np.matmul(a, c)], tmp_path)


def test_group_norm_dynamic_spatial(tmp_path):
    # The Stable Diffusion VAE decoder normalizes 32 groups with dynamic H, W.
    rng = np.random.RandomState(5)
    for shape, groups, affine in (([-1, 8, -1, -1], 4, True), ([-1, 6], 3, False), ([-1, 4, -1], 2, True)):
        b = ProgramBuilder()
        x = b.feed("x", shape)
        ins = {"X": [x]}
        c = shape[1]
        scale, bias = rng.rand(c).astype(np.float32) + 0.5, rng.randn(c).astype(np.float32)
        if affine:
            ins.update({"Scale": [b.param("gn_scale", scale)], "Bias": [b.param("gn_bias", bias)]})
        y = b.op("group_norm", ins, {"Y": [b.tmp("group_norm", shape)]}, {"groups": groups, "epsilon": 1e-5})
        b.fetch(y)
        dims = [2] + [c] + [3 + i for i in range(len(shape) - 2)]
        xv = (rng.randn(*dims) * 3 + 1).astype(np.float32)
        g = xv.reshape(dims[0], groups, -1).astype(np.float64)
        norm = ((g - g.mean(axis=2, keepdims=True)) / np.sqrt(g.var(axis=2, keepdims=True) + 1e-5)).reshape(dims)
        if affine:
            bshape = [1, c] + [1] * (len(dims) - 2)
            norm = norm * scale.reshape(bshape) + bias.reshape(bshape)
        check(save(b, tmp_path / ("g%d" % len(shape))), [xv], [norm.astype(np.float32)], tmp_path,
              rtol=1e-4, atol=1e-4)


def test_expand_v2_with_a_list_of_shape_tensors(tmp_path):
    # The ViT OCR recognizer expands its class token to the batch size, given
    # as a list of one-element tensors (a 0-D one among them); -1 keeps a dim.
    b = ProgramBuilder()
    x = b.feed("x", [3, 2])
    n1 = b.feed("n", [1], "int32")
    keep = b.feed("keep", [1], "int32")
    two = b.feed("two", [1], "int32")
    n = b.op("squeeze2", {"X": [n1]}, {"Out": [b.tmp("n0d", [], "int32")],
                                      "XShape": [b.tmp("n0d_xshape", [0, 1], "int32")]}, {"axes": [0]})[0]
    y = b.op("expand_v2", {"X": [x], "expand_shapes_tensor": [n, keep, two]},
             {"Out": [b.tmp("expand", [-1, 3, 2])]}, {"shape": [-1, 3, 2]})
    b.fetch(y)
    xv = np.arange(6, dtype=np.float32).reshape(3, 2)
    for batch in (1, 4):
        check(save(b, tmp_path / ("e%d" % batch)),
              [xv, np.array([batch], np.int32), np.array([-1], np.int32), np.array([2], np.int32)],
              [np.broadcast_to(xv, (batch, 3, 2))], tmp_path)


def test_tile_with_a_list_of_repeat_tensors(tmp_path):
    # DETR tiles by [batch, 1] from shape tensors; its repeat_times attribute
    # holds -1 placeholders, which Paddle ignores then.
    b = ProgramBuilder()
    x = b.feed("x", [1, 3])
    n = b.feed("n", [1], "int32")
    one = b.feed("one", [1], "int32")
    y = b.op("tile", {"X": [x], "repeat_times_tensor": [n, one]}, {"Out": [b.tmp("tile", [-1, 3])]},
             {"repeat_times": [-1, 1]})
    b.fetch(y)
    xv = np.array([[1, 2, 3]], np.float32)
    for reps in (1, 3):
        check(save(b, tmp_path / ("t%d" % reps)),
              [xv, np.array([reps], np.int32), np.array([1], np.int32)], [np.tile(xv, (reps, 1))], tmp_path)


def test_nhwc_conv_and_pool(tmp_path):
    """NHWC conv2d, depthwise_conv2d and pool2d (computed on NCHW views) with
    a dynamic batch, SAME padding and ceil_mode, against PyTorch."""
    torch = pytest.importorskip("torch")
    F = torch.nn.functional
    rng = np.random.default_rng(3)
    w = rng.standard_normal((6, 3, 3, 3)).astype(np.float32)
    dw = rng.standard_normal((6, 1, 3, 3)).astype(np.float32)
    b = ProgramBuilder()
    x = b.feed("x", [-1, 9, 8, 3])

    def conv(kind, inp, filt, shape, algo, stride, groups):
        y = b.tmp(kind, shape)
        return b.op(kind, {"Input": [inp], "Filter": [b.param(kind + ".w", filt)]}, {"Output": [y]},
                    {"strides": [stride] * 2, "paddings": [1, 1], "dilations": [1, 1], "groups": groups,
                     "padding_algorithm": algo, "data_format": "NHWC"})
    y = conv("conv2d", x, w, [-1, 9, 8, 6], "EXPLICIT", 1, 1)
    y = conv("depthwise_conv2d", y, dw, [-1, 5, 4, 6], "SAME", 2, 6)
    p = b._simple("pool2d", y, {"pooling_type": "max", "ksize": [2, 2], "strides": [2, 2],
                                "paddings": [0, 0], "exclusive": True, "global_pooling": False,
                                "adaptive": False, "ceil_mode": True, "data_format": "NHWC",
                                "padding_algorithm": "EXPLICIT"}, shape=[-1, 3, 2, 6])
    b.fetch(p)
    model = b.save(str(tmp_path / "m"))
    art = paddle_mlir.compile(model)
    for n in (1, 3):
        xv = rng.standard_normal((n, 9, 8, 3)).astype(np.float32)
        t = torch.from_numpy(xv).permute(0, 3, 1, 2)
        t = F.conv2d(t, torch.from_numpy(w), padding=1)
        # SAME over 9x8 at stride 2: rows padded 1 and 1, columns 0 and 1.
        t = F.conv2d(F.pad(t, (0, 1, 1, 1)), torch.from_numpy(dw), stride=2, groups=6)
        t = F.max_pool2d(t, 2, 2, ceil_mode=True).permute(0, 2, 3, 1)
        np.testing.assert_allclose(art(xv)[0], t.numpy(), rtol=1e-4, atol=1e-5)


def test_fill_constant_with_a_list_of_shape_tensors(tmp_path):
    """fill_constant shaped by ShapeTensorList (one 0-D int64 and one [1]
    int32 tensor, each a dim): DETR builds its masks this way."""
    b = ProgramBuilder()
    x = b.feed("x", [-1, 3], "float32")
    rows = b._simple("shape", x, shape=[2], dtype="int32", slot="Input")
    first = b._simple("slice", rows, {"axes": [0], "starts": [0], "ends": [1], "infer_flags": [1],
                                      "decrease_axis": []}, shape=[1], slot="Input")
    cols = b.feed("cols", [], "int64")
    out = b.tmp("fill_constant", [-1, -1], "float32")
    b.fetch(b.op("fill_constant", {"ShapeTensorList": [first, cols]}, {"Out": [out]},
                 {"value": 2.5, "dtype": 5, "shape": [-1, -1]}))
    model = save(b, tmp_path / "m")
    for n, c in ((2, 4), (5, 1)):
        xv = np.zeros((n, 3), np.float32)
        check(model, [xv, np.array(c, np.int64)], [np.full((n, c), 2.5, np.float32)], tmp_path)
