"""LoD values carried by while loops and stored in tensor arrays (issue 34,
items 2 and 3): the sequence lengths travel with the values (a loop carries
them beside the variables, an array keeps each element's lengths), as in
PaddleOCR RARE's attention decoder, which this file's main test follows at
small size: a 2-level LoD made with lod_reset, greedy decoding with
gru_unit, attention over each image's encoder rows with sequence_expand,
sequence_softmax and sequence_pool, ids and scores in tensor arrays.
Compiled output and the reference evaluator against NumPy written here;
the exporter's round trip; what is refused at import, by name."""
import subprocess

import numpy as np
import pytest

from paddle_mlir.builder import Long, ProgramBuilder
from test_random_unique_fpn import compile_run
from test_reductions import tool
from test_while import check_all, fill, less_than


def mul(b, x, w, width):
    return b.op("mul", {"X": [x], "Y": [w]}, {"Out": [b.tmp("mul", [-1, width])]},
                {"x_num_col_dims": 1, "y_num_col_dims": 1})


def lod_reset(b, x, y, append=False):
    return b.op("lod_reset", {"X": [x], "Y": [y]}, {"Out": [b.tmp("lod_reset", x.shape, x.dtype)]},
                {"append": append})


def seq_pool(b, x, width, pooltype):
    out = b.tmp("pooled", [-1, width])
    b.op("sequence_pool", {"X": [x]}, {"Out": [out], "MaxIndex": [b.tmp("mi", [-1, width], "int32")]},
         {"pooltype": pooltype, "is_test": True, "pad_value": 0.0})
    return out


def batch_fill(b, like, dtype, value):
    return b.op("fill_constant_batch_size_like", {"Input": [like]},
                {"Out": [b.tmp("batch_fill", [-1, 1], dtype)]},
                {"shape": [-1, 1], "dtype": {"int64": 3, "float32": 5}[dtype], "value": float(value),
                 "str_value": "", "input_dim_idx": 0, "output_dim_idx": 0, "force_cpu": False})


def sigmoid(v):
    return 1.0 / (1.0 + np.exp(-v))


