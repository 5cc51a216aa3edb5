"""Tensor arrays (LOD_TENSOR_ARRAY variables): write_to_array,
read_from_array, lod_array_length and tensor_array_to_tensor outside loops,
in a while loop that keeps every step's state (DynamicRNN style), in a
greedy decoding loop shaped like PaddleOCR RARE's attention decoder, with
int32 indices, and the compiled kernels' run-time errors on bad indices.
Builder programs, compiled, against oracles written here in NumPy, the
reference evaluator and the exporter's round trip."""
import numpy as np
import pytest

import paddle_mlir
from paddle_mlir import reference
from paddle_mlir.builder import Long, Longs, ProgramBuilder
from test_random_unique_fpn import compile_run, round_trips
from test_while import check_all, fill, less_than


def fill_i32(b, prefix, value):
    """fill_constant of an int32 [1] index (dtype code 2)."""
    return b.op("fill_constant", {}, {"Out": [b.tmp(prefix, [1], "int32")]},
                {"shape": Longs([1]), "dtype": 2, "value": float(value), "str_value": "", "force_cpu": False})


def two_element_array(b, x):
    """x at index 0, x * 2 at index 1 (int64 indices from fill_constant)."""
    arr = b.write_to_array(x, fill(b, "i0", [1], "int64", 0))
    b.write_to_array(b.scale(x, 2.0), fill(b, "i1", [1], "int64", 1), arr)
    return arr


def slots(op):
    return {v.parameter: list(v.arguments) for v in list(op.inputs) + list(op.outputs)}


# ---------------------------------------------------------- outside loops

def test_tensor_array_var_desc_and_slots():
    # The array is a LOD_TENSOR_ARRAY variable whose TensorDesc is that of
    # one element; write_to_array names it as its Out (Paddle writes in
    # place), the readers as their X.
    b = ProgramBuilder()
    x = b.feed("x", [2, 3])
    arr = two_element_array(b, x)
    n = b.lod_array_length(arr)
    out, index = b.tensor_array_to_tensor(arr, axis=1)
    assert out.shape == [2, -1] and index.shape == [-1] and index.dtype == "int32" and n.dtype == "int64"
    stacked, _ = b.tensor_array_to_tensor(arr, axis=-1, use_stack=True)
    assert stacked.shape == [2, 3, -1]
    b.fetch(out)
    prog = b.program_desc()
    desc = {v.name: v for v in prog.blocks[0].vars}[arr.name]
    assert desc.type.type == reference.fp.VarType.LOD_TENSOR_ARRAY
    assert not desc.type.HasField("lod_tensor")
    assert desc.type.tensor_array.tensor.data_type == reference.fp.VarType.FP32
    assert list(desc.type.tensor_array.tensor.dims) == [2, 3]
    assert desc.type.tensor_array.HasField("lod_level") and desc.type.tensor_array.lod_level == 0
    ops = [op for op in prog.blocks[0].ops if op.type not in ("feed", "fetch", "fill_constant", "scale")]
    assert [op.type for op in ops] == ["write_to_array", "write_to_array", "lod_array_length",
                                       "tensor_array_to_tensor", "tensor_array_to_tensor"]
    assert slots(ops[0]) == {"X": [x.name], "I": [slots(ops[0])["I"][0]], "Out": [arr.name]}
    assert slots(ops[1])["Out"] == [arr.name]
    assert slots(ops[2]) == {"X": [arr.name], "Out": [n.name]}
    assert slots(ops[3]) == {"X": [arr.name], "Out": [out.name], "OutIndex": [index.name]}
    attrs = {a.name: a for a in ops[3].attrs}
    assert attrs["axis"].type == reference.fp.INT and attrs["axis"].i == 1
    assert attrs["use_stack"].type == reference.fp.BOOLEAN and not attrs["use_stack"].b


