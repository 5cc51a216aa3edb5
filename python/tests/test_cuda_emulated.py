"""Whole cuda artifacts computed without a GPU (paddle-compile --target cuda
--cuda-emulate): the generated kernels run as host loops over the device
buffers (pd-gpu-emulate-launches), on the tests' stand-ins of the CUDA
driver (device memory is host memory), cuDNN and cuBLASLt (which compute
as the libraries define their calls). So everything of the CUDA target but
the kernels' NVVM lowering and the libraries themselves is checked against
an independent oracle: the grid mapping and block reductions of every op of
the zoo models, the library calls' descriptors, the device arena and its
memory plan, the weights' upload, the copies in and out, and, under
mpirun, the collectives and stages of data-parallel and pipeline jobs. On a
GPU, scripts/gpu-check.sh runs the real kernels."""
import json
import os
import re
import subprocess
import sys

import numpy as np
import pytest

import paddle_mlir
import stand_ins as cuda_stand_ins
from paddle_mlir import zoo
from test_collectives import needs_mpi
from test_cuda_artifact import ROOT, TOOLKIT
from test_cuda_collectives import run_job
from test_reductions import tool

pytestmark = pytest.mark.skipif(not os.access(os.path.join(TOOLKIT, "bin", "ptxas"), os.X_OK),
                                reason="no CUDA toolkit (ptxas) at %s" % TOOLKIT)
INPUTS = os.path.join(ROOT, "test", "e2e", "Inputs")


@pytest.fixture(scope="module")
def stand_ins(tmp_path_factory):
    """The driver, cuDNN and cuBLASLt stand-ins as environment variables,
    and a driver that hides that its memory is host memory (as a real one
    does not have it)."""
    d = tmp_path_factory.mktemp("stand_ins")
    built = cuda_stand_ins.build(d, ["driver", "cudnn", "cublaslt"])
    built["real_driver"] = cuda_stand_ins.library(d, "driver-device")
    return built


def fakes(stand_ins):
    return {k: v for k, v in stand_ins.items() if k.startswith("PADDLE_MLIR_")}


def zoo_model(tmp_path, name, **kw):
    b, _ = zoo.build(name, **kw)
    b.save(str(tmp_path / name))
    return str(tmp_path / name)


@pytest.mark.parametrize("name,shapes,zoo_args", [
    ("mobilenet_v2", ["image=2x3x224x224"], []),
    ("resnet50", ["image=1x3x224x224"], []),
    ("bert_base", ["input_ids=2x20:int64:30522", "token_type_ids=2x20:int64:2"], ["layers=2"]),
])
def test_zoo_model_matches_pytorch(tmp_path, stand_ins, name, shapes, zoo_args):
    """Each zoo model's cuda artifact, kernels emulated, gives what the
    PyTorch module it was built from gives (fp32 within 1e-4)."""
    kw = {k: int(v) for k, v in (a.split("=") for a in zoo_args)}
    model = zoo_model(tmp_path, name, **kw)
    art = str(tmp_path / "art")
    input_shapes = {s.split("=")[0]: [int(d) for d in s.split("=")[1].split(":")[0].split("x")]
                    for s in shapes}
    paddle_mlir.compile(model, target="cuda", input_shapes=input_shapes, output_dir=art,
                        _extra_options={"cuda-emulate": "true"})
    target = json.load(open(os.path.join(art, "manifest.json")))["target"]
    assert target["kind"] == "cuda" and target["emulated"] is True
    assert target["kernels"] == []  # none built: the host code runs them
    cmd = [sys.executable, os.path.join(INPUTS, "compare.py"), art, "--torch", name]
    for s in shapes:
        cmd += ["--shape", s]
    for a in zoo_args:
        cmd += ["--zoo-arg", a]
    env = dict(os.environ, PATH=os.path.dirname(tool("paddle-run")) + os.pathsep +
               os.environ.get("PATH", ""), **fakes(stand_ins))
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=600, env=env)
    assert r.returncode == 0, r.stdout + r.stderr
    assert re.search(r": shape .* OK$", r.stdout, re.M), r.stdout
    # The library calls ran on the stand-ins, nothing was launched.
    assert re.search(r"fake-cuda: modules=0 functions=0 launches=0 ", r.stderr), r.stderr
    if name == "bert_base":
        assert "fake-cublaslt: handles=1 plans=8 matmuls=8 tf32=0" in r.stderr, r.stderr
    else:
        assert re.search(r"fake-cudnn: handles=1 plans=(\d+) convs=\1 fma=\1", r.stderr), r.stderr


