"""Attribute quirks of real Paddle programs, each reduced to a minimal program
written with the builder (issue 23): they import, compile and match the NumPy
reference."""
import os
import subprocess

import numpy as np

import paddle_mlir
from paddle_mlir import ir, reference
from paddle_mlir.builder import ProgramBuilder

BUILD = os.environ.get("PADDLE_MLIR_BUILD_DIR",
                       os.path.join(os.path.dirname(__file__), "..", "..", "build"))


def test_global_pooling_ignores_negative_ksize(tmp_path):
    # Fluid 1.x programs write ksize=[-1, -1] under global_pooling=True;
    # Paddle ignores ksize then, and so must the importer.
    rng = np.random.RandomState(0)
    b = ProgramBuilder()
    x = b.feed("image", [-1, 3, 6, 5])
    y = b.conv2d(x, b.param("w", rng.standard_normal((4, 3, 3, 3)).astype(np.float32)), padding=1)
    for kind in ("avg", "max"):
        b.fetch(b.pool2d(y, kind, [-1, -1], global_pooling=True))
    b.save_fluid(str(tmp_path / "m"))
    model = paddle_mlir.compile(str(tmp_path / "m"))
    img = rng.rand(2, 3, 6, 5).astype(np.float32)
    want = list(reference.load(str(tmp_path / "m")).run({"image": img}).values())
    got = model(img)
    assert len(got) == 2
    for g, w in zip(got, want):
        assert g.shape == (2, 4, 1, 1)
        np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-5)


def test_negative_ksize_without_global_pooling_is_an_error(tmp_path):
    b = ProgramBuilder()
    x = b.feed("image", [1, 3, 4, 4])
    b.fetch(b.pool2d(x, "max", [-1, -1]))
    b.save_fluid(str(tmp_path / "m"))
    try:
        ir.import_paddle(str(tmp_path / "m"))
    except Exception as e:  # the verifier names the op and the attribute
        assert "pool2d" in str(e) and "ksize" in str(e)
    else:
        raise AssertionError("a negative ksize outside global pooling was accepted")


def test_export_op_without_operands(tmp_path):
    # An op with no operand (fill_constant) used to crash the exporter
    # (SIGSEGV) while it looked for auxiliary outputs.
    b = ProgramBuilder()
    x = b.feed("x", [-1, 4])
    c = b.op("fill_constant", {}, {"Out": [b.tmp("fill_constant", [1])]},
             {"shape": [1], "value": 255.0, "dtype": 5})
    b.fetch(b.elementwise("elementwise_div", x, c))
    b.save(str(tmp_path / "m"))
    translate = os.path.join(BUILD, "bin", "paddle-translate")
    mlir = tmp_path / "a.mlir"
    subprocess.run([translate, "--import-paddle", str(tmp_path / "m"), "-o", str(mlir)], check=True)
    p = subprocess.run([translate, "--export-paddle", str(mlir), "-o", str(tmp_path / "e")],
                       capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    again = subprocess.run([translate, "--import-paddle", str(tmp_path / "e")], check=True,
                           capture_output=True, text=True).stdout
    assert again == subprocess.run([os.path.join(BUILD, "bin", "paddle-opt"), str(mlir)], check=True,
                                   capture_output=True, text=True).stdout
    data = np.arange(8, dtype=np.float32).reshape(2, 4)
    (got,) = paddle_mlir.compile(str(tmp_path / "e"))(data)
    np.testing.assert_allclose(got, data / 255.0, rtol=1e-6)


def test_flatten2_compiles(tmp_path):
    # Fluid's flatten2 (a matrix of the dims before and from `axis`) had no
    # CPU lowering; classifier heads of 1.x programs use it.
    rng = np.random.RandomState(2)
    b = ProgramBuilder()
    x = b.feed("x", [-1, 3, 4, 5])
    outs = []
    for axis, shape in ((1, [-1, 60]), (2, [-1, 20]), (0, [1, -1])):
        y = b.tmp("flatten2", shape)
        b.op("flatten2", {"X": [x]}, {"Out": [y], "XShape": [b.tmp("flatten2_xshape", [0, -1, 3, 4, 5])]},
             {"axis": axis})
        b.fetch(y)
    b.save(str(tmp_path / "m"))
    data = rng.rand(2, 3, 4, 5).astype(np.float32)
    got = paddle_mlir.compile(str(tmp_path / "m"))(data)
    for g, shape in zip(got, ((2, 60), (6, 20), (1, 120))):
        np.testing.assert_array_equal(g, data.reshape(shape))


def test_bytecode_inputs_with_weights(tmp_path):
    # Bytecode keeps weights 64-byte aligned; paddle-opt, --export-paddle and
    # paddle-compile read small files into buffers aligned less and failed
    # ("expected section alignment 64") three times out of four.
    rng = np.random.RandomState(4)
    b = ProgramBuilder()
    x = b.feed("x", [-1, 3, 4, 4])
    b.fetch(b.conv2d(x, b.param("w", rng.standard_normal((2, 3, 1, 1)).astype(np.float32))))
    b.save(str(tmp_path / "m"))
    bc = str(tmp_path / "m.mlirbc")
    bin_ = lambda t: os.path.join(BUILD, "bin", t)
    subprocess.run([bin_("paddle-translate"), "--import-paddle", str(tmp_path / "m"), "--emit-bytecode",
                    "-o", bc], check=True)
    for i in range(4):  # heap placement varies between runs
        for cmd in ([bin_("paddle-opt"), bc], [bin_("paddle-translate"), "--export-paddle", bc, "-o",
                                               str(tmp_path / ("e%d" % i))]):
            p = subprocess.run(cmd, capture_output=True, text=True)
            assert p.returncode == 0, p.stderr
    p = subprocess.run([bin_("paddle-compile"), bc, "-o", str(tmp_path / "art")], capture_output=True,
                       text=True)
    assert p.returncode == 0, p.stderr
    data = rng.rand(1, 3, 4, 4).astype(np.float32)
    (got,) = paddle_mlir.load(str(tmp_path / "art"))(data)
    want = list(reference.load(str(tmp_path / "m")).run({"x": data}).values())[0]
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)


