"""The builder writes Paddle's parameter record layout and program structure."""
import struct

import numpy as np

from paddle_mlir import framework_pb2 as fp
from paddle_mlir.builder import ProgramBuilder, tensor_record


def test_record_layout_by_hand():
    rec = tensor_record(np.array([[1.0, 2.0]], np.float32))
    version, lod, tensor_version, desc_size = struct.unpack_from("<IQIi", rec, 0)
    assert (version, lod, tensor_version) == (0, 0, 0)
    desc = fp.VarType.TensorDesc()
    desc.ParseFromString(rec[20:20 + desc_size])
    assert desc.data_type == fp.VarType.FP32 and list(desc.dims) == [1, 2]
    assert rec[20 + desc_size:] == struct.pack("<2f", 1.0, 2.0)


def test_feed_fetch_order_and_sorted_params(tmp_path):
    b = ProgramBuilder()
    x = b.feed("x", [-1, 2])
    y = b.feed("y", [-1, 2])
    b.param("zeta", np.ones(2, np.float32))
    b.param("alpha", np.zeros(2, np.float32))
    b.fetch(b.elementwise("elementwise_add", x, y))
    b.save(str(tmp_path))
    prog = fp.ProgramDesc()
    prog.ParseFromString((tmp_path / "model.pdmodel").read_bytes())
    ops = prog.blocks[0].ops
    # feed ops are prepended, so they appear in reverse col order
    assert [o.type for o in ops] == ["feed", "feed", "elementwise_add", "fetch"]
    assert [a.i for a in ops[0].attrs if a.name == "col"] == [1]
    data = (tmp_path / "model.pdiparams").read_bytes()
    assert data == tensor_record(np.zeros(2, np.float32)) + tensor_record(np.ones(2, np.float32))
