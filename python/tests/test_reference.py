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
