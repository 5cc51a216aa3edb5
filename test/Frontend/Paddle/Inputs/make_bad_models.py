"""Writes broken Paddle models for the bad-input tests, one folder each.

Usage: make_bad_models.py OUTDIR
"""
import os
import shutil
import struct
import sys

import numpy as np

from paddle_mlir import framework_pb2 as fp
from paddle_mlir.builder import ProgramBuilder, tensor_record

out = sys.argv[1]


def tiny():
    b = ProgramBuilder()
    x = b.feed("x", [-1, 4])
    w = b.param("fc_w", np.arange(12, dtype=np.float32).reshape(4, 3))
    bias = b.param("fc_b", np.ones(3, np.float32))
    b.fetch(b.relu(b.linear(x, w, bias)))
    return b


def save(name, builder=None, program=None, params=None):
    d = os.path.join(out, name)
    (builder or tiny()).save(d)
    if program is not None:
        with open(os.path.join(d, "model.pdmodel"), "wb") as f:
            f.write(program)
    if params is not None:
        with open(os.path.join(d, "model.pdiparams"), "wb") as f:
            f.write(params)
    return d


good = tiny()
prog = good.program_desc().SerializeToString()
params = b"".join(tensor_record(good.params[n]) for n in sorted(good.params))

save("good")
save("truncated_program", program=prog[: len(prog) // 2])
save("corrupted_program", program=bytes((i * 37 + 11) % 256 for i in range(len(prog))))
save("params_short", params=params[:-5])
save("params_long", params=params + b"\0" * 16)
# fc_b is the first record (sorted names): store it as float64.
save("params_dtype", params=tensor_record(np.ones(3, np.float64)) + tensor_record(good.params["fc_w"]))
save("params_shape", params=tensor_record(np.ones(4, np.float32)) + tensor_record(good.params["fc_w"]))
save("params_bad_version", params=struct.pack("<I", 7) + params[4:])
d = save("missing_params_file")
os.remove(os.path.join(d, "model.pdiparams"))

d = os.path.join(out, "fluid_missing_param")
good.save_fluid(d)
os.remove(os.path.join(d, "fc_w"))

# A variable type the compiler does not handle (a tensor array) used by an op.
p = fp.ProgramDesc()
p.ParseFromString(prog)
for v in p.blocks[0].vars:
    if v.name.startswith("relu"):
        v.type.type = fp.VarType.LOD_TENSOR_ARRAY
save("unsupported_var_type", program=p.SerializeToString())

# Control flow: an op referring to a sub-block.
p = fp.ProgramDesc()
p.ParseFromString(prog)
p.blocks.add(idx=1, parent_idx=0)
op = p.blocks[0].ops[2]
op.attrs.add(name="sub_block", type=fp.BLOCK, block_idx=1)
save("sub_block", program=p.SerializeToString())

# A training-style program without feed/fetch ops.
p = fp.ProgramDesc()
p.ParseFromString(prog)
keep = [o for o in p.blocks[0].ops if o.type not in ("feed", "fetch")]
del p.blocks[0].ops[:]
p.blocks[0].ops.extend(keep)
save("no_feed", program=p.SerializeToString())

# A slot the compiler does not know, holding a variable.
p = fp.ProgramDesc()
p.ParseFromString(prog)
for o in p.blocks[0].ops:
    if o.type == "relu":
        o.inputs.add(parameter="Alpha", arguments=["fc_b"])
save("unknown_slot", program=p.SerializeToString())

# An op without an attribute that has no default (transpose2's axis): its
# shape function read the missing attribute and crashed the importer.
p = fp.ProgramDesc()
p.ParseFromString(prog)
for o in p.blocks[0].ops:
    if o.type == "relu":
        o.type = "transpose2"
save("missing_required_attr", program=p.SerializeToString())

# An attribute that breaks its constraint (3 paddings): shape inference,
# which runs before the verifier, read past them (fuzz_compile found it on
# a depthwise_conv2d).
p = fp.ProgramDesc()
p.ParseFromString(prog)
for o in p.blocks[0].ops:
    if o.type == "relu":
        o.type = "pool2d"
        o.attrs.add(name="ksize", type=fp.INTS, ints=[1, 1])
        o.attrs.add(name="paddings", type=fp.INTS, ints=[0, 0, 0])
save("three_paddings", program=p.SerializeToString())

# An op whose result breaks a verifier rule (matmul contraction mismatch).
p = fp.ProgramDesc()
p.ParseFromString(prog)
for v in p.blocks[0].vars:
    if v.name == "x":
        del v.type.lod_tensor.tensor.dims[:]
        v.type.lod_tensor.tensor.dims.extend([-1, 5])
save("shape_mismatch", program=p.SerializeToString())