def test_reshape_to_a_shape_computed_at_run_time(tmp_path):
    # OCR recognizers reshape to sizes computed from the image width at run
    # time: shape -> slice (one number per dim, some 0-d) -> reshape2's
    # ShapeTensor list. The CPU backend refused that list; one artifact must
    # serve every width.
    b = ProgramBuilder()
    x = b.feed("x", [-1, 6, -1])
    s = b.tmp("shape", [3], "int32")
    b.op("shape", {"Input": [x]}, {"Out": [s]})

    def take(i, decrease):
        out = b.tmp("slice", [] if decrease else [1], "int32")
        b.op("slice", {"Input": [s]}, {"Out": [out]},
             {"axes": [0], "starts": [i], "ends": [i + 1], "decrease_axis": [0] if decrease else []})
        return out

    def const(v):
        out = b.tmp("fill_constant", [1], "int32")
        b.op("fill_constant", {}, {"Out": [out]}, {"shape": [1], "value": float(v), "dtype": 2})
        return out

    n, w = take(0, False), take(2, True)
    y = b.tmp("reshape2", [-1, 3, -1, -1])
    b.op("reshape2", {"X": [x], "ShapeTensor": [n, const(3), const(-1), w]},
         {"Out": [y], "XShape": [b.tmp("reshape2_xshape", [0, -1, 6, -1])]}, {"shape": [0, 3, -1, 0]})
    b.fetch(y)
    b.save(str(tmp_path / "m"))
    model = paddle_mlir.compile(str(tmp_path / "m"))
    ref = reference.load(str(tmp_path / "m"))
    rng = np.random.RandomState(5)
    for batch, width in ((1, 5), (2, 9)):
        data = rng.rand(batch, 6, width).astype(np.float32)
        (got,) = model(data)
        assert got.shape == (batch, 3, 2, width)
        np.testing.assert_array_equal(got, data.reshape(batch, 3, 2, width))
        np.testing.assert_array_equal(got, list(ref.run({"x": data}).values())[0])


def test_unsupported_kinds_are_named(tmp_path):
    # Ops of the kinds paddle-mlir does not support yet (LoD sequences,
    # recurrent layers, control flow, data-dependent output sizes) fail at
    # import with one line that names the op and says which kind it is.
    translate = os.path.join(BUILD, "bin", "paddle-translate")
    for op, kind in (("nonzero", "output size depends on the data"), ("linear_chain_crf", "LoD"), ("dynamic_lstm", "a recurrent op"), ("gap", None)):
        b = ProgramBuilder()
        x = b.feed("x", [-1, 4])
        y = b.tmp(op, [-1, 4])
        b.op(op, {"X": [x]}, {"Out": [y]})
        b.fetch(y)
        b.save(str(tmp_path / op))
        p = subprocess.run([translate, "--import-paddle", str(tmp_path / op)], capture_output=True, text=True)
        assert p.returncode == 1, (op, p.returncode, p.stderr)
        lines = [l for l in p.stderr.splitlines() if "error" in l]
        assert len(lines) == 1 and ("unsupported Paddle op '%s'" % op) in lines[0], p.stderr
        if kind:
            assert kind in lines[0] and "not supported yet" in lines[0], lines[0]
        else:
            assert "not supported yet" not in lines[0], lines[0]
