"""The last ops of issue 34's Paddle2ONNX list outside LoD and recurrence:
uniform_random(_batch_size_like), unique, collect_fpn_proposals and
deformable_conv(_v1). Builder programs with dynamic dims, compiled, against
oracles written here (statistics of the generator, Python loops for unique
and Paddle's collect_fpn_proposals, torchvision's deform_conv2d), the
reference evaluator and the exporter's round trip."""
import numpy as np
import pytest

import paddle_mlir
from paddle_mlir import reference
from paddle_mlir.builder import Longs, ProgramBuilder
from test_reductions import check, round_trips


def compile_run(tmp_path, b, inputs):
    """Compiled and reference outputs of builder program `b`."""
    model = str(tmp_path / "m")
    b.save(model)
    round_trips(model, tmp_path)
    got = paddle_mlir.compile(model)(*inputs)
    ref = reference.load(model)
    want = list(ref.run(dict(zip(ref.input_names, inputs))).values())
    return got, want


# ------------------------------------------------------------ uniform_random

def test_uniform_random_statistics(tmp_path):
    lo, hi = -2.0, 3.0
    b = ProgramBuilder()
    x = b.feed("x", [-1, 8])
    shape = b.feed("shape", [2], "int64")
    # A run-time shape, then batch_size_like (batch from x) in float64.
    u = b.tmp("u", [-1, -1])
    b.op("uniform_random", {"ShapeTensor": [shape]}, {"Out": [u]},
         {"min": lo, "max": hi, "seed": 7, "dtype": 5, "shape": Longs([])})
    v = b.tmp("v", [-1, 500], "float64")
    b.op("uniform_random_batch_size_like", {"Input": [x]}, {"Out": [v]},
         {"shape": [-1, 500], "min": 0.0, "max": 1.0, "seed": 11, "dtype": 6})
    b.fetch(u)
    b.fetch(v)
    xs = np.zeros((40, 8), np.float32)
    got, want = compile_run(tmp_path, b, [xs, np.array([200, 300], np.int64)])
    u, v = got
    assert u.shape == (200, 300) and u.dtype == np.float32
    assert v.shape == (40, 500) and v.dtype == np.float64
    for a, (l, h) in ((u, (lo, hi)), (v, (0.0, 1.0))):
        assert a.min() >= l and a.max() < h
        n = a.size
        # Mean within 5 standard errors, variance (h - l)^2 / 12 within 3%.
        assert abs(a.mean() - (l + h) / 2) < 5 * (h - l) / np.sqrt(12 * n)
        assert abs(a.var() / ((h - l) ** 2 / 12) - 1) < 0.03
        # 20 equal bins: chi-square below the 0.1% point of 19 degrees of freedom (43.8).
        counts, _ = np.histogram(a, bins=20, range=(l, h))
        e = n / 20
        assert ((counts - e) ** 2 / e).sum() < 43.8
        # Neighbours are not correlated.
        flat = a.reshape(-1)
        assert abs(np.corrcoef(flat[:-1], flat[1:])[0, 1]) < 0.02
    # The documented generator, computed independently by the reference
    # evaluator; and the same numbers on a second run.
    np.testing.assert_allclose(u, want[0], rtol=1e-6)
    np.testing.assert_allclose(v, want[1], rtol=1e-12)
    again = paddle_mlir.compile(str(tmp_path / "m"))(xs, np.array([200, 300], np.int64))
    np.testing.assert_array_equal(again[0], u)


def test_uniform_random_seeds_and_diag(tmp_path):
    b = ProgramBuilder()
    x = b.feed("x", [-1, 4])
    outs = []
    for seed, diag in ((1, 0), (2, 0), (1, 3)):
        y = b.tmp("u", [4, 5])
        attrs = {"shape": Longs([4, 5]), "seed": seed, "min": -1.0, "max": 1.0}
        if diag:
            attrs.update(diag_num=diag, diag_step=4, diag_val=9.0)
        b.op("uniform_random", {}, {"Out": [y]}, attrs)
        outs.append(y)
    for y in outs:
        b.fetch(y)
    got, want = compile_run(tmp_path, b, [np.zeros((2, 4), np.float32)])
    s1, s2, d = got
    assert not np.array_equal(s1, s2)        # another seed, other numbers
    flat = d.reshape(-1)
    # diag_num 3 at a stride of diag_step + 1 = 5: positions 0, 5, 10.
    np.testing.assert_array_equal(flat[[0, 5, 10]], [9.0, 9.0, 9.0])
    keep = np.setdiff1d(np.arange(20), [0, 5, 10])
    np.testing.assert_array_equal(flat[keep], s1.reshape(-1)[keep])
    for g, w in zip(got, want):
        np.testing.assert_allclose(g, w, rtol=1e-6)


# -------------------------------------------------------------------- unique

