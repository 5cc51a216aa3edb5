"""The NumPy reference evaluator, checked against hand computations and
against PyTorch modules holding the same weights."""
import numpy as np
import pytest

from paddle_mlir import reference, zoo
from paddle_mlir.builder import ProgramBuilder


def run(builder, inputs, tmp_path):
    builder.save(str(tmp_path))
    return list(reference.load(str(tmp_path)).run(inputs).values())


def rel_err(a, b):
    return float(np.max(np.abs(a - b)) / max(np.max(np.abs(b)), 1e-5))


def test_conv_pool_by_hand(tmp_path):
    x = np.arange(16, dtype=np.float32).reshape(1, 1, 4, 4)
    w = np.array([[[[1, 0], [0, -1]]]], np.float32)
    b = ProgramBuilder()
    xv = b.feed("x", [1, 1, 4, 4])
    y = b.conv2d(xv, b.param("w", w), stride=2, padding=1)
    b.fetch(y)
    b.fetch(b.pool2d(xv, "avg", 3, stride=2, padding=1))
    conv, pool = run(b, {"x": x}, tmp_path)
    # Direct loops over the zero-padded input.
    xp = np.pad(x[0, 0], 1)
    want = np.array([[xp[i * 2, j * 2] - xp[i * 2 + 1, j * 2 + 1] for j in range(3)] for i in range(3)])
    np.testing.assert_array_equal(conv[0, 0], want)
    # exclusive average: padded cells are not counted
    assert pool[0, 0, 0, 0] == np.mean([0, 1, 4, 5])
    assert pool[0, 0, 1, 1] == np.mean(x[0, 0, 1:4, 1:4])


def test_elementwise_axis_and_mul(tmp_path):
    b = ProgramBuilder()
    xv = b.feed("x", [2, 3, 4])
    bias = b.param("bias", np.array([1, 2, 3], np.float32))
    b.fetch(b.elementwise("elementwise_add", xv, bias, axis=1))
    w = np.arange(12, dtype=np.float32).reshape(12, 1)
    b.fetch(b.op("mul", {"X": [xv], "Y": [b.param("w", w)]}, {"Out": [b.tmp("mul", [2, 1])]},
                 {"x_num_col_dims": 1, "y_num_col_dims": 1}))
    x = np.ones((2, 3, 4), np.float32)
    add, mul = run(b, {"x": x}, tmp_path)
    assert add[1, 2, 3] == 4 and add[0, 0, 0] == 2
    np.testing.assert_array_equal(mul, np.full((2, 1), 66, np.float32))


def op(name, ins, attrs):
    """One op of the reference run on its own."""
    return reference.OPS[name](ins, attrs)


def test_set_value_slices():
    x = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    # A negative step: start -1 is row 2, end -10 runs past row 0.
    out = op("set_value", {"Input": [x]}, {"axes": [1], "starts": [-1], "ends": [-10], "steps": [-2],
                                           "dtype": 5, "shape": [4], "fp32_values": [5, 6, 7, 8]})["Out"]
    want = x.copy()
    for r in (2, 0):
        want[:, r, :] = [5, 6, 7, 8]
    np.testing.assert_array_equal(out, want)
    assert x[0, 0, 0] == 0  # the input is left alone
    # A decreased axis: the value has the region's shape without it.
    v = np.array([[-1, -2, -3], [-4, -5, -6]], np.float32)
    out = op("set_value", {"Input": [x], "ValueTensor": [v], "StartsTensorList": [np.array([1], np.int64)]},
             {"axes": [2], "starts": [0], "ends": [2], "steps": [1], "decrease_axes": [2]})["Out"]
    want = x.copy()
    for i in range(2):
        for j in range(3):
            want[i, j, 1] = v[i, j]
    np.testing.assert_array_equal(out, want)


