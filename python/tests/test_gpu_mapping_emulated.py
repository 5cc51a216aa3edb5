"""What the CUDA target's grid mapping computes, checked on the CPU against
NumPy. No GPU is needed: the program goes through the GPU pipeline up to
pd-gpu-map-loops (one grid of blocks of threads per nest, bound checks,
four elements per thread with vector loads and stores where it can), and
then, instead of becoming kernels, the mapped loops are lowered for the
host and run by mlir-runner: every (block, thread) pair runs in turn, so a
wrong delinearization, a missing bound check or a wrong vector access
gives wrong numbers. Three threads per block make every grid end in a
partial block."""
import os
import re
import subprocess

import numpy as np
import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BUILD = os.environ.get("PADDLE_MLIR_BUILD_DIR", os.path.join(ROOT, "build"))
PADDLE_OPT = os.path.join(BUILD, "bin", "paddle-opt")
LLVM_BIN = "/usr/lib/llvm-22/bin"
LLVM_LIB = "/usr/lib/llvm-22/lib"
RUNNER = os.path.join(LLVM_BIN, "mlir-runner")

# The start of the GPU pipeline (lib/CodeGen/CUDA/Pipeline.cpp) through
# the grid mapping, with 3-thread blocks.
MAP = ("builtin.module(convert-pd-to-linalg{kernels=none},canonicalize,"
       "resolve-ranked-shaped-type-result-dims,canonicalize,cse,"
       "func.func(pd-fuse-elementwise,pd-split-init-tensors),"
       "one-shot-bufferize{bufferize-function-boundaries "
       "function-boundary-type-conversion=identity-layout-map},"
       "canonicalize,cse,pd-plan-memory{place=true report=false},cse,"
       "convert-linalg-to-parallel-loops,canonicalize,pd-gpu-map-loops{threads=3})")
# The same with row reductions one block per output element
# (pd-gpu-block-reductions, before the loops are formed); `%s` is its
# options.
MAP_BLOCKS = MAP.replace("convert-linalg-to-parallel-loops,",
                         "pd-gpu-block-reductions{%s},convert-linalg-to-parallel-loops,")
# The mapped loops as host code.
HOST = ("builtin.module(convert-scf-to-cf,convert-vector-to-llvm,expand-strided-metadata,"
        "lower-affine,convert-math-to-llvm,convert-arith-to-llvm,finalize-memref-to-llvm,"
        "convert-cf-to-llvm,convert-func-to-llvm,convert-index-to-llvm,"
        "reconcile-unrealized-casts)")

pytestmark = pytest.mark.skipif(not os.access(RUNNER, os.X_OK),
                                reason="mlir-runner (Debian's mlir-22-tools) is not installed")


def opt(text, *args):
    p = subprocess.run([PADDLE_OPT, *args], input=text, capture_output=True, text=True,
                       timeout=300)
    assert p.returncode == 0, p.stderr[-3000:]
    return p.stdout


def mlir_type(shape):
    return "x".join(str(d) for d in shape) + "xf32"


