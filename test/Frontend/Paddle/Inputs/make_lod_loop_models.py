"""Writes a Fluid program for the importer test of LoD in loops: each image
of a feature map becomes a sequence (im2sequence), a 2-level LoD is made
with lod_reset (append), and a while loop carries a LoD batch and fills a
tensor array of LoD batches, which sequence ops read after the loop.

Usage: make_lod_loop_models.py OUTDIR
"""
import sys

from paddle_mlir.builder import Longs, ProgramBuilder


def fill(b, prefix, value):
    return b.op("fill_constant", {}, {"Out": [b.tmp(prefix, [1], "int64")]},
                {"shape": Longs([1]), "dtype": 3, "value": float(value), "str_value": "", "force_cpu": False})


def less_than(b, x, y, out=None):
    return b.op("less_than", {"X": [x], "Y": [y]}, {"Out": [out or b.tmp("less_than", [1], "bool")]},
                {"axis": -1, "force_cpu": False})


b = ProgramBuilder()
img = b.feed("img", [-1, 4, 1, 6])
offsets = b.feed("offsets", [-1], "int32")
seq = b.op("im2sequence", {"X": [img]}, {"Out": [b.tmp("seq", [-1, 4])]},
           {"kernels": [1, 1], "strides": [1, 1], "paddings": [0, 0, 0, 0], "out_stride": [1, 1]})
first = b.op("lod_reset", {"X": [b.scale(seq, 1.0)], "Y": [offsets]}, {"Out": [b.tmp("first", [-1, 4])]},
             {"append": False})
two = b.op("lod_reset", {"X": [first], "Y": [offsets]}, {"Out": [b.tmp("two", [-1, 4])]}, {"append": True})
acc = b.assign(seq)
i = fill(b, "i", 0)
n = fill(b, "n", 2)
arr = b.write_to_array(two, i)
cond = less_than(b, i, n)
with b.while_loop(cond):
    b.assign(b.scale(acc, 0.5), acc)
    b.increment(i, out=i)
    b.write_to_array(b.scale(b.read_from_array(arr, fill(b, "zero", 0)), 2.0), i, arr)
    less_than(b, i, n, out=cond)
pooled = b.tmp("pooled", [-1, 4])
b.op("sequence_pool", {"X": [acc]}, {"Out": [pooled], "MaxIndex": [b.tmp("mi", [-1, 4], "int32")]},
     {"pooltype": "SUM", "is_test": True, "pad_value": 0.0})
b.fetch(pooled)
last = b.read_from_array(arr, i)
b.fetch(b.op("sequence_softmax", {"X": [b.op("reduce_sum", {"X": [last]}, {"Out": [b.tmp("r", [-1, 1])]},
                                               {"dim": [1], "keep_dim": True, "reduce_all": False})]},
             {"Out": [b.tmp("p", [-1, 1])]}))
b.save(sys.argv[1] + "/lodloop")
