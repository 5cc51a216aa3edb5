"""The zoo models (ResNet-50, MobileNetV2, BERT-base) and the real Paddle
models of shared/models (MobileNetV1, simple_model; custom_gap holds a
custom op no target has) through
`paddle-opt --pd-lower-to-gpu`: every op compiles to generated CUDA kernels
for sm_90, cuBLASLt calls or cuDNN calls (PTX always); where the CUDA
toolkit's ptxas is installed, each also becomes the cuda artifact a user
gets, whose library embeds an sm_90 cubin per kernel and whose manifest
names the kernels, the library calls and the ops of each. Nothing runs on
a GPU here (docs/GPU.md). Shapes are fixed (batch 2, sequence 128) because
the cuda target needs static shapes for now; weights are elided, since
code generation does not read their values."""
import json
import os
import re
import struct
import subprocess

import numpy as np
import pytest

import paddle_mlir
from paddle_mlir import ir, zoo
from paddle_mlir.builder import ProgramBuilder

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
    # The artifact a user gets (paddle_mlir.compile(target="cuda"), with
    # the model's weights): its manifest names the target, the chip, every
    # kernel and every library call, and its library embeds one sm_90 cubin
    # per kernel (cuobjdump -lelf would list them; the toolkit here has
    # none, so the ELF headers are read).
    art = tmp_path / "artifact"
    model, shapes = model_folder(name, tmp_path, text)
    paddle_mlir.compile(model, target="cuda", input_shapes=shapes, output_dir=str(art))
    target = json.load(open(art / "manifest.json"))["target"]
    assert target["kind"] == "cuda" and target["arch"] == "sm_90" and "emulated" not in target
    assert len(target["kernels"]) == len(binaries), (len(target["kernels"]), len(binaries))
    library = target["library_calls"]
    assert [c["op"] for c in library].count("conv2d") == {"resnet50": 53, "mobilenet_v2": 52,
                                                           "bert_base": 0}.get(name, convs)
    # With its weights BERT's Q, K and V projections fuse into one product
    # and the attention's two products stay in the fused attention's
    # kernels: 4 per layer (16 from the elided text above).
    assert [c["op"] for c in library].count("matmul") == {"resnet50": 1, "mobilenet_v2": 1,
                                                           "bert_base": 8}.get(name, calls)
    # Each kernel and each library call names the Paddle ops it computes
    # ("relu #12 -> relu_3.tmp_0"); together they cover every conv and
    # product of the program.
    assert set(target["kernel_ops"]) == set(target["kernels"])
    for kernel, ops in target["kernel_ops"].items():
        assert ops and all(re.match(r"\w+ #\d+ -> ", o) for o in ops), (kernel, ops)
    for call in library:
        assert call["from"] and all(re.match(r"\w+ #\d+ -> ", f) for f in call["from"]), call
        if call["op"] == "conv2d":
            assert any(re.match(r"\w*conv2d #", f) for f in call["from"]), call
    cubins = embedded_cubins((art / "libmodel.so").read_bytes())
    assert len(cubins) == len(binaries), (len(cubins), len(binaries))
    assert set(cubins) == {("EM_CUDA", "sm_90")}, set(cubins)


def model_folder(name, tmp_path, text):
    """The model's folder (with its weights) and the static input shapes
    of `text` (its @main's arguments by pd.name)."""
    if name.startswith("shared/"):
        path = os.path.join(SHARED_MODELS, name[len("shared/"):])
    else:
        path = str(tmp_path / name)
    signature = text.partition("func.func @main(")[2].partition(")")[0]
    shapes = {n: [int(d) for d in dims.split("x") if d]
              for dims, n in re.findall(r'tensor<((?:\d+x)+)[a-z]\w*>\s*\{[^}]*pd\.name = "([^"]+)"',
                                        signature)}
    assert shapes, signature
    return path, shapes


def embedded_cubins(data):
    """(machine, chip) of each ELF object embedded in a shared library's
    bytes (the library's own header, at offset 0, excluded): EM_CUDA (190)
    and the sm_XY its flags name (bits 8..15 of e_flags in the ABI the
    CUDA 12+ ptxas writes)."""
    found = []
    at = data.find(b"\x7fELF", 1)
    while at > 0:
        machine, = struct.unpack_from("<H", data, at + 18)
        flags, = struct.unpack_from("<I", data, at + 48)
        if data[at + 4] == 2:  # ELFCLASS64: a whole header (not a stray match)
            found.append(("EM_CUDA" if machine == 190 else "machine %d" % machine,
                          "sm_%d" % ((flags >> 8) & 0xFF)))
        at = data.find(b"\x7fELF", at + 1)
    return found


def test_runtime_links_no_cuda_library(tmp_path):
    """The runtime libraries and a cuda artifact's library load the CUDA
    driver, cuBLASLt, cuDNN, the CUDA runtime and NCCL with dlopen only:
    none is a link-time dependency (ldd), so they load on machines without
    CUDA."""
    path = tmp_path / "mlp"
    b = ProgramBuilder()
    x = b.feed("x", [4, 8])
    w = b.param("w", np.ones((8, 3), np.float32))
    b.fetch(b.relu(b.matmul_v2(x, w)))
    b.save(str(path))
    art = tmp_path / "art"
    paddle_mlir.compile(str(path), target="cuda", output_dir=str(art))
    libs = [os.path.join(BUILD, "lib", n) for n in ("libpdrt.so", "libpdrt_cuda.so")]
    libs += [str(p) for p in sorted(art.glob("*.so"))]
    assert str(art / "libmodel.so") in libs and str(art / "libpdrt_cuda.so") in libs, libs
    for lib in libs:
        r = subprocess.run(["ldd", lib], capture_output=True, text=True)
        assert r.returncode == 0, r.stderr
        for name in ("libcuda.", "libcudart", "libcublas", "libcudnn", "libnccl", "libnvrtc"):
            assert name not in r.stdout, (lib, r.stdout)
        # What each does link: libc's own libraries, the project's, oneDNN's
        # and OpenMP's (not every library needs every one).
        assert "not found" not in r.stdout, (lib, r.stdout)
