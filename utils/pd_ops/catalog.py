"""The pd op catalogue: one entry per Paddle operator type.

This table is the source of truth for the generated ODS
(include/PaddleMLIR/Dialect/Pd/IR/PdOpsGenerated.td). Each entry keeps
Paddle's operator name, input/output slot names in order, and attribute names,
kinds and defaults. Regenerate with `utils/pd_ops/gen_ods.py --write`.

Slot spec: "Name:kind" with kind one of any, float, int, index, bool, num,
quant; a trailing "?" marks an optional slot, "*" a variadic (list) slot.
"Name=OdsName:kind" renames the ODS operand when Paddle's slot name clashes
with an attribute getter (e.g. reshape2's input `Shape` vs attribute `shape`).

Attribute spec: A(name, kind, default, **constraints) with kind one of
i32, i64, f32, f64, bool, str, ints, longs, floats, strs; default None means
the attribute is required. Constraints: min (i32/i64), choices (str),
elem_min (ints), sizes (ints: allowed lengths), range (f32: (lo, hi)).

FOLDERS and CANONICALIZERS name the ops with a hand-written folder
(lib/Dialect/Pd/IR/PdFolders.cpp) or canonicalization patterns
(lib/Dialect/Pd/IR/PdCanonicalize.cpp).

infer: "same:X" (result type of slot X), "bool:X" (X's shape with i1
elements), "bcast" (Paddle elementwise broadcast of X and Y, axis
attribute), "cmp" (bcast with i1 result), or "custom" (hand-written in lib/Dialect/Pd/IR/PdShapeFns.cpp).
"""

from collections import namedtuple

Attr = namedtuple("Attr", "name kind default constraints")
Op = namedtuple("Op", "name ins outs attrs infer summary example")


def A(name, kind, default=None, **constraints):
    return Attr(name, kind, default, constraints)


DATA_FORMAT = ("NCHW", "NHWC", "AnyLayout")
PAD_ALGO = ("EXPLICIT", "SAME", "VALID")


def conv_attrs(extra=()):
    return [
        A("strides", "ints", [1, 1], elem_min=1, sizes=[2]),
        A("paddings", "ints", [0, 0], elem_min=0, sizes=[2, 4]),
        A("padding_algorithm", "str", "EXPLICIT", choices=PAD_ALGO),
        A("groups", "i32", 1, min=1),
        A("dilations", "ints", [1, 1], elem_min=1, sizes=[2]),
        A("data_format", "str", "NCHW", choices=DATA_FORMAT),
    ] + list(extra)


def unary(name, summary, attrs=(), kind="float"):
    return Op(name, ["X:" + kind], ["Out:" + kind], list(attrs), "same:X", summary,
              f"%y = pd.{name} %x : (tensor<?x64xf32>) -> tensor<?x64xf32>")


def binary(name, summary, kind="num"):
    return Op(name, ["X:" + kind, "Y:" + kind], ["Out:" + kind], [A("axis", "i32", -1, min=-1)], "bcast",
              summary,
              f"%z = pd.{name} %x, %b {{axis = 1 : i32}} : (tensor<?x64x7x7xf32>, tensor<64xf32>) -> tensor<?x64x7x7xf32>")


def compare(name, summary):
    return Op(name, ["X:any", "Y:any"], ["Out:bool"], [A("axis", "i32", -1, min=-1)], "cmp", summary,
              f"%m = pd.{name} %x, %y : (tensor<?x8xf32>, tensor<?x8xf32>) -> tensor<?x8xi1>")


def reduce(name, summary):
    return Op(name, ["X:num"], ["Out:num"],
              [A("dim", "ints", [0]), A("keep_dim", "bool", False), A("reduce_all", "bool", False),
               A("in_dtype", "i32", -1), A("out_dtype", "i32", -1)],
              "custom", summary,
              f"%s = pd.{name} %x {{dim = array<i32: 1>, keep_dim = true}} : (tensor<?x128xf32>) -> tensor<?x1xf32>")


def interp(name, method):
    """Paddle 2.x interpolation: `scale` is [scale_h, scale_w] and, when given,
    also sets the source-coordinate ratio (1 / scale)."""
    return Op(name, ["X:float", "OutSize=OutSizeInput:index?", "SizeTensor:index*", "Scale=ScaleInput:float?"],
              ["Out:float"],
              [A("data_layout", "str", "NCHW", choices=DATA_FORMAT + ("NCDHW", "NDHWC")),
               A("out_d", "i32", -1), A("out_h", "i32", -1), A("out_w", "i32", -1),
               A("scale", "floats", []),
               A("interp_method", "str", method, choices=("bilinear", "nearest", "bicubic", "linear", "trilinear")),
               A("align_corners", "bool", True), A("align_mode", "i32", 1, min=0)],
              "custom", f"{method} interpolation (resize) of an NCHW/NHWC image batch",
              f"%y = pd.{name} %x {{out_h = 64 : i32, out_w = 64 : i32}} : (tensor<1x3x32x32xf32>) -> tensor<1x3x64x64xf32>")


def interp_v1(name, method):
    """Fluid 1.x interpolation (interpolate_op.cc): one scalar `scale` that only
    sets the output size; the ratio always comes from the sizes."""
    return Op(name, ["X:float", "OutSize=OutSizeInput:index?", "SizeTensor:index*", "Scale=ScaleInput:float?"],
              ["Out:float"],
              [A("data_layout", "str", "NCHW", choices=DATA_FORMAT + ("NCDHW", "NDHWC")),
               A("out_d", "i32", 0), A("out_h", "i32", 0), A("out_w", "i32", 0),
               A("scale", "f32", 0.0),
               A("interp_method", "str", method, choices=("bilinear", "nearest", "bicubic", "linear", "trilinear")),
               A("align_corners", "bool", True), A("align_mode", "i32", 1, min=0)],
              "custom", f"Fluid 1.x {method} interpolation (resize) of an NCHW/NHWC image batch",
              f"%y = pd.{name} %x {{out_h = 64 : i32, out_w = 64 : i32}} : (tensor<1x3x32x32xf32>) -> tensor<1x3x64x64xf32>")

