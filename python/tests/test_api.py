"""The paddle_mlir Python API: compile, call, save/load, ir, benchmark, threads."""
import os
import subprocess
import sys
import threading

import numpy as np
import pytest

import paddle_mlir
from paddle_mlir import ir, reference
from paddle_mlir.builder import ProgramBuilder

BUILD = os.environ.get("PADDLE_MLIR_BUILD_DIR",
                       os.path.join(os.path.dirname(__file__), "..", "..", "build"))


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    """A small classifier with a dynamic batch and two inputs (image, bias)."""
    d = str(tmp_path_factory.mktemp("tiny"))
    rng = np.random.RandomState(0)
    b = ProgramBuilder()
    x = b.feed("image", [-1, 3, 8, 8])
    bias = b.feed("bias", [4])
    y = b.conv2d(x, b.param("w", (rng.standard_normal((4, 3, 3, 3)) * 0.3).astype(np.float32)), padding=1)
    y = b.relu(b.elementwise("elementwise_add", y, bias, axis=1))
    y = b.flatten(b.pool2d(y, "avg", 1, global_pooling=True), 1, 3)
    b.fetch(b.softmax(y))
    b.save(d)
    return d


@pytest.fixture(scope="module")
def compiled(tiny):
    return paddle_mlir.compile(tiny)


def inputs(batch=2, seed=0):
    rng = np.random.RandomState(seed)
    return rng.rand(batch, 3, 8, 8).astype(np.float32), rng.rand(4).astype(np.float32)


def test_interface(compiled):
    assert [(s.name, s.dtype, s.shape) for s in compiled.inputs] == [
        ("image", "float32", (None, 3, 8, 8)), ("bias", "float32", (4,))]
    assert compiled.outputs[0].shape == (None, 4)


def test_call_matches_reference(tiny, compiled):
    x, bias = inputs()
    (ours,) = compiled(x, bias)
    want = list(reference.load(tiny).run({"image": x, "bias": bias}).values())[0]
    np.testing.assert_allclose(ours, want, rtol=1e-5, atol=1e-6)
    named = compiled(bias=bias, image=x, return_dict=True)
    np.testing.assert_array_equal(named[compiled.outputs[0].name], ours)
    # a non-contiguous view is accepted (copied) and gives the same result
    xt = np.ascontiguousarray(x.transpose(0, 1, 3, 2)).transpose(0, 1, 3, 2)
    np.testing.assert_array_equal(compiled(xt, bias)[0], ours)


def test_input_errors(compiled):
    x, bias = inputs()
    with pytest.raises(TypeError, match="input 'image' must be float32, got float64"):
        compiled(x.astype(np.float64), bias)
    with pytest.raises(ValueError, match=r"input 'image' must have shape \[\?, 3, 8, 8\], got \[2, 3, 4, 8\]"):
        compiled(x[:, :, :4], bias)
    with pytest.raises(ValueError, match="missing input 'bias'"):
        compiled(x)
    with pytest.raises(ValueError, match="model has no input 'mask'"):
        compiled(x, bias, mask=bias)
    with pytest.raises(ValueError, match="input 'image' given twice"):
        compiled(x, bias, image=x)


def test_save_and_load_without_compiler(compiled, tmp_path):
    x, bias = inputs(batch=3, seed=1)
    (want,) = compiled(x, bias)
    compiled.save(str(tmp_path / "art"))
    np.save(tmp_path / "x.npy", x)
    np.save(tmp_path / "b.npy", bias)
    script = (
        "import sys, numpy as np\n"
        "sys.modules['paddle_mlir._compiler'] = None  # the compiler is not installed\n"
        "import paddle_mlir\n"
        "m = paddle_mlir.load(sys.argv[1])\n"
        "np.save(sys.argv[4], m(np.load(sys.argv[2]), np.load(sys.argv[3]))[0])\n")
    subprocess.run([sys.executable, "-c", script, str(tmp_path / "art"), str(tmp_path / "x.npy"),
                    str(tmp_path / "b.npy"), str(tmp_path / "out.npy")], check=True, env=dict(os.environ))
    np.testing.assert_array_equal(np.load(tmp_path / "out.npy"), want)


