"""Prepares a gpu-check folder on the build machine (which needs no GPU):
cuda artifacts of a few models, their inputs, reference outputs (NumPy for
the MLP; the CPU artifact, itself checked against PyTorch by the tests, for
the others), the runtime and a runner that needs nothing else, and the zoo
models' PyTorch originals (traced, with their weights) for check.py to time
beside them, and the NCCL backend with nccl_check.py. check.py runs them
on the device machine. Usage: python3
prepare.py DIR CUDA_ARCH"""
import filecmp
import json
import os
import shutil
import subprocess
import sys

import numpy as np

import paddle_mlir
from paddle_mlir import zoo
from paddle_mlir.builder import ProgramBuilder

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
BUILD = os.environ.get("PADDLE_MLIR_BUILD_DIR", os.path.join(ROOT, "build"))


def mlp(path):
    rng = np.random.default_rng(3)
    w1 = rng.standard_normal((16, 32)).astype(np.float32) * 0.3
    b1 = rng.standard_normal(32).astype(np.float32)
    w2 = rng.standard_normal((32, 10)).astype(np.float32) * 0.3
    b = ProgramBuilder()
    x = b.feed("x", [-1, 16])
    h = b.relu(b.linear(x, b.param("w1", w1), b.param("b1", b1)))
    b.fetch(b.softmax(b.linear(h, b.param("w2", w2), b.param("b2", np.zeros(10, np.float32)))))
    b.save(path)

    def reference(xs):
        z = np.maximum(xs @ w1 + b1, 0) @ w2
        e = np.exp(z - z.max(axis=1, keepdims=True))
        return [e / e.sum(axis=1, keepdims=True)]
    return reference


def collectives(path):
    """x [4, 3] -> relu -> each collective of one rank (sum and max
    allreduces, a broadcast, an allgather, a reducescatter, a barrier),
    then a scale of the sum: kernels before and after collectives, whose
    order on the device the run checks."""
    b = ProgramBuilder()
    y = b.relu(b.feed("x", [4, 3]))

    def comm(kind, x, attrs, shape):
        out = b.tmp(kind, shape)
        b.op(kind, {"X": [x]}, {"Out": [out]}, attrs)
        return out
    s = comm("c_allreduce_sum", y, {}, [4, 3])
    b.fetch(b.scale(s, 2.0))
    b.fetch(comm("c_allreduce_max", y, {}, [4, 3]))
    b.fetch(comm("c_broadcast", y, {"root": 0}, [4, 3]))
    b.fetch(comm("c_allgather", y, {"nranks": 1}, [4, 3]))
    b.fetch(comm("c_reducescatter", y, {"nranks": 1}, [4, 3]))
    b.fetch(comm("barrier", y, {}, [4, 3]))
    b.save(path)


def same_weights(artifact, first):
    """Points `artifact`'s manifest at the weights file of `first` (the same
    program at another batch: the same bytes, checked) and drops its own
    copy, so that both batches fit the folder's size limit."""
    mine, theirs = os.path.join(artifact, "model.weights"), os.path.join(first, "model.weights")
    if not filecmp.cmp(mine, theirs, shallow=False):
        raise RuntimeError("%s and %s differ" % (mine, theirs))
    manifest = os.path.join(artifact, "manifest.json")
    m = json.load(open(manifest))
    m["weights_file"] = os.path.relpath(theirs, artifact)
    json.dump(m, open(manifest, "w"), indent=2)
    os.remove(mine)


def trace(model, inputs, path):
    """The PyTorch model the program's weights came from, traced with its
    weights into a file that needs only PyTorch to run (check.py times it
    in eager mode on the device, beside the artifact)."""
    import torch
    with torch.no_grad():
        traced = torch.jit.trace(model, tuple(torch.from_numpy(v) for v in inputs.values()))
    traced.save(path)


