"""Prepares a gpu-check folder on the build machine (which needs no GPU):
cuda artifacts of a few models, their inputs, reference outputs (NumPy for
the MLP; the CPU artifact, itself checked against PyTorch by the tests, for
the others), the runtime and a runner that needs nothing else, and the zoo
models' PyTorch originals (traced, their weights read from the artifact's
weights file where it holds them byte for byte) for check.py to time
beside them, and the NCCL backend with nccl_check.py. check.py runs them
on the device machine. The real Paddle models of ../shared/models/paddle
(MobileNetV1, simple_model) are cases too where that folder is there.
Usage: python3 prepare.py DIR CUDA_ARCH [--emulate]"""
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
SHARED_MODELS = os.path.normpath(os.path.join(ROOT, "..", "shared", "models", "paddle"))
# What check.py compares: max |gpu - ref| <= RTOL * max |ref| per output
# (issue 33: fp32 within 1e-3 relative to the CPU artifact), which leaves
# room for cuDNN's and cuBLASLt's choices of algorithm.
RTOL = 1e-3


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


def trace(model, inputs, path, artifact):
    """The PyTorch model the program's weights came from, traced into a file
    that needs only PyTorch to run (check.py times it in eager mode on the
    device, beside the artifact), its weights carried once: each of its
    tensors that the artifact's weights file holds byte for byte (as is,
    or transposed: the zoo's linear weights) is saved as a one-element
    placeholder, recorded with its place in that file, from which check.py
    reads it back. Where the compiler folded a batch norm into the
    convolution before it (its weights file then holds the folded weight
    and bias, "<conv>.weight.bn_folded" and "<bn>.bias.bn_folded", checked
    here against folding the module's own), the convolution reads the
    folded weight and the batch norm keeps only the shift (scale 1, mean
    0, bias the folded one): the same ops as the original module on the
    very numbers the artifact computes with. Returns the record of those
    places (file, tensors)."""
    import torch
    with torch.no_grad():
        traced = torch.jit.trace(model, tuple(torch.from_numpy(v) for v in inputs.values()))
    manifest = json.load(open(os.path.join(artifact, "manifest.json")))
    blob = open(os.path.join(artifact, manifest["weights_file"]), "rb").read()
    where = {}
    for w in manifest["weights"]:
        where.setdefault(blob[w["offset"]:w["offset"] + w["nbytes"]], w["offset"])
    by_name = {w["name"]: w for w in manifest["weights"]}
    named = dict(traced.named_parameters())
    named.update(traced.named_buffers())
    tensors = {}

    def placeholder(key, offset, shape, transposed=False):
        t = named[key]
        tensors[key] = {"offset": offset, "dtype": str(t.dtype).replace("torch.", ""),
                        "shape": list(shape), "transposed": transposed}
        t.data = torch.zeros(1, dtype=t.dtype).expand(t.shape)

    for key, t in named.items():
        a = t.detach().numpy()
        if a.nbytes < 4096:
            continue
        for transposed, data in ((False, a), (True, a.T if a.ndim == 2 else None)):
            offset = where.get(np.ascontiguousarray(data).tobytes()) if data is not None else None
            if offset is not None:
                placeholder(key, offset, data.shape, transposed)
                break

    def stored(w):
        return np.frombuffer(blob, np.float32, int(np.prod(w["shape"])),
                             w["offset"]).reshape(w["shape"])

    mods = list(model.named_modules())
    for (cname, conv), (bname, bn) in zip(mods, mods[1:]):
        fw, fb = by_name.get(cname + ".weight.bn_folded"), by_name.get(bname + ".bias.bn_folded")
        if not (isinstance(conv, torch.nn.Conv2d) and isinstance(bn, torch.nn.BatchNorm2d)) or \
                conv.bias is not None or not fw or not fb or cname + ".weight" in tensors or \
                fw["dtype"] != "float32" or fb["dtype"] != "float32":
            continue
        scale = bn.weight.detach().double().numpy() / np.sqrt(
            bn.running_var.detach().double().numpy() + bn.eps)
        want_w = conv.weight.detach().double().numpy() * scale[:, None, None, None]
        want_b = bn.bias.detach().double().numpy() - bn.running_mean.detach().double().numpy() * scale
        got_w, got_b = stored(fw), stored(fb)
        if got_w.shape != want_w.shape or got_b.shape != want_b.shape or \
                not np.allclose(got_w, want_w, rtol=1e-5, atol=1e-6 * np.abs(want_w).max()) or \
                not np.allclose(got_b, want_b, rtol=1e-5, atol=1e-6 * np.abs(want_b).max()):
            continue
        placeholder(cname + ".weight", fw["offset"], fw["shape"])
        c = bn.num_features
        named[bname + ".weight"].data = torch.full((c,), float(np.sqrt(np.float32(1 + bn.eps))))
        named[bname + ".running_var"].data = torch.ones(c)
        named[bname + ".running_mean"].data = torch.zeros(c)
        named[bname + ".bias"].data = torch.from_numpy(got_b.copy())
    traced.save(path)
    return {"file": os.path.relpath(os.path.join(artifact, manifest["weights_file"]),
                                    os.path.dirname(path)), "tensors": tensors}


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

    def case(name, path, inputs, reference=None, torch_model=None, weights_of=None,
             inputs_of=None, env=None, no_torch="no PyTorch original"):
        """Compiles case `name` and writes its inputs (none where `inputs_of`
        names a case with the same ones: check.py copies them) and
        references. Returns its record for cases.json."""
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
            if inputs_of:
                theirs = os.path.join(out, inputs_of, "in%d.bin" % i)
                if inputs[n].tobytes() != open(theirs, "rb").read():
                    raise RuntimeError("%s's input %d is not %s" % (name, i, theirs))
            else:
                inputs[n].tofile(os.path.join(work, "in%d.bin" % i))
        outs = []
        for i, r in enumerate(refs):
            np.save(os.path.join(work, "ref%d.npy" % i), r)
            outs.append({"dtype": str(r.dtype), "shape": list(r.shape)})
        record = {"name": name, "outputs": outs, "rtol": RTOL, "atol": 0.0,
                  "inputs": [{"dtype": str(inputs[n].dtype), "shape": list(inputs[n].shape)}
                             for n in order]}
        if inputs_of:
            record["inputs_of"] = inputs_of
        if torch_model:
            # Positional in the manifest's input order, as traced.
            record["torch"] = torch_model
        else:
            record["no_torch"] = no_torch
        if env:
            record["env"] = env
        cases.append(record)
        return record

    ref = mlp(os.path.join(out, "src-mlp"))
    case("mlp", os.path.join(out, "src-mlp"),
         {"x": rng.standard_normal((8, 16)).astype(np.float32)}, ref)
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
    # weights came from (traced once, at batch 1, reading the batch-1
    # artifact's weights file, which the batch-8 artifact reads too). The
    # image models share their images.
    images = {batch: rng.standard_normal((batch, 3, 224, 224)).astype(np.float32)
              for batch in (1, 8)}

    def zoo_cases(name, builder, feeds_of, images_of=None):
        b, module = builder
        b.save(os.path.join(out, "src-" + name))
        for batch in (1, 8):
            feeds = feeds_of(batch)
            first = "%s_b1" % name
            record = case("%s_b%d" % (name, batch), os.path.join(out, "src-" + name), feeds,
                          torch_model="torch-%s.pt" % name,
                          weights_of=first if batch > 1 else None,
                          inputs_of=images_of and "%s_b%d" % (images_of, batch))
            if batch == 1:
                weights = trace(module, dict(feeds), os.path.join(out, "torch-%s.pt" % name),
                                os.path.join(out, first, "artifact"))
            record["torch_weights"] = weights

    zoo_cases("mobilenet_v2", zoo.build("mobilenet_v2"), lambda n: {"image": images[n]})
    # ResNet-50's depth and shape (16 bottleneck blocks, torchvision's
    # module) a quarter as wide: its 98 MiB of weights would not fit.
    zoo_cases("resnet50_w16", zoo.build("resnet50", width=16), lambda n: {"image": images[n]},
              images_of="mobilenet_v2")

    # BERT with 2 layers of width 128 and a 4096-word vocabulary (the
    # embedding of 30522 words alone would take 15 MiB).
    def bert_feeds(batch):
        ids = rng.integers(1, 4096, (batch, 64)).astype(np.int64)
        ids[0, 48:] = 0  # padding, masked
        return {"input_ids": ids, "token_type_ids": np.zeros((batch, 64), np.int64)}
    zoo_cases("bert_2x128", zoo.build("bert_base", layers=2, hidden=128, heads=2, vocab=4096),
              bert_feeds)

    # The real Paddle models of the team's shared/models: the CPU artifact
    # is their reference, and there is no PyTorch model to time beside them.
    why = "a Paddle model: no PyTorch original"
    if not os.path.isdir(SHARED_MODELS):
        print("skipping the real Paddle models: %s is not there" % SHARED_MODELS, flush=True)
    else:
        mbv1 = os.path.join(SHARED_MODELS, "mobilenet_v1_fp32_224")
        for batch in (1, 8):
            case("mobilenet_v1_b%d" % batch, mbv1, {"image": images[batch]},
                 weights_of="mobilenet_v1_b1" if batch > 1 else None,
                 inputs_of="mobilenet_v2_b%d" % batch, no_torch=why)
        # Batch 1 only: its output (the first convolution's, [N, 32, 112,
        # 112]) would carry 12 MiB of reference at batch 8.
        case("simple_model_b1", os.path.join(SHARED_MODELS, "simple_model"),
             {"image": images[1]}, inputs_of="mobilenet_v2_b1", no_torch=why)
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
