"""Checks paddle-calib-stats against a NumPy oracle written from the
definitions in include/PaddleMLIR/Quant/Calibration.h (it never calls the
tool's code): each data set is binned here from the raw samples, and every
threshold method is recomputed from that histogram.

Writes, under OUTDIR, each data set split into several .npy files
(<name>.<k>.npy), the whole of it (<name>.all.npy) and the samples sorted by
|x| (<name>.sorted.npy, which fed in chunks grows the histogram range many
times), plus bad inputs for the lit test's error cases. Prints one line per
check ending in OK or FAIL and exits 1 when any failed.

Usage: calib_oracle.py OUTDIR
"""
import os
import shutil
import subprocess
import sys

import numpy as np

BINS = 2048
LEVELS_KL = 128
LEVELS_MSE = 127
PERCENTILE = 99.99

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
tool = shutil.which("paddle-calib-stats")
failed = False


def check(ok, line):
    global failed
    failed |= not ok
    print(line + (" OK" if ok else " FAIL"))


# --- data ------------------------------------------------------------------

def datasets():
    rng = np.random.default_rng(1)
    gauss = rng.standard_normal(200000).astype(np.float32)
    # A few big outliers, all in the last quarter, so the histogram range
    # grows (8 -> 32) when the last file comes.
    gauss[-6:] = [12.0, -15.5, 18.25, -22.0, 25.0, -30.5]
    rng = np.random.default_rng(2)
    relu = np.maximum(rng.laplace(0.0, 1.0, 120000), 0.0).astype(np.float32)
    rng = np.random.default_rng(3)
    uniform = rng.uniform(-3.0, 3.0, 60000).astype(np.float32)
    return [("gauss", gauss, 4), ("relu_laplace", relu, 3), ("uniform", uniform, 2)]


# --- oracle ----------------------------------------------------------------

def histogram(x):
    """|x| in BINS bins over [0, range), range the smallest power of two
    above max |x|: index floor(|x| * BINS / range)."""
    a = np.abs(x.astype(np.float64))
    top = a.max()
    if top == 0:
        return np.bincount(np.zeros(a.size, np.int64), minlength=BINS), 0.0
    rng = np.ldexp(1.0, int(np.frexp(top)[1]))
    assert rng / 2 <= top < rng
    idx = np.floor(a * BINS / rng).astype(np.int64)
    return np.bincount(idx, minlength=BINS).astype(np.int64), rng


def oracle_percentile(h, width, p):
    cum = np.cumsum(h)
    target = p / 100.0 * cum[-1]
    i = int(np.argmax((cum >= target) & (h > 0)))
    return width * (i + (target - (cum[i] - h[i])) / h[i])


def smooth(d, eps=1e-4):
    zero = d == 0
    nz = d.size - zero.sum()
    if nz == 0:
        return None
    d = np.where(zero, eps, d - eps * zero.sum() / nz)
    return d if (d > 0).all() else None


def oracle_kl(h, width, top):
    hf = h.astype(np.float64)
    best, best_i = np.inf, None
    for i in range(LEVELS_KL, BINS + 1):
        p = hf[:i].copy()
        p[-1] += hf[i:].sum()
        group = np.arange(i) * LEVELS_KL // i
        level_sum = np.bincount(group, weights=hf[:i], minlength=LEVELS_KL)
        level_nonzero = np.bincount(group, weights=(p != 0).astype(np.float64),
                                    minlength=LEVELS_KL)
        q = np.zeros(i)
        nzp = p != 0
        q[nzp] = level_sum[group[nzp]] / level_nonzero[group[nzp]]
        p, q = smooth(p), smooth(q)
        if p is None or q is None:
            continue
        p, q = p / p.sum(), q / q.sum()
        d = float(np.sum(p * np.log(p / q)))
        if d < best:
            best, best_i = d, i
    if best_i is None:
        return top
    return min((best_i + 0.5) * width, top)


