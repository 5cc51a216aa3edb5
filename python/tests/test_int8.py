"""--precision int8 on fake-quantized (QAT-style) programs (issue 19): the
program's own scales drive int8 kernels; the result matches a NumPy
simulation of the same quantization written here, and the manifest says
which ops ran in int8."""
import json
import os
import subprocess

import numpy as np
import pytest

import paddle_mlir
from paddle_mlir import reference
from paddle_mlir.builder import ProgramBuilder

BUILD = os.environ.get("PADDLE_MLIR_BUILD_DIR",
                       os.path.join(os.path.dirname(__file__), "..", "..", "build"))


def tool(name):
    return os.path.join(BUILD, "bin", name)


def qdq(x, t):
    """Paddle's 8-bit abs-max quantize-dequantize with threshold t (round half
    away from zero)."""
    v = np.clip(x, -t, t) * 127.0 / t
    return np.sign(v) * np.floor(np.abs(v) + 0.5) * t / 127.0


def qdq_channels(w, axis):
    """Per-channel abs-max quantize-dequantize along `axis`."""
    amax = np.abs(w).max(axis=tuple(i for i in range(w.ndim) if i != axis), keepdims=True)
    return qdq(w, amax)


def paddle_int(v, t):
    """The integers of Paddle's abs-max quantizer with threshold t (clip,
    then round half away from zero), as Fluid's frozen programs compute on."""
    v = np.clip(v, -t, t) * 127 / t
    return np.sign(v) * np.floor(np.abs(v) + 0.5)


def abs_max_int_weight(rng, shape, axis, dtype=np.int8):
    """Random integer weights in [-127, 127] of which each output channel
    (along `axis`) reaches 127 in magnitude, as abs-max quantization leaves
    them, so the int8 grid pd-quantize picks is the model's."""
    w = rng.randint(-126, 127, shape)
    idx = [0] * len(shape)
    for c in range(shape[axis]):
        idx[axis] = c
        w[tuple(idx)] = 127 if c % 2 else -127
    return w.astype(dtype)


def fp32_and_int8(path, data, want):
    """Checks the fp32 artifact of `path` against `want` (it simulates the
    program's quantization) and returns the int8 artifact's output on `data`
    and its manifest's compute ops."""
    np.testing.assert_allclose(paddle_mlir.compile(path)(data)[0], want, rtol=1e-4, atol=1e-4)
    int8 = paddle_mlir.compile(path, precision="int8")
    return int8(data)[0], manifest(int8)["compute_ops"]["ops"]


def conv(x, w, stride=1, pad=0, groups=1):
    n, c, h, wd = x.shape
    o, cg, kh, kw = w.shape
    xp = np.pad(x, ((0, 0), (0, 0), (pad, pad), (pad, pad)))
    oh, ow = (h + 2 * pad - kh) // stride + 1, (wd + 2 * pad - kw) // stride + 1
    out = np.zeros((n, o, oh, ow))
    og = o // groups
    for g in range(groups):
        xs = xp[:, g * cg:(g + 1) * cg]
        for i in range(oh):
            for j in range(ow):
                patch = xs[:, :, i * stride:i * stride + kh, j * stride:j * stride + kw]
                out[:, g * og:(g + 1) * og, i, j] = np.einsum("nchw,ochw->no", patch,
                                                              w[g * og:(g + 1) * og])
    return out


def fake_quant(b, x, t, name):
    s = b.param(name, np.array([t], np.float32))
    out, os_ = b.tmp("qdq", x.shape), b.tmp("qdq_scale", [1])
    b.op("fake_quantize_dequantize_moving_average_abs_max", {"X": [x], "InScale": [s]},
         {"Out": [out], "OutScale": [os_]},
         {"bit_length": 8, "is_test": True, "moving_rate": 0.9, "round_type": 1})
    return out


def weight_quant(b, w, axis):
    out, s = b.tmp("wq", w.shape), b.tmp("wq_scale", [w.shape[axis]])
    b.op("fake_channel_wise_quantize_dequantize_abs_max", {"X": [w]}, {"Out": [out], "OutScale": [s]},
         {"bit_length": 8, "quant_axis": axis, "round_type": 1, "is_test": True})
    return out


class Qat:
    """A small CNN as PaddleSlim's QAT leaves it: fake quantizers on every
    conv / matmul input and weight. conv(3->8) + batch_norm + relu, conv(8->8,
    stride 2) + bias + relu, depthwise conv + relu, global average pool,
    flatten, matmul_v2 + bias."""

    def __init__(self, seed=0, outlier=None):
        rng = np.random.RandomState(seed)
        self.w1 = (rng.standard_normal((8, 3, 3, 3)) * 0.3).astype(np.float32)
        self.gamma = rng.uniform(0.5, 1.5, 8).astype(np.float32)
        self.beta = rng.uniform(-0.2, 0.2, 8).astype(np.float32)
        self.mean = rng.uniform(-0.1, 0.1, 8).astype(np.float32)
        self.var = rng.uniform(0.5, 1.5, 8).astype(np.float32)
        self.w2 = (rng.standard_normal((8, 8, 3, 3)) * 0.2).astype(np.float32)
        self.b2 = rng.uniform(-0.1, 0.1, 8).astype(np.float32)
        self.w3 = (rng.standard_normal((8, 1, 3, 3)) * 0.4).astype(np.float32)
        self.wfc = (rng.standard_normal((8, 10)) * 0.5).astype(np.float32)
        self.bfc = rng.uniform(-0.1, 0.1, 10).astype(np.float32)
        self.x = rng.standard_normal((4, 3, 12, 12)).astype(np.float32)
        # Thresholds as QAT's moving average leaves them: a bit below the
        # observed maxima, so some values clip.
        _, acts = self.forward(self.x, None)
        self.t = [float(np.abs(a).max()) * 0.9 for a in acts]

    def forward(self, x, t):
        """The float program (t None: no quantization, returns the inputs of
        each quantizer) or its quantization simulation."""
        q = (lambda v, i: v) if t is None else (lambda v, i: qdq(v, t[i]))
        w = (lambda v, a: v) if t is None else qdq_channels
        acts = []
        a = x
        acts.append(a)
        y = conv(q(a, 0), w(self.w1, 0), pad=1)
        inv = (self.gamma / np.sqrt(self.var + 1e-5)).reshape(1, 8, 1, 1)
        y = np.maximum((y - self.mean.reshape(1, 8, 1, 1)) * inv + self.beta.reshape(1, 8, 1, 1), 0)
        acts.append(y)
        y = np.maximum(conv(q(y, 1), w(self.w2, 0), stride=2, pad=1) + self.b2.reshape(1, 8, 1, 1), 0)
        acts.append(y)
        y = np.maximum(conv(q(y, 2), w(self.w3, 0), pad=1, groups=8), 0)
        y = y.mean(axis=(2, 3))
        acts.append(y)
        y = q(y, 3) @ w(self.wfc, 1) + self.bfc
        return y, acts

    def save(self, path, feed_shape=(-1, 3, 12, 12), matmul_v1=False):
        b = ProgramBuilder()
        x = b.feed("x", list(feed_shape))
        y = b.conv2d(fake_quant(b, x, self.t[0], "s0"), weight_quant(b, b.param("w1", self.w1), 0),
                     padding=1)
        y = b.relu(b.batch_norm(y, b.param("gamma", self.gamma), b.param("beta", self.beta),
                                b.param("mean", self.mean), b.param("var", self.var)))
        y = b.conv2d(fake_quant(b, y, self.t[1], "s1"), weight_quant(b, b.param("w2", self.w2), 0),
                     stride=2, padding=1)
        y = b.relu(b.elementwise("elementwise_add", y, b.param("b2", self.b2), axis=1))
        y = b.conv2d(fake_quant(b, y, self.t[2], "s2"), weight_quant(b, b.param("w3", self.w3), 0),
                     padding=1, groups=8, depthwise=True)
        y = b.relu(y)
        y = b.pool2d(y, "avg", 1, global_pooling=True)
        y = b.flatten(y, 1, 3)
        xq, wq = fake_quant(b, y, self.t[3], "s3"), weight_quant(b, b.param("wfc", self.wfc), 1)
        if matmul_v1:  # Paddle 1.x's matmul, then the bias
            y = b.tmp("matmul", [-1, 10])
            b.op("matmul", {"X": [xq], "Y": [wq]}, {"Out": [y]},
                 {"transpose_X": False, "transpose_Y": False, "alpha": 1.0})
            y = b.elementwise("elementwise_add", y, b.param("bfc", self.bfc))
        else:
            y = b.linear(xq, wq, b.param("bfc", self.bfc))
        b.fetch(y)
        b.save(str(path))
        return str(path)


