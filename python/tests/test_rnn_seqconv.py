"""Paddle 2.x's rnn op (nn.LSTM / nn.GRU / nn.SimpleRNN as exported: GRU,
LSTM, RNN_TANH, RNN_RELU; stacked, bidirectional, with SequenceLength) and
Fluid's sequence_conv on LoD sequences (text-CNN: + bias, tanh,
sequence_pool). Builder programs, compiled and run by the reference
evaluator, against PyTorch's nn.LSTM / nn.GRU / nn.RNN holding the same
weights (packed sequences for SequenceLength; a zero-length sequence, which
torch refuses, against its initial state), NumPy loops written here for
sequence_conv, and the exporter's round trip. The reference evaluator's rnn
is also checked against torch directly."""
import subprocess

import numpy as np
import pytest
import torch
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence

from paddle_mlir import reference
import paddle_mlir
from paddle_mlir.builder import ProgramBuilder
from test_random_unique_fpn import compile_run
from test_reductions import tool
from test_sequence import pool_loops

GATES = {"LSTM": 4, "GRU": 3, "RNN_TANH": 1, "RNN_RELU": 1}


def check_close(tmp_path, b, inputs, wants, rtol=1e-4, atol=1e-5):
    """Compiled and reference outputs of `b` against `wants` (one per fetch)."""
    got, refs = compile_run(tmp_path, b, inputs)
    assert len(got) == len(refs) == len(wants)
    for i, (g, r, w) in enumerate(zip(got, refs, wants)):
        for y in (g, r):
            assert y.shape == w.shape and y.dtype == w.dtype, (i, y.shape, y.dtype, w.shape)
            np.testing.assert_allclose(y, w, rtol=rtol, atol=atol, err_msg="output %d" % i)


# ------------------------------------------------------------------- rnn

def rnn_weights(rng, mode, layers, dirs, in_size, hidden):
    """Paddle's WeightList: (w_ih, w_hh) of each layer and direction
    (layer-major), then their (b_ih, b_hh) in the same order."""
    g, k = GATES[mode], 1 / np.sqrt(hidden)
    ws, bs = [], []
    for l in range(layers):
        for _ in range(dirs):
            cols = in_size if l == 0 else dirs * hidden
            ws += [rng.uniform(-k, k, (g * hidden, cols)), rng.uniform(-k, k, (g * hidden, hidden))]
            bs += [rng.uniform(-k, k, g * hidden), rng.uniform(-k, k, g * hidden)]
    return [w.astype(np.float32) for w in ws + bs]


