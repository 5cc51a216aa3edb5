"""Fluid's lstmp (issue 34, recurrent ops): an LSTM over each sequence of a
LoD batch whose hidden state h [D] is projected, r = proj_act(h @ ProjWeight
[D, P]) (clipped by proj_clip), and the gates read r @ Weight [P, 4D]; the
cell is clipped by cell_clip. Compiled and reference outputs against a NumPy
step loop written here, which is itself checked against torch's LSTM with
proj_size (no peepholes, identity projection, no clipping)."""
import subprocess

import numpy as np
import pytest
import torch

from paddle_mlir.builder import ProgramBuilder
from test_fluid_rnn import ACTS, steps_of
from test_reductions import tool
from test_rnn_seqconv import check_close


def lstmp_loops(x, lengths, w, pw, bias, h0=None, c0=None, reverse=False, peep=True,
                cell_clip=0.0, proj_clip=0.0, proj="tanh"):
    """(Projection, Cell) in float64: gate blocks c, i, f, o of x + bias +
    r @ w; peephole weights (input, forget, output) after the 4D biases."""
    d, p = pw.shape
    x, w, pw, bias = (v.astype(np.float64) for v in (x, w, pw, bias.reshape(-1)))
    wic, wfc, woc = (bias[4 * d:5 * d], bias[5 * d:6 * d], bias[6 * d:]) if peep else (0, 0, 0)
    sig, act = ACTS["sigmoid"], ACTS[proj]
    rs, cs = np.zeros((x.shape[0], p)), np.zeros((x.shape[0], d))
    for n, rows in steps_of(lengths, reverse):
        r = act(h0[n] @ pw) if h0 is not None else np.zeros(p)
        c = c0[n].astype(np.float64) if c0 is not None else np.zeros(d)
        for t in rows:
            z = x[t] + bias[:4 * d] + r @ w
            cand, gi, gf, go = z[:d], z[d:2 * d], z[2 * d:3 * d], z[3 * d:]
            c = sig(gf + wfc * c) * c + sig(gi + wic * c) * np.tanh(cand)
            if cell_clip > 0:
                c = np.clip(c, -cell_clip, cell_clip)
            h = sig(go + woc * c) * np.tanh(c)
            r = act(h @ pw)
            if proj_clip > 0:
                r = np.clip(r, -proj_clip, proj_clip)
            rs[t], cs[t] = r, c
    return rs, cs


def lstmp_op(b, x, w, pw, bias, h0=None, c0=None, **attrs):
    d, p = pw.shape[0], pw.shape[1]
    proj, cell = b.tmp("lstmp", [-1, p]), b.tmp("lstmp_cell", [-1, d])
    outs = {"Projection": [proj], "Cell": [cell], "BatchGate": [b.tmp("bg", [-1, 4 * d])],
            "BatchCellPreAct": [b.tmp("bc", [-1, d])], "BatchHidden": [b.tmp("bh", [-1, d])]}
    ins = {"Input": [x], "Weight": [w], "ProjWeight": [pw], "Bias": [bias]}
    ins.update({k: [v] for k, v in (("H0", h0), ("C0", c0)) if v is not None})
    full = {"use_peepholes": True, "is_reverse": False, "gate_activation": "sigmoid",
            "cell_activation": "tanh", "candidate_activation": "tanh", "proj_activation": "tanh"}
    full.update(attrs)
    b.op("lstmp", ins, outs, full)
    return proj, cell


def params(rng, d, p, peep):
    w = (rng.standard_normal((p, 4 * d)) * 0.4).astype(np.float32)
    pw = (rng.standard_normal((d, p)) * 0.5).astype(np.float32)
    bias = (rng.standard_normal((1, (7 if peep else 4) * d)) * 0.3).astype(np.float32)
    return w, pw, bias


