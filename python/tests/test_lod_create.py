"""Ops that make LoD (issue 34, item 2): im2sequence (each image becomes a
sequence of its patches) and lod_reset (new sequence boundaries from Y's
LoD, Y's values or target_lod, `append` adding a level), with the sequence
ops after them reading the lengths they make; and gru_unit, the one-step
GRU cell of Fluid's attention decoders. Compiled output and the reference
evaluator against NumPy loops written here; the exporter's round trip;
bad offsets at run time and unsupported LoD levels at import."""
import subprocess

import numpy as np
import pytest

import paddle_mlir
from paddle_mlir.builder import ProgramBuilder
from test_reductions import check, tool


def patches_loops(x, kernels, strides, paddings):
    """Row (n, i, j), column (c, ky, kx): X at (i*sy - up + ky, j*sx - left
    + kx), zero outside the image."""
    n, c, h, w = x.shape
    (kh, kw), (sy, sx), (up, left, down, right) = kernels, strides, paddings
    oh, ow = (h + up + down - kh) // sy + 1, (w + left + right - kw) // sx + 1
    out = np.zeros((n * oh * ow, c * kh * kw), x.dtype)
    for img in range(n):
        for i in range(oh):
            for j in range(ow):
                for ch in range(c):
                    for ky in range(kh):
                        for kx in range(kw):
                            yy, xx = i * sy - up + ky, j * sx - left + kx
                            if 0 <= yy < h and 0 <= xx < w:
                                out[(img * oh + i) * ow + j, (ch * kh + ky) * kw + kx] = x[img, ch, yy, xx]
    return out, oh * ow


def pool_sum(rows, lengths):
    out, start = [], 0
    for n in lengths:
        out.append(rows[start:start + n].astype(np.float64).sum(0))
        start += n
    return np.array(out, np.float32).reshape(len(lengths), *rows.shape[1:])


def seq_pool(b, x, width, pooltype="SUM"):
    out = b.tmp("pooled", [-1, width])
    b.op("sequence_pool", {"X": [x]}, {"Out": [out], "MaxIndex": [b.tmp("mi", [-1, width], "int32")]},
         {"pooltype": pooltype, "is_test": True, "pad_value": 0.0})
    return out


@pytest.mark.parametrize("shape,kernels,strides,paddings", [
    ((2, 4, 1, 6), [1, 1], [1, 1], [0, 0, 0, 0]),      # RARE: a column per step
    ((3, 2, 5, 7), [2, 3], [2, 1], [1, 0, 0, 2]),      # windows, strides, uneven padding
])
def test_im2sequence(tmp_path, shape, kernels, strides, paddings):
    rng = np.random.default_rng(1)
    x = rng.standard_normal(shape).astype(np.float32)
    want, per = patches_loops(x, kernels, strides, paddings)
    width = want.shape[1]
    b = ProgramBuilder()
    xv = b.feed("x", [-1] + list(shape[1:]))
    seq = b.tmp("seq", [-1, width])
    b.op("im2sequence", {"X": [xv]}, {"Out": [seq]},
         {"kernels": kernels, "strides": strides, "paddings": paddings, "out_stride": [1, 1]})
    b.fetch(seq)
    # The sequences it makes: one per image, of OH*OW rows.
    b.fetch(seq_pool(b, seq, width))
    check(tmp_path, b, [x], [want, pool_sum(want, [per] * shape[0])], rtol=1e-5)


@pytest.mark.parametrize("dtype", ["int32", "int64"])
def test_lod_reset_from_y_values(tmp_path, dtype):
    rng = np.random.default_rng(3)
    x = rng.standard_normal((7, 3)).astype(np.float32)
    offsets = np.array([0, 2, 2, 7], dtype)
    b = ProgramBuilder()
    xv = b.feed("x", [-1, 3])
    yv = b.feed("offsets", [-1], dtype)
    out = b.tmp("reset", [-1, 3])
    b.op("lod_reset", {"X": [xv], "Y": [yv]}, {"Out": [out]}, {"append": False})
    b.fetch(seq_pool(b, out, 3))
    check(tmp_path, b, [x, offsets], pool_sum(x, np.diff(offsets.astype(np.int64))))


def test_lod_reset_target_lod_replaces_feed_lod(tmp_path):
    rng = np.random.default_rng(5)
    x = rng.standard_normal((6, 2)).astype(np.float32)
    b = ProgramBuilder()
    xv = b.feed("x", [-1, 2], lod_level=1)
    out = b.tmp("reset", [-1, 2])
    b.op("lod_reset", {"X": [xv]}, {"Out": [out]}, {"target_lod": [0, 1, 4, 6], "append": False})
    b.fetch(seq_pool(b, out, 2, "MAX"))
    want = np.array([x[0:1].max(0), x[1:4].max(0), x[4:6].max(0)], np.float32)
    check(tmp_path, b, [x, np.array([6], np.int64)], want)