def torch_rnn(mode, x, states, weights, layers, dirs, lengths=None):
    """[Out, h_n(, c_n)] of torch's LSTM / GRU / RNN holding `weights`, in
    float64; `lengths` packs the batch (padded output rows are zero)."""
    hidden = states[0].shape[2]
    if mode in ("LSTM", "GRU"):
        net = getattr(torch.nn, mode)(x.shape[2], hidden, layers, bidirectional=dirs == 2)
    else:
        net = torch.nn.RNN(x.shape[2], hidden, layers, nonlinearity=mode[4:].lower(),
                           bidirectional=dirs == 2)
    net = net.double()
    cells = layers * dirs
    t = lambda a: torch.from_numpy(np.asarray(a, np.float64))
    with torch.no_grad():
        for k in range(cells):
            suffix = "_l%d%s" % (k // dirs, "_reverse" if k % dirs else "")
            getattr(net, "weight_ih" + suffix).copy_(t(weights[2 * k]))
            getattr(net, "weight_hh" + suffix).copy_(t(weights[2 * k + 1]))
            getattr(net, "bias_ih" + suffix).copy_(t(weights[2 * cells + 2 * k]))
            getattr(net, "bias_hh" + suffix).copy_(t(weights[2 * cells + 2 * k + 1]))
        hx = tuple(t(s) for s in states) if mode == "LSTM" else t(states[0])
        if lengths is None:
            out, hn = net(t(x), hx)
        else:
            packed = pack_padded_sequence(t(x), torch.from_numpy(np.asarray(lengths, np.int64)),
                                          enforce_sorted=False)
            out, hn = net(packed, hx)
            out, _ = pad_packed_sequence(out, total_length=x.shape[0])
    hn = list(hn) if mode == "LSTM" else [hn]
    return [v.numpy().astype(np.float32) for v in [out] + hn]


def rnn_program(mode, weights, layers, dirs, hidden, x_shape, init=None, lengths_dtype=None):
    """x -> rnn -> fetch Out and each State. `init`: the PreState arrays as
    parameters; None: zeros from fill_constant_batch_size_like, as Paddle's
    nn.RNN layers build them."""
    b = ProgramBuilder()
    x = b.feed("x", x_shape)
    cells, n_states = layers * dirs, 2 if mode == "LSTM" else 1
    steps, batch = x_shape[:2]
    if init is None:
        pre = []
        for _ in range(n_states):
            v = b.tmp("fill_constant_batch_size_like", [cells, batch, hidden])
            b.op("fill_constant_batch_size_like", {"Input": [x]}, {"Out": [v]},
                 {"shape": [cells, -1, hidden], "value": 0.0, "dtype": 5, "input_dim_idx": 1,
                  "output_dim_idx": 1, "str_value": "0.0"})
            pre.append(v)
    else:
        pre = [b.param("init_" + n, s) for n, s in zip("hc", init)]
    ins = {"Input": [x], "PreState": pre,
           "WeightList": [b.param("rnn_w_%02d" % i, w) for i, w in enumerate(weights)]}
    if lengths_dtype:
        ins["SequenceLength"] = [b.feed("lengths", [batch], lengths_dtype)]
    out = b.tmp("rnn", [steps, batch, dirs * hidden])
    states = [b.tmp("rnn_state", [cells, batch, hidden]) for _ in range(n_states)]
    # Paddle writes these two (cuDNN's dropout state and workspace) as well.
    ds, rs = b.tmp("rnn_dropout_state", [], "uint8"), b.tmp("rnn_reserve", [], "uint8")
    b.op("rnn", ins, {"Out": [out], "State": states, "DropoutState": [ds], "Reserve": [rs]},
         {"mode": mode, "num_layers": layers, "is_bidirec": dirs == 2, "hidden_size": hidden,
          "input_size": x_shape[2], "dropout_prob": 0.0, "is_test": True, "seed": 0})
    for v in [out] + states:
        b.fetch(v)
    return b


def test_gru_time_series(tmp_path):
    # One GRU layer over 50 steps of a scalar series, zero initial state.
    rng = np.random.default_rng(0)
    steps, batch, hidden = 50, 4, 10
    x = rng.standard_normal((steps, batch, 1)).astype(np.float32)
    weights = rnn_weights(rng, "GRU", 1, 1, 1, hidden)
    b = rnn_program("GRU", weights, 1, 1, hidden, [-1, -1, 1])
    want = torch_rnn("GRU", x, [np.zeros((1, batch, hidden))], weights, 1, 1)
    check_close(tmp_path, b, [x], want)


def test_lstm_two_layers_bidirectional(tmp_path):
    # CRNN's recognition head: two bidirectional LSTM layers, no lengths.
    rng = np.random.default_rng(1)
    steps, batch, in_size, hidden = 7, 3, 16, 8
    x = rng.standard_normal((steps, batch, in_size)).astype(np.float32)
    weights = rnn_weights(rng, "LSTM", 2, 2, in_size, hidden)
    init = [(rng.standard_normal((4, batch, hidden)) * 0.5).astype(np.float32) for _ in range(2)]
    b = rnn_program("LSTM", weights, 2, 2, hidden, [steps, -1, in_size], init=init)
    check_close(tmp_path, b, [x], torch_rnn("LSTM", x, init, weights, 2, 2))


def test_gru_two_layers_bidirectional_lengths(tmp_path):
    rng = np.random.default_rng(2)
    steps, batch, in_size, hidden = 6, 4, 5, 7
    x = rng.standard_normal((steps, batch, in_size)).astype(np.float32)
    lengths = np.array([4, 1, 6, 3], np.int64)
    weights = rnn_weights(rng, "GRU", 2, 2, in_size, hidden)
    init = [(rng.standard_normal((4, batch, hidden)) * 0.5).astype(np.float32)]
    b = rnn_program("GRU", weights, 2, 2, hidden, [steps, -1, in_size], init=init, lengths_dtype="int64")
    want = torch_rnn("GRU", x, init, weights, 2, 2, lengths)
    assert not want[0][4:, 0].any() and not want[0][1:, 1].any()     # padded rows are zeros
    check_close(tmp_path, b, [x, lengths], want)


@pytest.mark.parametrize("mode", ["RNN_TANH", "RNN_RELU"])
def test_simple_rnn(tmp_path, mode):
    rng = np.random.default_rng(3)
    steps, batch, in_size, hidden = 9, 2, 3, 6
    x = rng.standard_normal((steps, batch, in_size)).astype(np.float32)
    weights = rnn_weights(rng, mode, 1, 1, in_size, hidden)
    init = [(rng.standard_normal((1, batch, hidden)) * 0.5).astype(np.float32)]
    b = rnn_program(mode, weights, 1, 1, hidden, [-1, -1, in_size], init=init)
    check_close(tmp_path, b, [x], torch_rnn(mode, x, init, weights, 1, 1))


def test_lstm_zero_length_sequence(tmp_path):
    # torch packs no empty sequence: the others against torch on their own,
    # the empty one keeps its initial state and has zero output rows.
    rng = np.random.default_rng(4)
    steps, batch, in_size, hidden = 5, 4, 3, 4
    x = rng.standard_normal((steps, batch, in_size)).astype(np.float32)
    lengths = np.array([3, 0, 5, 1], np.int32)
    weights = rnn_weights(rng, "LSTM", 1, 2, in_size, hidden)
    init = [(rng.standard_normal((2, batch, hidden)) * 0.5).astype(np.float32) for _ in range(2)]
    keep = lengths > 0
    part = torch_rnn("LSTM", x[:, keep], [s[:, keep] for s in init], weights, 1, 2, lengths[keep])
    want = [np.zeros((steps, batch, 2 * hidden), np.float32)] + [s.copy() for s in init]
    for w, p in zip(want, part):
        w[:, keep] = p
    b = rnn_program("LSTM", weights, 1, 2, hidden, [steps, -1, in_size], init=init, lengths_dtype="int32")
    check_close(tmp_path, b, [x, lengths], want)


@pytest.mark.parametrize("mode", sorted(GATES))
def test_reference_rnn_matches_torch(mode):
    # The evaluator's rnn on its own: 2 bidirectional layers with lengths.
    rng = np.random.default_rng(5)
    steps, batch, in_size, hidden = 6, 3, 4, 5
    x = rng.standard_normal((steps, batch, in_size)).astype(np.float32)
    weights = rnn_weights(rng, mode, 2, 2, in_size, hidden)
    init = [(rng.standard_normal((4, batch, hidden)) * 0.5).astype(np.float32)
            for _ in range(2 if mode == "LSTM" else 1)]
    attrs = {"mode": mode, "num_layers": 2, "is_bidirec": True, "hidden_size": hidden,
             "input_size": in_size, "dropout_prob": 0.0, "is_test": True}
    for lengths in (None, np.array([6, 2, 5], np.int64)):
        ins = {"Input": [x], "PreState": init, "WeightList": weights}
        if lengths is not None:
            ins["SequenceLength"] = [lengths]
        got = reference.OPS["rnn"](ins, attrs)
        for g, w in zip([got["Out"]] + got["State"], torch_rnn(mode, x, init, weights, 2, 2, lengths)):
            assert g.dtype == np.float32
            np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-6)
    with pytest.raises(ValueError, match="needs 16 weights, got 15"):
        reference.OPS["rnn"]({"Input": [x], "PreState": init, "WeightList": weights[:-1]}, attrs)


