"""generate_proposals, generate_proposals_v2 and roi_align: the region
proposals of two-stage detectors, whose count depends on the data, and the
pooling that reads them. Compiled programs (dynamic batch) against the
reference evaluator's NumPy, written from Paddle's definitions: per image the anchors by descending
score (at most pre_nms_topN), moved and scaled by the deltas times the
variances (log sizes clipped at log(1000/16)), clipped to the image, small
or off-image boxes dropped, greedy NMS (eta-adaptive) and the best
post_nms_topN; one zero box when nothing is left. roi_align: each box's
bins averaged over a grid of bilinear samples."""
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
F = np.float32


def proposals_numpy(scores, deltas, im, anchors, variances, attrs, v2=True):
    """(RpnRois [K, 4], RpnRoiProbs [K, 1], RpnRoisNum [N]) in float32, from
    the reference evaluator (NumPy written from Paddle's definition, apart
    from the lowering)."""
    op = reference.OPS["generate_proposals_v2" if v2 else "generate_proposals"]
    out = op({"Scores": [scores], "BboxDeltas": [deltas], "ImShape" if v2 else "ImInfo": [im],
              "Anchors": [anchors], "Variances": [variances]}, attrs)
    return out["RpnRois"], out["RpnRoiProbs"], out["RpnRoisNum"]


def roi_align_numpy(x, rois, counts, ph, pw, scale, ratio, aligned):
    return reference.OPS["roi_align"]({"X": [x], "ROIs": [rois], "RoisNum": [np.asarray(counts)]},
                                      {"pooled_height": ph, "pooled_width": pw, "spatial_scale": scale,
                                       "sampling_ratio": ratio, "aligned": aligned})["Out"]


A, H, W = 3, 4, 5


def grid_anchors():
    """Anchors of 16, 32 and 48 pixels centred on a stride-16 grid, in
    Paddle's [H, W, A, 4] layout, and variances around 1."""
    ys, xs = np.meshgrid(np.arange(H) * 16 + 8, np.arange(W) * 16 + 8, indexing="ij")
    half = np.array([8, 16, 24], F)
    c = np.stack([xs, ys], -1)[:, :, None, :].astype(F)
    anchors = np.concatenate([c - half[:, None], c + half[:, None]], -1).astype(F)
    variances = np.random.RandomState(1).uniform(0.5, 1.5, size=(H, W, A, 4)).astype(F)
    return anchors, variances


def proposal_program(path, attrs, v2=True, then_roi_align=None):
    b = ProgramBuilder()
    scores = b.feed("scores", [-1, A, H, W])
    deltas = b.feed("deltas", [-1, 4 * A, H, W])
    im = b.feed("im", [-1, 2 if v2 else 3])
    anchors, variances = grid_anchors()
    outs = {"RpnRois": [b.tmp("rois", [-1, 4])], "RpnRoiProbs": [b.tmp("probs", [-1, 1])],
            "RpnRoisNum": [b.tmp("rois_num", [-1], "int32")]}
    b.op("generate_proposals_v2" if v2 else "generate_proposals",
         {"Scores": [scores], "BboxDeltas": [deltas], "ImShape" if v2 else "ImInfo": [im],
          "Anchors": [b.param("anchors", anchors)], "Variances": [b.param("variances", variances)]},
         outs, attrs)
    for vs in outs.values():
        b.fetch(vs[0])
    if then_roi_align:
        feat = b.feed("feat", [-1, 2, 8, 10])
        y = b.tmp("roi_align", [-1, 2, 2, 3])
        b.op("roi_align", {"X": [feat], "ROIs": outs["RpnRois"], "RoisNum": outs["RpnRoisNum"]},
             {"Out": [y]}, then_roi_align)
        b.fetch(y)
    b.save(str(path))
    return paddle_mlir.compile(str(path)), anchors, variances


def inputs(rng, n, scaled=False):
    scores = (rng.permutation(n * A * H * W).reshape(n, A, H, W) / (n * A * H * W)).astype(F)
    deltas = (rng.randn(n, 4 * A, H, W) * 0.4).astype(F)
    deltas[0, 2, 0, 0] = 9.0  # a log-width beyond the clip
    sizes = np.array([[64, 80], [50, 70], [40, 90]], F)[:n]
    im = np.concatenate([sizes, np.full((n, 1), 2.0, F)], 1) if scaled else sizes
    return scores, deltas, im


CASES = {
    "pixel_pre_post": dict(pre_nms_topN=40, post_nms_topN=10, nms_thresh=0.5, min_size=4.0, eta=1.0,
                           pixel_offset=True),
    "normalized_eta_no_limits": dict(pre_nms_topN=-1, post_nms_topN=100, nms_thresh=0.7,
                                     min_size=0.0, eta=0.8, pixel_offset=False),
    "no_nms": dict(pre_nms_topN=25, post_nms_topN=3, nms_thresh=0.0, min_size=1.0, eta=1.0,
                   pixel_offset=True),
}


