"""The numerics check of --precision bf16 (issue 20): fp32 and bf16
artifacts on the same inputs, the error in the manifest, and the fallback
loop shared with int8 calibration moving a deliberately bad op back to
fp32. Builds for CPUs without bf16 arithmetic use --allow-emulated-bf16
(the check then measures the emulation, which rounds like the hardware)."""
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


def has_bf16():
    with open("/proc/cpuinfo") as f:
        flags = f.read()
    return "avx512_bf16" in flags or "amx_bf16" in flags


EMULATE = [] if has_bf16() else ["--allow-emulated-bf16"]
if EMULATE:
    print("this CPU has no AVX512_BF16 / AMX-BF16: compiling with --allow-emulated-bf16")


def hot_softmax_model(path, rng):
    """fc(16 -> 10) scaled to logits around 300 (differences of a few
    units), then softmax: fine in fp32, ruined if the logits are rounded to
    bf16 (a step of 2 at 256..512)."""
    b = ProgramBuilder()
    x = b.feed("x", [-1, 16])
    w = (rng.standard_normal((16, 10)) * 0.5).astype(np.float32)
    h = b.linear(x, b.param("w", w), b.param("bias", np.full(10, 300.0, np.float32)))
    b.fetch(b.softmax(h))
    b.save(str(path))
    return str(path)


def compile_bf16(model, out, *extra):
    return subprocess.run([tool("paddle-compile"), model, "--precision", "bf16", "-o", str(out)]
                          + EMULATE + list(extra), capture_output=True, text=True)


def manifest(out):
    with open(os.path.join(out, "manifest.json")) as f:
        return json.load(f)


def test_check_reports_error_on_random_inputs(tmp_path):
    rng = np.random.RandomState(0)
    model = hot_softmax_model(tmp_path / "m", rng)
    out = tmp_path / "a"
    p = compile_bf16(model, out, "--precision-check", "--input-shape", "x=4x16")
    assert p.returncode == 0, p.stderr
    assert "precision check: bf16 against fp32 on 8 seeded random inputs" in p.stderr
    pc = manifest(out)["compute_ops"]["precision_check"]
    assert pc["samples"] == 8 and pc["moved_to_fp32"] == []
    # Softmax is on the black list: only the fc is bf16, so the error is small.
    assert pc["output_sqnr_db"] > 30 and pc["top1_agreement"] == 1.0
    assert [o["op"] for o in pc["ops"]] == ["fc"]


def test_fallback_moves_the_forced_softmax_back(tmp_path):
    rng = np.random.RandomState(1)
    model = hot_softmax_model(tmp_path / "m", rng)
    data = tmp_path / "data"
    data.mkdir()
    for i in range(6):
        np.save(data / ("%d.npy" % i), rng.standard_normal((4, 16)).astype(np.float32))
    # Forced into bf16, the softmax reads rounded logits: the check sees it.
    bad = tmp_path / "bad"
    p = compile_bf16(model, bad, "--precision-allow", "softmax", "--check-data", str(data))
    assert p.returncode == 0, p.stderr
    pc = manifest(bad)["compute_ops"]["precision_check"]
    worst = min(pc["ops"], key=lambda o: o["own_sqnr_db"])
    assert worst["op"] == "softmax", pc["ops"]
    assert pc["output_sqnr_db"] < 20, pc
    # With a target, it (and only it) moves back to fp32.
    out = tmp_path / "fixed"
    p = compile_bf16(model, out, "--precision-allow", "softmax", "--check-data", str(data),
                     "--accuracy-target", "sqnr=30")
    assert p.returncode == 0, p.stderr
    man = manifest(out)
    pc = man["compute_ops"]["precision_check"]
    assert pc["moved_to_fp32"] == [worst["name"]], pc
    assert pc["meets_target"] and pc["output_sqnr_db"] >= 30
    assert "1 op(s) moved to fp32" in p.stderr
    # The fc stays bf16; the artifact agrees with NumPy.
    recs = {r["op"]: r for r in man["compute_ops"]["ops"]}
    assert recs["fc"]["precision"] == "bf16"
    x = np.load(data / "0.npy")
    f32 = tmp_path / "f32"
    subprocess.run([tool("paddle-compile"), model, "-o", str(f32)], check=True,
                   capture_output=True)
    ref = paddle_mlir.load(str(f32))(x)[0]
    got = paddle_mlir.load(str(out))(x)[0]
    assert 10 * np.log10((ref ** 2).sum() / ((ref - got) ** 2).sum()) >= 30


@pytest.mark.parametrize("args,message", [
    (["--precision", "int8", "--check-data", "D"], "--check-data only applies to --precision bf16"),
    (["--precision-check"], "--precision-check only applies to --precision bf16"),
    (["--accuracy-target", "sqnr=30"],
     "--accuracy-target only applies with --calibration-data (int8) or --precision bf16"),
])
def test_option_errors(tmp_path, args, message):
    model = hot_softmax_model(tmp_path / "m", np.random.RandomState(0))
    p = subprocess.run([tool("paddle-compile"), model, "-o", str(tmp_path / "o")] + args,
                       capture_output=True, text=True)
    assert p.returncode == 1 and message in p.stderr, p.stderr


def test_random_inputs_need_static_shapes(tmp_path):
    model = hot_softmax_model(tmp_path / "m", np.random.RandomState(0))
    p = compile_bf16(model, tmp_path / "o", "--precision-check")
    assert p.returncode == 1
    assert "needs a static shape for input 'x' (--input-shape x=...)" in p.stderr


def test_python_api(tmp_path):
    rng = np.random.RandomState(1)
    model = hot_softmax_model(tmp_path / "m", rng)
    xs = [rng.standard_normal((4, 16)).astype(np.float32) for _ in range(4)]
    m = paddle_mlir.compile(model, precision="bf16", precision_allow=("softmax",),
                            check_data=xs, accuracy_target="sqnr=30",
                            allow_emulated_bf16=bool(EMULATE))
    with open(os.path.join(m._dir, "manifest.json")) as f:
        pc = json.load(f)["compute_ops"]["precision_check"]
    assert len(pc["moved_to_fp32"]) == 1 and pc["meets_target"]
    with pytest.raises(ValueError, match="need calibration="):
        paddle_mlir.compile(model, precision="fp32", accuracy_target="sqnr=30")
