"""Fluid's DynamicRNN (issue 34, item 3): the program fluid.layers.DynamicRNN
writes around its while loop (lod_rank_table, max_sequence_len,
lod_tensor_to_array, reorder_lod_tensor_by_rank, shrink_rnn_memory,
array_to_lod_tensor), built here op by op as Fluid writes it. Compiled
output and the reference evaluator (which runs Paddle's shrinking arrays)
against a NumPy RNN written here sequence by sequence; each op on its own
against hand-worked values; the exporter's round trip; what is refused at
import, by name."""
import subprocess

import numpy as np
import pytest

from paddle_mlir import reference
from paddle_mlir.builder import ProgramBuilder
from test_random_unique_fpn import compile_run
from test_reductions import tool
from test_while import check_all, fill, less_than


def mul(b, x, w, width):
    return b.op("mul", {"X": [x], "Y": [w]}, {"Out": [b.tmp("mul", [-1, width])]},
                {"x_num_col_dims": 1, "y_num_col_dims": 1})


def batch_fill(b, like, width, value):
    return b.op("fill_constant_batch_size_like", {"Input": [like]},
                {"Out": [b.tmp("batch_fill", [-1, width])]},
                {"shape": [-1, width], "dtype": 5, "value": float(value), "str_value": "",
                 "input_dim_idx": 0, "output_dim_idx": 0, "force_cpu": False})


def dynamic_rnn(b, x, P, H, boot=None, static=None, attend=None):
    """h_t = tanh(x_t Wx + h_{t-1} Wh + b [+ s Ws] [+ c_t Wc]) over each
    sequence of LoD batch x, as DynamicRNN writes it: step_input(x),
    memory(init=boot, need_reorder=True) or memory(shape=[H], value=0),
    static_input(s), output(h). With `attend`, a LoD batch of E-wide rows
    with x's sequence count, c_t is attention over the sequence's rows:
    softmax over rows r of tanh(r + h_{t-1} Wp) Wa, the rows' weighted sum.
    Returns the packed outputs (x's LoD)."""
    step = fill(b, "step_idx", [1], "int64", 0)
    table = b.lod_rank_table(x)
    longest = b.max_sequence_len(table)
    cond = less_than(b, step, longest)
    inputs = b.lod_tensor_to_array(x, table)
    zero = fill(b, "zero_idx", [1], "int64", 0)
    if boot is None:
        init = batch_fill(b, b.read_from_array(inputs, zero), H, 0.0)
    else:
        init = b.reorder_lod_tensor_by_rank(boot, table)
    memories = b.write_to_array(init, zero)
    static_r = b.reorder_lod_tensor_by_rank(static, table) if static is not None else None
    attend_r = b.reorder_lod_tensor_by_rank(attend, table) if attend is not None else None
    outputs = b.array("dynamic_rnn_output", [-1, H])
    with b.while_loop(cond):
        x_t = b.read_from_array(inputs, step)
        h_prev = b.shrink_rnn_memory(b.read_from_array(memories, step), step, table)
        pre = b.elementwise("elementwise_add", mul(b, x_t, P["wx"], H), mul(b, h_prev, P["wh"], H))
        if static_r is not None:
            s_t = b.shrink_rnn_memory(static_r, step, table)
            pre = b.elementwise("elementwise_add", pre, mul(b, s_t, P["ws"], H))
        if attend_r is not None:
            E = attend.shape[1]
            enc_t = b.shrink_rnn_memory(attend_r, step, table)
            ex = b.op("sequence_expand", {"X": [mul(b, h_prev, P["wp"], E)], "Y": [enc_t]},
                      {"Out": [b.tmp("ex", [-1, E])]}, {"ref_level": -1})
            score = mul(b, b.act("tanh", b.elementwise("elementwise_add", enc_t, ex)), P["wa"], 1)
            att = b.op("sequence_softmax", {"X": [score]}, {"Out": [b.tmp("att", [-1, 1])]})
            ctx = b.tmp("ctx", [-1, E])
            b.op("sequence_pool", {"X": [b.elementwise("elementwise_mul", enc_t, att, axis=0)]},
                 {"Out": [ctx], "MaxIndex": [b.tmp("mi", [-1, E], "int32")]},
                 {"pooltype": "SUM", "is_test": True, "pad_value": 0.0})
            pre = b.elementwise("elementwise_add", pre, mul(b, ctx, P["wc"], H))
        h = b.act("tanh", b.elementwise("elementwise_add", pre, P["b"], axis=1))
        b.write_to_array(h, step, outputs)
        b.increment(step, out=step)
        b.write_to_array(h, step, memories)
        less_than(b, step, longest, out=cond)
    return b.array_to_lod_tensor(outputs, table)