@needs_mpi
@pytest.mark.parametrize("stages", [2, 3])
def test_pipeline_stages_compute(tmp_path, stand_ins, monkeypatch, stages):
    """MobileNetV2 as a cuda pipeline of 2 and 3 stages, kernels emulated:
    each rank uploads only its stage's weights to its device, computes its
    stage there, the activations pass through the communicator, and rank
    0's output equals the single-process CPU artifact's within 1e-5."""
    model = zoo_model(tmp_path, "mobilenet_v2")
    shapes = {"image": [2, 3, 224, 224]}
    x = np.random.RandomState(3).standard_normal((2, 3, 224, 224)).astype(np.float32)
    art = tmp_path / "art"
    paddle_mlir.compile(model, target="cuda", input_shapes=shapes, partition="pipeline",
                        devices=stages, output_dir=str(art),
                        _extra_options={"cuda-emulate": "true"})
    manifest = json.load(open(art / "manifest.json"))
    assert len(manifest["partition"]["stages"]) == stages
    out = tmp_path / "out"
    out.mkdir()
    for var, value in fakes(stand_ins).items():
        monkeypatch.setenv(var, value)
    monkeypatch.setenv("FAKE_CUDA_LOG_ALLOCS", "1")
    r = run_job(stages, art, {"image": x}, out)
    assert r.returncode == 0, r.stdout + r.stderr
    # Each rank's first device allocation is its weights: its stage's,
    # packed (256-byte aligned), not the whole file.
    first = {}
    for size, pid in re.findall(r"fake-cuda: alloc (\d+) pid (\d+)", r.stderr):
        first.setdefault(pid, int(size))
    nbytes = {w["name"]: 4 * int(np.prod(w["shape"])) for w in manifest["weights"]}
    want = sorted(sum((nbytes[n] + 255) // 256 * 256 for n in st["weights"]) + 64
                  for st in manifest["partition"]["stages"])
    assert sorted(first.values()) == want, (first, want)
    assert max(want) < manifest["weights_bytes"]
    # Every rank ran convolutions, and together each of the 52 once per
    # micro-batch (the batch of 2 goes through in 2 by default).
    micro = manifest["partition"].get("micro_batches", 1)
    convs = sorted(int(n) for n in re.findall(r"fake-cudnn: .* convs=(\d+)", r.stderr))
    assert len(convs) == stages and convs[0] > 0 and sum(convs) == 52 * micro, r.stderr
    [name] = [o["name"] for o in manifest["outputs"]]
    want = paddle_mlir.compile(model, input_shapes=shapes)(image=x, return_dict=True)[name]
    np.testing.assert_allclose(np.load(out / (name + ".npy")), want, rtol=1e-5, atol=1e-5)


@needs_mpi
def test_data_parallel_bert(tmp_path, stand_ins, monkeypatch):
    """A 2-layer BERT data-parallel on 2 ranks as a cuda artifact, kernels
    emulated: each rank computes its half of the batch and rank 0's
    gathered output equals the single-process CPU artifact's within 1e-5."""
    model = zoo_model(tmp_path, "bert_base", layers=2)
    shapes = {"input_ids": [4, 16], "token_type_ids": [4, 16]}
    rs = np.random.RandomState(4)
    inputs = {"input_ids": rs.randint(0, 30522, (4, 16)).astype(np.int64),
              "token_type_ids": rs.randint(0, 2, (4, 16)).astype(np.int64)}
    art = tmp_path / "art"
    paddle_mlir.compile(model, target="cuda", input_shapes=shapes, partition="data", devices=2,
                        output_dir=str(art), _extra_options={"cuda-emulate": "true"})
    out = tmp_path / "out"
    out.mkdir()
    for var, value in fakes(stand_ins).items():
        monkeypatch.setenv(var, value)
    r = run_job(2, art, inputs, out)
    assert r.returncode == 0, r.stdout + r.stderr
    # Each rank multiplied its own rows: 8 products each.
    assert r.stderr.count("fake-cublaslt: handles=1 plans=8 matmuls=8 tf32=0") == 2, r.stderr
    [name] = [o["name"] for o in json.load(open(art / "manifest.json"))["outputs"]]
    want = paddle_mlir.compile(model, input_shapes=shapes)(**inputs, return_dict=True)[name]
    np.testing.assert_allclose(np.load(out / (name + ".npy")), want, rtol=1e-5, atol=1e-5)


def test_emulated_artifact_refuses_a_real_driver(tmp_path, stand_ins):
    """On a driver whose device memory is not host memory (here the stand-in
    built without its marker, as a real driver is), an emulated artifact
    fails at load saying why, instead of its host code reading device
    addresses; the same driver runs the artifact built for the GPU."""
    from paddle_mlir.builder import ProgramBuilder
    b = ProgramBuilder()
    b.fetch(b.relu(b.feed("x", [4, 8])))
    b.save(str(tmp_path / "m"))
    paddle_mlir.compile(str(tmp_path / "m"), target="cuda", output_dir=str(tmp_path / "em"),
                        _extra_options={"cuda-emulate": "true"})
    paddle_mlir.compile(str(tmp_path / "m"), target="cuda", output_dir=str(tmp_path / "gpu"))
    np.save(tmp_path / "x.npy", np.ones((4, 8), np.float32))
    env = dict(os.environ, PADDLE_MLIR_CUDA_DRIVER=stand_ins["real_driver"])
    for art, ok in [("em", False), ("gpu", True)]:
        out = tmp_path / ("out_" + art)
        r = subprocess.run([tool("paddle-run"), str(tmp_path / art), "--output-dir", str(out),
                            "--input", "x=%s" % (tmp_path / "x.npy")],
                           capture_output=True, text=True, timeout=120, env=env)
        if ok:
            assert r.returncode == 0, r.stderr
            continue
        assert 0 < r.returncode < 128
        assert "was compiled with --cuda-emulate: its kernels are host code that needs a CUDA " \
               "driver whose device memory is host memory (the tests' stand-in); recompile " \
               "without --cuda-emulate to run it on a GPU" in r.stderr, r.stderr
        assert not out.exists() or not any(out.iterdir())


def test_cuda_emulate_needs_the_cuda_target(tmp_path):
    from paddle_mlir.builder import ProgramBuilder
    b = ProgramBuilder()
    b.fetch(b.relu(b.feed("x", [4, 8])))
    b.save(str(tmp_path / "m"))
    for flags, message in [(["--cuda-emulate"], "--cuda-emulate applies to --target cuda only"),
                           (["--cuda-index-bitwidth", "64"],
                            "--cuda-index-bitwidth applies to --target cuda only")]:
        r = subprocess.run([tool("paddle-compile"), str(tmp_path / "m"), *flags, "-o",
                            str(tmp_path / "a")], capture_output=True, text=True, timeout=120)
        assert 0 < r.returncode < 128
        assert message in r.stderr, r.stderr
        assert not (tmp_path / "a").exists()


@pytest.mark.parametrize("optimizer,lr,model,tol", [("sgd", 0.1, "plain", 1e-5),
                                                    ("adam", 0.01, "plain", 1e-4),
                                                    ("momentum", 0.1, "bn", 1e-5)])
def test_train_step_equals_cpu(tmp_path, stand_ins, monkeypatch, optimizer, lr, model, tol):
    """A cuda train step (forward, backward and the optimizer's update on
    the device; each instance's trained weights in device memory, updated
    in place) of the digits CNN, with batch norm in training mode for one
    of them: 20 steps on scikit-learn's digits give the CPU train step's
    losses and parameters (within 1e-5 for SGD and momentum, 1e-4 for
    Adam, as issue 36 asks of data-parallel training)."""
    import paddle_mlir.train
    from test_dp_train import BATCH, digits_batches, digits_bn_cnn, digits_cnn
    path = (digits_bn_cnn if model == "bn" else digits_cnn)(tmp_path / "cnn")
    opts = dict(loss_op="softmax_with_cross_entropy", optimizer=optimizer, lr=lr,
                input_shapes={"x": [BATCH, 1, 8, 8]})
    cpu = paddle_mlir.train.compile(path, **opts)
    art = tmp_path / "gpu"
    for var, value in fakes(stand_ins).items():
        monkeypatch.setenv(var, value)
    # In a process of its own: the driver stand-in is loaded once per process.
    paddle_mlir.train.compile(path, target="cuda", output_dir=str(art),
                              _extra_options={"cuda-emulate": "true"}, **opts)
    xs, ys = digits_batches()
    np.savez(tmp_path / "batches.npz", x=xs, label=ys)
    script = """
import sys, numpy as np, paddle_mlir.train
step = paddle_mlir.train.TrainStep(sys.argv[1])
b = np.load(sys.argv[2])
initial = step.parameters()
losses = [step.step(x=x, label=y) for x, y in zip(b["x"], b["label"])]
trained = step.parameters()
# set_parameters reaches the device copies: the first batch's loss again.
step.set_parameters(initial)
again = step.step(x=b["x"][0], label=b["label"][0])
np.savez(sys.argv[3], losses=np.array(losses), again=np.array(again), **trained)
"""
    r = subprocess.run([sys.executable, "-c", script, str(art), str(tmp_path / "batches.npz"),
                        str(tmp_path / "gpu.npz")], capture_output=True, text=True, timeout=600,
                       env=dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path)))
    assert r.returncode == 0, r.stdout + r.stderr
    got = np.load(tmp_path / "gpu.npz")
    want_losses = [cpu.step(x=x, label=y) for x, y in zip(xs, ys)]
    np.testing.assert_allclose(got["losses"], want_losses, rtol=tol, atol=tol)
    assert float(got["again"]) == float(got["losses"][0])
    for name, value in cpu.parameters().items():
        np.testing.assert_allclose(got[name], value, rtol=tol, atol=tol, err_msg=name)
    # The trained weights stay on the device: uploaded once (the inputs and
    # labels are the other copies in), updated there in place.
    # (The trained weights include the optimizer's state.)
    m = re.search(r"fake-cuda: .* h2d=(\d+)", r.stderr)
    weights = json.load(open(art / "manifest.json"))["weights"]
    trained = sum(1 for w in weights if w.get("trainable"))
    # (+ the repeated batch and the restored parameters.)
    restored = len(cpu.parameters())
    assert int(m.group(1)) == 2 * (len(xs) + 1) + trained + restored + 1, r.stderr