def manifest(model):
    with open(os.path.join(model.artifact_dir, "manifest.json")) as f:
        return json.load(f)


def test_qat_program_runs_on_int8_kernels(tmp_path):
    m = Qat()
    path = m.save(tmp_path / "qat")
    int8 = paddle_mlir.compile(path, precision="int8")
    got = int8(m.x)[0]
    sim, _ = m.forward(m.x.astype(np.float64), m.t)

    man = manifest(int8)
    ops = man["compute_ops"]
    assert man["compute_ops"]["requested"] == "int8"
    assert [r["precision"] for r in ops["ops"]] == ["int8"] * 4, ops
    assert [r["op"] for r in ops["ops"]] == ["fused_conv2d", "fused_conv2d", "depthwise_conv2d",
                                             "fc"]
    # The activation scales are the program's thresholds over 127.
    for r, t in zip(ops["ops"], m.t):
        assert r["input"]["dtype"] == "int8"
        assert r["input"]["scale"] == pytest.approx(t / 127, rel=1e-6)
    # Consecutive quantized convs hand int8 to each other; the last conv's
    # result goes through pooling, so it stays float.
    assert ops["ops"][0]["output"] == {"dtype": "int8", "scale": pytest.approx(m.t[1] / 127)}
    assert ops["ops"][1]["output"] == {"dtype": "int8", "scale": pytest.approx(m.t[2] / 127)}
    assert ops["ops"][2]["output"] == {"dtype": "float32"}
    calls = man["kernels"]["calls"]
    assert calls.get("pd.quantized_conv2d -> pdk_qconv2d") == 3, calls
    assert calls.get("pd.quantized_fc -> pdk_qmatmul") == 1, calls
    # Weights are stored as int8 (4x smaller than the float ones).
    assert {w["dtype"] for w in man["weights"]} >= {"int8"}

    # Within one quantization step of the simulation: the kernels compute the
    # same integers except where a value lies on a rounding boundary (ties
    # round to even, float error in the simulation), where one level of the
    # last quantizer moves the logits by at most t3/127 * max|w[:, n]|.
    step = m.t[3] / 127 * np.abs(qdq_channels(m.wfc, 1)).max(axis=0)
    err = np.abs(got - sim)
    assert (err <= step + 1e-5).all(), (err.max(), step)
    assert np.mean(err) < 0.2 * step.mean()
    # The fp32 artifact of the same program simulates the quantization.
    fp32 = paddle_mlir.compile(path)(m.x)[0]
    np.testing.assert_allclose(fp32, sim, rtol=1e-4, atol=1e-4)


def check_against_simulation(int8, fp32, forward, t, step, shapes, rng):
    """For random inputs of each shape: the fp32 artifact (when given)
    computes the quantization simulation `forward` with thresholds `t`, and
    the int8 one is within one `step` of the last quantizer of it everywhere
    and within a tenth of a step on average (the kernels compute the same
    integers but for values on a rounding boundary)."""
    for shape in shapes:
        xs = rng.standard_normal(shape).astype(np.float32)
        sim = forward(xs.astype(np.float64), lambda v, i: qdq(v, t[i]))
        if fp32 is not None:
            np.testing.assert_allclose(fp32(xs)[0], sim, rtol=1e-4, atol=1e-4)
        err = np.abs(int8(xs)[0] - sim)
        assert (err <= step + 1e-5).all(), (shape, err.max())
        assert err.mean() < 0.1 * step.mean(), (shape, err.mean())


def maxpool3s2(x):
    """3x3 max pooling, stride 2, padding 1 (padding never wins)."""
    n, c, h, w = x.shape
    xp = np.pad(x, ((0, 0), (0, 0), (1, 1), (1, 1)), constant_values=-np.inf)
    oh, ow = (h - 1) // 2 + 1, (w - 1) // 2 + 1
    out = np.empty((n, c, oh, ow))
    for i in range(oh):
        for j in range(ow):
            out[:, :, i, j] = xp[:, :, 2 * i:2 * i + 3, 2 * j:2 * j + 3].max(axis=(2, 3))
    return out


@pytest.mark.parametrize("feed", [[2, 3, 16, 16], [-1, 3, -1, -1]], ids=["static", "dynamic"])
def test_residual_block_between_int8_kernels(tmp_path, feed):
    # ResNet's shape: a stem conv, max pooling, then a block whose last conv
    # adds the pooled tensor (fused as its residual) before the relu, then a
    # quantizer for the next conv. Between the int8 kernels the activations
    # stay channels last (pd-kernel-layouts: through the pooling kernel and
    # the quantizers), which must not change a value: the result is checked
    # against the simulation (with a dynamic image size, at two sizes; the
    # pooling is then generated code, and the stem's result stays plain).
    rng = np.random.RandomState(7)
    w0 = (rng.standard_normal((8, 3, 3, 3)) * 0.3).astype(np.float32)
    w1 = (rng.standard_normal((8, 8, 3, 3)) * 0.2).astype(np.float32)
    w2 = (rng.standard_normal((8, 8, 1, 1)) * 0.3).astype(np.float32)
    w3 = (rng.standard_normal((4, 8, 1, 1)) * 0.3).astype(np.float32)
    bias = [rng.uniform(-0.2, 0.2, 8).astype(np.float32) for _ in range(3)]
    t = [2.5, 2.0, 1.5, 3.0]

    def forward(x, q):
        def cb(v, w, i, pad=0):
            return conv(v, qdq_channels(w, 0), pad=pad) + bias[i].reshape(1, 8, 1, 1)
        y0 = np.maximum(cb(q(x, 0), w0, 0, pad=1), 0)
        p = maxpool3s2(y0)
        y1 = np.maximum(cb(q(p, 1), w1, 1, pad=1), 0)
        y2 = np.maximum(cb(q(y1, 2), w2, 2) + p, 0)
        return conv(q(y2, 3), qdq_channels(w3, 0))

    b = ProgramBuilder()

    def conv_bias(v, w, i, t_i, pad=0):
        y = b.conv2d(fake_quant(b, v, t_i, "s%d" % i), weight_quant(b, b.param("w%d" % i, w), 0),
                     padding=pad)
        return b.elementwise("elementwise_add", y, b.param("b%d" % i, bias[i]), axis=1)

    x = b.feed("x", feed)
    y0 = b.relu(conv_bias(x, w0, 0, t[0], pad=1))
    p = b.pool2d(y0, "max", 3, stride=2, padding=1)
    y1 = b.relu(conv_bias(p, w1, 1, t[1], pad=1))
    y2 = b.relu(b.elementwise("elementwise_add", conv_bias(y1, w2, 2, t[2]), p))
    b.fetch(b.conv2d(fake_quant(b, y2, t[3], "s3"), weight_quant(b, b.param("w3", w3), 0)))
    path = str(tmp_path / "block")
    b.save(path)
    int8 = paddle_mlir.compile(path, precision="int8")
    ops = manifest(int8)["compute_ops"]["ops"]
    assert [r["precision"] for r in ops] == ["int8"] * 4, ops
    assert ops[1]["output"]["dtype"] == "int8", ops  # straight into the next conv
    assert ops[2]["output"] == {"dtype": "float32"}, ops  # the residual add's sum
    fp32 = paddle_mlir.compile(path)
    # One level of the last quantizer moves an output by at most
    # t3/127 * sum |w3[o]| (the 1x1 conv over 8 channels).
    step = t[3] / 127 * np.abs(qdq_channels(w3, 0)).sum(axis=(1, 2, 3)).reshape(1, 4, 1, 1)
    check_against_simulation(int8, fp32, forward, t, step,
                             [(2, 3, 16, 16)] + ([(1, 3, 11, 14)] if feed[2] < 0 else []), rng)


