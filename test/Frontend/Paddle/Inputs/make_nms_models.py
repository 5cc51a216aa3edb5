"""Writes Paddle programs whose outputs have data-dependent sizes, for the
importer test: nms/ with multiclass_nms, multiclass_nms2 and
multiclass_nms3 and matrix_nms on the same boxes and scores, with the VarDesc shapes
Paddle writes ([-1, 6] for Out, [-1, 1] for Index); select/ with
where_index and masked_select.

Usage: make_nms_models.py OUTDIR
"""
import os
import sys

from paddle_mlir.builder import ProgramBuilder

out = sys.argv[1]
attrs = {"score_threshold": 0.05, "nms_top_k": 20, "keep_top_k": 8, "nms_threshold": 0.5,
         "nms_eta": 1.0, "normalized": False, "background_label": 0}
b = ProgramBuilder()
boxes = b.feed("bboxes", [-1, 16, 4])
scores = b.feed("scores", [-1, 3, 16])
o1 = b.tmp("multiclass_nms", [-1, 6])
b.op("multiclass_nms", {"BBoxes": [boxes], "Scores": [scores]}, {"Out": [o1]}, attrs)
o2, i2 = b.tmp("multiclass_nms2", [-1, 6]), b.tmp("multiclass_nms2_index", [-1, 1], "int32")
b.op("multiclass_nms2", {"BBoxes": [boxes], "Scores": [scores]}, {"Out": [o2], "Index": [i2]}, attrs)
o3, i3 = b.tmp("multiclass_nms3", [-1, 6]), b.tmp("multiclass_nms3_index", [-1, 1], "int32")
n3 = b.tmp("multiclass_nms3_num", [-1], "int32")
b.op("multiclass_nms3", {"BBoxes": [boxes], "Scores": [scores]},
     {"Out": [o3], "Index": [i3], "NmsRoisNum": [n3]}, attrs)
o4, i4 = b.tmp("matrix_nms", [-1, 6]), b.tmp("matrix_nms_index", [-1, 1], "int32")
n4 = b.tmp("matrix_nms_num", [-1], "int32")
b.op("matrix_nms", {"BBoxes": [boxes], "Scores": [scores]}, {"Out": [o4], "Index": [i4], "RoisNum": [n4]},
     {"score_threshold": 0.05, "post_threshold": 0.1, "nms_top_k": 20, "keep_top_k": 8, "use_gaussian": True})
for v in (o1, o2, i2, o3, i3, n3, o4, i4, n4):
    b.fetch(v)
b.save(os.path.join(out, "nms"))

b = ProgramBuilder()
x = b.feed("x", [-1, 8])
mask = b.feed("mask", [-1, 8], "bool")
b.fetch(b.op("where_index", {"Condition": [mask]}, {"Out": [b.tmp("where_index", [-1, 2], "int64")]}))
b.fetch(b.op("masked_select", {"X": [x], "Mask": [mask]}, {"Y": [b.tmp("masked_select", [-1])]}))
b.save(os.path.join(out, "select"))