def test_train_step_out_of_device_memory_for_a_trained_weight(tmp_path, stand_ins, monkeypatch):
    """A cuda train step whose device has room for the shared weights but
    not for the instance's own copy of a trained weight: the first step
    fails with the runtime's error naming that weight (an exception, no
    crash), and a later instance on a device with room works."""
    import paddle_mlir.train
    from test_dp_train import BATCH, digits_batches, digits_cnn
    path = digits_cnn(tmp_path / "cnn")
    for var, value in fakes(stand_ins).items():
        monkeypatch.setenv(var, value)
    art = tmp_path / "gpu"
    paddle_mlir.train.compile(path, target="cuda", output_dir=str(art), optimizer="sgd", lr=0.1,
                              loss_op="softmax_with_cross_entropy",
                              input_shapes={"x": [BATCH, 1, 8, 8]},
                              _extra_options={"cuda-emulate": "true"})
    xs, ys = digits_batches()
    np.savez(tmp_path / "batch.npz", x=xs[0], label=ys[0])
    script = """
import sys, numpy as np, paddle_mlir.train
b = np.load(sys.argv[2])
try:
    loss = paddle_mlir.train.TrainStep(sys.argv[1]).step(x=b["x"], label=b["label"])
except Exception as e:
    print("ERROR", type(e).__name__, e)
    sys.exit(3)
print("loss", loss)
"""
    def run(**env):
        return subprocess.run([sys.executable, "-c", script, str(art), str(tmp_path / "batch.npz")],
                              capture_output=True, text=True, timeout=300,
                              env=dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path), **env))
    r = run(FAKE_CUDA_LOG_ALLOCS="1")
    assert r.returncode == 0, r.stdout + r.stderr
    sizes = [int(n) for n in re.findall(r"fake-cuda: alloc (\d+) pid", r.stderr)]
    weights = json.load(open(art / "manifest.json"))["weights"]
    trained = [w for w in weights if w.get("trainable")]
    # The shared weights first, then one block per trained weight.
    assert len(sizes) > len(trained) >= 1, (sizes, len(trained))
    r = run(FAKE_CUDA_MEM=str(sizes[0]))
    assert r.returncode == 3, r.stdout + r.stderr
    assert re.search(r"ERROR \w+ .*model '\w+': trained weight '[^']+': ", r.stdout), r.stdout
    assert "bytes on the device failed: CUDA_ERROR_OUT_OF_MEMORY" in r.stdout, r.stdout
    r = run(FAKE_CUDA_MEM=str(sum(sizes)))
    assert r.returncode == 0 and r.stdout.startswith("loss"), r.stdout + r.stderr