def test_lod_reset_takes_y_lod(tmp_path):
    # Y is a LoD feed: Out takes its sequences, whatever X's were.
    rng = np.random.default_rng(7)
    x = rng.standard_normal((5, 1)).astype(np.float32)
    lengths = np.array([2, 3], np.int64)
    b = ProgramBuilder()
    xv = b.feed("x", [-1, 1])
    yv = b.feed("y", [-1, 4], lod_level=1)
    out = b.tmp("reset", [-1, 1])
    b.op("lod_reset", {"X": [xv], "Y": [yv]}, {"Out": [out]}, {"append": False})
    sm = b.tmp("sm", [-1, 1])
    b.op("sequence_softmax", {"X": [out]}, {"Out": [sm]})
    b.fetch(sm)
    want = np.concatenate([np.exp(x[:2]) / np.exp(x[:2]).sum(), np.exp(x[2:]) / np.exp(x[2:]).sum()])
    check(tmp_path, b, [x, np.zeros((5, 4), np.float32), lengths], want.astype(np.float32), rtol=1e-5)


@pytest.mark.parametrize("ref_level", [-1, 1])
def test_lod_reset_append_second_level(tmp_path, ref_level):
    # RARE's decoder start: lod_reset then lod_reset(append) with the same
    # offsets make a 2-level LoD; sequence_expand at its last level repeats
    # row i of X over the rows of sequence i.
    rng = np.random.default_rng(9)
    x = rng.standard_normal((3, 4)).astype(np.float32)
    offsets = np.array([0, 1, 3, 3], np.int32)
    b = ProgramBuilder()
    yv = b.feed("y", [-1, 1])
    ov = b.feed("offsets", [-1], "int32")
    xv = b.feed("x", [-1, 4])
    first = b.tmp("l1", [-1, 1])
    b.op("lod_reset", {"X": [yv], "Y": [ov]}, {"Out": [first]}, {"append": False})
    second = b.tmp("l2", [-1, 1])
    b.op("lod_reset", {"X": [first], "Y": [ov]}, {"Out": [second]}, {"append": True})
    ex = b.tmp("ex", [-1, 4])
    b.op("sequence_expand", {"X": [xv], "Y": [second]}, {"Out": [ex]}, {"ref_level": ref_level})
    b.fetch(ex)
    want = np.concatenate([x[0:1], x[1:2], x[1:2]])
    check(tmp_path, b, [np.zeros((3, 1), np.float32), offsets, x], want)


def test_lod_reset_bad_offsets_at_run_time(tmp_path):
    b = ProgramBuilder()
    xv = b.feed("x", [-1, 3])
    yv = b.feed("offsets", [-1], "int32")
    out = b.tmp("reset", [-1, 3])
    b.op("lod_reset", {"X": [xv], "Y": [yv]}, {"Out": [out]}, {"append": False})
    b.fetch(seq_pool(b, out, 3))
    model = str(tmp_path / "m")
    b.save(model)
    m = paddle_mlir.compile(model)
    x = np.zeros((4, 3), np.float32)
    for offsets, words in [([0, 2, 5], "ends at 5 but X has 4 rows"), ([1, 4], "must start at 0"),
                           ([0, 3, 2, 4], "decreases at offset 2")]:
        with pytest.raises(Exception) as err:
            m(x, np.array(offsets, np.int32))
        assert "lod_reset" in str(err.value) and words in str(err.value), str(err.value)


def test_second_level_refused_where_an_op_reads_level_one(tmp_path):
    b = ProgramBuilder()
    xv = b.feed("x", [-1, 2])
    ov = b.feed("offsets", [-1], "int32")
    first = b.tmp("l1", [-1, 2])
    b.op("lod_reset", {"X": [xv], "Y": [ov]}, {"Out": [first]}, {"append": False})
    second = b.tmp("l2", [-1, 2])
    b.op("lod_reset", {"X": [first], "Y": [ov]}, {"Out": [second]}, {"append": True})
    b.fetch(seq_pool(b, second, 2))
    model = str(tmp_path / "m")
    b.save(model)
    p = subprocess.run([tool("paddle-translate"), "--import-paddle", model], capture_output=True, text=True)
    assert 0 < p.returncode < 128, p.stderr
    assert "sequence_pool" in p.stderr and "2 LoD levels" in p.stderr, p.stderr


