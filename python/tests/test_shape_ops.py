"""Shape ops of issue 34's Paddle2ONNX list (roll, pixel_shuffle): builder
programs with dynamic dims, compiled, against NumPy / PyTorch, the
reference evaluator and the exporter's round trip."""
import numpy as np
import pytest

from paddle_mlir.builder import ProgramBuilder
from test_reductions import check


@pytest.mark.parametrize("shifts,axis", [([2], [1]), ([-3], [1]), ([1, 9], [0, -1]), ([5], []), ([0], [0])])
def test_roll(tmp_path, shifts, axis):
    x = np.arange(3 * 7, dtype=np.float32).reshape(3, 7) - 4.5
    b = ProgramBuilder()
    xv = b.feed("x", [-1, 7])
    b.fetch(b._simple("roll", xv, {"shifts": shifts, "axis": axis}))
    # np.roll is the definition Paddle documents (flattened without axes).
    want = np.roll(x, shifts, axis=tuple(axis) if axis else None)
    check(tmp_path, b, [x], want)


@pytest.mark.parametrize("factor,layout", [(2, "NCHW"), (3, "NCHW"), (2, "NHWC")])
def test_pixel_shuffle(tmp_path, factor, layout):
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(3)
    x = rng.standard_normal((2, 2 * factor * factor, 3, 5)).astype(np.float32)
    want = torch.nn.functional.pixel_shuffle(torch.from_numpy(x), factor).numpy()
    if layout == "NHWC":
        x, want = x.transpose(0, 2, 3, 1).copy(), want.transpose(0, 2, 3, 1).copy()
        shape = [-1, 3 * factor, 5 * factor, 2]
    else:
        shape = [-1, 2, 3 * factor, 5 * factor]
    b = ProgramBuilder()
    xv = b.feed("x", [-1] + list(x.shape[1:]))
    b.fetch(b._simple("pixel_shuffle", xv, {"upscale_factor": factor, "data_format": layout}, shape=shape))
    check(tmp_path, b, [x], want)