@needs_mpi
@pytest.mark.parametrize("n,strategy,overlap", [(2, "allreduce", False), (4, "allreduce", True),
                                                (2, "allreduce", True), (2, "reduce", False)])
def test_data_parallel_training_on_cuda(tmp_path, stand_ins, monkeypatch, n, strategy, overlap):
    """Data-parallel training of the digits CNN on 2 and 4 ranks as a cuda
    artifact (kernels emulated; gradients averaged by allreduce buckets
    through the communicator, started as soon as a bucket is complete and
    waited for before the optimizer reads it (--overlap-buckets: small
    buckets, so that there are several), or reduce-scattered with the
    optimizer state sharded and the parameters gathered back): after 20
    steps every rank's parameters equal single-process CPU training on the
    same global batches within 1e-5."""
    from test_dp_train import train_both
    for var, value in fakes(stand_ins).items():
        monkeypatch.setenv(var, value)
    (losses, want), ranks, manifest = train_both(
        tmp_path, n, "sgd", 0.1, target="cuda", reduce_strategy=strategy, overlap=overlap,
        bucket_mb=0.002 if overlap else None, _extra_options={"cuda-emulate": "true"})
    assert manifest["target"]["kind"] == "cuda" and manifest["partition"]["mode"] == "data"
    buckets = manifest["partition"]["buckets"]
    assert len(buckets) > (1 if overlap else 0), manifest["partition"]
    for r, got in enumerate(ranks):
        for name, value in want.items():
            np.testing.assert_allclose(got[name], value, rtol=1e-5, atol=1e-5,
                                       err_msg="rank %d: %s" % (r, name))


