"""A cuda artifact through the Python API: compiled everywhere the CUDA
toolkit is; run, and compared with NumPy, where a CUDA device is visible.
Where none is, the run must fail with the runtime's reason, and the
execution test says why it is skipped."""
import ctypes
import importlib.util
import os
import re

import numpy as np
import pytest

import paddle_mlir
import stand_ins as cuda_stand_ins

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TOOLKIT = os.environ.get("PADDLE_MLIR_CUDA_TOOLKIT", "/usr/local/cuda")
pytestmark = pytest.mark.skipif(not os.access(os.path.join(TOOLKIT, "bin", "ptxas"), os.X_OK),
                                reason="no CUDA toolkit (ptxas) at %s" % TOOLKIT)


def visible_device():
    """None when a CUDA device can be used here, else why not."""
    try:
        cuda = ctypes.CDLL("libcuda.so.1")
    except OSError as e:
        return "no NVIDIA driver (%s)" % e
    if cuda.cuInit(0) != 0:
        return "cuInit failed"
    n = ctypes.c_int(0)
    if cuda.cuDeviceGetCount(ctypes.byref(n)) != 0 or n.value == 0:
        return "no CUDA device"
    return None


def mlp(tmp_path):
    """The MLP of scripts/gpu-check (its builder program at tmp_path/mlp)
    and its NumPy reference."""
    spec = importlib.util.spec_from_file_location(
        "gpu_check_prepare", os.path.join(ROOT, "scripts", "gpu-check", "prepare.py"))
    prepare = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(prepare)
    path = str(tmp_path / "mlp")
    reference = prepare.mlp(path)
    return path, lambda xs: reference(xs)[0]


def test_cuda_artifact_runs_where_a_device_is(tmp_path):
    path, reference = mlp(tmp_path)
    model = paddle_mlir.compile(path, target="cuda", cuda_arch="sm_90",
                                input_shapes={"x": [8, 16]})
    xs = np.random.default_rng(4).standard_normal((8, 16)).astype(np.float32)
    why = visible_device()
    if why is not None:
        with pytest.raises(RuntimeError, match="model 'model' \\(cuda, sm_90\\): "):
            model(xs)
        pytest.skip("GPU execution skipped: %s; the run failed with the runtime's reason" % why)
    (out,) = model(xs)
    np.testing.assert_allclose(out, reference(xs), rtol=1e-5, atol=1e-6)