def test_qat_residual_add_of_int8_tensors(tmp_path):
    # A QAT ResNet block as Paddle's quantization pass writes it: fake
    # quantizers on both inputs of the residual add (the block input's
    # quantizer shared with the conv that reads it). The quantizers become
    # int8 tensors the convs write (the block's last conv and the one before
    # the block), the add reads two int8 tensors and, with the relu and the
    # next conv's quantizer, writes int8; everything between the int8
    # kernels stays channels last (a map of two channels-last tensors is).
    # The block's last conv takes the shortcut as its int8 residual and
    # writes the add's requantized result itself, so its own output
    # quantizer (t[3]) drops out, as in Paddle Inference's int8 passes: the
    # int8 artifact computes relu(y + q(r)), the fp32 one the program's
    # relu(q(y) + q(r)) (t[3] clips some of y here). Checked against the
    # simulation at two batch sizes.
    rng = np.random.RandomState(11)
    w = [(rng.standard_normal(s) * 0.3).astype(np.float32)
         for s in [(8, 3, 3, 3), (8, 8, 3, 3), (8, 8, 1, 1), (4, 8, 1, 1)]]
    bias = [rng.uniform(-0.2, 0.2, 8).astype(np.float32) for _ in range(3)]
    t = [2.5, 2.0, 1.5, 1.8, 3.0]  # x, r, a, y (the add's conv input), the add's output

    def forward(x, q, fused=False):
        def cb(v, i, pad=0):
            return conv(v, qdq_channels(w[i], 0), pad=pad) + bias[i].reshape(1, 8, 1, 1)
        r = np.maximum(cb(q(x, 0), 0, pad=1), 0)
        a = np.maximum(cb(q(r, 1), 1, pad=1), 0)
        y = cb(q(a, 2), 2)
        z = np.maximum((y if fused else q(y, 3)) + q(r, 1), 0)
        return conv(q(z, 4), qdq_channels(w[3], 0))

    b = ProgramBuilder()

    def conv_bias(v, i, pad=0):
        y = b.conv2d(v, weight_quant(b, b.param("w%d" % i, w[i]), 0), padding=pad)
        return b.elementwise("elementwise_add", y, b.param("b%d" % i, bias[i]), axis=1)

    x = b.feed("x", [-1, 3, 10, 10])
    r = b.relu(conv_bias(fake_quant(b, x, t[0], "s0"), 0, pad=1))
    rq = fake_quant(b, r, t[1], "s1")
    a = b.relu(conv_bias(rq, 1, pad=1))
    y = conv_bias(fake_quant(b, a, t[2], "s2"), 2)
    z = b.relu(b.elementwise("elementwise_add", fake_quant(b, y, t[3], "s3"), rq))
    b.fetch(b.conv2d(fake_quant(b, z, t[4], "s4"), weight_quant(b, b.param("w3", w[3]), 0)))
    path = str(tmp_path / "qat_block")
    b.save(path)
    int8 = paddle_mlir.compile(path, precision="int8")
    ops = manifest(int8)["compute_ops"]["ops"]
    assert [r_["precision"] for r_ in ops] == ["int8"] * 4, ops
    assert [r_["output"]["dtype"] for r_ in ops] == ["int8", "int8", "int8", "float32"], ops
    # The add and the relu are the conv's residual and activation.
    assert ops[2]["residual"] == {"dtype": "int8", "scale": np.float32(t[1] / 127)}, ops
    fp32 = paddle_mlir.compile(path)
    xs = rng.standard_normal((2, 3, 10, 10)).astype(np.float32)
    np.testing.assert_allclose(fp32(xs)[0], forward(xs.astype(np.float64), lambda v, i: qdq(v, t[i])),
                               rtol=1e-4, atol=1e-4)
    step = t[4] / 127 * np.abs(qdq_channels(w[3], 0)).sum(axis=(1, 2, 3)).reshape(1, 4, 1, 1)
    check_against_simulation(int8, None, lambda x, q: forward(x, q, fused=True), t, step,
                             [(1, 3, 10, 10), (3, 3, 10, 10)], rng)


def test_concat_and_flatten_between_int8_kernels(tmp_path):
    # Two conv branches concatenated, then a conv, a flatten and the
    # classifier, fake-quantized before each compute op: quantizing after a
    # concat or a flatten is quantizing before it, so the branch convs and
    # the conv before the flatten write int8 and the concat and flatten
    # move int8 data. Checked against the simulation.
    rng = np.random.RandomState(13)
    wa = (rng.standard_normal((4, 3, 3, 3)) * 0.3).astype(np.float32)
    wb = (rng.standard_normal((4, 3, 1, 1)) * 0.5).astype(np.float32)
    wc = (rng.standard_normal((8, 8, 3, 3)) * 0.2).astype(np.float32)
    wfc = (rng.standard_normal((200, 10)) * 0.1).astype(np.float32)
    bias = [rng.uniform(-0.2, 0.2, n).astype(np.float32) for n in (4, 4, 8)]
    bfc = rng.uniform(-0.1, 0.1, 10).astype(np.float32)
    t = [2.5, 2.0, 1.5]

    def forward(x, q):
        xq = q(x, 0)
        a = np.maximum(conv(xq, qdq_channels(wa, 0), pad=1) + bias[0].reshape(1, 4, 1, 1), 0)
        c0 = np.maximum(conv(xq, qdq_channels(wb, 0)) + bias[1].reshape(1, 4, 1, 1), 0)
        cat = np.concatenate([a, c0], axis=1)
        y = np.maximum(conv(q(cat, 1), qdq_channels(wc, 0), stride=2, pad=1) +
                       bias[2].reshape(1, 8, 1, 1), 0)
        return q(y.reshape(len(x), -1), 2) @ qdq_channels(wfc, 1) + bfc

    b = ProgramBuilder()

    def conv_bias(v, w, i, **kw):
        y = b.conv2d(v, weight_quant(b, b.param("w%d" % i, w), 0), **kw)
        return b.relu(b.elementwise("elementwise_add", y, b.param("b%d" % i, bias[i]), axis=1))

    x = b.feed("x", [-1, 3, 10, 10])
    xq = fake_quant(b, x, t[0], "s0")
    cat = b.concat([conv_bias(xq, wa, 0, padding=1), conv_bias(xq, wb, 1)], 1)
    y = conv_bias(fake_quant(b, cat, t[1], "s1"), wc, 2, stride=2, padding=1)
    y = fake_quant(b, b.flatten(y, 1, 3), t[2], "s2")
    b.fetch(b.linear(y, weight_quant(b, b.param("wfc", wfc), 1), b.param("bfc", bfc)))
    path = str(tmp_path / "concat")
    b.save(path)
    int8 = paddle_mlir.compile(path, precision="int8")
    ops = manifest(int8)["compute_ops"]["ops"]
    assert [r["precision"] for r in ops] == ["int8"] * 4, ops
    assert [r["output"]["dtype"] for r in ops] == ["int8", "int8", "int8", "float32"], ops
    step = t[2] / 127 * np.abs(qdq_channels(wfc, 1)).max(axis=0)
    check_against_simulation(int8, None, forward, t, step, [(1, 3, 10, 10), (2, 3, 10, 10)], rng)