def test_tensor_array_outside_loops(tmp_path):
    # Two elements written with int64 indices; read back, counted, stacked
    # along a new axis 0 and concatenated along axis 1 (both from the
    # same array).
    b = ProgramBuilder()
    x = b.feed("x", [2, 3])
    arr = two_element_array(b, x)
    r = b.read_from_array(arr, fill(b, "k", [1], "int64", 1))
    n = b.lod_array_length(arr)
    stacked, _ = b.tensor_array_to_tensor(arr, axis=0, use_stack=True)
    joined, joined_index = b.tensor_array_to_tensor(arr, axis=1, use_stack=False)
    for v in (r, n, stacked, joined, joined_index):
        b.fetch(v)
    xv = np.random.default_rng(0).standard_normal((2, 3)).astype(np.float32)
    x2 = xv * np.float32(2)
    want = [x2, np.array([2], np.int64), np.stack([xv, x2], 0), np.concatenate([xv, x2], 1),
            np.array([3, 3], np.int32)]
    got, ref = compile_run(tmp_path, b, [xv])
    check_all(got, ref, want)


def test_tensor_array_to_tensor_stack_out_index(tmp_path):
    # With use_stack, Paddle's OutIndex still holds each element's dim at
    # axis (LoDTensorArray2TensorOp fills it before choosing stack or
    # concat): 3 for [2, 3] elements stacked at axis 1, not 1.
    b = ProgramBuilder()
    x = b.feed("x", [2, 3])
    arr = two_element_array(b, x)
    stacked, index = b.tensor_array_to_tensor(arr, axis=1, use_stack=True)
    b.fetch(stacked)
    b.fetch(index)
    xv = np.random.default_rng(1).standard_normal((2, 3)).astype(np.float32)
    got, ref = compile_run(tmp_path, b, [xv])
    check_all(got, ref, [np.stack([xv, xv * np.float32(2)], 1), np.array([3, 3], np.int32)])


def test_tensor_array_int32_index(tmp_path):
    # I may be int32 [1], fed or from fill_constant: x at the fed index
    # (2, so the array grows over index 1), x * 3 at index 0.
    b = ProgramBuilder()
    x = b.feed("x", [2, 3])
    k = b.feed("k", [1], "int32")
    arr = b.write_to_array(x, k)
    zero = fill_i32(b, "zero", 0)
    b.write_to_array(b.scale(x, 3.0), zero, arr)
    for v in (b.read_from_array(arr, k), b.read_from_array(arr, zero), b.lod_array_length(arr)):
        b.fetch(v)
    xv = np.random.default_rng(2).standard_normal((2, 3)).astype(np.float32)
    got, ref = compile_run(tmp_path, b, [xv, np.array([2], np.int32)])
    check_all(got, ref, [xv, xv * np.float32(3), np.array([3], np.int64)])


# ------------------------------------------------------------ while loops

def test_tensor_array_while_rnn_states(tmp_path):
    # h_0 = x written at index 0 before the loop; each iteration reads
    # h_i, increments i and writes h_{i+1} = tanh(h_i @ W + x) at i, as
    # Fluid's DynamicRNN keeps its states. After 4 iterations: 5 states.
    rng = np.random.default_rng(3)
    x_v = rng.standard_normal((2, 4)).astype(np.float32)
    W_v = (rng.standard_normal((4, 4)) * 0.5).astype(np.float32)
    b = ProgramBuilder()
    x = b.feed("x", [2, 4])
    W = b.param("W", W_v)
    i = fill(b, "i", [1], "int64", 0)
    n = fill(b, "n", [1], "int64", 4)
    states = b.write_to_array(x, i)
    cond = less_than(b, i, n)
    with b.while_loop(cond):
        h = b.read_from_array(states, i)
        h2 = b.act("tanh", b.elementwise("elementwise_add", b.matmul_v2(h, W), x))
        b.increment(i, out=i)
        b.write_to_array(h2, i, states)
        less_than(b, i, n, out=cond)
    b.fetch(b.lod_array_length(states))
    b.fetch(b.tensor_array_to_tensor(states, axis=0, use_stack=True)[0])
    b.fetch(i)
    loop = [op for op in b.program_desc().blocks[0].ops if op.type == "while"][0]
    assert states.name in slots(loop)["X"] and states.name in slots(loop)["Out"]

    hs = [x_v]
    for _ in range(4):
        hs.append(np.tanh(hs[-1] @ W_v + x_v).astype(np.float32))
    got, ref = compile_run(tmp_path, b, [x_v])
    check_all(got, ref, [np.array([5], np.int64), np.stack(hs, 0), np.array([4], np.int64)])