def test_loops_match_torch_lstm_with_projection():
    rng = np.random.default_rng(1)
    d, p, lengths = 5, 3, np.array([4, 2, 3], np.int64)
    x = rng.standard_normal((int(lengths.sum()), 4 * d))
    w, pw, bias = (v.astype(np.float64) for v in params(rng, d, p, False))
    mine, _ = lstmp_loops(x, lengths, w, pw, bias, peep=False, proj="identity")
    lstm = torch.nn.LSTM(4 * d, d, proj_size=p).double()
    with torch.no_grad():
        # torch: gates i, f, g, o from x @ W_ih^T + h @ W_hh^T; here the
        # input is already projected, so W_ih is the identity in that order.
        order = np.concatenate([np.arange(d, 2 * d), np.arange(2 * d, 3 * d), np.arange(d),
                                np.arange(3 * d, 4 * d)])
        lstm.weight_ih_l0.copy_(torch.from_numpy(np.eye(4 * d)[order]))
        lstm.weight_hh_l0.copy_(torch.from_numpy(w.T[order]))
        lstm.bias_ih_l0.copy_(torch.from_numpy(bias.reshape(-1)[order]))
        lstm.bias_hh_l0.zero_()
        lstm.weight_hr_l0.copy_(torch.from_numpy(pw.T))
        start = 0
        for n in lengths:
            out, _ = lstm(torch.from_numpy(x[start:start + n]).unsqueeze(1))
            np.testing.assert_allclose(out[:, 0].numpy(), mine[start:start + n], rtol=1e-10, atol=1e-12)
            start += n


@pytest.mark.parametrize("peep,reverse,states,clips,proj", [
    (True, False, False, (0.0, 0.0), "tanh"),
    (True, True, True, (0.4, 0.3), "tanh"),
    (False, False, True, (0.0, 0.5), "identity"),
    (False, True, False, (0.6, 0.0), "relu"),
])
def test_lstmp(tmp_path, peep, reverse, states, clips, proj):
    rng = np.random.default_rng(7)
    d, p, lengths = 6, 4, np.array([3, 0, 5, 1], np.int64)
    x = rng.standard_normal((int(lengths.sum()), 4 * d)).astype(np.float32)
    w, pw, bias = params(rng, d, p, peep)
    h0, c0 = [(rng.standard_normal((4, d)) * 0.5).astype(np.float32) if states else None for _ in range(2)]
    b = ProgramBuilder()
    xv = b.feed("x", [-1, 4 * d], lod_level=1)
    sv = [b.feed("h0", [-1, d]), b.feed("c0", [-1, d])] if states else [None, None]
    for v in lstmp_op(b, xv, b.param("w", w), b.param("pw", pw), b.param("bias", bias), *sv,
                      use_peepholes=peep, is_reverse=reverse, cell_clip=clips[0], proj_clip=clips[1],
                      proj_activation=proj):
        b.fetch(v)
    want = lstmp_loops(x, lengths, w, pw, bias, h0, c0, reverse, peep, clips[0], clips[1], proj)
    if clips[0] > 0:  # the clip is reached, so it is tested
        assert np.abs(want[1]).max() == pytest.approx(clips[0])
    check_close(tmp_path, b, [x, lengths] + ([h0, c0] if states else []),
                [v.astype(np.float32) for v in want])


def test_bad_projection_weight_refused(tmp_path):
    rng = np.random.default_rng(3)
    w, pw, bias = params(rng, 4, 3, True)
    b = ProgramBuilder()
    for v in lstmp_op(b, b.feed("x", [-1, 16], lod_level=1), b.param("w", w),
                      b.param("pw", pw.T.copy()), b.param("bias", bias)):
        b.fetch(v)
    path = b.save(str(tmp_path / "m"))
    p = subprocess.run([tool("paddle-compile"), path, "-o", str(tmp_path / "art")],
                       capture_output=True, text=True)
    assert p.returncode == 1 and "lstmp" in p.stderr and "ProjWeight [D, P]" in p.stderr, p.stderr