def test_qat_program_with_dynamic_image_size_and_matmul_v1(tmp_path):
    # The same CNN with the image's height and width left dynamic (OCR
    # recognizers take any width) and the classifier a Paddle 1.x matmul:
    # every conv and the matmul run in int8 at each size.
    m = Qat(seed=3)
    path = m.save(tmp_path / "qat_dyn", feed_shape=(-1, 3, -1, -1), matmul_v1=True)
    int8 = paddle_mlir.compile(path, precision="int8")
    ops = manifest(int8)["compute_ops"]["ops"]
    assert [(r["op"], r["precision"]) for r in ops] == [
        ("fused_conv2d", "int8"), ("fused_conv2d", "int8"), ("depthwise_conv2d", "int8"),
        ("matmul", "int8")], ops
    step = m.t[3] / 127 * np.abs(qdq_channels(m.wfc, 1)).max(axis=0)
    for h, w in [(12, 12), (9, 20)]:
        x = np.random.RandomState(h).standard_normal((2, 3, h, w)).astype(np.float32)
        sim, _ = m.forward(x.astype(np.float64), m.t)
        err = np.abs(int8(x)[0] - sim)
        assert (err <= step + 1e-5).all(), (h, w, err.max(), step)


def test_quantize_exclude_by_type_and_name(tmp_path):
    m = Qat(seed=1)
    path = m.save(tmp_path / "qat")
    model = paddle_mlir.compile(path, precision="int8",
                                quantize_exclude=["depthwise_conv2d", "matmul_v2_0.tmp_0"])
    ops = manifest(model)["compute_ops"]["ops"]
    got = {r["op"]: r for r in ops}
    assert got["depthwise_conv2d"]["precision"] == "fp32"
    assert got["depthwise_conv2d"]["reason"] == "excluded by --quantize-exclude"
    assert [r["precision"] for r in ops].count("int8") == 2, ops
    # The fc (matmul_v2 + add fused) is excluded by the matmul's output name.
    assert ops[-1]["op"] == "fc" and ops[-1]["precision"] == "fp32", ops
    # Still the simulation within a step (the excluded ops run the
    # simulation's own float arithmetic).
    sim, _ = m.forward(m.x.astype(np.float64), m.t)
    step = m.t[3] / 127 * np.abs(qdq_channels(m.wfc, 1)).max(axis=0)
    assert (np.abs(model(m.x)[0] - sim) <= step + 1e-5).all()


