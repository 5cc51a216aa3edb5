"""Detection heads (prior_box, box_coder, yolo_box): compiled with dynamic
sizes and compared with the NumPy reference and with plain loops written
here from Paddle's definitions."""
import math

import numpy as np

import paddle_mlir
from paddle_mlir import reference
from paddle_mlir.builder import ProgramBuilder


def _compile(b, path):
    b.save(str(path))
    return paddle_mlir.compile(str(path)), reference.load(str(path))


def _prior_box_loops(fh, fw, ih, iw, mins, maxs, ratios, flip, clip, offset, mmorder):
    ars = [1.0]
    for r in ratios:
        if min(abs(r - q) for q in ars) < 1e-6:
            continue
        ars.append(r)
        if flip:
            ars.append(1 / r)
    out = []
    for h in range(fh):
        row = []
        for w in range(fw):
            cx, cy = (w + offset) * iw / fw, (h + offset) * ih / fh
            boxes = []
            for s, m in enumerate(mins):
                sq = [math.sqrt(m * maxs[s])] * 2 if maxs else None
                byr = [[m * math.sqrt(r), m / math.sqrt(r)] for r in ars]
                if mmorder:
                    order = [[m, m]] + ([sq] if sq else []) + [wh for r, wh in zip(ars, byr) if abs(r - 1) > 1e-6]
                else:
                    order = byr + ([sq] if sq else [])
                for bw, bh in order:
                    box = [(cx - bw / 2) / iw, (cy - bh / 2) / ih, (cx + bw / 2) / iw, (cy + bh / 2) / ih]
                    boxes.append([min(max(v, 0.0), 1.0) for v in box] if clip else box)
            row.append(boxes)
        out.append(row)
    return np.array(out)


def test_prior_box(tmp_path):
    for mmorder, clip in ((False, False), (True, True)):
        b = ProgramBuilder()
        feat = b.feed("feat", [-1, 4, -1, -1])
        img = b.feed("image", [-1, 3, -1, -1])
        boxes, var = b.tmp("prior_box", [-1, -1, 8, 4]), b.tmp("prior_box_var", [-1, -1, 8, 4])
        attrs = {"min_sizes": [4.0, 7.0], "max_sizes": [6.0, 9.0], "aspect_ratios": [2.0, 2.0000001],
                 "flip": True, "clip": clip, "offset": 0.5, "variances": [0.1, 0.1, 0.2, 0.2],
                 "min_max_aspect_ratios_order": mmorder}
        b.op("prior_box", {"Input": [feat], "Image": [img]}, {"Boxes": [boxes], "Variances": [var]}, attrs)
        b.fetch(boxes)
        b.fetch(var)
        model, ref = _compile(b, tmp_path / ("m%d" % mmorder))
        for fh, fw, ih, iw in ((2, 3, 16, 24), (5, 4, 40, 30)):
            f = np.zeros((1, 4, fh, fw), np.float32)
            im = np.zeros((1, 3, ih, iw), np.float32)
            got_b, got_v = model(f, im)
            # 2 min sizes x (ratios 1, 2, 1/2 + the min-max square) = 8 priors
            want = _prior_box_loops(fh, fw, ih, iw, [4.0, 7.0], [6.0, 9.0], [2.0, 2.0000001], True, clip, 0.5,
                                    mmorder)
            assert got_b.shape == (fh, fw, 8, 4)
            np.testing.assert_allclose(got_b, want, rtol=1e-5, atol=1e-6)
            np.testing.assert_allclose(got_v, np.broadcast_to([0.1, 0.1, 0.2, 0.2], (fh, fw, 8, 4)), rtol=1e-6)
            ref_out = list(ref.run({"feat": f, "image": im}).values())
            np.testing.assert_allclose(got_b, ref_out[0], rtol=1e-5, atol=1e-6)


def test_box_coder_decode_and_encode(tmp_path):
    rng = np.random.RandomState(0)
    lo = rng.rand(6, 2).astype(np.float32)
    prior = np.concatenate([lo, lo + 0.2 + rng.rand(6, 2).astype(np.float32)], axis=1)
    pvar = (0.1 + 0.1 * rng.rand(6, 4)).astype(np.float32)
    b = ProgramBuilder()
    t = b.feed("deltas", [-1, 6, 4])
    out = b.tmp("box_coder", [-1, 6, 4])
    b.op("box_coder", {"PriorBox": [b.param("prior", prior)], "PriorBoxVar": [b.param("pvar", pvar)],
                       "TargetBox": [t]}, {"OutputBox": [out]}, {"code_type": "decode_center_size"})
    b.fetch(out)
    model, ref = _compile(b, tmp_path / "dec")
    for n in (1, 3):
        d = rng.standard_normal((n, 6, 4)).astype(np.float32)
        (got,) = model(d)
        want = np.zeros_like(d)
        for i in range(n):
            for j in range(6):
                p, v, x = prior[j], pvar[j], d[i, j]
                pw, ph = p[2] - p[0], p[3] - p[1]
                cx, cy = v[0] * x[0] * pw + p[0] + pw / 2, v[1] * x[1] * ph + p[1] + ph / 2
                w, h = math.exp(v[2] * x[2]) * pw, math.exp(v[3] * x[3]) * ph
                want[i, j] = [cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2]
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)
        np.testing.assert_allclose(got, list(ref.run({"deltas": d}).values())[0], rtol=1e-5, atol=1e-5)

    # Encode unnormalized (pixel) boxes against the priors, variance attribute.
    b = ProgramBuilder()
    t = b.feed("boxes", [-1, 4])
    out = b.tmp("box_coder", [-1, 6, 4])
    pix = prior * 50
    b.op("box_coder", {"PriorBox": [b.param("prior", pix)], "TargetBox": [t]}, {"OutputBox": [out]},
         {"code_type": "encode_center_size", "box_normalized": False, "variance": [0.1, 0.1, 0.2, 0.2]})
    b.fetch(out)
    model, ref = _compile(b, tmp_path / "enc")
    lo = 50 * rng.rand(3, 2).astype(np.float32)
    boxes = np.concatenate([lo, lo + 5 + 20 * rng.rand(3, 2).astype(np.float32)], axis=1)
    (got,) = model(boxes)
    want = np.zeros((3, 6, 4))
    for i in range(3):
        for j in range(6):
            p, x = pix[j].astype(np.float64), boxes[i].astype(np.float64)
            pw, ph, tw, th = p[2] - p[0] + 1, p[3] - p[1] + 1, x[2] - x[0] + 1, x[3] - x[1] + 1
            want[i, j] = [((x[0] + x[2]) / 2 - p[0] - pw / 2) / pw / 0.1,
                          ((x[1] + x[3]) / 2 - p[1] - ph / 2) / ph / 0.1,
                          math.log(tw / pw) / 0.2, math.log(th / ph) / 0.2]
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(got, list(ref.run({"boxes": boxes}).values())[0], rtol=1e-5, atol=1e-5)