def test_attention_decoder_rare_like(tmp_path):
    N, D, H, V, STEPS = 2, 4, 3, 6, 4
    lengths = np.array([3, 5], np.int64)
    rng = np.random.default_rng(21)
    enc_v = rng.standard_normal((int(lengths.sum()), D)).astype(np.float32)
    w = {name: (rng.standard_normal(shape) * scale).astype(np.float32) for name, shape, scale in [
        ("boot", (D, H), 0.8), ("emb", (V, H), 1.0), ("proj", (H, D), 0.8), ("att", (D, 1), 1.0),
        ("w1", (D, 3 * H), 0.8), ("w2", (H, 3 * H), 0.8), ("gru", (H, 3 * H), 0.8), ("gru_b", (1, 3 * H), 0.3),
        ("out", (H, V), 3.0), ("out_b", (V,), 0.3)]}

    b = ProgramBuilder()
    enc = b.feed("enc", [-1, D], lod_level=1)
    offsets = b.feed("offsets", [-1], "int32")      # [0, 1, ..., N]: one row per image
    P = {k: b.param(k, v) for k, v in w.items()}
    boot = b.relu(mul(b, seq_pool(b, enc, D, "FIRST"), P["boot"], H))
    i = fill(b, "i", [1], "int64", 0)
    n = fill(b, "n", [1], "int64", STEPS)
    start = lod_reset(b, lod_reset(b, batch_fill(b, boot, "int64", 0), offsets), offsets, append=True)
    states = b.write_to_array(boot, i)
    ids = b.write_to_array(start, i)
    scores = b.write_to_array(lod_reset(b, batch_fill(b, boot, "float32", 1), start), i)
    cond = less_than(b, i, n)
    with b.while_loop(cond):
        prev = b.read_from_array(ids, i)
        h = b.read_from_array(states, i)
        sc = b.read_from_array(scores, i)
        emb = b.op("lookup_table", {"W": [P["emb"]], "Ids": [prev]}, {"Out": [b.tmp("emb", [-1, H])]},
                   {"padding_idx": Long(-1)})
        ex = b.op("sequence_expand", {"X": [mul(b, h, P["proj"], D)], "Y": [enc]},
                  {"Out": [b.tmp("ex", [-1, D])]}, {"ref_level": -1})
        score = mul(b, b.act("tanh", b.elementwise("elementwise_add", enc, ex)), P["att"], 1)
        p = b.op("sequence_softmax", {"X": [score]}, {"Out": [b.tmp("p", [-1, 1])]})
        ctx = seq_pool(b, b.elementwise("elementwise_mul", enc, b.reshape2(p, [-1]), axis=0), D, "SUM")
        # The state over the rows of the 2-level LoD's last level (one each).
        hx = b.op("sequence_expand", {"X": [h], "Y": [sc]}, {"Out": [b.tmp("hx", [-1, H])]}, {"ref_level": -1})
        g_in = b.elementwise("elementwise_add", mul(b, ctx, P["w1"], 3 * H), mul(b, emb, P["w2"], 3 * H))
        outs = {"Gate": [b.tmp("gate", [-1, 3 * H])], "ResetHiddenPrev": [b.tmp("reset", [-1, H])],
                "Hidden": [b.tmp("hidden", [-1, H])]}
        b.op("gru_unit", {"Input": [g_in], "HiddenPrev": [hx], "Weight": [P["gru"]], "Bias": [P["gru_b"]]},
             outs, {"activation": 2, "gate_activation": 1, "origin_mode": False})
        hn = outs["Hidden"][0]
        logits = b.elementwise("elementwise_add", mul(b, lod_reset(b, hn, sc), P["out"], V), P["out_b"], axis=1)
        prob = b.softmax(logits)
        val, tok = b.tmp("top_val", [-1, 1]), b.tmp("top_idx", [-1, 1], "int64")
        b.op("top_k", {"X": [prob]}, {"Out": [val], "Indices": [tok]}, {"k": 1})
        b.increment(i, out=i)
        b.write_to_array(hn, i, states)
        b.write_to_array(tok, i, ids)
        b.write_to_array(val, i, scores)
        less_than(b, i, n, out=cond)
    b.fetch(b.tensor_array_to_tensor(ids, axis=1)[0])
    b.fetch(b.tensor_array_to_tensor(scores, axis=1)[0])
    # The last scores read back from the array keep their LoD (one row per
    # image): a per-sequence softmax of one row is 1.
    last = b.read_from_array(scores, i)
    b.fetch(b.op("sequence_softmax", {"X": [last]}, {"Out": [b.tmp("last_p", [-1, 1])]}))

    # NumPy, image by image.
    f64 = {k: v.astype(np.float64) for k, v in w.items()}
    starts = np.concatenate([[0], np.cumsum(lengths)[:-1]])
    all_ids, all_scores = [], []
    for img, (s0, ln) in enumerate(zip(starts, lengths)):
        rows = enc_v[s0:s0 + ln].astype(np.float64)
        h = np.maximum(rows[0] @ f64["boot"], 0)
        tok, toks, vals = 0, [0], [1.0]
        for _ in range(STEPS):
            a = np.tanh(rows + h @ f64["proj"]) @ f64["att"]
            e = np.exp(a - a.max())
            ctx = (rows * (e / e.sum())).sum(0)
            g = ctx @ f64["w1"] + f64["emb"][tok] @ f64["w2"] + f64["gru_b"][0]
            u = sigmoid(g[:H] + h @ f64["gru"].reshape(-1)[:2 * H * H].reshape(H, 2 * H)[:, :H])
            r = sigmoid(g[H:2 * H] + h @ f64["gru"].reshape(-1)[:2 * H * H].reshape(H, 2 * H)[:, H:])
            c = np.tanh(g[2 * H:] + (r * h) @ f64["gru"].reshape(-1)[2 * H * H:].reshape(H, H))
            h = (1 - u) * h + u * c
            lg = h @ f64["out"] + f64["out_b"]
            top2 = np.sort(lg)[-2:]
            assert top2[1] - top2[0] > 1e-3          # no near ties: top_k is stable
            pr = np.exp(lg - lg.max()) / np.exp(lg - lg.max()).sum()
            tok = int(pr.argmax())
            toks.append(tok)
            vals.append(pr[tok])
        all_ids.append(toks)
        all_scores.append(vals)
    want_ids = np.array(all_ids, np.int64)
    assert len(set(want_ids[:, 1:].reshape(-1))) > 1      # the tokens do change
    offsets_v = np.arange(N + 1, dtype=np.int32)
    got, ref = compile_run(tmp_path, b, [enc_v, lengths, offsets_v])
    check_all(got, ref, [want_ids, np.array(all_scores, np.float32), np.ones((N, 1), np.float32)],
              rtol=2e-5, atol=2e-6)


def test_lod_value_carried_by_loop(tmp_path):
    # A LoD feed updated in the loop keeps its sequences: they are carried
    # beside it, and sequence_pool after the loop reads them.
    lengths = np.array([2, 0, 3], np.int64)
    x_v = np.random.default_rng(3).standard_normal((5, 2)).astype(np.float32)
    b = ProgramBuilder()
    x = b.feed("x", [-1, 2], lod_level=1)
    acc = b.assign(x)
    i = fill(b, "i", [1], "int64", 0)
    n = fill(b, "n", [1], "int64", 3)
    cond = less_than(b, i, n)
    with b.while_loop(cond):
        b.assign(b.elementwise("elementwise_add", b.scale(acc, 0.5), x), acc)
        b.increment(i, out=i)
        less_than(b, i, n, out=cond)
    b.fetch(seq_pool(b, acc, 2, "SUM"))
    a = x_v.astype(np.float64)
    for _ in range(3):
        a = a * 0.5 + x_v
    want = np.array([a[0:2].sum(0), np.zeros(2), a[2:5].sum(0)], np.float32)
    got, ref = compile_run(tmp_path, b, [x_v, lengths])
    check_all(got, ref, [want])


