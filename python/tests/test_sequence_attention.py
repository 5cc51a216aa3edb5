"""LoD sequence ops of attention decoders (issue 34 step d): sequence_expand
and sequence_expand_as (a row per sequence repeated over that sequence's
rows) and sequence_softmax (softmax within each sequence), in the pattern
of PaddleOCR RARE's attention step: project the decoder state, expand it
over the encoder rows, score, normalize per sequence, pool the context.
Compiled output against NumPy loops written here, the reference evaluator
and the exporter's round trip; bad lengths at run time."""
import subprocess

import numpy as np
import pytest

import paddle_mlir
from paddle_mlir.builder import ProgramBuilder
from test_reductions import check, tool


def expand_loops(x, lengths):
    rows = []
    for i, n in enumerate(lengths):
        rows.extend([x[i]] * int(n))
    return np.array(rows, x.dtype).reshape((-1,) + x.shape[1:])


def softmax_loops(x, lengths):
    out, start = np.empty(x.shape, np.float64), 0
    for n in lengths:
        for k in range(start, start + n):
            out[k] = np.exp(x[k] - max(x[start:start + n])) / sum(np.exp(x[j] - max(x[start:start + n]))
                                                                   for j in range(start, start + n))
        start += n
    return out.astype(np.float32)


@pytest.mark.parametrize("op", ["sequence_expand", "sequence_expand_as"])
def test_sequence_expand(tmp_path, op):
    rng = np.random.default_rng(2)
    lengths = np.array([2, 0, 3, 1], np.int64)
    x = rng.standard_normal((4, 3)).astype(np.float32)
    y = rng.standard_normal((int(lengths.sum()), 5)).astype(np.float32)
    b = ProgramBuilder()
    xv = b.feed("x", [-1, 3])
    yv = b.feed("y", [-1, 5], lod_level=1)
    out = b.tmp(op, [-1, 3])
    attrs = {"ref_level": -1} if op == "sequence_expand" else {}
    b.op(op, {"X": [xv], "Y": [yv]}, {"Out": [out]}, attrs)
    b.fetch(out)
    check(tmp_path, b, [x, y, lengths], expand_loops(x, lengths))


def test_sequence_expand_int64_rows(tmp_path):
    lengths = np.array([1, 2], np.int64)
    x = np.array([[7, 8], [9, 10]], np.int64)
    b = ProgramBuilder()
    xv = b.feed("x", [-1, 2], "int64")
    yv = b.feed("y", [-1, 1], lod_level=1)
    out = b.tmp("e", [-1, 2], "int64")
    b.op("sequence_expand_as", {"X": [xv], "Y": [yv]}, {"Out": [out]})
    b.fetch(out)
    check(tmp_path, b, [x, np.zeros((3, 1), np.float32), lengths], expand_loops(x, lengths))


def test_sequence_softmax(tmp_path):
    rng = np.random.default_rng(4)
    lengths = np.array([3, 1, 0, 4], np.int64)
    x = (rng.standard_normal((int(lengths.sum()), 1)) * 3).astype(np.float32)
    b = ProgramBuilder()
    xv = b.feed("x", [-1, 1], lod_level=1)
    out = b.tmp("p", [-1, 1])
    b.op("sequence_softmax", {"X": [xv]}, {"Out": [out]})
    b.fetch(out)
    check(tmp_path, b, [x, lengths], softmax_loops(x, lengths))