def numpy_rnn(x, lengths, P, boot=None, static=None, attend=None):
    """The same RNN in float64, one sequence at a time; attend: (rows,
    their lengths)."""
    f = {k: v.astype(np.float64) for k, v in P.items()}
    H = f["wh"].shape[0]
    out, start = [], 0
    for i, n in enumerate(lengths):
        h = np.zeros(H) if boot is None else boot[i].astype(np.float64)
        if attend is not None:
            first = int(np.sum(attend[1][:i]))
            rows = attend[0][first:first + attend[1][i]].astype(np.float64)
        for t in range(n):
            pre = x[start + t] @ f["wx"] + h @ f["wh"] + f["b"]
            if static is not None:
                pre = pre + static[i] @ f["ws"]
            if attend is not None:
                a = np.tanh(rows + h @ f["wp"]) @ f["wa"]
                e = np.exp(a - a.max())
                pre = pre + (rows * (e / e.sum())).sum(0) @ f["wc"]
            h = np.tanh(pre)
            out.append(h)
        start += n
    return np.array(out, np.float32).reshape(-1, H)


def weights(rng, D, H, S=0):
    P = {"wx": rng.standard_normal((D, H)) * 0.7, "wh": rng.standard_normal((H, H)) * 0.7,
         "b": rng.standard_normal(H) * 0.3}
    if S:
        P["ws"] = rng.standard_normal((S, H)) * 0.7
    return {k: v.astype(np.float32) for k, v in P.items()}


def test_dynamic_rnn_with_boot_memory(tmp_path):
    # Lengths with ties (two 5s, kept in batch order) and a one-step
    # sequence; the memory starts from a fed [N, H] boot, reordered by rank.
    D, H = 3, 4
    lengths = np.array([3, 5, 1, 5], np.int64)
    rng = np.random.default_rng(7)
    P = weights(rng, D, H)
    x_v = rng.standard_normal((int(lengths.sum()), D)).astype(np.float32)
    boot_v = rng.standard_normal((len(lengths), H)).astype(np.float32)
    b = ProgramBuilder()
    x = b.feed("x", [-1, D], lod_level=1)
    boot = b.feed("boot", [-1, H])
    params = {k: b.param(k, v) for k, v in P.items()}
    b.fetch(dynamic_rnn(b, x, params, H, boot=boot))
    got, ref = compile_run(tmp_path, b, [x_v, lengths, boot_v])
    check_all(got, ref, [numpy_rnn(x_v, lengths, P, boot=boot_v)])


