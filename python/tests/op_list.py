"""Paddle2ONNX's op list and one small program per op (issue 34).

`ROWS` are the rows of Paddle2ONNX's support list (`docs/en/op_list.md` of
PaddlePaddle/Paddle2ONNX, 176 rows; a few name a Python API or are repeated).
`OP_TYPE` maps each row to the Paddle op type a program holds. `CASES` holds,
for every op type, a function writing that op into a ProgramBuilder with
feeds and parameters of its own, named after the op, so that the cases can
be built one per program (test_op_list.py) or all into one program
(`one_program`, for the lit test test/Frontend/Paddle/op-list.test). The
neural-network, detection, interpolation and sequence ops are in
op_list_nn.py.
"""
import zlib

import numpy as np

from paddle_mlir.builder import Long, Longs, ProgramBuilder

F32, I32, I64 = np.float32, np.int32, np.int64

ROWS = """
abs acos arg_max arg_min arg_sort asin anchor_generator assign_value all atan any batch_norm
bicubic_interp_v2 bilinear_interp bilinear_interp_v2 bmm box_coder box_clip cast ceil clip cos cosh
concat conv2d conv2d_transpose conv3d depthwise_conv2d_transpose collect_fpn_proposals cumsum
deformable_conv depthwise_conv2d distribute_fpn_proposals dist dropout dot elementwise_add
elementwise_div elementwise_floordiv elementwise_mul elementwise_min elementwise_max elementwise_mod
elementwise_pow elementwise_sub equal erf exp expand_as_v2 expand_v2 expand elu fill_constant
fill_constant_batch_size_like fill_any_like flatten2 flatten_contiguous_range floor floor_mod
linear_interp linear_interp_v2 lod_reset lstm gather generate_proposals greater_equal grid_sampler
group_norm hardshrink hardtanh hard_sigmoid hard_swish has_nan im2sequence instance_norm index_select
isinf isnan isfinite layer_norm leaky_relu less_than less_equal log log2 lookup_table lookup_table_v2
logical_and logical_not logical_or logsumexp log10 log1p lookup_table lookup_table_v2 logical_and
logical_xor logsigmoid logsoftmax masked_select matmul matmul_v2 mean meshgrid mul muticlass_nms
muticlass_nms2 mv nearest_interp nearest_interp_v2 norm numel pad1d pad2d pad3d pixel_shuffle pool2d
pool3d pow prior_box prelu p_norm range reciprocal reduce_mean reduce_max reduce_min reduce_prod
reduce_sum relu relu6 reshape2 rnn roi_align roll round rsqrt softmax scale scatter scatter_nd_add
sequence_expand selu softmax_with_cross_entropy softplus softsign softshrink shape sigmoid sign sin
sinh slice split squeeze2 square sqrt stack stride_slice sum swish tanh tanh_shrink tan
thresholded_relu tile top_k top_k_v2 transpose2 trilinear_interp trilinear_interp_v2 uniform_random
uniform_random_batch_size_like unique unsqueeze2 unstack where where_index yolo_box
""".split()

# Rows that are not the op type's own name: Python API names (paddle.all is
# reduce_all, paddle.numel is `size`, paddle.remainder is elementwise_mod,
# F.log_softmax is log_softmax, F.hardshrink is hard_shrink, paddle.argsort
# is argsort, paddle.strided_slice is strided_slice), the list's spelling of
# multiclass_nms, Fluid's has_nan (which appends an `isnan` op) and pad1d
# (F.pad of a 3-D input, which Paddle writes as pad3d on an unsqueezed input).
OP_TYPE = {
    "all": "reduce_all", "any": "reduce_any", "arg_sort": "argsort", "floor_mod": "elementwise_mod",
    "hardshrink": "hard_shrink", "has_nan": "isnan", "logsoftmax": "log_softmax",
    "muticlass_nms": "multiclass_nms", "muticlass_nms2": "multiclass_nms2", "numel": "size",
    "pad1d": "pad3d", "stride_slice": "strided_slice",
}