def run_mapped(program, inputs, out_shape, pipeline=MAP):
    """Runs the pd function `program` (@main over `inputs`, returning one
    f32 tensor of `out_shape`) through the grid mapping on the CPU; returns
    the result and the mapped IR. Block reductions (gpu.all_reduce over a
    block's threads) run through pd-gpu-emulate-block-reductions: each
    thread's partial values first, then their combination in thread order,
    then what the threads do with the result."""
    mapped = opt(opt(program, "--pd-optimize"), "--pass-pipeline=" + pipeline)
    runnable = mapped
    if "gpu.all_reduce" in mapped:
        runnable = opt(mapped, "--pd-gpu-emulate-block-reductions")
    # The driver: inputs from constants, a 1 MiB arena, @main, the result
    # printed.
    glob, args, decls = [], [], []
    for i, a in enumerate(inputs):
        t = "memref<%s>" % mlir_type(a.shape)
        values = ", ".join(repr(float(v)) for v in a.ravel())
        glob.append('memref.global "private" @in%d : memref<%dxf32> = dense<[%s]>'
                    % (i, a.size, values))
        decls.append("    %%g%d = memref.get_global @in%d : memref<%dxf32>\n"
                     "    %%a%d = memref.expand_shape %%g%d [[%s]] output_shape [%s] : "
                     "memref<%dxf32> into %s\n"
                     % (i, i, a.size, i, i, ", ".join(str(d) for d in range(a.ndim)),
                        ", ".join(str(d) for d in a.shape), a.size, t))
        args.append(("%%a%d" % i, t))
    out_t = "memref<%s>" % mlir_type(out_shape)
    driver = "\n".join(glob) + """
  func.func private @printMemrefF32(memref<*xf32>)
  func.func @entry() {
    %%bytes = arith.constant 1048576 : index
    %%arena = memref.alloc(%%bytes) {alignment = 64 : i64} : memref<?xi8>
%s    %%r = call @main(%s, %%arena) : (%s, memref<?xi8>) -> %s
    %%u = memref.cast %%r : %s to memref<*xf32>
    call @printMemrefF32(%%u) : (memref<*xf32>) -> ()
    return
  }
""" % ("".join(decls), ", ".join(a for a, _ in args), ", ".join(t for _, t in args), out_t,
       out_t)
    head, _, _ = runnable.rstrip().rpartition("}")
    lowered = opt(head + driver + "}\n", "--pass-pipeline=" + HOST)
    p = subprocess.run([RUNNER, "-e", "entry", "-entry-point-result=void", "-O0",
                        "-shared-libs=%s/libmlir_runner_utils.so,%s/libmlir_c_runner_utils.so"
                        % (LLVM_LIB, LLVM_LIB)],
                       input=lowered, capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr[-3000:]
    data = p.stdout.split("data =", 1)[1]
    values = [float(v) for v in re.findall(r"-?\d+(?:\.\d+)?(?:e[-+]?\d+)?|nan|-?inf", data)]
    return np.array(values, dtype=np.float32).reshape(out_shape), mapped


def rand(*shape, seed=0):
    return np.random.default_rng(seed + len(shape)).standard_normal(shape).astype(np.float32)


def test_vectorized_elementwise_chain():
    x, y = rand(4, 6, 8), rand(4, 6, 8, seed=1)
    program = """func.func @main(%x: tensor<4x6x8xf32>, %y: tensor<4x6x8xf32>) -> tensor<4x48xf32> {
  %s = pd.elementwise_add %x, %y {axis = -1 : i32} : (tensor<4x6x8xf32>, tensor<4x6x8xf32>) -> tensor<4x6x8xf32>
  %r = pd.relu %s : (tensor<4x6x8xf32>) -> tensor<4x6x8xf32>
  %f = pd.reshape2 %r {shape = array<i32: 4, 48>} : (tensor<4x6x8xf32>) -> tensor<4x48xf32>
  return %f : tensor<4x48xf32>
}"""
    got, mapped = run_mapped(program, [x, y], (4, 48))
    assert "vector.load" in mapped and "vector.store" in mapped, mapped
    np.testing.assert_allclose(got, np.maximum(x + y, 0).reshape(4, 48), rtol=1e-5, atol=1e-5)


def test_channel_broadcast_and_scalar_nests():
    # A per-channel bias (uniform along the innermost dim: a scalar load
    # broadcast to the vector), then a transpose (one element per thread).
    x, b = rand(2, 3, 4, 8), rand(3, seed=2)
    program = """func.func @main(%x: tensor<2x3x4x8xf32>, %b: tensor<3xf32>) -> tensor<2x8x4x3xf32> {
  %s = pd.elementwise_add %x, %b {axis = 1 : i32} : (tensor<2x3x4x8xf32>, tensor<3xf32>) -> tensor<2x3x4x8xf32>
  %m = pd.elementwise_mul %s, %s {axis = -1 : i32} : (tensor<2x3x4x8xf32>, tensor<2x3x4x8xf32>) -> tensor<2x3x4x8xf32>
  %t = pd.transpose2 %m {axis = array<i32: 0, 3, 2, 1>} : (tensor<2x3x4x8xf32>) -> tensor<2x8x4x3xf32>
  return %t : tensor<2x8x4x3xf32>
}"""
    got, mapped = run_mapped(program, [x, b], (2, 8, 4, 3))
    assert "vector.broadcast" in mapped, mapped
    s = x + b.reshape(1, 3, 1, 1)
    np.testing.assert_allclose(got, (s * s).transpose(0, 3, 2, 1), rtol=1e-5, atol=1e-5)


def test_reductions_one_thread_per_output():
    # Row sums (the zeroing nest vectorized, one thread per row adding in a
    # loop) and a softmax over rows of 10 (not a multiple of four).
    x = rand(6, 10)
    program = """func.func @main(%x: tensor<6x10xf32>) -> tensor<6x10xf32> {
  %s = pd.softmax %x {axis = -1 : i32} : (tensor<6x10xf32>) -> tensor<6x10xf32>
  %r = pd.reduce_sum %x {dim = array<i32: 1>, keep_dim = true, reduce_all = false} : (tensor<6x10xf32>) -> tensor<6x1xf32>
  %o = pd.elementwise_add %s, %r {axis = -1 : i32} : (tensor<6x10xf32>, tensor<6x1xf32>) -> tensor<6x10xf32>
  return %o : tensor<6x10xf32>
}"""
    got, _ = run_mapped(program, [x], (6, 10))
    e = np.exp(x - x.max(axis=1, keepdims=True))
    want = e / e.sum(axis=1, keepdims=True) + x.sum(axis=1, keepdims=True)
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("threads", [3, 64, 256])
def test_block_reductions_softmax_layer_norm(threads):
    # Rows of 100: with 3 threads each takes 33 or 34 elements, with 64
    # some take two and some one, with 256 the block has 128 threads (100
    # rounded up to whole warps) of which 28 only contribute the neutral
    # element. Softmax's max and sum and layer_norm's mean and variance are
    # block reductions; the result feeds the next nests.
    x, g, b = rand(5, 100) * 3, rand(100, seed=3), rand(100, seed=4)
    program = """func.func @main(%x: tensor<5x100xf32>, %g: tensor<100xf32>, %b: tensor<100xf32>) -> tensor<5x100xf32> {
  %s = pd.softmax %x {axis = -1 : i32} : (tensor<5x100xf32>) -> tensor<5x100xf32>
  %a = pd.elementwise_add %s, %x {axis = -1 : i32} : (tensor<5x100xf32>, tensor<5x100xf32>) -> tensor<5x100xf32>
  %n = pd.layer_norm %a Scale(%g) Bias(%b) {begin_norm_axis = 1 : i32, epsilon = 1.0e-5 : f32} : (tensor<5x100xf32>, tensor<100xf32>, tensor<100xf32>) -> tensor<5x100xf32>
  return %n : tensor<5x100xf32>
}"""
    got, mapped = run_mapped(program, [x, g, b], (5, 100),
                             MAP_BLOCKS % ("threads=%d min-length=32" % threads))
    assert mapped.count("gpu.all_reduce") == 4, mapped
    assert "gpu.all_reduce  maximumf" in mapped and "gpu.all_reduce  add" in mapped, mapped
    e = np.exp(x - x.max(axis=1, keepdims=True))
    a = e / e.sum(axis=1, keepdims=True) + x
    mean = a.mean(axis=1, keepdims=True)
    var = ((a - mean) ** 2).mean(axis=1, keepdims=True)
    want = (a - mean) / np.sqrt(var + 1e-5) * g + b
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4)