def oracle_mse(h, width):
    j = np.nonzero(h)[0].astype(np.int64)
    k = np.arange(1, BINS + 1, dtype=np.int64)[:, None]
    m = LEVELS_MSE
    level = np.minimum(m, ((2 * j[None, :] + 1) * m + k) // (2 * k))
    step = (k * width) / m
    centre = (j + 0.5) * width
    err = ((centre[None, :] - level * step) ** 2 * h[j][None, :]).sum(axis=1)
    return float(k[int(np.argmin(err)), 0] * width)


def oracle(x):
    h, rng = histogram(x)
    width = rng / BINS
    top = float(max(abs(float(x.min())), abs(float(x.max()))))
    return {"minmax": top, "percentile": oracle_percentile(h, width, PERCENTILE),
            "kl": oracle_kl(h, width, top), "mse": oracle_mse(h, width)}, width


# --- the tool --------------------------------------------------------------

def run(args):
    r = subprocess.run([tool] + args, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit("paddle-calib-stats %s failed (%d): %s" % (" ".join(args), r.returncode, r.stderr))
    stats = {}
    for line in r.stdout.splitlines():
        key, value = line.split(": ")
        stats[key] = float(value)
    return stats


for name, x, parts in datasets():
    files = []
    for k, piece in enumerate(np.array_split(x, parts)):
        files.append(os.path.join(out, "%s.%d.npy" % (name, k)))
        np.save(files[-1], piece)
    np.save(os.path.join(out, name + ".all.npy"), x)
    np.save(os.path.join(out, name + ".sorted.npy"), x[np.argsort(np.abs(x), kind="stable")])

    want, width = oracle(x)
    got = run(files)
    check(got["count"] == x.size and np.float32(got["min"]) == x.min()
          and np.float32(got["max"]) == x.max(),
          "%s: min %.9g max %.9g count %d" % (name, got["min"], got["max"], got["count"]))
    # minmax is exact. percentile is the same formula on the same histogram
    # (equal to the 9 digits printed), and within one bin of NumPy's exact
    # percentile of the samples. kl and mse are argmins over candidates spaced
    # one bin apart: the tool and the oracle add in different orders, so a
    # near tie between neighbouring candidates may go either way; two bins.
    for method, tol in (("minmax", 0.0), ("percentile", 1e-8 * want["percentile"]),
                        ("kl", 2 * width), ("mse", 2 * width)):
        diff = abs(got[method] - want[method])
        if method == "minmax":
            ok = np.float32(got[method]) == np.float32(want[method])
        else:
            ok = diff <= tol
        check(ok, "%s %s: tool %.9g oracle %.9g (%.2f bins)" % (name, method, got[method],
                                                              want[method], diff / width))
    exact = float(np.percentile(np.abs(x.astype(np.float64)), PERCENTILE))
    check(abs(got["percentile"] - exact) <= width,
          "%s percentile vs np.percentile %.9g: within one bin" % (name, exact))

    # Streaming: one chunk, the files in chunks of 997, and the samples sorted
    # by |x| in chunks of 1000 (each chunk grows the range) must agree within
    # one bin (the histogram does not depend on the split, so they are equal).
    whole = run([os.path.join(out, name + ".all.npy")])
    split = run(files + ["--chunk", "997"])
    grown = run([os.path.join(out, name + ".sorted.npy"), "--chunk", "1000"])
    check(split["rescales"] >= (1 if name == "gauss" else 0) and grown["rescales"] >= 3,
          "%s: range grew %d times in chunks of 997, %d times sorted by |x|" %
          (name, split["rescales"], grown["rescales"]))
    for method in ("minmax", "percentile", "kl", "mse"):
        spread = max(abs(whole[method] - split[method]), abs(whole[method] - grown[method]))
        check(spread <= width, "%s %s: 1 chunk %.9g, chunks %.9g, sorted chunks %.9g" %
              (name, method, whole[method], split[method], grown[method]))

# Bad inputs for the error cases of calibration.test.
nan = np.ones(10, np.float32)
nan[5] = np.nan
np.save(os.path.join(out, "nan.npy"), nan)
inf = np.ones(10, np.float32)
inf[7] = -np.inf
np.save(os.path.join(out, "inf.npy"), inf)
np.save(os.path.join(out, "f64.npy"), np.ones(4, np.float64))
np.save(os.path.join(out, "fortran.npy"), np.asfortranarray(np.ones((2, 3), np.float32)))
with open(os.path.join(out, "fortran.npy"), "rb") as f:
    assert b"'fortran_order': True" in f.read(128)
with open(os.path.join(out, "gauss.0.npy"), "rb") as f:
    good = f.read()
with open(os.path.join(out, "truncated.npy"), "wb") as f:
    f.write(good[:-6])
with open(os.path.join(out, "notnpy.npy"), "wb") as f:
    f.write(b"this is not a .npy file")
v2 = os.path.join(out, "v2.npy")
np.lib.format.write_array(open(v2, "wb"), np.arange(6, dtype=np.float32).reshape(2, 3),
                          version=(2, 0))
check(run([v2])["count"] == 6 and run([v2])["max"] == 5.0, "version 2.0 header: read")
# The NaN file must fail with one line naming it, an exit code below 128.
r = subprocess.run([tool, os.path.join(out, "nan.npy")], capture_output=True, text=True)
check(0 < r.returncode < 128 and len(r.stderr.splitlines()) == 1 and "nan.npy" in r.stderr,
      "NaN input: exit %d, %d error line" % (r.returncode, len(r.stderr.splitlines())))
sys.exit(1 if failed else 0)
