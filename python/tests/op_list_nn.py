"""The neural-network, detection, interpolation, sequence and RNN ops of
Paddle2ONNX's op list (issue 34): one small program per op type, written
into op_list.CASES through its `case` decorator, with Paddle 2.x's slot and
attribute names (Fluid 1.x's for the v1 ops). Weights are parameters, data
are feeds; LoD ops take LoD feeds and their lengths."""
import numpy as np

from op_list import F32, I32, I64, case
from paddle_mlir.builder import Long

# ------------------------------------------------------------ convolution


@case("conv2d")
def _conv2d(c, t):
    # NHWC input, OIHW filter; groups, uneven strides, dilation.
    x = c.feed(c.randn(1, 6, 7, 4))
    w = c.param(c.randn(6, 2, 3, 3, scale=0.5))
    c.op(t, {"Input": [x], "Filter": [w]}, {"Output": "float32"},
         {"strides": [2, 1], "paddings": [1, 0], "dilations": [1, 2], "groups": 2,
          "padding_algorithm": "EXPLICIT", "data_format": "NHWC"})


@case("depthwise_conv2d")
def _depthwise_conv2d(c, t):
    # Channel multiplier 2; padding and dilation differing per axis.
    x = c.feed(c.randn(1, 3, 7, 6))
    w = c.param(c.randn(6, 1, 3, 3, scale=0.5))
    c.op(t, {"Input": [x], "Filter": [w]}, {"Output": "float32"},
         {"strides": [2, 2], "paddings": [1, 2], "dilations": [2, 1], "groups": 3,
          "padding_algorithm": "EXPLICIT", "data_format": "NCHW"})


@case("conv2d_transpose")
def _conv2d_transpose(c, t):
    # Filter [C_in, C_out / groups, kh, kw].
    x = c.feed(c.randn(1, 4, 3, 4))
    w = c.param(c.randn(4, 3, 3, 3, scale=0.5))
    c.op(t, {"Input": [x], "Filter": [w]}, {"Output": "float32"},
         {"strides": [2, 2], "paddings": [1, 0], "dilations": [1, 1], "groups": 2, "output_size": [],
          "output_padding": [1, 0], "padding_algorithm": "EXPLICIT", "data_format": "NCHW"})


@case("depthwise_conv2d_transpose")
def _depthwise_conv2d_transpose(c, t):
    x = c.feed(c.randn(1, 3, 4, 4))
    w = c.param(c.randn(3, 1, 3, 3, scale=0.5))
    c.op(t, {"Input": [x], "Filter": [w]}, {"Output": "float32"},
         {"strides": [2, 2], "paddings": [1, 1], "dilations": [1, 1], "groups": 3, "output_size": [],
          "output_padding": [1, 1], "padding_algorithm": "EXPLICIT", "data_format": "NCHW"})


@case("conv3d")
def _conv3d(c, t):
    x = c.feed(c.randn(1, 4, 4, 5, 5))
    w = c.param(c.randn(4, 2, 3, 3, 3, scale=0.4))
    c.op(t, {"Input": [x], "Filter": [w]}, {"Output": "float32"},
         {"strides": [1, 2, 1], "paddings": [1, 0, 1], "dilations": [1, 1, 2], "groups": 2,
          "padding_algorithm": "EXPLICIT", "data_format": "NCDHW"})


@case("deformable_conv")
def _deformable_conv(c, t):
    # Groups 2, deformable groups 2, stride 2: a 3x3 output; offsets of a
    # pixel or two (taps between pixels and outside the image), a mask.
    x = c.feed(c.randn(1, 4, 5, 5))
    off = c.feed(c.randn(1, 2 * 2 * 9, 3, 3, scale=1.5))
    mask = c.feed(c.uniform(0, 1, 1, 2 * 9, 3, 3))
    w = c.param(c.randn(4, 2, 3, 3, scale=0.4))
    c.op(t, {"Input": [x], "Offset": [off], "Mask": [mask], "Filter": [w]}, {"Output": "float32"},
         {"strides": [2, 2], "paddings": [1, 1], "dilations": [1, 1], "groups": 2,
          "deformable_groups": 2, "im2col_step": 64})


