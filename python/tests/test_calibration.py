"""Post-training int8 quantization of float models (issue 19):
paddle-compile --precision int8 --calibration-data DIR.

Accuracy on real data: a small CNN trained here with PyTorch on
scikit-learn's bundled handwritten digits (no download), written as a Paddle
program with the builder, quantized with each calibration method; the
fallback loop on a model with one deliberately unquantizable layer; the
calibration cache; bad samples."""
import json
import os
import subprocess

import numpy as np
import pytest

import paddle_mlir
from paddle_mlir.builder import ProgramBuilder

BUILD = os.environ.get("PADDLE_MLIR_BUILD_DIR",
                       os.path.join(os.path.dirname(__file__), "..", "..", "build"))


def tool(name):
    return os.path.join(BUILD, "bin", name)


def digits():
    """The 1797 8x8 digits, scaled to [0, 1]; a fixed split: the first 1347
    to train, the last 450 to test."""
    from sklearn.datasets import load_digits
    d = load_digits()
    x = (d.images / 16.0).astype(np.float32)[:, None]
    return x[:1347], d.target[:1347], x[1347:], d.target[1347:]


class DigitsCNN:
    """conv(1->8, 3x3) + relu, conv(8->16, 3x3, stride 2) + relu, flatten,
    fc(256 -> 10), trained with Adam for a few epochs (seeded)."""

    _trained = None

    def __init__(self):
        if DigitsCNN._trained is None:
            DigitsCNN._trained = self._train()
        self.w1, self.b1, self.w2, self.b2, self.wfc, self.bfc = [
            a.copy() for a in DigitsCNN._trained]

    @staticmethod
    def _train():
        import torch
        torch.manual_seed(0)
        xtr, ytr, _, _ = digits()
        net = torch.nn.Sequential(
            torch.nn.Conv2d(1, 8, 3, padding=1), torch.nn.ReLU(),
            torch.nn.Conv2d(8, 16, 3, stride=2, padding=1), torch.nn.ReLU(),
            torch.nn.Flatten(), torch.nn.Linear(256, 10))
        opt = torch.optim.Adam(net.parameters(), lr=3e-3)
        x, y = torch.from_numpy(xtr), torch.from_numpy(ytr).long()
        g = torch.Generator().manual_seed(0)
        for _ in range(15):
            perm = torch.randperm(len(x), generator=g)
            for i in range(0, len(x), 64):
                idx = perm[i:i + 64]
                opt.zero_grad()
                torch.nn.functional.cross_entropy(net(x[idx]), y[idx]).backward()
                opt.step()
        p = [t.detach().numpy().astype(np.float32) for t in net.parameters()]
        # Linear's weight is [out, in]; Paddle's is [in, out].
        return p[0], p[1], p[2], p[3], np.ascontiguousarray(p[4].T), p[5]

    def save(self, path):
        b = ProgramBuilder()
        x = b.feed("x", [-1, 1, 8, 8])
        y = b.conv2d(x, b.param("w1", self.w1), padding=1)
        y = b.relu(b.elementwise("elementwise_add", y, b.param("b1", self.b1), axis=1))
        y = b.conv2d(y, b.param("w2", self.w2), stride=2, padding=1)
        y = b.relu(b.elementwise("elementwise_add", y, b.param("b2", self.b2), axis=1))
        y = b.flatten(y, 1, 3)
        b.fetch(b.linear(y, b.param("wfc", self.wfc), b.param("bfc", self.bfc)))
        b.save(str(path))
        return str(path)


def write_samples(directory, xs):
    os.makedirs(directory, exist_ok=True)
    for i, x in enumerate(xs):
        np.save(os.path.join(directory, "s%04d.npy" % i), x[None])
    return str(directory)


def compile_int8(model, samples, out, *extra):
    p = subprocess.run([tool("paddle-compile"), model, "--precision", "int8",
                        "--calibration-data", samples, "-o", str(out)] + list(extra),
                       capture_output=True, text=True)
    return p


def report(out):
    with open(os.path.join(out, "quant_report.json")) as f:
        return json.load(f)


def manifest(out):
    with open(os.path.join(out, "manifest.json")) as f:
        return json.load(f)