def op_types():
    """The distinct op types of the list, in the list's order."""
    seen = []
    for row in ROWS:
        t = OP_TYPE.get(row, row)
        if t not in seen:
            seen.append(t)
    return seen


class Case:
    """Writes one op into a builder; its feeds and parameters carry the op's
    name, and `inputs` collects the values to feed."""

    def __init__(self, b, tag):
        self.b, self.tag, self.inputs, self.n = b, tag, {}, 0
        self.rng = np.random.default_rng(zlib.crc32(tag.encode()))

    def _name(self, kind):
        self.n += 1
        return "%s_%s%d" % (self.tag, kind, self.n)

    def feed(self, array, dtype=None, lod_level=0):
        array = np.asarray(array)
        v = self.b.feed(self._name("in"), list(array.shape), dtype or str(array.dtype), lod_level=lod_level)
        self.inputs[v.name] = array
        return v

    def lengths(self, var, lengths):
        """Sequence lengths of a LoD feed."""
        self.inputs[var.name + "@lengths"] = np.asarray(lengths, I64)

    def param(self, array, dtype=None):
        return self.b.param(self._name("w"), np.asarray(array), dtype)

    def randn(self, *shape, scale=1.0):
        return (self.rng.standard_normal(shape) * scale).astype(F32)

    def uniform(self, lo, hi, *shape):
        return self.rng.uniform(lo, hi, shape).astype(F32)

    def op(self, type, ins, outs, attrs=None, fetch=None):
        """Adds `type`; `outs` maps each output slot to a dtype, or to a list
        of dtypes for a list slot. Fetches the slots named in `fetch` (all
        when None) and returns the output variables by slot."""
        made = {}
        for slot, dt in outs.items():
            many = isinstance(dt, list)
            made[slot] = [self.b.tmp("%s_%s" % (self.tag, slot.lower()), [-1], d)
                          for d in (dt if many else [dt])]
        self.b.op(type, ins, made, attrs)
        for slot in (fetch if fetch is not None else list(outs)):
            for v in made[slot]:
                self.b.fetch(v)
        return {s: (vs if isinstance(outs[s], list) else vs[0]) for s, vs in made.items()}

    def plus_feed(self, var, shape, dtype="float32"):
        """Fetches var + a fed tensor of `shape`: the importer takes only
        programs with a feed, which ops without inputs do not have."""
        x = self.feed(self.rng.standard_normal(shape).astype(dtype))
        out = self.b.tmp(self.tag + "_sum", [-1], dtype)
        self.b.op("elementwise_add", {"X": [var], "Y": [x]}, {"Out": [out]}, {"axis": -1})
        self.b.fetch(out)


CASES = {}


def case(*types):
    """Registers a builder function for each op type; it is called as
    fn(case, type)."""
    def reg(fn):
        for t in types:
            CASES[t] = fn
        return fn
    return reg


