"""paddle_mlir: compile, load and run PaddlePaddle (and later ONNX) models.

    import numpy as np
    import paddle_mlir
    model = paddle_mlir.compile("mobilenet_v2/")          # a Paddle model dir
    probs = model(np.random.rand(1, 3, 224, 224).astype("float32"))[0]
    print(np.argsort(-probs[0])[:5])
    model.save("artifact/")                               # AOT artifact
    again = paddle_mlir.load("artifact/")                 # needs only the runtime

Submodules: `paddle_mlir.train` (compiled train steps),
`paddle_mlir.ir` (import, pipelines, export on MLIR text),
`paddle_mlir.builder` (write Paddle programs), `paddle_mlir.zoo` (model
zoo), `paddle_mlir.reference` (NumPy reference evaluator).
"""

import json
import os
import shutil
import tempfile
import threading
import time

import numpy as np

__all__ = ["compile", "load", "CompiledModel", "TensorSpec", "benchmark", "default_num_threads"]


def __getattr__(name):
    # The compiler module loads on first use: a runtime-only install can
    # import this package without it.
    if name == "CompileOptionError":
        from ._compiler import CompileOptionError
        return CompileOptionError
    raise AttributeError("module %r has no attribute %r" % (__name__, name))


class TensorSpec(tuple):
    """(name, dtype, shape) of a model input or output; None marks a dynamic dim.
    data_dependent: an output whose size depends on the values computed
    (the boxes NMS keeps), known only from each run's result."""

    def __new__(cls, name, dtype, shape, data_dependent=False):
        spec = super().__new__(cls, (name, dtype, tuple(shape)))
        spec.data_dependent = data_dependent
        return spec

    name = property(lambda self: self[0])
    dtype = property(lambda self: self[1])
    shape = property(lambda self: self[2])

    def __repr__(self):
        dims = ", ".join("?" if d is None else str(d) for d in self.shape)
        return "TensorSpec(%r, %s, [%s])" % (self.name, self.dtype, dims)


