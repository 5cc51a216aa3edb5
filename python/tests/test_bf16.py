"""--precision bf16 (issue 20) end to end: bf16 artifacts against fp32 artifacts
of the same model on natural images (scikit-image's bundled sample photos,
with crops and flips; nothing downloaded): the relative error of the logits
stays within 2e-2 and the top-1 class agrees. On a CPU without AVX512_BF16
or AMX-BF16 the bf16 artifacts are built with --allow-emulated-bf16 (the
same arithmetic in f32), and the test says so."""
import json
import os

import numpy as np
import pytest

import paddle_mlir
from paddle_mlir.builder import ProgramBuilder

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MOBILENET = os.path.join(ROOT, "..", "shared", "models", "paddle", "mobilenet_v1_fp32_224")
LOGIT_TOL = 2e-2


def cpu_has_bf16():
    try:
        with open("/proc/cpuinfo") as f:
            flags = next((l.split(":", 1)[1].split() for l in f if l.startswith("flags")), [])
    except OSError:
        return False
    return "avx512_bf16" in flags or "amx_bf16" in flags


EMULATED = not cpu_has_bf16()


def compile_bf16(model, **kw):
    if EMULATED:
        print("no AVX512_BF16 / AMX-BF16 on this CPU: compiling with --allow-emulated-bf16")
    return paddle_mlir.compile(model, precision="bf16", allow_emulated_bf16=EMULATED, **kw)