# ------------------------------------------------------------------ unary
# Each op's input domain: where it is defined and away from its kinks.
DOMAIN = {
    "acos": (-0.95, 0.95), "asin": (-0.95, 0.95), "log": (0.05, 8.0), "log2": (0.05, 8.0),
    "log10": (0.05, 8.0), "log1p": (-0.9, 8.0), "sqrt": (0.05, 8.0), "rsqrt": (0.05, 8.0),
    "tan": (-1.3, 1.3), "cosh": (-4.0, 4.0), "sinh": (-4.0, 4.0), "exp": (-5.0, 5.0),
}
UNARY_ATTRS = {
    "elu": {"alpha": 0.7}, "selu": {"scale": 1.0507, "alpha": 1.6733},
    "softplus": {"beta": 2.0, "threshold": 6.0}, "hard_sigmoid": {"slope": 0.25, "offset": 0.4},
    "hard_swish": {"threshold": 6.0, "scale": 6.0, "offset": 3.0}, "leaky_relu": {"alpha": 0.1},
    "relu6": {"threshold": 6.0}, "swish": {"beta": 1.5}, "thresholded_relu": {"threshold": 0.6},
    "hard_shrink": {"threshold": 0.4}, "softshrink": {"lambda": 0.3},
    "hardtanh": {"t_min": -0.8, "t_max": 1.2}, "pow": {"factor": 3.0},
    "scale": {"scale": -1.5, "bias": 0.25, "bias_after_scale": False}, "clip": {"min": -0.7, "max": 0.9},
    "cumsum": {"axis": 1}, "softmax": {"axis": -1}, "log_softmax": {"axis": 1},
}
UNARY = ["abs", "acos", "asin", "atan", "ceil", "cos", "cosh", "erf", "exp", "floor", "log", "log2",
         "log10", "log1p", "reciprocal", "relu", "round", "rsqrt", "sigmoid", "sign", "sin", "sinh", "sqrt",
         "square", "tan", "tanh", "softsign", "logsigmoid", "tanh_shrink"] + sorted(UNARY_ATTRS)


@case(*UNARY)
def _unary(c, t):
    lo, hi = DOMAIN.get(t, (-3.0, 3.0))
    x = c.uniform(lo, hi, 3, 7)
    if t == "reciprocal":
        x = np.where(np.abs(x) < 0.1, 0.5, x).astype(F32)
    if t in ("round", "ceil", "floor", "sign"):
        x[0, :4] = [0.5, -0.5, 0.0, 2.0]
    c.op(t, {"X": [c.feed(x)]}, {"Out": "float32"}, UNARY_ATTRS.get(t))


@case("isinf", "isnan", "isfinite")
def _special_test(c, t):
    # Fluid's one-element tests: does any element have the property
    # (isfinite: do all)?
    x = c.randn(2, 5)
    x[1, 3] = {"isinf": -np.inf, "isnan": np.nan, "isfinite": np.inf}[t]
    c.op(t, {"X": [c.feed(x)]}, {"Out": "bool"})


@case("dropout")
def _dropout(c, t):
    c.op(t, {"X": [c.feed(c.randn(4, 6))]}, {"Out": "float32", "Mask": "uint8"},
         {"dropout_prob": 0.3, "is_test": True, "dropout_implementation": "downgrade_in_infer"},
         fetch=["Out"])


@case("cast")
def _cast(c, t):
    x = c.uniform(-4, 4, 3, 5)
    c.op(t, {"X": [c.feed(x)]}, {"Out": "int32"}, {"in_dtype": 5, "out_dtype": 2})


# ----------------------------------------------------------------- binary
@case("elementwise_add", "elementwise_sub", "elementwise_mul", "elementwise_div", "elementwise_min",
      "elementwise_max", "elementwise_pow")
def _binary(c, t):
    x = c.uniform(0.5, 2.0, 2, 3, 4) if t == "elementwise_pow" else c.randn(2, 3, 4)
    y = c.uniform(0.5, 2.0, 3) if t in ("elementwise_div", "elementwise_pow") else c.randn(3)
    c.op(t, {"X": [c.feed(x)], "Y": [c.feed(y)]}, {"Out": "float32"}, {"axis": 1})


@case("elementwise_floordiv", "elementwise_mod")
def _integer_division(c, t):
    x = c.rng.integers(-20, 20, (3, 6)).astype(I64)
    y = c.rng.integers(1, 6, (6,)).astype(I64) * np.array([1, -1, 1, -1, 1, 1], I64)
    c.op(t, {"X": [c.feed(x)], "Y": [c.feed(y)]}, {"Out": "int64"}, {"axis": -1})