def test_index_put_mask_and_accumulate():
    x = np.zeros((3, 4), np.float32)
    mask = np.array([[1, 0, 0, 1], [0, 0, 0, 0], [0, 1, 0, 0]], bool)
    out = op("index_put", {"x": [x], "indices": [mask], "value": [np.array([9], np.float32)]},
             {"accumulate": False})["out"]
    want = np.zeros((3, 4), np.float32)
    want[0, 0] = want[0, 3] = want[2, 1] = 9
    np.testing.assert_array_equal(out, want)
    rows, cols = np.array([0, 2, 0], np.int64), np.array([1], np.int64)  # cols broadcast
    out = op("index_put", {"x": [x + 1], "indices": [rows, cols], "value": [np.array([2], np.float32)]},
             {"accumulate": True})["out"]
    want = np.ones((3, 4), np.float32)
    want[0, 1], want[2, 1] = 5, 3   # a repeated position adds twice
    np.testing.assert_array_equal(out, want)


def test_einsum_top_k_argsort():
    rng = np.random.RandomState(0)
    a, b = rng.rand(2, 3, 4, 5).astype(np.float32), rng.rand(2, 3, 6, 5).astype(np.float32)
    out = op("einsum", {"Operands": [a, b]}, {"equation": "bhmd,bhnd->bhmn"})["Out"]
    want = np.array([[[[sum(a[i, h, m, d] * b[i, h, n, d] for d in range(5)) for n in range(6)]
                       for m in range(4)] for h in range(3)] for i in range(2)])
    assert out.shape == (2, 3, 4, 6) and np.allclose(out, want, rtol=1e-5)
    x = np.array([[3, 1, 2], [1, 5, 1], [3, 0, 1]], np.float32)
    r = op("top_k_v2", {"X": [x], "K": [np.array([2], np.int32)]}, {"axis": 0, "k": 1, "largest": False})
    np.testing.assert_array_equal(r["Out"], [[1, 0, 1], [3, 1, 1]])
    np.testing.assert_array_equal(r["Indices"], [[1, 2, 1], [0, 0, 2]])  # equal values in index order
    assert r["Indices"].dtype == np.int64
    r = op("top_k_v2", {"X": [x]}, {"axis": -1, "k": 2, "largest": True})
    np.testing.assert_array_equal(r["Indices"], [[0, 2], [1, 0], [0, 2]])
    r = op("argsort", {"X": [x]}, {"axis": 1, "descending": True})
    np.testing.assert_array_equal(r["Indices"], [[0, 2, 1], [1, 0, 2], [0, 2, 1]])
    np.testing.assert_array_equal(r["Out"], [[3, 2, 1], [5, 1, 1], [3, 1, 0]])


def test_tril_triu_mod_floordiv():
    x = np.arange(1, 13, dtype=np.float32).reshape(3, 4)
    low = op("tril_triu", {"X": [x]}, {"lower": True, "diagonal": -1})["Out"]
    up = op("tril_triu", {"X": [x]}, {"lower": False, "diagonal": 1})["Out"]
    for i in range(3):
        for j in range(4):
            assert low[i, j] == (x[i, j] if j <= i - 1 else 0)
            assert up[i, j] == (x[i, j] if j >= i + 1 else 0)
    a, b = np.array([7, -7, 7, -7, 6], np.int64), np.array([3, 3, -3, -3, 3], np.int64)
    mod = op("elementwise_mod", {"X": [a], "Y": [b]}, {"axis": -1})["Out"]
    div = op("elementwise_floordiv", {"X": [a], "Y": [b]}, {"axis": -1})["Out"]
    np.testing.assert_array_equal(mod, [1, 2, -2, -1, 0])   # the divisor's sign
    np.testing.assert_array_equal(div, [2, -3, -3, 2, 2])
    fm = op("elementwise_mod", {"X": [np.array([-5.5], np.float32)], "Y": [np.array([2], np.float32)]}, {})
    assert fm["Out"][0] == 0.5