# --------------------------------------------------------------- pooling
@case("pool2d")
def _pool2d(c, t):
    x = c.feed(c.randn(1, 3, 6, 7))
    c.op(t, {"X": [x]}, {"Out": "float32"},
         {"pooling_type": "avg", "ksize": [3, 3], "strides": [2, 2], "paddings": [1, 1],
          "exclusive": False, "global_pooling": False, "adaptive": False, "ceil_mode": True,
          "data_format": "NCHW", "padding_algorithm": "EXPLICIT"})


@case("pool3d")
def _pool3d(c, t):
    x = c.feed(c.randn(1, 3, 5, 5, 2))
    c.op(t, {"X": [x]}, {"Out": "float32"},
         {"pooling_type": "max", "ksize": [2, 3, 2], "strides": [2, 2, 1], "paddings": [0, 1, 1],
          "exclusive": True, "global_pooling": False, "adaptive": False, "ceil_mode": True,
          "data_format": "NDHWC", "padding_algorithm": "EXPLICIT"})


# --------------------------------------------------------- normalization
@case("batch_norm")
def _batch_norm(c, t):
    # Inference with running statistics, channels last. MeanOut and
    # VarianceOut are the Mean and Variance variables, as Paddle writes them.
    x = c.feed(c.randn(2, 3, 4, 3))
    scale, bias = c.param(c.uniform(0.5, 1.5, 3)), c.param(c.randn(3))
    mean, var = c.param(c.randn(3, scale=0.5)), c.param(c.uniform(0.5, 2.0, 3))
    b = c.b
    y = b.tmp(c.tag + "_y", [-1], "float32")
    saved = [b.tmp(c.tag + "_saved", [3], "float32") for _ in range(2)]
    b.op(t, {"X": [x], "Scale": [scale], "Bias": [bias], "Mean": [mean], "Variance": [var]},
         {"Y": [y], "MeanOut": [mean], "VarianceOut": [var], "SavedMean": [saved[0]],
          "SavedVariance": [saved[1]]},
         {"epsilon": 1e-3, "momentum": 0.9, "is_test": True, "data_layout": "NHWC",
          "use_global_stats": False, "trainable_statistics": False})
    b.fetch(y)


@case("layer_norm")
def _layer_norm(c, t):
    x = c.feed(c.randn(2, 3, 4, scale=2.0) + 1.0)
    c.op(t, {"X": [x], "Scale": [c.param(c.uniform(0.5, 1.5, 12))], "Bias": [c.param(c.randn(12))]},
         {"Y": "float32", "Mean": "float32", "Variance": "float32"},
         {"epsilon": 1e-5, "begin_norm_axis": 1}, fetch=["Y"])


@case("group_norm")
def _group_norm(c, t):
    x = c.feed(c.randn(2, 6, 3, 4, scale=3.0) + 1.0)
    c.op(t, {"X": [x], "Scale": [c.param(c.uniform(0.5, 1.5, 6))], "Bias": [c.param(c.randn(6))]},
         {"Y": "float32", "Mean": "float32", "Variance": "float32"},
         {"groups": 3, "epsilon": 1e-5, "data_layout": "NCHW"}, fetch=["Y"])


@case("instance_norm")
def _instance_norm(c, t):
    x = c.feed(c.randn(2, 3, 4, 5, scale=3.0) + 2.0)
    c.op(t, {"X": [x], "Scale": [c.param(c.uniform(0.5, 1.5, 3))], "Bias": [c.param(c.randn(3))]},
         {"Y": "float32", "SavedMean": "float32", "SavedVariance": "float32"},
         {"epsilon": 1e-5}, fetch=["Y"])


@case("prelu")
def _prelu(c, t):
    # One slope per channel, channels last.
    x = c.randn(2, 4, 5, 3)
    x[0, 0, 0, :] = [0.0, -0.0, -1.0]
    c.op(t, {"X": [c.feed(x)], "Alpha": [c.param(c.uniform(0.05, 0.5, 3))]}, {"Out": "float32"},
         {"mode": "channel", "data_format": "NHWC"})


