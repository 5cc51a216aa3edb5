"""multiclass_nms, multiclass_nms2, multiclass_nms3 and matrix_nms: outputs
whose size depends on the data. Compiled programs (dynamic batch) against an NMS
written here in NumPy from Paddle's definition: per image and class, boxes
above score_threshold by descending score, at most nms_top_k, each kept
when its IoU with every kept box is at most the threshold (lowered by
nms_eta while above 0.5); then the keep_top_k best of the image, grouped by
label. Covers suppression, both top-k limits, the background label, pixel
(unnormalized) boxes, adaptive thresholds, batches of several sizes from
one artifact, and zero kept boxes (Paddle's [[-1]] for multiclass_nms).
matrix_nms against a NumPy matrix NMS written here: per class the scores
decay by min over better boxes j of f(iou_ij, max_iou_j) (linear or
gaussian), kept above post_threshold, best decayed first over classes."""
import json
import os
import subprocess

import numpy as np
import pytest

import paddle_mlir
from paddle_mlir import reference
from paddle_mlir.builder import ProgramBuilder

BUILD = os.environ.get("PADDLE_MLIR_BUILD_DIR",
                       os.path.join(os.path.dirname(__file__), "..", "..", "build"))


def iou(a, b, normalized):
    """IoU of corner boxes a and b, in float32 as Paddle computes it."""
    a, b = a.astype(np.float32), b.astype(np.float32)
    if b[0] > a[2] or b[2] < a[0] or b[1] > a[3] or b[3] < a[1]:
        return np.float32(0)
    extra = np.float32(0 if normalized else 1)

    def area(x):
        if x[2] < x[0] or x[3] < x[1]:
            return np.float32(0)
        return (x[2] - x[0] + extra) * (x[3] - x[1] + extra)

    inter = (min(a[2], b[2]) - max(a[0], b[0]) + extra) * (min(a[3], b[3]) - max(a[1], b[1]) + extra)
    return inter / (area(a) + area(b) - inter)


def as_outputs(boxes, kept):
    """(Out rows [label, score, box], flat box indices, count per image) from
    each image's kept (label, box, score) in output order."""
    m = boxes.shape[1]
    rows = [[label, score] + list(boxes[i, j]) for i, k in enumerate(kept) for label, j, score in k]
    index = [i * m + j for i, k in enumerate(kept) for _, j, _ in k]
    return (np.array(rows, np.float32).reshape(-1, 6), np.array(index, np.int32).reshape(-1, 1),
            np.array([len(k) for k in kept], np.int32))


def class_nms(s, boxes, attrs):
    """The boxes (rows of `boxes`) one class keeps, best first: scores `s`
    above score_threshold, at most nms_top_k, greedy NMS with nms_eta."""
    cand = [j for j in np.argsort(-s, kind="stable") if s[j] > np.float32(attrs["score_threshold"])]
    if attrs["nms_top_k"] > -1:
        cand = cand[:attrs["nms_top_k"]]
    thr, keep = np.float32(attrs["nms_threshold"]), []
    for j in cand:
        if all(iou(boxes[j], boxes[k], attrs["normalized"]) <= thr for k in keep):
            keep.append(j)
            if attrs["nms_eta"] < 1 and thr > 0.5:
                thr = np.float32(thr * np.float32(attrs["nms_eta"]))
    return keep


def nms_numpy(boxes, scores, attrs):
    """(rows of [label, score, box], flat box indices, count per image)."""
    n, c, m = scores.shape
    kept = []
    for i in range(n):
        picked = []  # (label, box, score) in label order, best first per label
        for label in range(c):
            if label == attrs["background_label"]:
                continue
            s = scores[i, label]
            picked += [(label, j, s[j]) for j in class_nms(s, boxes[i], attrs)]
        k = attrs["keep_top_k"]
        if k > -1 and len(picked) > k:
            best = sorted(picked, key=lambda p: -p[2])[:k]          # stable: ties keep label order
            picked = sorted(best, key=lambda p: p[0])               # regroup by label
        kept.append([(label, j, score) for label, j, score in picked])
    return as_outputs(boxes, kept)