def test_take_along_axis_gather_range():
    x = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    idx = np.array([[[2, 0, 1, 2]], [[1, 1, 0, 0]]], np.int64)          # [2, 1, 4]
    out = op("take_along_axis", {"Input": [x], "Index": [idx]}, {"Axis": 1})["Result"]
    want = np.array([[[x[i, idx[i, 0, k], k] for k in range(4)]] for i in range(2)])
    np.testing.assert_array_equal(out, want)
    sel = np.array([2, 0], np.int64)
    out = op("gather", {"X": [x], "Index": [sel]}, {"axis": 1})["Out"]
    np.testing.assert_array_equal(out, np.stack([x[:, 2], x[:, 0]], axis=1))
    out = op("gather", {"X": [x], "Index": [sel], "Axis": [np.array([2], np.int32)]}, {"axis": 0})["Out"]
    np.testing.assert_array_equal(out, np.stack([x[:, :, 2], x[:, :, 0]], axis=2))
    nd = op("gather_nd", {"X": [x], "Index": [np.array([[1, 2], [0, 0]], np.int64)]}, {})["Out"]
    np.testing.assert_array_equal(nd, np.stack([x[1, 2], x[0, 0]]))
    r = op("range", {"Start": [np.array([1], np.int64)], "End": [np.array([-6], np.int64)],
                     "Step": [np.array([-3], np.int64)]}, {})["Out"]
    assert r.dtype == np.int64 and list(r) == [1, -2, -5]
    r = op("range", {"Start": [np.array([0], np.float32)], "End": [np.array([1], np.float32)],
                     "Step": [np.array([0.25], np.float32)]}, {})["Out"]
    assert r.dtype == np.float32 and list(r) == [0, 0.25, 0.5, 0.75]


torch = pytest.importorskip("torch")


def check_torch(builder, module, feeds, tmp_path):
    """The reference evaluator on `builder`'s program matches `module` called
    with the feeds in order."""
    (ours,) = run(builder, feeds, tmp_path)
    with torch.no_grad():
        want = module(*[torch.from_numpy(v) for v in feeds.values()]).numpy()
    assert rel_err(ours, want) < 1e-4


def test_resnet50_matches_torchvision(tmp_path):
    b, m = zoo.resnet50(seed=1)
    x = np.random.RandomState(0).rand(1, 3, 224, 224).astype(np.float32)
    check_torch(b, m, {"image": x}, tmp_path)


def test_mobilenet_v2_matches_torchvision(tmp_path):
    b, m = zoo.mobilenet_v2(seed=2)
    x = np.random.RandomState(1).rand(2, 3, 224, 224).astype(np.float32)
    check_torch(b, m, {"image": x}, tmp_path)


def test_bert_matches_torch(tmp_path):
    b, m = zoo.bert_base(seed=3, layers=2)
    rng = np.random.RandomState(2)
    ids = rng.randint(1, 30522, size=(2, 16)).astype(np.int64)
    ids[1, 12:] = 0  # padding, masked out
    types = (rng.rand(2, 16) > 0.5).astype(np.int64)
    check_torch(b, m, {"input_ids": ids, "token_type_ids": types}, tmp_path)


def test_bert_classifier_head_matches_torch(tmp_path):
    # classes=: a linear classifier on the first position (the train-step
    # benchmark's head); the output is [B, classes].
    b, m = zoo.bert_base(seed=3, layers=1, classes=3)
    rng = np.random.RandomState(5)
    ids = rng.randint(1, 30522, size=(2, 16)).astype(np.int64)
    types = (rng.rand(2, 16) > 0.5).astype(np.int64)
    assert b.fetches[0].shape[-1] == 3
    check_torch(b, m, {"input_ids": ids, "token_type_ids": types}, tmp_path)


def test_ocr_matches_torch(tmp_path):
    b, m = zoo.ocr_rec(seed=4)
    x = np.random.RandomState(3).rand(2, 3, 32, 96).astype(np.float32)
    check_torch(b, m, {"x": x}, tmp_path)


def test_ctr_matches_torch(tmp_path):
    b, m = zoo.ctr_dnn(seed=5)
    rng = np.random.RandomState(4)
    feeds = {"C%d" % (i + 1): rng.randint(0, 1000, (3, 1)).astype(np.int64) for i in range(26)}
    feeds["dense_input"] = rng.rand(3, 13).astype(np.float32)
    check_torch(b, m, feeds, tmp_path)