def unique_loops(x, axis, is_sorted):
    """Distinct values (or slices along `axis`) with their first position,
    the inverse map and the counts: Python loops over tuples."""
    if axis is None:
        rows = [(v,) for v in x.reshape(-1).tolist()]
    else:
        moved = np.moveaxis(x, axis, 0)
        rows = [tuple(r.reshape(-1).tolist()) for r in moved]
    first = {}
    for i, r in enumerate(rows):
        first.setdefault(r, i)
    keys = sorted(first) if is_sorted else sorted(first, key=first.get)
    pos = {k: i for i, k in enumerate(keys)}
    firsts = np.array([first[k] for k in keys], np.int64)
    inverse = np.array([pos[r] for r in rows], np.int64)
    counts = np.bincount(inverse, minlength=len(keys)).astype(np.int64)
    out = x.reshape(-1)[firsts] if axis is None else np.take(x, firsts, axis=axis)
    return out, firsts, inverse, counts


@pytest.mark.parametrize("dtype,axis,is_sorted,index_dtype", [
    ("int64", None, True, "int64"), ("float32", None, True, "int32"), ("int32", None, False, "int64"),
    ("float64", None, False, "int64"), ("int64", 0, True, "int64"), ("float32", 1, True, "int32")])
def test_unique(tmp_path, dtype, axis, is_sorted, index_dtype):
    rng = np.random.default_rng(5)
    x = rng.integers(-3, 4, size=(6, 5)).astype(dtype)
    if axis == 0:
        x[4] = x[1]           # repeated rows
        x[5] = x[1]
    if axis == 1:
        x[:, 3] = x[:, 0]     # a repeated column
    if dtype.startswith("float"):
        x = x * np.asarray(0.5, dtype)
    want = list(unique_loops(x, axis, is_sorted))
    idt = np.dtype(index_dtype)
    want = [want[0]] + [w.astype(idt) for w in want[1:]]
    b = ProgramBuilder()
    xv = b.feed("x", [-1, 5], dtype)
    out_shape = [-1] if axis is None else ([-1, 5] if axis == 0 else [-1, -1])
    outs = {"Out": [b.tmp("u", out_shape, dtype)], "Indices": [b.tmp("i", [-1], index_dtype)],
            "Index": [b.tmp("inv", [-1], index_dtype)], "Counts": [b.tmp("n", [-1], index_dtype)]}
    b.op("unique", {"X": [xv]}, outs,
         {"dtype": 2 if index_dtype == "int32" else 3, "return_index": True, "return_inverse": True,
          "return_counts": True, "axis": [] if axis is None else [axis], "is_sorted": is_sorted})
    for slot in ("Out", "Indices", "Index", "Counts"):
        b.fetch(outs[slot][0])
    check(tmp_path, b, [x], want)


def test_unique_without_optional_results(tmp_path):
    # Fluid's form: Out and Index only, in order of first appearance.
    x = np.array([4, 1, 4, 7, 1, 1, 9], np.int64)
    out, _, inverse, _ = unique_loops(x, None, False)
    b = ProgramBuilder()
    xv = b.feed("x", [-1], "int64")
    o, i = b.tmp("u", [-1], "int64"), b.tmp("inv", [-1], "int32")
    b.op("unique", {"X": [xv]}, {"Out": [o], "Index": [i]}, {"dtype": 2})
    b.fetch(o)
    b.fetch(i)
    check(tmp_path, b, [x], [out, inverse.astype(np.int32)])
    np.testing.assert_array_equal(out, [4, 1, 7, 9])


# ----------------------------------------------------- collect_fpn_proposals

def collect_fpn_paddle(rois, scores, nums, top_n):
    """Paddle's CollectFpnProposalsOpKernel: all levels' RoIs ordered by
    score with std::stable_sort and a >= comparison (which leaves tied
    scores in reverse order: the later RoI first), the first top_n kept,
    then std::stable_sort by image; the count per image."""
    entries = []
    for lvl, (r, s, n) in enumerate(zip(rois, scores, nums)):
        img = 0
        seen = 0
        for j in range(len(r)):
            while j >= seen + n[img]:
                seen += n[img]
                img += 1
            entries.append((float(s[j, 0]), len(entries), img, r[j]))
    by_score = sorted(entries, key=lambda e: (-e[0], -e[1]))[:min(top_n, len(entries))]
    kept = sorted(by_score, key=lambda e: e[2])
    out = np.array([e[3] for e in kept], np.float32).reshape(-1, 4)
    counts = np.zeros(len(nums[0]), np.int32)
    for e in kept:
        counts[e[2]] += 1
    return out, counts


