"""int8 against fp32 on the real quantized Paddle programs of the corpus
(../shared/corpus): Fluid 1.x frozen QAT MobileNetV3, a PaddleSlim 2.x QAT
CRNN and a quantized PP-OCRv3 recognizer. The corpus ships programs without
weights, so weights are synthesized as the corpus runner does, except that
quantizer thresholds and weight scales are positive (0.5 to 1.5), as
trained ones are. Each program is compiled with --precision fp32 (the
quantization simulated in fp32, as Paddle runs it) and --precision int8,
timed side by side in one run at batch 1; prints the int8 op count, both
latencies, the ratio, and the SQNR and largest difference of int8 against
fp32 over all float outputs (999: identical). A difference comes from a
value on a rounding boundary of some quantizer, which floating-point
summation order can put on either side.

Usage: PYTHONPATH=build/python /usr/bin/python3 benchmarks/int8_real_qat.py
       [--corpus ../shared/corpus] [--reps 10]
"""
import argparse
import json
import os
import sys
import tempfile
import time

import numpy as np

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
sys.path.insert(0, os.path.join(ROOT, "test", "Corpus"))
import paddle_mlir  # noqa: E402
from paddle_mlir import framework_pb2 as fp  # noqa: E402
import corpus  # noqa: E402

MODELS = {"mobilenet_qat_etsilvia_fluid": "__model__", "ocr_rec_crnn_quant_ulocrx": "inference.pdmodel",
          "ocr_rec_ppocrv3_quant_myfile": "inference.pdmodel"}


def synthesize(program_path, out):
    """corpus.synthesize_params, then positive quantizer scales."""
    program = fp.ProgramDesc()
    with open(program_path, "rb") as f:
        program.ParseFromString(f.read())
    corpus.synthesize_params(program, fp, out)
    scales = set()
    for op in program.blocks[0].ops:
        if "quant" in op.type:
            for v in op.inputs:
                if v.parameter in ("InScale", "Scales", "Scale"):
                    scales.update(v.arguments)
    names = paddle_mlir.reference.persistable_names(program)
    with open(out, "rb") as f:
        arrays = paddle_mlir.reference.read_records(f.read())
    rng = np.random.RandomState(1)
    from paddle_mlir.builder import tensor_record
    with open(out, "wb") as f:
        for name, a in zip(names, arrays):
            if name in scales and a.dtype == np.float32:
                a = (0.5 + rng.rand(*a.shape)).astype(np.float32)
            f.write(tensor_record(a, "bfloat16" if a.dtype == np.uint16 else a.dtype.name))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--corpus", default=os.path.join(ROOT, "..", "shared", "corpus"))
    ap.add_argument("--reps", type=int, default=10)
    args = ap.parse_args()
    work = tempfile.mkdtemp(prefix="int8_real_qat_")
    print("%-30s %9s %10s %10s %9s %9s %11s" % ("program", "int8 ops", "fp32 ms", "int8 ms", "int8/fp32",
                                             "SQNR dB", "max |diff|"))
    for name, file in MODELS.items():
        path = os.path.join(args.corpus, name, file)
        if not os.path.exists(path):
            print("%-30s skipped: %s not found" % (name, path))
            continue
        params = os.path.join(work, name + ".pdiparams")
        synthesize(path, params)
        arts = {p: paddle_mlir.compile(path, params=params, precision=p) for p in ("fp32", "int8")}
        with open(os.path.join(arts["int8"].artifact_dir, "manifest.json")) as f:
            ops = json.load(f)["compute_ops"]["ops"]
        rng = np.random.RandomState(0)
        ins = []
        for spec in arts["fp32"].inputs:
            shape = [d or (48 if i == 2 else 320 if i == 3 else 1) for i, d in enumerate(spec.shape)]
            ins.append(rng.uniform(-1, 1, shape).astype(np.float32) if "float" in spec.dtype
                       else np.zeros(shape, np.int64))
        times, outs = {}, {}
        for _ in range(3):  # alternate, best of three rounds
            for p, a in arts.items():
                a(*ins)
                t = time.perf_counter()
                for _ in range(args.reps):
                    o = a(*ins)
                dt = (time.perf_counter() - t) / args.reps
                times[p] = min(times.get(p, 1e9), dt)
                outs[p] = np.concatenate([v.astype(np.float64).ravel() for v in o
                                          if np.issubdtype(v.dtype, np.floating)])
        diff = outs["fp32"] - outs["int8"]
        sqnr = 10 * np.log10((outs["fp32"] ** 2).sum() / max((diff ** 2).sum(), 1e-300))
        print("%-30s %4d / %-3d %10.2f %10.2f %9.2f %9.1f %11.1e" % (
            name, sum(o["precision"] == "int8" for o in ops), len(ops), times["fp32"] * 1e3,
            times["int8"] * 1e3, times["int8"] / times["fp32"], min(sqnr, 999.0),
            np.abs(diff).max()))


if __name__ == "__main__":
    main()