def test_float_model_with_int8_request_warns_and_stays_fp32(tmp_path):
    rng = np.random.RandomState(3)
    b = ProgramBuilder()
    x = b.feed("x", [-1, 3, 6, 6])
    b.fetch(b.relu(b.conv2d(x, b.param("w", rng.standard_normal((4, 3, 3, 3)).astype(np.float32)))))
    path = str(tmp_path / "m")
    b.save(path)
    out = tmp_path / "art"
    p = subprocess.run([tool("paddle-compile"), path, "--precision", "int8", "-o", str(out)],
                       capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    assert "warning: --precision int8: nothing to quantize" in p.stderr
    with open(out / "manifest.json") as f:
        man = json.load(f)
    assert man["compute_ops"]["int8_ops"] == 0
    (rec,) = man["compute_ops"]["ops"]
    assert rec["precision"] == "fp32"
    assert rec["reason"].startswith("its input has no 8-bit fake quantizer")
    data = rng.standard_normal((2, 3, 6, 6)).astype(np.float32)
    np.testing.assert_allclose(paddle_mlir.load(str(out))(data)[0],
                               np.maximum(conv(data, b.params["w"]), 0), rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("args,message", [
    (["--precision", "int8", "--kernels", "none"], "--precision int8 needs --kernels onednn"),
    (["--precision", "int8", "--calibration-data", "DIR"],
     "--calibration-data 'DIR' is not a directory"),
    (["--quantize-exclude", "conv2d"], "--quantize-exclude only applies to --precision int8"),
    (["--precision", "fp16"], "--precision fp16 is not supported on the CPU target"),
])
def test_int8_option_errors(tmp_path, args, message):
    path = Qat().save(tmp_path / "qat")
    p = subprocess.run([tool("paddle-compile"), path, "-o", str(tmp_path / "art")] + args,
                       capture_output=True, text=True)
    assert p.returncode == 1, p.stderr
    assert message in p.stderr
    assert len(p.stderr.strip().splitlines()) == 1, p.stderr
    assert not (tmp_path / "art").exists()


def test_fluid_frozen_qat_program(tmp_path):
    # Fluid 1.x QAT frozen for inference: convs and the fc compute on the
    # integers of fake_quantize_moving_average_abs_max and of integer-valued
    # weights, then dequantize (per channel for the conv, per tensor for the
    # fc). pd-unfreeze-quant turns that into the quantize-dequantize form, so
    # batch norm folds and every conv / fc runs on the int8 kernels.
    rng = np.random.RandomState(5)
    w1 = rng.randint(-127, 128, (8, 3, 3, 3)).astype(np.float32)
    sw1 = rng.uniform(0.2, 0.6, 8).astype(np.float32)  # max |w1[c]| in real units
    gamma, beta = rng.uniform(0.5, 1.5, 8).astype(np.float32), rng.uniform(-.2, .2, 8).astype(np.float32)
    mean, var = rng.uniform(-.1, .1, 8).astype(np.float32), rng.uniform(.5, 1.5, 8).astype(np.float32)
    wfc = rng.randint(-127, 128, (8, 5)).astype(np.float32)
    swfc = 0.3  # the fc weight's abs max
    t1, t2 = 2.0, 1.5
    b = ProgramBuilder()
    x = b.feed("x", [-1, 3, 8, 8])

    def quantize(v, t, name):
        s = b.param(name, np.array([t], np.float32))
        q, qs = b.tmp("q", v.shape), b.tmp("q_scale", [1])
        b.op("fake_quantize_moving_average_abs_max", {"X": [v], "InScale": [s]},
             {"Out": [q], "OutScale": [qs]}, {"bit_length": 8, "is_test": True, "moving_rate": 0.9})
        return q, s

    q1, s1 = quantize(x, t1, "t1")
    c = b.conv2d(q1, b.param("w1", w1), padding=1)
    d = b.tmp("deq", c.shape)
    b.op("fake_channel_wise_dequantize_max_abs", {"X": [c], "Scales": [b.param("sw1", sw1), s1]},
         {"Out": [d]}, {"quant_bits": [8, 8]})
    y = b.relu(b.batch_norm(d, b.param("g", gamma), b.param("be", beta), b.param("m", mean),
                            b.param("v", var)))
    y = b.pool2d(y, "avg", 1, global_pooling=True)
    q2, s2 = quantize(y, t2, "t2")
    m = b.tmp("mul", [-1, 5])
    b.op("mul", {"X": [q2], "Y": [b.param("wfc", wfc)]}, {"Out": [m]},
         {"x_num_col_dims": 1, "y_num_col_dims": 1})
    out = b.tmp("fc_deq", [-1, 5])
    b.op("fake_dequantize_max_abs", {"X": [m], "Scale": [s2]}, {"Out": [out]},
         {"max_range": 127.0 * 127.0 / swfc})
    b.fetch(out)
    path = str(tmp_path / "frozen")
    b.save_fluid(path)

    data = rng.standard_normal((3, 3, 8, 8)).astype(np.float32)

    acc = conv(paddle_int(data.astype(np.float64), t1), w1, pad=1)
    yv = acc * sw1.reshape(1, 8, 1, 1) * t1 / 127 ** 2
    yv = np.maximum((yv - mean.reshape(1, 8, 1, 1)) * (gamma / np.sqrt(var + 1e-5)).reshape(1, 8, 1, 1)
                    + beta.reshape(1, 8, 1, 1), 0).mean(axis=(2, 3))
    want = paddle_int(yv, t2) @ wfc * t2 / (127.0 * 127.0 / swfc)

    got, ops = fp32_and_int8(path, data, want)
    assert [(r["op"], r["precision"]) for r in ops] == [("fused_conv2d", "int8"), ("mul", "int8")], ops
    # One step of the fc's input quantizer through the largest weight.
    step = t2 / 127 * np.abs(wfc).max(axis=0) * swfc / 127
    assert (np.abs(got - want) <= step + 1e-5).all()


def test_fluid_frozen_qat_as_fluid_writes_it(tmp_path):
    # The frozen program as Fluid's freeze and int8-conversion passes write
    # it, unlike the test above: each quantizer writes OutScale into its own
    # InScale variable, so the dequantize ops read the quantizer's result;
    # weights are stored as int8; per-channel (fake_channel_wise_dequantize_
    # max_abs) and per-layer (fake_dequantize_max_abs) convolutions, a
    # depthwise one, a residual add whose inputs pass through
    # fake_quantize_dequantize_moving_average_abs_max, and a mul.
    rng = np.random.RandomState(11)

    w1, w2, w3, wfc = (abs_max_int_weight(rng, (8, 3, 3, 3), 0), abs_max_int_weight(rng, (8, 8, 1, 1), 0),
                       abs_max_int_weight(rng, (8, 1, 3, 3), 0), abs_max_int_weight(rng, (8, 5), 1))
    sw1, sw3 = rng.uniform(0.2, 0.6, 8).astype(np.float32), rng.uniform(0.2, 0.6, 8).astype(np.float32)
    sw2, swfc = 0.4, 0.3  # per-layer weight abs max
    t = [2.5, 1.2, 1.0, 0.9, 1.5, 0.6]  # activation thresholds
    b = ProgramBuilder()
    x = b.feed("x", [-1, 3, 8, 8])

    def quantize(v, i):
        s = b.param("t%d.scale" % i, np.array([t[i]], np.float32))
        q = b.tmp("q", v.shape)
        b.op("fake_quantize_moving_average_abs_max", {"X": [v], "InScale": [s]},
             {"Out": [q], "OutScale": [s]}, {"bit_length": 8, "is_test": True, "moving_rate": 0.9})
        return q, s

    def channel_deq(v, sw, s, name):
        d = b.tmp("deq", v.shape)
        b.op("fake_channel_wise_dequantize_max_abs", {"X": [v], "Scales": [b.param(name, sw), s]},
             {"Out": [d]}, {"quant_bits": [8, 8]})
        return d

    def layer_deq(v, s, sw):
        d = b.tmp("deq", v.shape)
        b.op("fake_dequantize_max_abs", {"X": [v], "Scale": [s]}, {"Out": [d]},
             {"max_range": 127.0 * 127.0 / sw})
        return d

    q, s = quantize(x, 0)
    y1 = b.relu(channel_deq(b.conv2d(q, b.param("w1.int8", w1), padding=1), sw1, s, "channel_scale_1"))
    q, s = quantize(y1, 1)
    y2 = layer_deq(b.conv2d(q, b.param("w2.int8", w2)), s, sw2)
    r = b.elementwise("elementwise_add", fake_quant(b, y1, t[2], "t2.scale"),
                      fake_quant(b, y2, t[3], "t3.scale"))
    q, s = quantize(r, 4)
    y3 = channel_deq(b.conv2d(q, b.param("w3.int8", w3), padding=1, groups=8, depthwise=True), sw3, s,
                     "channel_scale_3")
    p = b.pool2d(b.relu(y3), "avg", 1, global_pooling=True)
    q, s = quantize(p, 5)
    m = b.tmp("mul", [-1, 5])
    b.op("mul", {"X": [q], "Y": [b.param("wfc.int8", wfc)]}, {"Out": [m]},
         {"x_num_col_dims": 1, "y_num_col_dims": 1})
    b.fetch(layer_deq(m, s, swfc))
    path = str(tmp_path / "frozen_int8")
    b.save_fluid(path)

    def simulate(data, fused=False):
        """What Fluid computes, in float64 (fused: without y2's quantizer)."""
        f = [w.astype(np.float64) for w in (w1, w2, w3, wfc)]
        y1 = np.maximum(conv(paddle_int(data, t[0]), f[0], pad=1) * sw1.reshape(1, 8, 1, 1) * t[0] / 127 ** 2, 0)
        y2 = conv(paddle_int(y1, t[1]), f[1]) * t[1] * sw2 / 127 ** 2
        r = qdq(y1, t[2]) + (y2 if fused else qdq(y2, t[3]))
        y3 = conv(paddle_int(r, t[4]), f[2], pad=1, groups=8) * sw3.reshape(1, 8, 1, 1) * t[4] / 127 ** 2
        p = np.maximum(y3, 0).mean(axis=(2, 3))
        return paddle_int(p, t[5]) @ f[3] * t[5] * swfc / 127 ** 2

    data = rng.standard_normal((3, 3, 8, 8))
    want = simulate(data)
    got, ops = fp32_and_int8(path, data.astype(np.float32), want)
    assert [r["precision"] for r in ops] == ["int8"] * 4, ops
    # int8: the second conv takes y1 as its int8 residual, so y2's own
    # quantizer (t[3]) drops out, as in Paddle Inference's int8 passes.
    assert ops[1]["residual"]["dtype"] == "int8", ops
    want = simulate(data, fused=True)
    # One step of the mul's input quantizer through the largest weight.
    step = t[5] / 127 * np.abs(wfc).max() * swfc / 127
    assert (np.abs(got - want) <= step + 1e-5).all()


def test_unrecognised_fake_quant_pattern_is_named(tmp_path):
    # A frozen conv whose dequantize op reads another threshold than its
    # quantizer's: no int8 form; the warning names the op and the reason
    # instead of "nothing to quantize".
    b = ProgramBuilder()
    x = b.feed("x", [-1, 3, 8, 8])
    s = b.param("t.scale", np.array([2.0], np.float32))
    q = b.tmp("q", x.shape)
    b.op("fake_quantize_moving_average_abs_max", {"X": [x], "InScale": [s]},
         {"Out": [q], "OutScale": [s]}, {"bit_length": 8, "is_test": True, "moving_rate": 0.9})
    c = b.conv2d(q, b.param("w", np.ones((4, 3, 1, 1), np.float32)))
    d = b.tmp("deq", c.shape)
    b.op("fake_dequantize_max_abs", {"X": [c], "Scale": [b.param("other", np.array([3.0], np.float32))]},
         {"Out": [d]}, {"max_range": 127.0})
    b.fetch(d)
    path = str(tmp_path / "bad")
    b.save_fluid(path)
    p = subprocess.run([tool("paddle-compile"), path, "--precision", "int8", "-o", str(tmp_path / "art")],
                       capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    assert "fake quantizers, but none in a form with an int8 kernel" in p.stderr, p.stderr
    assert "conv2d" in p.stderr and "not the quantizer's scale" in p.stderr, p.stderr
    assert "nothing to quantize" not in p.stderr


def test_paddleslim_quantize_linear_program(tmp_path):
    # PaddleSlim 2.x's format: quantize_linear -> dequantize_linear pairs on
    # activations (one scale, round half to even), weights stored as
    # integers (int8, or float holding integers) behind a per-channel
    # dequantize_linear (quant_axis 0 for a filter, 1 for a [K, N] matmul
    # weight); a pair on each input of a residual add stays in fp32.
    rng = np.random.RandomState(7)

    w1, w2, wfc = (abs_max_int_weight(rng, (8, 3, 3, 3), 0),
                   abs_max_int_weight(rng, (8, 8, 1, 1), 0, np.float32), abs_max_int_weight(rng, (8, 5), 1))
    sw1, sw2 = rng.uniform(0.2, 0.6, 8).astype(np.float32), rng.uniform(0.2, 0.6, 8).astype(np.float32)
    swfc = rng.uniform(0.2, 0.6, 5).astype(np.float32)
    bfc = rng.uniform(-0.1, 0.1, 5).astype(np.float32)
    gamma, beta = rng.uniform(0.5, 1.5, 8).astype(np.float32), rng.uniform(-.2, .2, 8).astype(np.float32)
    mean, var = rng.uniform(-.1, .1, 8).astype(np.float32), rng.uniform(.5, 1.5, 8).astype(np.float32)
    t = [2.0, 1.5, 1.4, 1.0, 0.8]
    b = ProgramBuilder()
    x = b.feed("x", [-1, 3, 8, 8])
    counter = iter(range(100))

    def zero_point(n):
        return b.param("zp%d" % next(counter), np.zeros(n, np.int32))

    def qdq_linear(v, i):
        s = b.param("t%d" % i, np.array([t[i]], np.float32))
        zp = zero_point(1)
        q, d = b.tmp("quant", v.shape), b.tmp("dequant", v.shape)
        b.op("quantize_linear", {"X": [v], "Scale": [s], "ZeroPoint": [zp]}, {"Y": [q]},
             {"quant_axis": -1, "bit_length": 8, "round_type": 0, "is_test": True})
        b.op("dequantize_linear", {"X": [q], "Scale": [s], "ZeroPoint": [zp]}, {"Y": [d]},
             {"quant_axis": -1, "bit_length": 8})
        return d

    def weight(name, w, s, axis):
        d = b.tmp("wdeq", list(w.shape))
        b.op("dequantize_linear", {"X": [b.param(name, w)], "Scale": [b.param(name + "@scale", s)],
                                   "ZeroPoint": [zero_point(len(s))]}, {"Y": [d]},
             {"quant_axis": axis, "bit_length": 8})
        return d

    y1 = b.conv2d(qdq_linear(x, 0), weight("w1", w1, sw1, 0), padding=1)
    y1 = b.relu(b.batch_norm(y1, b.param("g", gamma), b.param("be", beta), b.param("m", mean),
                             b.param("v", var)))
    y2 = b.conv2d(qdq_linear(y1, 1), weight("w2", w2, sw2, 0))
    r = b.elementwise("elementwise_add", qdq_linear(y1, 2), qdq_linear(y2, 3))
    p = b.flatten(b.pool2d(r, "avg", 1, global_pooling=True), 1, 3)
    mm = b.tmp("matmul_v2", [-1, 5])
    b.op("matmul_v2", {"X": [qdq_linear(p, 4)], "Y": [weight("wfc", wfc, swfc, 1)]}, {"Out": [mm]},
         {"trans_x": False, "trans_y": False})
    b.fetch(b.elementwise("elementwise_add", mm, b.param("bfc", bfc)))
    path = str(tmp_path / "slim")
    b.save(path)

    def q(v, th):  # quantize_linear, round_type 0: half to even, [-128, 127]
        return np.clip(np.rint(v * 127 / th), -128, 127) * th / 127

    def simulate(data):
        f1 = w1.astype(np.float64) * sw1.reshape(8, 1, 1, 1) / 127
        f2 = w2.astype(np.float64) * sw2.reshape(8, 1, 1, 1) / 127
        ffc = wfc.astype(np.float64) * swfc / 127
        y1 = conv(q(data, t[0]), f1, pad=1)
        inv = (gamma / np.sqrt(var + 1e-5)).reshape(1, 8, 1, 1)
        y1 = np.maximum((y1 - mean.reshape(1, 8, 1, 1)) * inv + beta.reshape(1, 8, 1, 1), 0)
        y2 = conv(q(y1, t[1]), f2)
        p = (q(y1, t[2]) + q(y2, t[3])).mean(axis=(2, 3))
        return q(p, t[4]) @ ffc + bfc

    data = rng.standard_normal((3, 3, 8, 8))
    want = simulate(data)
    got, ops = fp32_and_int8(path, data.astype(np.float32), want)
    assert [(r["op"], r["precision"]) for r in ops] == [
        ("fused_conv2d", "int8"), ("conv2d", "int8"), ("fc", "int8")], ops
    step = t[4] / 127 * np.abs(wfc * swfc / 127).max(axis=0)
    assert (np.abs(got - want) <= step + 1e-5).all()


def with_attrs(b, **attrs):
    """Adds attributes to the op the builder wrote last."""
    b._block_ops()[-1][3].update(attrs)


class Int8Attrs:
    """A CNN whose quantization is written as op attributes, in the three
    spellings programs carry them:
    - conv A as Paddle Inference's quant_conv2d_dequant_fuse_pass leaves it:
      enable_int8, Input_scale = the input's threshold, float weights holding
      their real values (the integers times the channel steps);
    - conv B as Paddle-Lite 2.6 writes it: enable_int8, int8 Filter,
      weight_scale = per-channel steps, no input scale of its own: the relu
      before it has out_threshold;
    - mul C as later Paddle-Lite writes it: enable_int8, X0_scale = [step],
      int8 Y, Y0_scale = per-column steps.
    conv A + bias -> relu -> conv B -> relu -> global average pool -> flatten
    -> mul C."""

    def __init__(self, seed=5):
        rng = np.random.RandomState(seed)
        self.wa = abs_max_int_weight(rng, (8, 3, 3, 3), 0).astype(np.float64) * \
            rng.uniform(0.002, 0.005, 8).reshape(8, 1, 1, 1)
        self.wb_int = abs_max_int_weight(rng, (8, 8, 3, 3), 0)
        self.wb_step = rng.uniform(0.001, 0.003, 8).astype(np.float32)
        self.wc_int = abs_max_int_weight(rng, (8, 5), 1)
        self.wc_step = rng.uniform(0.002, 0.004, 5).astype(np.float32)
        self.ba = rng.uniform(-0.1, 0.1, 8).astype(np.float32)
        self.x = rng.standard_normal((3, 3, 10, 10)).astype(np.float32)
        _, acts = self.forward(self.x.astype(np.float64), quantized=False)
        self.t = [float(np.abs(a).max()) * 0.9 for a in acts]

    def weights(self):
        return (self.wa.astype(np.float32).astype(np.float64),
                self.wb_int * self.wb_step.astype(np.float64).reshape(8, 1, 1, 1),
                self.wc_int * self.wc_step.astype(np.float64))

    def forward(self, x, quantized=True):
        """In float64: Paddle's float32 semantics of the program (the
        attributes unread), or the int8 arithmetic they ask for."""
        q = (lambda v, i: qdq(v, self.t[i])) if quantized else (lambda v, i: v)
        wa, wb, wc = self.weights()
        acts = [x]
        y = np.maximum(conv(q(x, 0), wa, pad=1) + self.ba.reshape(1, 8, 1, 1), 0)
        acts.append(y)
        y = np.maximum(conv(q(y, 1), wb, pad=1), 0).mean(axis=(2, 3))
        acts.append(y)
        return q(y, 2) @ wc, acts

    def save(self, path, drop=None, mul_attrs=None):
        b = ProgramBuilder()
        x = b.feed("x", [-1, 3, 10, 10])
        y = b.conv2d(x, b.param("wa", self.wa.astype(np.float32)), padding=1)
        with_attrs(b, enable_int8=True, Input_scale=self.t[0], bit_length=8)
        y = b.relu(b.elementwise("elementwise_add", y, b.param("ba", self.ba), axis=1))
        with_attrs(b, out_threshold=self.t[1])
        y = b.conv2d(y, b.param("wb", self.wb_int), padding=1)
        with_attrs(b, enable_int8=True, weight_scale=[float(v) for v in self.wb_step], bit_length=8)
        y = b.pool2d(b.relu(y), "avg", 1, global_pooling=True)
        y = b.flatten(y, 1, 3)
        m = b.tmp("mul", [-1, 5])
        b.op("mul", {"X": [y], "Y": [b.param("wc", self.wc_int)]}, {"Out": [m]},
             {"x_num_col_dims": 1, "y_num_col_dims": 1, "enable_int8": True,
              "X0_scale": [self.t[2] / 127], "Y0_scale": [float(v) for v in self.wc_step]})
        with_attrs(b, **(mul_attrs or {}))
        if drop:
            for op in b._block_ops():
                for k in drop:
                    op[3].pop(k, None)
        b.fetch(m)
        b.save(str(path))
        return str(path)


def test_paddle_int8_attributes(tmp_path):
    m = Int8Attrs()
    path = m.save(tmp_path / "attrs")
    data = m.x
    # fp32: the attributes ask nothing of a float32 compile (Paddle's CPU
    # kernels run such ops in float32), but integer weights get their real
    # values.
    fp32 = paddle_mlir.compile(path)(data)[0]
    plain, _ = m.forward(data.astype(np.float64), quantized=False)
    np.testing.assert_allclose(fp32, plain, rtol=1e-4, atol=1e-5)
    # So does the reference evaluator (its own reading of the weight scales).
    ref = list(reference.load(path).run({"x": data}).values())[0]
    np.testing.assert_allclose(ref, plain, rtol=1e-4, atol=1e-5)

    int8 = paddle_mlir.compile(path, precision="int8")
    got = int8(data)[0]
    ops = manifest(int8)["compute_ops"]["ops"]
    assert [r["precision"] for r in ops] == ["int8"] * 3, ops
    for r, t in zip(ops, m.t):
        assert r["input"]["scale"] == pytest.approx(t / 127, rel=1e-6)
    # conv A hands int8 to conv B (the relu's out_threshold is B's input
    # threshold).
    assert ops[0]["output"] == {"dtype": "int8", "scale": pytest.approx(m.t[1] / 127)}
    want, _ = m.forward(data.astype(np.float64))
    # One level of the last quantizer moves output n by at most
    # t2/127 * sum_k |wc[k, n]|; the integers are the same elsewhere.
    step = m.t[2] / 127 * np.abs(m.weights()[2]).sum(axis=0)
    err = np.abs(got - want)
    assert (err <= step + 1e-5).all(), (err.max(axis=0), step)
    assert err.mean() < 0.2 * step.mean()

    # Exported back to Paddle (the attributes in Paddle Inference's spelling,
    # the weights as float ops), the program compiles to the same int8 model.
    mlir, again = str(tmp_path / "m.mlir"), str(tmp_path / "again")
    subprocess.run([tool("paddle-translate"), "--import-paddle=" + path, "-o", mlir], check=True)
    subprocess.run([tool("paddle-translate"), "--export-paddle=" + mlir, "-o", again], check=True)
    int8_again = paddle_mlir.compile(again, precision="int8")
    assert [r["precision"] for r in manifest(int8_again)["compute_ops"]["ops"]] == ["int8"] * 3
    np.testing.assert_array_equal(int8_again(data)[0], got)


def test_int8_attribute_without_input_scale_is_named(tmp_path):
    # Without the relu's out_threshold, conv B has enable_int8 but no input
    # threshold: a warning names it and it stays float32; the others run int8.
    m = Int8Attrs()
    path = m.save(tmp_path / "attrs", drop=["out_threshold"])
    out = str(tmp_path / "art")
    p = subprocess.run([tool("paddle-compile"), path, "--precision", "int8", "-o", out],
                       capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    assert "conv2d asks for int8 (enable_int8) but has no input scale" in p.stderr, p.stderr
    with open(os.path.join(out, "manifest.json")) as f:
        ops = json.load(f)["compute_ops"]["ops"]
    assert [r["precision"] for r in ops] == ["int8", "fp32", "int8"], ops


@pytest.mark.parametrize("drop,edit,message", [
    (["weight_scale"], None, "has enable_int8 and integer Filter values, but no weight_scale or "
                             "Filter0_scale attribute"),
    (None, {"Y0_scale": [0.01, 0.02]}, "has 2 weight scales for 5 output channels of Y"),
    (None, {"Y0_scale": [0.01, 0.0, 0.01, 0.01, 0.01]}, "has a weight scale of 0"),
])
def test_int8_attribute_errors(tmp_path, drop, edit, message):
    # Refused at import, whatever the precision: the weights' real values
    # are unknown or the attributes contradict them.
    path = Int8Attrs().save(tmp_path / "attrs", drop=drop, mul_attrs=edit)
    p = subprocess.run([tool("paddle-compile"), path, "-o", str(tmp_path / "art")],
                       capture_output=True, text=True)
    assert p.returncode == 1, p.stderr
    assert message in p.stderr, p.stderr


def test_qat_products_of_two_activations(tmp_path):
    # Attention as QAT leaves it: fake quantizers on both operands of each
    # product of two activations. Q x K^T (matmul_v2, trans_y), softmax, P x V;
    # Paddle 1.x matmul with alpha and transpose_Y; K shared by every batch
    # (batch dims 1); and K with batch [1, heads] against a dynamic batch,
    # which the int8 kernel does not broadcast (stays fp32, named).
    rng = np.random.RandomState(21)
    q, k, v = (rng.standard_normal((3, 2, 6, 8)).astype(np.float32) for _ in range(3))
    k1 = rng.standard_normal((1, 1, 6, 8)).astype(np.float32)
    kh = rng.standard_normal((1, 2, 6, 8)).astype(np.float32)

    def softmax(x):
        e = np.exp(x - x.max(axis=-1, keepdims=True))
        return e / e.sum(axis=-1, keepdims=True)

    s_plain = q @ k.transpose(0, 1, 3, 2) / np.sqrt(8)
    t = {"q": np.abs(q).max() * 0.9, "k": np.abs(k).max() * 0.9, "v": np.abs(v).max() * 0.9,
         "p": float(softmax(s_plain).max()), "k1": np.abs(k1).max() * 0.9, "kh": np.abs(kh).max()}

    b = ProgramBuilder()
    fq, fk, fv, fk1, fkh = (b.feed(n, s) for n, s in (("q", [-1, 2, 6, 8]), ("k", [-1, 2, 6, 8]),
                                                      ("v", [-1, 2, 6, 8]), ("k1", [1, 1, 6, 8]),
                                                      ("kh", [1, 2, 6, 8])))
    qq = fake_quant(b, fq, t["q"], "tq")
    s = b.scale(b.matmul_v2(qq, fake_quant(b, fk, t["k"], "tk"), trans_y=True), 1 / np.sqrt(8))
    p = b.softmax(s)
    o = b.matmul_v2(fake_quant(b, p, t["p"], "tp"), fake_quant(b, fv, t["v"], "tv"))
    o2 = b.tmp("matmul", [-1, 2, 6, 6])
    b.op("matmul", {"X": [qq], "Y": [fake_quant(b, fk, t["k"], "tk2")]}, {"Out": [o2]},
         {"transpose_X": False, "transpose_Y": True, "alpha": 0.35})
    o3 = b.matmul_v2(qq, fake_quant(b, fk1, t["k1"], "tk1"), trans_y=True)
    o4 = b.matmul_v2(qq, fake_quant(b, fkh, t["kh"], "tkh"), trans_y=True)
    for out in (o, o2, o3, o4):
        b.fetch(out)
    path = str(tmp_path / "attention")
    b.save(path)
    feeds = {"q": q, "k": k, "v": v, "k1": k1, "kh": kh}

    def simulate(dt):
        x = {n: a.astype(dt) for n, a in feeds.items()}
        qd = qdq(x["q"], t["q"])
        tr = (0, 1, 3, 2)
        pp = softmax(qd @ qdq(x["k"], t["k"]).transpose(tr) / np.sqrt(8))
        return [qdq(pp, t["p"]) @ qdq(x["v"], t["v"]), 0.35 * (qd @ qdq(x["k"], t["k"]).transpose(tr)),
                qd @ qdq(x["k1"], t["k1"]).transpose(tr), qd @ qdq(x["kh"], t["kh"]).transpose(tr)]

    want = simulate(np.float64)
    fp32 = paddle_mlir.compile(path)
    for got, w in zip(fp32(**feeds), want):
        np.testing.assert_allclose(got, w, rtol=1e-4, atol=1e-4)

    int8 = paddle_mlir.compile(path, precision="int8")
    man = manifest(int8)
    ops = {r["name"]: r for r in man["compute_ops"]["ops"]}
    assert [r["precision"] for r in man["compute_ops"]["ops"]] == ["int8"] * 4 + ["fp32"], ops
    assert "batch dims broadcast partially" in man["compute_ops"]["ops"][-1]["reason"]
    assert man["kernels"]["calls"].get("pd.quantized_matmul -> pdk_qbmatmul") == 4, man["kernels"]
    qk = man["compute_ops"]["ops"][0]
    assert qk["input"]["scale"] == pytest.approx(t["q"] / 127, rel=1e-6)
    assert qk["y"] == {"dtype": "int8", "scale": pytest.approx(t["k"] / 127, rel=1e-6)}
    # The integers equal the simulation's except on rounding ties (ours to
    # even, Paddle's away from zero): at most one level of an operand, and
    # almost everywhere nothing beyond float rounding.
    for i, (got, w) in enumerate(zip(int8(**feeds), want)):
        scale = np.abs(w).max()
        err = np.abs(got - w)
        assert err.max() <= 0.05 * scale, (i, err.max(), scale)
        assert np.median(err) <= 1e-5 * scale, (i, np.median(err), scale)


def avgpool(x, k, s, pad, exclusive):
    """k x k average pooling, stride s, padding pad; exclusive: over the
    window's elements inside the image, else over k * k (padding as 0)."""
    n, c, h, w = x.shape
    xp = np.pad(x, ((0, 0), (0, 0), (pad, pad), (pad, pad)))
    ones = np.pad(np.ones((h, w)), pad)
    oh, ow = (h + 2 * pad - k) // s + 1, (w + 2 * pad - k) // s + 1
    out = np.empty((n, c, oh, ow))
    for i in range(oh):
        for j in range(ow):
            win = (slice(s * i, s * i + k), slice(s * j, s * j + k))
            count = ones[win].sum() if exclusive else k * k
            out[:, :, i, j] = xp[(slice(None), slice(None)) + win].sum(axis=(2, 3)) / count
    return out


@pytest.mark.parametrize("k,s,pad,exclusive,glob", [(3, 1, 1, True, False), (3, 2, 1, False, False),
                                                    (2, 2, 0, True, False), (0, 1, 0, True, True)],
                         ids=["3x3s1_exclusive", "3x3s2_inclusive", "2x2s2", "global"])
def test_int8_average_pooling_between_quantizers(tmp_path, k, s, pad, exclusive, glob):
    # A QAT program that quantizes the pooling's input (PaddleSlim with
    # pool2d among the quantizable types; Inception's pooling branches):
    # conv -> relu -> quantizer -> average pooling -> quantizer -> conv. The
    # pooling runs from one int8 tensor to the next (its input written int8
    # by the conv before it), the average rescaled by the two steps before
    # rounding; checked against the simulation within one step of the last
    # quantizer.
    rng = np.random.RandomState(21)
    w0 = (rng.standard_normal((8, 3, 3, 3)) * 0.3).astype(np.float32)
    w1 = (rng.standard_normal((4, 8, 1, 1)) * 0.3).astype(np.float32)
    # Thresholds in no simple ratio: averages of the quantized input land
    # exactly halfway between two output levels only rarely.
    t = [2.5, 2.93, 1.217]
    size = 9

    def forward(x, q):
        y = np.maximum(conv(q(x, 0), qdq_channels(w0, 0), pad=1), 0)
        kk = size if glob else k
        p = avgpool(q(y, 1), kk, 1 if glob else s, 0 if glob else pad, exclusive)
        return conv(q(p, 2), qdq_channels(w1, 0))

    b = ProgramBuilder()
    x = b.feed("x", [-1, 3, size, size])
    y = b.relu(b.conv2d(fake_quant(b, x, t[0], "s0"), weight_quant(b, b.param("w0", w0), 0), padding=1))
    p = b.pool2d(fake_quant(b, y, t[1], "s1"), "avg", max(k, 1), stride=s, padding=pad, global_pooling=glob,
                 exclusive=exclusive)
    b.fetch(b.conv2d(fake_quant(b, p, t[2], "s2"), weight_quant(b, b.param("w1", w1), 0)))
    path = str(tmp_path / "avg")
    b.save(path)
    int8 = paddle_mlir.compile(path, precision="int8")
    ops = manifest(int8)["compute_ops"]["ops"]
    assert [r["output"]["dtype"] for r in ops] == ["int8", "float32"], ops  # the conv writes int8
    arena = subprocess.run([tool("paddle-compile"), path, "--precision", "int8", "--memory-report",
                            "--input-shape", "x=2x3x%dx%d" % (size, size), "-o", str(tmp_path / "art")],
                           check=True, capture_output=True, text=True).stderr
    # No float32 copy of the pooling's input or output: every buffer
    # between the convs is one byte per element (2 x 8 x 9 x 9 = 1296).
    sizes = [int(line.split()[2]) for line in arena.splitlines() if line.strip().startswith("buffer")]
    assert 2 * 8 * size * size * 4 not in sizes, arena
    step = t[2] / 127 * np.abs(qdq_channels(w1, 0)).sum(axis=(1, 2, 3)).reshape(1, 4, 1, 1)
    check_against_simulation(int8, paddle_mlir.compile(path), forward, t, step, [(2, 3, size, size)], rng)