# -------------------------------------------------------- interpolation
# Paddle 2.x writes data_layout NCHW / NHWC whatever the rank (F.interpolate
# maps NCW and NCDHW to NCHW, NWC and NDHWC to NHWC); v1 ops take a float
# `scale`, v2 ops a list.
@case("nearest_interp")
def _nearest_interp(c, t):
    c.op(t, {"X": [c.feed(c.randn(1, 2, 3, 4))]}, {"Out": "float32"},
         {"out_d": -1, "out_h": 5, "out_w": 7, "scale": 0.0, "interp_method": "nearest",
          "align_corners": False, "align_mode": 1, "data_layout": "NCHW"})


@case("nearest_interp_v2")
def _nearest_interp_v2(c, t):
    c.op(t, {"X": [c.feed(c.randn(2, 3, 4, 3))]}, {"Out": "float32"},
         {"out_d": -1, "out_h": -1, "out_w": -1, "scale": [2.0, 1.5], "interp_method": "nearest",
          "align_corners": False, "align_mode": 1, "data_layout": "NCHW"})


@case("bilinear_interp")
def _bilinear_interp(c, t):
    c.op(t, {"X": [c.feed(c.randn(2, 3, 4, 5))]}, {"Out": "float32"},
         {"out_d": -1, "out_h": 7, "out_w": 6, "scale": 0.0, "interp_method": "bilinear",
          "align_corners": False, "align_mode": 1, "data_layout": "NCHW"})


@case("bilinear_interp_v2")
def _bilinear_interp_v2(c, t):
    c.op(t, {"X": [c.feed(c.randn(1, 4, 5, 3))]}, {"Out": "float32"},
         {"out_d": -1, "out_h": -1, "out_w": -1, "scale": [1.5, 2.0], "interp_method": "bilinear",
          "align_corners": False, "align_mode": 0, "data_layout": "NHWC"})


@case("bicubic_interp_v2")
def _bicubic_interp_v2(c, t):
    c.op(t, {"X": [c.feed(c.randn(1, 2, 4, 5))]}, {"Out": "float32"},
         {"out_d": -1, "out_h": 6, "out_w": 9, "interp_method": "bicubic",
          "align_corners": False, "align_mode": 0, "data_layout": "NCHW"})


@case("linear_interp")
def _linear_interp(c, t):
    c.op(t, {"X": [c.feed(c.randn(2, 3, 6))]}, {"Out": "float32"},
         {"out_d": -1, "out_h": -1, "out_w": 10, "scale": 0.0, "interp_method": "linear",
          "align_corners": False, "align_mode": 1, "data_layout": "NCHW"})


@case("linear_interp_v2")
def _linear_interp_v2(c, t):
    c.op(t, {"X": [c.feed(c.randn(2, 7, 3))]}, {"Out": "float32"},
         {"out_d": -1, "out_h": -1, "out_w": 4, "interp_method": "linear",
          "align_corners": True, "align_mode": 1, "data_layout": "NHWC"})


@case("trilinear_interp")
def _trilinear_interp(c, t):
    c.op(t, {"X": [c.feed(c.randn(1, 2, 2, 3, 4))]}, {"Out": "float32"},
         {"out_d": 3, "out_h": 4, "out_w": 5, "scale": 0.0, "interp_method": "trilinear",
          "align_corners": False, "align_mode": 0, "data_layout": "NCHW"})


@case("trilinear_interp_v2")
def _trilinear_interp_v2(c, t):
    c.op(t, {"X": [c.feed(c.randn(1, 2, 3, 4, 2))]}, {"Out": "float32"},
         {"out_d": 3, "out_h": 5, "out_w": 4, "interp_method": "trilinear",
          "align_corners": False, "align_mode": 0, "data_layout": "NHWC"})


@case("grid_sampler")
def _grid_sampler(c, t):
    x = c.feed(c.randn(1, 2, 4, 5))
    grid = c.feed(c.uniform(-1.2, 1.2, 1, 3, 4, 2))
    c.op(t, {"X": [x], "Grid": [grid]}, {"Output": "float32"},
         {"mode": "bilinear", "padding_mode": "border", "align_corners": False})


# ------------------------------------------------------------- embedding
@case("lookup_table")
def _lookup_table(c, t):
    # Fluid 1.x: ids with a trailing 1, padding rows read as zeros.
    ids = np.array([[3], [0], [2], [7], [2]], I64)
    c.op(t, {"W": [c.param(c.randn(8, 4))], "Ids": [c.feed(ids)]}, {"Out": "float32"},
         {"padding_idx": Long(2), "is_sparse": False})


