"""Fluid's LoD recurrent ops gru and lstm (dynamic_gru / dynamic_lstm): the
input already projected by an fc, every sequence of the LoD batch run on its
own (backwards with is_reverse), a hidden row per input row. Builder
programs, compiled and run by the reference evaluator, against NumPy step
loops written here (lstm without peepholes also against torch's LSTMCell),
as single ops and in the shapes real programs give them: a text classifier
(embedding, fc, gru, MAX pool), LAC's stacked bidirectional GRU and an
RNA-style bidirectional LSTM stack. A gru Bias of the wrong width is refused
at import."""
import subprocess

import numpy as np
import pytest
import torch

import paddle_mlir
from paddle_mlir import reference
from paddle_mlir.builder import ProgramBuilder
from test_reductions import tool
from test_rnn_seqconv import check_close
from test_sequence import pool_loops

ACTS = {"sigmoid": lambda v: 1 / (1 + np.exp(-v)), "tanh": np.tanh,
        "relu": lambda v: np.maximum(v, 0), "identity": lambda v: v}


def steps_of(lengths, reverse):
    """(sequence, its rows in running order) for each sequence."""
    end = 0
    for n, length in enumerate(lengths):
        start, end = end, end + int(length)
        yield n, (range(end - 1, start - 1, -1) if reverse else range(start, end))


# ------------------------------------------------------------------- gru

def gru_weight(w_u, w_r, w_c):
    """Fluid's gru Weight [H, 3H]: its memory holds [w_u | w_r] ([H, 2H],
    row-major), then w_c ([H, H])."""
    h = w_c.shape[0]
    return np.concatenate([np.hstack([w_u, w_r]).ravel(), w_c.ravel()]).reshape(h, 3 * h)


def gru_loops(x, lengths, w_u, w_r, w_c, h0=None, reverse=False, origin=False, act="tanh", gate="sigmoid"):
    """Hidden of Fluid's gru in float64; x is the projected input with the
    bias already added."""
    hid = w_c.shape[0]
    x, f, g = x.astype(np.float64), ACTS[act], ACTS[gate]
    out = np.zeros((len(x), hid))
    for n, rows in steps_of(lengths, reverse):
        h = np.zeros(hid) if h0 is None else h0[n].astype(np.float64)
        for t in rows:
            xu, xr, xc = x[t, :hid], x[t, hid:2 * hid], x[t, 2 * hid:]
            u = g(xu + h @ w_u)
            r = g(xr + h @ w_r)
            m = f(xc + (r * h) @ w_c)
            h = m + u * (h - m) if origin else h + u * (m - h)
            out[t] = h
    return out


def gru_op(b, x, w, h0=None, bias=None, **attrs):
    """A gru op with the intermediate outputs Paddle programs carry."""
    hid = w.shape[0]
    ins = {"Input": [x], "Weight": [w]}
    if h0 is not None:
        ins["H0"] = [h0]
    if bias is not None:
        ins["Bias"] = [bias]
    hidden = b.tmp("gru", [-1, hid])
    outs = {"BatchGate": [b.tmp("gru_batch_gate", [-1, 3 * hid])],
            "BatchResetHiddenPrev": [b.tmp("gru_reset_hidden_prev", [-1, hid])],
            "BatchHidden": [b.tmp("gru_batch_hidden", [-1, hid])], "Hidden": [hidden]}
    full = {"activation": "tanh", "gate_activation": "sigmoid", "is_reverse": False,
            "origin_mode": False, "is_test": True}
    full.update(attrs)
    b.op("gru", ins, outs, full)
    return hidden


def gru_params(rng, hid, scale=0.5):
    return [(rng.standard_normal((hid, hid)) * scale).astype(np.float32) for _ in range(3)]


@pytest.mark.parametrize("reverse,origin,with_h0,with_bias,hid", [
    (False, False, False, False, 4), (True, False, True, True, 5), (False, True, True, False, 6),
    (True, True, False, True, 7), (False, False, True, True, 8), (True, True, True, True, 4)])