@case("equal", "greater_equal", "less_than", "less_equal")
def _compare(c, t):
    x = c.rng.integers(-2, 3, (4, 5)).astype(F32)
    y = c.rng.integers(-2, 3, (5,)).astype(F32)
    c.op(t, {"X": [c.feed(x)], "Y": [c.feed(y)]}, {"Out": "bool"}, {"axis": -1})


@case("logical_and", "logical_or", "logical_xor")
def _logical(c, t):
    x, y = c.rng.integers(0, 2, (3, 4)).astype(bool), c.rng.integers(0, 2, (3, 4)).astype(bool)
    c.op(t, {"X": [c.feed(x)], "Y": [c.feed(y)]}, {"Out": "bool"})


@case("logical_not")
def _logical_not(c, t):
    c.op(t, {"X": [c.feed(c.rng.integers(0, 2, (3, 4)).astype(bool))]}, {"Out": "bool"})


@case("where")
def _where(c, t):
    cond = c.rng.integers(0, 2, (3, 4)).astype(bool)
    c.op(t, {"Condition": [c.feed(cond)], "X": [c.feed(c.randn(3, 4))], "Y": [c.feed(c.randn(3, 4))]},
         {"Out": "float32"})


@case("sum")
def _sum(c, t):
    c.op(t, {"X": [c.feed(c.randn(2, 5)), c.feed(c.randn(2, 5)), c.feed(c.randn(2, 5))]}, {"Out": "float32"})


# ------------------------------------------------------------- reductions
@case("reduce_mean", "reduce_max", "reduce_min", "reduce_prod", "reduce_sum")
def _reduce(c, t):
    c.op(t, {"X": [c.feed(c.uniform(0.5, 1.5, 2, 3, 4))]}, {"Out": "float32"},
         {"dim": [0, 2], "keep_dim": t == "reduce_max", "reduce_all": False})


@case("reduce_all", "reduce_any")
def _reduce_bool(c, t):
    x = c.rng.integers(0, 2, (3, 4)).astype(bool)
    x[0] = t == "reduce_all"
    c.op(t, {"X": [c.feed(x)]}, {"Out": "bool"}, {"dim": [1], "keep_dim": False, "reduce_all": False})


@case("mean")
def _mean(c, t):
    c.op(t, {"X": [c.feed(c.randn(3, 4))]}, {"Out": "float32"})


@case("logsumexp")
def _logsumexp(c, t):
    c.op(t, {"X": [c.feed(c.randn(3, 4, 5, scale=4.0))]}, {"Out": "float32"},
         {"axis": [1], "keepdim": True, "reduce_all": False})


@case("p_norm")
def _p_norm(c, t):
    c.op(t, {"X": [c.feed(c.randn(3, 6))]}, {"Out": "float32"},
         {"porder": 3.0, "axis": 1, "keepdim": False, "epsilon": 1e-12, "asvector": False})


@case("norm")
def _norm(c, t):
    c.op(t, {"X": [c.feed(c.randn(2, 3, 4))]}, {"Out": "float32", "Norm": "float32"},
         {"axis": 1, "epsilon": 1e-10, "is_test": True}, fetch=["Out"])


@case("dist")
def _dist(c, t):
    c.op(t, {"X": [c.feed(c.randn(3, 4))], "Y": [c.feed(c.randn(4))]}, {"Out": "float32"}, {"p": 3.0})


@case("arg_max", "arg_min")
def _arg(c, t):
    c.op(t, {"X": [c.feed(c.randn(3, 5))]}, {"Out": "int64"},
         {"axis": Long(1), "keepdims": False, "flatten": False, "dtype": 3})


@case("argsort")
def _argsort(c, t):
    c.op(t, {"X": [c.feed(c.randn(3, 6))]}, {"Out": "float32", "Indices": "int64"},
         {"axis": -1, "descending": True})


@case("top_k")
def _top_k(c, t):
    c.op(t, {"X": [c.feed(c.randn(3, 7))]}, {"Out": "float32", "Indices": "int64"}, {"k": 3})


