"""LoD sequences (issue 34 step d, first part): a LoD feed is a batch of
variable-length sequences, its rows packed along dim 0 and its lengths
given at run time as NAME@lengths (an extra input right after it, or
paddle-run --lod NAME=FILE). The lengths pass through ops as Paddle shares
LoD, and sequence_pool pools each sequence to one row. Compiled output
against NumPy loops written here, the reference evaluator and the
exporter's round trip (the feed's LoD level survives it)."""
import os
import subprocess

import numpy as np
import pytest

import paddle_mlir
from paddle_mlir import framework_pb2 as fp
from paddle_mlir.builder import ProgramBuilder
from test_reductions import check, round_trips, tool


def pool_loops(x, lengths, kind, pad=0.0):
    """Each sequence of x (rows counted by lengths) pooled in float64."""
    out, index, start = [], [], 0
    for n in lengths:
        seq = x[start:start + n].astype(np.float64)
        idx = np.full(x.shape[1:], -1, np.int32)
        if n == 0:
            row = np.full(x.shape[1:], pad)
        elif kind == "AVERAGE":
            row = seq.sum(0) / n
        elif kind == "SUM":
            row = seq.sum(0)
        elif kind == "SQRT":
            row = seq.sum(0) / np.sqrt(n)
        elif kind == "MAX":
            row = seq.max(0)
            idx = (start + seq.argmax(0)).astype(np.int32)
        elif kind == "LAST":
            row = seq[n - 1]
        else:
            row = seq[0]
        out.append(row)
        index.append(idx)
        start += n
    return np.array(out, np.float32), np.array(index, np.int32)


@pytest.mark.parametrize("kind", ["AVERAGE", "SUM", "SQRT", "MAX", "LAST", "FIRST"])
def test_sequence_pool(tmp_path, kind):
    rng = np.random.default_rng(3)
    lengths = np.array([3, 0, 4, 1], np.int64)          # an empty sequence among them
    x = rng.standard_normal((int(lengths.sum()), 3, 2)).astype(np.float32)
    b = ProgramBuilder()
    xv = b.feed("x", [-1, 3, 2], lod_level=1)
    # The LoD passes through an elementwise op to the pool.
    y = b._simple("scale", xv, {"scale": 2.0, "bias": 0.5})
    out, idx = b.tmp("pool", [-1, 3, 2]), b.tmp("max_index", [-1, 3, 2], "int32")
    b.op("sequence_pool", {"X": [y]}, {"Out": [out], "MaxIndex": [idx]},
         {"pooltype": kind, "pad_value": -7.0, "is_test": True})
    b.fetch(out)
    b.fetch(idx)
    want, want_idx = pool_loops(x * 2 + 0.5, lengths, kind, pad=-7.0)
    check(tmp_path, b, [x, lengths], [want, want_idx])


def lod_embedding_model(tmp_path, table):
    """words (LoD int64 ids [T, 1]) -> lookup_table -> sequence_pool SUM ->
    fc-like mul, as Fluid text classifiers are built."""
    b = ProgramBuilder()
    words = b.feed("words", [-1, 1], "int64", lod_level=1)
    emb = b.tmp("emb", [-1, table.shape[1]])
    b.op("lookup_table", {"Ids": [words], "W": [b.param("emb_w", table)]}, {"Out": [emb]},
         {"padding_idx": -1})
    pooled = b.tmp("pool", [-1, table.shape[1]])
    b.op("sequence_pool", {"X": [emb]}, {"Out": [pooled]}, {"pooltype": "SUM", "is_test": True})
    w = np.linspace(-1, 1, table.shape[1] * 2, dtype=np.float32).reshape(table.shape[1], 2)
    out = b.tmp("logits", [-1, 2])
    b.op("mul", {"X": [pooled], "Y": [b.param("fc_w", w)]}, {"Out": [out]},
         {"x_num_col_dims": 1, "y_num_col_dims": 1})
    b.fetch(out)
    model = str(tmp_path / "m")
    b.save(model)
    return model, w