class CompiledModel:
    """A compiled artifact loaded with the runtime.

    Call it with arrays in input order and/or by input name; it returns a
    tuple of numpy arrays (or a dict with return_dict=True). Each thread
    uses its own runtime instance; the GIL is released while the model runs.

    threads: at most this many threads per run (None: the runtime's
    default, the CPUs this process may use or PDRT_NUM_THREADS /
    OMP_NUM_THREADS). Below it the runtime leaves out cores other processes
    keep busy and shares the cores between models running at the same time
    in several threads (PDRT_ADAPTIVE_THREADS=0 turns that off); the
    attribute can be changed at any time, and last_num_threads says what
    this thread's last call used.
    """

    def __init__(self, artifact_dir, _owned_tmpdir=None, threads=None, device=None):
        from . import _pdrt
        self._device = device or ""
        self._dir = os.path.abspath(artifact_dir)
        self._model = _pdrt.Model(self._dir)
        self._instances = threading.local()
        self._tmp = _owned_tmpdir
        self.threads = threads
        self.inputs = [TensorSpec(*s) for s in self._model.inputs]
        # Which outputs' sizes depend on the data: the manifest says.
        with open(os.path.join(self._dir, "manifest.json")) as f:
            dependent = {o["name"] for o in json.load(f)["outputs"] if o.get("data_dependent")}
        self.outputs = [TensorSpec(*s, data_dependent=s[0] in dependent) for s in self._model.outputs]

    def __del__(self):
        if getattr(self, "_tmp", None):
            shutil.rmtree(self._tmp, ignore_errors=True)

    @property
    def artifact_dir(self):
        return self._dir

    @property
    def ranks(self):
        """(rank, size) of this process in a multi-rank job: a model with
        collective ops launched by mpirun (docs/MultiDevice.md); (0, 1)
        otherwise. Starts the communicator (MPI) on first use; each
        collective waits at most $PADDLE_MLIR_COMM_TIMEOUT seconds (300)."""
        return tuple(self._model.ranks)

    @property
    def threads(self):
        return self._threads

    @threads.setter
    def threads(self, value):
        if value is not None and (not isinstance(value, int) or isinstance(value, bool) or value < 1):
            raise ValueError("threads must be a positive int or None, got %r" % (value,))
        self._threads = value

    @property
    def last_num_threads(self):
        """Threads this thread's last call used (0 before the first call)."""
        inst = getattr(self._instances, "inst", None)
        return inst.num_threads if inst is not None else 0

    def _instance(self):
        inst = getattr(self._instances, "inst", None)
        if inst is None:
            from . import _pdrt
            inst = self._instances.inst = _pdrt.Instance(self._model, self._device)
            self._instances.threads = None
        if self._instances.threads != self._threads:
            inst.set_num_threads(self._threads or 0)
            self._instances.threads = self._threads
        return inst

    def _bind(self, arrays, named):
        if len(arrays) > len(self.inputs):
            raise ValueError("model takes %d inputs, got %d positional arrays" % (len(self.inputs), len(arrays)))
        by_name = {spec.name: i for i, spec in enumerate(self.inputs)}
        bound = list(arrays) + [None] * (len(self.inputs) - len(arrays))
        for name, value in named.items():
            if name not in by_name:
                raise ValueError("model has no input %r (inputs: %s)" % (name, ", ".join(by_name)))
            if bound[by_name[name]] is not None:
                raise ValueError("input %r given twice" % name)
            bound[by_name[name]] = value
        out = []
        for spec, value in zip(self.inputs, bound):
            if value is None:
                raise ValueError("missing input %r" % spec.name)
            a = np.asarray(value)
            if a.dtype != np.dtype(spec.dtype if spec.dtype != "bfloat16" else "uint16"):
                raise TypeError("input %r must be %s, got %s" % (spec.name, spec.dtype, a.dtype))
            if a.ndim != len(spec.shape) or any(d is not None and d != s for d, s in zip(spec.shape, a.shape)):
                want = "[" + ", ".join("?" if d is None else str(d) for d in spec.shape) + "]"
                raise ValueError("input %r must have shape %s, got %s" % (spec.name, want, list(a.shape)))
            out.append(np.require(a, requirements="C"))  # no copy when already contiguous; keeps 0-D
        return out

    def __call__(self, *arrays, return_dict=False, **named):
        results = self._instance().run(self._bind(arrays, named))
        if return_dict:
            return {spec.name: r for spec, r in zip(self.outputs, results)}
        return tuple(results)

    def save(self, directory):
        """Writes the AOT artifact (library, header, weights, manifest) to `directory`."""
        os.makedirs(directory, exist_ok=True)
        for f in os.listdir(self._dir):
            shutil.copy2(os.path.join(self._dir, f), os.path.join(directory, f))
        return directory

    def __repr__(self):
        return "CompiledModel(%s, inputs=%s, outputs=%s)" % (self._dir, self.inputs, self.outputs)


def load(artifact_dir, threads=None, device=None):
    """Loads an artifact written by paddle-compile or CompiledModel.save.
    Needs only the runtime part of the package (paddle_mlir._pdrt).
    threads: see CompiledModel. device: "cpu", or "cuda:N" for a cuda
    artifact (default: cpu, or "cuda": cuda:0, or in an mpirun job the
    local rank modulo the GPU count); the device opens at the first run
    (RuntimeError when it cannot be used: no driver, no such device, kernels
    for another architecture)."""
    return CompiledModel(artifact_dir, threads=threads, device=device)


def default_num_threads():
    """(threads, source): the runtime's default thread count per run and what
    set it ("PDRT_NUM_THREADS", "OMP_NUM_THREADS", "cgroup" or "affinity")."""
    from . import _pdrt
    return _pdrt.default_num_threads()


