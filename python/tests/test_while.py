"""Fluid while loops (a `while` op running a sub-block while its condition
variable holds): counters, data-dependent trip counts including none, a
greedy decoding loop shaped like PaddleOCR's SLANet table head, nested
loops, and the importer's errors on bad sub-blocks and on
tensor arrays. Builder programs, compiled, against oracles written
here with Python loops, the reference evaluator and the exporter's round
trip."""
import subprocess

import numpy as np
import pytest

import paddle_mlir
from paddle_mlir import reference
from paddle_mlir.builder import Block, Long, Longs, ProgramBuilder, Var
from test_import_blockers import save, tool
from test_random_unique_fpn import compile_run


def fill(b, prefix, shape, dtype, value):
    """fill_constant as Paddle writes it (dtype codes: 3 int64, 5 float32)."""
    code = {"int64": 3, "float32": 5}[dtype]
    return b.op("fill_constant", {}, {"Out": [b.tmp(prefix, shape, dtype)]},
                {"shape": Longs(shape), "dtype": code, "value": float(value), "str_value": "",
                 "force_cpu": False})


def less_than(b, x, y, out=None):
    return b.op("less_than", {"X": [x], "Y": [y]}, {"Out": [out or b.tmp("less_than", [1], "bool")]},
                {"axis": -1, "force_cpu": False})


def reduce_sum(b, x, dim, keep):
    shape = [1 if i in dim else d for i, d in enumerate(x.shape)] if keep else \
        [d for i, d in enumerate(x.shape) if i not in dim]
    return b._simple("reduce_sum", x, {"dim": list(dim), "keep_dim": keep, "reduce_all": False}, shape=shape)


def check_all(got, ref, want, rtol=1e-5, atol=1e-5):
    assert len(got) == len(ref) == len(want)
    for g, r, w in zip(got, ref, want):
        assert g.shape == w.shape and r.shape == w.shape, (g.shape, r.shape, w.shape)
        assert g.dtype == w.dtype and r.dtype == w.dtype, (g.dtype, r.dtype, w.dtype)
        np.testing.assert_allclose(r, w, rtol=rtol, atol=atol)
        np.testing.assert_allclose(g, w, rtol=rtol, atol=atol)


# ------------------------------------------------------------------ counters

def test_while_counter_increment_fluid_style(tmp_path):
    # Fluid 1.x style: increment in place, less_than straight into the
    # condition, the feed itself carried through the loop.
    b = ProgramBuilder()
    x = b.feed("x", [2, 3])
    i = fill(b, "i", [1], "int64", 0)
    n = fill(b, "n", [1], "int64", 5)
    cond = less_than(b, i, n)
    with b.while_loop(cond):
        b.assign(b.scale(x, 0.5, 1.0), x)
        b.increment(i, 1.0, out=i)
        less_than(b, i, n, out=cond)
    b.fetch(x)
    b.fetch(i)
    xv = np.random.default_rng(0).standard_normal((2, 3)).astype(np.float32)
    want = xv.copy()
    for _ in range(5):
        want = want * np.float32(0.5) + np.float32(1.0)
    got, ref = compile_run(tmp_path, b, [xv])
    check_all(got, ref, [want, np.array([5], np.int64)])


def test_while_counter_scale_while_loop_style(tmp_path):
    # paddle.static.nn.while_loop style: the body computes new values into
    # temporaries, then assigns the loop variables and the condition.
    b = ProgramBuilder()
    x = b.feed("x", [2, 3])
    acc = b.assign(x)
    i = fill(b, "i", [1], "int64", 0)
    n = fill(b, "n", [1], "int64", 5)
    cond = less_than(b, i, n)
    with b.while_loop(cond):
        acc2 = b.scale(acc, 0.5, 1.0)
        i2 = b.scale(i, 1.0, 1.0)
        c2 = less_than(b, i2, n)
        b.assign(acc2, acc)
        b.assign(i2, i)
        b.assign(c2, cond)
    b.fetch(acc)
    b.fetch(i)
    b.fetch(x)
    xv = np.random.default_rng(1).standard_normal((2, 3)).astype(np.float32)
    want = xv.copy()
    for _ in range(5):
        want = want * np.float32(0.5) + np.float32(1.0)
    got, ref = compile_run(tmp_path, b, [xv])
    check_all(got, ref, [want, np.array([5], np.int64), xv])