def test_tensor_array_greedy_decoding_rare_like(tmp_path):
    # PaddleOCR RARE's attention decoder decodes greedily; in Fluid's
    # style the ids and scores go into tensor arrays: the start token
    # (0) and a zero score at index 0 before the loop, then per step the
    # previous token is read back from the ids array, embedded, and the
    # arg_max of the logits and its softmax probability are written at
    # the next index. Afterwards the arrays are concatenated along axis 1:
    # [B, 1 + steps] (the start token first).
    B, H, V, STEPS = 2, 3, 5, 4
    rng = np.random.default_rng(7)
    feat_v = rng.standard_normal((B, H)).astype(np.float32)
    emb_v = rng.standard_normal((V, H)).astype(np.float32)
    wh_v = (rng.standard_normal((H, H)) * 0.8).astype(np.float32)
    wo_v = (rng.standard_normal((H, V)) * 2.0).astype(np.float32)

    b = ProgramBuilder()
    feat = b.feed("feat", [B, H])
    Emb, Wh, Wo = (b.param(n, v) for n, v in (("emb", emb_v), ("wh", wh_v), ("wo", wo_v)))
    h = b.assign(feat)
    i = fill(b, "i", [1], "int64", 0)
    n = fill(b, "n", [1], "int64", STEPS)
    ids = b.write_to_array(fill(b, "start", [B, 1], "int64", 0), i)
    scores = b.write_to_array(fill(b, "score0", [B, 1], "float32", 0), i)
    cond = less_than(b, i, n)
    with b.while_loop(cond):
        prev = b.read_from_array(ids, i)
        emb = b.squeeze2(b.lookup_table_v2(Emb, prev), [1])
        h2 = b.act("tanh", b.elementwise("elementwise_add", b.matmul_v2(h, Wh), emb))
        logits = b.matmul_v2(h2, Wo)
        score = b._simple("reduce_max", b.softmax(logits, 1), {"dim": [1], "keep_dim": True, "reduce_all": False},
                          shape=[B, 1])
        tok = b.op("arg_max", {"X": [logits]}, {"Out": [b.tmp("arg_max", [B, 1], "int64")]},
                   {"axis": Long(1), "keepdims": True, "flatten": False, "dtype": 3})
        b.assign(h2, h)
        b.increment(i, out=i)
        b.write_to_array(tok, i, ids)
        b.write_to_array(score, i, scores)
        less_than(b, i, n, out=cond)
    ids_t, ids_index = b.tensor_array_to_tensor(ids, axis=1)
    b.fetch(ids_t)
    b.fetch(ids_index)
    b.fetch(b.tensor_array_to_tensor(scores, axis=1)[0])
    b.fetch(b.lod_array_length(ids))

    hv, tv = feat_v, np.zeros((B, 1), np.int64)
    toks, probs = [tv], [np.zeros((B, 1), np.float32)]
    for _ in range(STEPS):
        hv = np.tanh(hv @ wh_v + emb_v[tv[:, 0]]).astype(np.float32)
        lg = (hv @ wo_v).astype(np.float32)
        top2 = np.sort(lg, axis=1)[:, -2:]
        assert (top2[:, 1] - top2[:, 0] > 1e-2).all()   # no near ties: arg_max is stable
        e = np.exp(lg - lg.max(axis=1, keepdims=True))
        probs.append((e / e.sum(axis=1, keepdims=True)).max(axis=1, keepdims=True).astype(np.float32))
        tv = lg.argmax(axis=1).astype(np.int64)[:, None]
        toks.append(tv)
    want_ids = np.concatenate(toks, 1)
    assert len(set(want_ids[:, 1:].reshape(-1))) > 1      # the tokens do change
    got, ref = compile_run(tmp_path, b, [feat_v])
    check_all(got, ref, [want_ids, np.ones(STEPS + 1, np.int32), np.concatenate(probs, 1),
                         np.array([STEPS + 1], np.int64)])