def test_gpu_check_folder(tmp_path):
    """scripts/gpu-check.sh's halves: prepare (here) writes a folder that
    fits a device call (64 MiB) and runs with the runtime and NumPy only;
    run compares each case on the device, or reports the runtime's reason
    for each and fails without one. The zoo cases' traced PyTorch models
    (timed beside them on the device) read their weights from the
    artifacts' weights files (carried once) and compute the reference here
    too, so the timing compares the same weights. The real Paddle models of
    shared/models are cases where that folder is there."""
    import json
    import subprocess
    import sys

    out = tmp_path / "gpu-check"
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    p = subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "gpu-check", "prepare.py"),
                        str(out), "sm_90"], capture_output=True, text=True, env=env, timeout=900)
    assert p.returncode == 0, p.stdout[-2000:] + p.stderr[-2000:]
    real = os.path.isdir(os.path.join(ROOT, "..", "shared", "models", "paddle"))
    names = ["mlp", "tiny_cnn", "collectives", "collectives_nccl", "mobilenet_v2_b1",
             "mobilenet_v2_b8", "resnet50_w16_b1", "resnet50_w16_b8", "bert_2x128_b1",
             "bert_2x128_b8"] + (["mobilenet_v1_b1", "mobilenet_v1_b8", "simple_model_b1"]
                                 if real else [])
    assert "prepared" in p.stdout and "%d cases" % len(names) in p.stdout, p.stdout
    assert real or "skipping the real Paddle models" in p.stdout, p.stdout
    size = sum(f.stat().st_size for f in out.rglob("*") if f.is_file())
    assert size < 60 * 2**20, size
    cases = json.load(open(out / "cases.json"))
    assert [c["name"] for c in cases] == names
    # Every case is compared within 1e-3 of its reference's largest value.
    assert all(c["rtol"] == 1e-3 and c["atol"] == 0 for c in cases)
    # The batch-8 artifacts read the batch-1 weights (one copy carried).
    for name in [n for n in names if n.endswith("_b8")]:
        m = json.load(open(out / name / "artifact" / "manifest.json"))
        assert (out / name / "artifact" / m["weights_file"]).resolve() == \
            (out / name.replace("_b8", "_b1") / "artifact" / "model.weights").resolve()
    # The image models share their images; the others have no PyTorch
    # original and say why.
    for c in cases:
        assert all((out / c.get("inputs_of", c["name"]) / ("in%d.bin" % i)).is_file()
                   for i in range(len(c["inputs"]))), c["name"]
        assert ("torch" in c) != ("no_torch" in c), c["name"]
    assert all("Paddle model" in c["no_torch"] for c in cases if c["name"].startswith(
        ("mobilenet_v1", "simple_model")))
    sys.path.insert(0, str(out))
    try:
        import check
        for c in cases:
            if "torch" not in c:
                continue
            # The traced model's weights are placeholders, read back from
            # the artifact's weights file.
            assert c["torch_weights"]["tensors"] and (out / c["torch"]).stat().st_size < 2**20
            ms, err = check.torch_eager(str(out), c, "cpu", runs=1)
            assert ms is not None, err
            ref = np.load(out / c["name"] / "ref0.npy")
            assert err <= c["atol"] + c["rtol"] * float(np.max(np.abs(ref))), (c["name"], err)
    finally:
        sys.path.remove(str(out))
        sys.modules.pop("check", None)
    # The collectives cases run to the end on the fake driver (whose kernels
    # do not run, so their values are not checked here): one rank through
    # host copies, and through NCCL's stand-in on the device buffers.
    from test_nccl import stand_ins
    fake = cuda_stand_ins.library(tmp_path, "driver")
    for c in cases[2:4]:
        p = subprocess.run([str(out / "runner"), str(out / c["name"] / "artifact"), "cuda:0",
                            str(out / c["name"]), "2"], capture_output=True, text=True, timeout=300,
                           env=dict(os.environ, PADDLE_MLIR_CUDA_DRIVER=fake,
                                    FAKE_CUDART_ALL_DEVICE="1", **stand_ins(tmp_path),
                                    **c.get("env", {})))
        assert p.returncode == 0, p.stdout + p.stderr
        assert ("fake-nccl: comms=1" in p.stderr) == ("env" in c), p.stderr
    # The NCCL check through stand-ins of the CUDA runtime and NCCL: every
    # collective on host buffers, with no MPI.
    p = subprocess.run([sys.executable, str(out / "nccl_check.py"), str(out)],
                       capture_output=True, text=True, timeout=300,
                       env=dict(os.environ, **stand_ins(tmp_path)))
    assert p.returncode == 0 and "nccl: 0 checks failed" in p.stdout, p.stdout + p.stderr
    assert p.stdout.count(" ok\n") == 16, p.stdout  # 8 collectives x 2 dtypes, host buffers
    p = subprocess.run([sys.executable, str(out / "check.py"), str(out)], capture_output=True,
                       text=True, timeout=900)
    why = visible_device()
    if why is None:
        assert p.returncode == 0, p.stdout + p.stderr
        assert "0 of %d cases failed" % len(names) in p.stdout, p.stdout
    else:
        assert p.returncode == 1 and "%d of %d cases failed" % (len(names), len(names)) \
            in p.stdout, p.stdout + p.stderr
        assert p.stdout.count("model 'model' (cuda, sm_90): ") == len(names), p.stdout
        assert "nccl: ERROR starting: NCCL backend, rank 0: " in p.stdout, p.stdout
        pytest.skip("GPU execution skipped: %s; every case failed with the runtime's reason" % why)


def test_gpu_check_dry_run(tmp_path):
    """`scripts/gpu-check.sh dry-run`: the device check's cases compiled with
    their kernels emulated on the host and run through the runner and
    check.py on the stand-ins of the CUDA libraries, so the script and every
    case's artifact, inputs and references are checked end to end, with
    real values, before a GPU session runs them."""
    import subprocess
    import sys

    env = dict(os.environ, GPU_CHECK_DRY_RUN_DIR=str(tmp_path / "dry"),
               PYTHONPATH=os.pathsep.join(sys.path))
    p = subprocess.run(["bash", os.path.join(ROOT, "scripts", "gpu-check.sh"), "dry-run"],
                       capture_output=True, text=True, env=env, timeout=900)
    assert p.returncode == 0, p.stdout[-3000:] + p.stderr[-3000:]
    n = 13 if os.path.isdir(os.path.join(ROOT, "..", "shared", "models", "paddle")) else 10
    assert "prepared %s: %d cases (kernels emulated)" % (tmp_path / "dry", n) in p.stdout, p.stdout
    assert "DRY RUN: kernels emulated on the host" in p.stdout, p.stdout
    assert "0 of %d cases failed" % n in p.stdout and "nccl: 0 checks failed" in p.stdout, p.stdout
    assert len(re.findall(r"^\S+ +ok +\S+ ", p.stdout, re.M)) == n, p.stdout
    # The cases with no PyTorch original say so on their line.
    assert len(re.findall(r" n/a +\(not timed beside PyTorch: ", p.stdout)) == n - 6, p.stdout