def test_dynamic_rnn_zero_memory_static_input_empty_sequence(tmp_path):
    # memory(shape=[H], value=0) (fill_constant_batch_size_like of step 0's
    # input), a static input per sequence, and an empty sequence, whose
    # output has no rows.
    D, H, S = 2, 3, 2
    lengths = np.array([2, 0, 4, 1], np.int64)
    rng = np.random.default_rng(8)
    P = weights(rng, D, H, S)
    x_v = rng.standard_normal((int(lengths.sum()), D)).astype(np.float32)
    s_v = rng.standard_normal((len(lengths), S)).astype(np.float32)
    b = ProgramBuilder()
    x = b.feed("x", [-1, D], lod_level=1)
    s = b.feed("s", [-1, S])
    params = {k: b.param(k, v) for k, v in P.items()}
    out = dynamic_rnn(b, x, params, H, static=s)
    # The output keeps x's sequences: a per-sequence sum reads them.
    pooled = b.tmp("pooled", [-1, H])
    b.op("sequence_pool", {"X": [out]}, {"Out": [pooled], "MaxIndex": [b.tmp("mi", [-1, H], "int32")]},
         {"pooltype": "SUM", "is_test": True, "pad_value": 0.0})
    b.fetch(out)
    b.fetch(pooled)
    want = numpy_rnn(x_v, lengths, P, static=s_v)
    starts = np.concatenate([[0], np.cumsum(lengths)])
    sums = np.array([want[starts[i]:starts[i + 1]].sum(0) for i in range(len(lengths))], np.float32)
    got, ref = compile_run(tmp_path, b, [x_v, lengths, s_v])
    check_all(got, ref, [want, sums])


def test_dynamic_rnn_attention_over_a_static_lod_input(tmp_path):
    # static_input(enc) of a LoD batch (an encoder's rows per sequence):
    # reorder_lod_tensor_by_rank moves whole sequences into rank order,
    # shrink_rnn_memory keeps those still running; each step attends over
    # its sequence's encoder rows (sequence_expand, sequence_softmax,
    # sequence_pool), as Fluid's attention decoders do.
    D, E, H = 2, 3, 4
    lengths = np.array([2, 4, 1, 3], np.int64)        # decoder steps per sequence
    enc_lengths = np.array([3, 1, 2, 2], np.int64)    # encoder rows per sequence
    rng = np.random.default_rng(9)
    P = weights(rng, D, H)
    P.update({"wp": rng.standard_normal((H, E)) * 0.7, "wa": rng.standard_normal((E, 1)),
              "wc": rng.standard_normal((E, H)) * 0.7})
    P = {k: v.astype(np.float32) for k, v in P.items()}
    x_v = rng.standard_normal((int(lengths.sum()), D)).astype(np.float32)
    enc_v = rng.standard_normal((int(enc_lengths.sum()), E)).astype(np.float32)
    b = ProgramBuilder()
    x = b.feed("x", [-1, D], lod_level=1)
    enc = b.feed("enc", [-1, E], lod_level=1)
    b.fetch(dynamic_rnn(b, x, {k: b.param(k, v) for k, v in P.items()}, H, attend=enc))
    want = numpy_rnn(x_v, lengths, P, attend=(enc_v, enc_lengths))
    got, ref = compile_run(tmp_path, b, [x_v, lengths, enc_v, enc_lengths])
    check_all(got, ref, [want])


