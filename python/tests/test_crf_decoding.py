"""Fluid's crf_decoding (Viterbi decoding of a linear-chain CRF) on LoD
sequences, as lexical analysis programs end: compiled output against the
best path found by scoring every tag path of each sequence (itertools
product, feasible for the small sizes here), the reference evaluator and
the exporter's round trip; and the whole bidirectional-GRU tagger shape
(lookup_table, fc, gru both ways, concat, fc, crf_decoding)."""
import itertools

import numpy as np

import paddle_mlir
from paddle_mlir.builder import ProgramBuilder
from test_random_unique_fpn import compile_run


def best_paths(emission, transition, lengths):
    """Per sequence, the tag path with the highest score: start weight of
    the first tag, each row's emission, each step's tag-to-tag weight, end
    weight of the last tag."""
    tags = emission.shape[1]
    start, end, trans = transition[0], transition[1], transition[2:]
    out, first = [], 0
    for n in lengths:
        e = emission[first:first + n].astype(np.float64)
        best, arg = -np.inf, ()
        for path in itertools.product(range(tags), repeat=int(n)) if n else ():
            score = start[path[0]] + end[path[-1]] + sum(e[k, t] for k, t in enumerate(path))
            score += sum(trans[a, b] for a, b in zip(path, path[1:]))
            if score > best:
                best, arg = score, path
        out.extend(arg)
        first += n
    return np.array(out, np.int64).reshape(-1, 1)


def test_crf_decoding(tmp_path):
    rng = np.random.default_rng(5)
    tags, lengths = 4, np.array([3, 0, 1, 5, 2], np.int64)
    emission = rng.standard_normal((int(lengths.sum()), tags)).astype(np.float32)
    transition = rng.standard_normal((tags + 2, tags)).astype(np.float32)
    b = ProgramBuilder()
    e = b.feed("emission", [-1, tags], lod_level=1)
    path = b.tmp("path", [-1, 1], "int64")
    b.op("crf_decoding", {"Emission": [e], "Transition": [b.param("crfw", transition)]},
         {"ViterbiPath": [path]})
    b.fetch(path)
    got, ref = compile_run(tmp_path, b, [emission, lengths])
    want = best_paths(emission, transition, lengths)
    np.testing.assert_array_equal(got[0], want)
    np.testing.assert_array_equal(ref[0], want)


def test_crf_decoding_bad_lengths(tmp_path):
    b = ProgramBuilder()
    e = b.feed("emission", [-1, 3], lod_level=1)
    path = b.tmp("path", [-1, 1], "int64")
    b.op("crf_decoding", {"Emission": [e], "Transition": [b.param("crfw", np.zeros((5, 3), np.float32))]},
         {"ViterbiPath": [path]})
    b.fetch(path)
    model = str(tmp_path / "m")
    b.save(model)
    compiled = paddle_mlir.compile(model)
    try:
        compiled(np.zeros((4, 3), np.float32), np.array([2, 3], np.int64))
    except Exception as err:  # the run fails with the kernel's message
        assert "crf_decoding: the sequence lengths sum to 5 but Emission has 4 rows" in str(err), err
    else:
        raise AssertionError("lengths that do not cover the rows were accepted")


def test_bigru_crf_tagger(tmp_path):
    """words -> embedding -> fc -> gru forward and reverse -> concat -> fc
    -> crf_decoding: the compiled path against brute force over the
    emissions the reference evaluator computes for the same program."""
    rng = np.random.default_rng(8)
    vocab, emb, hidden, tags = 20, 6, 4, 3
    lengths = np.array([4, 1, 3], np.int64)
    words = rng.integers(0, vocab, (int(lengths.sum()), 1)).astype(np.int64)
    b = ProgramBuilder()
    w = b.feed("words", [-1, 1], "int64", lod_level=1)
    x = b.tmp("emb", [-1, emb])
    b.op("lookup_table", {"Ids": [w], "W": [b.param("table", rng.standard_normal((vocab, emb)).astype(np.float32))]},
         {"Out": [x]}, {"padding_idx": -1})
    hs = []
    for d, reverse in enumerate((False, True)):
        proj = b.tmp("proj%d" % d, [-1, 3 * hidden])
        b.op("mul", {"X": [x], "Y": [b.param("fc%d" % d, 0.5 * rng.standard_normal((emb, 3 * hidden)).astype(np.float32))]},
             {"Out": [proj]}, {"x_num_col_dims": 1, "y_num_col_dims": 1})
        h = b.tmp("h%d" % d, [-1, hidden])
        extra = {k: [b.tmp("%s%d" % (k, d), [-1, hidden])] for k in ("BatchGate", "BatchResetHiddenPrev", "BatchHidden")}
        extra["Hidden"] = [h]
        b.op("gru", {"Input": [proj], "Weight": [b.param("gw%d" % d, 0.5 * rng.standard_normal((hidden, 3 * hidden)).astype(np.float32))],
                     "Bias": [b.param("gb%d" % d, 0.1 * rng.standard_normal((1, 3 * hidden)).astype(np.float32))]},
             extra, {"is_reverse": reverse, "origin_mode": False})
        hs.append(h)
    both = b.tmp("both", [-1, 2 * hidden])
    b.op("concat", {"X": hs}, {"Out": [both]}, {"axis": 1})
    scores = b.tmp("scores", [-1, tags])
    b.op("mul", {"X": [both], "Y": [b.param("out_w", rng.standard_normal((2 * hidden, tags)).astype(np.float32))]},
         {"Out": [scores]}, {"x_num_col_dims": 1, "y_num_col_dims": 1})
    path = b.tmp("path", [-1, 1], "int64")
    transition = rng.standard_normal((tags + 2, tags)).astype(np.float32)
    b.op("crf_decoding", {"Emission": [scores], "Transition": [b.param("crfw", transition)]}, {"ViterbiPath": [path]})
    b.fetch(path)
    b.fetch(scores)
    got, ref = compile_run(tmp_path, b, [words, lengths])
    np.testing.assert_allclose(got[1], ref[1], rtol=1e-4, atol=1e-5)
    np.testing.assert_array_equal(got[0], best_paths(ref[1], transition, lengths))
    np.testing.assert_array_equal(ref[0], got[0])
