"""Write Paddle inference programs from Python.

A ProgramBuilder collects feeds, parameters and ops, computes the output
shapes of the layer helpers (-1 marks a dynamic dim), and saves the result in
Paddle's formats:

    b = ProgramBuilder()
    x = b.feed("image", [-1, 3, 32, 32])
    w = b.param("conv1_weights", np.random.rand(8, 3, 3, 3).astype("float32"))
    y = b.relu(b.conv2d(x, w, padding=1))
    b.fetch(y)
    b.save("out_dir")            # out_dir/model.pdmodel + model.pdiparams
    b.save_fluid("fluid_dir")    # __model__ + one file per parameter

Loops are written as Fluid's `while` op: ops and variables created inside
`with b.while_loop(cond):` go into a sub-block, and the body ends by
assigning the loop-carried variables and the condition:

    with b.while_loop(cond):
        b.assign(b.scale(x, 0.5), x)
        b.assign(b.elementwise("less_than", b.increment(i), n), cond)

Branches are written as Fluid's `conditional_block` op, whose sub-block runs
when its condition holds; `cond` writes the whole pattern of Paddle 2.x's
paddle.static.nn.cond (two conditional_blocks, then select_input):

    out = b.cond(pred, lambda: b.scale(x, 2.0), lambda: b.relu(x))

Tensor arrays (LOD_TENSOR_ARRAY variables) are declared with `array` and
used through write_to_array / read_from_array / lod_array_length /
tensor_array_to_tensor, as Fluid's DynamicRNN and beam search write them:

    arr = b.write_to_array(x, i)             # a new array; x at index i
    with b.while_loop(cond):
        h = b.read_from_array(arr, i)
        b.increment(i, out=i)
        b.write_to_array(b.act("tanh", h), i, arr)
        ...
    out, index = b.tensor_array_to_tensor(arr, axis=0, use_stack=True)

Ops carry the slots, attributes and auxiliary outputs (XShape, batch_norm
statistics, dropout Mask) that Paddle 2.x writes, plus a few of its "extra"
attributes (op_role, op_callstack, use_mkldnn), so files look like real
exports. The ProgramDesc classes come from the project's framework.proto.
"""

import contextlib
import os
import struct

import numpy as np

from . import framework_pb2 as fp

DTYPES = {
    "bool": fp.VarType.BOOL, "int16": fp.VarType.INT16, "int32": fp.VarType.INT32,
    "int64": fp.VarType.INT64, "float16": fp.VarType.FP16, "float32": fp.VarType.FP32,
    "float64": fp.VarType.FP64, "uint8": fp.VarType.UINT8, "int8": fp.VarType.INT8,
    "bfloat16": fp.VarType.BF16,  # numpy has no bfloat16: pass the bits as uint16
}


class Long(int):
    """An int attribute stored as Paddle LONG."""


class Longs(list):
    """A list attribute stored as Paddle LONGS."""


class Block(int):
    """A BLOCK attribute: the index of a sub-block (while's sub_block)."""


class Var:
    def __init__(self, name, shape, dtype):
        self.name, self.shape, self.dtype = name, list(shape), dtype

    def __repr__(self):
        return "Var(%s, %s, %s)" % (self.name, self.shape, self.dtype)


def _mul(a, b):
    return -1 if a < 0 or b < 0 else a * b


def _prod(dims):
    p = 1
    for d in dims:
        p = _mul(p, d)
    return p


class _SubBlock:
    """A block written inside `while_loop` or `conditional_block`: its own
    variables and ops."""

    def __init__(self, idx, parent_idx):
        self.idx, self.parent_idx = idx, parent_idx
        self.vars, self.ops = {}, []


def tensor_record(array, dtype=None):
    """One parameter record: version, LoD, tensor version, TensorDesc, data."""
    array = np.require(array, requirements="C")  # keeps 0-D arrays 0-D
    desc = fp.VarType.TensorDesc(data_type=DTYPES[dtype or str(array.dtype)], dims=list(array.shape))
    blob = desc.SerializeToString()
    return (struct.pack("<IQI", 0, 0, 0) + struct.pack("<i", len(blob)) + blob + array.tobytes())


