"""Script the compiler on MLIR text: import, run pipelines, export.

    from paddle_mlir import ir
    text = ir.import_paddle("model_dir")
    text = ir.run_pipeline(text, "builtin.module(pd-optimize)")
    ir.export_paddle(text, "out_dir")
"""

from . import _compiler


def import_paddle(path, params=None, elide_weights=False):
    """Paddle model (file or directory) -> pd MLIR text."""
    return _compiler.import_paddle(str(path), str(params) if params else "", elide_weights)


def import_onnx(path, elide_weights=False):
    """ONNX model (.onnx file, opsets 7 to 17) -> pd MLIR text."""
    return _compiler.import_onnx(str(path), elide_weights)


def run_pipeline(mlir_text, pipeline):
    """Runs a pass pipeline, e.g. "builtin.module(pd-optimize)" or
    "builtin.module(pd-lower-to-cpu)", and returns the resulting text."""
    if not pipeline.startswith("builtin.module("):
        pipeline = "builtin.module(%s)" % pipeline
    return _compiler.run_pipeline(mlir_text, pipeline)


def export_paddle(mlir_text, directory):
    """Writes directory/model.pdmodel and model.pdiparams."""
    _compiler.export_paddle(mlir_text, str(directory))