def test_while_op_slots():
    # The while op as Paddle's While._complete writes it: X the outer
    # variables used (less the condition), Out those written (condition
    # included), one STEP_SCOPES variable, a BLOCK attribute; the body's
    # temporaries live in the sub-block.
    b = ProgramBuilder()
    x = b.feed("x", [2, 3])
    w = b.param("w", np.ones([3], np.float32))
    i = fill(b, "i", [1], "int64", 0)
    n = fill(b, "n", [1], "int64", 2)
    cond = less_than(b, i, n)
    with b.while_loop(cond):
        b.assign(b.elementwise("elementwise_add", x, w), x)
        b.increment(i, out=i)
        b.assign(less_than(b, i, n), cond)
    b.fetch(x)
    prog = b.program_desc()
    assert [(blk.idx, blk.parent_idx) for blk in prog.blocks] == [(0, -1), (1, 0)]
    loop = [op for op in prog.blocks[0].ops if op.type == "while"]
    assert len(loop) == 1
    slots = {v.parameter: list(v.arguments) for v in list(loop[0].inputs) + list(loop[0].outputs)}
    assert slots["X"] == [x.name, w.name, i.name, n.name]
    assert slots["Condition"] == [cond.name]
    assert slots["Out"] == [x.name, i.name, cond.name]
    (scopes,) = slots["StepScopes"]
    kinds = {v.name: v.type.type for v in prog.blocks[0].vars}
    assert kinds[scopes] == reference.fp.VarType.STEP_SCOPES
    attrs = {a.name: a for a in loop[0].attrs}
    assert attrs["sub_block"].type == reference.fp.BLOCK and attrs["sub_block"].block_idx == 1
    assert attrs["is_test"].b
    inner = {v.name for v in prog.blocks[1].vars}
    assert inner and not inner & set(kinds)
    assert [op.type for op in prog.blocks[1].ops] == ["elementwise_add", "assign", "increment", "less_than",
                                                      "assign"]


# ------------------------------------------------- data-dependent trip count

def test_while_data_dependent_trip_count(tmp_path):
    # while sum(x) < limit: x *= 2; the first limit is below sum(x), so
    # the body never runs and the outputs are the inputs.
    b = ProgramBuilder()
    x = b.feed("x", [2, 3])
    limit = b.feed("limit", [1])
    y = b.assign(x)
    steps = fill(b, "steps", [1], "float32", 0)
    cond = less_than(b, reduce_sum(b, reduce_sum(b, y, [1], False), [0], True), limit)
    with b.while_loop(cond):
        y2 = b.scale(y, 2.0)
        b.assign(y2, y)
        b.assign(b.scale(steps, 1.0, 1.0), steps)
        b.assign(less_than(b, reduce_sum(b, reduce_sum(b, y2, [1], False), [0], True), limit), cond)
    b.fetch(y)
    b.fetch(steps)
    xv = (np.random.default_rng(2).random((2, 3)) + 0.1).astype(np.float32)

    def oracle(lim):
        v, k = xv.copy(), 0
        while v.sum(dtype=np.float32) < lim:
            v, k = v * np.float32(2), k + 1
        return [v, np.array([k], np.float32)]

    limits = [np.array([0.5], np.float32), np.array([100.0], np.float32)]
    assert xv.sum() > 0.5
    got, ref = compile_run(tmp_path, b, [xv, limits[0]])
    check_all(got, ref, oracle(limits[0][0]))
    np.testing.assert_array_equal(got[0], xv)
    fn = paddle_mlir.compile(str(tmp_path / "m"))
    model = reference.load(str(tmp_path / "m"))
    for lim in limits:
        want = oracle(lim[0])
        got = fn(xv, lim)
        ref = list(model.run({"x": xv, "limit": lim}).values())
        check_all(got, ref, want)
    assert oracle(limits[1][0])[1][0] > 1


# ------------------------------------------------- greedy decoding (SLANet)