def test_gru(tmp_path, reverse, origin, with_h0, with_bias, hid):
    rng = np.random.default_rng(10 + hid)
    lengths = np.array([3, 0, 5, 1], np.int64)      # an empty and a one-row sequence
    x = rng.standard_normal((int(lengths.sum()), 3 * hid)).astype(np.float32)
    w_u, w_r, w_c = gru_params(rng, hid)
    h0 = (rng.standard_normal((4, hid)) * 0.5).astype(np.float32) if with_h0 else None
    bias = (rng.standard_normal((1, 3 * hid)) * 0.3).astype(np.float32) if with_bias else None
    b = ProgramBuilder()
    xv = b.feed("x", [-1, 3 * hid], lod_level=1)
    h0v = b.feed("h0", [-1, hid]) if with_h0 else None
    out = gru_op(b, xv, b.param("gru_w", gru_weight(w_u, w_r, w_c)), h0v,
                 b.param("gru_b", bias) if with_bias else None, is_reverse=reverse, origin_mode=origin)
    b.fetch(out)
    want = gru_loops(x + (0 if bias is None else bias), lengths, w_u, w_r, w_c, h0, reverse, origin)
    check_close(tmp_path, b, [x, lengths] + ([h0] if with_h0 else []), [want.astype(np.float32)])


@pytest.mark.parametrize("act,gate", [("relu", "sigmoid"), ("identity", "tanh"), ("sigmoid", "relu")])
def test_gru_activations(tmp_path, act, gate):
    rng = np.random.default_rng(20)
    hid, lengths = 5, np.array([2, 6, 1], np.int64)
    x = (rng.standard_normal((int(lengths.sum()), 3 * hid)) * 0.5).astype(np.float32)
    w_u, w_r, w_c = gru_params(rng, hid, 0.3)
    b = ProgramBuilder()
    out = gru_op(b, b.feed("x", [-1, 3 * hid], lod_level=1), b.param("gru_w", gru_weight(w_u, w_r, w_c)),
                 activation=act, gate_activation=gate)
    b.fetch(out)
    want = gru_loops(x, lengths, w_u, w_r, w_c, act=act, gate=gate)
    check_close(tmp_path, b, [x, lengths], [want.astype(np.float32)])


def fc(b, rng, x, rows, cols, name, scale=0.3):
    """mul + elementwise_add (axis 1), as Fluid's fc layer emits them; the
    program's output and the (w, bias) it holds."""
    w = (rng.standard_normal((rows, cols)) * scale).astype(np.float32)
    bias = (rng.standard_normal(cols) * 0.1).astype(np.float32)
    out = b.tmp(name, [-1, cols])
    b.op("mul", {"X": [x], "Y": [b.param(name + ".w_0", w)]}, {"Out": [out]},
         {"x_num_col_dims": 1, "y_num_col_dims": 1})
    return b.elementwise("elementwise_add", out, b.param(name + ".b_0", bias), axis=1), (w, bias)


def test_text_gru_classifier(tmp_path):
    # textgru: word ids -> lookup_table -> fc to 3H -> gru (with its Bias)
    # -> MAX pool per sentence.
    rng = np.random.default_rng(21)
    vocab, dim, hid = 40, 6, 5
    table = rng.standard_normal((vocab, dim)).astype(np.float32)
    w_u, w_r, w_c = gru_params(rng, hid)
    gbias = (rng.standard_normal((1, 3 * hid)) * 0.2).astype(np.float32)
    b = ProgramBuilder()
    words = b.feed("words", [-1, 1], "int64", lod_level=1)
    emb = b.tmp("emb", [-1, dim])
    b.op("lookup_table", {"Ids": [words], "W": [b.param("emb_w", table)]}, {"Out": [emb]},
         {"padding_idx": -1, "is_sparse": False})
    proj, (fw, fb) = fc(b, rng, emb, dim, 3 * hid, "fc_0")
    hidden = gru_op(b, proj, b.param("gru_w", gru_weight(w_u, w_r, w_c)), bias=b.param("gru_b", gbias))
    pooled = b.tmp("pool", [-1, hid])
    b.op("sequence_pool", {"X": [hidden]}, {"Out": [pooled], "MaxIndex": [b.tmp("pool_index", [-1, hid], "int32")]},
         {"pooltype": "MAX", "is_test": True, "pad_value": 0.0})
    b.fetch(pooled)
    lengths = np.array([4, 1, 7, 2], np.int64)
    ids = rng.integers(0, vocab, (int(lengths.sum()), 1)).astype(np.int64)
    g = table[ids[:, 0]].astype(np.float64) @ fw + fb + gbias
    want = pool_loops(gru_loops(g, lengths, w_u, w_r, w_c), lengths, "MAX")[0]
    check_close(tmp_path, b, [ids, lengths], [want.astype(np.float32)])


