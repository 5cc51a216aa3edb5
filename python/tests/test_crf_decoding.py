"""CRF decoding as lexical analysis programs end: Fluid's crf_decoding on
LoD sequences and Paddle 2.x's viterbi_decode on padded ones. Compiled
output against the best path found by scoring every tag path of each
sequence (itertools product, feasible for the small sizes here), the
reference evaluator and the exporter's round trip; and the whole
bidirectional-GRU tagger shape (lookup_table, fc, gru both ways, concat,
fc, crf_decoding)."""
import itertools

import numpy as np
import pytest

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


def viterbi_brute(x, w, lengths, bos):
    """Scores and paths of Paddle 2.x's viterbi_decode by scoring every tag
    path: emissions, tag-to-tag weights (rows: from), and with bos the
    last row of w before the first tag and the second-last after the last.
    A zero length scores its first row plus the start weights (what
    Paddle's kernel leaves there) and has an all-zero path."""
    n, steps, tags = x.shape
    width = min(steps, int(lengths.max()))
    scores, paths = np.zeros(n, np.float32), np.zeros((n, width), np.int64)
    for s, length in enumerate(lengths):
        if length == 0:
            scores[s] = (x[s, 0] + (w[-1] if bos else 0)).max()
            continue
        best = -np.inf
        for path in itertools.product(range(tags), repeat=int(length)):
            v = sum(float(x[s, i, t]) for i, t in enumerate(path))
            v += sum(float(w[p, q]) for p, q in zip(path, path[1:]))
            if bos:
                v += float(w[-1, path[0]]) + float(w[-2, path[-1]])
            if v > best:
                best, arg = v, path
        scores[s] = best
        paths[s, :length] = arg
    return scores, paths


@pytest.mark.parametrize("bos", [True, False])
def test_viterbi_decode(tmp_path, bos):
    rng = np.random.default_rng(11 if bos else 12)
    tags, steps = 4, 6
    lengths = np.array([3, 1, 0, 5, 2], np.int64)        # width min(6, 5) = 5
    x = rng.standard_normal((len(lengths), steps, tags)).astype(np.float32)
    w = rng.standard_normal((tags, tags)).astype(np.float32)
    b = ProgramBuilder()
    xv = b.feed("x", [-1, -1, tags])
    n = b.feed("length", [-1], "int64")
    scores, path = b.tmp("scores", [-1]), b.tmp("path", [-1, -1], "int64")
    b.op("viterbi_decode", {"Input": [xv], "Transition": [b.param("trans", w)], "Length": [n]},
         {"Scores": [scores], "Path": [path]}, {"include_bos_eos_tag": bos})
    b.fetch(scores)
    b.fetch(path)
    got, ref = compile_run(tmp_path, b, [x, lengths])
    want_scores, want_paths = viterbi_brute(x, w, lengths, bos)
    for out in (got, ref):
        np.testing.assert_allclose(out[0], want_scores, rtol=1e-5, atol=1e-5)
        np.testing.assert_array_equal(out[1], want_paths)


def test_viterbi_decode_bad_length(tmp_path):
    b = ProgramBuilder()
    xv = b.feed("x", [-1, -1, 3])
    n = b.feed("length", [-1], "int64")
    scores, path = b.tmp("scores", [-1]), b.tmp("path", [-1, -1], "int64")
    b.op("viterbi_decode", {"Input": [xv], "Transition": [b.param("trans", np.zeros((3, 3), np.float32))],
                            "Length": [n]}, {"Scores": [scores], "Path": [path]})
    b.fetch(path)
    model = str(tmp_path / "m")
    b.save(model)
    with pytest.raises(Exception, match=r"viterbi_decode: Length\[1\] is 9, outside \[0, 4\]"):
        paddle_mlir.compile(model)(np.zeros((2, 4, 3), np.float32), np.array([2, 9], np.int64))