# --------------------------------------------------------- sequence_conv

def seq_conv_loops(x, lengths, w, start, size):
    """Out row t of each sequence: its rows t + start + k (k < size, zeros
    outside the sequence) concatenated, times w; in float64."""
    out, zero, s = np.zeros((len(x), w.shape[1])), np.zeros(x.shape[1]), 0
    for n in lengths:
        for t in range(n):
            ctx = np.concatenate([x[s + t + start + k] if 0 <= t + start + k < n else zero
                                  for k in range(size)])
            out[s + t] = ctx @ w.astype(np.float64)
        s += n
    return out


def seq_conv_op(b, x, w, start, size, trainable=False):
    out = b.tmp("sequence_conv", [-1, w.shape[1]])
    b.op("sequence_conv", {"X": [x], "Filter": [w]}, {"Out": [out]},
         {"contextStart": start, "contextLength": size, "contextStride": 1,
          "paddingTrainable": trainable})
    return out


@pytest.mark.parametrize("start,size", [(-1, 3), (-2, 4), (0, 1), (1, 3), (-2, 1), (0, 4)])
def test_sequence_conv(tmp_path, start, size):
    rng = np.random.default_rng(6)
    dim, maps = 5, 6
    lengths = np.array([4, 0, 1, 6, 2], np.int64)      # an empty and a one-row sequence
    x = rng.standard_normal((int(lengths.sum()), dim)).astype(np.float32)
    w = rng.standard_normal((size * dim, maps)).astype(np.float32)
    bias = rng.standard_normal(maps).astype(np.float32)
    b = ProgramBuilder()
    xv = b.feed("x", [-1, dim], lod_level=1)
    conv = seq_conv_op(b, xv, b.param("conv_w", w), start, size)
    # Fluid's sequence_conv layer: bias on axis 1, tanh, then the pool.
    act = b.act("tanh", b.elementwise("elementwise_add", conv, b.param("conv_b", bias), axis=1))
    pooled = b.tmp("pool", [-1, maps])
    b.op("sequence_pool", {"X": [act]}, {"Out": [pooled]}, {"pooltype": "SQRT", "is_test": True})
    b.fetch(conv)
    b.fetch(pooled)
    want = seq_conv_loops(x, lengths, w, start, size)
    check_close(tmp_path, b, [x, lengths],
                [want.astype(np.float32), pool_loops(np.tanh(want + bias), lengths, "SQRT")[0]])