def test_while_greedy_decoding_slanet_like(tmp_path):
    # PaddleOCR's table head decodes greedily: per step the previous token
    # (one hot) and the features update a hidden state, the step's logits
    # go into row s of a preallocated buffer with set_value (start and end
    # as int64 [1] tensors, the sliced axis dropped), and arg_max gives the
    # next token.
    B, T, C, H, V, L = 2, 4, 3, 5, 6, 4
    rng = np.random.default_rng(29)
    feat_v = rng.standard_normal((B, T, C)).astype(np.float32)
    W_v = (rng.standard_normal((C + H + V, H)) * 0.8).astype(np.float32)
    bw_v = rng.standard_normal(H).astype(np.float32) * 0.1
    Wo_v = rng.standard_normal((H, V)).astype(np.float32)
    bo_v = rng.standard_normal(V).astype(np.float32) * 0.1

    b = ProgramBuilder()
    feat = b.feed("feat", [B, T, C])
    W, bw, Wo, bo = (b.param(n, v) for n, v in (("W", W_v), ("bw", bw_v), ("Wo", Wo_v), ("bo", bo_v)))
    h = fill(b, "h", [B, H], "float32", 0)
    tok = fill(b, "tok", [B], "int64", 0)
    out = fill(b, "out", [B, L, V], "float32", 0)
    s = fill(b, "s", [1], "int64", 0)
    n = fill(b, "n", [1], "int64", L)
    cond = less_than(b, s, n)
    with b.while_loop(cond):
        emb = b.op("one_hot_v2", {"X": [tok]}, {"Out": [b.tmp("one_hot_v2", [B, V])]},
                   {"depth": V, "dtype": 5, "allow_out_of_range": False})
        ctx = b._simple("reduce_mean", feat, {"dim": [1], "keep_dim": False, "reduce_all": False},
                        shape=[B, C])
        h2 = b.act("tanh", b.linear(b.concat([ctx, h, emb], 1), W, bw))
        logits = b.linear(h2, Wo, bo)
        e = b.scale(s, 1.0, 1.0)
        b.op("set_value", {"Input": [out], "ValueTensor": [logits], "StartsTensorList": [s],
                           "EndsTensorList": [e]}, {"Out": [out]},
             {"axes": Longs([1]), "starts": Longs([]), "ends": Longs([]), "steps": Longs([1]),
              "decrease_axes": Longs([1]), "none_axes": Longs([]), "shape": Longs([]), "dtype": 5})
        t2 = b.op("arg_max", {"X": [logits]}, {"Out": [b.tmp("arg_max", [B], "int64")]},
                  {"axis": Long(1), "keepdims": False, "flatten": False, "dtype": 3})
        b.assign(h2, h)
        b.assign(t2, tok)
        b.assign(e, s)
        b.assign(less_than(b, e, n), cond)
    b.fetch(out)
    b.fetch(h)
    b.fetch(tok)

    ctx_v = feat_v.mean(axis=1)
    hv, tv, ov = np.zeros((B, H), np.float32), np.zeros(B, np.int64), np.zeros((B, L, V), np.float32)
    for step in range(L):
        emb_v = np.zeros((B, V), np.float32)
        emb_v[np.arange(B), tv] = 1
        hv = np.tanh(np.concatenate([ctx_v, hv, emb_v], 1) @ W_v + bw_v).astype(np.float32)
        lg = (hv @ Wo_v + bo_v).astype(np.float32)
        ov[:, step, :] = lg
        top2 = np.sort(lg, axis=1)[:, -2:]
        assert (top2[:, 1] - top2[:, 0] > 1e-2).all()   # no near ties: arg_max is stable
        tv = lg.argmax(axis=1).astype(np.int64)
    assert len(set(ov.argmax(axis=2).reshape(-1))) > 1      # the tokens do change
    got, ref = compile_run(tmp_path, b, [feat_v])
    check_all(got, ref, [ov, hv, tv])


# ---------------------------------------------------------------- nesting

def test_while_nested(tmp_path):
    # Outer loop 3 times, inner loop 2 times; the inner counter and
    # condition are defined in the outer body (its sub-block).
    b = ProgramBuilder()
    x0 = b.feed("x", [2, 2])
    x = b.assign(x0)
    acc = fill(b, "acc", [2, 2], "float32", 0)
    total = fill(b, "total", [1], "int64", 0)
    i = fill(b, "i", [1], "int64", 0)
    n_out = fill(b, "n_out", [1], "int64", 3)
    n_in = fill(b, "n_in", [1], "int64", 2)
    c_out = less_than(b, i, n_out)
    with b.while_loop(c_out):
        j = fill(b, "j", [1], "int64", 0)
        c_in = less_than(b, j, n_in)
        with b.while_loop(c_in):
            b.assign(b.elementwise("elementwise_add", b.scale(acc, 0.5), x), acc)
            b.increment(total, out=total)
            b.increment(j, out=j)
            b.assign(less_than(b, j, n_in), c_in)
        b.assign(b.scale(x, 1.0, 1.0), x)
        b.increment(i, out=i)
        b.assign(less_than(b, i, n_out), c_out)
    b.fetch(acc)
    b.fetch(total)
    b.fetch(x)
    prog = b.program_desc()
    assert [(blk.idx, blk.parent_idx) for blk in prog.blocks] == [(0, -1), (1, 0), (2, 1)]

    xv = np.random.default_rng(4).standard_normal((2, 2)).astype(np.float32)
    av, tv, xx = np.zeros((2, 2), np.float32), 0, xv.copy()
    for _ in range(3):
        for _ in range(2):
            av = av * np.float32(0.5) + xx
            tv += 1
        xx = xx + np.float32(1)
    got, ref = compile_run(tmp_path, b, [xv])
    check_all(got, ref, [av, np.array([tv], np.int64), xx])


# ------------------------------------------------------------------ errors

def simple_loop(b):
    x = b.feed("x", [2, 3])
    i = fill(b, "i", [1], "int64", 0)
    n = fill(b, "n", [1], "int64", 2)
    cond = less_than(b, i, n)
    return x, i, n, cond


