"""Fluid branches: conditional_block (a sub-block run once when a scalar
condition holds, or when every condition tensor has elements), select_input
and select_output; Paddle 2.x's paddle.static.nn.cond pattern, a Switch-like
assign to an outer variable, branches inside a while body, and the
importer's error on a scalar condition of two elements. Builder programs,
compiled, against oracles written here in NumPy, the reference evaluator
and the exporter's round trip."""
import subprocess

import numpy as np
import pytest

import paddle_mlir
from paddle_mlir import reference
from paddle_mlir.builder import ProgramBuilder
from test_import_blockers import save, tool
from test_random_unique_fpn import compile_run
from test_while import check_all, fill, less_than, reduce_sum


def total(b, x):
    """sum(x) of a 2-D x as a [1] tensor (reduce over dim 1, then dim 0 kept)."""
    return reduce_sum(b, reduce_sum(b, x, [1], False), [0], True)


def run_all(tmp_path, b, cases, oracle):
    """Round trip and one compile of `b`, then every input list of `cases`
    through the compiled model and the reference evaluator."""
    got, ref = compile_run(tmp_path, b, cases[0])
    check_all(got, ref, oracle(*cases[0]))
    fn = paddle_mlir.compile(str(tmp_path / "m"))
    model = reference.load(str(tmp_path / "m"))
    for inputs in cases:
        ref = list(model.run(dict(zip(model.input_names, inputs))).values())
        check_all(fn(*inputs), ref, oracle(*inputs))


def slots(op):
    return {v.parameter: list(v.arguments) for v in list(op.inputs) + list(op.outputs)}


# ------------------------------------------------ paddle.static.nn.cond

def static_cond_program():
    # out = x * 2 + 1 if sum(x) < limit else relu(x) - 3
    b = ProgramBuilder()
    x = b.feed("x", [2, 3])
    limit = b.feed("limit", [1])
    pred = less_than(b, total(b, x), limit)
    out = b.cond(pred, lambda: b.scale(x, 2.0, 1.0), lambda: b.scale(b.relu(x), 1.0, -3.0))
    b.fetch(out)
    return b, x, pred, out


def test_cond_static_nn_cond(tmp_path):
    b, _, _, _ = static_cond_program()
    xv = np.random.default_rng(0).standard_normal((2, 3)).astype(np.float32)

    def oracle(x, lim):
        if x.sum(dtype=np.float32) < lim[0]:
            return [x * np.float32(2) + np.float32(1)]
        return [np.maximum(x, np.float32(0)) - np.float32(3)]

    cases = [[xv, np.array([100.0], np.float32)], [xv, np.array([-100.0], np.float32)]]
    run_all(tmp_path, b, cases, oracle)
    assert not np.array_equal(oracle(*cases[0])[0], oracle(*cases[1])[0])


def test_cond_op_slots():
    # The ops and slots Paddle 2.x writes for cond: conditional_block on
    # pred, logical_not, conditional_block on its result, cast to int32,
    # select_input([false, true]); each branch assigns its result to a
    # variable of block 0, which is the block's only Out.
    b, x, pred, out = static_cond_program()
    prog = b.program_desc()
    assert [(blk.idx, blk.parent_idx) for blk in prog.blocks] == [(0, -1), (1, 0), (2, 0)]
    ops = [op for op in prog.blocks[0].ops if op.type not in ("feed", "fetch")]
    assert [op.type for op in ops] == ["reduce_sum", "reduce_sum", "less_than", "conditional_block", "logical_not",
                                       "conditional_block", "cast", "select_input"]
    top = {v.name: v for v in prog.blocks[0].vars}
    t_blk, npred, f_blk, cast, sel = ops[3:]
    npred_name = slots(npred)["Out"][0]
    (mask,) = slots(cast)["Out"]
    for op, cond, idx, want_ops in ((t_blk, pred.name, 1, ["scale", "assign"]),
                                    (f_blk, npred_name, 2, ["relu", "scale", "assign"])):
        s = slots(op)
        assert s["Cond"] == [cond] and s["Input"] == [x.name]
        (res,) = s["Out"]
        assert res in top and res not in {v.name for v in prog.blocks[idx].vars}
        (scope,) = s["Scope"]
        assert top[scope].type.type == reference.fp.VarType.STEP_SCOPES
        attrs = {a.name: a for a in op.attrs}
        assert attrs["sub_block"].type == reference.fp.BLOCK and attrs["sub_block"].block_idx == idx
        assert attrs["is_scalar_condition"].type == reference.fp.BOOLEAN and attrs["is_scalar_condition"].b
        assert [o.type for o in prog.blocks[idx].ops] == want_ops
        assert slots(prog.blocks[idx].ops[-1])["Out"] == [res]
    assert slots(npred)["X"] == [pred.name]
    cast_attrs = {a.name: a.i for a in cast.attrs if a.name in ("in_dtype", "out_dtype")}
    assert cast_attrs == {"in_dtype": 0, "out_dtype": 2}
    assert top[mask].type.lod_tensor.tensor.data_type == reference.fp.VarType.INT32
    assert slots(sel) == {"X": [slots(f_blk)["Out"][0], slots(t_blk)["Out"][0]], "Mask": [mask], "Out": [out.name]}