def test_started_bucket_on_nccl_device_buffers(tmp_path, stand_ins):
    """An overlapped gradient bucket with the NCCL backend (stand-ins of the
    CUDA runtime and of one-rank NCCL, kernels emulated): the allreduce
    starts on the bucket's device buffer in place while softmax's kernels
    run, its wait comes before the add that reads it, nothing is staged
    through the host, and the output is relu(g) + softmax(g) (one rank's
    sum is its own)."""
    from test_nccl import stand_ins as nccl_stand_ins
    program = """
func.func @main(%g: tensor<4xf32> {pd.name = "g"}) -> (tensor<4xf32> {pd.name = "y"}) {
  %r = pd.relu %g : (tensor<4xf32>) -> tensor<4xf32>
  %h = pd.allreduce_start %r {bucket = 0 : i64} : (tensor<4xf32>) -> tensor<4xf32>
  %e = pd.softmax %g {axis = -1 : i32} : (tensor<4xf32>) -> tensor<4xf32>
  %s = pd.allreduce_wait %h {bucket = 0 : i64} : (tensor<4xf32>) -> tensor<4xf32>
  %y = pd.elementwise_add %s, %e : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}
"""
    art = tmp_path / "art"
    paddle_mlir.compile(program, target="cuda", output_dir=str(art),
                        _extra_options={"cuda-emulate": "true"})
    g = np.array([-1.0, 0.5, 2.0, -3.0], np.float32)
    np.save(tmp_path / "g.npy", g)
    env = dict(os.environ, PADDLE_MLIR_COMM_BACKEND="nccl", FAKE_CUDART_ALL_DEVICE="1",
               **fakes(stand_ins), **nccl_stand_ins(tmp_path))
    r = subprocess.run([tool("paddle-run"), str(art), "--input", "g=%s" % (tmp_path / "g.npy"),
                        "--output-dir", str(tmp_path / "out")],
                       capture_output=True, text=True, timeout=120, env=env)
    assert r.returncode == 0, r.stdout + r.stderr
    e = np.exp(g - g.max())
    np.testing.assert_allclose(np.load(tmp_path / "out" / "y.npy"),
                               np.maximum(g, 0) + e / e.sum(), rtol=1e-6)
    assert "fake-nccl: comms=1 allreduce=1 " in r.stderr, r.stderr
    assert re.search(r"fake-cudart: mallocs=\d+ copies=0\b", r.stderr), r.stderr


