"""Writes two small models for the importer tests.

dtypes/: one parameter of every Paddle tensor dtype, each fetched through an
         assign op (values 1, 2, 3 so tests can find their bytes).
qat/:    a QAT program as PaddleSlim exports it: fake_quantize_dequantize on
         the activation, channel-wise fake quant-dequant on the weight, and a
         quantize_linear/dequantize_linear pair.

Usage: make_dtype_qat_models.py OUTDIR
"""
import os
import sys

import numpy as np

from paddle_mlir.builder import ProgramBuilder

out = sys.argv[1]

b = ProgramBuilder()
x = b.feed("x", [-1, 3])
b.fetch(b.act("relu", x))
for dt in ("bool", "int8", "uint8", "int16", "int32", "int64", "float16", "float32", "float64"):
    p = b.param("p_" + dt, np.array([1, 2, 3]).astype(dt))
    b.fetch(b._simple("assign", p))
# bfloat16 has no numpy dtype: the bit patterns of 1.0, 2.0, 3.0 as uint16
bf = b.param("p_bfloat16", np.array([0x3F80, 0x4000, 0x4040], np.uint16), dtype="bfloat16")
b.fetch(b._simple("assign", bf))
b.save(os.path.join(out, "dtypes"))

q = ProgramBuilder()
x = q.feed("x", [-1, 4])
w = q.param("fc_w", np.arange(12, dtype=np.float32).reshape(4, 3) / 10)
in_scale = q.param("x_scale", np.array([2.0], np.float32))
accum = q.param("x_accum", np.array([1.0], np.float32))
state = q.param("x_state", np.array([1.0], np.float32))
xq = q.tmp("quant_x", [-1, 4])
out_scale = q.tmp("quant_x_scale", [1])
q.op("fake_quantize_dequantize_moving_average_abs_max",
     {"X": [x], "InScale": [in_scale], "InAccum": [accum], "InState": [state]},
     {"Out": [xq], "OutScale": [out_scale], "OutAccum": [accum], "OutState": [state]},
     {"moving_rate": 0.9, "bit_length": 8, "is_test": True, "round_type": 1})
wq = q.tmp("quant_w", [4, 3])
w_scale = q.tmp("quant_w_scale", [4])
q.op("fake_channel_wise_quantize_dequantize_abs_max", {"X": [w]}, {"Out": [wq], "OutScale": [w_scale]},
     {"bit_length": 8, "quant_axis": 0, "is_test": True, "round_type": 1})
y = q.matmul_v2(xq, wq)
scale = q.param("y_scale", np.array([0.5], np.float32))
zp = q.param("y_zero_point", np.array([0], np.int32))
yq = q.tmp("quantize_linear", [-1, 3])
q.op("quantize_linear", {"X": [y], "Scale": [scale], "ZeroPoint": [zp]}, {"Y": [yq]},
     {"quant_axis": -1, "bit_length": 8, "is_test": True, "round_type": 0})
yd = q.tmp("dequantize_linear", [-1, 3])
q.op("dequantize_linear", {"X": [yq], "Scale": [scale], "ZeroPoint": [zp]}, {"Y": [yd]},
     {"quant_axis": -1, "bit_length": 8, "round_type": 0})
q.fetch(yd)
q.save(os.path.join(out, "qat"))