def test_cond_two_outputs_matmul(tmp_path):
    # Two results per branch: the true branch's first is a matmul with a
    # parameter, the false branch's second passes x through unchanged.
    rng = np.random.default_rng(1)
    W_v = rng.standard_normal((3, 3)).astype(np.float32)
    bias_v = rng.standard_normal(3).astype(np.float32)
    b = ProgramBuilder()
    x = b.feed("x", [2, 3])
    limit = b.feed("limit", [1])
    W, bias = b.param("W", W_v), b.param("bias", bias_v)
    pred = less_than(b, total(b, x), limit)
    outs = b.cond(pred, lambda: [b.matmul_v2(x, W), b.scale(x, 3.0)],
                  lambda: [b.elementwise("elementwise_add", x, bias), x])
    assert len(outs) == 2
    for o in outs:
        b.fetch(o)
    assert [op[0] for op in b.ops].count("select_input") == 2
    xv = rng.standard_normal((2, 3)).astype(np.float32)

    def oracle(x, lim):
        if x.sum(dtype=np.float32) < lim[0]:
            return [x @ W_v, x * np.float32(3)]
        return [x + bias_v, x]

    run_all(tmp_path, b, [[xv, np.array([50.0], np.float32)], [xv, np.array([-50.0], np.float32)]], oracle)


# ------------------------------------------------ conditional_block alone

def test_conditional_block_switch_like_assign(tmp_path):
    # Fluid's Switch: y is defined before the block, which assigns it only
    # when the condition holds; otherwise y keeps its zeros.
    b = ProgramBuilder()
    x = b.feed("x", [2, 3])
    a = b.feed("a", [1])
    y = fill(b, "y", [2, 3], "float32", 0)
    pred = less_than(b, a, fill(b, "zero", [1], "float32", 0))
    with b.conditional_block([pred]):
        b.assign(b.scale(x, 1.0, 1.0), y)
    b.fetch(y)
    (op,) = [op for op in b.ops if op[0] == "conditional_block"]
    assert [v.name for v in op[1]["Input"]] == [x.name] and [v.name for v in op[2]["Out"]] == [y.name]
    xv = np.random.default_rng(2).standard_normal((2, 3)).astype(np.float32)

    def oracle(x, a):
        return [x + np.float32(1) if a[0] < 0 else np.zeros((2, 3), np.float32)]

    run_all(tmp_path, b, [[xv, np.array([-1.0], np.float32)], [xv, np.array([1.0], np.float32)]], oracle)


def test_conditional_block_non_scalar_condition(tmp_path):
    # is_scalar_condition false: the block runs when every Cond tensor has
    # elements, here when v has rows; z keeps its ones otherwise.
    b = ProgramBuilder()
    v = b.feed("v", [-1, 2])
    z = fill(b, "z", [1], "float32", 1)
    with b.conditional_block([v], is_scalar_condition=False):
        b.assign(b.scale(total(b, v), 2.0, 0.5), z)
    b.fetch(z)
    (op,) = [op for op in b.ops if op[0] == "conditional_block"]
    assert op[3]["is_scalar_condition"] is False
    vv = np.random.default_rng(3).standard_normal((3, 2)).astype(np.float32)

    def oracle(v):
        if v.size == 0:
            return [np.ones(1, np.float32)]
        return [np.array([v.sum(dtype=np.float32) * np.float32(2) + np.float32(0.5)], np.float32)]

    run_all(tmp_path, b, [[vv], [np.zeros((0, 2), np.float32)]], oracle)


# ------------------------------------------------------------ select_output

def test_select_output(tmp_path):
    # x goes to outs[mask[0]]; the other output keeps its fill value.
    b = ProgramBuilder()
    x = b.feed("x", [2])
    mask = b.feed("mask", [1], "int32")
    o0 = fill(b, "o0", [2], "float32", -1)
    o1 = fill(b, "o1", [2], "float32", 7)
    b.select_output(x, mask, [o0, o1])
    b.fetch(o0)
    b.fetch(o1)
    xv = np.array([2.5, -4.0], np.float32)

    def oracle(x, m):
        outs = [np.full(2, -1, np.float32), np.full(2, 7, np.float32)]
        outs[m[0]] = x
        return outs

    run_all(tmp_path, b, [[xv, np.array([0], np.int32)], [xv, np.array([1], np.int32)]], oracle)


# ------------------------------------------------------- inside a while body