@case("top_k_v2")
def _top_k_v2(c, t):
    c.op(t, {"X": [c.feed(c.randn(4, 6))]}, {"Out": "float32", "Indices": "int64"},
         {"k": 2, "axis": 0, "largest": False, "sorted": True})



# ----------------------------------------------------------------- shapes
@case("reshape2")
def _reshape2(c, t):
    c.op(t, {"X": [c.feed(c.randn(2, 3, 4))]}, {"Out": "float32", "XShape": "float32"},
         {"shape": [0, -1, 2]}, fetch=["Out"])


@case("transpose2")
def _transpose2(c, t):
    c.op(t, {"X": [c.feed(c.randn(2, 3, 4))]}, {"Out": "float32", "XShape": "float32"},
         {"axis": [2, 0, 1]}, fetch=["Out"])


@case("squeeze2")
def _squeeze2(c, t):
    c.op(t, {"X": [c.feed(c.randn(2, 1, 4, 1))]}, {"Out": "float32", "XShape": "float32"},
         {"axes": [1, -1]}, fetch=["Out"])


@case("unsqueeze2")
def _unsqueeze2(c, t):
    c.op(t, {"X": [c.feed(c.randn(2, 4))]}, {"Out": "float32", "XShape": "float32"},
         {"axes": [0, 2]}, fetch=["Out"])


@case("flatten2")
def _flatten2(c, t):
    c.op(t, {"X": [c.feed(c.randn(2, 3, 4))]}, {"Out": "float32", "XShape": "float32"},
         {"axis": 2}, fetch=["Out"])


@case("flatten_contiguous_range")
def _flatten_range(c, t):
    c.op(t, {"X": [c.feed(c.randn(2, 3, 4, 5))]}, {"Out": "float32", "XShape": "float32"},
         {"start_axis": 1, "stop_axis": 2}, fetch=["Out"])


@case("concat")
def _concat(c, t):
    c.op(t, {"X": [c.feed(c.randn(2, 3)), c.feed(c.randn(2, 5))]}, {"Out": "float32"}, {"axis": 1})


@case("split")
def _split(c, t):
    c.op(t, {"X": [c.feed(c.randn(2, 7))]}, {"Out": ["float32"] * 3}, {"axis": 1, "num": 0,
                                                                       "sections": [2, 4, 1]})


@case("stack")
def _stack(c, t):
    c.op(t, {"X": [c.feed(c.randn(2, 3)), c.feed(c.randn(2, 3))]}, {"Y": "float32"}, {"axis": 1})


@case("unstack")
def _unstack(c, t):
    c.op(t, {"X": [c.feed(c.randn(2, 3, 4))]}, {"Y": ["float32"] * 3}, {"axis": 1, "num": 3})


@case("slice")
def _slice(c, t):
    c.op(t, {"Input": [c.feed(c.randn(4, 5, 6))]}, {"Out": "float32"},
         {"axes": [0, 2], "starts": [1, -4], "ends": [2, 100], "decrease_axis": [0], "infer_flags": [1, 1]})


@case("strided_slice")
def _strided_slice(c, t):
    c.op(t, {"Input": [c.feed(c.randn(5, 8))]}, {"Out": "float32"},
         {"axes": [0, 1], "starts": [4, 1], "ends": [-6, 8], "strides": [-2, 3], "infer_flags": [1, 1],
          "decrease_axis": []})


@case("tile")
def _tile(c, t):
    c.op(t, {"X": [c.feed(c.randn(2, 3))]}, {"Out": "float32"}, {"repeat_times": [2, 1, 3]})


@case("expand")
def _expand(c, t):
    c.op(t, {"X": [c.feed(c.randn(2, 1, 3))]}, {"Out": "float32"}, {"expand_times": [1, 4, 2]})