def test_compile_from_mlir_text_and_ir(tiny, tmp_path):
    text = ir.import_paddle(tiny)
    assert "pd.conv2d" in text and "dense_resource" in text
    optimized = ir.run_pipeline(text, "pd-optimize")
    assert "pd.softmax" in optimized
    ir.export_paddle(text, str(tmp_path / "exported"))
    assert ir.import_paddle(str(tmp_path / "exported")) == text
    m = paddle_mlir.compile(text, input_shapes={"image": [1, 3, 8, 8]})
    assert m.inputs[0].shape == (1, 3, 8, 8)
    x, bias = inputs(batch=1)
    np.testing.assert_allclose(m(x, bias)[0], paddle_mlir.compile(tiny)(x, bias)[0], rtol=1e-6)
    with pytest.raises(RuntimeError, match="is not an ONNX model"):
        bad = tmp_path / "bad.onnx"
        bad.write_text("not a model")
        ir.import_onnx(str(bad))
    with pytest.raises(ValueError, match="invalid pipeline"):
        ir.run_pipeline(text, "no-such-pass")


def test_compile_options_kernels_and_memory_plan(tiny):
    """kernels= and memory_plan= reach the compiler: the manifest records the
    choices, and every combination computes the same result."""
    import json
    x, bias = inputs()
    want = list(reference.load(tiny).run({"image": x, "bias": bias}).values())[0]
    for kernels in ("onednn", "none"):
        for plan in (True, False):
            m = paddle_mlir.compile(tiny, kernels=kernels, memory_plan=plan)
            with open(os.path.join(m.artifact_dir, "manifest.json")) as f:
                manifest = json.load(f)
            assert manifest["kernels"]["requested"] == kernels
            assert bool(manifest["kernels"]["calls"]) == (kernels == "onednn"), manifest["kernels"]
            assert (manifest["memory_plan"]["buffers"] > 0) == plan, manifest["memory_plan"]
            np.testing.assert_allclose(m(x, bias)[0], want, rtol=1e-5, atol=1e-6)
    with pytest.raises(ValueError, match="kernels must be 'onednn' or 'none'"):
        paddle_mlir.compile(tiny, kernels="mkl")


def test_compile_option_cpu(tiny):
    """cpu= reaches the code generator: the manifest names the CPU, a build
    for x86-64-v3 computes the same result, and an unknown CPU is an error."""
    import json
    x, bias = inputs()
    want = list(reference.load(tiny).run({"image": x, "bias": bias}).values())[0]
    m = paddle_mlir.compile(tiny, cpu="x86-64-v3")
    with open(os.path.join(m.artifact_dir, "manifest.json")) as f:
        assert json.load(f)["target"] == {"kind": "cpu", "cpu": "x86-64-v3"}
    np.testing.assert_allclose(m(x, bias)[0], want, rtol=1e-5, atol=1e-6)
    with pytest.raises(RuntimeError, match="--cpu 'pentium9' is not a CPU LLVM knows"):
        paddle_mlir.compile(tiny, cpu="pentium9")


def test_compile_option_parallel(tiny):
    """parallel= reaches the code generator: the manifest says whether
    generated loops were split, and both builds compute the reference result
    (with the split ops forced onto threads in a child process)."""
    import json
    import subprocess
    import sys
    x, bias = inputs()
    want = list(reference.load(tiny).run({"image": x, "bias": bias}).values())[0]
    for flag in (True, False):
        m = paddle_mlir.compile(tiny, kernels="none", parallel=flag)
        with open(os.path.join(m.artifact_dir, "manifest.json")) as f:
            par = json.load(f)["parallel"]
        assert par["enabled"] is flag and (par["ops"] > 0) is flag
        np.testing.assert_allclose(m(x, bias)[0], want, rtol=1e-5, atol=1e-6)
    m = paddle_mlir.compile(tiny, kernels="none")
    np.save(os.path.join(m.artifact_dir, "x.npy"), x)
    np.save(os.path.join(m.artifact_dir, "bias.npy"), bias)
    code = ("import numpy as np, paddle_mlir, sys; d = sys.argv[1]; "
            "m = paddle_mlir.load(d); "
            "np.save(d + '/y.npy', m(np.load(d + '/x.npy'), np.load(d + '/bias.npy'))[0])")
    env = dict(os.environ, PDK_PARALLEL_GRAIN="1", OMP_NUM_THREADS="3")
    subprocess.run([sys.executable, "-c", code, m.artifact_dir], check=True, env=env)
    np.testing.assert_allclose(np.load(os.path.join(m.artifact_dir, "y.npy")), want, rtol=1e-5,
                               atol=1e-6)