def test_block_reductions_over_several_axes_and_all():
    # A sum over the two trailing axes (20 elements, delinearized from the
    # thread's position), a max and a min over everything (one block), and a
    # product over rows of 8; a sum over the leading axis stays one thread
    # per output (its inputs are not consecutive along the reduction).
    x = rand(2, 3, 4, 5)
    program = """func.func @main(%x: tensor<2x3x4x5xf32>) -> tensor<2x3xf32> {
  %s = pd.reduce_sum %x {dim = array<i32: 2, 3>, keep_dim = false, reduce_all = false} : (tensor<2x3x4x5xf32>) -> tensor<2x3xf32>
  %m = pd.reduce_max %x {dim = array<i32: 0, 1, 2, 3>, keep_dim = true, reduce_all = true} : (tensor<2x3x4x5xf32>) -> tensor<1x1x1x1xf32>
  %n = pd.reduce_min %x {dim = array<i32: 0, 1, 2, 3>, keep_dim = true, reduce_all = true} : (tensor<2x3x4x5xf32>) -> tensor<1x1x1x1xf32>
  %c = pd.reduce_sum %x {dim = array<i32: 0>, keep_dim = false, reduce_all = false} : (tensor<2x3x4x5xf32>) -> tensor<3x4x5xf32>
  %r = pd.reshape2 %x {shape = array<i32: 15, 8>} : (tensor<2x3x4x5xf32>) -> tensor<15x8xf32>
  %p = pd.reduce_prod %r {dim = array<i32: 1>, keep_dim = false, reduce_all = false} : (tensor<15x8xf32>) -> tensor<15xf32>
  %cs = pd.reduce_sum %c {dim = array<i32: 1, 2>, keep_dim = false, reduce_all = false} : (tensor<3x4x5xf32>) -> tensor<3xf32>
  %ps = pd.reduce_sum %p {dim = array<i32: 0>, keep_dim = false, reduce_all = false} : (tensor<15xf32>) -> tensor<1xf32>
  %m2 = pd.reshape2 %m {shape = array<i32: 1>} : (tensor<1x1x1x1xf32>) -> tensor<1xf32>
  %n2 = pd.reshape2 %n {shape = array<i32: 1>} : (tensor<1x1x1x1xf32>) -> tensor<1xf32>
  %t1 = pd.elementwise_add %s, %cs {axis = 1 : i32} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %t2 = pd.elementwise_mul %t1, %m2 {axis = -1 : i32} : (tensor<2x3xf32>, tensor<1xf32>) -> tensor<2x3xf32>
  %t3 = pd.elementwise_add %t2, %n2 {axis = -1 : i32} : (tensor<2x3xf32>, tensor<1xf32>) -> tensor<2x3xf32>
  %t4 = pd.elementwise_add %t3, %ps {axis = -1 : i32} : (tensor<2x3xf32>, tensor<1xf32>) -> tensor<2x3xf32>
  return %t4 : tensor<2x3xf32>
}"""
    got, mapped = run_mapped(program, [x], (2, 3), MAP_BLOCKS % "threads=3 min-length=8")
    # Block reductions: the 2x3 sum (20), max, min (120 each), the
    # products (8), the sum over 3x4x5's trailing axes (20) and the sum of
    # the 15 products; not the leading axis sum (strided along it).
    assert mapped.count("gpu.all_reduce") == 6, mapped
    assert "gpu.all_reduce  mul" in mapped and "gpu.all_reduce  minimumf" in mapped, mapped
    s = x.sum(axis=(2, 3)) + x.sum(axis=0).sum(axis=(1, 2))
    want = s * x.max() + x.min() + x.reshape(15, 8).prod(axis=1).sum()
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5)


def test_constant_tensor_read_from_the_kernel():
    # A constant tensor (not a weight) moves into the nest that reads it, so
    # the kernel reads its own copy (the cubin's) instead of a host address.
    x = rand(6, 4)
    program = """func.func @main(%x: tensor<6x4xf32>) -> tensor<6x4xf32> {
  %c = arith.constant dense<[[1.0, -2.0, 3.0, 0.5]]> : tensor<1x4xf32>
  %y = pd.elementwise_mul %x, %c {axis = -1 : i32} : (tensor<6x4xf32>, tensor<1x4xf32>) -> tensor<6x4xf32>
  return %y : tensor<6x4xf32>
}"""
    got, mapped = run_mapped(program, [x], (6, 4))
    head = mapped.split("scf.parallel", 1)[0]
    assert "memref.get_global" not in head and "memref.get_global" in mapped, mapped
    np.testing.assert_allclose(got, x * np.array([[1.0, -2.0, 3.0, 0.5]], np.float32),
                               rtol=1e-5, atol=1e-5)