def natural_images(size=224):
    """Photos from skimage.data, each as a center crop, a flipped corner crop
    and a whole-image resize, normalized like ImageNet inputs: [N, 3, H, W]."""
    skimage = pytest.importorskip("skimage")
    from skimage import data, transform
    photos = [data.astronaut(), data.coffee(), data.chelsea(), data.rocket()]
    mean = np.array([0.485, 0.456, 0.406], np.float32)
    std = np.array([0.229, 0.224, 0.225], np.float32)
    out = []
    for p in photos:
        p = p[..., :3].astype(np.float32) / 255.0
        h, w = p.shape[:2]
        s = min(h, w)
        views = [p[(h - s) // 2:(h - s) // 2 + s, (w - s) // 2:(w - s) // 2 + s],
                 p[:s * 3 // 4, :s * 3 // 4][:, ::-1], p]
        for v in views:
            v = transform.resize(v, (size, size), anti_aliasing=True).astype(np.float32)
            out.append(((v - mean) / std).transpose(2, 0, 1))
    del skimage
    return np.stack(out).astype(np.float32)


def logit_error(a, b):
    """max over samples of |a - b| / |a| (L2 norms of each sample's logits)."""
    a, b = a.reshape(len(a), -1).astype(np.float64), b.reshape(len(b), -1).astype(np.float64)
    return float(np.max(np.linalg.norm(a - b, axis=1) / np.linalg.norm(a, axis=1)))


def manifest(compiled):
    with open(os.path.join(compiled.artifact_dir, "manifest.json")) as f:
        return json.load(f)


@pytest.mark.skipif(not os.path.isdir(MOBILENET), reason="../shared/models not present")
def test_mobilenet_v1_bf16_vs_fp32():
    images = natural_images()
    shapes = {"image": [len(images), 3, 224, 224]}
    fp32 = paddle_mlir.compile(MOBILENET, input_shapes=shapes)
    bf16 = compile_bf16(MOBILENET, input_shapes=shapes)
    m = manifest(bf16)
    ops = m["compute_ops"]["ops"]
    assert m["precision"] == "bf16" and m["compute_ops"]["bf16"]["emulated"] == EMULATED
    assert all(r["precision"] == "bf16" and r["reason"] == "white list" for r in ops), ops
    assert m["kernels"]["calls"]["pd.fused_conv2d -> pdk_conv2d_bf16"] == 27
    assert m["kernels"]["calls"]["pd.fc -> pdk_matmul_bf16"] == 1
    # The bf16 weights take half the bytes.
    assert all(w["dtype"] in ("bfloat16", "float32") for w in m["weights"])
    assert sum(w["dtype"] == "bfloat16" for w in m["weights"]) == 28
    # The model ends in softmax: its logits are log-probabilities up to a
    # constant per image.
    p32, p16 = fp32(images)[0], bf16(images)[0]
    l32, l16 = np.log(p32), np.log(p16)
    l32 -= l32.mean(axis=1, keepdims=True)
    l16 -= l16.mean(axis=1, keepdims=True)
    err = logit_error(l32, l16)
    top1 = float(np.mean(p32.argmax(1) == p16.argmax(1)))
    print("MobileNetV1, %d natural images: logit relative error %.2e, top-1 agreement %.0f%%%s"
          % (len(images), err, 100 * top1, " (emulated bf16)" if EMULATED else ""))
    assert err <= LOGIT_TOL
    assert top1 == 1.0


class SmallNet:
    """A builder-made CNN with what the white, gray and black lists meet:
    conv + batch_norm + relu6, a depthwise conv, a residual add, max and
    global average pooling, flatten, a linear layer (the logits) and a
    softmax."""

    def __init__(self, seed=0):
        rng = np.random.RandomState(seed)
        b = ProgramBuilder()
        x = b.feed("x", [-1, 3, 64, 64])

        def conv_bn(y, cin, cout, k, stride, name, groups=1, act="relu6"):
            w = b.param(name + "_w", (rng.standard_normal((cout, cin // groups, k, k))
                                      * np.sqrt(2.0 / (k * k * cin // groups))).astype(np.float32))
            y = b.conv2d(y, w, stride=stride, padding=k // 2, groups=groups,
                         depthwise=groups > 1)
            p = lambda n, lo, hi: b.param(name + n, rng.uniform(lo, hi, cout).astype(np.float32))
            y = b.batch_norm(y, p("_g", 0.8, 1.2), p("_b", -0.1, 0.1), p("_m", -0.1, 0.1),
                             p("_v", 0.8, 1.2))
            return b.act(act, y) if act else y

        y = conv_bn(x, 3, 16, 3, 2, "stem")
        y = b.pool2d(y, "max", 3, stride=2, padding=1)
        r = conv_bn(y, 16, 16, 3, 1, "dw", groups=16)
        r = conv_bn(r, 16, 16, 1, 1, "pw", act=None)
        y = b.elementwise("elementwise_add", y, r)
        y = conv_bn(y, 16, 32, 3, 2, "c2")
        y = b.flatten(b.pool2d(y, "avg", 1, global_pooling=True), 1, 3)
        logits = b.linear(y, b.param("fc_w", (rng.standard_normal((32, 10)) * 0.3)
                                     .astype(np.float32)),
                          b.param("fc_b", rng.uniform(-0.1, 0.1, 10).astype(np.float32)))
        b.fetch(logits)
        b.fetch(b.softmax(logits))
        self.b = b

    def save(self, path):
        self.b.save(str(path))
        return str(path)


def test_builder_cnn_bf16_vs_fp32(tmp_path):
    path = SmallNet().save(tmp_path / "net")
    images = natural_images(64)
    fp32 = paddle_mlir.compile(path)
    bf16 = compile_bf16(path)
    (l32, p32), (l16, p16) = fp32(images), bf16(images)
    err = logit_error(l32, l16)
    top1 = float(np.mean(l32.argmax(1) == l16.argmax(1)))
    print("builder CNN, %d natural images: logit relative error %.2e, top-1 agreement %.0f%%"
          % (len(images), err, 100 * top1))
    assert err <= LOGIT_TOL
    assert top1 == 1.0
    np.testing.assert_allclose(p16.sum(1), 1.0, rtol=1e-5)
    m = manifest(bf16)
    recs = {r["op"]: r for r in m["compute_ops"]["ops"]}
    assert recs["fused_conv2d"]["precision"] == "bf16"
    assert recs["fc"]["precision"] == "bf16"
    # Dynamic batch: one artifact serves other sizes too.
    np.testing.assert_allclose(bf16(images[:3])[0], l16[:3], rtol=1e-5, atol=1e-5)


def test_deny_by_name_keeps_fp32(tmp_path):
    # The lever the precision-fallback loop uses: ops named by their Paddle
    # output variables go back to fp32, and the manifest says so.
    path = SmallNet().save(tmp_path / "net")
    fp32 = paddle_mlir.compile(path)
    names = [r["name"] for r in manifest(fp32)["compute_ops"]["ops"]]
    denied = names[:2]
    bf16 = compile_bf16(path, precision_deny=denied)
    recs = {r["name"]: r for r in manifest(bf16)["compute_ops"]["ops"]}
    for n in names:
        want = ("fp32", "user deny") if n in denied else ("bf16", "white list")
        assert (recs[n]["precision"], recs[n]["reason"]) == want, recs[n]
    x = natural_images(64)[:2]
    assert logit_error(fp32(x)[0], bf16(x)[0]) <= LOGIT_TOL


def test_bf16_option_errors(tmp_path):
    path = SmallNet().save(tmp_path / "net")
    with pytest.raises(RuntimeError, match="--precision fp16 is not supported on the CPU target"):
        paddle_mlir.compile(path, precision="fp16")
    with pytest.raises(RuntimeError, match="only applies to --precision bf16"):
        paddle_mlir.compile(path, allow_emulated_bf16=True)
    os.environ["PADDLE_MLIR_ASSUME_NO_BF16"] = "1"
    try:
        with pytest.raises(RuntimeError, match="pass --allow-emulated-bf16"):
            paddle_mlir.compile(path, precision="bf16")
        m = manifest(paddle_mlir.compile(path, precision="bf16", allow_emulated_bf16=True))
        assert m["compute_ops"]["bf16"]["emulated"] is True
    finally:
        del os.environ["PADDLE_MLIR_ASSUME_NO_BF16"]