def test_instances_on_one_device_share_its_weights(tmp_path):
    """Through a fake CUDA driver (test/e2e/Inputs/fake_libcuda.c: host
    memory, launches counted): two instances (two threads) of one cuda
    artifact on cuda:0 upload the weights once; each has its own input
    buffer and arena."""
    import subprocess
    import sys

    fake = cuda_stand_ins.library(tmp_path, "driver")
    # The MLP's products are cuBLASLt calls: a stand-in on host memory too.
    fake_blas = cuda_stand_ins.library(tmp_path, "cublaslt")
    path, _ = mlp(tmp_path)
    paddle_mlir.compile(path, target="cuda", input_shapes={"x": [8, 16]}).save(
        str(tmp_path / "artifact"))
    # Each thread has its own instance; both are alive at the barrier.
    script = """
import sys, threading, numpy as np, paddle_mlir
m = paddle_mlir.load(sys.argv[1])
x = np.ones((8, 16), np.float32)
both = threading.Barrier(2)
def work():
    m(x)
    both.wait()
runs = [threading.Thread(target=work) for _ in range(2)]
[t.start() for t in runs]
[t.join() for t in runs]
"""
    env = dict(os.environ, PADDLE_MLIR_CUDA_DRIVER=fake, PADDLE_MLIR_CUBLASLT=fake_blas,
               PYTHONPATH=os.pathsep.join(sys.path))
    p = subprocess.run([sys.executable, "-c", script, str(tmp_path / "artifact")],
                       capture_output=True, text=True, env=env, timeout=300)
    assert p.returncode == 0, p.stderr[-3000:]
    line = re.search(r"fake-cuda: (.*)", p.stderr).group(1)
    stats = dict(kv.split("=") for kv in line.split())
    # The weights once; an input buffer and an arena (whose tail is the
    # cuBLASLt workspace) per instance, each with its own cuBLASLt handle.
    assert stats["allocs"] == str(1 + 2 * 2), p.stderr
    assert "fake-cublaslt: handles=2 " in p.stderr, p.stderr
    assert stats["h2d"] == str(1 + 2), p.stderr
    assert stats["d2h"] == "2", p.stderr
    # A stream per instance, and each instance's launches on its own.
    assert int(stats["launches"]) > 0 and stats["streams"] == "2", p.stderr
    assert stats["launch-streams"] == "2", p.stderr


def test_runtime_target_from_the_manifest(tmp_path):
    """The runtime picks the target's code from the manifest's target kind:
    an unknown kind, or a cuda one without its architecture, is refused at
    load naming what the record should be; a cpu artifact refuses a cuda
    device and a cuda artifact the cpu, each naming the --target to
    recompile with."""
    import json
    import shutil

    path, _ = mlp(tmp_path)
    cpu = paddle_mlir.compile(path)
    cpu_dir = cpu.artifact_dir
    x = np.ones((8, 16), np.float32)
    with pytest.raises(ValueError, match=r"is a cpu artifact; it cannot run on 'cuda:0' "
                                           r"\(recompile with --target cuda\)"):
        paddle_mlir.load(cpu_dir, device="cuda:0")(x)
    for target in ({"kind": "tpu"}, {"kind": "cuda"}, "gpu"):
        bad = tmp_path / ("bad_%s" % json.dumps(target).replace('"', "").replace(" ", "")
                          .replace(":", "_").replace("{", "").replace("}", "").replace(",", "_"))
        shutil.copytree(cpu_dir, bad)
        manifest = json.load(open(bad / "manifest.json"))
        manifest["target"] = target
        json.dump(manifest, open(bad / "manifest.json", "w"))
        with pytest.raises(RuntimeError, match=r"the target is not \{\"kind\": \"cpu\"\} or "
                                               r"\{\"kind\": \"cuda\", \"arch\": \.\.\.\}"):
            paddle_mlir.load(str(bad))
    art = tmp_path / "cuda"
    paddle_mlir.compile(path, target="cuda", input_shapes={"x": [8, 16]}, output_dir=str(art))
    with pytest.raises(ValueError, match=r"is a cuda artifact; it cannot run on 'cpu' "
                                           r"\(recompile with --target cpu\)"):
        paddle_mlir.load(str(art), device="cpu")(x)