def main():
    out, arch = os.path.abspath(sys.argv[1]), sys.argv[2]
    # --emulate: kernels as host loops (paddle-compile --cuda-emulate), for
    # a dry run of the check on the tests' stand-ins of the CUDA libraries.
    emulate = sys.argv[3:] == ["--emulate"]
    if sys.argv[3:] and not emulate:
        sys.exit("usage: prepare.py OUT ARCH [--emulate]")
    extra = {"cuda-emulate": "true"} if emulate else None
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    rng = np.random.default_rng(0)
    cases = []

    def case(name, path, inputs, reference=None, rtol=1e-4, atol=1e-5, torch_model=None,
             weights_of=None, env=None):
        work = os.path.join(out, name)
        os.makedirs(work, exist_ok=True)
        shapes = {k: list(v.shape) for k, v in inputs.items()}
        print("compiling %s for %s ..." % (name, arch), flush=True)
        gpu = paddle_mlir.compile(path, target="cuda", cuda_arch=arch, input_shapes=shapes,
                                  _extra_options=extra)
        gpu.save(os.path.join(work, "artifact"))
        if weights_of:
            same_weights(os.path.join(work, "artifact"), os.path.join(out, weights_of, "artifact"))
        if reference is None:
            cpu = paddle_mlir.compile(path, input_shapes=shapes)
            refs = cpu(**inputs)
        else:
            refs = reference(*inputs.values())
        order = [i["name"] for i in json.load(open(os.path.join(work, "artifact",
                                                                "manifest.json")))["inputs"]]
        for i, n in enumerate(order):
            inputs[n].tofile(os.path.join(work, "in%d.bin" % i))
        outs = []
        for i, r in enumerate(refs):
            np.save(os.path.join(work, "ref%d.npy" % i), r)
            outs.append({"dtype": str(r.dtype), "shape": list(r.shape)})
        record = {"name": name, "outputs": outs, "rtol": rtol, "atol": atol,
                  "inputs": [{"dtype": str(inputs[n].dtype), "shape": list(inputs[n].shape)}
                             for n in order]}
        if torch_model:
            # Positional in the manifest's input order, as traced.
            record["torch"] = torch_model
        if env:
            record["env"] = env
        cases.append(record)

    ref = mlp(os.path.join(out, "src-mlp"))
    case("mlp", os.path.join(out, "src-mlp"),
         {"x": rng.standard_normal((8, 16)).astype(np.float32)}, ref, 1e-5, 1e-6)
    subprocess.run([sys.executable, os.path.join(ROOT, "test", "e2e", "Inputs", "tiny_cnn.py"),
                    os.path.join(out, "src-tiny")], check=True)
    case("tiny_cnn", os.path.join(out, "src-tiny"),
         {"x": rng.standard_normal((2, 3, 16, 16)).astype(np.float32)})

    # A cuda artifact's collectives as one rank (no MPI needed): through
    # host copies, and through NCCL on the device buffers.
    collectives(os.path.join(out, "src-comm"))
    x = rng.standard_normal((4, 3)).astype(np.float32)
    case("collectives", os.path.join(out, "src-comm"), {"x": x})
    case("collectives_nccl", os.path.join(out, "src-comm"), {"x": x},
         env={"PADDLE_MLIR_COMM_BACKEND": "nccl"})

    # The zoo models at batch 1 and 8, each beside the PyTorch model its
    # weights came from.
    b, torch_mobilenet = zoo.build("mobilenet_v2")
    b.save(os.path.join(out, "src-mobilenet"))
    for batch in (1, 8):
        image = rng.standard_normal((batch, 3, 224, 224)).astype(np.float32)
        if batch == 1:
            trace(torch_mobilenet, {"image": image}, os.path.join(out, "torch-mobilenet_v2.pt"))
        case("mobilenet_v2_b%d" % batch, os.path.join(out, "src-mobilenet"), {"image": image},
             torch_model="torch-mobilenet_v2.pt",
             weights_of="mobilenet_v2_b1" if batch > 1 else None)
    # BERT with 2 layers of width 128 and a 4096-word vocabulary (the
    # embedding of 30522 words alone would take 15 MiB).
    b, torch_bert = zoo.build("bert_base", layers=2, hidden=128, heads=2, vocab=4096)
    b.save(os.path.join(out, "src-bert"))
    for batch in (1, 8):
        ids = rng.integers(1, 4096, (batch, 64)).astype(np.int64)
        ids[0, 48:] = 0  # padding, masked
        feeds = {"input_ids": ids, "token_type_ids": np.zeros((batch, 64), np.int64)}
        if batch == 1:
            trace(torch_bert, feeds, os.path.join(out, "torch-bert_2x128.pt"))
        case("bert_2x128_b%d" % batch, os.path.join(out, "src-bert"), feeds,
             torch_model="torch-bert_2x128.pt", weights_of="bert_2x128_b1" if batch > 1 else None)
    for d in os.listdir(out):
        if d.startswith("src-"):
            shutil.rmtree(os.path.join(out, d))
    json.dump(cases, open(os.path.join(out, "cases.json"), "w"), indent=1)
    shutil.copy(os.path.join(BUILD, "lib", "libpdrt.so"), out)
    shutil.copy(os.path.join(HERE, "check.py"), out)
    shutil.copy(os.path.join(HERE, "nccl_check.py"), out)
    shutil.copy(os.path.join(BUILD, "lib", "libpdrt_nccl.so"), out)
    subprocess.run(["cc", "-O2", "-I", os.path.join(ROOT, "include", "PaddleMLIR", "Runtime"),
                    os.path.join(HERE, "runner.c"), "-o", os.path.join(out, "runner"),
                    "-L", out, "-lpdrt", "-Wl,-rpath,$ORIGIN"], check=True)
    size = sum(os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk(out) for f in fs)
    print("prepared %s: %d cases%s, %.1f MiB" % (out, len(cases),
                                                 " (kernels emulated)" if emulate else "",
                                                 size / 2**20))


if __name__ == "__main__":
    main()
