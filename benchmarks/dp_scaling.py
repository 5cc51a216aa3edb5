#!/usr/bin/env python3
"""Data-parallel training on 8 and 64 GPUs, predicted on paper.

No GPU is needed: the FLOPs come from the cost model in the manifest of
each model compiled here (forward, after the optimizer's fusions; a train
step is taken as 3x the forward: backward computes about twice the
forward's products), the gradient bytes from the model's parameters
(float32 gradients, averaged by one ring allreduce per step as the
buckets of --partition data --train do), and the two machine figures are
inputs, printed with the result:

  --tflops   what one GPU achieves on the step (default 400: about 40% of
             an H100 SXM's 989 dense bf16 TFLOPS, an assumption)
  --busbw    NCCL allreduce bus bandwidth in GB/s (default 370, the
             published figure for 8 H100s over NVLink); --busbw-64 for 64
             GPUs (default 370 too, the same figure as if the fabric kept
             up; pass e.g. 45 for 8 nodes of 8 x 400 Gb/s InfiniBand)

A ring allreduce of S bytes on N GPUs takes S * 2 (N - 1) / N / busbw
(nccl-tests' definition of bus bandwidth). The step time is the compute
plus the communication not hidden: with no overlap all of it (blocking
buckets, the default), with full overlap (the best --overlap-buckets can
do) only what exceeds backward (2/3 of the compute). Scaling efficiency =
compute / step time; speedup = N x efficiency, beside PyTorch DDP's
published 7.7x on 8 A100s for ResNet-50.

Nothing here is measured on a GPU: cuda train steps and data-parallel
training (--target cuda --train --partition data) compile, but have run
only with their kernels emulated on the host against stand-ins of the
CUDA driver and libraries, never on a real GPU.

Usage: PYTHONPATH=build/python /usr/bin/python3 benchmarks/dp_scaling.py
           [--tflops 400] [--busbw 370] [--busbw-64 370] [--json FILE]
"""
import argparse
import json
import os
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def model_figures(name, tmp):
    """(forward FLOPs per sample, gradient bytes, batch per GPU) of a zoo
    model compiled here."""
    import paddle_mlir
    from paddle_mlir import zoo
    if name == "resnet50":
        b, m = zoo.resnet50(seed=0)
        batch, shapes = 32, {"image": [32, 3, 224, 224]}
    else:
        b, m = zoo.bert_base(seed=0)
        batch, shapes = 32, {"input_ids": [32, 128], "token_type_ids": [32, 128]}
    b.save(os.path.join(tmp, name))
    model = paddle_mlir.compile(os.path.join(tmp, name), input_shapes=shapes,
                                output_dir=os.path.join(tmp, name + "_art"))
    with open(os.path.join(model.artifact_dir, "manifest.json")) as f:
        flops = json.load(f)["cost"]["flops"]
    params = sum(p.numel() for p in m.parameters())
    return flops / batch, 4 * params, batch, params


def predict(fwd_per_sample, grad_bytes, batch, n, tflops, busbw):
    compute = 3 * fwd_per_sample * batch / (tflops * 1e12)
    comm = grad_bytes * 2 * (n - 1) / n / (busbw * 1e9)
    backward = compute * 2 / 3
    rows = {}
    for mode, exposed in (("no overlap", comm), ("full overlap", max(0.0, comm - backward))):
        step = compute + exposed
        rows[mode] = {"step_ms": step * 1e3, "efficiency": compute / step,
                      "speedup": n * compute / step}
    return compute * 1e3, comm * 1e3, rows


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tflops", type=float, default=400.0)
    ap.add_argument("--busbw", type=float, default=370.0)
    ap.add_argument("--busbw-64", type=float, default=370.0)
    ap.add_argument("--json")
    args = ap.parse_args()
    print("assumed: %.0f TFLOPS achieved per GPU; allreduce bus bandwidth %.0f GB/s on 8 GPUs, "
          "%.0f GB/s on 64" % (args.tflops, args.busbw, args.busbw_64))
    results = []
    with tempfile.TemporaryDirectory() as tmp:
        for name in ("resnet50", "bert_base"):
            fwd, grad_bytes, batch, params = model_figures(name, tmp)
            print("\n%s: %.2f GFLOP forward per sample (cost model), %.1fM parameters = %.1f MB of "
                  "gradients, batch %d per GPU" % (name, fwd / 1e9, params / 1e6, grad_bytes / 1e6, batch))
            for n, bw in ((8, args.busbw), (64, args.busbw_64)):
                compute_ms, comm_ms, rows = predict(fwd, grad_bytes, batch, n, args.tflops, bw)
                print("  %2d GPUs: compute %.2f ms, allreduce %.2f ms" % (n, compute_ms, comm_ms))
                for mode, r in rows.items():
                    print("    %-12s step %.2f ms, efficiency %.3f, speedup %.1fx" %
                          (mode, r["step_ms"], r["efficiency"], r["speedup"]))
                results.append({"model": name, "gpus": n, "busbw_gbs": bw, "tflops": args.tflops,
                                "compute_ms": compute_ms, "allreduce_ms": comm_ms, **{
                                    k.replace(" ", "_"): v for k, v in rows.items()}})
    print("\nPyTorch DDP (published): 7.7x on 8 A100s for ResNet-50.")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=2)


if __name__ == "__main__":
    sys.exit(main())