def check(model, anchors, variances, attrs, rng, n, v2=True):
    scores, deltas, im = inputs(rng, n, scaled=not v2)
    got = model(scores, deltas, im)
    want = proposals_numpy(scores, deltas, im, anchors, variances, attrs, v2)
    np.testing.assert_array_equal(got[2], want[2])
    np.testing.assert_allclose(got[0], want[0], rtol=1e-6, atol=1e-5)
    np.testing.assert_allclose(got[1], want[1], rtol=0, atol=0)
    return want


@pytest.mark.parametrize("name", sorted(CASES))
def test_generate_proposals_v2_matches_numpy(tmp_path, name):
    attrs = CASES[name]
    model, anchors, variances = proposal_program(tmp_path / name, attrs)
    rng = np.random.RandomState(3)
    counts = [check(model, anchors, variances, attrs, rng, n)[2] for n in (2, 1, 3)]
    # The limits bound what each image keeps.
    if name == "pixel_pre_post":
        assert max(max(c) for c in counts) == 10
    if name == "no_nms":  # no NMS: post_nms_topN does not apply
        assert max(max(c) for c in counts) > 3


def test_generate_proposals_v1_scaled_sizes(tmp_path):
    # min_size 12 in the input's scale (ImInfo scale 2): boxes narrower than
    # 22 pixels go, which a v2 reading (24) would not match.
    attrs = dict(pre_nms_topN=50, post_nms_topN=20, nms_thresh=0.6, min_size=12.0, eta=1.0)
    model, anchors, variances = proposal_program(tmp_path / "v1", attrs, v2=False)
    rng = np.random.RandomState(5)
    for n in (1, 2):
        check(model, anchors, variances, attrs, rng, n, v2=False)
    scores, deltas, im = inputs(rng, 2, scaled=True)
    v1 = proposals_numpy(scores, deltas, im, anchors, variances, attrs, v2=False)[2]
    v2 = proposals_numpy(scores, deltas, im[:, :2], anchors, variances, attrs, v2=True)[2]
    assert not np.array_equal(v1, v2)


def test_nothing_left_gives_one_zero_box_per_image(tmp_path):
    attrs = dict(pre_nms_topN=10, post_nms_topN=5, nms_thresh=0.5, min_size=500.0, eta=1.0)
    model, _, _ = proposal_program(tmp_path / "none", attrs)
    scores, deltas, im = inputs(np.random.RandomState(2), 2)
    rois, probs, counts = model(scores, deltas, im)
    np.testing.assert_array_equal(counts, [1, 1])
    np.testing.assert_array_equal(rois, np.zeros((2, 4), F))
    np.testing.assert_array_equal(probs, np.zeros((2, 1), F))


def test_outputs_are_marked_data_dependent(tmp_path):
    model, _, _ = proposal_program(tmp_path / "dd", CASES["pixel_pre_post"])
    assert [o.data_dependent for o in model.outputs] == [True, True, False]
    with open(os.path.join(model.artifact_dir, "manifest.json")) as f:
        manifest = json.load(f)
    assert [o.get("data_dependent", False) for o in manifest["outputs"]] == [True, True, False]


@pytest.mark.parametrize("aligned,ratio", [(False, -1), (True, 2)])
def test_roi_align_on_the_proposals(tmp_path, aligned, ratio):
    """generate_proposals_v2 then roi_align over a feature map at 1/8 scale:
    the data-dependent box count flows into roi_align's first dim."""
    attrs = CASES["pixel_pre_post"]
    ra = {"pooled_height": 2, "pooled_width": 3, "spatial_scale": 0.125, "sampling_ratio": ratio,
          "aligned": aligned}
    model, anchors, variances = proposal_program(tmp_path / "ra", attrs, then_roi_align=ra)
    rng = np.random.RandomState(11)
    for n in (2, 1):
        scores, deltas, im = inputs(rng, n)
        feat = rng.randn(n, 2, 8, 10).astype(F)
        got = model(scores, deltas, im, feat)
        rois, _, counts = proposals_numpy(scores, deltas, im, anchors, variances, attrs)
        want = roi_align_numpy(feat, rois, counts, 2, 3, 0.125, ratio, aligned)
        assert got[3].shape == want.shape
        np.testing.assert_allclose(got[3], want, rtol=1e-5, atol=1e-6)


def test_roi_align_boxes_beyond_the_map(tmp_path):
    """Fed boxes partly and wholly outside the map, thin ones, and images
    with no box; adaptive grids of several sizes."""
    b = ProgramBuilder()
    x = b.feed("x", [-1, 3, 6, 7])
    rois = b.feed("rois", [-1, 4])
    num = b.feed("num", [-1], "int32")
    y = b.tmp("roi_align", [-1, 3, 3, 2])
    b.op("roi_align", {"X": [x], "ROIs": [rois], "RoisNum": [num]}, {"Out": [y]},
         {"pooled_height": 3, "pooled_width": 2, "spatial_scale": 0.5, "sampling_ratio": -1,
          "aligned": False})
    b.fetch(y)
    b.save(str(tmp_path / "m"))
    model = paddle_mlir.compile(str(tmp_path / "m"))
    rng = np.random.RandomState(4)
    xv = rng.randn(3, 3, 6, 7).astype(F)
    boxes = np.array([[0, 0, 13, 11], [-6, -4, 3, 2], [10, 8, 30, 20], [20, 20, 40, 40],
                      [2.5, 3.25, 2.75, 9.5], [1, 1, 21, 3]], F)
    counts = np.array([2, 0, 4], np.int32)
    got = model(xv, boxes, counts)[0]
    np.testing.assert_allclose(got, roi_align_numpy(xv, boxes, counts, 3, 2, 0.5, -1, False),
                               rtol=1e-5, atol=1e-6)