def test_compile_option_conv_layout(tiny):
    """conv_layout= reaches pd-kernel-layouts (recorded in the manifest) and
    a bad name is an error."""
    import json
    x, bias = inputs()
    want = list(reference.load(tiny).run({"image": x, "bias": bias}).values())[0]
    m = paddle_mlir.compile(tiny, conv_layout="nchw16c")
    with open(os.path.join(m.artifact_dir, "manifest.json")) as f:
        assert json.load(f)["kernels"]["conv_layout"]["choice"] == "nChw16c"
    np.testing.assert_allclose(m(x, bias)[0], want, rtol=1e-5, atol=1e-6)
    with pytest.raises(RuntimeError, match="--conv-layout must be auto, nhwc, nchw8c or nchw16c"):
        paddle_mlir.compile(tiny, conv_layout="nchw4c")


def test_compile_option_conv_algorithm(tmp_path):
    """conv_algorithm= reaches pd-kernel-layouts: "winograd" / "winograd4"
    switch the 3x3 convolution between two others to F(2x2) / F(4x4)
    (manifest; in whichever layout is chosen) and still compute what the
    NumPy reference does; a bad name, or a layout Winograd does not run in,
    is an error."""
    import json
    rng = np.random.RandomState(3)
    b = ProgramBuilder()
    x = b.feed("x", [2, 8, 7, 6])
    w = lambda n, *s: b.param(n, (rng.standard_normal(s) * 0.2).astype(np.float32))
    y = b.conv2d(b.conv2d(x, w("w0", 16, 8, 1, 1)), w("w1", 16, 16, 3, 3), padding=1)
    b.fetch(b.conv2d(y, w("w2", 8, 16, 1, 1)))
    b.save(str(tmp_path))
    xv = rng.rand(2, 8, 7, 6).astype(np.float32)
    want = list(reference.load(str(tmp_path)).run({"x": xv}).values())[0]
    for algorithm, kernel, f4 in (("winograd", "pdk_conv2d_winograd", 0),
                                  ("winograd4", "pdk_conv2d_winograd4", 1)):
        m = paddle_mlir.compile(str(tmp_path), conv_algorithm=algorithm)
        with open(os.path.join(m.artifact_dir, "manifest.json")) as f:
            kernels = json.load(f)["kernels"]
        assert kernels["calls"]["pd.conv2d -> " + kernel] == 1, kernels
        assert kernels["conv_layout"]["winograd"] == 1, kernels
        assert kernels["conv_layout"]["winograd4"] == f4, kernels
        np.testing.assert_allclose(m(xv)[0], want, rtol=1e-5, atol=1e-5)
    with pytest.raises(RuntimeError, match="--conv-algorithm must be auto, direct, winograd or "
                       "winograd4"):
        paddle_mlir.compile(str(tmp_path), conv_algorithm="fft")
    with pytest.raises(RuntimeError, match="--conv-algorithm=winograd needs --conv-layout auto, "
                       "nhwc or nchw8c"):
        paddle_mlir.compile(str(tmp_path), conv_algorithm="winograd", conv_layout="nchw16c")