@pytest.fixture(scope="module")
def digits_setup(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("digits")
    m = DigitsCNN()
    model = m.save(tmp / "cnn")
    xtr, _, xte, yte = digits()
    samples = write_samples(tmp / "samples", xtr[:200])
    fp32 = tmp / "fp32"
    subprocess.run([tool("paddle-compile"), model, "-o", str(fp32)], check=True,
                   capture_output=True)
    acc = (paddle_mlir.load(str(fp32))(xte)[0].argmax(1) == yte).mean()
    return m, model, samples, xte, yte, acc, tmp


@pytest.mark.parametrize("method", ["minmax", "percentile", "kl", "mse"])
def test_digits_accuracy_within_one_point(digits_setup, method):
    m, model, samples, xte, yte, acc_fp32, tmp = digits_setup
    assert acc_fp32 > 0.9, acc_fp32  # the float model learned the task
    out = tmp / ("int8_" + method)
    p = compile_int8(model, samples, out, "--calibration-method", method)
    assert p.returncode == 0, p.stderr
    assert "calibrating: 160/160 samples" in p.stderr
    man = manifest(out)
    assert man["compute_ops"]["int8_ops"] == 2, man["compute_ops"]
    ops = man["compute_ops"]["ops"]
    # The pixels and the relu outputs never go negative: uint8 inputs.
    assert [r["input"]["dtype"] for r in ops[:2]] == ["uint8", "uint8"], ops
    assert all("VNNI" in r["isa"] for r in ops[:2]), ops
    # The classifier stays fp32 by default.
    assert ops[2]["precision"] == "fp32"
    assert "final layer stays fp32 by default" in ops[2]["reason"]
    rep = report(out)
    assert rep["method"] == method
    assert rep["samples"] == {"calibration": 160, "validation": 40,
                              "validation_is_calibration": False}
    assert [l["precision"] for l in rep["layers"]] == ["int8", "int8", "fp32"]
    acc = (paddle_mlir.load(str(out))(xte)[0].argmax(1) == yte).mean()
    print("digits %s: fp32 %.4f int8 %.4f, output SQNR %.1f dB" % (
        method, acc_fp32, acc, rep["result"]["output_sqnr_db"]))
    assert abs(acc - acc_fp32) <= 0.01, (acc, acc_fp32)


@pytest.mark.parametrize("pattern", ["fc", "elementwise_add_2.*", "nothing,elementwise_add_?.tmp_0"])
def test_quantize_include_and_exclude(digits_setup, pattern):
    m, model, samples, xte, yte, acc_fp32, tmp = digits_setup
    out = tmp / "include"
    p = compile_int8(model, samples, out, "--quantize-include", pattern)
    assert p.returncode == 0, p.stderr
    rep = report(out)
    assert [l["precision"] for l in rep["layers"]] == ["int8"] * 3, rep["layers"]
    # The builder's linear is matmul_v2 + elementwise_add, fused to an fc
    # named after the add's output.
    assert rep["layers"][2]["layer"] == "elementwise_add_2.tmp_0"
    acc = (paddle_mlir.load(str(out))(xte)[0].argmax(1) == yte).mean()
    assert abs(acc - acc_fp32) <= 0.01
    # An exclusion by glob keeps the first conv fp32.
    out = tmp / "exclude"
    p = compile_int8(model, samples, out, "--quantize-include", pattern,
                     "--quantize-exclude", "conv2d_0*")
    assert p.returncode == 0, p.stderr
    layers = report(out)["layers"]
    assert [l["precision"] for l in layers] == ["fp32", "int8", "int8"], layers
    assert layers[0]["reason"] == "excluded by --quantize-exclude"


def test_thresholds_match_numpy(digits_setup):
    """The input image's threshold under minmax is its largest |x| over the
    calibration samples, computed here from the files; the pixels are never
    negative, so its scale is the uint8 one, T / 255."""
    m, model, samples, xte, yte, acc_fp32, tmp = digits_setup
    out = tmp / "int8_thr"
    p = compile_int8(model, samples, out, "--calibration-method", "minmax")
    assert p.returncode == 0, p.stderr
    xs = [np.load(os.path.join(samples, f)) for f in sorted(os.listdir(samples))][:160]
    t = max(float(np.abs(x).max()) for x in xs)
    first = report(out)["layers"][0]
    assert first["tensor"] == "x"
    assert first["threshold"] == pytest.approx(t, rel=1e-6)
    assert first["dtype"] == "uint8"
    assert first["scale"] == pytest.approx(t / 255, rel=1e-6)
    # The relu output after conv 1: its maximum over the calibration samples.
    a = np.concatenate(xs)
    import torch
    h = torch.relu(torch.nn.functional.conv2d(torch.from_numpy(a), torch.from_numpy(m.w1),
                                              torch.from_numpy(m.b1), padding=1)).numpy()
    second = report(out)["layers"][1]
    assert second["dtype"] == "uint8"
    assert second["threshold"] == pytest.approx(float(h.max()), rel=1e-4)


def test_fallback_moves_only_the_bad_layer(tmp_path):
    """Channel 0 of conv 1's output is scaled up 1000x (and conv 2's weights
    reading it down 1000x, so the float function is the same): conv 2's
    input then has one huge channel, and per-tensor int8 loses the others.
    The accuracy target moves conv 2, and only conv 2, back to fp32."""
    m = DigitsCNN()
    m.w1[0] *= 1000
    m.b1[0] *= 1000
    m.w2[:, 0] /= 1000
    model = m.save(tmp_path / "cnn")
    xtr, _, xte, _ = digits()
    samples = write_samples(tmp_path / "samples", xtr[:100])
    plain = tmp_path / "plain"
    # The classifier too, so three layers compete.
    p = compile_int8(model, samples, plain, "--quantize-include", "fc")
    assert p.returncode == 0, p.stderr
    layers = report(plain)["layers"]
    worst = min(range(3), key=lambda i: layers[i]["sqnr_db"])
    assert worst == 1, layers
    bad = report(plain)["result"]["output_sqnr_db"]
    assert bad < 15, bad

    out = tmp_path / "fallback"
    p = compile_int8(model, samples, out, "--accuracy-target", "sqnr=25", "--quantize-include",
                     "fc")
    assert p.returncode == 0, p.stderr
    rep = report(out)
    assert [l["precision"] for l in rep["layers"]] == ["int8", "fp32", "int8"], rep["layers"]
    assert "accuracy target sqnr=25" in rep["layers"][1]["reason"]
    assert rep["result"]["meets_target"] and rep["result"]["fp32_layers_moved"] == 1
    assert rep["result"]["output_sqnr_db"] >= 25
    assert [t["fp32_layers"] for t in rep["trials"]] == [0, 1]
    ops = manifest(out)["compute_ops"]["ops"]
    assert [o["precision"] for o in ops] == ["int8", "fp32", "int8"], ops
    assert "accuracy target" in ops[1]["reason"]
    # The table on stderr says the same.
    assert "calibration: 2 of 3 layers int8" in p.stderr
    # And the artifact computes what the float model does, within int8 error.
    fp32 = tmp_path / "fp32"
    subprocess.run([tool("paddle-compile"), model, "-o", str(fp32)], check=True,
                   capture_output=True)
    ref = paddle_mlir.load(str(fp32))(xte)[0]
    got = paddle_mlir.load(str(out))(xte)[0]
    sqnr = 10 * np.log10((ref ** 2).sum() / ((ref - got) ** 2).sum())
    assert sqnr > 20, sqnr


def test_top1_target(digits_setup):
    m, model, samples, xte, yte, acc_fp32, tmp = digits_setup
    out = tmp / "top1"
    p = compile_int8(model, samples, out, "--accuracy-target", "top1=0.95")
    assert p.returncode == 0, p.stderr
    rep = report(out)
    assert rep["accuracy_target"] == "top1=0.95"
    assert rep["result"]["top1_agreement"] >= 0.95 and rep["result"]["meets_target"]


def test_calibration_cache(digits_setup, tmp_path):
    m, model, samples, xte, yte, acc_fp32, tmp = digits_setup
    cache = tmp_path / "stats.json"
    a, b = tmp_path / "a", tmp_path / "b"
    p = compile_int8(model, samples, a, "--calibration-cache", str(cache))
    assert p.returncode == 0, p.stderr
    assert "calibrating:" in p.stderr and "statistics written to" in p.stderr
    assert json.load(open(cache))["format"] == "paddle-mlir-calibration"
    # The second compile reads the statistics instead of calibrating, even
    # with another method (the statistics do not depend on it).
    p = compile_int8(model, samples, b, "--calibration-cache", str(cache))
    assert p.returncode == 0, p.stderr
    assert "calibrating:" not in p.stderr
    assert "statistics of 2 tensors from" in p.stderr
    assert [l["scale"] for l in report(a)["layers"]] == [l["scale"] for l in report(b)["layers"]]
    # Another model (other weights): the cache is refused.
    other = DigitsCNN()
    other.w1 = other.w1 * 2
    path = other.save(tmp_path / "other")
    p = compile_int8(path, samples, tmp_path / "c", "--calibration-cache", str(cache))
    assert p.returncode == 1
    assert "fingerprint" in p.stderr and "delete the file to calibrate again" in p.stderr
    assert not (tmp_path / "c").exists()


def test_python_api(digits_setup):
    m, model, samples, xte, yte, acc_fp32, tmp = digits_setup
    xtr, _, _, _ = digits()
    q = paddle_mlir.compile(model, precision="int8", calibration=[x[None] for x in xtr[:50]],
                            calibration_method="minmax")
    with open(os.path.join(q._dir, "quant_report.json")) as f:
        rep = json.load(f)
    assert rep["samples"]["calibration"] == 40
    acc = (q(xte)[0].argmax(1) == yte).mean()
    assert abs(acc - acc_fp32) <= 0.02, (acc, acc_fp32)
    # Dicts name the inputs (written as .npz).
    q = paddle_mlir.compile(model, precision="int8",
                            calibration=({"x": x[None]} for x in xtr[:10]))
    assert (q(xte)[0].argmax(1) == yte).mean() > 0.9
    with pytest.raises(ValueError, match="need calibration="):
        paddle_mlir.compile(model, precision="int8", accuracy_target="top1=0.9")


def bad_samples(tmp_path, kind):
    d = tmp_path / kind
    d.mkdir()
    x = np.zeros((1, 1, 8, 8), np.float32)
    if kind == "empty":
        pass
    elif kind == "dtype":
        np.save(d / "a.npy", x.astype(np.float64))
    elif kind == "shape":
        np.save(d / "a.npy", np.zeros((1, 1, 9, 9), np.float32))
    elif kind == "name":
        np.savez(d / "a.npz", image=x)
    elif kind == "nan":
        np.save(d / "a.npy", x)
        y = x.copy()
        y[0, 0, 2, 3] = np.nan
        np.save(d / "b.npy", y)
        np.save(d / "c.npy", x)
    elif kind == "compressed":
        np.savez_compressed(d / "a.npz", x=x)
    elif kind == "truncated":
        np.save(d / "a.npy", x)
        data = (d / "a.npy").read_bytes()
        (d / "a.npy").write_bytes(data[:-10])
    return str(d)


@pytest.mark.parametrize("kind,message", [
    ("empty", "holds no samples"),
    ("dtype", "calibration sample '{d}/a.npy', input 'x': dtype float64, the model takes float32"),
    ("shape", "input 'x': shape [1, 1, 9, 9], the model takes [?, 1, 8, 8]"),
    ("name", "array 'image' is not an input of the model (its inputs: x)"),
    ("nan", "calibration: tensor 'x' on sample '{d}/b.npy': element 19 is NaN"),
    ("compressed", "is compressed (np.savez_compressed); write the samples with np.savez"),
    ("truncated", "is not a valid .npy file: truncated data"),
    ("missing", "--calibration-data '{d}' is not a directory"),
])
def test_bad_samples(digits_setup, tmp_path, kind, message):
    m, model, samples, xte, yte, acc_fp32, tmp = digits_setup
    d = str(tmp_path / kind) if kind == "missing" else bad_samples(tmp_path, kind)
    out = tmp_path / "out"
    p = compile_int8(model, d, out)
    assert p.returncode == 1, p.stderr
    assert message.format(d=d) in p.stderr, p.stderr
    errors = [l for l in p.stderr.splitlines() if "error" in l]
    assert len(errors) == 1, p.stderr
    assert not out.exists()


@pytest.mark.parametrize("args,message", [
    (["--accuracy-target", "top1=0.9"], "--accuracy-target only applies with --calibration-data"),
    (["--quantize-include", "fc"], "--quantize-include only applies with --calibration-data"),
    (["--calibration-data", "D", "--accuracy-target", "top5=1"], "--accuracy-target must be"),
    (["--calibration-data", "D", "--calibration-method", "entropy"],
     "--calibration-method must be minmax, percentile, kl or mse, not 'entropy'"),
    (["--calibration-data", "D", "--calibration-samples", "-3"], "--calibration-samples must be"),
    (["--calibration-data", "D"], "--calibration-data only applies to --precision int8"),
])
def test_option_errors(digits_setup, tmp_path, args, message):
    m, model, samples, xte, yte, acc_fp32, tmp = digits_setup
    prec = [] if args == ["--calibration-data", "D"] else ["--precision", "int8"]
    p = subprocess.run([tool("paddle-compile"), model, "-o", str(tmp_path / "o")] + prec + args,
                       capture_output=True, text=True)
    assert p.returncode == 1, p.stderr
    assert message in p.stderr, p.stderr


MODELS = os.path.normpath(os.path.join(os.path.dirname(__file__), "..", "..", "..", "shared",
                                       "models", "paddle"))


def photos(n, seed=0):
    """Crops (random size and place) and flips of scikit-image's sample
    photos, ImageNet-normalized, [1, 3, 224, 224] each."""
    import skimage.data as sd
    from skimage.transform import resize
    rng = np.random.RandomState(seed)
    images = [sd.astronaut(), sd.coffee(), sd.chelsea(), sd.rocket()]
    mean, std = np.array([0.485, 0.456, 0.406]), np.array([0.229, 0.224, 0.225])
    out = []
    for i in range(n):
        im = images[i % len(images)]
        h, w, _ = im.shape
        s = int(min(h, w) * rng.uniform(0.4, 1.0))
        y, x = rng.randint(0, h - s + 1), rng.randint(0, w - s + 1)
        crop = im[y:y + s, x:x + s]
        if rng.rand() < 0.5:
            crop = crop[:, ::-1]
        r = resize(crop, (224, 224), anti_aliasing=True)
        out.append(((r - mean) / std).transpose(2, 0, 1)[None].astype(np.float32))
    return out


def test_mobilenet_v1_natural_images(tmp_path):
    """MobileNetV1 (trained weights but for the last pointwise conv, see
    ../shared/models/README.md) calibrated on 40 photo crops; the compiler's
    own check on the 10 held out, and ours on 16 other crops."""
    model = os.path.join(MODELS, "mobilenet_v1_fp32_224")
    if not os.path.isdir(model):
        pytest.skip("../shared/models/paddle/mobilenet_v1_fp32_224 is absent")
    samples = tmp_path / "samples"
    samples.mkdir()
    for i, x in enumerate(photos(50)):
        np.save(samples / ("%03d.npy" % i), x)
    out, fp32 = tmp_path / "int8", tmp_path / "fp32"
    p = compile_int8(model, str(samples), out, "--input-shape", "image=1x3x224x224")
    assert p.returncode == 0, p.stderr
    subprocess.run([tool("paddle-compile"), model, "--input-shape", "image=1x3x224x224", "-o",
                    str(fp32)], check=True, capture_output=True)
    rep = report(out)
    assert manifest(out)["compute_ops"]["int8_ops"] == 27  # all but the classifier
    f, q = paddle_mlir.load(str(fp32)), paddle_mlir.load(str(out))
    ref = np.concatenate([f(x)[0] for x in photos(16, seed=1)])
    got = np.concatenate([q(x)[0] for x in photos(16, seed=1)])
    sqnr = 10 * np.log10((ref ** 2).sum() / ((ref - got) ** 2).sum())
    agree = (ref.argmax(1) == got.argmax(1)).mean()
    print("mobilenet_v1 int8: compiler's check %.1f dB / top-1 %.3f; held-out crops %.1f dB / "
          "top-1 %.3f" % (rep["result"]["output_sqnr_db"], rep["result"]["top1_agreement"], sqnr,
                          agree))
    assert rep["result"]["output_sqnr_db"] > 18
    assert sqnr > 18 and agree >= 0.9


def conv_bias(b, w, bias, v, i, pad):
    """conv2d by w[i] then + bias[i] per channel, in the builder `b`."""
    y = b.conv2d(v, b.param("w%d" % i, w[i]), padding=pad)
    return b.elementwise("elementwise_add", y, b.param("b%d" % i, bias[i]), axis=1)


def qconv(w, bias, xq, x_scale, i, pad):
    """The int8 conv's arithmetic in float64: integer input xq (step
    x_scale) by w[i] quantized per output channel (max |w| / 127), then the
    scales and bias[i]; the convolution itself is PyTorch's."""
    import torch
    wt = w[i].astype(np.float64)
    sw = np.abs(wt).max(axis=(1, 2, 3)) / 127
    wq = np.rint(wt / sw.reshape(-1, 1, 1, 1))
    acc = torch.nn.functional.conv2d(torch.from_numpy(xq), torch.from_numpy(wq),
                                     padding=pad).numpy()
    return acc * (x_scale * sw).reshape(1, -1, 1, 1) + bias[i].reshape(1, -1, 1, 1)


def calibrate_block(tmp_path, b, c, wfc, bfc):
    """Ends the block `c` of builder `b` with the classifier (flatten, then
    wfc and bfc), saves it and compiles it in int8 calibrated (minmax) on
    100 digits training images. Returns the artifact folder, the digits test
    images and the report's layers."""
    b.fetch(b.linear(b.flatten(c, 1, 3), b.param("wfc", wfc), b.param("bfc", bfc)))
    model = str(tmp_path / "block")
    b.save(model)
    xtr, _, xte, _ = digits()
    out = tmp_path / "int8"
    p = compile_int8(model, write_samples(tmp_path / "samples", xtr[:100]), out,
                     "--calibration-method", "minmax")
    assert p.returncode == 0, p.stderr
    return out, xte, report(out)["layers"]


def test_residual_block_runs_int8_between_blocks(tmp_path):
    """A ResNet stem and block under calibration: conv0 + relu, 2x2 max
    pooling (r), conv1 + relu, conv2 + r + relu, then the classifier (fp32
    by default). r is quantized for conv1; conv2 reads that uint8 tensor as
    its residual (with r's scale), the pooling then pools uint8, so conv0
    writes uint8 and nothing between the convolutions is float. The output
    is checked against a NumPy simulation of exactly that int8 arithmetic,
    with the thresholds the report gives, on the digits test images."""
    rng = np.random.RandomState(5)
    w = [(rng.standard_normal(s) * 0.4).astype(np.float32)
         for s in [(8, 1, 3, 3), (8, 8, 3, 3), (8, 8, 1, 1)]]
    bias = [rng.uniform(-0.1, 0.1, 8).astype(np.float32) for _ in range(3)]
    wfc = (rng.standard_normal((128, 10)) * 0.2).astype(np.float32)
    bfc = rng.uniform(-0.1, 0.1, 10).astype(np.float32)
    b = ProgramBuilder()
    x = b.feed("x", [-1, 1, 8, 8])
    r = b.pool2d(b.relu(conv_bias(b, w, bias, x, 0, 1)), "max", 2, stride=2)
    a = b.relu(conv_bias(b, w, bias, r, 1, 1))
    c = b.relu(b.elementwise("elementwise_add", conv_bias(b, w, bias, a, 2, 0), r))
    out, xte, layers = calibrate_block(tmp_path, b, c, wfc, bfc)
    assert [l["precision"] for l in layers] == ["int8", "int8", "int8", "fp32"], layers
    s = [l["scale"] for l in layers[:3]]
    assert [l["dtype"] for l in layers[:3]] == ["uint8"] * 3, layers
    ops = manifest(out)["compute_ops"]["ops"]
    assert [o["output"]["dtype"] for o in ops[:3]] == ["uint8", "uint8", "float32"], ops
    assert '"pd.pool2d -> pdk_pool2d": 1' in json.dumps(manifest(out)["kernels"]["calls"])
    assert ops[2]["residual"] == {"dtype": "uint8", "scale": pytest.approx(s[1])}, ops

    def q(v, scale):  # to uint8: round half to even, saturate
        return np.clip(np.rint(v / scale), 0, 255)

    # The image's quantizer divides in float32, as the generated code does:
    # digits pixels are multiples of 1/16, so 0.5 / (1 / 255) is a tie
    # which float32 and float64 break differently.
    xq = np.clip(np.rint(xte[:64] / np.float32(s[0])), 0, 255).astype(np.float64)
    y0 = q(np.maximum(qconv(w, bias, xq, s[0], 0, 1), 0), s[1])
    rq = y0.reshape(len(xq), 8, 4, 2, 4, 2).max(axis=(3, 5))  # 2x2 max pooling
    aq = q(np.maximum(qconv(w, bias, rq, s[1], 1, 1), 0), s[2])
    c = np.maximum(qconv(w, bias, aq, s[2], 2, 0) + s[1] * rq, 0)
    sim = c.reshape(len(xq), -1) @ wfc + bfc
    got = paddle_mlir.load(str(out))(xte[:64])[0]
    # The kernels compute the same integers but for values on a rounding
    # boundary (f32 against float64 here), where one level of a or r moves
    # one c by at most s_a * max_o sum |w2[o]| + s_r, and a logit by that
    # times max |wfc|.
    level = (s[2] * np.abs(w[2]).sum(axis=(1, 2, 3)).max() + s[1]) * np.abs(wfc).max()
    err = np.abs(got - sim)
    assert err.max() <= 4 * level, (err.max(), level)
    assert np.mean(err < 1e-4) > 0.95, np.mean(err < 1e-4)


def test_downsample_shortcut_runs_int8(tmp_path):
    """A ResNet downsampling block under calibration: conv0 + relu (r), the
    branch conv1 + relu (a) and conv2, the shortcut conv3 of r, then
    relu(conv2 + shortcut) and the classifier (fp32 by default). The
    shortcut is observed and quantized like an activation, so conv3 writes
    int8 (signed: the shortcut has no relu) and conv2 reads it as its
    residual with that scale: nothing between the convolutions is float.
    Checked against a NumPy simulation of that int8 arithmetic."""
    rng = np.random.RandomState(6)
    w = [(rng.standard_normal(s) * 0.4).astype(np.float32)
         for s in [(8, 1, 3, 3), (8, 8, 3, 3), (16, 8, 1, 1), (16, 8, 1, 1)]]
    bias = [rng.uniform(-0.1, 0.1, s[0]).astype(np.float32) for s in
            [(8,), (8,), (16,), (16,)]]
    wfc = (rng.standard_normal((16 * 64, 10)) * 0.05).astype(np.float32)
    bfc = rng.uniform(-0.1, 0.1, 10).astype(np.float32)
    b = ProgramBuilder()
    x = b.feed("x", [-1, 1, 8, 8])
    r = b.relu(conv_bias(b, w, bias, x, 0, 1))
    a = b.relu(conv_bias(b, w, bias, r, 1, 1))
    sc = conv_bias(b, w, bias, r, 3, 0)
    c = b.relu(b.elementwise("elementwise_add", conv_bias(b, w, bias, a, 2, 0), sc))
    out, xte, layers = calibrate_block(tmp_path, b, c, wfc, bfc)
    assert [l["precision"] for l in layers] == ["int8"] * 4 + ["fp32"], layers
    # The layers in program order: conv0 (reads x), conv1 (r), conv3 (r),
    # conv2 (a).
    s = [layers[0]["scale"], layers[1]["scale"], layers[3]["scale"]]  # x, r, a
    assert layers[2]["scale"] == layers[1]["scale"]
    ops = manifest(out)["compute_ops"]["ops"]
    assert [o["output"]["dtype"] for o in ops[:4]] == ["uint8", "uint8", "int8", "float32"], ops
    s_sc = ops[2]["output"]["scale"]
    assert ops[3]["residual"] == {"dtype": "int8", "scale": pytest.approx(s_sc)}, ops

    def q(v, scale, lo, hi):  # round half to even, saturate
        return np.clip(np.rint(v / scale), lo, hi)

    xq = np.clip(np.rint(xte[:64] / np.float32(s[0])), 0, 255).astype(np.float64)
    rq = q(np.maximum(qconv(w, bias, xq, s[0], 0, 1), 0), s[1], 0, 255)
    aq = q(np.maximum(qconv(w, bias, rq, s[1], 1, 1), 0), s[2], 0, 255)
    scq = q(qconv(w, bias, rq, s[1], 3, 0), s_sc, -128, 127)
    c = np.maximum(qconv(w, bias, aq, s[2], 2, 0) + s_sc * scq, 0)
    sim = c.reshape(len(xq), -1) @ wfc + bfc
    got = paddle_mlir.load(str(out))(xte[:64])[0]
    # Off only where a value lies on a rounding boundary: one level of a or
    # of the shortcut moves one c by at most s_a * max_o sum |w2[o]| + s_sc.
    level = (s[2] * np.abs(w[2]).sum(axis=(1, 2, 3)).max() + s_sc) * np.abs(wfc).max()
    err = np.abs(got - sim)
    assert err.max() <= 4 * level, (err.max(), level)
    assert np.mean(err < 1e-4) > 0.95, np.mean(err < 1e-4)


def test_bert_attention_runs_int8(tmp_path):
    """A 2-layer BERT encoder (the zoo's, hidden 64, 4 heads, a 3-class head)
    calibrated on token ids: under --precision int8 the self-attention is not
    fused into pd.multihead_matmul (it has no int8 form), so the Q, K and V
    projections are int8 fc layers like the output and feed-forward ones, and
    calibration observes both operands of the attention's products, which
    run int8 too; the fp32 build still fuses it. The int8 logits follow
    PyTorch's module (the oracle) within int8 error on held-out sequences."""
    torch = pytest.importorskip("torch")
    from paddle_mlir import zoo
    cfg = dict(layers=2, hidden=64, heads=4, classes=3)
    b, _ = zoo.build("bert_base", **cfg)
    model = str(tmp_path / "bert")
    b.save(model)
    rng = np.random.default_rng(4)

    def sample():
        ids = rng.integers(1, 30522, size=(2, 16)).astype(np.int64)
        ids[:, 12:] = 0
        types = np.zeros((2, 16), np.int64)
        types[:, 8:] = 1
        return ids, types

    samples = tmp_path / "samples"
    samples.mkdir()
    for i in range(20):
        ids, types = sample()
        np.savez(samples / ("%02d.npz" % i), input_ids=ids, token_type_ids=types)
    shapes = ["--input-shape", "input_ids=2x16", "--input-shape", "token_type_ids=2x16"]
    out, fp32 = tmp_path / "int8", tmp_path / "fp32"
    p = compile_int8(model, str(samples), out, *shapes)
    assert p.returncode == 0, p.stderr
    subprocess.run([tool("paddle-compile"), model, "-o", str(fp32)] + shapes, check=True,
                   capture_output=True)
    ops = manifest(out)["compute_ops"]
    assert not [o for o in ops["ops"] if o["op"] == "multihead_matmul"]
    # 6 projections and the attention's 2 products of activations per layer
    # (Q K^T with both operands calibrated, P V with P as uint8); the
    # classifier stays fp32 by default.
    assert ops["int8_ops"] == 16, [(o["op"], o["precision"]) for o in ops["ops"]]
    products = [o for o in ops["ops"] if o["op"] == "matmul_v2"]
    assert [o["precision"] for o in products] == ["int8"] * 4, products
    assert {o["input"]["dtype"] for o in products} == {"int8", "uint8"}, products
    assert {o["y"]["dtype"] for o in products} == {"int8"}, products
    assert [o for o in manifest(fp32)["compute_ops"]["ops"] if o["op"] == "multihead_matmul"]
    ref_model = zoo.make_torch_bert(0, **cfg).eval()
    q = paddle_mlir.load(str(out))
    refs, gots = [], []
    for _ in range(8):
        ids, types = sample()
        with torch.no_grad():
            refs.append(ref_model(torch.from_numpy(ids), torch.from_numpy(types)).numpy())
        gots.append(q(ids, types)[0])
    ref, got = np.concatenate(refs), np.concatenate(gots)
    sqnr = 10 * np.log10((ref ** 2).sum() / ((ref - got) ** 2).sum())
    assert sqnr > 25, sqnr