def test_lookup_table_on_sequences(tmp_path):
    table = np.random.default_rng(4).standard_normal((20, 5)).astype(np.float32)
    model, w = lod_embedding_model(tmp_path, table)
    round_trips(model, tmp_path)
    # The exported program keeps words as a LoD feed and no lengths feed.
    exported = fp.ProgramDesc()
    exported.ParseFromString(open(tmp_path / "e" / "model.pdmodel", "rb").read())
    block = exported.blocks[0]
    feeds = [o.outputs[0].arguments[0] for o in block.ops if o.type == "feed"]
    assert feeds == ["words"]
    assert next(v for v in block.vars if v.name == "words").type.lod_tensor.lod_level == 1
    assert all(i.parameter != "Lengths" for o in block.ops for i in o.inputs)
    run = paddle_mlir.compile(model)
    for lengths in ([2, 5, 1], [7], [0, 3]):
        lengths = np.array(lengths, np.int64)
        ids = np.random.default_rng(int(lengths.sum())).integers(0, 20, (int(lengths.sum()), 1))
        pooled, _ = pool_loops(table[ids[:, 0]], lengths, "SUM")
        got = run(ids.astype(np.int64), lengths)[0]
        np.testing.assert_allclose(got, pooled @ w, rtol=1e-5, atol=1e-5)


def test_bad_lengths_are_reported(tmp_path):
    table = np.ones((20, 5), np.float32)
    model, _ = lod_embedding_model(tmp_path, table)
    run = paddle_mlir.compile(model)
    ids = np.zeros((4, 1), np.int64)
    with pytest.raises(Exception, match="sequence lengths sum to 5 but X has 4 rows"):
        run(ids, np.array([2, 3], np.int64))
    with pytest.raises(Exception, match="negative length"):
        run(ids, np.array([5, -1], np.int64))


def test_paddle_run_lod_flag(tmp_path):
    table = np.random.default_rng(5).standard_normal((20, 5)).astype(np.float32)
    model, w = lod_embedding_model(tmp_path, table)
    art = str(tmp_path / "art")
    subprocess.run([tool("paddle-compile"), model, "-o", art], check=True, capture_output=True)
    ids = np.array([[1], [4], [4], [9], [0]], np.int64)
    lengths = np.array([3, 2], np.int64)
    np.save(tmp_path / "ids.npy", ids)
    np.save(tmp_path / "len.npy", lengths)
    out = str(tmp_path / "out")
    p = subprocess.run([tool("paddle-run"), art, "--input", "words=%s" % (tmp_path / "ids.npy"),
                        "--lod", "words=%s" % (tmp_path / "len.npy"), "--output-dir", out],
                       capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    got = np.load(os.path.join(out, os.listdir(out)[0]))
    pooled, _ = pool_loops(table[ids[:, 0]], lengths, "SUM")
    np.testing.assert_allclose(got, pooled @ w, rtol=1e-5, atol=1e-5)
    # Without the lengths: one clear error, no crash.
    p = subprocess.run([tool("paddle-run"), art, "--input", "words=%s" % (tmp_path / "ids.npy")],
                       capture_output=True, text=True)
    assert 0 < p.returncode < 128 and "words@lengths" in p.stderr, p.stderr


def test_sequence_pool_needs_lod(tmp_path):
    b = ProgramBuilder()
    xv = b.feed("x", [-1, 3])                            # no LoD
    out = b.tmp("pool", [-1, 3])
    b.op("sequence_pool", {"X": [xv]}, {"Out": [out]}, {"pooltype": "SUM"})
    b.fetch(out)
    model = str(tmp_path / "m")
    b.save(model)
    p = subprocess.run([tool("paddle-translate"), "--import-paddle", model], capture_output=True, text=True)
    assert 0 < p.returncode < 128
    assert "needs the sequence lengths of a LoD input; X carries no LoD" in p.stderr, p.stderr


def test_lod_level_two_is_refused(tmp_path):
    b = ProgramBuilder()
    xv = b.feed("x", [-1, 3], lod_level=2)            # sequences of sequences
    b.fetch(b._simple("relu", xv))
    model = str(tmp_path / "m")
    b.save(model)
    p = subprocess.run([tool("paddle-translate"), "--import-paddle", model], capture_output=True, text=True)
    assert 0 < p.returncode < 128
    assert "feed 'x' has LoD level 2; only level-1 sequences" in p.stderr, p.stderr