def gru_unit_loops(x, hp, w, bias, act, gate_act, origin):
    fns = {0: lambda v: v, 1: lambda v: 1.0 / (1.0 + np.exp(-v)), 2: np.tanh, 3: lambda v: max(v, 0.0)}
    n, d = hp.shape
    flat = w.reshape(-1).astype(np.float64)
    gate = np.zeros((n, 3 * d))
    reset = np.zeros((n, d))
    hidden = np.zeros((n, d))
    for i in range(n):
        g = x[i].astype(np.float64) + (bias.reshape(-1) if bias is not None else 0)
        for j in range(2 * d):
            s = g[j] + sum(hp[i, k] * flat[k * 2 * d + j] for k in range(d))
            gate[i, j] = fns[gate_act](s)
        for k in range(d):
            reset[i, k] = gate[i, d + k] * hp[i, k]
        for j in range(d):
            s = g[2 * d + j] + sum(reset[i, k] * flat[2 * d * d + k * d + j] for k in range(d))
            gate[i, 2 * d + j] = fns[act](s)
        for j in range(d):
            u, c, h = gate[i, j], gate[i, 2 * d + j], hp[i, j]
            hidden[i, j] = u * h + (1 - u) * c if origin else (1 - u) * h + u * c
    return [a.astype(np.float32) for a in (gate, reset, hidden)]


@pytest.mark.parametrize("act,gate_act,origin,with_bias", [
    (2, 1, False, True), (2, 1, True, False), (3, 0, False, True)])
def test_gru_unit(tmp_path, act, gate_act, origin, with_bias):
    rng = np.random.default_rng(11)
    n, d = 3, 4
    x = rng.standard_normal((n, 3 * d)).astype(np.float32)
    hp = rng.standard_normal((n, d)).astype(np.float32)
    w = (rng.standard_normal((d, 3 * d)) * 0.5).astype(np.float32)
    bias = (rng.standard_normal((1, 3 * d)) * 0.5).astype(np.float32) if with_bias else None
    b = ProgramBuilder()
    xv = b.feed("x", [-1, 3 * d])
    hv = b.feed("h", [-1, d])
    ins = {"Input": [xv], "HiddenPrev": [hv], "Weight": [b.param("w", w)]}
    if with_bias:
        ins["Bias"] = [b.param("bias", bias)]
    outs = {"Gate": [b.tmp("gate", [-1, 3 * d])], "ResetHiddenPrev": [b.tmp("reset", [-1, d])],
            "Hidden": [b.tmp("hidden", [-1, d])]}
    b.op("gru_unit", ins, outs, {"activation": act, "gate_activation": gate_act, "origin_mode": origin})
    for slot in ("Gate", "ResetHiddenPrev", "Hidden"):
        b.fetch(outs[slot][0])
    check(tmp_path, b, [x, hp], gru_unit_loops(x, hp, w, bias, act, gate_act, origin), rtol=1e-5)


def test_gru_unit_bad_weight_refused(tmp_path):
    b = ProgramBuilder()
    xv = b.feed("x", [-1, 12])
    hv = b.feed("h", [-1, 4])
    outs = {"Gate": [b.tmp("gate", [-1, 12])], "ResetHiddenPrev": [b.tmp("reset", [-1, 4])],
            "Hidden": [b.tmp("hidden", [-1, 4])]}
    b.op("gru_unit", {"Input": [xv], "HiddenPrev": [hv], "Weight": [b.param("w", np.zeros((4, 8), np.float32))]},
         outs, {"activation": 2, "gate_activation": 1})
    b.fetch(outs["Hidden"][0])
    model = str(tmp_path / "m")
    b.save(model)
    p = subprocess.run([tool("paddle-translate"), "--import-paddle", model], capture_output=True, text=True)
    assert 0 < p.returncode < 128, p.stderr
    assert "gru_unit" in p.stderr and "Weight must be [D, 3D]" in p.stderr, p.stderr


@pytest.mark.parametrize("dtype", ["float32", "int64"])
def test_sequence_reshape(tmp_path, dtype):
    # Sequence n keeps its values: lengths [2, 0, 3] of width 6 become
    # [3, 0, 4.5] ... of width 4 only where whole, so widths 6 -> 3 here:
    # lengths [4, 0, 6].
    rng = np.random.default_rng(13)
    lengths = np.array([2, 0, 3], np.int64)
    x = (rng.standard_normal((5, 6)) * 10).astype(dtype)
    b = ProgramBuilder()
    xv = b.feed("x", [-1, 6], dtype, lod_level=1)
    out = b.tmp("reshaped", [-1, 3], dtype)
    b.op("sequence_reshape", {"X": [xv]}, {"Out": [out]}, {"new_dim": 3})
    b.fetch(out)
    want = [x.reshape(-1, 3)]
    if dtype == "float32":
        # The new sequences: sequence n is rows [2 * start, 2 * end).
        b.fetch(seq_pool(b, out, 3, "MAX"))
        rows = x.reshape(-1, 3)
        want.append(np.array([rows[0:4].max(0), np.zeros(3), rows[4:10].max(0)], np.float32))
    check(tmp_path, b, [x, lengths], want)