def _yolo_loops(x, size, anchors, k, thresh, ds, clip, scale, iou_aware, factor):
    n, _, h, w = x.shape
    an = len(anchors) // 2
    sig = lambda v: 1 / (1 + math.exp(-v))
    boxes = np.zeros((n, an * h * w, 4))
    scores = np.zeros((n, an * h * w, k))
    for i in range(n):
        ih, iw = size[i]
        for a in range(an):
            base = an + a * (5 + k) if iou_aware else a * (5 + k)
            for r in range(h):
                for c in range(w):
                    conf = sig(x[i, base + 4, r, c])
                    if iou_aware:
                        conf = conf ** (1 - factor) * sig(x[i, a, r, c]) ** factor
                    if conf < thresh:
                        continue
                    bias = -0.5 * (scale - 1)
                    cx = (c + sig(x[i, base, r, c]) * scale + bias) * iw / w
                    cy = (r + sig(x[i, base + 1, r, c]) * scale + bias) * ih / h
                    bw = math.exp(x[i, base + 2, r, c]) * anchors[2 * a] * iw / (ds * w)
                    bh = math.exp(x[i, base + 3, r, c]) * anchors[2 * a + 1] * ih / (ds * h)
                    box = [cx - bw / 2, cy - bh / 2, cx + bw / 2, cy + bh / 2]
                    if clip:
                        box = [max(box[0], 0), max(box[1], 0), min(box[2], iw - 1), min(box[3], ih - 1)]
                    j = a * h * w + r * w + c
                    boxes[i, j] = box
                    scores[i, j] = [conf * sig(x[i, base + 5 + q, r, c]) for q in range(k)]
    return boxes, scores


def test_yolo_box(tmp_path):
    rng = np.random.RandomState(1)
    anchors = [10, 13, 16, 30]
    for iou_aware, scale, clip in ((False, 1.0, True), (True, 1.05, False)):
        ch = 2 * (5 + 3) + (2 if iou_aware else 0)
        b = ProgramBuilder()
        x = b.feed("x", [-1, ch, -1, -1])
        size = b.feed("im_size", [-1, 2], "int32")
        boxes, scores = b.tmp("yolo_box", [-1, -1, 4]), b.tmp("yolo_box_scores", [-1, -1, 3])
        b.op("yolo_box", {"X": [x], "ImgSize": [size]}, {"Boxes": [boxes], "Scores": [scores]},
             {"anchors": anchors, "class_num": 3, "conf_thresh": 0.5, "downsample_ratio": 8,
              "clip_bbox": clip, "scale_x_y": scale, "iou_aware": iou_aware, "iou_aware_factor": 0.4})
        b.fetch(boxes)
        b.fetch(scores)
        model, ref = _compile(b, tmp_path / ("y%d" % iou_aware))
        for n, h, w in ((1, 3, 4), (2, 4, 4)):
            data = rng.standard_normal((n, ch, h, w)).astype(np.float32)
            sz = np.array([[h * 8, w * 8 + 3]] * n, np.int32)
            got_b, got_s = model(data, sz)
            want_b, want_s = _yolo_loops(data, sz, anchors, 3, 0.5, 8, clip, scale, iou_aware, 0.4)
            assert got_b.shape == (n, 2 * h * w, 4) and got_s.shape == (n, 2 * h * w, 3)
            assert (got_s == 0).any() and (got_s > 0).any()  # the threshold masks some cells, not all
            np.testing.assert_allclose(got_b, want_b, rtol=1e-5, atol=1e-4)
            np.testing.assert_allclose(got_s, want_s, rtol=1e-5, atol=1e-6)
            rb, rs = ref.run({"x": data, "im_size": sz}).values()
            np.testing.assert_allclose(got_b, rb, rtol=1e-5, atol=1e-4)
            np.testing.assert_allclose(got_s, rs, rtol=1e-5, atol=1e-6)