# ------------------------------------------------------ run-time errors

def bad_index_program(tmp_path, make):
    """A saved program of x [2, 3] and a fed int64 [1] index `k` whose
    fetches `make(b, x, k)` returns; the compiled model and the reference."""
    b = ProgramBuilder()
    x = b.feed("x", [2, 3])
    k = b.feed("k", [1], "int64")
    for v in make(b, x, k):
        b.fetch(v)
    model = str(tmp_path / "m")
    b.save(model)
    return paddle_mlir.compile(model), reference.load(model)


def test_tensor_array_read_past_end(tmp_path):
    fn, ref = bad_index_program(tmp_path, lambda b, x, k: [b.read_from_array(two_element_array(b, x), k)])
    xv = np.random.default_rng(5).standard_normal((2, 3)).astype(np.float32)
    good = [xv, np.array([1], np.int64)]
    np.testing.assert_allclose(fn(*good)[0], xv * np.float32(2), rtol=1e-6)
    bad = [xv, np.array([5], np.int64)]
    with pytest.raises(Exception) as err:
        fn(*bad)
    assert "read_from_array" in str(err.value) and "outside" in str(err.value), str(err.value)
    with pytest.raises(ValueError, match="read_from_array.*outside"):
        ref.run(dict(zip(ref.input_names, bad)))
    np.testing.assert_allclose(fn(*good)[0], xv * np.float32(2), rtol=1e-6)   # still usable


def test_tensor_array_write_negative_index(tmp_path):
    fn, ref = bad_index_program(tmp_path, lambda b, x, k: [b.lod_array_length(b.write_to_array(x, k))])
    xv = np.random.default_rng(6).standard_normal((2, 3)).astype(np.float32)
    good = [xv, np.array([1], np.int64)]
    assert fn(*good)[0].tolist() == [2]
    bad = [xv, np.array([-1], np.int64)]
    with pytest.raises(Exception) as err:
        fn(*bad)
    assert "write_to_array" in str(err.value) and "negative" in str(err.value), str(err.value)
    with pytest.raises(ValueError, match="write_to_array.*negative"):
        ref.run(dict(zip(ref.input_names, bad)))


# ------------------------------------------------- the reference evaluator

def test_reference_tensor_array_ops():
    # The reference evaluator's array ops, without the compiler: a write
    # copies the array it updates, grows it with zeros, and checks the dims
    # after the first;
    # assign copies a whole array.
    ops = reference.OPS
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    i64 = lambda v: np.array([v], np.int64)   # noqa: E731
    arr = ops["write_to_array"]({"X": [x], "I": [i64(2)]}, {})["Out"][0]
    assert len(arr) == 3 and all(e.shape == (2, 3) and e.dtype == np.float32 for e in arr)
    assert not arr[0].any() and not arr[1].any()
    np.testing.assert_array_equal(arr[2], x)
    arr2 = ops["write_to_array"]({"X": [x + 1], "I": [np.array([0], np.int32)], "@array": [arr]}, {})["Out"][0]
    assert len(arr2) == 3 and not arr[0].any()          # the old list is untouched
    np.testing.assert_array_equal(arr2[0], x + 1)
    with pytest.raises(ValueError, match="negative"):
        ops["write_to_array"]({"X": [x], "I": [i64(-1)], "@array": [arr]}, {})
    with pytest.raises(ValueError, match="does not match"):
        ops["write_to_array"]({"X": [x[:, :2]], "I": [i64(0)], "@array": [arr]}, {})
    # Fewer rows are fine: Paddle's DynamicRNN memories shrink step by step.
    assert ops["write_to_array"]({"X": [x[:1]], "I": [i64(3)], "@array": [arr]}, {})["Out"][0][3].shape == (1, 3)
    np.testing.assert_array_equal(ops["read_from_array"]({"X": [arr2], "I": [i64(0)]}, {})["Out"], x + 1)
    with pytest.raises(ValueError, match="index 3 is outside the array's 3 elements"):
        ops["read_from_array"]({"X": [arr2], "I": [i64(3)]}, {})
    assert ops["lod_array_length"]({"X": [arr2]}, {})["Out"].tolist() == [3]
    res = ops["tensor_array_to_tensor"]({"X": [arr2]}, {"axis": -1, "use_stack": False})
    assert res["Out"].shape == (2, 9) and res["OutIndex"].tolist() == [3, 3, 3]
    assert res["OutIndex"].dtype == np.int32
    res = ops["tensor_array_to_tensor"]({"X": [arr2]}, {"axis": 0, "use_stack": True})
    assert res["Out"].shape == (3, 2, 3) and res["OutIndex"].tolist() == [2, 2, 2]
    copy = ops["assign"]({"X": [arr2]}, {})["Out"][0]
    assert isinstance(copy, list) and len(copy) == 3 and copy[0] is not arr2[0]