def test_text_cnn(tmp_path):
    # Word ids -> embedding -> windows of 3 and 4 -> tanh -> SQRT pool ->
    # concat -> fc, as Fluid's text classifiers are built.
    rng = np.random.default_rng(7)
    dim, maps = 8, 4
    table = rng.standard_normal((30, dim)).astype(np.float32)
    b = ProgramBuilder()
    words = b.feed("words", [-1, 1], "int64", lod_level=1)
    emb = b.tmp("emb", [-1, dim])
    b.op("lookup_table", {"Ids": [words], "W": [b.param("emb_w", table)]}, {"Out": [emb]},
         {"padding_idx": -1})
    branches, pools = [], []
    for i, size in enumerate((3, 4)):
        w = rng.standard_normal((size * dim, maps)).astype(np.float32) * 0.3
        bias = rng.standard_normal(maps).astype(np.float32) * 0.1
        branches.append((w, bias, size))
        conv = seq_conv_op(b, emb, b.param("conv%d_w" % i, w), -(size // 2), size)
        act = b.act("tanh", b.elementwise("elementwise_add", conv, b.param("conv%d_b" % i, bias), axis=1))
        pooled = b.tmp("pool", [-1, maps])
        b.op("sequence_pool", {"X": [act]}, {"Out": [pooled]}, {"pooltype": "SQRT", "is_test": True})
        pools.append(pooled)
    fc = rng.standard_normal((2 * maps, 2)).astype(np.float32)
    logits = b.tmp("logits", [-1, 2])
    b.op("mul", {"X": [b.concat(pools, 1)], "Y": [b.param("fc_w", fc)]}, {"Out": [logits]},
         {"x_num_col_dims": 1, "y_num_col_dims": 1})
    b.fetch(logits)
    lengths = np.array([5, 1, 0, 9], np.int64)
    ids = rng.integers(0, 30, (int(lengths.sum()), 1)).astype(np.int64)
    e = table[ids[:, 0]]
    feats = [pool_loops(np.tanh(seq_conv_loops(e, lengths, w, -(size // 2), size) + bias), lengths, "SQRT")[0]
             for w, bias, size in branches]
    want = (np.concatenate(feats, 1).astype(np.float64) @ fc).astype(np.float32)
    check_close(tmp_path, b, [ids, lengths], [want])


def test_sequence_conv_trainable_padding_is_refused(tmp_path):
    b = ProgramBuilder()
    xv = b.feed("x", [-1, 3], lod_level=1)
    w = b.param("conv_w", np.ones((9, 2), np.float32))
    out = b.tmp("sequence_conv", [-1, 2])
    pad = b.param("pad", np.ones((2, 3), np.float32))      # the trainable rows above and below
    b.op("sequence_conv", {"X": [xv], "Filter": [w], "PaddingData": [pad]}, {"Out": [out]},
         {"contextStart": -1, "contextLength": 3, "contextStride": 1, "paddingTrainable": True})
    b.fetch(out)
    model = str(tmp_path / "m")
    b.save(model)
    p = subprocess.run([tool("paddle-translate"), "--import-paddle", model], capture_output=True, text=True)
    assert 0 < p.returncode < 128
    assert "paddingTrainable" in p.stderr, p.stderr


def test_bad_run_time_lengths_are_reported(tmp_path):
    # The lengths come from the user at run time: rnn's SequenceLength must
    # lie in [0, T], sequence_conv's LoD lengths must cover X's rows.
    rng = np.random.default_rng(9)
    weights = rnn_weights(rng, "GRU", 1, 1, 3, 4)
    b = rnn_program("GRU", weights, 1, 1, 4, [5, -1, 3], lengths_dtype="int64")
    b.save(str(tmp_path / "rnn"))
    run = paddle_mlir.compile(str(tmp_path / "rnn"))
    x = np.zeros((5, 2, 3), np.float32)
    with pytest.raises(Exception, match=r"rnn: SequenceLength\[1\] is 6, outside \[0, 5\]"):
        run(x, np.array([2, 6], np.int64))
    b = ProgramBuilder()
    conv = seq_conv_op(b, b.feed("x", [-1, 2], lod_level=1), b.param("w", np.ones((6, 3), np.float32)), -1, 3)
    b.fetch(conv)
    b.save(str(tmp_path / "conv"))
    run = paddle_mlir.compile(str(tmp_path / "conv"))
    with pytest.raises(Exception, match="sequence_conv: the sequence lengths sum to 5 but X has 4 rows"):
        run(np.zeros((4, 2), np.float32), np.array([2, 3], np.int64))


# ------------------------------------------------------------- cudnn_lstm

def cudnn_lstm_program(weights, layers, dirs, hidden, x_shape, lengths=False, packed=True):
    """x -> Fluid's cudnn_lstm (fluid.layers.lstm) -> Out, LastH, LastC. The
    weights are packed into one W in Paddle's order (all W_ih, W_hh per
    layer and direction, then all b_ih, b_hh), or given as a WeightList."""
    b = ProgramBuilder()
    x = b.feed("x", x_shape)
    cells, batch = layers * dirs, x_shape[1]
    init = [b.param("init_" + n, np.full((cells, 2, hidden), 0.1 * (k + 1), np.float32))
            for k, n in enumerate("hc")]
    ins = {"Input": [x], "InitH": [init[0]], "InitC": [init[1]]}
    if packed:
        ins["W"] = [b.param("lstm_w", np.concatenate([w.reshape(-1) for w in weights]))]
    else:
        ins["WeightList"] = [b.param("lstm_w_%02d" % i, w) for i, w in enumerate(weights)]
    if lengths:
        ins["SequenceLength"] = [b.feed("lengths", [batch], "int32")]
    out = b.tmp("lstm", [x_shape[0], batch, dirs * hidden])
    last = [b.tmp("lstm_last", [cells, batch, hidden]) for _ in range(2)]
    reserve, state = b.tmp("lstm_reserve", [-1], "uint8"), b.tmp("lstm_state_out", [-1], "uint8")
    b.op("cudnn_lstm", ins, {"Out": [out], "LastH": [last[0]], "LastC": [last[1]], "Reserve": [reserve],
                             "StateOut": [state]},
         {"hidden_size": hidden, "num_layers": layers, "is_bidirec": dirs == 2, "input_size": x_shape[2],
          "dropout_prob": 0.0, "is_test": True, "seed": 0, "max_len": x_shape[0]})
    for v in [out] + last:
        b.fetch(v)
    return b, [np.full((cells, 2, hidden), 0.1 * (k + 1), np.float32) for k in range(2)]


@pytest.mark.parametrize("layers,dirs,lengths,packed", [(1, 1, False, True), (2, 2, False, True),
                                                        (2, 2, True, True), (1, 2, True, False)])
def test_cudnn_lstm_matches_torch(tmp_path, layers, dirs, lengths, packed):
    rng = np.random.default_rng(10 * layers + dirs)
    steps, in_size, hidden = 6, 5, 4
    x = rng.standard_normal((steps, 2, in_size)).astype(np.float32)
    weights = rnn_weights(rng, "LSTM", layers, dirs, in_size, hidden)
    b, init = cudnn_lstm_program(weights, layers, dirs, hidden, [-1, 2, in_size], lengths, packed)
    lens = np.array([6, 3], np.int32)
    inputs = [x, lens] if lengths else [x]
    want = torch_rnn("LSTM", x, init, weights, layers, dirs, lens if lengths else None)
    # compile_run also checks that the export (as the rnn op it imported
    # as, W sliced) re-imports to the same IR.
    check_close(tmp_path, b, inputs, want)


def test_cudnn_lstm_wrong_weight_size_is_named(tmp_path):
    rng = np.random.default_rng(3)
    weights = rnn_weights(rng, "LSTM", 1, 1, 5, 4)[:-1]  # one bias short
    b, _ = cudnn_lstm_program(weights, 1, 1, 4, [-1, 2, 5])
    b.save(str(tmp_path / "m"))
    p = subprocess.run([tool("paddle-translate"), "--import-paddle", str(tmp_path / "m")], capture_output=True,
                       text=True)
    assert p.returncode == 1
    assert "op 'cudnn_lstm' #" in p.stderr and "W has 160 values" in p.stderr and "need 176" in p.stderr, p.stderr