def test_sequence_reshape_uneven_sequence_at_run_time(tmp_path):
    b = ProgramBuilder()
    xv = b.feed("x", [-1, 2], lod_level=1)
    out = b.tmp("reshaped", [-1, 4])
    b.op("sequence_reshape", {"X": [xv]}, {"Out": [out]}, {"new_dim": 4})
    b.fetch(seq_pool(b, out, 4, "SUM"))
    model = str(tmp_path / "m")
    b.save(model)
    m = paddle_mlir.compile(model)
    # 4 rows of 2 values fill 2 rows of 4 in all, but sequence 0 has 3 rows
    # (6 values).
    with pytest.raises(Exception) as err:
        m(np.zeros((4, 2), np.float32), np.array([3, 1], np.int64))
    assert "sequence_reshape" in str(err.value) and "sequence 0 has 6 values" in str(err.value), str(err.value)


def test_box_clip(tmp_path):
    # Two images with 2 and 3 boxes; the second at scale 2 (its boxes live
    # in a 20.5 x 30 image at scale 1: round(20.5) = 21, C rounds half away
    # from zero).
    lengths = np.array([2, 3], np.int64)
    boxes = np.array([[-5, 3, 50, 70], [10, -1, 12, 200],
                      [0, 0, 40, 40], [-1, 25, 19, 9], [35, 5, 2, 100]], np.float32)
    info = np.array([[64, 48, 1], [41, 60, 2]], np.float32)
    b = ProgramBuilder()
    bv = b.feed("boxes", [-1, 4], lod_level=1)
    iv = b.feed("im_info", [-1, 3])
    out = b.tmp("clipped", [-1, 4])
    b.op("box_clip", {"Input": [bv], "ImInfo": [iv]}, {"Output": [out]})
    b.fetch(out)
    want = boxes.copy()
    for k, (img, (h, w, s)) in enumerate([(0, info[0]), (0, info[0]), (1, info[1]), (1, info[1]), (1, info[1])]):
        wmax, hmax = np.floor(w / s + 0.5) - 1, np.floor(h / s + 0.5) - 1
        for c in range(4):
            want[k, c] = min(max(boxes[k, c], 0), wmax if c % 2 == 0 else hmax)
    assert want[3].tolist() == [0, 20, 19, 9]     # hand check: h 41 / 2 = 20.5 rounds to 21
    check(tmp_path, b, [boxes, lengths, info], want)


def test_box_clip_needs_lod(tmp_path):
    b = ProgramBuilder()
    bv = b.feed("boxes", [-1, 4])
    iv = b.feed("im_info", [-1, 3])
    out = b.tmp("clipped", [-1, 4])
    b.op("box_clip", {"Input": [bv], "ImInfo": [iv]}, {"Output": [out]})
    b.fetch(out)
    model = str(tmp_path / "m")
    b.save(model)
    p = subprocess.run([tool("paddle-translate"), "--import-paddle", model], capture_output=True, text=True)
    assert 0 < p.returncode < 128, p.stderr
    assert "box_clip" in p.stderr and "Input carries no LoD" in p.stderr, p.stderr


@pytest.mark.parametrize("forget_bias", [0.0, 1.5])
def test_lstm_unit(tmp_path, forget_bias):
    rng = np.random.default_rng(17)
    n, d = 3, 4
    x = (rng.standard_normal((n, 4 * d)) * 2).astype(np.float32)
    c0 = rng.standard_normal((n, d)).astype(np.float32)
    b = ProgramBuilder()
    xv = b.feed("x", [-1, 4 * d])
    cv = b.feed("c0", [-1, d])
    c, h = b.tmp("c", [-1, d]), b.tmp("h", [-1, d])
    b.op("lstm_unit", {"X": [xv], "C_prev": [cv]}, {"C": [c], "H": [h]}, {"forget_bias": forget_bias})
    b.fetch(c)
    b.fetch(h)
    want_c, want_h = np.zeros((n, d)), np.zeros((n, d))
    for r in range(n):
        for k in range(d):
            gi, gf, go, gg = (float(x[r, blk * d + k]) for blk in range(4))
            s = lambda v: 1.0 / (1.0 + np.exp(-v))
            want_c[r, k] = s(gf + forget_bias) * c0[r, k] + s(gi) * np.tanh(gg)
            want_h[r, k] = s(go) * np.tanh(want_c[r, k])
    check(tmp_path, b, [x, c0], [want_c.astype(np.float32), want_h.astype(np.float32)], rtol=1e-5)