def test_lac_bidirectional_gru(tmp_path):
    # LAC: two layers, each a forward and a reverse gru over their own fc
    # of the layer's input, concatenated.
    rng = np.random.default_rng(22)
    vocab, dim, hid = 30, 6, 4
    table = rng.standard_normal((vocab, dim)).astype(np.float32)
    b = ProgramBuilder()
    words = b.feed("words", [-1, 1], "int64", lod_level=1)
    emb = b.tmp("emb", [-1, dim])
    b.op("lookup_table", {"Ids": [words], "W": [b.param("emb_w", table)]}, {"Out": [emb]},
         {"padding_idx": -1})
    lengths = np.array([5, 1, 0, 3], np.int64)
    ids = rng.integers(0, vocab, (int(lengths.sum()), 1)).astype(np.int64)
    layer, want = emb, table[ids[:, 0]].astype(np.float64)
    for k in range(2):
        outs, wants = [], []
        for reverse in (False, True):
            name = "l%d_%s" % (k, "bw" if reverse else "fw")
            proj, (fw, fb) = fc(b, rng, layer, layer.shape[1] if k == 0 else 2 * hid, 3 * hid, name + "_fc")
            ws = gru_params(rng, hid)
            gbias = (rng.standard_normal((1, 3 * hid)) * 0.2).astype(np.float32)
            outs.append(gru_op(b, proj, b.param(name + "_gru_w", gru_weight(*ws)),
                               bias=b.param(name + "_gru_b", gbias), is_reverse=reverse))
            wants.append(gru_loops(want @ fw + fb + gbias, lengths, *ws, reverse=reverse))
        layer, want = b.concat(outs, 1), np.concatenate(wants, 1)
    b.fetch(layer)
    check_close(tmp_path, b, [ids, lengths], [want.astype(np.float32)])


# ------------------------------------------------------------------ lstm

def lstm_loops(x, lengths, w, bias, h0=None, c0=None, reverse=False, peep=True,
               gate="sigmoid", cell="tanh", cand="tanh"):
    """(Hidden, Cell) of Fluid's lstm in float64: gate blocks c, i, f, o of
    x, w and bias; with `peep` the last 3H of bias weight c into i, f and o."""
    hid = w.shape[0]
    x, w, bias = x.astype(np.float64), w.astype(np.float64), bias.astype(np.float64).ravel()
    blk = lambda v, k: v[..., k * hid:(k + 1) * hid]
    w_ic, w_fc, w_oc = (blk(bias, 4), blk(bias, 5), blk(bias, 6)) if peep else (0.0, 0.0, 0.0)
    sg, ca, cd = ACTS[gate], ACTS[cell], ACTS[cand]
    hs, cs = np.zeros((len(x), hid)), np.zeros((len(x), hid))
    for n, rows in steps_of(lengths, reverse):
        h = np.zeros(hid) if h0 is None else h0[n].astype(np.float64)
        c = np.zeros(hid) if c0 is None else c0[n].astype(np.float64)
        for t in rows:
            pre = [blk(x[t], k) + blk(bias, k) + h @ blk(w, k) for k in range(4)]
            i = sg(pre[1] + w_ic * c)
            f = sg(pre[2] + w_fc * c)
            c = f * c + i * cd(pre[0])
            o = sg(pre[3] + w_oc * c)
            h = o * ca(c)
            hs[t], cs[t] = h, c
    return hs, cs


def lstm_torch(x, lengths, w, bias, h0=None, c0=None, reverse=False):
    """(Hidden, Cell) of Fluid's lstm without peepholes from torch's
    LSTMCell (gates i, f, g, o) with input size 4H: its weight_ih picks
    the projected gates out of Fluid's c, i, f, o columns."""
    hid = w.shape[0]
    perm = np.concatenate([np.arange(k * hid, (k + 1) * hid) for k in (1, 2, 0, 3)])
    cell = torch.nn.LSTMCell(4 * hid, hid).double()
    t = lambda a: torch.from_numpy(np.ascontiguousarray(a, np.float64))
    with torch.no_grad():
        cell.weight_ih.copy_(t(np.eye(4 * hid)[perm]))
        cell.weight_hh.copy_(t(w[:, perm].T))
        cell.bias_ih.copy_(t(bias.ravel()[perm]))
        cell.bias_hh.zero_()
        hs, cs = np.zeros((len(x), hid)), np.zeros((len(x), hid))
        for n, rows in steps_of(lengths, reverse):
            h = t(np.zeros((1, hid)) if h0 is None else h0[n:n + 1])
            c = t(np.zeros((1, hid)) if c0 is None else c0[n:n + 1])
            for r in rows:
                h, c = cell(t(x[r:r + 1]), (h, c))
                hs[r], cs[r] = h[0].numpy(), c[0].numpy()
    return hs, cs