FAKE_QUANT_MA = [A("moving_rate", "f32", 0.9, range=("0.0", "1.0")), A("bit_length", "i32", 8, min=1),
                 A("is_test", "bool", False), A("round_type", "i32", 1, min=0)]

OPS = [
    # ---------------------------------------------------------------- conv / norm / pool
    Op("conv2d", ["Input:float", "Filter:float"], ["Output:float"], conv_attrs(), "custom",
       "2-D convolution over NCHW or NHWC input with groups and dilations",
       "%y = pd.conv2d %x, %w {paddings = array<i32: 1, 1>} : (tensor<?x3x224x224xf32>, tensor<32x3x3x3xf32>) -> tensor<?x32x224x224xf32>"),
    Op("depthwise_conv2d", ["Input:float", "Filter:float"], ["Output:float"], conv_attrs(), "custom",
       "depthwise 2-D convolution (groups equal to input channels)",
       "%y = pd.depthwise_conv2d %x, %w {groups = 32 : i32} : (tensor<?x32x112x112xf32>, tensor<32x1x3x3xf32>) -> tensor<?x32x110x110xf32>"),
    Op("conv2d_transpose", ["Input:float", "Filter:float"], ["Output:float"],
       conv_attrs([A("output_padding", "ints", [], elem_min=0), A("output_size", "ints", [], elem_min=1)]), "custom",
       "transposed 2-D convolution (filter layout [C_in, C_out/groups, kH, kW])",
       "%y = pd.conv2d_transpose %x, %w {strides = array<i32: 2, 2>} : (tensor<1x16x8x8xf32>, tensor<16x8x2x2xf32>) -> tensor<1x8x16x16xf32>"),
    Op("batch_norm", ["X:float", "Scale:float", "Bias:float", "Mean:float", "Variance:float"], ["Y:float"],
       [A("epsilon", "f32", 1e-5, range=("0.0", "0.001")), A("momentum", "f32", 0.9),
        A("data_layout", "str", "NCHW", choices=DATA_FORMAT), A("is_test", "bool", False),
        A("use_global_stats", "bool", False), A("trainable_statistics", "bool", False)],
       "custom", "batch normalization with per-channel scale, bias and running statistics",
       "%y = pd.batch_norm %x, %s, %b, %m, %v : (tensor<?x32x56x56xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>) -> tensor<?x32x56x56xf32>"),
    Op("layer_norm", ["X:float", "Scale:float?", "Bias:float?"], ["Y:float"],
       [A("epsilon", "f32", 1e-5, range=("0.0", "0.001")), A("begin_norm_axis", "i32", 1, min=0)],
       "custom", "layer normalization over the dims from begin_norm_axis on",
       "%y = pd.layer_norm %x Scale(%g) Bias(%b) {begin_norm_axis = 2 : i32} : (tensor<?x128x768xf32>, tensor<768xf32>, tensor<768xf32>) -> tensor<?x128x768xf32>"),
    Op("instance_norm", ["X:float", "Scale:float?", "Bias:float?"], ["Y:float"],
       [A("epsilon", "f32", 1e-5, range=("0.0", "0.001"))],
       "custom", "instance normalization per sample and channel",
       "%y = pd.instance_norm %x Scale(%g) Bias(%b) : (tensor<?x16x8x8xf32>, tensor<16xf32>, tensor<16xf32>) -> tensor<?x16x8x8xf32>"),
    Op("group_norm", ["X:float", "Scale:float?", "Bias:float?"], ["Y:float"],
       [A("epsilon", "f32", 1e-5, range=("0.0", "1.0")), A("groups", "i32", 1, min=1),
        A("data_layout", "str", "NCHW", choices=DATA_FORMAT)],
       "custom", "group normalization over channel groups",
       "%y = pd.group_norm %x Scale(%g) Bias(%b) {groups = 4 : i32} : (tensor<?x16x8x8xf32>, tensor<16xf32>, tensor<16xf32>) -> tensor<?x16x8x8xf32>"),
    Op("pool2d", ["X:float"], ["Out:float"],
       [A("pooling_type", "str", "max", choices=("max", "avg")), A("ksize", "ints", None, elem_min=0, sizes=[2]),
        A("global_pooling", "bool", False), A("strides", "ints", [1, 1], elem_min=1, sizes=[2]),
        A("paddings", "ints", [0, 0], elem_min=0, sizes=[2, 4]), A("exclusive", "bool", True),
        A("adaptive", "bool", False), A("ceil_mode", "bool", False),
        A("data_format", "str", "NCHW", choices=DATA_FORMAT),
        A("padding_algorithm", "str", "EXPLICIT", choices=PAD_ALGO)],
       "custom", "2-D max or average pooling, global or adaptive",
       "%y = pd.pool2d %x {ksize = array<i32: 2, 2>, strides = array<i32: 2, 2>} : (tensor<?x64x56x56xf32>) -> tensor<?x64x28x28xf32>"),
    Op("affine_channel", ["X:float", "Scale:float", "Bias:float"], ["Out:float"],
       [A("data_layout", "str", "AnyLayout", choices=DATA_FORMAT)], "custom",
       "per-channel affine transform x * scale + bias",
       "%y = pd.affine_channel %x, %s, %b : (tensor<?x32x8x8xf32>, tensor<32xf32>, tensor<32xf32>) -> tensor<?x32x8x8xf32>"),
    Op("pad3d", ["X:num", "Paddings=PaddingsInput:index?"], ["Out:num"],
       [A("paddings", "ints", [0, 0, 0, 0, 0, 0], elem_min=0, sizes=[6]),
        A("mode", "str", "constant", choices=("constant", "reflect", "replicate", "circular")),
        A("value", "f32", 0.0), A("data_format", "str", "NCDHW", choices=("NCDHW", "NDHWC"))],
       "custom", "padding of the three innermost spatial dims of a 5-D tensor",
       "%y = pd.pad3d %x {paddings = array<i32: 1, 1, 1, 1, 0, 0>} : (tensor<1x3x1x8x8xf32>) -> tensor<1x3x1x10x10xf32>"),
    interp("bilinear_interp_v2", "bilinear"),
    interp("nearest_interp_v2", "nearest"),
    interp_v1("bilinear_interp", "bilinear"),
    interp_v1("nearest_interp", "nearest"),
    # ---------------------------------------------------------------- activations
    unary("relu", "rectified linear unit max(x, 0)"),
    unary("relu6", "min(max(x, 0), threshold)", [A("threshold", "f32", 6.0)]),
    unary("leaky_relu", "x if x > 0 else alpha * x", [A("alpha", "f32", 0.02)]),
    Op("prelu", ["X:float", "Alpha:float"], ["Out:float"],
       [A("mode", "str", "all", choices=("all", "channel", "element")),
        A("data_format", "str", "NCHW", choices=DATA_FORMAT)],
       "custom", "parametric ReLU with a learned slope (all, per channel or per element)",
       "%y = pd.prelu %x, %a {mode = \"channel\"} : (tensor<?x16x8x8xf32>, tensor<16xf32>) -> tensor<?x16x8x8xf32>"),
    unary("sigmoid", "logistic function 1 / (1 + exp(-x))"),
    unary("tanh", "hyperbolic tangent"),
    unary("gelu", "Gaussian error linear unit (erf form, or tanh approximation)", [A("approximate", "bool", False)]),
    unary("swish", "x * sigmoid(beta * x)", [A("beta", "f32", 1.0)]),
    unary("hard_swish", "x * min(max(x + offset, 0), threshold) / scale",
          [A("threshold", "f32", 6.0), A("scale", "f32", 6.0), A("offset", "f32", 3.0)]),
    unary("hard_sigmoid", "min(max(slope * x + offset, 0), 1)", [A("slope", "f32", 0.2), A("offset", "f32", 0.5)]),
    unary("exp", "elementwise e^x"),
    unary("log", "elementwise natural logarithm"),
    unary("sqrt", "elementwise square root"),
    unary("rsqrt", "elementwise 1 / sqrt(x)"),
    unary("abs", "elementwise absolute value", kind="num"),
    unary("square", "elementwise x * x", kind="num"),
    unary("erf", "elementwise Gauss error function"),
    unary("sin", "elementwise sine"),
    unary("cos", "elementwise cosine"),
    unary("tan", "elementwise tangent"),
    unary("asin", "elementwise arcsine"),
    unary("acos", "elementwise arccosine"),
    unary("atan", "elementwise arctangent"),
    unary("sinh", "elementwise hyperbolic sine"),
    unary("cosh", "elementwise hyperbolic cosine"),
    unary("asinh", "elementwise inverse hyperbolic sine"),
    unary("acosh", "elementwise inverse hyperbolic cosine"),
    unary("atanh", "elementwise inverse hyperbolic tangent"),
    unary("floor", "elementwise round toward negative infinity"),
    unary("ceil", "elementwise round toward positive infinity"),
    unary("reciprocal", "elementwise 1 / x"),
    unary("sign", "elementwise sign (-1, 0 or 1)", kind="num"),
    unary("softsign", "x / (1 + |x|)"),
    unary("softplus", "log(1 + exp(beta * x)) / beta, x itself where beta * x > threshold",
          [A("beta", "f32", 1.0), A("threshold", "f32", 20.0)]),
    unary("elu", "x if x > 0 else alpha * (exp(x) - 1)", [A("alpha", "f32", 1.0)]),
    unary("selu", "scale * (x if x > 0 else alpha * (exp(x) - 1))",
          [A("scale", "f32", 1.0507009873554805), A("alpha", "f32", 1.6732632423543772)]),
    unary("celu", "max(x, 0) + min(0, alpha * (exp(x / alpha) - 1))", [A("alpha", "f32", 1.0)]),
    unary("thresholded_relu", "x if x > threshold else 0", [A("threshold", "f32", 1.0)]),
    Op("isinf_v2", ["X:float"], ["Out:bool"], [], "bool:X", "elementwise test for +-infinity",
       "%m = pd.isinf_v2 %x : (tensor<?x64xf32>) -> tensor<?x64xi1>"),
    Op("isnan_v2", ["X:float"], ["Out:bool"], [], "bool:X", "elementwise test for NaN",
       "%m = pd.isnan_v2 %x : (tensor<?x64xf32>) -> tensor<?x64xi1>"),
    Op("pow", ["X:float", "FactorTensor:float?"], ["Out:float"], [A("factor", "f32", 1.0)], "same:X",
       "elementwise x ^ factor",
       "%y = pd.pow %x {factor = 2.0 : f32} : (tensor<?x64xf32>) -> tensor<?x64xf32>"),
    Op("softmax", ["X:float"], ["Out:float"], [A("axis", "i32", -1)], "custom", "softmax along an axis",
       "%y = pd.softmax %x : (tensor<?x1000xf32>) -> tensor<?x1000xf32>"),
    Op("log_softmax", ["X:float"], ["Out:float"], [A("axis", "i32", -1)], "custom", "log of softmax along an axis",
       "%y = pd.log_softmax %x {axis = 1 : i32} : (tensor<?x10xf32>) -> tensor<?x10xf32>"),
    # ---------------------------------------------------------------- elementwise binary
    binary("elementwise_add", "elementwise x + y with Paddle broadcasting"),
    binary("elementwise_sub", "elementwise x - y with Paddle broadcasting"),
    binary("elementwise_mul", "elementwise x * y with Paddle broadcasting"),
    binary("elementwise_div", "elementwise x / y with Paddle broadcasting"),
    binary("elementwise_max", "elementwise max(x, y) with Paddle broadcasting"),
    binary("elementwise_min", "elementwise min(x, y) with Paddle broadcasting"),
    binary("elementwise_pow", "elementwise x ^ y with Paddle broadcasting"),
    binary("elementwise_mod", "elementwise x mod y (sign of y) with Paddle broadcasting"),
    binary("elementwise_floordiv", "elementwise floor(x / y) with Paddle broadcasting"),
    Op("bitwise_left_shift", ["X:int", "Y:int"], ["Out:int"],
       [A("axis", "i32", -1, min=-1), A("is_arithmetic", "bool", True)], "bcast",
       "elementwise x << y (0 once y reaches the bit width) with Paddle broadcasting",
       "%z = pd.bitwise_left_shift %x, %y : (tensor<?x8xi32>, tensor<?x8xi32>) -> tensor<?x8xi32>"),
    Op("bitwise_right_shift", ["X:int", "Y:int"], ["Out:int"],
       [A("axis", "i32", -1, min=-1), A("is_arithmetic", "bool", True)], "bcast",
       "elementwise x >> y: arithmetic (sign fill) when is_arithmetic and x is signed, else logical; "
       "a shift of the bit width or more leaves only the fill",
       "%z = pd.bitwise_right_shift %x, %y : (tensor<?x8xi32>, tensor<?x8xi32>) -> tensor<?x8xi32>"),
    # ---------------------------------------------------------------- matmul family
    Op("mul", ["X:float", "Y:float"], ["Out:float"],
       [A("x_num_col_dims", "i32", 1, min=1), A("y_num_col_dims", "i32", 1, min=1)], "custom",
       "matrix product of X and Y flattened to 2-D at x_num_col_dims / y_num_col_dims",
       "%y = pd.mul %x, %w : (tensor<?x1024xf32>, tensor<1024x1000xf32>) -> tensor<?x1000xf32>"),
    Op("matmul", ["X:float", "Y:float"], ["Out:float"],
       [A("transpose_X", "bool", False), A("transpose_Y", "bool", False), A("alpha", "f32", 1.0)], "custom",
       "batched matrix product alpha * op(X) * op(Y) (Paddle 1.x)",
       "%y = pd.matmul %q, %k {transpose_Y = true, alpha = 0.125 : f32} : (tensor<?x12x128x64xf32>, tensor<?x12x128x64xf32>) -> tensor<?x12x128x128xf32>"),
    Op("matmul_v2", ["X:float", "Y:float"], ["Out:float"],
       [A("trans_x", "bool", False), A("trans_y", "bool", False)], "custom",
       "batched matrix product with numpy broadcasting of batch dims",
       "%y = pd.matmul_v2 %x, %w : (tensor<?x128x768xf32>, tensor<768x768xf32>) -> tensor<?x128x768xf32>"),
    Op("scale", ["X:num", "ScaleTensor:float?"], ["Out:num"],
       [A("scale", "f32", 1.0), A("bias", "f32", 0.0), A("bias_after_scale", "bool", True)], "same:X",
       "x * scale + bias (or (x + bias) * scale)",
       "%y = pd.scale %x {scale = 0.5 : f32} : (tensor<?x64xf32>) -> tensor<?x64xf32>"),
    Op("clip", ["X:num", "Min=MinInput:float?", "Max=MaxInput:float?"], ["Out:num"],
       [A("min", "f32", None), A("max", "f32", None)], "custom", "clamps x to [min, max]",
       "%y = pd.clip %x {min = 0.0 : f32, max = 6.0 : f32} : (tensor<?x64xf32>) -> tensor<?x64xf32>"),
    Op("dropout", ["X:float", "Seed=SeedInput:int?"], ["Out:float"],
       [A("dropout_prob", "f32", 0.5, range=("0.0", "1.0")), A("is_test", "bool", False),
        A("dropout_implementation", "str", "downgrade_in_infer", choices=("downgrade_in_infer", "upscale_in_train")),
        A("fix_seed", "bool", False), A("seed", "i32", 0)], "same:X",
       "dropout; at inference the identity (upscale_in_train) or x * (1 - p) (downgrade_in_infer)",
       "%y = pd.dropout %x {dropout_prob = 0.1 : f32, is_test = true} : (tensor<?x64xf32>) -> tensor<?x64xf32>"),
    Op("cast", ["X:any"], ["Out:any"], [A("in_dtype", "i32", None, min=0), A("out_dtype", "i32", None, min=0)],
       "custom", "converts the element type (in_dtype/out_dtype are Paddle VarType codes)",
       "%y = pd.cast %x {in_dtype = 5 : i32, out_dtype = 3 : i32} : (tensor<?x4xf32>) -> tensor<?x4xi64>"),
    # ---------------------------------------------------------------- shape manipulation
    Op("reshape2", ["X:any", "Shape=ShapeInput:index?", "ShapeTensor:index*"], ["Out:any"],
       [A("shape", "ints", [])], "custom",
       "reshape; 0 copies the input dim, -1 is inferred",
       "%y = pd.reshape2 %x {shape = array<i32: 0, -1, 12, 64>} : (tensor<?x128x768xf32>) -> tensor<?x128x12x64xf32>"),
    Op("transpose2", ["X:any"], ["Out:any"],
       [A("axis", "ints", None), A("data_format", "str", "AnyLayout", choices=DATA_FORMAT)], "custom",
       "permutes the dims of x",
       "%y = pd.transpose2 %x {axis = array<i32: 0, 2, 1, 3>} : (tensor<?x128x12x64xf32>) -> tensor<?x12x128x64xf32>"),
    Op("flatten_contiguous_range", ["X:any"], ["Out:any"],
       [A("start_axis", "i32", 1), A("stop_axis", "i32", 1)], "custom", "merges dims start_axis..stop_axis",
       "%y = pd.flatten_contiguous_range %x {stop_axis = 3 : i32} : (tensor<?x64x7x7xf32>) -> tensor<?x3136xf32>"),
    Op("flatten2", ["X:any"], ["Out:any"], [A("axis", "i32", 1, min=0)], "custom",
       "flattens to 2-D: dims before axis and dims from axis on",
       "%y = pd.flatten2 %x : (tensor<?x64x7x7xf32>) -> tensor<?x3136xf32>"),
    Op("squeeze2", ["X:any"], ["Out:any"], [A("axes", "ints", [])], "custom",
       "removes size-1 dims (the listed ones, or all when axes is empty)",
       "%y = pd.squeeze2 %x {axes = array<i32: 2, 3>} : (tensor<?x1000x1x1xf32>) -> tensor<?x1000xf32>"),
    Op("unsqueeze2", ["X:any", "AxesTensor:index?", "AxesTensorList:index*"], ["Out:any"],
       [A("axes", "ints", [])], "custom", "inserts size-1 dims at the listed positions",
       "%y = pd.unsqueeze2 %x {axes = array<i32: 1, 2>} : (tensor<?x128xi64>) -> tensor<?x1x1x128xi64>"),
    Op("concat", ["X:any*", "AxisTensor:index?"], ["Out:any"], [A("axis", "i32", 0)], "custom",
       "concatenates tensors along an axis",
       "%y = pd.concat [%a, %b] {axis = 1 : i32} : (tensor<?x16x8x8xf32>, tensor<?x32x8x8xf32>) -> tensor<?x48x8x8xf32>"),
    Op("split", ["X:any", "AxisTensor:index?", "SectionsTensorList:index*"], ["Out:any*"],
       [A("num", "i32", 0, min=0), A("sections", "ints", []), A("axis", "i32", 0)], "custom",
       "splits a tensor along an axis into num equal parts or the given sections",
       "%a, %b = pd.split %x {num = 2 : i32, axis = 1 : i32} : (tensor<?x64xf32>) -> (tensor<?x32xf32>, tensor<?x32xf32>)"),
    Op("slice", ["Input:any", "StartsTensor:index?", "EndsTensor:index?", "StartsTensorList:index*",
                 "EndsTensorList:index*"], ["Out:any"],
       [A("axes", "ints", None), A("starts", "ints", []), A("ends", "ints", []), A("infer_flags", "ints", []),
        A("decrease_axis", "ints", [])], "custom", "takes [start, end) along the listed axes",
       "%y = pd.slice %x {axes = array<i32: 1>, starts = array<i32: 0>, ends = array<i32: 1>, decrease_axis = array<i32: 1>} : (tensor<?x128x768xf32>) -> tensor<?x768xf32>"),
    Op("strided_slice", ["Input:any", "StartsTensor:index?", "EndsTensor:index?", "StridesTensor:index?",
                         "StartsTensorList:index*", "EndsTensorList:index*", "StridesTensorList:index*"], ["Out:any"],
       [A("axes", "ints", None), A("starts", "ints", []), A("ends", "ints", []), A("strides", "ints", []),
        A("infer_flags", "ints", []), A("decrease_axis", "ints", [])], "custom",
       "takes every stride-th element of [start, end) along the listed axes",
       "%y = pd.strided_slice %x {axes = array<i32: 1>, starts = array<i32: 0>, ends = array<i32: 8>, strides = array<i32: 2>} : (tensor<?x8xf32>) -> tensor<?x4xf32>"),
    Op("einsum", ["Operands:num*"], ["Out:num"], [A("equation", "str", None)], "custom",
       "Einstein summation over the operands (numpy notation, \"...\" broadcasts)",
       "%y = pd.einsum [%a, %b] {equation = \"bij,bjk->bik\"} : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>"),
    Op("stack", ["X:any*"], ["Y:any"], [A("axis", "i32", 0)], "custom", "stacks same-shaped tensors on a new axis",
       "%y = pd.stack [%a, %b] {axis = 1 : i32} : (tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x2x4xf32>"),
    Op("unstack", ["X:any"], ["Y:any*"], [A("axis", "i32", 0), A("num", "i32", 0, min=0)], "custom",
       "splits a tensor into its slices along an axis, removing that axis",
       "%a, %b = pd.unstack %x {axis = 1 : i32, num = 2 : i32} : (tensor<?x2x4xf32>) -> (tensor<?x4xf32>, tensor<?x4xf32>)"),
    Op("expand_v2", ["X:any", "Shape=ShapeInput:index?", "expand_shapes_tensor:index*"], ["Out:any"],
       [A("shape", "ints", [])], "custom", "broadcasts x to a shape (-1 keeps the input dim)",
       "%y = pd.expand_v2 %x {shape = array<i32: 4, -1, 8>} : (tensor<1x1x8xf32>) -> tensor<4x1x8xf32>"),
    Op("tile", ["X:any", "RepeatTimes=RepeatTimesInput:index?", "repeat_times_tensor:index*"], ["Out:any"],
       [A("repeat_times", "ints", [], elem_min=1)], "custom", "repeats x along each dim",
       "%y = pd.tile %x {repeat_times = array<i32: 2, 3>} : (tensor<2x4xf32>) -> tensor<4x12xf32>"),
    Op("gather", ["X:any", "Index:index", "Axis=AxisInput:index?"], ["Out:any"], [A("axis", "i32", 0)], "custom",
       "takes the slices of x at the given indices along an axis",
       "%y = pd.gather %x, %i : (tensor<100x16xf32>, tensor<?xi64>) -> tensor<?x16xf32>"),
    Op("gather_nd", ["X:any", "Index:index"], ["Out:any"], [], "custom",
       "gathers slices of x addressed by the last dim of index",
       "%y = pd.gather_nd %x, %i : (tensor<4x5x6xf32>, tensor<?x2xi64>) -> tensor<?x6xf32>"),
    Op("scatter_nd_add", ["X:num", "Index:index", "Updates:num"], ["Out:num"], [], "same:X",
       "adds each update slice into x at the index tuple along Index's last dim",
       "%y = pd.scatter_nd_add %x, %i, %u : (tensor<4x5xf32>, tensor<3x1xi64>, tensor<3x5xf32>) -> tensor<4x5xf32>"),
    Op("take_along_axis", ["Input:any", "Index:index"], ["Result:any"], [A("Axis", "i32", 0)], "custom",
       "picks elements of input along an axis at the positions in index (index has input's rank)",
       "%y = pd.take_along_axis %x, %i {Axis = 1 : i32} : (tensor<4x5xf32>, tensor<4x2xi64>) -> tensor<4x2xf32>"),
    Op("tril_triu", ["X:any"], ["Out:any"], [A("diagonal", "i32", 0), A("lower", "bool", True)], "same:X",
       "keeps the lower (or upper) triangle of the last two dims from a diagonal offset, zeroes the rest",
       "%y = pd.tril_triu %x {lower = false} : (tensor<?x4x4xf32>) -> tensor<?x4x4xf32>"),
    Op("flip", ["X:any"], ["Out:any"], [A("axis", "ints", None)], "same:X", "reverses x along the listed dims",
       "%y = pd.flip %x {axis = array<i32: 1>} : (tensor<?x8xf32>) -> tensor<?x8xf32>"),
    Op("lookup_table", ["W:float", "Ids:index"], ["Out:float"],
       [A("padding_idx", "i64", -1), A("is_sparse", "bool", False)], "custom",
       "embedding lookup; Ids has a trailing dim of 1 (Paddle 1.x)",
       "%y = pd.lookup_table %w, %ids : (tensor<1000x64xf32>, tensor<?x1xi64>) -> tensor<?x64xf32>"),
    Op("lookup_table_v2", ["W:float", "Ids:index"], ["Out:float"],
       [A("padding_idx", "i64", -1), A("is_sparse", "bool", False)], "custom",
       "embedding lookup; the output appends the embedding dim to Ids' shape",
       "%y = pd.lookup_table_v2 %w, %ids : (tensor<30522x768xf32>, tensor<?x128xi64>) -> tensor<?x128x768xf32>"),
    Op("one_hot_v2", ["X:index", "depth_tensor:index?"], ["Out:float"],
       [A("depth", "i32", -1), A("dtype", "i32", 5, min=0), A("allow_out_of_range", "bool", False)], "custom",
       "one-hot encoding with depth classes appended as the last dim",
       "%y = pd.one_hot_v2 %x {depth = 10 : i32} : (tensor<?xi64>) -> tensor<?x10xf32>"),
    # ---------------------------------------------------------------- creation
    Op("fill_constant", ["ValueTensor:num?", "ShapeTensor:index?", "ShapeTensorList:index*"], ["Out:any"],
       [A("shape", "longs", []), A("value", "f32", 0.0), A("str_value", "str", ""), A("dtype", "i32", 5, min=0),
        A("force_cpu", "bool", False)], "custom", "a tensor of the given shape filled with one value",
       "%y = pd.fill_constant {shape = array<i64: 2, 3>, value = 1.0 : f32} : () -> tensor<2x3xf32>"),
    Op("fill_any_like", ["X:any"], ["Out:any"], [A("value", "f32", 0.0), A("dtype", "i32", -1, min=-1)], "custom",
       "a tensor shaped like x filled with one value (dtype -1 keeps x's type)",
       "%y = pd.fill_any_like %x {value = 1.0 : f32} : (tensor<?x4xf32>) -> tensor<?x4xf32>"),
    Op("shape", ["Input:any"], ["Out:any"], [], "custom", "the shape of the input as a 1-D i32 tensor",
       "%s = pd.shape %x : (tensor<?x3x224x224xf32>) -> tensor<4xi32>"),
    Op("range", ["Start:num", "End:num", "Step:num"], ["Out:num"], [], "custom",
       "the 1-D sequence start, start + step, ... below end",
       "%y = pd.range %s, %e, %st : (tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<?xi64>"),
    Op("assign", ["X:any"], ["Out:any"], [], "same:X", "copies x",
       "%y = pd.assign %x : (tensor<?x4xf32>) -> tensor<?x4xf32>"),
    # ---------------------------------------------------------------- reductions / index ops
    reduce("reduce_mean", "mean over the listed dims"),
    reduce("reduce_sum", "sum over the listed dims"),
    reduce("reduce_max", "maximum over the listed dims"),
    reduce("reduce_min", "minimum over the listed dims"),
    reduce("reduce_prod", "product over the listed dims"),
    Op("mean", ["X:float"], ["Out:float"], [], "custom", "mean of all elements, as a 1-element tensor",
       "%y = pd.mean %x : (tensor<?x10xf32>) -> tensor<1xf32>"),
    Op("sum", ["X:num*"], ["Out:num"], [], "custom", "elementwise sum of same-shaped tensors",
       "%y = pd.sum [%a, %b, %c] : (tensor<?x4xf32>, tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>"),
    Op("arg_max", ["X:num"], ["Out:index"],
       [A("axis", "i64", 0), A("keepdims", "bool", False), A("flatten", "bool", False), A("dtype", "i32", 3)],
       "custom", "index of the maximum along an axis",
       "%y = pd.arg_max %x {axis = 1 : i64} : (tensor<?x1000xf32>) -> tensor<?xi64>"),
    Op("arg_min", ["X:num"], ["Out:index"],
       [A("axis", "i64", 0), A("keepdims", "bool", False), A("flatten", "bool", False), A("dtype", "i32", 3)],
       "custom", "index of the minimum along an axis",
       "%y = pd.arg_min %x {axis = 1 : i64} : (tensor<?x1000xf32>) -> tensor<?xi64>"),
    Op("top_k_v2", ["X:num", "K=KInput:index?"], ["Out:num", "Indices:index"],
       [A("k", "i32", 1, min=1), A("axis", "i32", -1), A("largest", "bool", True), A("sorted", "bool", True)],
       "custom", "the k largest (or smallest) values along an axis and their indices",
       "%v, %i = pd.top_k_v2 %x {k = 5 : i32} : (tensor<?x1000xf32>) -> (tensor<?x5xf32>, tensor<?x5xi64>)"),
    Op("cumsum", ["X:num"], ["Out:num"],
       [A("axis", "i32", -1), A("flatten", "bool", False), A("exclusive", "bool", False), A("reverse", "bool", False)],
       "custom", "cumulative sum along an axis",
       "%y = pd.cumsum %x {axis = 1 : i32} : (tensor<?x128xi64>) -> tensor<?x128xi64>"),
    # ---------------------------------------------------------------- logic / select
    Op("where", ["Condition:bool", "X:any", "Y:any"], ["Out:any"], [], "custom",
       "selects x where condition holds, else y (numpy broadcasting)",
       "%y = pd.where %c, %a, %b : (tensor<?x4xi1>, tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>"),
    compare("equal", "elementwise x == y"),
    compare("not_equal", "elementwise x != y"),
    compare("less_than", "elementwise x < y"),
    compare("greater_than", "elementwise x > y"),
    Op("logical_and", ["X:bool", "Y:bool"], ["Out:bool"], [], "bcast", "elementwise x and y",
       "%z = pd.logical_and %x, %y : (tensor<?x4xi1>, tensor<?x4xi1>) -> tensor<?x4xi1>"),
    Op("logical_or", ["X:bool", "Y:bool"], ["Out:bool"], [], "bcast", "elementwise x or y",
       "%z = pd.logical_or %x, %y : (tensor<?x4xi1>, tensor<?x4xi1>) -> tensor<?x4xi1>"),
    Op("logical_xor", ["X:bool", "Y:bool"], ["Out:bool"], [], "bcast", "elementwise x xor y",
       "%z = pd.logical_xor %x, %y : (tensor<?x4xi1>, tensor<?x4xi1>) -> tensor<?x4xi1>"),
    Op("logical_not", ["X:bool"], ["Out:bool"], [], "same:X", "elementwise not x",
       "%z = pd.logical_not %x : (tensor<?x4xi1>) -> tensor<?x4xi1>"),
    # ---------------------------------------------------------------- detection heads
    Op("prior_box", ["Input:float", "Image:float"], ["Boxes:float", "Variances=VarianceBoxes:float"],
       [A("min_sizes", "floats", None), A("max_sizes", "floats", []), A("aspect_ratios", "floats", [1.0]),
        A("variances", "floats", [0.1, 0.1, 0.2, 0.2]), A("flip", "bool", False), A("clip", "bool", False),
        A("step_w", "f32", 0.0), A("step_h", "f32", 0.0), A("offset", "f32", 0.5),
        A("min_max_aspect_ratios_order", "bool", False)],
       "custom", "SSD prior (anchor) boxes for every position of a feature map, normalized to the image",
       "%b, %v = pd.prior_box %f, %img {min_sizes = array<f32: 30.0>} : (tensor<?x32x10x10xf32>, tensor<?x3x300x300xf32>) -> (tensor<10x10x1x4xf32>, tensor<10x10x1x4xf32>)"),
    Op("box_coder", ["PriorBox:float", "PriorBoxVar:float?", "TargetBox:float"], ["OutputBox:float"],
       [A("code_type", "str", "encode_center_size", choices=("encode_center_size", "decode_center_size")),
        A("box_normalized", "bool", True), A("axis", "i32", 0, min=0), A("variance", "floats", [])],
       "custom", "encodes boxes against priors, or decodes center-size offsets back to corner boxes",
       "%o = pd.box_coder %p, %t PriorBoxVar(%v) {code_type = \"decode_center_size\"} : (tensor<100x4xf32>, tensor<?x100x4xf32>, tensor<100x4xf32>) -> tensor<?x100x4xf32>"),
    Op("yolo_box", ["X:float", "ImgSize:index"], ["Boxes:float", "Scores:float"],
       [A("anchors", "ints", None), A("class_num", "i32", None, min=1), A("conf_thresh", "f32", 0.01),
        A("downsample_ratio", "i32", 32, min=1), A("clip_bbox", "bool", True), A("scale_x_y", "f32", 1.0),
        A("iou_aware", "bool", False), A("iou_aware_factor", "f32", 0.5)],
       "custom", "YOLOv3 box decoding: boxes in image pixels and per-class scores for every anchor and cell",
       "%b, %s = pd.yolo_box %x, %size {anchors = array<i32: 10, 13, 16, 30>, class_num = 80 : i32} : (tensor<?x170x8x8xf32>, tensor<?x2xi32>) -> (tensor<?x128x4xf32>, tensor<?x128x80xf32>)"),
    # ---------------------------------------------------------------- quantization (QAT programs)
    Op("fake_quantize_moving_average_abs_max", ["X:float", "InScale:float", "InAccum:float?", "InState:float?"],
       ["Out:float", "OutScale:float"], FAKE_QUANT_MA, "custom",
       "quantizes x to bit_length-bit integers (stored as float) with a moving-average abs-max scale",
       "%q, %s = pd.fake_quantize_moving_average_abs_max %x, %in_scale {is_test = true} : (tensor<?x64xf32>, tensor<1xf32>) -> (tensor<?x64xf32>, tensor<1xf32>)"),
    Op("fake_quantize_dequantize_moving_average_abs_max",
       ["X:float", "InScale:float", "InAccum:float?", "InState:float?"], ["Out:float", "OutScale:float"],
       FAKE_QUANT_MA, "custom",
       "quantizes then dequantizes x with a moving-average abs-max scale (QAT simulation)",
       "%q, %s = pd.fake_quantize_dequantize_moving_average_abs_max %x, %in_scale {is_test = true} : (tensor<?x64xf32>, tensor<1xf32>) -> (tensor<?x64xf32>, tensor<1xf32>)"),
    Op("fake_channel_wise_quantize_dequantize_abs_max", ["X:float"], ["Out:float", "OutScale:float"],
       [A("bit_length", "i32", 8, min=1), A("quant_axis", "i32", 0, min=0), A("round_type", "i32", 1, min=0),
        A("is_test", "bool", False)], "custom",
       "per-channel abs-max quantize-dequantize of a weight (QAT simulation)",
       "%q, %s = pd.fake_channel_wise_quantize_dequantize_abs_max %w : (tensor<32x3x3x3xf32>) -> (tensor<32x3x3x3xf32>, tensor<32xf32>)"),
    Op("fake_dequantize_max_abs", ["X:float", "Scale:float"], ["Out:float"], [A("max_range", "f32", None)],
       "custom", "x * scale / max_range",
       "%y = pd.fake_dequantize_max_abs %x, %s {max_range = 127.0 : f32} : (tensor<?x64xf32>, tensor<1xf32>) -> tensor<?x64xf32>"),
    Op("fake_channel_wise_dequantize_max_abs", ["X:float", "Scales:float*"], ["Out:float"],
       [A("quant_bits", "ints", [8], elem_min=1), A("quant_axis", "i32", 0, min=0), A("x_num_col_dims", "i32", 1, min=1)],
       "custom", "per-channel dequantization x * scale[c] / (2^(bits-1) - 1)",
       "%y = pd.fake_channel_wise_dequantize_max_abs %x Scales [%s] : (tensor<?x32x8x8xf32>, tensor<32xf32>) -> tensor<?x32x8x8xf32>"),
    Op("quantize_linear", ["X:float", "Scale:float", "ZeroPoint:num", "InAccum:float?", "InState:float?"],
       ["Y:quant"], [A("quant_axis", "i32", -1, min=-1), A("bit_length", "i32", 8, min=1),
                     A("round_type", "i32", 0, min=0), A("is_test", "bool", True), A("moving_rate", "f32", 0.9)],
       "custom", "linear quantization round(x / scale * (2^(bits-1) - 1)) + zero_point, per tensor or per axis",
       "%q = pd.quantize_linear %x, %s, %zp : (tensor<?x64xf32>, tensor<1xf32>, tensor<1xi32>) -> tensor<?x64xf32>"),
    Op("dequantize_linear", ["X:quant", "Scale:float", "ZeroPoint:num"], ["Y:float"],
       [A("quant_axis", "i32", -1, min=-1), A("bit_length", "i32", 8, min=1), A("round_type", "i32", 0, min=0)],
       "custom", "linear dequantization (x - zero_point) * scale / (2^(bits-1) - 1), per tensor or per axis",
       "%y = pd.dequantize_linear %q, %s, %zp : (tensor<?x64xf32>, tensor<1xf32>, tensor<1xi32>) -> tensor<?x64xf32>"),
]