def test_conditional_block_in_while_body(tmp_path):
    # Four iterations of acc = acc * 2, then + 10 on odd iterations: the
    # conditional_block (block 2) sits in the while body (block 1), its
    # condition and scope are body variables, acc is a block 0 one.
    b = ProgramBuilder()
    x = b.feed("x", [2])
    acc = b.assign(x)
    i = fill(b, "i", [1], "int64", 0)
    n = fill(b, "n", [1], "int64", 4)
    two = fill(b, "two", [1], "int64", 2)
    one = fill(b, "one", [1], "int64", 1)
    cond = less_than(b, i, n)
    with b.while_loop(cond) as body:
        b.assign(b.scale(acc, 2.0), acc)
        odd = b.elementwise("equal", b.elementwise("elementwise_mod", i, two), one)
        with b.conditional_block([odd]):
            b.assign(b.scale(acc, 1.0, 10.0), acc)
        b.increment(i, out=i)
        less_than(b, i, n, out=cond)
    b.fetch(acc)
    b.fetch(i)
    prog = b.program_desc()
    assert [(blk.idx, blk.parent_idx) for blk in prog.blocks] == [(0, -1), (1, 0), (2, 1)]
    (op,) = [op for op in prog.blocks[1].ops if op.type == "conditional_block"]
    s = slots(op)
    assert s["Cond"] == [odd.name] and s["Input"] == [acc.name] and s["Out"] == [acc.name]
    assert s["Scope"][0] in body.vars

    def oracle(x):
        a = x.copy()
        for k in range(4):
            a = a * np.float32(2)
            if k % 2 == 1:
                a = a + np.float32(10)
        return [a, np.array([4], np.int64)]

    run_all(tmp_path, b, [[np.array([1.0, -3.0], np.float32)]], oracle)


def test_cond_in_while_body(tmp_path):
    # paddle.static.nn.cond in a while body: the branch results go to
    # variables of the body block (the cond's parent), not of block 0.
    b = ProgramBuilder()
    x = b.feed("x", [2])
    acc = b.assign(x)
    i = fill(b, "i", [1], "int64", 0)
    n = fill(b, "n", [1], "int64", 5)
    three = fill(b, "three", [1], "int64", 3)
    cond = less_than(b, i, n)
    with b.while_loop(cond) as body:
        small = less_than(b, i, three)
        b.assign(b.cond(small, lambda: b.scale(acc, 1.0, 10.0), lambda: b.scale(acc, -0.5)), acc)
        b.increment(i, out=i)
        less_than(b, i, n, out=cond)
    b.fetch(acc)
    prog = b.program_desc()
    assert [(blk.idx, blk.parent_idx) for blk in prog.blocks] == [(0, -1), (1, 0), (2, 1), (3, 1)]
    sel = [op for op in prog.blocks[1].ops if op.type == "select_input"]
    assert len(sel) == 1 and all(name in body.vars for name in slots(sel[0])["X"])

    def oracle(x):
        a = x.copy()
        for k in range(5):
            a = a + np.float32(10) if k < 3 else a * np.float32(-0.5)
        return [a]

    run_all(tmp_path, b, [[np.array([1.5, -2.0], np.float32)]], oracle)


# ------------------------------------------------------------------ errors

def test_conditional_block_scalar_condition_with_two_elements(tmp_path):
    # is_scalar_condition with a condition of two elements: the importer
    # names the condition variable; the reference evaluator refuses too.
    b = ProgramBuilder()
    x = b.feed("x", [2])
    y = b.feed("y", [2])
    two = less_than(b, x, y, out=b.tmp("two_conds", [2], "bool"))
    out = b.assign(x)
    with b.conditional_block([two]):
        b.assign(b.scale(x, 2.0), out)
    b.fetch(out)
    model = save(b, tmp_path / "m")
    p = subprocess.run([tool("paddle-translate"), "--import-paddle", model], capture_output=True, text=True)
    assert 0 < p.returncode < 128, p.stderr
    assert two.name in p.stderr, p.stderr
    with pytest.raises(ValueError, match="scalar condition"):
        reference.load(model).run({"x": np.zeros(2, np.float32), "y": np.ones(2, np.float32)})


def test_reference_cond_ops():
    # The reference evaluator's select_input, select_output and
    # logical_not against Paddle's definitions, without the compiler.
    ops = reference.OPS
    a, c = np.array([1.0, 2.0], np.float32), np.array([3.0, 4.0], np.float32)
    np.testing.assert_array_equal(ops["select_input"]({"X": [a, c], "Mask": [np.array([1], np.int32)]}, {})["Out"], c)
    np.testing.assert_array_equal(ops["select_input"]({"X": [a, None], "Mask": [np.array([0], np.int32)]}, {})["Out"],
                                  a)
    with pytest.raises(ValueError):
        ops["select_input"]({"X": [a, c], "Mask": [np.array([2], np.int32)]}, {})
    with pytest.raises(ValueError):
        ops["select_input"]({"X": [a, c], "Mask": [np.array([0, 1], np.int32)]}, {})
    out = ops["select_output"]({"X": [a], "Mask": [np.array([1], np.int32)], "@outs": [3]}, {})["Out"]
    assert out[0] is None and out[2] is None
    np.testing.assert_array_equal(out[1], a)
    with pytest.raises(ValueError):
        ops["select_output"]({"X": [a], "Mask": [np.array([-1], np.int32)], "@outs": [2]}, {})
    got = ops["logical_not"]({"X": [np.array([True, False])]}, {})["Out"]
    assert got.dtype == np.bool_ and got.tolist() == [False, True]