@case("lookup_table_v2")
def _lookup_table_v2(c, t):
    ids = np.array([[1, 5, 0], [4, 1, 6]], I64)
    c.op(t, {"W": [c.param(c.randn(7, 3))], "Ids": [c.feed(ids)]}, {"Out": "float32"},
         {"padding_idx": Long(1), "is_sparse": False})


# ------------------------------------------------------------------ loss
@case("softmax_with_cross_entropy")
def _softmax_with_cross_entropy(c, t):
    logits = c.feed(c.randn(4, 5, scale=2.0))
    label = c.feed(np.array([[1], [4], [0], [2]], I64))
    c.op(t, {"Logits": [logits], "Label": [label]}, {"Softmax": "float32", "Loss": "float32"},
         {"soft_label": False, "axis": -1, "ignore_index": -100, "numeric_stable_mode": True,
          "use_softmax": True})


# ---------------------------------------------------------------- LoD ops
@case("lod_reset")
def _lod_reset(c, t):
    # target_lod replaces the feed's two sequences with three.
    x = c.feed(c.randn(6, 3), lod_level=1)
    c.lengths(x, [4, 2])
    c.op(t, {"X": [x]}, {"Out": "float32"}, {"target_lod": [0, 1, 4, 6], "append": False})


@case("sequence_expand")
def _sequence_expand(c, t):
    # Row i of X repeated over the rows of Y's sequence i (one is empty).
    x = c.feed(c.randn(3, 2))
    y = c.feed(c.randn(5, 1), lod_level=1)
    c.lengths(y, [2, 0, 3])
    c.op(t, {"X": [x], "Y": [y]}, {"Out": "float32"}, {"ref_level": -1})


@case("im2sequence")
def _im2sequence(c, t):
    x = c.feed(c.randn(2, 2, 4, 5))
    c.op(t, {"X": [x]}, {"Out": "float32"},
         {"kernels": [2, 3], "strides": [2, 1], "paddings": [1, 0, 0, 1], "out_stride": [1, 1]})


@case("lstm")
def _lstm(c, t):
    # Fluid's dynamic_lstm: Input is the projected x (4H wide) as LoD
    # sequences (one empty), peepholes (Bias 7H), initial states, reversed.
    hid = 3
    lengths = [2, 0, 3]
    x = c.feed(c.randn(sum(lengths), 4 * hid), lod_level=1)
    c.lengths(x, lengths)
    h0, c0 = c.feed(c.randn(3, hid, scale=0.5)), c.feed(c.randn(3, hid, scale=0.5))
    w = c.param(c.randn(hid, 4 * hid, scale=0.4))
    bias = c.param(c.randn(1, 7 * hid, scale=0.3))
    c.op(t, {"Input": [x], "H0": [h0], "C0": [c0], "Weight": [w], "Bias": [bias]},
         {"Hidden": "float32", "Cell": "float32", "BatchGate": "float32", "BatchCellPreAct": "float32"},
         {"use_peepholes": True, "is_reverse": True, "gate_activation": "sigmoid",
          "cell_activation": "tanh", "candidate_activation": "tanh", "is_test": True},
         fetch=["Hidden", "Cell"])


@case("rnn")
def _rnn(c, t):
    # nn.LSTM(3, 4, direction="bidirect") on [steps, batch, in] with
    # SequenceLength: WeightList holds (w_ih, w_hh) per direction, then
    # (b_ih, b_hh) per direction.
    steps, batch, ins, hid, g = 4, 2, 3, 4, 4
    k = 1 / np.sqrt(hid)
    ws, bs = [], []
    for _ in range(2):
        ws += [c.uniform(-k, k, g * hid, ins), c.uniform(-k, k, g * hid, hid)]
        bs += [c.uniform(-k, k, g * hid), c.uniform(-k, k, g * hid)]
    x = c.feed(c.randn(steps, batch, ins))
    pre = [c.feed(c.randn(2, batch, hid, scale=0.5)) for _ in range(2)]
    lengths = c.feed(np.array([4, 2], I32))
    c.op(t, {"Input": [x], "PreState": pre, "WeightList": [c.param(w) for w in ws + bs],
             "SequenceLength": [lengths]},
         {"Out": "float32", "State": ["float32", "float32"], "DropoutState": "uint8", "Reserve": "uint8"},
         {"mode": "LSTM", "num_layers": 1, "is_bidirec": True, "hidden_size": hid, "input_size": ins,
          "dropout_prob": 0.0, "is_test": True, "seed": 0},
         fetch=["Out", "State"])