def test_while_sub_block_reads_undefined_variable(tmp_path):
    b = ProgramBuilder()
    x, i, n, cond = simple_loop(b)
    ghost = Var("ghost_var", [2, 3], "float32")      # declared nowhere
    with b.while_loop(cond):
        b.assign(b.elementwise("elementwise_add", x, ghost), x)
        b.increment(i, out=i)
        less_than(b, i, n, out=cond)
    b.fetch(x)

    def drop_from_x(prog):
        # Only the sub-block names it: the while op's X does not.
        for op in prog.blocks[0].ops:
            for v in op.inputs:
                if op.type == "while" and v.parameter == "X":
                    v.arguments.remove("ghost_var")

    model = save(b, tmp_path / "m", drop_from_x)
    p = subprocess.run([tool("paddle-translate"), "--import-paddle", model], capture_output=True, text=True)
    assert 0 < p.returncode < 128, p.stderr
    assert "ghost_var" in p.stderr, p.stderr


def test_rank_table_of_a_plain_tensor_refused(tmp_path):
    # lod_rank_table ranks the sequences of a LoD batch; on a tensor without
    # LoD (here in a loop body) the import fails with one error naming the
    # op, its block and why.
    b = ProgramBuilder()
    x, i, n, cond = simple_loop(b)
    table = b.tmp("rank_table", [2, 3])
    with b.while_loop(cond):
        b.op("lod_rank_table", {"X": [x]}, {"Out": [table]}, {"level": 0})
        b.increment(i, 1.0, out=i)
        less_than(b, i, n, out=cond)
    b.fetch(x)
    model = str(tmp_path / "m")
    b.save(model)
    p = subprocess.run([tool("paddle-translate"), "--import-paddle", model], capture_output=True, text=True)
    assert 0 < p.returncode < 128, p.stderr
    assert "'lod_rank_table'" in p.stderr and "X has no LoD" in p.stderr and "block 1" in p.stderr, p.stderr


def test_reference_while_ops():
    # The reference evaluator's ops of these loops against Paddle's
    # definitions, without the compiler.
    ops = reference.OPS
    got = ops["one_hot_v2"]({"X": [np.array([[0, 2], [1, 1]], np.int64)]}, {"depth": 3, "dtype": 5})["Out"]
    assert got.shape == (2, 2, 3) and got.dtype == np.float32
    np.testing.assert_array_equal(got.argmax(-1), [[0, 2], [1, 1]])
    with pytest.raises(ValueError):
        ops["one_hot_v2"]({"X": [np.array([3], np.int64)]}, {"depth": 3})
    np.testing.assert_array_equal(
        ops["one_hot_v2"]({"X": [np.array([3, 1], np.int64)]}, {"depth": 3, "allow_out_of_range": True})["Out"],
        [[0, 0, 0], [0, 1, 0]])
    inc = ops["increment"]({"X": [np.array([4], np.int64)]}, {"step": 2.0})["Out"]
    assert inc.dtype == np.int64 and inc.tolist() == [6]
    am = ops["arg_max"]({"X": [np.array([[1.0, 3.0, 2.0]], np.float32)]}, {"axis": 1, "dtype": -1})["Out"]
    assert am.dtype == np.int64 and am.tolist() == [1]


def test_is_empty_ends_loop(tmp_path):
    # RARE's decoder ends its loop when a step gives no rows: the condition
    # is less_than(i, n) AND NOT is_empty(ids). Here ids are the rows of a
    # fed tensor: with 0 rows the loop stops after its first iteration.
    b = ProgramBuilder()
    x = b.feed("x", [2, 3])
    rows = b.feed("rows", [-1, 1], "int64")
    i = fill(b, "i", [1], "int64", 0)
    n = fill(b, "n", [1], "int64", 4)
    cond = less_than(b, i, n)
    with b.while_loop(cond):
        b.assign(b.scale(x, 2.0), x)
        b.increment(i, out=i)
        empty = b.tmp("is_empty", [1], "bool")
        b.op("is_empty", {"X": [rows]}, {"Out": [empty]})
        more = b.logical_not(empty)
        b.op("logical_and", {"X": [less_than(b, i, n)], "Y": [more]}, {"Out": [cond]})
    b.fetch(x)
    b.fetch(i)
    x_v = np.ones((2, 3), np.float32)
    model = str(tmp_path / "m")
    b.save(model)
    from test_random_unique_fpn import round_trips
    round_trips(model, tmp_path)
    compiled = paddle_mlir.compile(model)
    ref = reference.load(model)
    for k, steps in ((0, 1), (3, 4)):
        r = np.zeros((k, 1), np.int64)
        want = [x_v * 2.0 ** steps, np.array([steps], np.int64)]
        got = compiled(x_v, r)
        out = list(ref.run(dict(zip(ref.input_names, [x_v, r]))).values())
        check_all(got, out, want)