def lstm_op(b, x, w, bias, h0=None, c0=None, **attrs):
    """An lstm op with the intermediate outputs Paddle programs carry;
    (Hidden, Cell)."""
    hid = w.shape[0]
    ins = {"Input": [x], "Weight": [w], "Bias": [bias]}
    if h0 is not None:
        ins["H0"] = [h0]
    if c0 is not None:
        ins["C0"] = [c0]
    hidden, cell = b.tmp("lstm", [-1, hid]), b.tmp("lstm_cell", [-1, hid])
    outs = {"Hidden": [hidden], "Cell": [cell], "BatchGate": [b.tmp("lstm_batch_gate", [-1, 4 * hid])],
            "BatchCellPreAct": [b.tmp("lstm_batch_cell_pre_act", [-1, hid])]}
    full = {"use_peepholes": True, "is_reverse": False, "gate_activation": "sigmoid",
            "cell_activation": "tanh", "candidate_activation": "tanh", "is_test": True}
    full.update(attrs)
    b.op("lstm", ins, outs, full)
    return hidden, cell


def lstm_params(rng, hid, peep):
    w = (rng.standard_normal((hid, 4 * hid)) * 0.4).astype(np.float32)
    bias = (rng.standard_normal((1, (7 if peep else 4) * hid)) * 0.3).astype(np.float32)
    return w, bias


@pytest.mark.parametrize("peep,reverse,states,hid", [
    (True, False, False, 4), (True, True, True, 6), (False, False, True, 5), (False, True, False, 8)])
def test_lstm(tmp_path, peep, reverse, states, hid):
    rng = np.random.default_rng(30 + hid)
    lengths = np.array([3, 0, 5, 1], np.int64)
    x = rng.standard_normal((int(lengths.sum()), 4 * hid)).astype(np.float32)
    w, bias = lstm_params(rng, hid, peep)
    h0, c0 = [(rng.standard_normal((4, hid)) * 0.5).astype(np.float32) if states else None for _ in range(2)]
    b = ProgramBuilder()
    xv = b.feed("x", [-1, 4 * hid], lod_level=1)
    sv = [b.feed("h0", [-1, hid]), b.feed("c0", [-1, hid])] if states else [None, None]
    for v in lstm_op(b, xv, b.param("lstm_w", w), b.param("lstm_b", bias), *sv,
                     use_peepholes=peep, is_reverse=reverse):
        b.fetch(v)
    want = lstm_loops(x, lengths, w, bias, h0, c0, reverse, peep)
    if not peep:
        for mine, theirs in zip(want, lstm_torch(x, lengths, w, bias, h0, c0, reverse)):
            np.testing.assert_allclose(mine, theirs, rtol=1e-10, atol=1e-12)
    check_close(tmp_path, b, [x, lengths] + ([h0, c0] if states else []),
                [v.astype(np.float32) for v in want])


def test_lstm_activations(tmp_path):
    rng = np.random.default_rng(40)
    hid, lengths = 4, np.array([4, 2], np.int64)
    x = (rng.standard_normal((int(lengths.sum()), 4 * hid)) * 0.5).astype(np.float32)
    w, bias = lstm_params(rng, hid, True)
    acts = {"gate_activation": "tanh", "cell_activation": "relu", "candidate_activation": "identity"}
    b = ProgramBuilder()
    for v in lstm_op(b, b.feed("x", [-1, 4 * hid], lod_level=1), b.param("lstm_w", w),
                     b.param("lstm_b", bias), **acts):
        b.fetch(v)
    want = lstm_loops(x, lengths, w, bias, gate="tanh", cell="relu", cand="identity")
    check_close(tmp_path, b, [x, lengths], [v.astype(np.float32) for v in want])


def test_rna_bidirectional_lstm(tmp_path):
    # Two LoD id feeds (1-D) -> lookup_table_v2 each -> concat -> fc, relu
    # -> per direction an fc to 4H and an lstm (peepholes) -> concat.
    rng = np.random.default_rng(41)
    dim, mid, hid = 4, 10, 5
    tables = [rng.standard_normal((v, dim)).astype(np.float32) for v in (5, 3)]
    b = ProgramBuilder()
    feeds = [b.feed(n, [-1], "int64", lod_level=1) for n in ("seq", "dot")]
    embs = [b.lookup_table_v2(b.param(n + "_emb", tb), f) for n, tb, f in zip(("seq", "dot"), tables, feeds)]
    mid_v, (w1, b1) = fc(b, rng, b.concat(embs, 1), 2 * dim, mid, "fc_0")
    mid_v = b.relu(mid_v)
    lengths = np.array([6, 1, 0, 4], np.int64)
    ids = [rng.integers(0, tb.shape[0], int(lengths.sum())).astype(np.int64) for tb in tables]
    feat = np.maximum(np.concatenate([tb[i] for tb, i in zip(tables, ids)], 1).astype(np.float64) @ w1 + b1, 0)
    outs, wants = [], []
    for reverse in (False, True):
        name = "bw" if reverse else "fw"
        proj, (fw, fb) = fc(b, rng, mid_v, mid, 4 * hid, name + "_fc")
        w, bias = lstm_params(rng, hid, True)
        outs.append(lstm_op(b, proj, b.param(name + "_lstm_w", w), b.param(name + "_lstm_b", bias),
                            is_reverse=reverse)[0])
        wants.append(lstm_loops(feat @ fw + fb, lengths, w, bias, reverse=reverse)[0])
    b.fetch(b.concat(outs, 1))
    check_close(tmp_path, b, [ids[0], lengths, ids[1], lengths],
                [np.concatenate(wants, 1).astype(np.float32)])


