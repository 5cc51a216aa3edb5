"""The zoo models (ResNet-50, MobileNetV2, BERT-base) and the real Paddle
models of shared/models (MobileNetV1, simple_model; custom_gap holds a
custom op no target has) through
`paddle-opt --pd-lower-to-gpu`: every op compiles to generated CUDA kernels
for sm_90, cuBLASLt calls or cuDNN calls (PTX always; cubins assembled by the CUDA
toolkit's ptxas where it is installed). Nothing runs on a GPU here
(docs/GPU.md). Shapes are fixed (batch 2, sequence 128) because
the cuda target needs static shapes for now; weights are elided, since
code generation does not read their values."""
import os
import re
import subprocess

import pytest

from paddle_mlir import ir, zoo

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BUILD = os.environ.get("PADDLE_MLIR_BUILD_DIR", os.path.join(ROOT, "build"))
PADDLE_OPT = os.path.join(BUILD, "bin", "paddle-opt")
TOOLKIT = os.environ.get("PADDLE_MLIR_CUDA_TOOLKIT", "/usr/local/cuda")
HAVE_PTXAS = os.access(os.path.join(TOOLKIT, "bin", "ptxas"), os.X_OK)


SHARED_MODELS = os.path.normpath(os.path.join(ROOT, "..", "shared", "models", "paddle"))


def static_text(name, tmp_path):
    """The zoo model (or a real Paddle model of shared/models) as pd MLIR
    text (weights elided) with its dynamic dims fixed: batch 2, sequence
    128."""
    if name.startswith("shared/"):
        path = os.path.join(SHARED_MODELS, name[len("shared/"):])
        if not os.path.isdir(path):
            pytest.skip("%s is not there (the team's shared/models folder)" % path)
    else:
        # BERT with two encoder layers: the same ops as twelve, a sixth of
        # the kernels to compile.
        b, _ = zoo.build(name, **({"layers": 2} if name == "bert_base" else {}))
        b.save(str(tmp_path / name))
        path = str(tmp_path / name)
    text = ir.import_paddle(path, elide_weights=True)
    head, sep, body = text.partition("func.func @main(")
    assert sep, "no @main in the imported %s" % name
    body = body.replace("tensor<?x", "tensor<2x")
    body = re.sub(r"x\?(?=[x>])", "x128", body)
    assert "tensor<?" not in body and "x?x" not in body
    return head + sep + body


def lower(text, tmp_path, options):
    src = tmp_path / "in.mlir"
    src.write_text(text)
    p = subprocess.run([PADDLE_OPT, str(src), "--pd-lower-to-gpu=" + options], capture_output=True,
                       text=True, timeout=900)
    assert p.returncode == 0, p.stderr[-3000:]
    return p.stdout


@pytest.mark.parametrize("name", ["resnet50", "mobilenet_v2", "bert_base",
                                  "shared/mobilenet_v1_fp32_224", "shared/simple_model"])
def test_model_compiles_for_sm90(name, tmp_path):
    text = static_text(name, tmp_path)
    ptx = lower(text, tmp_path, "format=isa chip=sm_90")
    launches = re.findall(r"gpu\.launch_func\s+@(\w+)::@(\w+)", ptx)
    binaries = re.findall(r"gpu\.binary @(\w+)\s+\[#gpu\.object<#nvvm\.target<O = 3, chip = \"sm_90\", "
                          r"features = \"\+ptx80\">, properties = \{[^}]*\}, assembly = \"([^\"]*)\"", ptx)
    # Every launch has its kernel, and every kernel is sm_90 PTX with an
    # entry point.
    assert len(launches) >= (1 if name == "shared/simple_model" else 20), len(launches)
    assert {m for m, _ in launches} == {m for m, _ in binaries}
    for module, asm in binaries:
        assert ".target sm_90" in asm and ".entry " in asm, module
    # Row reductions are one block per output element, combined by warp
    # shuffles (pd-gpu-block-reductions): the global average pool of the
    # CNNs; in 2-layer BERT the mean and variance of 5 layer_norms and the
    # max and sum of 2 softmaxes.
    shuffles = sum(1 for _, asm in binaries if "shfl.sync.bfly" in asm)
    want = {"resnet50": 1, "mobilenet_v2": 1, "bert_base": 14}.get(name)
    if want is not None:
        assert shuffles == want, shuffles
    # No compute is left on the host: the host function holds launches,
    # views, buffer management and cuBLASLt calls only (pd-gpu-map-loops
    # refuses the rest).
    host = ptx.split("gpu.binary", 1)[0]
    assert "memref.load" not in host and "memref.store" not in host
    # Matrix products are cuBLASLt calls (pd-gpu-library-calls): the CNNs'
    # classifier; in 2-layer BERT 8 per layer (Q, K and V, Q K^T, P V, the
    # output projection, the two FFN products).
    calls = len(re.findall(r"call @pdcu_matmul\(", host))
    want = {"resnet50": 1, "mobilenet_v2": 1, "bert_base": 16}.get(name)
    if want is not None:
        assert calls == want, calls
    # Every convolution is a cuDNN call: ResNet-50's 53, MobileNetV2's 52
    # (plain, depthwise and 1x1).
    convs = len(re.findall(r"call @pdcu_conv2d\(", host))
    want = {"resnet50": 53, "mobilenet_v2": 52, "bert_base": 0}.get(name)
    if want is not None:
        assert convs == want, convs
    if not HAVE_PTXAS:
        pytest.skip("PTX checked; no ptxas under %s to assemble cubins (set PADDLE_MLIR_CUDA_TOOLKIT)"
                    % TOOLKIT)
    cubin = lower(text, tmp_path, "format=bin chip=sm_90 toolkit=" + TOOLKIT)
    elves = re.findall(r'gpu\.binary @\w+\s+\[#gpu\.object<[^>]*>, properties = \{[^}]*\}, bin = "\\7FELF',
                       cubin)
    assert len(elves) == len(binaries), (len(elves), len(binaries))