def build(path, version, attrs, m=12, c=4):
    b = ProgramBuilder()
    bb = b.feed("bboxes", [-1, m, 4])
    sc = b.feed("scores", [-1, c, m])
    op = {1: "multiclass_nms", 2: "multiclass_nms2", 3: "multiclass_nms3"}[version]
    outs = {"Out": [b.tmp("nms_out", [-1, 6])]}
    if version >= 2:
        outs["Index"] = [b.tmp("nms_index", [-1, 1], "int32")]
    if version == 3:
        outs["NmsRoisNum"] = [b.tmp("nms_num", [-1], "int32")]
    b.op(op, {"BBoxes": [bb], "Scores": [sc]}, outs, attrs)
    for vs in outs.values():
        b.fetch(vs[0])
    b.save(str(path))
    return paddle_mlir.compile(str(path))


def clustered(rng, n, m, scale):
    """Boxes in a few clusters (so NMS suppresses) with random scores."""
    centers = rng.rand(n, 3, 2) * scale
    which = rng.randint(0, 3, size=(n, m))
    c = np.take_along_axis(centers, which[..., None], axis=1) + rng.randn(n, m, 2) * 0.03 * scale
    wh = (0.15 + 0.1 * rng.rand(n, m, 2)) * scale
    return np.concatenate([c - wh / 2, c + wh / 2], axis=2).astype(np.float32)


ATTRS = {"score_threshold": 0.2, "nms_top_k": 6, "keep_top_k": 5, "nms_threshold": 0.45,
         "nms_eta": 1.0, "normalized": True, "background_label": 0}


def check(model, version, boxes, scores, attrs):
    got = model(boxes, scores)
    rows, index, counts = nms_numpy(boxes, scores, attrs)
    if version == 1 and len(rows) == 0:
        np.testing.assert_array_equal(got[0], [[-1.0]])
        return 0
    assert got[0].shape == rows.shape, (got[0].shape, rows.shape)
    np.testing.assert_array_equal(got[0], rows)
    if version >= 2:
        np.testing.assert_array_equal(got[1], index)
    if version == 3:
        np.testing.assert_array_equal(got[2], counts)
    return len(rows)


@pytest.mark.parametrize("version", [1, 2, 3])
def test_nms_matches_numpy(tmp_path, version):
    model = build(tmp_path / "nms", version, ATTRS)
    rng = np.random.RandomState(version)
    kept = []
    for n in (1, 3, 2):
        boxes = clustered(rng, n, 12, 1.0)
        scores = rng.rand(n, 4, 12).astype(np.float32)
        kept.append(check(model, version, boxes, scores, ATTRS))
    # keep_top_k (5 per image) bounded the result; suppression happened.
    assert 0 < max(kept) <= 5 * 3
    # Nothing above the threshold: no rows ([[-1]] for multiclass_nms).
    boxes = clustered(rng, 2, 12, 1.0)
    assert check(model, version, boxes, np.full((2, 4, 12), 0.2, np.float32), ATTRS) == 0


def test_nms_pixel_boxes_eta_no_background_no_limits(tmp_path):
    attrs = {"score_threshold": 0.05, "nms_top_k": -1, "keep_top_k": -1, "nms_threshold": 0.7,
             "nms_eta": 0.9, "normalized": False, "background_label": -1}
    model = build(tmp_path / "px", 3, attrs, m=30, c=3)
    rng = np.random.RandomState(7)
    for n in (1, 2):
        boxes = clustered(rng, n, 30, 100.0)
        scores = rng.rand(n, 3, 30).astype(np.float32)
        got = model(boxes, scores)
        rows, index, counts = nms_numpy(boxes, scores, attrs)
        # The adaptive threshold (0.7 -> 0.63 -> 0.567 -> ...) matters here.
        plain = nms_numpy(boxes, scores, dict(attrs, nms_eta=1.0))[0]
        assert len(plain) != len(rows)
        np.testing.assert_array_equal(got[0], rows)
        np.testing.assert_array_equal(got[1], index)
        np.testing.assert_array_equal(got[2], counts)


def test_nms_outputs_are_marked_data_dependent(tmp_path):
    model = build(tmp_path / "dd", 3, ATTRS)
    assert [o.data_dependent for o in model.outputs] == [True, True, False]
    with open(os.path.join(model.artifact_dir, "manifest.json")) as f:
        manifest = json.load(f)
    assert [o.get("data_dependent", False) for o in manifest["outputs"]] == [True, True, False]
    with open(os.path.join(model.artifact_dir, "model.h")) as f:
        header = f.read()
    assert header.count("_DATA_DEPENDENT 1") == 2