# ------------------------------------------------- the evaluator on its own

def test_reference_refuses_bad_shapes():
    rng = np.random.default_rng(50)
    hid, lengths = 3, np.array([2, 2], np.int64)
    x = rng.standard_normal((4, 3 * hid)).astype(np.float32)
    w = rng.standard_normal((hid, 3 * hid)).astype(np.float32)
    with pytest.raises(ValueError, match="needs a LoD input"):
        reference.OPS["gru"]({"Input": [x], "Weight": [w]}, {})
    with pytest.raises(ValueError, match="Bias has 6 values, expected 3 \\* H = 9"):
        reference.OPS["gru"]({"Input": [x], "Weight": [w], "Bias": [np.zeros((1, 6), np.float32)],
                              "@lengths": [lengths]}, {})
    with pytest.raises(ValueError, match="do not cover"):
        reference.OPS["gru"]({"Input": [x], "Weight": [w], "@lengths": [np.array([2, 3])]}, {})
    with pytest.raises(ValueError, match="H0 has shape"):
        reference.OPS["gru"]({"Input": [x], "Weight": [w], "H0": [np.zeros((3, hid), np.float32)],
                              "@lengths": [lengths]}, {})
    x4, w4 = np.zeros((4, 4 * hid), np.float32), np.zeros((hid, 4 * hid), np.float32)
    with pytest.raises(ValueError, match="expected 7 \\* H = 21"):
        reference.OPS["lstm"]({"Input": [x4], "Weight": [w4], "Bias": [np.zeros((1, 4 * hid), np.float32)],
                               "@lengths": [lengths]}, {})
    with pytest.raises(ValueError, match="Weight .* and Input .* do not match"):
        reference.OPS["lstm"]({"Input": [x], "Weight": [w4], "Bias": [np.zeros((1, 4 * hid), np.float32)],
                               "@lengths": [lengths]}, {"use_peepholes": False})


def test_gru_bias_width_is_refused(tmp_path):
    # The same program with a [1, 3H] Bias imports; with [1, 2H] it is refused.
    hid = 4
    for width, ok in ((3 * hid, True), (2 * hid, False)):
        b = ProgramBuilder()
        xv = b.feed("x", [-1, 3 * hid], lod_level=1)
        out = gru_op(b, xv, b.param("gru_w", np.zeros((hid, 3 * hid), np.float32)),
                     bias=b.param("gru_b", np.zeros((1, width), np.float32)))
        b.fetch(out)
        model = str(tmp_path / ("m%d" % width))
        b.save(model)
        p = subprocess.run([tool("paddle-translate"), "--import-paddle", model], capture_output=True, text=True)
        if ok:
            assert p.returncode == 0, p.stderr
        else:
            assert 0 < p.returncode < 128
            assert "Bias" in p.stderr, p.stderr


def test_bad_run_time_lengths_are_reported(tmp_path):
    # LoD lengths from the user must cover Input's rows; H0 needs a row per
    # sequence.
    rng = np.random.default_rng(3)
    b = ProgramBuilder()
    out = gru_op(b, b.feed("x", [-1, 12], lod_level=1),
                 b.param("gru_w", gru_weight(*gru_params(rng, 4))), b.feed("h0", [-1, 4]))
    b.fetch(out)
    b.save(str(tmp_path / "m"))
    run = paddle_mlir.compile(str(tmp_path / "m"))
    x, h0 = np.zeros((4, 12), np.float32), np.zeros((2, 4), np.float32)
    with pytest.raises(Exception, match="gru: the sequence lengths sum to 5 but Input has 4 rows"):
        run(x, np.array([2, 3], np.int64), h0)
    with pytest.raises(Exception, match=r"gru: H0 and C0 must be \[3, 4\]"):
        run(x, np.array([1, 1, 2], np.int64), h0)