def test_attention_step(tmp_path):
    # RARE's attention: the decoder state [N, H] projected and expanded over
    # each image's encoder rows, tanh, a score per row, softmax within the
    # image, the rows weighted and summed per image.
    rng = np.random.default_rng(6)
    lengths = np.array([3, 5], np.int64)
    T, H, D = int(lengths.sum()), 4, 6
    enc = rng.standard_normal((T, D)).astype(np.float32)
    state = rng.standard_normal((2, H)).astype(np.float32)
    wp = (rng.standard_normal((H, D)) * 0.5).astype(np.float32)
    wa = (rng.standard_normal((D, 1)) * 0.5).astype(np.float32)
    b = ProgramBuilder()
    e = b.feed("enc", [-1, D], lod_level=1)
    s = b.feed("state", [-1, H])
    proj = b.tmp("proj", [-1, D])
    b.op("mul", {"X": [s], "Y": [b.param("wp", wp)]}, {"Out": [proj]}, {"x_num_col_dims": 1, "y_num_col_dims": 1})
    ex = b.tmp("ex", [-1, D])
    b.op("sequence_expand", {"X": [proj], "Y": [e]}, {"Out": [ex]}, {"ref_level": -1})
    t = b.act("tanh", b.elementwise("elementwise_add", e, ex))
    score = b.tmp("score", [-1, 1])
    b.op("mul", {"X": [t], "Y": [b.param("wa", wa)]}, {"Out": [score]}, {"x_num_col_dims": 1, "y_num_col_dims": 1})
    w = b.tmp("w", [-1, 1])
    b.op("sequence_softmax", {"X": [score]}, {"Out": [w]})
    weighted = b.elementwise("elementwise_mul", e, b.reshape2(w, [-1]), axis=0)
    ctx = b.tmp("ctx", [-1, D])
    b.op("sequence_pool", {"X": [weighted]}, {"Out": [ctx], "MaxIndex": [b.tmp("mi", [-1, D], "int32")]},
         {"pooltype": "SUM", "is_test": True, "pad_value": 0.0})
    b.fetch(ctx)

    want, start = [], 0
    for i, n in enumerate(lengths):
        rows = enc[start:start + n].astype(np.float64)
        sc = np.tanh(rows + state[i].astype(np.float64) @ wp) @ wa
        p = np.exp(sc - sc.max()) / np.exp(sc - sc.max()).sum()
        want.append((rows * p).sum(0))
        start += n
    check(tmp_path, b, [enc, lengths, state], np.array(want, np.float32), rtol=1e-4)


def test_sequence_expand_rows_mismatch_at_run_time(tmp_path):
    b = ProgramBuilder()
    xv = b.feed("x", [-1, 3])
    yv = b.feed("y", [-1, 5], lod_level=1)
    out = b.tmp("e", [-1, 3])
    b.op("sequence_expand_as", {"X": [xv], "Y": [yv]}, {"Out": [out]})
    b.fetch(out)
    model = str(tmp_path / "m")
    b.save(model)
    m = paddle_mlir.compile(model)
    with pytest.raises(Exception) as err:
        m(np.zeros((3, 3), np.float32), np.zeros((4, 5), np.float32), np.array([2, 2], np.int64))
    assert "sequence_expand" in str(err.value) and "3 rows" in str(err.value) and "2 sequences" in str(err.value)


def test_sequence_expand_of_lod_x_refused(tmp_path):
    b = ProgramBuilder()
    xv = b.feed("x", [-1, 3], lod_level=1)
    yv = b.feed("y", [-1, 5], lod_level=1)
    out = b.tmp("e", [-1, 3])
    b.op("sequence_expand", {"X": [xv], "Y": [yv]}, {"Out": [out]}, {"ref_level": -1})
    b.fetch(out)
    model = str(tmp_path / "m")
    b.save(model)
    p = subprocess.run([tool("paddle-translate"), "--import-paddle", model], capture_output=True, text=True)
    assert 0 < p.returncode < 128, p.stderr
    assert "sequence_expand" in p.stderr and "X is a LoD batch" in p.stderr, p.stderr


def test_sequence_softmax_wide_rows_at_run_time(tmp_path):
    # sequence_softmax normalizes one value per row: X [T, 2] is refused by
    # the kernel with one error.
    b = ProgramBuilder()
    xv = b.feed("x", [-1, 2], lod_level=1)
    out = b.tmp("p", [-1, 2])
    b.op("sequence_softmax", {"X": [xv]}, {"Out": [out]})
    b.fetch(out)
    model = str(tmp_path / "m")
    b.save(model)
    m = paddle_mlir.compile(model)
    with pytest.raises(Exception) as err:
        m(np.zeros((3, 2), np.float32), np.array([1, 2], np.int64))
    assert "sequence_softmax" in str(err.value) and "[T] or [T, 1]" in str(err.value)