def test_tensor_array_created_empty_and_written_in_loop(tmp_path):
    # Fluid's create_array declares an array without a value; a While body
    # writes it, and it is read after the loop (outputs of a decoder). The
    # compiler carries it from an empty array, so zero iterations give an
    # empty array.
    rng = np.random.default_rng(11)
    x_v = rng.standard_normal((2, 4)).astype(np.float32)
    b = ProgramBuilder()
    x = b.feed("x", [2, 4])
    n = b.feed("n", [1], "int64")
    i = fill(b, "i", [1], "int64", 0)
    outs = b.array("outs", [2, 4])
    cond = less_than(b, i, n)
    with b.while_loop(cond):
        y = b.scale(x, 1.0, 0.0)
        step = b.cast(i, "float32")
        b.write_to_array(b.elementwise("elementwise_add", y, step), i, outs)
        b.increment(i, out=i)
        less_than(b, i, n, out=cond)
    b.fetch(b.lod_array_length(outs))
    b.fetch(b.tensor_array_to_tensor(outs, axis=0, use_stack=True)[0])
    model = str(tmp_path / "m")
    b.save(model)
    from test_random_unique_fpn import round_trips
    round_trips(model, tmp_path)
    compiled = paddle_mlir.compile(model)
    for steps in (3, 1):
        got = compiled(x_v, np.array([steps], np.int64))
        want = np.stack([x_v + k for k in range(steps)], 0)
        np.testing.assert_array_equal(got[0], np.array([steps], np.int64))
        np.testing.assert_allclose(got[1], want, rtol=1e-6)
    got = compiled(x_v, np.array([0], np.int64))
    np.testing.assert_array_equal(got[0], np.array([0], np.int64))
    assert got[1].shape[0] == 0


def test_tensor_array_created_empty_and_written_in_loop(tmp_path):
    # Fluid's create_array declares an array without a value; a While body
    # writes it, and it is read after the loop (outputs of a decoder). The
    # compiler carries it from an empty array, so zero iterations give an
    # empty array.
    rng = np.random.default_rng(11)
    x_v = rng.standard_normal((2, 4)).astype(np.float32)
    b = ProgramBuilder()
    x = b.feed("x", [2, 4])
    n = b.feed("n", [1], "int64")
    i = fill(b, "i", [1], "int64", 0)
    outs = b.array("outs", [2, 4])
    cond = less_than(b, i, n)
    with b.while_loop(cond):
        step = b.cast(i, "float32")
        b.write_to_array(b.elementwise("elementwise_add", x, step), i, outs)
        b.increment(i, out=i)
        less_than(b, i, n, out=cond)
    b.fetch(b.lod_array_length(outs))
    b.fetch(b.tensor_array_to_tensor(outs, axis=0, use_stack=True)[0])
    model = str(tmp_path / "m")
    b.save(model)
    round_trips(model, tmp_path)
    compiled = paddle_mlir.compile(model)
    for steps in (3, 1):
        got = compiled(x_v, np.array([steps], np.int64))
        want = np.stack([x_v + k for k in range(steps)], 0)
        np.testing.assert_array_equal(got[0], np.array([steps], np.int64))
        np.testing.assert_allclose(got[1], want, rtol=1e-6)
    got = compiled(x_v, np.array([0], np.int64))
    np.testing.assert_array_equal(got[0], np.array([0], np.int64))
    assert got[1].shape[0] == 0