@pytest.mark.parametrize("kernel,ints,size", [
    ("pdk_conv2d_winograd", "2, 2, 1, 1, 1, 1, 1, 1, 1, 0, 1, 8, 0, 8", 3),     # stride 2
    ("pdk_conv2d_winograd", "1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 1, -1, 0, 8", 6),    # NHWC -> nChw8c
    ("pdk_conv2d_winograd", "1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 1, 16, 0, 16", 6),   # nChw16c
    ("pdk_conv2d_winograd4", "2, 2, 1, 1, 1, 1, 1, 1, 1, 0, 1, -1, 0, -1", 3),  # stride 2
])
def test_winograd_kernel_refuses_unsupported(kernel, ints, size):
    """The Winograd kernels, called with parameters they do not compute
    (which pd-kernel-layouts never gives them), fail the run with their
    message instead of computing something wrong."""
    text = """
func.func @main(%x: tensor<1x16x6x6xf32>, %w: tensor<16x16x3x3xf32>) -> tensor<1x16xSxSxf32> {
  %e = tensor.empty() : tensor<1x16xSxSxf32>
  %y = pd.kernel_call "KERNEL"(%x, %w) init(%e) {slots = array<i64: 0, 1, -1, -1>,
      ints = array<i64: INTS>, floats = array<f32: 0.0, 0.0>}
      : (tensor<1x16x6x6xf32>, tensor<16x16x3x3xf32>, tensor<1x16xSxSxf32>) -> tensor<1x16xSxSxf32>
  return %y : tensor<1x16xSxSxf32>
}
""".replace("INTS", ints).replace("SxS", "%dx%d" % (size, size)).replace("KERNEL", kernel)
    m = paddle_mlir.compile(text)
    with pytest.raises(RuntimeError, match="winograd convolution: unsupported parameters"):
        m(np.ones((1, 16, 6, 6), np.float32), np.ones((16, 16, 3, 3), np.float32))


def test_model_of_another_kernel_abi_is_refused(tmp_path):
    """Every model of a process shares one libpdrt_kernels.so; a model
    library compiled for another kernel operand layout (an artifact of
    another build) is refused at load with the two versions, instead of
    its kernel calls being read wrongly. Simulated by raising the version
    the library records (pd_kernel_abi) in a copy of an artifact."""
    import re
    import shutil
    # A softmax: a kernel call (pdk_softmax), so the library links the
    # kernels (one without kernel calls has nothing to check).
    m = paddle_mlir.compile("""
func.func @main(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %y = pd.softmax %x {axis = -1 : i32} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %y : tensor<2x3xf32>
}
""")
    x = np.array([[1, 2, 3]] * 2, np.float32)
    np.testing.assert_allclose(m(x)[0], np.exp(x) / np.exp(x).sum(1, keepdims=True), rtol=1e-6)
    art = tmp_path / "other_build"
    shutil.copytree(m.artifact_dir, art)
    lib = str(art / "libmodel.so")
    sym = subprocess.run(["nm", "-D", "--defined-only", lib], capture_output=True, text=True,
                         check=True).stdout
    addr = int(re.search(r"^([0-9a-f]+) \S+ pd_kernel_abi$", sym, re.M).group(1), 16)
    # The file offset of that address: through the section holding it.
    sections = subprocess.run(["readelf", "-SW", lib], capture_output=True, text=True,
                              check=True).stdout
    offset = None
    for line in sections.splitlines():
        f = re.match(r"\s*\[\s*\d+\]\s+(\S+)\s+\S+\s+([0-9a-f]+)\s+([0-9a-f]+)\s+([0-9a-f]+)",
                     line)
        if f:
            start, off, size = (int(f.group(i), 16) for i in (2, 3, 4))
            if start <= addr < start + size and f.group(1) != ".bss":
                offset = addr - start + off
    assert offset is not None, sections
    with open(lib, "r+b") as fh:
        fh.seek(offset)
        version = int.from_bytes(fh.read(8), "little")
        assert 0 < version < 1000, version
        fh.seek(offset)
        fh.write((version + 1).to_bytes(8, "little"))
    with pytest.raises(RuntimeError, match="compiled for kernel ABI %d, but the "
                       "libpdrt_kernels.so this process loaded .* has ABI %d" % (version + 1,
                                                                                 version)):
        paddle_mlir.load(str(art))(np.zeros((2, 3), np.float32))