@case("expand_v2")
def _expand_v2(c, t):
    c.op(t, {"X": [c.feed(c.randn(3, 1))]}, {"Out": "float32"}, {"shape": [2, -1, 4]})


@case("expand_as_v2")
def _expand_as_v2(c, t):
    c.op(t, {"X": [c.feed(c.randn(1, 3))]}, {"Out": "float32"}, {"target_shape": [4, 3]})


@case("shape")
def _shape(c, t):
    c.op(t, {"Input": [c.feed(c.randn(2, 3, 5))]}, {"Out": "int32"})


@case("size")
def _size(c, t):
    c.op(t, {"Input": [c.feed(c.randn(2, 3, 5))]}, {"Out": "int64"})


@case("gather")
def _gather(c, t):
    c.op(t, {"X": [c.feed(c.randn(5, 3))], "Index": [c.feed(np.array([4, 0, 2, 2], I32))]}, {"Out": "float32"},
         {"overwrite": True})


@case("index_select")
def _index_select(c, t):
    c.op(t, {"X": [c.feed(c.randn(3, 5))], "Index": [c.feed(np.array([4, 1, 1], I64))]}, {"Out": "float32"},
         {"dim": 1})


@case("scatter")
def _scatter(c, t):
    c.op(t, {"X": [c.feed(c.randn(5, 3))], "Ids": [c.feed(np.array([3, 0, 3], I64))],
             "Updates": [c.feed(c.randn(3, 3))]}, {"Out": "float32"}, {"overwrite": False})


@case("scatter_nd_add")
def _scatter_nd_add(c, t):
    c.op(t, {"X": [c.feed(c.randn(4, 5))], "Index": [c.feed(np.array([[1, 2], [3, 0], [1, 2]], I64))],
             "Updates": [c.feed(c.randn(3))]}, {"Out": "float32"})


@case("where_index")
def _where_index(c, t):
    c.op(t, {"Condition": [c.feed(c.rng.integers(0, 2, (3, 4)).astype(bool))]}, {"Out": "int64"})


@case("masked_select")
def _masked_select(c, t):
    c.op(t, {"X": [c.feed(c.randn(3, 4))], "Mask": [c.feed(c.rng.integers(0, 2, (3, 4)).astype(bool))]},
         {"Y": "float32"})


@case("meshgrid")
def _meshgrid(c, t):
    c.op(t, {"X": [c.feed(c.randn(3)), c.feed(c.randn(4))]}, {"Out": ["float32", "float32"]})


@case("roll")
def _roll(c, t):
    c.op(t, {"X": [c.feed(c.randn(3, 5))]}, {"Out": "float32"}, {"shifts": Longs([2, -1]), "axis": Longs([0, 1])})


@case("range")
def _range(c, t):
    c.op(t, {"Start": [c.feed(np.array([1.5], F32))], "End": [c.feed(np.array([7.0], F32))],
             "Step": [c.feed(np.array([1.25], F32))]}, {"Out": "float32"})


@case("fill_constant")
def _fill_constant(c, t):
    out = c.op(t, {}, {"Out": "float32"}, {"shape": Longs([2, 3]), "value": 1.25, "dtype": 5,
                                           "str_value": "1.25"})
    c.plus_feed(out["Out"], (2, 3))


@case("fill_constant_batch_size_like")
def _fill_batch_like(c, t):
    c.op(t, {"Input": [c.feed(c.randn(3, 2))]}, {"Out": "float32"},
         {"shape": [-1, 4], "value": -2.5, "dtype": 5, "input_dim_idx": 0, "output_dim_idx": 0,
          "str_value": "-2.5"})


@case("fill_any_like")
def _fill_any_like(c, t):
    c.op(t, {"X": [c.feed(c.randn(2, 3))]}, {"Out": "int64"}, {"value": 7.0, "dtype": 3})


