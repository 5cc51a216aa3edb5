"""Writes small Fluid 1.x programs with the v1 interpolation ops for the
importer tests, with the attributes Fluid 1.x writes.

v1/: nearest_interp sized by a run-time OutSize (scale and out_h/out_w also
     set, as Fluid's upsample writes them), then bilinear_interp by a scalar
     scale attribute; one without data_layout (pre-1.6 programs).

Usage: make_interp_models.py OUTDIR
"""
import os
import sys

from paddle_mlir.builder import ProgramBuilder

out = sys.argv[1]

b = ProgramBuilder()
x = b.feed("x", [-1, 3, -1, -1])
size = b.feed("size", [2], "int32")
up = b.interp("nearest_interp", x, [-1, 3, -1, -1], out_size=size, out_h=-1, out_w=-1, out_d=-1,
              scale=2.0, align_corners=True, align_mode=1, data_layout="NCHW")
b.fetch(up)
b.fetch(b.interp("bilinear_interp", up, [-1, 3, -1, -1], out_h=0, out_w=0, scale=0.5,
                 align_corners=False, align_mode=0))
b.save_fluid(os.path.join(out, "v1"))