def test_nms_lod_scores_are_refused(tmp_path):
    b = ProgramBuilder()
    bb = b.feed("bboxes", [-1, 3, 4])
    sc = b.feed("scores", [-1, 3])
    out = b.tmp("nms_out", [-1, 6])
    b.op("multiclass_nms", {"BBoxes": [bb], "Scores": [sc]}, {"Out": [out]}, ATTRS)
    b.fetch(out)
    b.save(str(tmp_path / "lod"))
    p = subprocess.run([os.path.join(BUILD, "bin", "paddle-compile"), str(tmp_path / "lod"),
                        "-o", str(tmp_path / "out")], capture_output=True, text=True)
    assert 0 < p.returncode < 128
    assert "multiclass_nms" in p.stderr and "2-D Scores" in p.stderr, p.stderr
    assert not os.path.exists(tmp_path / "out" / "manifest.json")


def matrix_nms_numpy(boxes, scores, attrs):
    """(rows, flat indices, counts) of Paddle's matrix NMS, with an IoU matrix."""
    f32 = np.float32
    n, c, m = scores.shape
    kept = []
    for i in range(n):
        found = []
        for label in range(c):
            if label == attrs["background_label"]:
                continue
            s = scores[i, label]
            cand = [j for j in np.argsort(-s, kind="stable") if s[j] > f32(attrs["score_threshold"])]
            cand = cand[:attrs["nms_top_k"]] if attrs["nms_top_k"] > -1 else cand
            k = len(cand)
            ious = np.zeros((k, k), f32)
            for p in range(k):
                for q in range(p):
                    ious[p, q] = iou(boxes[i, cand[p]], boxes[i, cand[q]], attrs["normalized"])
            comp = ious.max(axis=1) if k else ious.max(axis=1, initial=0)   # each box's own largest IoU
            for p in range(k):
                if attrs["use_gaussian"]:
                    decay = np.exp((comp[:p] ** 2 - ious[p, :p] ** 2) * f32(attrs["gaussian_sigma"]))
                else:
                    decay = (1 - ious[p, :p]) / (1 - comp[:p])
                d = f32(min(f32(1), decay.astype(f32).min(initial=f32(1))) * s[cand[p]])
                if d > f32(attrs["post_threshold"]):
                    found.append((d, label, cand[p]))
        found = sorted(found, key=lambda t: -t[0])
        found = found[:attrs["keep_top_k"]] if attrs["keep_top_k"] > -1 else found
        kept.append([(label, j, d) for d, label, j in found])
    return as_outputs(boxes, kept)