@needs_mpi
@pytest.mark.parametrize("n,micro,optimizer,lr,tol", [(2, 2, "sgd", 0.1, 1e-5),
                                                      (3, 4, "adam", 0.01, 1e-4)])
def test_pipeline_training_on_cuda(tmp_path, stand_ins, monkeypatch, n, micro, optimizer, lr,
                                   tol):
    """Pipeline training of the digits CNN as a cuda artifact (kernels
    emulated): N stages in the 1F1B order over M micro-batches, each rank
    updating the parameters its stage owns on its device. After 20 steps
    rank 0's losses and gathered parameters, and each rank's own
    parameters, equal single-process CPU training within 1e-5 (SGD) and
    1e-4 (Adam)."""
    from test_dp_train import train_both
    from test_pipeline_train import owned
    for var, value in fakes(stand_ins).items():
        monkeypatch.setenv(var, value)
    (want_losses, want), ranks, manifest = train_both(
        tmp_path, n, optimizer, lr, partition="pipeline", micro_batches=micro, target="cuda",
        _extra_options={"cuda-emulate": "true"})
    part = manifest["partition"]
    assert part["mode"] == "pipeline" and len(part["stages"]) == n
    assert manifest["target"]["kind"] == "cuda"
    np.testing.assert_allclose(ranks[0]["losses"], want_losses, rtol=tol, atol=1e-6)
    for name, value in want.items():
        np.testing.assert_allclose(ranks[0][name], value, rtol=tol, atol=1e-6,
                                   err_msg="rank 0: " + name)
    for r, names in owned(manifest, want).items():
        for name in names:
            np.testing.assert_allclose(ranks[r][name], want[name], rtol=tol, atol=1e-6,
                                       err_msg="rank %d: %s" % (r, name))


def test_cuda_train_step_compiles_without_a_gpu(tmp_path):
    """paddle_mlir.train.compile(target="cuda") on a machine without a GPU
    writes and returns the train step (its instance is made at first use);
    a step then fails with the runtime's reason, in a process of its own."""
    import paddle_mlir.train
    from test_dp_train import BATCH, digits_cnn
    step = paddle_mlir.train.compile(digits_cnn(tmp_path / "cnn"), target="cuda",
                                     loss_op="softmax_with_cross_entropy",
                                     input_shapes={"x": [BATCH, 1, 8, 8]},
                                     output_dir=str(tmp_path / "art"))
    assert json.load(open(tmp_path / "art" / "manifest.json"))["target"]["kind"] == "cuda"
    assert step.trainable == ["conv1.w", "conv2.w", "fc.b", "fc.w"]
    script = """
import sys, numpy as np, paddle_mlir.train
step = paddle_mlir.train.TrainStep(sys.argv[1])
try:
    step.step(x=np.zeros((16, 1, 8, 8), np.float32), label=np.zeros((16, 1), np.int64))
except RuntimeError as e:
    print("refused:", e)
"""
    r = subprocess.run([sys.executable, "-c", script, str(tmp_path / "art")], capture_output=True,
                       text=True, timeout=120,
                       env=dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path),
                                PADDLE_MLIR_CUDA_DRIVER=str(tmp_path / "no-such-driver.so")))
    assert r.returncode == 0, r.stderr
    assert "refused: model 'train_step' (cuda, sm_90): no CUDA driver: cannot load" in r.stdout, \
        r.stdout