def test_rank_table_ops_hand_worked(tmp_path):
    # Each op on its own, outside a loop. Lengths [2, 3, 0, 3]: the rank
    # table is (1, 3), (3, 3), (0, 2), (2, 0); step 1 of the array holds
    # row 1 of sequences 1, 3, 0 (rows 3, 6, 1 of x) and zeros for
    # sequence 2, which Paddle leaves out.
    lengths = np.array([2, 3, 0, 3], np.int64)
    x_v = np.arange(16, dtype=np.float32).reshape(8, 2)
    y_v = np.array([[10.], [11.], [12.], [13.]], np.float32)
    b = ProgramBuilder()
    x = b.feed("x", [-1, 2], lod_level=1)
    y = b.feed("y", [-1, 1])
    table = b.lod_rank_table(x)
    arr = b.lod_tensor_to_array(x, table)
    one = fill(b, "one", [1], "int64", 1)
    two = fill(b, "two", [1], "int64", 2)
    b.fetch(table)
    b.fetch(b.max_sequence_len(table))
    b.fetch(b.read_from_array(arr, one))
    b.fetch(b.lod_array_length(arr))
    b.fetch(b.array_to_lod_tensor(arr, table))
    b.fetch(b.reorder_lod_tensor_by_rank(y, table))
    b.fetch(b.shrink_rnn_memory(b.reorder_lod_tensor_by_rank(y, table), two, table))
    # x's own sequences in rank order: 1 (rows 2-4), 3 (5-7), 0 (0-1), 2
    # (none); at step 2 only the first two still run.
    xr = b.reorder_lod_tensor_by_rank(x, table)
    b.fetch(xr)
    b.fetch(b.shrink_rnn_memory(xr, two, table))
    model = str(tmp_path / "m")
    b.save(model)
    from test_random_unique_fpn import round_trips
    round_trips(model, tmp_path)
    import paddle_mlir
    got = paddle_mlir.compile(model)(x_v, lengths, y_v)
    ref = reference.load(model)
    want_ref = list(ref.run({"x": x_v, "x@lengths": lengths, "y": y_v}).values())
    table_v = np.array([[1, 3], [3, 3], [0, 2], [2, 0]], np.int64)
    common = [table_v, np.array([3], np.int64)]
    for g, w in zip(got[:2], common):
        np.testing.assert_array_equal(g, w)
    for r, w in zip(want_ref[:2], common):
        np.testing.assert_array_equal(r, w)
    # Step 1: all N rows here (zeros past an end), only the live ones in Paddle.
    np.testing.assert_array_equal(got[2], np.array([x_v[3], x_v[6], x_v[1], [0, 0]], np.float32))
    np.testing.assert_array_equal(want_ref[2], np.array([x_v[3], x_v[6], x_v[1]], np.float32))
    np.testing.assert_array_equal(got[3], np.array([3], np.int64))
    np.testing.assert_array_equal(want_ref[3], np.array([3], np.int64))
    np.testing.assert_array_equal(got[4], x_v)
    np.testing.assert_array_equal(want_ref[4], x_v)
    np.testing.assert_array_equal(got[5], y_v[[1, 3, 0, 2]])
    np.testing.assert_array_equal(want_ref[5], y_v[[1, 3, 0, 2]])
    # At step 2 only sequences 1 and 3 (length 3) still run.
    np.testing.assert_array_equal(got[6], np.array([[11.], [13.], [0.], [0.]], np.float32))
    np.testing.assert_array_equal(want_ref[6], np.array([[11.], [13.]], np.float32))
    xr = x_v[[2, 3, 4, 5, 6, 7, 0, 1]]
    np.testing.assert_array_equal(got[7], xr)
    np.testing.assert_array_equal(want_ref[7], xr)
    np.testing.assert_array_equal(got[8], np.concatenate([xr[:6], np.zeros((2, 2), np.float32)]))
    np.testing.assert_array_equal(want_ref[8], xr[:6])


def test_rank_table_var_type_round_trip(tmp_path):
    # The rank table is a LOD_RANK_TABLE variable (no tensor desc) in the
    # builder's file and in the exporter's, and lod_tensor_to_array's Out a
    # LOD_TENSOR_ARRAY.
    b = ProgramBuilder()
    x = b.feed("x", [-1, 2], lod_level=1)
    table = b.lod_rank_table(x)
    b.fetch(b.array_to_lod_tensor(b.lod_tensor_to_array(x, table), table))
    model = str(tmp_path / "m")
    b.save(model)
    subprocess.run([tool("paddle-translate"), "--import-paddle", model, "-o", str(tmp_path / "a.mlir")],
                   check=True)
    subprocess.run([tool("paddle-translate"), "--export-paddle", str(tmp_path / "a.mlir"), "-o",
                    str(tmp_path / "e")], check=True)
    prog = reference.load(str(tmp_path / "e")).program
    ops = {op.type: op for op in prog.blocks[0].ops}
    assert {"lod_rank_table", "lod_tensor_to_array", "array_to_lod_tensor"} <= set(ops)
    var = {v.name: v for v in prog.blocks[0].vars}
    t = var[ops["lod_rank_table"].outputs[0].arguments[0]]
    assert t.type.type == reference.fp.VarType.LOD_RANK_TABLE and not t.type.HasField("lod_tensor")
    a = var[ops["lod_tensor_to_array"].outputs[0].arguments[0]]
    assert a.type.type == reference.fp.VarType.LOD_TENSOR_ARRAY