def test_pool_kernel_refuses_unsupported():
    """pdk_pool2d computes max and average pooling only; another kind (which
    the compiler never gives it) fails the run with its message."""
    text = """
func.func @main(%x: tensor<1x8x4x4xf32>) -> tensor<1x8x2x2xf32> {
  %e = tensor.empty() : tensor<1x8x2x2xf32>
  %y = pd.kernel_call "pdk_pool2d"(%x) init(%e) {slots = array<i64: 0>,
      ints = array<i64: 5, 2, 2, 2, 2, 0, 0, 0, 0, 0, 0, 0, 0>, floats = array<f32: 1.0>}
      : (tensor<1x8x4x4xf32>, tensor<1x8x2x2xf32>) -> tensor<1x8x2x2xf32>
  return %y : tensor<1x8x2x2xf32>
}
"""
    m = paddle_mlir.compile(text)
    with pytest.raises(RuntimeError, match="pooling: unsupported parameters"):
        m(np.ones((1, 8, 4, 4), np.float32))
    # So does a data type other than f32, s8 and u8 (qtype codes 0-2).
    m = paddle_mlir.compile(text.replace("0, 0, 0, 0, 0, 0, 0, 0>", "0, 0, 0, 0, 0, 0, 7, 7>")
                            .replace("array<i64: 5, 2, 2", "array<i64: 0, 2, 2"))
    with pytest.raises(RuntimeError, match="max pooling of f32, s8 or u8"):
        m(np.ones((1, 8, 4, 4), np.float32))
    # The same call with kind 0 is max pooling, kind 1 average pooling.
    x = np.arange(128, dtype=np.float32).reshape(1, 8, 4, 4)
    m = paddle_mlir.compile(text.replace("array<i64: 5, 2, 2", "array<i64: 0, 2, 2"))
    np.testing.assert_array_equal(m(x)[0], x.reshape(1, 8, 2, 2, 2, 2).max(axis=(3, 5)))
    m = paddle_mlir.compile(text.replace("array<i64: 5, 2, 2", "array<i64: 1, 2, 2"))
    np.testing.assert_array_equal(m(x)[0], x.reshape(1, 8, 2, 2, 2, 2).mean(axis=(3, 5)))


def test_kernel_errors_after_timed_compile(tmp_path):
    """A compile that times convolutions (static shapes) loads the kernel
    library into this process; the model run afterwards shares it, and a
    kernel failure (injected after the compile) must still fail the run
    with oneDNN's message. Runs in a child so the injected failure stays
    there."""
    import subprocess
    import sys
    b = ProgramBuilder()
    x = b.feed("x", [2, 8, 6, 6])
    w = b.param("w", np.full((8, 8, 3, 3), 0.1, np.float32))
    b.fetch(b.conv2d(b.relu(b.conv2d(x, w, padding=1)), w, padding=1))
    b.save(str(tmp_path))
    code = ("import os, numpy as np, paddle_mlir, sys; "
            "m = paddle_mlir.compile(sys.argv[1]); "
            "os.environ['PDK_TEST_FAIL_CREATE'] = '1'\n"
            "try:\n m(np.ones((2, 8, 6, 6), np.float32))\nexcept RuntimeError as e:\n"
            " print('error:', e)\nelse:\n print('no error')")
    out = subprocess.run([sys.executable, "-c", code, str(tmp_path)], check=True,
                         capture_output=True, text=True).stdout
    assert "failure injected by PDK_TEST_FAIL_CREATE" in out, out