# -------------------------------------------------------------- detection
@case("anchor_generator")
def _anchor_generator(c, t):
    c.op(t, {"Input": [c.feed(np.zeros((1, 4, 3, 4), F32))]}, {"Anchors": "float32", "Variances": "float32"},
         {"anchor_sizes": [32.0, 64.0], "aspect_ratios": [0.5, 1.0, 2.0], "stride": [16.0, 8.0],
          "offset": 0.5, "variances": [0.1, 0.1, 0.2, 0.2]})


@case("prior_box")
def _prior_box(c, t):
    feat = c.feed(np.zeros((1, 4, 2, 3), F32))
    img = c.feed(np.zeros((1, 1, 12, 16), F32))
    c.op(t, {"Input": [feat], "Image": [img]}, {"Boxes": "float32", "Variances": "float32"},
         {"min_sizes": [4.0, 7.0], "max_sizes": [6.0, 9.0], "aspect_ratios": [2.0], "flip": True,
          "clip": True, "step_w": 0.0, "step_h": 0.0, "offset": 0.5, "variances": [0.1, 0.1, 0.2, 0.2],
          "min_max_aspect_ratios_order": True})


def _corner_boxes(c, n, lo, hi, wmin, wmax):
    xy = c.uniform(lo, hi, n, 2)
    return np.concatenate([xy, xy + c.uniform(wmin, wmax, n, 2)], 1).astype(F32)


@case("box_coder")
def _box_coder(c, t):
    # Decode deltas against pixel priors with per-prior variances.
    prior = _corner_boxes(c, 5, 0, 40, 8, 30)
    pvar = c.uniform(0.1, 0.3, 5, 4)
    deltas = c.feed(c.randn(2, 5, 4, scale=0.5))
    c.op(t, {"PriorBox": [c.param(prior)], "PriorBoxVar": [c.param(pvar)], "TargetBox": [deltas]},
         {"OutputBox": "float32"}, {"code_type": "decode_center_size", "box_normalized": False, "axis": 0})


@case("box_clip")
def _box_clip(c, t):
    # Two images' boxes (LoD), the second at scale 2.
    boxes = np.array([[-5, 3, 50, 70], [10, -1, 12, 200], [0, 0, 40, 40], [-1, 25, 19, 9],
                      [35, 5, 2, 100]], F32)
    bv = c.feed(boxes, lod_level=1)
    c.lengths(bv, [2, 3])
    info = c.feed(np.array([[64, 48, 1], [41, 60, 2]], F32))
    c.op(t, {"Input": [bv], "ImInfo": [info]}, {"Output": "float32"})


@case("yolo_box")
def _yolo_box(c, t):
    # Two anchors, three classes on a 3x3 map; the threshold keeps some cells.
    x = c.feed(c.randn(1, 2 * (5 + 3), 3, 3))
    size = c.feed(np.array([[24, 27]], I32))
    c.op(t, {"X": [x], "ImgSize": [size]}, {"Boxes": "float32", "Scores": "float32"},
         {"anchors": [10, 13, 16, 30], "class_num": 3, "conf_thresh": 0.4, "downsample_ratio": 8,
          "clip_bbox": True, "scale_x_y": 1.05, "iou_aware": False, "iou_aware_factor": 0.5})


def _clustered(c, n, m, scale):
    """Boxes in three clusters (so NMS suppresses some), corner form."""
    centers = c.uniform(0.2, 0.8, n, 3, 2) * scale
    which = c.rng.integers(0, 3, (n, m))
    ctr = np.take_along_axis(centers, which[..., None], axis=1) + c.randn(n, m, 2, scale=0.03 * scale)
    wh = c.uniform(0.15, 0.25, n, m, 2) * scale
    return np.concatenate([ctr - wh / 2, ctr + wh / 2], axis=2).astype(F32)


NMS_ATTRS = {"score_threshold": 0.2, "nms_top_k": 6, "keep_top_k": 5, "nms_threshold": 0.45,
             "nms_eta": 1.0, "normalized": True, "background_label": 0}