@case("assign_value")
def _assign_value(c, t):
    out = c.op(t, {}, {"Out": "float32"}, {"shape": [2, 2], "dtype": 5, "fp32_values": [1.0, -2.0, 0.5, 3.25]})
    c.plus_feed(out["Out"], (2, 2))


@case("pad2d")
def _pad2d(c, t):
    c.op(t, {"X": [c.feed(c.randn(1, 2, 3, 4))]}, {"Out": "float32"},
         {"paddings": [1, 0, 2, 1], "mode": "reflect", "pad_value": 0.0, "data_format": "NCHW"})


@case("pad3d")
def _pad3d(c, t):
    c.op(t, {"X": [c.feed(c.randn(1, 2, 2, 3, 4))]}, {"Out": "float32"},
         {"paddings": [1, 2, 0, 1, 1, 0], "mode": "constant", "value": 0.5, "data_format": "NCDHW"})


@case("pixel_shuffle")
def _pixel_shuffle(c, t):
    c.op(t, {"X": [c.feed(c.randn(1, 8, 2, 3))]}, {"Out": "float32"}, {"upscale_factor": 2,
                                                                        "data_format": "NCHW"})


@case("unique")
def _unique(c, t):
    c.op(t, {"X": [c.feed(np.array([3, 1, 3, 7, 1, 0], I64))]},
         {"Out": "int64", "Indices": "int64", "Index": "int64", "Counts": "int64"},
         {"dtype": 3, "return_index": True, "return_inverse": True, "return_counts": True, "axis": [],
          "is_sorted": True})


@case("uniform_random")
def _uniform_random(c, t):
    out = c.op(t, {}, {"Out": "float32"}, {"shape": Longs([3, 4]), "min": -1.0, "max": 2.0, "seed": 7, "dtype": 5})
    c.plus_feed(out["Out"], (3, 4))


@case("uniform_random_batch_size_like")
def _uniform_random_batch_like(c, t):
    c.op(t, {"Input": [c.feed(c.randn(2, 3))]}, {"Out": "float32"},
         {"shape": [-1, 5], "min": 0.0, "max": 1.0, "seed": 11, "dtype": 5, "input_dim_idx": 0,
          "output_dim_idx": 0})


# ---------------------------------------------------------------- products
@case("matmul")
def _matmul(c, t):
    c.op(t, {"X": [c.feed(c.randn(2, 4, 3))], "Y": [c.feed(c.randn(2, 5, 4))]}, {"Out": "float32"},
         {"transpose_X": True, "transpose_Y": True, "alpha": 0.5})


@case("matmul_v2")
def _matmul_v2(c, t):
    c.op(t, {"X": [c.feed(c.randn(2, 3, 4))], "Y": [c.feed(c.randn(4, 5))]}, {"Out": "float32"},
         {"trans_x": False, "trans_y": False})


@case("mul")
def _mul(c, t):
    c.op(t, {"X": [c.feed(c.randn(2, 3, 4))], "Y": [c.param(c.randn(12, 5))]}, {"Out": "float32"},
         {"x_num_col_dims": 1, "y_num_col_dims": 1})


@case("bmm")
def _bmm(c, t):
    c.op(t, {"X": [c.feed(c.randn(3, 2, 4))], "Y": [c.feed(c.randn(3, 4, 5))]}, {"Out": "float32"})


@case("dot")
def _dot(c, t):
    c.op(t, {"X": [c.feed(c.randn(3, 6))], "Y": [c.feed(c.randn(3, 6))]}, {"Out": "float32"})


@case("mv")
def _mv(c, t):
    c.op(t, {"X": [c.feed(c.randn(4, 6))], "Vec": [c.feed(c.randn(6))]}, {"Out": "float32"})


def one_program(types, directory):
    """All `types` in one program; returns the values to feed."""
    b = ProgramBuilder()
    inputs = {}
    for t in types:
        c = Case(b, t)
        CASES[t](c, t)
        inputs.update(c.inputs)
    b.save(directory)
    return inputs
