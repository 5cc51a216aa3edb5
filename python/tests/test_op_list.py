"""Every op of Paddle2ONNX's support list (issue 34), one program each: it
imports, exports to a program that imports to the same IR, compiles, runs,
and its outputs equal the reference evaluator's (python/paddle_mlir/
reference.py, NumPy written apart from the lowering) in shape, dtype and
value. The op table is op_list.py and op_list_nn.py;
test/Frontend/Paddle/op-list.test checks the same ops in one program."""
import subprocess

import numpy as np
import pytest

import paddle_mlir
from paddle_mlir import reference
from paddle_mlir.builder import ProgramBuilder
import op_list_nn  # noqa: F401  (registers the NN, detection and sequence cases)
from op_list import CASES, OP_TYPE, ROWS, Case, op_types
from test_reductions import round_trips, tool

# Ops whose float results the reference computes in a different order or
# precision than the kernels (sums over many terms, transcendental chains).
RTOL = {"logsumexp": 1e-5, "log_softmax": 1e-5, "p_norm": 1e-5, "dist": 1e-5, "norm": 1e-5, "softplus": 1e-5,
        "grid_sampler": 1e-4, "deformable_conv": 1e-4, "conv3d": 1e-4, "rnn": 1e-4, "lstm": 1e-4}


def test_the_list_is_paddle2onnx_s():
    # 179 rows naming 176 distinct ops (lookup_table, lookup_table_v2 and
    # logical_and appear twice), 173 op types once has_nan and pad1d are
    # folded into isnan and pad3d.
    assert len(ROWS) == 179 and len(set(ROWS)) == 176
    assert set(OP_TYPE) <= set(ROWS)
    assert len(op_types()) == 173


def test_every_op_type_has_a_case():
    missing = [t for t in op_types() if t not in CASES]
    assert missing == []


@pytest.mark.parametrize("op", op_types())
def test_op(tmp_path, op):
    if op not in CASES:
        pytest.fail("no case for %s in op_list.py" % op)
    b = ProgramBuilder()
    c = Case(b, op)
    CASES[op](c, op)
    model = str(tmp_path / "m")
    b.save(model)
    round_trips(model, tmp_path)
    got = paddle_mlir.compile(model)(return_dict=True, **c.inputs)
    want = reference.load(model).run(dict(c.inputs))
    assert list(got) == list(want)
    rtol = RTOL.get(op, 1e-6)
    for name, w in want.items():
        g, w = got[name], np.asarray(w)
        assert g.shape == w.shape and g.dtype == w.dtype, "%s: %s %s vs reference %s %s" % (
            name, g.shape, g.dtype, w.shape, w.dtype)
        if g.dtype.kind == "f":
            np.testing.assert_allclose(g, w, rtol=rtol, atol=rtol, err_msg=name)
        else:
            np.testing.assert_array_equal(g, w, err_msg=name)


# Paddle's strided_slice bounds on a negative stride (its kernel's rule, not
# Python's): an end of -1 runs through position 0, a bound still negative
# after adding the dim clamps to 0. Dim 5: (start, end, stride) -> positions.
NEGATIVE_STRIDES = [((-1, -1, -1), [4, 3, 2, 1, 0]), ((4, -6, -2), [4, 2]), ((-1, -100, -1), [4, 3, 2, 1]),
                    ((3, 0, -1), [3, 2, 1]), ((10, -3, -1), [4, 3]), ((-9, -1, -1), [0]),
                    ((2, -1, -2), [2, 0])]


@pytest.mark.parametrize("dynamic", [False, True])
def test_strided_slice_negative_strides_follow_paddle(tmp_path, dynamic):
    x = np.arange(15, dtype=np.float32).reshape(3, 5)
    b = ProgramBuilder()
    xv = b.feed("x", [-1, -1] if dynamic else [3, 5])
    for k, ((start, end, stride), _) in enumerate(NEGATIVE_STRIDES):
        if dynamic and end < -5:
            continue  # an end below -d needs the dim at compile time (docs/PaddleFrontend.md)
        b.fetch(b.op("strided_slice", {"Input": [xv]}, {"Out": [b.tmp("s%d" % k, [-1, -1])]},
                     {"axes": [1], "starts": [start], "ends": [end], "strides": [stride],
                      "infer_flags": [1], "decrease_axis": []}))
    model = str(tmp_path / "m")
    b.save(model)
    round_trips(model, tmp_path)
    got = paddle_mlir.compile(model)(x)
    ref = list(reference.load(model).run({"x": x}).values())
    wants = [x[:, pos] for (_, end, _), pos in NEGATIVE_STRIDES if not (dynamic and end < -5)]
    assert len(got) == len(wants) == len(ref)
    for g, r, w in zip(got, ref, wants):
        np.testing.assert_array_equal(g, w)
        np.testing.assert_array_equal(r, w)


@pytest.mark.parametrize("begin,shape", [(0, [2, 3, 4]), (1, [-1, 3, 4, 5]), (2, [-1, 3, 4, 5])])
def test_layer_norm_over_several_dims(tmp_path, begin, shape):
    """layer_norm normalizes dims begin_norm_axis.. together (Scale and Bias
    hold their product), also with a dynamic batch in front."""
    rng = np.random.default_rng(begin)
    x = rng.standard_normal([3 if d < 0 else d for d in shape]).astype(np.float32) * 2 + 0.5
    k = int(np.prod(x.shape[begin:]))
    scale, bias = rng.standard_normal(k).astype(np.float32), rng.standard_normal(k).astype(np.float32)
    b = ProgramBuilder()
    b.fetch(b.layer_norm(b.feed("x", shape), b.param("s", scale), b.param("b", bias), begin, epsilon=1e-5))
    model = str(tmp_path / "m")
    b.save(model)
    got = paddle_mlir.compile(model)(x)[0]
    rows = x.reshape(int(np.prod(x.shape[:begin])), k).astype(np.float64)
    norm = (rows - rows.mean(1, keepdims=True)) / np.sqrt(rows.var(1, keepdims=True) + 1e-5)
    np.testing.assert_allclose(got, (norm * scale + bias).reshape(x.shape), rtol=1e-5, atol=1e-5)


def test_fetching_an_output_kept_for_training_is_named(tmp_path):
    # layer_norm's Mean and Variance are outputs Paddle keeps for training;
    # pd does not compute them, and a program fetching one is refused with
    # the op and the slot named.
    b = ProgramBuilder()
    x = b.feed("x", [-1, 6])
    y, mean, var = b.tmp("y", [-1, 6]), b.tmp("mean", [-1]), b.tmp("var", [-1])
    b.op("layer_norm", {"X": [x], "Scale": [b.param("s", np.ones(6, np.float32))],
                        "Bias": [b.param("b", np.zeros(6, np.float32))]},
         {"Y": [y], "Mean": [mean], "Variance": [var]}, {"epsilon": 1e-5, "begin_norm_axis": 1})
    b.fetch(y)
    b.fetch(mean)
    b.save(str(tmp_path / "m"))
    p = subprocess.run([tool("paddle-translate"), "--import-paddle", str(tmp_path / "m")],
                       capture_output=True, text=True)
    assert p.returncode == 1
    assert ("fetch target 'mean_0.tmp_0' is output 'Mean' of op 'layer_norm' #1, which paddle-mlir "
            "does not compute") in p.stderr, p.stderr