@case("multiclass_nms", "multiclass_nms2")
def _multiclass_nms(c, t):
    boxes = c.feed(_clustered(c, 2, 8, 1.0))
    scores = c.feed(c.uniform(0, 1, 2, 3, 8))
    outs = {"Out": "float32"}
    if t == "multiclass_nms2":
        outs["Index"] = "int32"
    c.op(t, {"BBoxes": [boxes], "Scores": [scores]}, outs, NMS_ATTRS)


def _grid_anchors(h, w, sizes, stride):
    """Square anchors of `sizes` pixels centred on a stride grid, [H, W, A, 4]."""
    ys, xs = np.meshgrid(np.arange(h) * stride + stride / 2, np.arange(w) * stride + stride / 2, indexing="ij")
    half = np.array(sizes, F32)[:, None] / 2
    ctr = np.stack([xs, ys], -1)[:, :, None, :].astype(F32)
    return np.concatenate([ctr - half, ctr + half], -1).astype(F32)


@case("generate_proposals")
def _generate_proposals(c, t):
    # Fluid 1.x: ImInfo (h, w, scale); two anchors per cell of a 3x4 map.
    a, h, w = 2, 3, 4
    scores = c.feed(c.uniform(0, 1, 1, a, h, w))
    deltas = c.feed(c.randn(1, 4 * a, h, w, scale=0.3))
    im = c.feed(np.array([[48, 64, 1.0]], F32))
    anchors = c.param(_grid_anchors(h, w, [16, 32], 16))
    variances = c.param(c.uniform(0.5, 1.5, h, w, a, 4))
    c.op(t, {"Scores": [scores], "BboxDeltas": [deltas], "ImInfo": [im], "Anchors": [anchors],
             "Variances": [variances]},
         {"RpnRois": "float32", "RpnRoiProbs": "float32", "RpnRoisNum": "int32"},
         {"pre_nms_topN": 16, "post_nms_topN": 6, "nms_thresh": 0.5, "min_size": 2.0, "eta": 1.0})


@case("collect_fpn_proposals")
def _collect_fpn_proposals(c, t):
    # Two levels, two images; the best 5 RoIs over both levels.
    nums = [np.array([3, 2], I32), np.array([1, 3], I32)]
    rois = [c.feed(_corner_boxes(c, int(n.sum()), 0, 50, 4, 30)) for n in nums]
    scores = [c.feed(c.uniform(0, 1, int(n.sum()), 1)) for n in nums]
    counts = [c.feed(n) for n in nums]
    c.op(t, {"MultiLevelRois": rois, "MultiLevelScores": scores, "MultiLevelRoIsNum": counts},
         {"FpnRois": "float32", "RoisNum": "int32"}, {"post_nms_topN": 5})


@case("distribute_fpn_proposals")
def _distribute_fpn_proposals(c, t):
    # RoIs of 20 to 700 pixels over levels 2..5 (an inverted one: area 0,
    # the lowest level), two images.
    wh = np.array([[20, 30], [300, 260], [60, 90], [40, 50], [700, 500], [150, 180], [480, 420]], F32)
    xy = c.uniform(0, 100, 7, 2)
    rois = np.concatenate([xy, xy + wh], 1).astype(F32)
    rois[3] = [50, 50, 40, 60]
    rois = c.feed(rois)
    num = c.feed(np.array([4, 3], I32))
    c.op(t, {"FpnRois": [rois], "RoisNum": [num]},
         {"MultiFpnRois": ["float32"] * 4, "RestoreIndex": "int32", "MultiLevelRoIsNum": ["int32"] * 4},
         {"min_level": 2, "max_level": 5, "refer_level": 4, "refer_scale": 224, "pixel_offset": True})


@case("roi_align")
def _roi_align(c, t):
    x = c.feed(c.randn(2, 2, 6, 8))
    rois = c.feed(np.array([[0, 0, 9, 7], [2.5, 3, 14, 11.5], [4, 1, 12, 5]], F32))
    num = c.feed(np.array([2, 1], I32))
    c.op(t, {"X": [x], "ROIs": [rois], "RoisNum": [num]}, {"Out": "float32"},
         {"pooled_height": 2, "pooled_width": 3, "spatial_scale": 0.5, "sampling_ratio": 2, "aligned": True})