@pytest.mark.parametrize("top_n", [5, 9, 100])
def test_collect_fpn_proposals(tmp_path, top_n):
    rng = np.random.default_rng(9)
    nums = [np.array([3, 2], np.int32), np.array([0, 4], np.int32), np.array([2, 1], np.int32)]
    rois = [rng.uniform(0, 50, size=(int(n.sum()), 4)).astype(np.float32) for n in nums]
    scores = [rng.uniform(0, 1, size=(int(n.sum()), 1)).astype(np.float32) for n in nums]
    scores[0][1, 0] = scores[2][0, 0] = scores[1][3, 0] = 0.75   # a three-way tie
    scores[1][:, 0] -= 2.0       # level 1 (image 1 only) scores lowest
    want = list(collect_fpn_paddle(rois, scores, nums, top_n))
    b = ProgramBuilder()
    rv = [b.feed("rois%d" % i, [-1, 4]) for i in range(3)]
    sv = [b.feed("scores%d" % i, [-1, 1]) for i in range(3)]
    nv = [b.feed("num%d" % i, [-1], "int32") for i in range(3)]
    out, cnt = b.tmp("fpn_rois", [-1, 4]), b.tmp("rois_num", [-1], "int32")
    b.op("collect_fpn_proposals", {"MultiLevelRois": rv, "MultiLevelScores": sv, "MultiLevelRoIsNum": nv},
         {"FpnRois": [out], "RoisNum": [cnt]}, {"post_nms_topN": top_n})
    b.fetch(out)
    b.fetch(cnt)
    check(tmp_path, b, rois + scores + nums, want)
    assert want[1].sum() == min(top_n, 12)


def test_collect_fpn_proposals_bad_counts(tmp_path):
    b = ProgramBuilder()
    rv, sv, nv = b.feed("rois", [-1, 4]), b.feed("scores", [-1, 1]), b.feed("num", [-1], "int32")
    out = b.tmp("fpn_rois", [-1, 4])
    b.op("collect_fpn_proposals", {"MultiLevelRois": [rv], "MultiLevelScores": [sv], "MultiLevelRoIsNum": [nv]},
         {"FpnRois": [out]}, {"post_nms_topN": 4})
    b.fetch(out)
    model = str(tmp_path / "m")
    b.save(model)
    run = paddle_mlir.compile(model)
    with pytest.raises(Exception, match="MultiLevelRoIsNum counts 2 RoIs for 3 rows"):
        run(np.zeros((3, 4), np.float32), np.zeros((3, 1), np.float32), np.array([1, 1], np.int32))


# ------------------------------------------------------------ deformable_conv

@pytest.mark.parametrize("v1,groups,dgroups,stride,pad,dil", [
    (False, 1, 1, 1, 1, 1), (False, 2, 2, 2, 1, 1), (True, 1, 2, 1, 2, 2), (False, 1, 1, 2, 0, 1)])
def test_deformable_conv(tmp_path, v1, groups, dgroups, stride, pad, dil):
    torch = pytest.importorskip("torch")
    tvops = pytest.importorskip("torchvision.ops")
    rng = np.random.default_rng(21)
    n, c, h, w, m, k = 2, 4, 7, 6, 6, 3
    x = rng.standard_normal((n, c, h, w)).astype(np.float32)
    wt = (rng.standard_normal((m, c // groups, k, k)) * 0.3).astype(np.float32)
    oh = (h + 2 * pad - dil * (k - 1) - 1) // stride + 1
    ow = (w + 2 * pad - dil * (k - 1) - 1) // stride + 1
    # Offsets of a few pixels: many taps land between pixels, some outside.
    off = (rng.standard_normal((n, 2 * dgroups * k * k, oh, ow)) * 2.5).astype(np.float32)
    mask = rng.uniform(0, 1, (n, dgroups * k * k, oh, ow)).astype(np.float32)
    want = tvops.deform_conv2d(torch.from_numpy(x), torch.from_numpy(off), torch.from_numpy(wt),
                               stride=stride, padding=pad, dilation=dil,
                               mask=None if v1 else torch.from_numpy(mask)).numpy()
    b = ProgramBuilder()
    xv = b.feed("x", [-1, c, -1, -1])
    ov = b.feed("offset", [-1, 2 * dgroups * k * k, -1, -1])
    ins = {"Input": [xv], "Offset": [ov], "Filter": [b.param("w", wt)]}
    inputs = [x, off]
    if not v1:
        ins["Mask"] = [b.feed("mask", [-1, dgroups * k * k, -1, -1])]
        inputs.append(mask)
    y = b.tmp("y", [-1, m, -1, -1])
    b.op("deformable_conv_v1" if v1 else "deformable_conv", ins, {"Output": [y]},
         {"strides": [stride, stride], "paddings": [pad, pad], "dilations": [dil, dil], "groups": groups,
          "deformable_groups": dgroups, "im2col_step": 64})
    b.fetch(y)
    got, ref = compile_run(tmp_path, b, inputs)
    for r in (got[0], ref[0]):
        assert r.shape == want.shape
        assert np.abs(r - want).max() <= 1e-5 * np.abs(want).max()
