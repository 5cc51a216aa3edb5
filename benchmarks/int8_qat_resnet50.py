"""The QAT ResNet-50 pattern of issue 35 against calibrated int8 and fp32:
the zoo's ResNet-50 built with fake quantizers as Paddle's quantization
pass places them (fake_quantize_dequantize_moving_average_abs_max on every
conv input, one per tensor, shared by its readers; a channel-wise weight
quantizer on every conv weight; quantizers on both inputs of each residual
add), thresholds from the float model on photos. Timed side by side in one
run with the calibrated int8 and the fp32 artifacts of the same float
model; prints each latency and the ratios.

Usage: PYTHONPATH=build/python PATH=build/bin:$PATH /usr/bin/python3 benchmarks/int8_qat_resnet50.py
       [--batch 1] [--threads 2] [--rounds 20] [--samples 40]
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.dirname(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "python", "tests"))
import int8_ptq  # noqa: E402 (photos, timing, the CPU line)
import paddle_mlir  # noqa: E402
from paddle_mlir import builder, zoo  # noqa: E402
from test_int8 import fake_quant, weight_quant  # noqa: E402


def thresholds(model, pics):
    """Max |x| over the photos of each conv's input, and of both inputs of
    each residual add, in the order the zoo's builder meets them."""
    import torch
    conv_in, add_in = {}, {}
    hooks = []
    for name, mod in model.named_modules():
        if isinstance(mod, torch.nn.Conv2d):
            hooks.append(mod.register_forward_hook(
                lambda m, i, o, n=name: conv_in.__setitem__(
                    n, max(conv_in.get(n, 0.0), float(i[0].abs().max())))))
    for li in range(1, 5):
        for bi, blk in enumerate(getattr(model, "layer%d" % li)):
            p = "layer%d.%d" % (li, bi)
            hooks.append(blk.bn3.register_forward_hook(
                lambda m, i, o, n=p: add_in.__setitem__(
                    n + ".r", max(add_in.get(n + ".r", 0.0), float(o.abs().max())))))
            sc = blk.downsample[1] if blk.downsample is not None else None
            if sc is not None:
                hooks.append(sc.register_forward_hook(
                    lambda m, i, o, n=p: add_in.__setitem__(
                        n + ".sc", max(add_in.get(n + ".sc", 0.0), float(o.abs().max())))))
    with torch.no_grad():
        model(torch.from_numpy(np.stack(pics)))
    for h in hooks:
        h.remove()
    return conv_in, add_in


class QatBuilder(builder.ProgramBuilder):
    """Inserts the quantizers as the builder goes: a conv's input gets the
    quantizer of its tensor (made once per tensor), its weight a
    channel-wise one; a residual add gets one on each input."""

    def __init__(self, conv_t, add_t):
        super().__init__()
        self.conv_t = list(conv_t)
        self.add_t = list(add_t)
        self.quantized = {}
        self.n = 0

    def quantized_input(self, x, t):
        if x.name not in self.quantized:
            self.n += 1
            self.quantized[x.name] = fake_quant(self, x, t, "qat_s%d" % self.n)
        return self.quantized[x.name]

    def conv2d(self, x, w, *args, **kw):
        t = self.conv_t.pop(0)
        return super().conv2d(self.quantized_input(x, t), weight_quant(self, w, 0), *args, **kw)

    def elementwise(self, type, x, y, axis=-1):
        if type == "elementwise_add" and axis == -1 and len(x.shape) == 4 and x.shape == y.shape:
            tr, tsc = self.add_t.pop(0)
            self.n += 1
            x = fake_quant(self, x, tr, "qat_s%d" % self.n)
            y = self.quantized_input(y, tsc)
        return super().elementwise(type, x, y, axis)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--batch", type=int, default=1)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--rounds", type=int, default=20)
    ap.add_argument("--samples", type=int, default=40)
    args = ap.parse_args()
    os.environ.setdefault("OMP_NUM_THREADS", str(args.threads))
    rng = np.random.RandomState(0)
    pics = int8_ptq.photos(args.samples + args.batch, rng)
    print("CPU:", int8_ptq.cpu_line())
    model = zoo.make_torch_resnet50(0)
    conv_in, add_in = thresholds(model, pics[:args.samples])
    names = [n for n, m in model.named_modules() if type(m).__name__ == "Conv2d"]
    # The builder meets a block's conv1..conv3 and then its downsample conv.
    order = []
    for n in names:
        if n.endswith("downsample.0"):
            continue
        order.append(n)
        if n.endswith("conv3") and n.replace("conv3", "downsample.0") in conv_in:
            order.append(n.replace("conv3", "downsample.0"))
    adds = []
    for li in range(1, 5):
        for bi, blk in enumerate(getattr(model, "layer%d" % li)):
            p = "layer%d.%d" % (li, bi)
            adds.append((add_in[p + ".r"], add_in.get(p + ".sc", conv_in[p + ".conv1"])))
    work = tempfile.mkdtemp(prefix="int8_qat_r50_")
    try:
        saved = zoo.ProgramBuilder
        zoo.ProgramBuilder = lambda: QatBuilder([conv_in[n] for n in order], adds)
        try:
            qb, _ = zoo.build("resnet50")
        finally:
            zoo.ProgramBuilder = saved
        qb.save(os.path.join(work, "qat"))
        fb, _ = zoo.build("resnet50")
        fb.save(os.path.join(work, "float"))
        samples = os.path.join(work, "samples")
        os.makedirs(samples)
        for i in range(args.samples):
            np.save(os.path.join(samples, "%04d.npy" % i), pics[i][None])
        shape = "image=%dx3x224x224" % args.batch
        run = lambda *a: subprocess.run(["paddle-compile"] + list(a), check=True,
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        run(os.path.join(work, "float"), "--input-shape", shape, "-o", os.path.join(work, "fp32"))
        run(os.path.join(work, "float"), "--input-shape", shape, "--precision", "int8",
            "--calibration-data", samples, "-o", os.path.join(work, "ptq"))
        run(os.path.join(work, "qat"), "--input-shape", shape, "--precision", "int8", "-o",
            os.path.join(work, "qat_int8"))
        models = {k: paddle_mlir.load(os.path.join(work, k)) for k in ("fp32", "ptq", "qat_int8")}
        feeds = {"image": np.stack(pics[args.samples:args.samples + args.batch])}
        t = int8_ptq.interleaved_ms(models, feeds, args.rounds)
        print("batch %d: fp32 %.2f ms, calibrated int8 %.2f ms (%.2fx), QAT int8 %.2f ms (%.2fx); "
              "QAT / calibrated time %.2f" % (args.batch, t["fp32"], t["ptq"], t["fp32"] / t["ptq"],
                                              t["qat_int8"], t["fp32"] / t["qat_int8"],
                                              t["qat_int8"] / t["ptq"]))
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