def compile(model, params=None, *, target="cpu", cuda_arch="sm_90", allow_tf32=False,
            cuda_index_bitwidth=32,
            precision="fp32", input_shapes=None, optimize=True, output_dir=None, name="model",
            memory_plan=True, kernels="onednn", cpu="host", parallel=True, conv_layout="auto",
            conv_algorithm="auto", threads=None,
            quantize_exclude=(), quantize_include=(), calibration=None,
            calibration_method="percentile", calibration_percentile=99.99, calibration_samples=0,
            calibration_cache=None, validation_split=0.2, accuracy_target=None,
            allow_emulated_bf16=False, precision_allow=(), precision_deny=(),
            precision_check=False, check_data=None, partition=None, devices=1,
            micro_batches=0, stage_memory_mb=0,
            _extra_options=None):
    """Compiles a Paddle model path (file or directory), an ONNX file (.onnx) or pd
    MLIR text.

    target: "cpu", or "cuda" (fp32 inference on an NVIDIA GPU, not yet run on
    one; docs/GPU.md) with cuda_arch the GPU architecture ("sm_90",
    paddle-compile --cuda-arch); allow_tf32 lets cuBLASLt round fp32 matrix
    products' inputs to TF32 (paddle-compile --allow-tf32);
    cuda_index_bitwidth 64 lets kernels address buffers of 2^31 elements or
    more (paddle-compile --cuda-index-bitwidth).
    input_shapes: {input name: static shape} to fix dynamic dims.
    memory_plan: intermediate buffers in one arena per instance (paddle-compile
    --memory-plan); kernels: "onednn" (conv/matmul in oneDNN) or "none"
    (paddle-compile --kernels); cpu: "host" or an LLVM CPU name such as
    "x86-64-v3" (paddle-compile --cpu); parallel: split generated loops over
    the OpenMP threads (paddle-compile --parallel); conv_layout: "auto",
    "nhwc", "nchw8c" or "nchw16c" (paddle-compile --conv-layout);
    conv_algorithm: "auto", "direct", "winograd" or "winograd4" (paddle-compile
    --conv-algorithm). A value these do not take raises CompileOptionError
    (a ValueError and a RuntimeError) with paddle-compile's message.
    output_dir: where the artifact goes (a temporary directory by default,
    removed with the returned CompiledModel; use .save() to keep it).
    threads: threads per run of the returned model (see CompiledModel).
    precision="int8" compiles a fake-quantized (QAT / PaddleSlim) model to int8
    kernels with its own scales; quantize_exclude: op types or Paddle output
    variable names that stay fp32 (paddle-compile --quantize-exclude).
    calibration (with precision="int8") calibrates a float model: a directory
    of samples (paddle-compile --calibration-data) or an iterable of samples,
    each an array (one-input models) or a dict {input name: array}.
    calibration_method: "percentile" (default), "kl", "minmax" or "mse";
    calibration_cache: a statistics file reused when it matches the model;
    validation_split: the share of samples (the last ones) held out to check
    int8 against fp32; accuracy_target: "top1=0.99" or "sqnr=30" (layers with
    the worst SQNR move back to fp32 until it holds); quantize_include: op
    types or names to quantize though calibration keeps them fp32 by default
    (the final classifier). The artifact directory then holds
    quant_report.json.
    precision="bf16" runs convolutions and matrix products in bf16 on CPUs
    with AVX512_BF16 or AMX (docs/MixedPrecision.md); allow_emulated_bf16
    builds it for other CPUs too (computed in f32: slow, for accuracy
    checks); precision_allow / precision_deny: op types or Paddle output
    variable names forced into bf16 / kept fp32 (paddle-compile
    --precision-allow / --precision-deny).
    partition="data" with devices=N (paddle-compile --partition --devices)
    builds data-parallel inference for a job of N ranks launched by mpirun:
    each rank computes 1/N of the batch and the outputs are gathered, so
    every rank gets the whole result (docs/MultiDevice.md).
    partition="pipeline" cuts the program into N stages balanced by the
    cost model, rank k running stage k; micro_batches=M (paddle-compile
    --micro-batches) splits the batch into M parts that follow each other
    through the stages (0: the largest divisor of the batch <= N). Rank 0
    returns the outputs. stage_memory_mb=X (paddle-compile
    --stage-memory-mb) keeps each stage's weights (in training with their
    optimizer state) within X MiB, taking the fastest cut that does (0: no
    limit). Both partitions work with target="cuda" too (collectives run
    in libpdrt_cuda; NCCL on the device buffers with
    PADDLE_MLIR_COMM_BACKEND=nccl).
    """
    from . import _compiler
    model = os.fspath(model)
    is_text = not os.path.exists(model) and ("func.func" in model or "module" in model)
    if not is_text and not os.path.exists(model):
        raise ValueError("model %r is neither a path nor MLIR text" % model)
    tmp = None
    if output_dir is None:
        tmp = output_dir = tempfile.mkdtemp(prefix="paddle_mlir_")
    shapes = {k: [int(d) for d in v] for k, v in (input_shapes or {}).items()}
    sample_dirs = []

    def samples_folder(samples, what):
        """A directory of .npy/.npz samples: `samples` itself, or one written
        from an iterable of arrays or {input name: array} dicts."""
        if isinstance(samples, (str, os.PathLike)):
            return os.fspath(samples)
        d = tempfile.mkdtemp(prefix="paddle_mlir_samples_")
        sample_dirs.append(d)
        count = 0
        for i, sample in enumerate(samples):
            if isinstance(sample, dict):
                np.savez(os.path.join(d, "%06d.npz" % i),
                         **{k: np.asarray(v) for k, v in sample.items()})
            else:
                np.save(os.path.join(d, "%06d.npy" % i), np.asarray(sample))
            count += 1
        if count == 0:
            raise ValueError("%s: the iterable gave no samples" % what)
        return d

    try:
        calibration_data = ""
        if calibration is not None:
            calibration_data = samples_folder(calibration, "calibration")
        # Named by their paddle-compile flags, and parsed by the same code.
        options = {"target": target, "cuda-arch": cuda_arch,
                   "allow-tf32": "true" if allow_tf32 else "false", "precision": precision,
                   "cuda-index-bitwidth": str(cuda_index_bitwidth),
                   "kernels": kernels,
                   "conv-layout": conv_layout, "conv-algorithm": conv_algorithm,
                   "quantize-exclude": ",".join(quantize_exclude),
                   "allow-emulated-bf16": "true" if allow_emulated_bf16 else "false",
                   "precision-allow": ",".join(precision_allow),
                   "precision-deny": ",".join(precision_deny),
                   "partition": partition or "", "devices": str(devices),
                   "micro-batches": str(micro_batches), "stage-memory-mb": str(stage_memory_mb)}
        if calibration is not None:
            options.update({"calibration-data": calibration_data,
                            "calibration-method": calibration_method,
                            "calibration-percentile": str(calibration_percentile),
                            "calibration-samples": str(int(calibration_samples)),
                            "calibration-cache": os.fspath(calibration_cache or ""),
                            "validation-split": str(validation_split),
                            "quantize-include": ",".join(quantize_include),
                            "accuracy-target": accuracy_target or ""})
        elif calibration_cache or (accuracy_target and precision != "bf16"):
            raise ValueError("accuracy_target and calibration_cache need calibration= "
                             "(or precision=\"bf16\" for accuracy_target)")
        if precision_check or check_data is not None or (accuracy_target and
                                                         calibration is None):
            options.update({"precision-check": "true" if precision_check else "false",
                            "accuracy-target": accuracy_target or ""})
            if check_data is not None:
                options["check-data"] = samples_folder(check_data, "check_data")
        options.update(_extra_options or {})
        _compiler.compile(model, is_text, os.fspath(params) if params else "", options, shapes,
                          bool(optimize), name, os.fspath(output_dir), bool(memory_plan), cpu,
                          bool(parallel))
    except Exception:
        if tmp:
            shutil.rmtree(tmp, ignore_errors=True)
        raise
    finally:
        for d in sample_dirs:
            shutil.rmtree(d, ignore_errors=True)
    return CompiledModel(output_dir, _owned_tmpdir=tmp, threads=threads)


def benchmark(compiled, inputs, iterations=50, warmup=5):
    """Times compiled(*inputs) (or **inputs for a dict); returns
    {"min", "median", "p90"} in milliseconds."""
    def call():
        return compiled(**inputs) if isinstance(inputs, dict) else compiled(*inputs)
    for _ in range(warmup):
        call()
    times = []
    for _ in range(iterations):
        t = time.perf_counter()
        call()
        times.append((time.perf_counter() - t) * 1e3)
    times.sort()
    return {"min": times[0], "median": times[len(times) // 2],
            "p90": times[min(len(times) - 1, int(0.9 * (len(times) - 1)))]}