# Ops with a hand-written fold() (identities at inference, constant shapes).
FOLDERS = {"assign", "scale", "cast", "dropout", "transpose2", "reshape2", "shape", "expand_v2", "tile",
           "fill_constant", "squeeze2", "unsqueeze2", "flatten_contiguous_range"}

# Ops with hand-written canonicalization patterns.
CANONICALIZERS = {"transpose2", "reshape2"}

# Fused ops: their ODS is hand-written (PdFusedOps.td); these entries only feed
# the C++ slot/attribute table used by the importer and exporter. A unit test
# checks that they agree with the registered ops.
FUSED_ACT = ("", "identity", "relu", "relu6", "leaky_relu", "hard_swish", "swish", "sigmoid", "tanh", "gelu")
FUSED_OPS = [
    Op("fc", ["Input:float", "W:float", "Bias:float?"], ["Out:float"],
       [A("in_num_col_dims", "i32", 1), A("activation_type", "str", ""), A("padding_weights", "bool", False)],
       "custom", "", ""),
    Op("fused_conv2d", ["Input:float", "Filter:float", "Bias:float?", "ResidualData:float?"], ["Output:float"],
       conv_attrs([A("fuse_activation", "str", ""), A("fuse_alpha", "f32", 0.0), A("fuse_beta", "f32", 0.0),
                   A("fuse_residual_connection", "bool", False)]), "custom", "", ""),
    Op("multihead_matmul", ["Input:float", "W:float", "Bias:float", "BiasQK:float?"], ["Out:float"],
       [A("alpha", "f32", 1.0), A("head_number", "i32", 1), A("transpose_Q", "bool", True),
        A("transpose_K", "bool", True), A("transpose_V", "bool", True)], "custom", "", ""),
    Op("skip_layernorm", ["X:float", "Y:float", "Scale:float", "Bias:float"], ["Out:float"],
       [A("epsilon", "f32", 1e-5), A("begin_norm_axis", "i32", -1)], "custom", "", ""),
    Op("fused_embedding_eltwise_layernorm", ["Ids:index*", "Embs:float*", "Bias:float", "Scale:float"],
       ["Out:float"], [A("epsilon", "f32", 1e-5)], "custom", "", ""),
]