POOL_CASES = ["max_pool", "max_pool_overlap_pad", "avg_pool_exclusive_pad",
              "avg_pool_inclusive_pad", "global_avg_pool", "global_max_pool",
              "adaptive_avg_pool", "max_pool_nhwc", "max_pool_same", "max_pool_ceil",
              "avg_pool_ceil"]


@pytest.mark.parametrize("name", POOL_CASES + ["lookup_table_v2", "lookup_table_v2_padding",
                                              "lookup_table_padding"])
def test_pool_gradients_on_cuda(tmp_path, stand_ins, name):
    """pool2d_grad and lookup_table_v2_grad in a cuda train step are
    parallel gathers, unlike the CPU's serial scatters (one GPU thread):
    each input cell of a pooling sums the windows that hold it (for max
    pooling a first pass finds each window's first maximum); each element
    of an embedding's gradient sums its row's ids, linked in order by one
    pass over the ids. With the kernels emulated, test_train's pooling
    cases (max and average, overlapping, padded, inclusive, global,
    adaptive, NHWC, SAME, ceil mode) and embedding cases (repeated ids,
    padding_idx, lookup_table v1) give PyTorch's gradients."""
    import test_train
    case = test_train.CASES[name]
    trainer, r = test_train._trainer(case, tmp_path, target="cuda",
                                     _extra_options={"cuda-emulate": "true"})
    np.save(tmp_path / "r.npy", r)
    script = """
import sys, numpy as np, paddle_mlir.train
step = paddle_mlir.train.TrainStep(sys.argv[1])
loss = step.step(np.load(sys.argv[2]))
np.savez(sys.argv[3], loss=np.array(loss), **step.last_gradients)
"""
    p = subprocess.run([sys.executable, "-c", script, trainer.artifact_dir,
                        str(tmp_path / "r.npy"), str(tmp_path / "got.npz")],
                       capture_output=True, text=True, timeout=300,
                       env=dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path),
                                **fakes(stand_ins)))
    assert p.returncode == 0, p.stdout + p.stderr
    got = np.load(tmp_path / "got.npz")
    t_loss, want = test_train._torch_grads(case, r)
    assert abs(float(got["loss"]) - t_loss) <= 1e-4 * abs(t_loss) + 1e-5
    for k in case["params"]:
        np.testing.assert_allclose(got[k], want[k], rtol=1e-4, atol=1e-5,
                                   err_msg="%s: d/d%s" % (name, k))


def test_index_bitwidth_for_large_buffers(tmp_path):
    """A buffer of 2^31 elements or more cannot be indexed by the default
    32-bit kernels: the compile fails naming the flag that fixes it, and
    with cuda_index_bitwidth=64 (paddle-compile --cuda-index-bitwidth 64)
    the artifact is written. (Compiled only: it needs 8 GiB.)"""
    from paddle_mlir.builder import ProgramBuilder
    b = ProgramBuilder()
    b.fetch(b.relu(b.feed("x", [32768, 65536])))
    b.save(str(tmp_path / "m"))
    with pytest.raises(RuntimeError) as e:
        paddle_mlir.compile(str(tmp_path / "m"), target="cuda", output_dir=str(tmp_path / "a"))
    assert "cannot address 'memref<32768x65536xf32>' (2147483648 elements); compile with " \
           "--cuda-index-bitwidth 64" in str(e.value), str(e.value)
    paddle_mlir.compile(str(tmp_path / "m"), target="cuda", cuda_index_bitwidth=64,
                        output_dir=str(tmp_path / "b"))
    assert json.load(open(tmp_path / "b" / "manifest.json"))["target"]["kind"] == "cuda"
    r = subprocess.run([tool("paddle-compile"), str(tmp_path / "m"), "--cuda-index-bitwidth", "16",
                        "--target", "cuda", "-o", str(tmp_path / "c")],
                       capture_output=True, text=True, timeout=120)
    assert 0 < r.returncode < 128 and "--cuda-index-bitwidth must be 32 or 64, not '16'" in \
        r.stderr, r.stderr
