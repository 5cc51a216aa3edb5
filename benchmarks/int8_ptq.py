"""Calibrated int8 (post-training quantization) against fp32 on the zoo's
float models: paddle-compile --precision int8 --calibration-data on natural
images (scikit-image's sample photos, cropped and flipped; ImageNet
normalization), timed side by side with the fp32 artifact of the same model
in one run. Prints per model and batch: fp32 and int8 latency, the ratio,
the output SQNR and top-1 agreement the compiler measured on its validation
split, and the time calibration took.

Usage: PYTHONPATH=build/python PATH=build/bin:$PATH /usr/bin/python3 benchmarks/int8_ptq.py
       [--models resnet50,mobilenet_v2,bert_base] [--batches 1,8] [--samples 60] [--threads 2]
       [--big-calibration 500]   (also: time and peak memory of one ResNet-50
                                  calibration over that many samples)

The zoo's models have seeded random weights (no trained weights ship with
Debian), so top-1 agreement here says how int8 keeps a random classifier's
ranking, which is harder than a trained one's; accuracy on a trained model
is python/tests/test_calibration.py (digits).

bert_base (the zoo's BERT-base encoder, sequence 128, 2-class head) is
calibrated and timed on token ids drawn at random (no tokenizer or text
corpus ships with Debian), the last 16 positions padding and the second
half of each sequence segment 1, as benchmarks/train_step.py feeds it.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

import numpy as np

import paddle_mlir
from paddle_mlir import zoo


def photos(n, rng):
    import skimage.data as sd
    from skimage.transform import resize
    images = [sd.astronaut(), sd.coffee(), sd.chelsea(), sd.rocket(), sd.immunohistochemistry(),
              sd.hubble_deep_field()]
    mean = np.array([0.485, 0.456, 0.406])
    std = np.array([0.229, 0.224, 0.225])
    out = []
    while len(out) < n:
        im = images[len(out) % len(images)]
        h, w, _ = im.shape
        s = int(min(h, w) * rng.uniform(0.4, 1.0))
        y, x = rng.randint(0, h - s + 1), rng.randint(0, w - s + 1)
        crop = im[y:y + s, x:x + s]
        if rng.rand() < 0.5:
            crop = crop[:, ::-1]
        r = resize(crop, (224, 224), anti_aliasing=True)
        out.append(((r - mean) / std).transpose(2, 0, 1).astype(np.float32))
    return out


def cpu_line():
    name = flags = "?"
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("model name") and name == "?":
                name = line.split(":", 1)[1].strip()
            if line.startswith("flags") and flags == "?":
                fl = line.split(":", 1)[1].split()
                flags = " ".join(x for x in fl if x.startswith(("avx512_vnni", "avx_vnni", "avx512f",
                                                                "avx2", "amx")))
    return "%s [%s]" % (name, flags)


def median_ms(model, feeds, rounds):
    model(**feeds)
    times = []
    for _ in range(rounds):
        t = time.perf_counter()
        model(**feeds)
        times.append((time.perf_counter() - t) * 1e3)
    return float(np.median(times))


def interleaved_ms(models, feeds, rounds):
    """Median latency (ms) of each model, from three interleaved passes, so
    every model sees the same machine."""
    times = {k: [] for k in models}
    for _ in range(3):
        for k, m in models.items():
            times[k].append(median_ms(m, feeds, rounds // 3 + 1))
    return {k: float(np.median(v)) for k, v in times.items()}


def big(work, pics, n):
    """One ResNet-50 calibration over n samples: wall time and the compiler's
    peak resident memory (getrusage of the child)."""
    import resource
    b, _ = zoo.build("resnet50")
    model_dir = os.path.join(work, "big_model")
    b.save(model_dir)
    samples = os.path.join(work, "big_samples")
    os.makedirs(samples)
    for i in range(n):
        np.save(os.path.join(samples, "%04d.npy" % i), pics[i % len(pics)][None])
    t0 = time.time()
    p = subprocess.Popen(["paddle-compile", model_dir, "--input-shape", "image=1x3x224x224",
                          "--precision", "int8", "--calibration-data", samples, "-o",
                          os.path.join(work, "big_int8")], stdout=subprocess.DEVNULL,
                         stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(p.pid, 0)
    if status != 0:
        raise SystemExit("paddle-compile failed in the big calibration")
    print("resnet50 calibration of %d samples (%d calibrate, %d validate): %.1f s, peak RSS "
          "%.0f MiB" % (n, n - round(n * 0.2), round(n * 0.2), time.time() - t0,
                        usage.ru_maxrss / 1024.0))


SEQ = 128


def model_inputs(name, batch, pics, i, rng):
    """The feeds of sample `i` (batch `batch`) and the --input-shape flags."""
    if name != "bert_base":
        return ({"image": np.stack(pics[i * batch:(i + 1) * batch])},
                ["--input-shape", "image=%dx3x224x224" % batch])
    ids = rng.randint(1, 30522, size=(batch, SEQ)).astype(np.int64)
    ids[:, SEQ - 16:] = 0
    types = np.zeros((batch, SEQ), np.int64)
    types[:, SEQ // 2:] = 1
    return ({"input_ids": ids, "token_type_ids": types},
            ["--input-shape", "input_ids=%dx%d" % (batch, SEQ), "--input-shape",
             "token_type_ids=%dx%d" % (batch, SEQ)])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--models", default="resnet50,mobilenet_v2")
    ap.add_argument("--batches", default="1,8")
    ap.add_argument("--samples", type=int, default=60)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--rounds", type=int, default=20)
    ap.add_argument("--big-calibration", type=int, default=0)
    ap.add_argument("--compare-exclude", default="",
                    help="also time an int8 artifact compiled with --quantize-exclude this "
                         "pattern (e.g. matmul_v2: BERT's attention products in fp32)")
    args = ap.parse_args()
    os.environ.setdefault("OMP_NUM_THREADS", str(args.threads))
    rng = np.random.RandomState(0)
    pics = photos(args.samples * 8, rng)
    print("CPU:", cpu_line())
    print("threads: %d; samples per compile: %d (the last 20%% validate)" % (args.threads,
                                                                          args.samples))
    head = "%-13s %5s | %9s %9s %6s | %8s %6s | %7s" % ("model", "batch", "fp32 ms", "int8 ms",
                                                        "speedup", "SQNR dB", "top-1", "calib s")
    print(head)
    print("-" * len(head))
    work = tempfile.mkdtemp(prefix="int8_ptq_")
    try:
        for name in args.models.split(","):
            b, _ = zoo.build(name)
            model_dir = os.path.join(work, name)
            b.save(model_dir)
            for batch in [int(x) for x in args.batches.split(",")]:
                samples = os.path.join(work, "%s_b%d_samples" % (name, batch))
                os.makedirs(samples)
                tokens = np.random.RandomState(1)
                for i in range(args.samples):
                    feeds, shape = model_inputs(name, batch, pics, i, tokens)
                    np.savez(os.path.join(samples, "%04d.npz" % i), **feeds)
                feeds, shape = model_inputs(name, batch, pics, 0, np.random.RandomState(2))
                fp32_dir, int8_dir = os.path.join(work, "fp32"), os.path.join(work, "int8")
                subprocess.run(["paddle-compile", model_dir, "-o", fp32_dir] + shape, check=True,
                               stdout=subprocess.DEVNULL)
                t0 = time.time()
                subprocess.run(["paddle-compile", model_dir, "--precision", "int8",
                                "--calibration-data", samples, "-o", int8_dir] + shape,
                               check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                calib_s = time.time() - t0
                with open(os.path.join(int8_dir, "quant_report.json")) as f:
                    rep = json.load(f)
                f32, i8 = paddle_mlir.load(fp32_dir), paddle_mlir.load(int8_dir)
                peers = {"fp32": f32, "int8": i8}
                if args.compare_exclude:
                    ex_dir = os.path.join(work, "int8_ex")
                    subprocess.run(["paddle-compile", model_dir, "--precision", "int8",
                                    "--calibration-data", samples, "--quantize-exclude",
                                    args.compare_exclude, "-o", ex_dir] + shape,
                                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                    peers["excluded"] = paddle_mlir.load(ex_dir)
                t = interleaved_ms(peers, feeds, args.rounds)
                a, c = t["fp32"], t["int8"]
                res = rep["result"]
                print("%-13s %5d | %9.2f %9.2f %5.2fx | %8.1f %6.3f | %7.1f" % (
                    name, batch, a, c, a / c, res["output_sqnr_db"], res["top1_agreement"],
                    calib_s))
                if args.compare_exclude:
                    e = t["excluded"]
                    print("%-13s %5d | int8 with --quantize-exclude %s: %.2f ms (%.2fx fp32; "
                          "full int8 %.2fx of it)" % (name, batch, args.compare_exclude, e, a / e,
                                                      e / c))
                    shutil.rmtree(os.path.join(work, "int8_ex"), ignore_errors=True)
                sys.stdout.flush()
                del f32, i8, peers  # unloads the libraries before the paths are reused
                for d in (fp32_dir, int8_dir, samples):
                    shutil.rmtree(d, ignore_errors=True)
        if args.big_calibration:
            big(work, pics, args.big_calibration)
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
