#!/usr/bin/env python3
"""Writes small ONNX models for the importer tests with onnx.helper.

    make_models.py OUTDIR
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper


def save(model, path, check=True):
    if check:
        onnx.checker.check_model(model)
    onnx.save(model, path)


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    rng = np.random.default_rng(0)
    w = numpy_helper.from_array(rng.standard_normal([8, 3, 3, 3]).astype(np.float32), "w")
    bias = numpy_helper.from_array(rng.standard_normal([8]).astype(np.float32), "b")
    fcw = numpy_helper.from_array(rng.standard_normal([10, 8]).astype(np.float32), "fcw")
    shape = numpy_helper.from_array(np.array([0, -1], np.int64), "shape")
    nodes = [
        # asymmetric pads [h_begin, w_begin, h_end, w_end] = [1, 0, 2, 1]
        helper.make_node("Conv", ["x", "w", "b"], ["c"], name="conv", pads=[1, 0, 2, 1],
                         strides=[2, 2]),
        helper.make_node("Relu", ["c"], ["r"], name="relu"),
        helper.make_node("MaxPool", ["r"], ["p"], name="pool", kernel_shape=[3, 3],
                         auto_pad="SAME_UPPER", strides=[2, 2]),
        helper.make_node("GlobalAveragePool", ["p"], ["g"], name="gap"),
        helper.make_node("Reshape", ["g", "shape"], ["f"], name="flatten"),
        helper.make_node("Gemm", ["f", "fcw"], ["y0"], name="fc", transB=1, alpha=0.5),
        helper.make_node("Softmax", ["y0"], ["y"], name="softmax"),
    ]
    graph = helper.make_graph(nodes, "cnn", [helper.make_tensor_value_info(
        "x", TensorProto.FLOAT, ["N", 3, 16, 16])], [helper.make_tensor_value_info(
            "y", TensorProto.FLOAT, ["N", 10])], [w, bias, fcw, shape])
    save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)]),
         os.path.join(out, "cnn.onnx"))

    # An embedding lookup: Gather on axis 0 of a 2-D table with 2-D indices.
    table = numpy_helper.from_array(rng.standard_normal([6, 4]).astype(np.float32), "table")
    np.save(os.path.join(out, "table.npy"), numpy_helper.to_array(table))
    graph = helper.make_graph([helper.make_node("Gather", ["table", "ids"], ["y"], name="emb")],
                              "emb", [helper.make_tensor_value_info("ids", TensorProto.INT64,
                                                                    ["B", 3])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["B", 3, 4])],
                              [table])
    save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)]),
         os.path.join(out, "embedding.onnx"))

    # SoftmaxCrossEntropyLoss has no pd op: its (context-dependent) ONNX
    # function body is imported instead. No ignore_index is set.
    graph = helper.make_graph(
        [helper.make_node("SoftmaxCrossEntropyLoss", ["x", "t"], ["loss"], name="sce",
                          reduction="mean")], "sce",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [3, 5]),
         helper.make_tensor_value_info("t", TensorProto.INT64, [3])],
        [helper.make_tensor_value_info("loss", TensorProto.FLOAT, [])])
    save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)]),
         os.path.join(out, "sce.onnx"))

    # CumSum over a run-time axis of a 2-D input (which dim is unknown).
    graph = helper.make_graph(
        [helper.make_node("CumSum", ["x", "axis"], ["y"], name="cs")], "cumsum",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3]),
         helper.make_tensor_value_info("axis", TensorProto.INT64, [])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 3])])
    save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 14)]),
         os.path.join(out, "cumsum_axis.onnx"))

    # An op the importer does not handle.
    graph = helper.make_graph([helper.make_node("Det", ["x"], ["y"], name="det")], "det",
                              [helper.make_tensor_value_info("x", TensorProto.FLOAT, [4, 4])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, [])])
    save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 14)]),
         os.path.join(out, "det.onnx"))

    # Relu at opset 5 (version 1, with consumed_inputs), not the version of opset 7.
    graph = helper.make_graph([helper.make_node("Relu", ["x"], ["y"])], "old",
                              [helper.make_tensor_value_info("x", TensorProto.FLOAT, [4])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, [4])])
    save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 5)]),
         os.path.join(out, "opset5.onnx"), check=False)

    # Opset 6 with the legacy broadcasting attribute of binary ops.
    graph = helper.make_graph([helper.make_node("Add", ["x", "b"], ["y"], name="add", broadcast=1)],
                              "legacy",
                              [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 4]),
                               helper.make_tensor_value_info("b", TensorProto.FLOAT, [4])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 4])])
    save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 6)]),
         os.path.join(out, "legacy_broadcast.onnx"), check=False)

    # Reshape whose shape is only known at run time.
    graph = helper.make_graph([helper.make_node("Reshape", ["x", "s"], ["y"], name="dyn")], "dyn",
                              [helper.make_tensor_value_info("x", TensorProto.FLOAT, [4]),
                               helper.make_tensor_value_info("s", TensorProto.INT64, [2])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 2])])
    save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)]),
         os.path.join(out, "dynreshape.onnx"))

    # The same with allowzero (a 0 is a zero-sized dim, not a copy) and an
    # input of unknown size.
    graph = helper.make_graph(
        [helper.make_node("Reshape", ["x", "s"], ["y"], name="dynz", allowzero=1)], "dynz",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["n"]),
         helper.make_tensor_value_info("s", TensorProto.INT64, [2])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 2])])
    save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 14)]),
         os.path.join(out, "dynreshape_allowzero.onnx"))

    # Slice whose starts/ends have a run-time length (the result rank of
    # the per-axis parameters is unknown).
    graph = helper.make_graph(
        [helper.make_node("Slice", ["x", "st", "en"], ["y"], name="sl")], "slice",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [4, 4]),
         helper.make_tensor_value_info("st", TensorProto.INT64, ["n"]),
         helper.make_tensor_value_info("en", TensorProto.INT64, ["n"])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [None, None])])
    save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)]),
         os.path.join(out, "slice_dynlen.onnx"))

    # Refused attribute values of the newer imports: ScatterND's mul
    # reduction, a 3-D ConvTranspose sized by output_shape, a BitShift
    # without a direction, an integer convolution that is not 2-D.
    graph = helper.make_graph(
        [helper.make_node("ScatterND", ["x", "i", "u"], ["y"], name="scm", reduction="mul")], "scm",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [4]),
         helper.make_tensor_value_info("i", TensorProto.INT64, [2, 1]),
         helper.make_tensor_value_info("u", TensorProto.FLOAT, [2])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [4])])
    save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 16)]),
         os.path.join(out, "scatter_mul.onnx"))
    graph = helper.make_graph(
        [helper.make_node("ConvTranspose", ["x", "w"], ["y"], name="ct3",
                          output_shape=[4, 5, 6])], "ct3",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 1, 2, 3, 4]),
         helper.make_tensor_value_info("w", TensorProto.FLOAT, [1, 1, 3, 3, 3])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 1, 4, 5, 6])])
    save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)]),
         os.path.join(out, "convtranspose3d_outshape.onnx"))
    # Conv attributes of the wrong length and a weight of the wrong rank
    # (read per spatial dim unchecked; the 1-entry strides crashed).
    for name, op, attrs, wshape in [
            ("conv_strides1", "Conv", {"strides": [1]}, [2, 1, 3, 3]),
            ("conv_weight3d", "Conv", {}, [2, 1, 3]),
            ("convt_outpad1", "ConvTranspose", {"output_padding": [1], "output_shape": [6, 6]},
             [1, 2, 3, 3])]:
        graph = helper.make_graph(
            [helper.make_node(op, ["x", "w"], ["y"], name=name, **attrs)], name,
            [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 1, 5, 5]),
             helper.make_tensor_value_info("w", TensorProto.FLOAT, wshape)],
            [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["a", "b", "c", "d"])])
        save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)]),
             os.path.join(out, name + ".onnx"), check=False)
    graph = helper.make_graph(
        [helper.make_node("BitShift", ["x", "s"], ["y"], name="bs", direction="UP")], "bs",
        [helper.make_tensor_value_info("x", TensorProto.UINT8, [3]),
         helper.make_tensor_value_info("s", TensorProto.UINT8, [3])],
        [helper.make_tensor_value_info("y", TensorProto.UINT8, [3])])
    save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)]),
         os.path.join(out, "bitshift_dir.onnx"), check=False)
    graph = helper.make_graph(
        [helper.make_node("ConvInteger", ["x", "w"], ["y"], name="ci1")], "ci1",
        [helper.make_tensor_value_info("x", TensorProto.UINT8, [1, 1, 5]),
         helper.make_tensor_value_info("w", TensorProto.UINT8, [1, 1, 3])],
        [helper.make_tensor_value_info("y", TensorProto.INT32, [1, 1, 3])])
    save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)]),
         os.path.join(out, "convinteger1d.onnx"))

    # TopK with a constant k (an initializer).
    graph = helper.make_graph(
        [helper.make_node("TopK", ["x", "k"], ["v", "i"], name="topk", axis=1)], "topk",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 5])],
        [helper.make_tensor_value_info("v", TensorProto.FLOAT, [2, 2]),
         helper.make_tensor_value_info("i", TensorProto.INT64, [2, 2])],
        [helper.make_tensor("k", TensorProto.INT64, [1], [2])])
    save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)]),
         os.path.join(out, "topk.onnx"))

    # 3-D pools through kernel taps: a dilated MaxPool with Indices, an
    # AveragePool with pads, ceil_mode and count_include_pad=0.
    graph = helper.make_graph(
        [helper.make_node("MaxPool", ["x"], ["m", "mi"], name="mp", kernel_shape=[2, 3, 2],
                          strides=[1, 2, 2], dilations=[2, 1, 1], pads=[0, 1, 0, 0, 1, 1]),
         helper.make_node("AveragePool", ["x"], ["a"], name="ap", kernel_shape=[3, 2, 3],
                          strides=[2, 2, 2], pads=[1, 0, 1, 1, 0, 0], ceil_mode=1)], "pool3d",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3, 5, 6, 7])],
        [helper.make_tensor_value_info("m", TensorProto.FLOAT, [None] * 5),
         helper.make_tensor_value_info("mi", TensorProto.INT64, [None] * 5),
         helper.make_tensor_value_info("a", TensorProto.FLOAT, [None] * 5)])
    save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)]),
         os.path.join(out, "pool3d.onnx"))

    # float32 -> bfloat16 (output as uint16 bits).
    graph = helper.make_graph(
        [helper.make_node("Cast", ["x"], ["y"], name="tobf16", to=TensorProto.BFLOAT16)], "bf16",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [4])],
        [helper.make_tensor_value_info("y", TensorProto.BFLOAT16, [4])])
    save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)]),
         os.path.join(out, "cast_bf16.onnx"))

    # Resize with run-time scales and Pad with run-time pads (reflect).
    graph = helper.make_graph(
        [helper.make_node("Resize", ["x", "", "sc"], ["r"], name="rs", mode="linear"),
         helper.make_node("Pad", ["r", "p"], ["y"], name="pad", mode="reflect")], "resize_pad",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 1, 2, 3]),
         helper.make_tensor_value_info("sc", TensorProto.FLOAT, [4]),
         helper.make_tensor_value_info("p", TensorProto.INT64, [8])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [None, None, None, None])])
    save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)]),
         os.path.join(out, "resize_pad.onnx"))

    # Truncated and non-ONNX files.
    data = open(os.path.join(out, "cnn.onnx"), "rb").read()
    open(os.path.join(out, "truncated.onnx"), "wb").write(data[: len(data) // 2])
    open(os.path.join(out, "text.onnx"), "w").write("this is not a model\n")


if __name__ == "__main__":
    main()