@pytest.mark.parametrize("gaussian", [False, True])
def test_matrix_nms_matches_numpy(tmp_path, gaussian):
    attrs = {"score_threshold": 0.1, "post_threshold": 0.15, "nms_top_k": 8, "keep_top_k": 6,
             "normalized": gaussian, "use_gaussian": gaussian, "gaussian_sigma": 2.0,
             "background_label": 0 if gaussian else -1}
    b = ProgramBuilder()
    bb = b.feed("bboxes", [-1, 12, 4])
    sc = b.feed("scores", [-1, 3, 12])
    outs = {"Out": [b.tmp("mnms_out", [-1, 6])], "Index": [b.tmp("mnms_index", [-1, 1], "int32")],
            "RoisNum": [b.tmp("mnms_num", [-1], "int32")]}
    b.op("matrix_nms", {"BBoxes": [bb], "Scores": [sc]}, outs, attrs)
    for vs in outs.values():
        b.fetch(vs[0])
    b.save(str(tmp_path / "m"))
    model = paddle_mlir.compile(str(tmp_path / "m"))
    ref = reference.load(str(tmp_path / "m"))
    assert [o.data_dependent for o in model.outputs] == [True, True, False]
    rng = np.random.RandomState(11 + gaussian)
    decayed = False
    for n in (2, 1, 3):
        boxes = clustered(rng, n, 12, 1.0 if gaussian else 50.0)
        scores = rng.rand(n, 3, 12).astype(np.float32)
        got = model(boxes, scores)
        rows, index, counts = matrix_nms_numpy(boxes, scores, attrs)
        np.testing.assert_allclose(got[0], rows, rtol=1e-6, atol=1e-6)
        np.testing.assert_array_equal(got[1], index)
        np.testing.assert_array_equal(got[2], counts)
        # The reference evaluator (the corpus' oracle) agrees.
        for g, w in zip(got, ref.run({"bboxes": boxes, "scores": scores}).values()):
            np.testing.assert_allclose(g, w, rtol=1e-6, atol=1e-6)
        # Some kept score was decayed (differs from the raw score).
        raw = scores[got[1][:, 0] // 12, got[0][:, 0].astype(int), got[1][:, 0] % 12]
        decayed |= bool(np.any(got[0][:, 1] < raw - 1e-6))
    assert decayed
    zero = model(clustered(rng, 2, 12, 1.0), np.full((2, 3, 12), 0.05, np.float32))
    assert zero[0].shape == (0, 6) and zero[1].shape == (0, 1)
    np.testing.assert_array_equal(zero[2], [0, 0])


def stacked_nms_numpy(boxes, scores, counts, attrs):
    """multiclass_nms3 over stacked boxes (BBoxes [M, C, 4], Scores [M, C],
    counts rows per image): per image and class the same NMS, each label's
    kept boxes in row order; keep_top_k best, then by label and row. Index
    is row * C + label."""
    m, c = scores.shape
    rows, index, per_image, start = [], [], [], 0
    for cnt in counts:
        picked = []
        for label in range(c):
            if label == attrs["background_label"]:
                continue
            s = scores[start:start + cnt, label]
            keep = sorted(class_nms(s, boxes[start:start + cnt, label], attrs))
            picked += [(label, j, s[j]) for j in keep]
        k = attrs["keep_top_k"]
        if k > -1 and len(picked) > k:
            best = sorted(picked, key=lambda p: -p[2])[:k]
            picked = sorted(best, key=lambda p: (p[0], p[1]))
        for label, j, score in picked:
            rows.append([label, score] + list(boxes[start + j, label]))
            index.append((start + j) * c + label)
        per_image.append(len(picked))
        start += cnt
    return (np.array(rows, np.float32).reshape(-1, 6), np.array(index, np.int32).reshape(-1, 1),
            np.array(per_image, np.int32))


@pytest.mark.parametrize("keep_top_k", [5, -1])
def test_nms3_with_boxes_stacked_per_image(tmp_path, keep_top_k):
    """multiclass_nms3 as two-stage detectors call it: one box per class per
    RoI (BBoxes [M, C, 4], Scores [M, C]) and RoisNum counting each image's
    rows, including an image with none."""
    attrs = dict(ATTRS, keep_top_k=keep_top_k, nms_top_k=4)
    c = 3
    b = ProgramBuilder()
    bb = b.feed("bboxes", [-1, c, 4])
    sc = b.feed("scores", [-1, c])
    num = b.feed("rois_num", [-1], "int32")
    outs = {"Out": [b.tmp("nms_out", [-1, 6])], "Index": [b.tmp("nms_index", [-1, 1], "int32")],
            "NmsRoisNum": [b.tmp("nms_num", [-1], "int32")]}
    b.op("multiclass_nms3", {"BBoxes": [bb], "Scores": [sc], "RoisNum": [num]}, outs, attrs)
    for vs in outs.values():
        b.fetch(vs[0])
    b.save(str(tmp_path / "m"))
    model = paddle_mlir.compile(str(tmp_path / "m"))
    rng = np.random.RandomState(9)
    for counts in ([7, 0, 9], [12]):
        m = sum(counts)
        boxes = clustered(rng, 1, m * c, 1.0).reshape(m, c, 4)
        scores = rng.rand(m, c).astype(np.float32)
        got = model(boxes, scores, np.array(counts, np.int32))
        want = stacked_nms_numpy(boxes, scores, counts, attrs)
        assert got[0].shape == want[0].shape, (got[0].shape, want[0].shape)
        for g, w in zip(got, want):
            np.testing.assert_array_equal(g, w)
    # RoisNum counting more rows than there are: an error, not a read past the end.
    with pytest.raises(RuntimeError, match="RoisNum counts 5 boxes"):
        model(boxes[:4], scores[:4], np.array([5], np.int32))