def import_error(tmp_path, b):
    model = str(tmp_path / "m")
    b.save(model)
    p = subprocess.run([tool("paddle-translate"), "--import-paddle", model], capture_output=True, text=True)
    assert 0 < p.returncode < 128, p.stderr
    assert len([l for l in p.stderr.splitlines() if "error" in l]) == 1, p.stderr
    return p.stderr


def test_refused_forms_are_named(tmp_path):
    # A plain tensor to an array over time steps; a rank table of a 2-level
    # LoD.
    b = ProgramBuilder()
    x = b.feed("x", [-1, 2], lod_level=1)
    y = b.feed("y", [-1, 2])
    b.fetch(b.lod_array_length(b.lod_tensor_to_array(y, b.lod_rank_table(x))))
    err = import_error(tmp_path / "a", b)
    assert "'lod_tensor_to_array'" in err and "X has no LoD" in err, err

    b = ProgramBuilder()
    x = b.feed("x", [-1, 2], lod_level=1)
    offsets = b.feed("offsets", [-1], "int32")
    x2 = b.op("lod_reset", {"X": [x], "Y": [offsets]}, {"Out": [b.tmp("lod_reset", x.shape)]}, {"append": True})
    b.fetch(b.max_sequence_len(b.lod_rank_table(x2)))
    err = import_error(tmp_path / "c", b)
    assert "'lod_rank_table'" in err and "2 LoD levels" in err, err


def test_array_to_lod_tensor_short_array_is_a_run_time_error(tmp_path):
    # An array with fewer steps than the longest sequence: a clear error
    # from the run, not a read past the array.
    b = ProgramBuilder()
    x = b.feed("x", [-1, 2], lod_level=1)
    y = b.feed("y", [-1, 2])
    table = b.lod_rank_table(x)
    arr = b.write_to_array(y, fill(b, "zero", [1], "int64", 0))
    b.fetch(b.array_to_lod_tensor(arr, table))
    model = str(tmp_path / "m")
    b.save(model)
    import paddle_mlir
    m = paddle_mlir.compile(model)
    with pytest.raises(Exception, match="array_to_lod_tensor: the array has 1 elements but sequence 1 is 2 steps"):
        m(np.zeros((3, 2), np.float32), np.array([1, 2], np.int64), np.zeros((2, 2), np.float32))


def test_batches_that_do_not_fit_the_table_are_run_time_errors(tmp_path):
    # A LoD batch split by another batch's rank table (other sequence
    # lengths, so other rows), and another batch's sequences reordered by
    # it (another count): clear errors from the run.
    import paddle_mlir
    for k, what, want in ((0, "lod_tensor_to_array",
                           "lod_tensor_to_array: X has 4 rows but the rank table's sequences 3"),
                          (1, "reorder_lod_tensor_by_rank",
                           "reorder_lod_tensor_by_rank: X has 3 sequences of 4 rows")):
        b = ProgramBuilder()
        x = b.feed("x", [-1, 2], lod_level=1)
        y = b.feed("y", [-1, 2], lod_level=1)
        table = b.lod_rank_table(x)
        if what == "lod_tensor_to_array":
            b.fetch(b.lod_array_length(b.lod_tensor_to_array(y, table)))
        else:
            b.fetch(b.reorder_lod_tensor_by_rank(y, table))
        model = str(tmp_path / ("m%d" % k))
        b.save(model)
        m = paddle_mlir.compile(model)
        x_v, y_v = np.zeros((3, 2), np.float32), np.zeros((4, 2), np.float32)
        y_lengths = np.array([2, 2], np.int64) if k == 0 else np.array([1, 1, 2], np.int64)
        with pytest.raises(Exception, match=want):
            m(x_v, np.array([1, 2], np.int64), y_v, y_lengths)