def distribute_numpy(rois, counts, lo, hi, refer_level, refer_scale, pixel=True):
    """Each FPN level's RoIs, the restoring index and each level's count per
    image, from the reference evaluator."""
    out = reference.OPS["distribute_fpn_proposals"](
        {"FpnRois": [rois], "RoisNum": [np.asarray(counts, np.int32)]},
        {"min_level": lo, "max_level": hi, "refer_level": refer_level, "refer_scale": refer_scale,
         "pixel_offset": pixel})
    return out["MultiFpnRois"], out["RestoreIndex"], out["MultiLevelRoIsNum"]


def fpn_program(path, levels, with_counts, pixel=True):
    b = ProgramBuilder()
    rois = b.feed("rois", [-1, 4])
    num = b.feed("rois_num", [-1], "int32")
    outs = {"MultiFpnRois": [b.tmp("fpn_rois", [-1, 4]) for _ in range(levels)],
            "RestoreIndex": [b.tmp("restore", [-1, 1], "int32")]}
    if with_counts:
        outs["MultiLevelRoIsNum"] = [b.tmp("fpn_num", [-1], "int32") for _ in range(levels)]
    b.op("distribute_fpn_proposals", {"FpnRois": [rois], "RoisNum": [num]}, outs,
         {"min_level": 2, "max_level": 1 + levels, "refer_level": 4, "refer_scale": 224,
          "pixel_offset": pixel})
    for vs in outs.values():
        for v in vs:
            b.fetch(v)
    b.save(str(path))
    return str(path)


@pytest.mark.parametrize("with_counts,pixel", [(True, True), (False, False)])
def test_distribute_fpn_proposals(tmp_path, with_counts, pixel):
    model_dir = fpn_program(tmp_path / "m", 4, with_counts, pixel)
    # The two lists of results (and an absent one) survive export and re-import.
    translate = os.path.join(BUILD, "bin", "paddle-translate")
    mlir = str(tmp_path / "a.mlir")
    subprocess.run([translate, "--import-paddle", model_dir, "-o", mlir], check=True)
    subprocess.run([translate, "--export-paddle", mlir, "-o", str(tmp_path / "e")], check=True)
    again = subprocess.run([translate, "--import-paddle", str(tmp_path / "e")], check=True,
                           capture_output=True, text=True).stdout
    opt = os.path.join(os.path.dirname(translate), "paddle-opt")
    assert again == subprocess.run([opt, mlir], check=True, capture_output=True, text=True).stdout
    assert ("resultSegmentSizes = array<i32: 4, 1, %d>" % (4 if with_counts else 0)) in again
    model = paddle_mlir.compile(model_dir)
    assert [o.data_dependent for o in model.outputs] == [True] * 4 + [False] * (5 if with_counts else 1)
    rng = np.random.RandomState(6)
    for counts in ([5, 0, 7], [9]):
        r = sum(counts)
        xy = rng.uniform(0, 600, size=(r, 2)).astype(F)
        wh = np.exp(rng.uniform(np.log(8), np.log(900), size=(r, 2))).astype(F)
        rois = np.concatenate([xy, xy + wh], 1).astype(F)
        rois[0] = [50, 50, 40, 60]  # inverted: area 0, the lowest level
        got = model(rois, np.array(counts, np.int32))
        levels, restore, nums = distribute_numpy(rois, counts, 2, 5, 4, 224, pixel)
        assert sum(len(l) > 0 for l in levels) >= 3
        for g, w in zip(got[:4], levels):
            np.testing.assert_array_equal(g, w)
        np.testing.assert_array_equal(got[4], restore)
        if with_counts:
            for g, w in zip(got[5:], nums):
                np.testing.assert_array_equal(g, w)
        # RestoreIndex undoes the distribution, as FPN heads use it.
        np.testing.assert_array_equal(np.concatenate(got[:4])[got[4][:, 0]], rois)
    with pytest.raises(RuntimeError, match="RoisNum counts 4 RoIs"):
        model(rois, np.array([4], np.int32))


def test_proposal_inputs_disagreeing_at_run_time(tmp_path):
    """Scores and BboxDeltas both have a dynamic batch; batches that disagree
    at run time are an error naming the op, not a read past the deltas."""
    model, _, _ = proposal_program(tmp_path / "bad", CASES["pixel_pre_post"])
    scores, deltas, im = inputs(np.random.RandomState(1), 2)
    with pytest.raises(RuntimeError, match="generate_proposals: BboxDeltas must be"):
        model(scores, deltas[:1], im)