def test_compile_errors(tmp_path):
    b = ProgramBuilder()
    x = b.feed("x", [1, 4, 6, 6])
    # A transposed convolution with SAME padding: no lowering yet.
    w = b.param("w", np.ones((4, 2, 3, 3), np.float32))
    b.fetch(b.op("conv2d_transpose", {"Input": [x], "Filter": [w]},
                 {"Output": [b.tmp("conv2d_transpose", [1, 2, 6, 6])]},
                 {"strides": [1, 1], "paddings": [0, 0], "dilations": [1, 1], "groups": 1,
                  "padding_algorithm": "SAME", "data_format": "NCHW"}))
    b.save(str(tmp_path))
    with pytest.raises(RuntimeError, match="conv2d_transpose #1 -> conv2d_transpose_0.tmp_0: "
                                           "error: code generation cannot compile"):
        paddle_mlir.compile(str(tmp_path))
    # The same for the cuda target (whose lowering starts the same way).
    with pytest.raises(RuntimeError, match="(conv2d_transpose #1 -> conv2d_transpose_0.tmp_0: error: code "
                                           "generation cannot compile|--target cuda needs the "
                                           "CUDA toolkit's ptxas)"):
        paddle_mlir.compile(str(tmp_path), target="cuda")
    with pytest.raises(ValueError, match="--cuda-arch must be a CUDA architecture sm_NN"):
        paddle_mlir.compile(str(tmp_path), target="cuda", cuda_arch="volta")
    with pytest.raises(ValueError, match="neither a path nor MLIR text"):
        paddle_mlir.compile(str(tmp_path / "missing"))


def test_benchmark(compiled):
    stats = paddle_mlir.benchmark(compiled, list(inputs()), iterations=5, warmup=1)
    assert set(stats) == {"min", "median", "p90"}
    assert 0 < stats["min"] <= stats["median"] <= stats["p90"]


def test_threads_match_sequential(compiled):
    data = [inputs(batch=4, seed=s) for s in range(4)]
    expected = [compiled(*d)[0] for d in data]
    results = [None] * len(data)

    def work(i):
        for _ in range(10):
            results[i] = compiled(*data[i])[0]
    threads = [threading.Thread(target=work, args=(i,)) for i in range(len(data))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for got, want in zip(results, expected):
        np.testing.assert_array_equal(got, want)


def test_cmake_install(tmp_path, tiny):
    prefix = tmp_path / "prefix"
    subprocess.run(["cmake", "--install", BUILD, "--prefix", str(prefix)], check=True, capture_output=True)
    site = prefix / "lib" / "python3" / "dist-packages"
    script = "import paddle_mlir, sys; print(paddle_mlir.__file__); m = paddle_mlir.compile(sys.argv[1]); print(m.outputs)"
    out = subprocess.run([sys.executable, "-c", script, tiny], check=True, capture_output=True, text=True,
                         env={**os.environ, "PYTHONPATH": str(site)}).stdout
    assert str(site) in out and "softmax" in out


def test_onnx_model(tmp_path):
    """An ONNX file imports to pd text and compiles through the same API;
    the result is checked against a NumPy computation of the same graph."""
    onnx = pytest.importorskip("onnx")
    from onnx import TensorProto, helper, numpy_helper
    rng = np.random.default_rng(0)
    w = rng.standard_normal([4, 3]).astype(np.float32)
    b = rng.standard_normal([3]).astype(np.float32)
    graph = helper.make_graph(
        [helper.make_node("Gemm", ["x", "w", "b"], ["h"], name="fc"),
         helper.make_node("Relu", ["h"], ["y"], name="relu")], "mlp",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N", 4])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["N", 3])],
        [numpy_helper.from_array(w, "w"), numpy_helper.from_array(b, "b")])
    path = tmp_path / "mlp.onnx"
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)]), str(path))
    text = ir.import_onnx(path)
    assert "pd.matmul_v2" in text and "pd.relu" in text
    m = paddle_mlir.compile(str(path))
    assert [i.name for i in m.inputs] == ["x"] and m.inputs[0].shape == (None, 4)
    x = rng.standard_normal([5, 4]).astype(np.float32)
    np.testing.assert_allclose(m(x)[0], np.maximum(x @ w + b, 0), rtol=1e-5, atol=1e-6)