class ProgramBuilder:
    def __init__(self, extra_attrs=True):
        self.vars = {}
        self.params = {}
        self.ops = []
        self.feeds = []
        self.fetches = []
        self.counters = {}
        self.extra_attrs = extra_attrs
        self.blocks = []   # the sub-blocks (idx 1, 2, ...), in creation order
        self._open = []    # the sub-blocks being written, innermost last

    def _block_vars(self):
        """The variables of the block being written."""
        return self._open[-1].vars if self._open else self.vars

    def _block_ops(self):
        """The op list of the block being written."""
        return self._open[-1].ops if self._open else self.ops

    # ------------------------------------------------------------- variables
    def _add_var(self, name, shape, dtype, top=False, outer=False):
        """A new variable of the block being written (of block 0 if top, of
        the block enclosing it if outer)."""
        if name in self.vars or any(name in blk.vars for blk in self.blocks):
            raise ValueError("variable %r defined twice" % name)
        v = Var(name, shape, dtype)
        if top:
            where = self.vars
        elif outer:
            if not self._open:
                raise ValueError("outer variable %r outside a sub-block" % name)
            where = self._open[-2].vars if len(self._open) > 1 else self.vars
        else:
            where = self._block_vars()
        where[name] = v
        return v

    def feed(self, name, shape, dtype="float32", lod_level=0):
        """An input; lod_level 1 makes it a batch of variable-length
        sequences (rows packed along dim 0, lengths given at run time as
        NAME@lengths)."""
        v = self._add_var(name, shape, dtype, top=True)
        v.lod_level = lod_level
        self.feeds.append(v)
        return v

    def param(self, name, array, dtype=None):
        """A persistable variable holding `array` (dtype overrides the element
        type, e.g. "bfloat16" for uint16 bit patterns)."""
        array = np.require(array, requirements="C")  # keeps 0-D arrays 0-D
        if dtype == "bfloat16" and array.dtype != np.uint16:
            raise TypeError("bfloat16 parameters are passed as uint16 bit patterns")
        v = self._add_var(name, array.shape, dtype or str(array.dtype), top=True)
        self.params[name] = array
        return v

    def tmp(self, prefix, shape, dtype="float32", outer=False):
        """A new temporary; outer puts it in the block enclosing the sub-block
        being written, as Paddle's cond does with the branch results
        (copy_var_to_parent_block), so that it outlives the branch."""
        n = self.counters.get(prefix, 0)
        self.counters[prefix] = n + 1
        return self._add_var("%s_%d.tmp_0" % (prefix, n), shape, dtype, outer=outer)

    def array(self, prefix, elem_shape, dtype="float32"):
        """A new tensor array variable (VarType LOD_TENSOR_ARRAY) whose
        elements have shape `elem_shape` and type `dtype`; its Var's shape and
        dtype are those of one element."""
        v = self.tmp(prefix, elem_shape, dtype)
        v.var_type = fp.VarType.LOD_TENSOR_ARRAY
        return v

    def fetch(self, var):
        self.fetches.append(var)

    # ------------------------------------------------------------------- ops
    def op(self, type, inputs, outputs, attrs=None):
        self._block_ops().append((type, inputs, outputs, dict(attrs or {})))
        outs = [v for vs in outputs.values() for v in vs]
        return outs[0] if len(outs) == 1 else outs

    def _simple(self, type, x, attrs=None, shape=None, dtype=None, slot="X", out="Out"):
        y = self.tmp(type, x.shape if shape is None else shape, dtype or x.dtype)
        return self.op(type, {slot: [x]}, {out: [y]}, attrs)

    def _xshape(self, prefix, x):
        return self.tmp(prefix + "_xshape", [0] + x.shape, x.dtype)

    def conv2d(self, x, w, stride=1, padding=0, groups=1, dilation=1, depthwise=False):
        s = [stride] * 2 if isinstance(stride, int) else list(stride)
        p = [padding] * 2 if isinstance(padding, int) else list(padding)
        d = [dilation] * 2 if isinstance(dilation, int) else list(dilation)
        n, c, h, wd = x.shape
        k = w.shape

        def out(i, kk, ss, pp, dd):
            return -1 if i < 0 else (i + 2 * pp - (dd * (kk - 1) + 1)) // ss + 1
        shape = [n, k[0], out(h, k[2], s[0], p[0], d[0]), out(wd, k[3], s[1], p[1], d[1])]
        type = "depthwise_conv2d" if depthwise else "conv2d"
        y = self.tmp(type, shape, x.dtype)
        return self.op(type, {"Input": [x], "Filter": [w]}, {"Output": [y]},
                       {"strides": s, "paddings": p, "dilations": d, "groups": groups,
                        "padding_algorithm": "EXPLICIT", "data_format": "NCHW"})

    def batch_norm(self, x, scale, bias, mean, var, epsilon=1e-5):
        y = self.tmp("batch_norm", x.shape, x.dtype)
        saved_mean = self.tmp("batch_norm_saved_mean", scale.shape)
        saved_var = self.tmp("batch_norm_saved_var", scale.shape)
        return self.op("batch_norm", {"X": [x], "Scale": [scale], "Bias": [bias], "Mean": [mean],
                                      "Variance": [var]},
                       {"Y": [y], "MeanOut": [mean], "VarianceOut": [var], "SavedMean": [saved_mean],
                        "SavedVariance": [saved_var]},
                       {"epsilon": epsilon, "momentum": 0.9, "is_test": True, "data_layout": "NCHW",
                        "use_global_stats": False, "trainable_statistics": False})[0]

    def layer_norm(self, x, scale, bias, begin_norm_axis, epsilon=1e-5):
        y = self.tmp("layer_norm", x.shape, x.dtype)
        rows = _prod(x.shape[:begin_norm_axis])
        mean = self.tmp("layer_norm_mean", [rows])
        var = self.tmp("layer_norm_var", [rows])
        return self.op("layer_norm", {"X": [x], "Scale": [scale], "Bias": [bias]},
                       {"Y": [y], "Mean": [mean], "Variance": [var]},
                       {"epsilon": epsilon, "begin_norm_axis": begin_norm_axis})[0]

    def act(self, type, x, **attrs):
        return self._simple(type, x, attrs)

    def relu(self, x):
        return self.act("relu", x)

    def pool2d(self, x, kind, ksize, stride=1, padding=0, global_pooling=False, adaptive=False,
               ceil_mode=False, exclusive=True):
        n, c, h, w = x.shape
        ks = [ksize] * 2 if isinstance(ksize, int) else list(ksize)
        s = [stride] * 2 if isinstance(stride, int) else list(stride)
        p = [padding] * 2 if isinstance(padding, int) else list(padding)
        if global_pooling:
            shape = [n, c, 1, 1]
        elif adaptive:
            shape = [n, c] + ks
        else:
            def out(i, k, ss, pp):
                if i < 0:
                    return -1
                num = i + 2 * pp - k
                return (num + ss - 1) // ss + 1 if ceil_mode else num // ss + 1
            shape = [n, c, out(h, ks[0], s[0], p[0]), out(w, ks[1], s[1], p[1])]
        return self._simple("pool2d", x, {
            "pooling_type": kind, "ksize": ks, "strides": s, "paddings": p,
            "global_pooling": global_pooling, "adaptive": adaptive, "ceil_mode": ceil_mode,
            "exclusive": exclusive, "data_format": "NCHW", "padding_algorithm": "EXPLICIT"}, shape=shape)

    def elementwise(self, type, x, y, axis=-1):
        big, small = (x, y) if len(x.shape) >= len(y.shape) else (y, x)
        off = len(big.shape) - len(small.shape) if axis == -1 else axis
        shape = list(big.shape)
        for j, d in enumerate(small.shape):
            a = shape[off + j]
            shape[off + j] = d if a == 1 else (a if d == 1 else (d if a < 0 else a))
        out = self.tmp(type, shape, "bool" if type in ("equal", "not_equal", "less_than",
                                                       "greater_than") else x.dtype)
        return self.op(type, {"X": [x], "Y": [y]}, {"Out": [out]}, {"axis": axis})

    def matmul_v2(self, x, y, trans_x=False, trans_y=False):
        xs, ys = list(x.shape), list(y.shape)
        m = xs[-1] if trans_x else xs[-2]
        n = ys[-2] if trans_y else ys[-1]
        bx, by = xs[:-2], ys[:-2]
        nb = max(len(bx), len(by))
        bx, by = [1] * (nb - len(bx)) + bx, [1] * (nb - len(by)) + by
        batch = [b if a == 1 else a for a, b in zip(bx, by)]
        out = self.tmp("matmul_v2", batch + [m, n], x.dtype)
        return self.op("matmul_v2", {"X": [x], "Y": [y]}, {"Out": [out]},
                       {"trans_x": trans_x, "trans_y": trans_y})

    def linear(self, x, w, b, act=None):
        """Paddle's nn.Linear as exported: matmul_v2 + elementwise_add (+ act)."""
        y = self.elementwise("elementwise_add", self.matmul_v2(x, w), b, axis=-1)
        return self.act(act, y) if act else y

    def reshape2(self, x, shape):
        known = _prod([x.shape[i] if d == 0 else d for i, d in enumerate(shape) if d != -1])
        total = _prod(x.shape)
        out_shape = [x.shape[i] if d == 0 else d for i, d in enumerate(shape)]
        if -1 in shape:
            out_shape[shape.index(-1)] = -1 if known < 0 or total < 0 else total // known
        out = self.tmp("reshape2", out_shape, x.dtype)
        return self.op("reshape2", {"X": [x]}, {"Out": [out], "XShape": [self._xshape("reshape2", x)]},
                       {"shape": list(shape)})[0]

    def transpose2(self, x, perm):
        out = self.tmp("transpose", [x.shape[p] for p in perm], x.dtype)
        return self.op("transpose2", {"X": [x]}, {"Out": [out], "XShape": [self._xshape("transpose", x)]},
                       {"axis": list(perm), "data_format": "AnyLayout"})[0]

    def flatten(self, x, start, stop):
        shape = x.shape[:start] + [_prod(x.shape[start:stop + 1])] + x.shape[stop + 1:]
        out = self.tmp("flatten", shape, x.dtype)
        return self.op("flatten_contiguous_range", {"X": [x]},
                       {"Out": [out], "XShape": [self._xshape("flatten", x)]},
                       {"start_axis": start, "stop_axis": stop})[0]

    def squeeze2(self, x, axes):
        axes = [a % len(x.shape) for a in axes]
        shape = [d for i, d in enumerate(x.shape) if not (i in axes and d == 1)]
        out = self.tmp("squeeze", shape, x.dtype)
        return self.op("squeeze2", {"X": [x]}, {"Out": [out], "XShape": [self._xshape("squeeze", x)]},
                       {"axes": list(axes)})[0]

    def unsqueeze2(self, x, axes):
        shape = list(x.shape)
        for a in axes:
            shape.insert(a if a >= 0 else a + len(shape) + 1, 1)
        out = self.tmp("unsqueeze", shape, x.dtype)
        return self.op("unsqueeze2", {"X": [x]}, {"Out": [out], "XShape": [self._xshape("unsqueeze", x)]},
                       {"axes": list(axes)})[0]

    def softmax(self, x, axis=-1):
        return self._simple("softmax", x, {"axis": axis})

    def assign(self, x, out=None):
        """out = x (a new variable when out is None); in a loop body this
        is how the loop-carried variables and the condition are updated."""
        return self.op("assign", {"X": [x]}, {"Out": [out or self.tmp("assign", x.shape, x.dtype)]})

    def increment(self, x, step=1.0, out=None):
        return self.op("increment", {"X": [x]}, {"Out": [out or self.tmp("increment", x.shape, x.dtype)]},
                       {"step": float(step)})

    @contextlib.contextmanager
    def _sub_block(self):
        """Opens a sub-block of the block being written."""
        parent = self._open[-1].idx if self._open else 0
        blk = _SubBlock(len(self.blocks) + 1, parent)
        self.blocks.append(blk)
        self._open.append(blk)
        try:
            yield blk
        finally:
            self._open.pop()

    def _generated_var(self, shape, dtype, outer=False):
        """A variable named as Paddle names those made by block.create_var
        without a name (_generated_var_N)."""
        n = self.counters.get("_generated_var", 0)
        self.counters["_generated_var"] = n + 1
        return self._add_var("_generated_var_%d" % n, shape, dtype, outer=outer)

    def _step_scopes(self):
        """The STEP_SCOPES variable of a while or conditional_block op."""
        scopes = self._generated_var([], "")
        scopes.var_type = fp.VarType.STEP_SCOPES
        return scopes

    @contextlib.contextmanager
    def while_loop(self, cond):
        """Writes the body of a Fluid `while` op: a sub-block run while
        `cond` (bool [1]) holds. On exit the while op goes into the
        enclosing block with Paddle's slots (While._complete): X holds the
        outer variables the body reads or writes (first use order, less the
        condition), Out the outer variables it writes (condition included)."""
        with self._sub_block() as blk:
            yield blk
        xs, outs = [], []
        for _, ins, outputs, _ in blk.ops:
            for v in [v for vs in ins.values() for v in vs] + [v for vs in outputs.values() for v in vs]:
                if v.name not in blk.vars and v.name != cond.name and all(v.name != u.name for u in xs):
                    xs.append(v)
            for v in (v for vs in outputs.values() for v in vs):
                if v.name not in blk.vars and all(v.name != u.name for u in outs):
                    outs.append(v)
        scopes = self._step_scopes()
        self.op("while", {"X": xs, "Condition": [cond]}, {"Out": outs, "StepScopes": [scopes]},
                {"sub_block": Block(blk.idx), "is_test": True})

    @contextlib.contextmanager
    def conditional_block(self, conds, is_scalar_condition=True):
        """Writes the body of a Fluid `conditional_block` op: a sub-block run
        once when its condition holds (is_scalar_condition: conds[0], a bool
        tensor of one element, is true; otherwise: every tensor of conds has
        elements). On exit the op goes into the enclosing block with the
        slots of Paddle's ConditionalBlock.complete: Cond, Input the outer
        variables the body reads (first use order, less the conditions), Out
        the outer variables it writes, Scope one STEP_SCOPES variable.
        Results that must outlive the body are written to variables made
        with tmp(..., outer=True) (or to existing outer variables)."""
        conds = list(conds) if isinstance(conds, (list, tuple)) else [conds]
        cond_names = {c.name for c in conds}
        with self._sub_block() as blk:
            yield blk
        ins, outs = [], []
        for _, inputs, outputs, _ in blk.ops:
            for v in (v for vs in inputs.values() for v in vs):
                if v.name not in blk.vars and v.name not in cond_names and all(v.name != u.name for u in ins):
                    ins.append(v)
            for v in (v for vs in outputs.values() for v in vs):
                if v.name not in blk.vars and all(v.name != u.name for u in outs):
                    outs.append(v)
        scope = self._step_scopes()
        self.op("conditional_block", {"Cond": conds, "Input": ins}, {"Out": outs, "Scope": [scope]},
                {"sub_block": Block(blk.idx), "is_scalar_condition": bool(is_scalar_condition)})

    def select_input(self, xs, mask):
        """Out = xs[mask[0]] (mask int32 [1]); Out takes xs[0]'s shape and type."""
        out = self.tmp("select_input", xs[0].shape, xs[0].dtype)
        return self.op("select_input", {"X": list(xs), "Mask": [mask]}, {"Out": [out]})

    def select_output(self, x, mask, outs):
        """outs[mask[0]] = x (mask int32 [1]); the other outs keep their values."""
        return self.op("select_output", {"X": [x], "Mask": [mask]}, {"Out": list(outs)})

    def write_to_array(self, x, i, arr=None):
        """Paddle's array_write: x at index i (int64 or int32 [1]) of array
        `arr`, written in place (the array grows to i + 1 elements where
        shorter); arr None declares a new array of x's shape and type.
        Returns the array."""
        if arr is None:
            arr = self.array("array", x.shape, x.dtype)
        self.op("write_to_array", {"X": [x], "I": [i]}, {"Out": [arr]})
        return arr

    def read_from_array(self, arr, i):
        """Paddle's array_read: element i (int64 or int32 [1]) of `arr`."""
        out = self.tmp("read_from_array", arr.shape, arr.dtype)
        return self.op("read_from_array", {"X": [arr], "I": [i]}, {"Out": [out]})

    def lod_array_length(self, arr):
        """The number of elements of `arr`, int64 [1]."""
        return self._simple("lod_array_length", arr, shape=[1], dtype="int64")

    def tensor_array_to_tensor(self, arr, axis=1, use_stack=False):
        """The elements of `arr` stacked along a new axis (use_stack) or
        concatenated along `axis`; returns (Out, OutIndex), OutIndex int32
        holding each element's size along axis. The element count is not
        known here, so its dim of Out is -1."""
        shape = list(arr.shape)
        if use_stack:
            shape.insert(axis % (len(shape) + 1), -1)
        else:
            shape[axis % len(shape)] = -1
        out = self.tmp("tensor_array_to_tensor", shape, arr.dtype)
        index = self.tmp("tensor_array_to_tensor_index", [-1], "int32")
        return self.op("tensor_array_to_tensor", {"X": [arr]}, {"Out": [out], "OutIndex": [index]},
                       {"axis": axis, "use_stack": bool(use_stack)})

    # Fluid's DynamicRNN writes these around its while loop: a rank table of
    # the input's sequences, the input split into an array over time steps,
    # the memories' initial values reordered by rank and shrunk to the
    # sequences still running at each step, the outputs put back in order.
    def lod_rank_table(self, x, level=0):
        """The rank table (VarType LOD_RANK_TABLE) of LoD batch x."""
        table = self.tmp("lod_rank_table", [-1, 2], "int64")
        table.var_type = fp.VarType.LOD_RANK_TABLE
        return self.op("lod_rank_table", {"X": [x]}, {"Out": [table]}, {"level": level})

    def max_sequence_len(self, table):
        """The longest sequence of a rank table, int64 [1]."""
        out = self.tmp("max_sequence_len", [1], "int64")
        return self.op("max_sequence_len", {"RankTable": [table]}, {"Out": [out]})

    def lod_tensor_to_array(self, x, table):
        """LoD batch x as an array over time steps (element t: row t of each
        sequence longer than t, in rank order)."""
        arr = self.array("lod_tensor_to_array", x.shape, x.dtype)
        return self.op("lod_tensor_to_array", {"X": [x], "RankTable": [table]}, {"Out": [arr]})

    def array_to_lod_tensor(self, arr, table):
        """lod_tensor_to_array's inverse: a LoD batch in the table's batch order."""
        out = self.tmp("array_to_lod_tensor", arr.shape, arr.dtype)
        return self.op("array_to_lod_tensor", {"X": [arr], "RankTable": [table]}, {"Out": [out]})

    def shrink_rnn_memory(self, x, i, table):
        """Memory x at step i: the rows of the sequences longer than i."""
        out = self.tmp("shrink_rnn_memory", x.shape, x.dtype)
        return self.op("shrink_rnn_memory", {"X": [x], "I": [i], "RankTable": [table]}, {"Out": [out]})

    def reorder_lod_tensor_by_rank(self, x, table):
        """The rows of x (one per sequence) in rank order."""
        out = self.tmp("reorder_lod_tensor_by_rank", x.shape, x.dtype)
        return self.op("reorder_lod_tensor_by_rank", {"X": [x], "RankTable": [table]}, {"Out": [out]})

    def logical_not(self, x):
        return self._simple("logical_not", x, dtype="bool")

    def cond(self, pred, true_fn, false_fn):
        """Paddle 2.x's paddle.static.nn.cond as exported: a conditional_block
        on pred whose results are copied (assign) to new variables of the
        enclosing block, logical_not(pred), the same for false_fn, then
        cast(pred) to int32 and one select_input([false, true], mask) per
        result. true_fn and false_fn return a Var or a list of Vars of the
        same shapes; returns the same structure."""
        def branch(fn):
            res = fn()
            many = isinstance(res, (list, tuple))
            copies = [self.assign(v, self._generated_var(v.shape, v.dtype, outer=True))
                      for v in (res if many else [res])]
            return copies, many

        with self.conditional_block([pred]):
            ts, many = branch(true_fn)
        with self.conditional_block([self.logical_not(pred)]):
            fs, _ = branch(false_fn)
        if len(fs) != len(ts):
            raise ValueError("cond: %d true results, %d false ones" % (len(ts), len(fs)))
        mask = self.cast(pred, "int32")
        outs = [self.select_input([f, t], mask) for f, t in zip(fs, ts)]
        return outs if many else outs[0]

    def scale(self, x, scale=1.0, bias=0.0, bias_after_scale=True):
        return self._simple("scale", x, {"scale": scale, "bias": bias, "bias_after_scale": bias_after_scale})

    def dropout(self, x, p=0.1, is_test=True, implementation="upscale_in_train", fix_seed=False, seed=0):
        out = self.tmp("dropout", x.shape, x.dtype)
        mask = self.tmp("dropout_mask", x.shape, "uint8")
        return self.op("dropout", {"X": [x]}, {"Out": [out], "Mask": [mask]},
                       {"dropout_prob": p, "is_test": is_test, "dropout_implementation": implementation,
                        "fix_seed": fix_seed, "seed": seed})[0]

    def lookup_table_v2(self, w, ids, padding_idx=-1):
        out = self.tmp("embedding", ids.shape + [w.shape[1]], w.dtype)
        return self.op("lookup_table_v2", {"W": [w], "Ids": [ids]}, {"Out": [out]},
                       {"padding_idx": Long(padding_idx), "is_sparse": False})

    def concat(self, xs, axis):
        shape = list(xs[0].shape)
        a = axis % len(shape)
        shape[a] = 0
        for x in xs:
            shape[a] = -1 if shape[a] < 0 or x.shape[a] < 0 else shape[a] + x.shape[a]
        out = self.tmp("concat", shape, xs[0].dtype)
        return self.op("concat", {"X": list(xs)}, {"Out": [out]}, {"axis": axis})

    def cast(self, x, dtype):
        return self._simple("cast", x, {"in_dtype": int(DTYPES[x.dtype]), "out_dtype": int(DTYPES[dtype])},
                            dtype=dtype)

    def fill_any_like(self, x, value, dtype=None):
        code = -1 if dtype is None else int(DTYPES[dtype])
        return self._simple("fill_any_like", x, {"value": float(value), "dtype": code}, dtype=dtype or x.dtype)

    def cumsum(self, x, axis):
        return self._simple("cumsum", x, {"axis": axis, "flatten": False, "exclusive": False, "reverse": False})

    def interp(self, type, x, shape, out_size=None, size_tensor=None, scale_tensor=None, **attrs):
        """An interpolation op (nearest/bilinear_interp, v1 or _v2) whose Out
        has `shape` (-1 where it depends on run-time inputs); the OutSize,
        SizeTensor (a list) and Scale inputs are optional."""
        ins = {"X": [x]}
        if out_size is not None:
            ins["OutSize"] = [out_size]
        if size_tensor is not None:
            ins["SizeTensor"] = list(size_tensor)
        if scale_tensor is not None:
            ins["Scale"] = [scale_tensor]
        attrs.setdefault("interp_method", "nearest" if type.startswith("nearest") else "bilinear")
        return self.op(type, ins, {"Out": [self.tmp(type, shape, x.dtype)]}, attrs)

    # ------------------------------------------------------------- writing
    def _attr(self, name, value):
        a = fp.OpDesc.Attr(name=name)
        if isinstance(value, bool):
            a.type, a.b = fp.BOOLEAN, value
        elif isinstance(value, Block):
            a.type, a.block_idx = fp.BLOCK, int(value)
        elif isinstance(value, Long):
            a.type, a.l = fp.LONG, int(value)
        elif isinstance(value, int):
            a.type, a.i = fp.INT, value
        elif isinstance(value, float):
            a.type, a.f = fp.FLOAT, value
        elif isinstance(value, str):
            a.type, a.s = fp.STRING, value
        elif isinstance(value, Longs):
            a.type = fp.LONGS
            a.longs.extend(int(v) for v in value)
        elif isinstance(value, list) and value and all(isinstance(v, str) for v in value):
            a.type = fp.STRINGS
            a.strings.extend(value)
        elif isinstance(value, list) and any(isinstance(v, float) for v in value):
            a.type = fp.FLOATS
            a.floats.extend(float(v) for v in value)
        elif isinstance(value, list):
            a.type = fp.INTS
            a.ints.extend(int(v) for v in value)
        else:
            raise TypeError("attribute %s: unsupported value %r" % (name, value))
        return a

    def _op_desc(self, type, inputs, outputs, attrs):
        op = fp.OpDesc(type=type)
        for slot, vs in inputs.items():
            op.inputs.add(parameter=slot, arguments=[v.name for v in vs])
        for slot, vs in outputs.items():
            op.outputs.add(parameter=slot, arguments=[v.name for v in vs])
        if self.extra_attrs and type not in ("feed", "fetch"):
            attrs = dict(attrs)
            attrs.setdefault("op_role", 0)
            attrs.setdefault("op_callstack", ["  File \"model.py\", line 1, in forward"])
            attrs.setdefault("use_mkldnn", False)
        for name in sorted(attrs):
            op.attrs.append(self._attr(name, attrs[name]))
        return op

    def program_desc(self):
        prog = fp.ProgramDesc()
        prog.version.version = 0
        block = prog.blocks.add(idx=0, parent_idx=-1)
        block.vars.add(name="feed", type=fp.VarType(type=fp.VarType.FEED_MINIBATCH), persistable=True)
        block.vars.add(name="fetch", type=fp.VarType(type=fp.VarType.FETCH_LIST), persistable=True)
        for v in self.vars.values():
            self._var_desc(block, v)
        feed_var, fetch_var = Var("feed", [], ""), Var("fetch", [], "")
        for col in reversed(range(len(self.feeds))):
            block.ops.append(self._op_desc("feed", {"X": [feed_var]}, {"Out": [self.feeds[col]]}, {"col": col}))
        for type, ins, outs, attrs in self.ops:
            block.ops.append(self._op_desc(type, ins, outs, attrs))
        for col, v in enumerate(self.fetches):
            block.ops.append(self._op_desc("fetch", {"X": [v]}, {"Out": [fetch_var]}, {"col": col}))
        for blk in self.blocks:
            sub = prog.blocks.add(idx=blk.idx, parent_idx=blk.parent_idx)
            for v in blk.vars.values():
                self._var_desc(sub, v)
            for type, ins, outs, attrs in blk.ops:
                sub.ops.append(self._op_desc(type, ins, outs, attrs))
        return prog

    def _var_desc(self, block, v):
        desc = block.vars.add(name=v.name, persistable=v.name in self.params)
        kind = getattr(v, "var_type", fp.VarType.LOD_TENSOR)
        desc.type.type = kind
        if kind == fp.VarType.LOD_TENSOR:
            desc.type.lod_tensor.tensor.data_type = DTYPES[v.dtype]
            desc.type.lod_tensor.tensor.dims.extend(v.shape)
            desc.type.lod_tensor.lod_level = getattr(v, "lod_level", 0)
        elif kind == fp.VarType.LOD_TENSOR_ARRAY:
            # The TensorDesc of one element.
            desc.type.tensor_array.tensor.data_type = DTYPES[v.dtype]
            desc.type.tensor_array.tensor.dims.extend(v.shape)
            desc.type.tensor_array.lod_level = 0

    def save(self, directory, stem="model"):
        """Paddle 2.x layout: <stem>.pdmodel + combined <stem>.pdiparams."""
        os.makedirs(directory, exist_ok=True)
        with open(os.path.join(directory, stem + ".pdmodel"), "wb") as f:
            f.write(self.program_desc().SerializeToString())
        with open(os.path.join(directory, stem + ".pdiparams"), "wb") as f:
            for name in sorted(self.params, key=lambda n: n.encode()):
                f.write(tensor_record(self.params[name], self.vars[name].dtype))
        return directory

    def save_fluid(self, directory):
        """Fluid 1.x layout: __model__ + one file per parameter."""
        os.makedirs(directory, exist_ok=True)
        with open(os.path.join(directory, "__model__"), "wb") as f:
            f.write(self.program_desc().SerializeToString())
        for name, array in self.params.items():
            with open(os.path.join(directory, name), "wb") as f:
                f.write(tensor_record(array, self.vars[name].dtype))
        return directory