def test_declared_array_of_lod_batches_in_loop(tmp_path):
    # An array declared without a value and first written inside the loop
    # with LoD batches: its lengths array starts empty; each element read
    # back after the loop keeps its sequences.
    lengths = np.array([1, 3], np.int64)
    x_v = np.random.default_rng(4).standard_normal((4, 3)).astype(np.float32)
    b = ProgramBuilder()
    x = b.feed("x", [-1, 3], lod_level=1)
    i = fill(b, "i", [1], "int64", 0)
    n = fill(b, "n", [1], "int64", 2)
    arr = b.array("steps", [-1, 3])
    cond = less_than(b, i, n)
    with b.while_loop(cond):
        b.write_to_array(b.scale(x, 2.0, bias=1.0), i, arr)
        b.increment(i, out=i)
        less_than(b, i, n, out=cond)
    b.fetch(seq_pool(b, b.read_from_array(arr, fill(b, "k", [1], "int64", 1)), 3, "MAX"))
    y = x_v * 2 + 1
    got, ref = compile_run(tmp_path, b, [x_v, lengths])
    check_all(got, ref, [np.array([y[0], y[1:4].max(0)], np.float32)])


def import_error(tmp_path, b):
    model = str(tmp_path / "m")
    b.save(model)
    p = subprocess.run([tool("paddle-translate"), "--import-paddle", model], capture_output=True, text=True)
    assert 0 < p.returncode < 128, p.stderr
    return p.stderr


def test_array_mixing_lod_and_plain_refused(tmp_path):
    b = ProgramBuilder()
    x = b.feed("x", [-1, 3], lod_level=1)
    y = b.feed("y", [-1, 3])
    arr = b.write_to_array(y, fill(b, "i0", [1], "int64", 0))
    b.write_to_array(x, fill(b, "i1", [1], "int64", 1), arr)
    b.fetch(b.lod_array_length(arr))
    err = import_error(tmp_path, b)
    assert "write_to_array" in err and "LoD batch into an array that holds tensors without LoD" in err, err


def test_loop_dropping_lod_refused(tmp_path):
    # The body replaces a carried LoD batch by a tensor without LoD.
    b = ProgramBuilder()
    x = b.feed("x", [-1, 2], lod_level=1)
    plain = b.feed("plain", [-1, 2])
    acc = b.assign(x)
    i = fill(b, "i", [1], "int64", 0)
    n = fill(b, "n", [1], "int64", 2)
    cond = less_than(b, i, n)
    with b.while_loop(cond):
        b.assign(plain, acc)
        b.increment(i, out=i)
        less_than(b, i, n, out=cond)
    b.fetch(seq_pool(b, acc, 2, "SUM"))
    err = import_error(tmp_path, b)
    assert "while" in err and "drops the LoD of" in err and acc.name in err, err


def test_lod_batch_through_conditional_block(tmp_path):
    # A LoD batch updated when the block runs keeps its sequences either
    # way; one created inside the block has the sequences of what it is
    # computed from.
    from test_cond import run_all
    lengths = np.array([3, 1], np.int64)
    x_v = np.random.default_rng(8).standard_normal((4, 2)).astype(np.float32)
    b = ProgramBuilder()
    x = b.feed("x", [-1, 2], lod_level=1)
    a = b.feed("a", [1])
    acc = b.assign(x)
    pred = less_than(b, a, fill(b, "zero", [1], "float32", 0))
    with b.conditional_block([pred]):
        made = b.tmp("made", [-1, 2], outer=True)
        b.assign(b.scale(acc, 3.0), acc)
        b.assign(b.scale(x, 1.0, bias=2.0), made)
    b.fetch(seq_pool(b, acc, 2, "SUM"))
    b.fetch(seq_pool(b, made, 2, "MAX"))

    def oracle(x, n, a):
        y = x * np.float32(3) if a[0] < 0 else x
        m = x + np.float32(2)
        return [np.array([y[0:3].sum(0), y[3:4].sum(0)], np.float32),
                np.array([m[0:3].max(0), m[3:4].max(0)], np.float32)]

    run_all(tmp_path, b, [[x_v, lengths, np.array([-1.0], np.float32)]], oracle)
    # Not taken: acc keeps x (and its sequences).
    import paddle_mlir
    got = paddle_mlir.compile(str(tmp_path / "m"))(x_v, lengths, np.array([1.0], np.float32))
    np.testing.assert_allclose(got[0], np.array([x_v[0:3].sum(0), x_v[3]], np.float32), rtol=1e-6)


def test_lod_on_one_path_refused(tmp_path):
    b = ProgramBuilder()
    x = b.feed("x", [-1, 2], lod_level=1)
    plain = b.feed("plain", [-1, 2])
    a = b.feed("a", [1])
    y = b.assign(plain)
    pred = less_than(b, a, fill(b, "zero", [1], "float32", 0))
    with b.conditional_block([pred]):
        b.assign(x, y)
    b.fetch(y)
    err = import_error(tmp_path, b)
    assert "conditional_block" in err and "is a LoD batch on one path only" in err and y.name in err, err
