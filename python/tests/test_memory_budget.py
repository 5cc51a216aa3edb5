"""The run-time memory budget (lib/Runtime/Heap.h): buffers whose size
only the run knows come from the heap through the runtime, which stops a
run that would take more than the machine has free (or than
PADDLE_MLIR_MEMORY_LIMIT_MB) with one out-of-memory error, frees what the
run held, and keeps the instance usable; an activation arena larger than
that is refused before it is allocated. Without it Linux hands out pages it
does not have and the OOM killer ends the process (the Stable Diffusion VAE
decoder at its 224 x 224 latent with --dynamic)."""
import os
import subprocess
import sys

import numpy as np
import pytest

import paddle_mlir
from paddle_mlir.builder import Longs, ProgramBuilder
from test_reductions import tool

CHILD = r'''
import os, resource, sys
import numpy as np
import paddle_mlir
m = paddle_mlir.load(sys.argv[1])
small = np.array([16, 8], np.int64)
big = np.array([1024, 1536], np.int64)            # 6 MiB, then 12 MiB for the concat
want = np.full((32, 8), 2.5, np.float32)
np.testing.assert_array_equal(m(small)[0], want)
rss = lambda: resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
before = None
for k in range(40):
    try:
        m(big)
        print("RAN")
        sys.exit(3)
    except RuntimeError as e:
        msg = str(e)
    if k == 4:
        before = rss()
    # The instance still runs smaller inputs.
    np.testing.assert_array_equal(m(small)[0], want)
grown = (rss() - before) / 1024.0
print("MSG", msg)
print("GROWN_MIB %.1f" % grown)
'''


def budget_model(path):
    """A buffer sized by the data (fill_constant of a fed shape, 2.5), then
    a concatenation twice its size while it is live."""
    b = ProgramBuilder()
    shape = b.feed("shape", [2], "int64")
    y = b.op("fill_constant", {"ShapeTensor": [shape]}, {"Out": [b.tmp("fill", [-1, -1])]},
             {"shape": Longs([]), "dtype": 5, "value": 2.5, "str_value": "", "force_cpu": False})
    b.fetch(b.concat([y, y], 0))
    b.save(str(path))


def test_run_over_the_limit_stops_cleanly(tmp_path):
    budget_model(tmp_path / "m")
    art = tmp_path / "a"
    paddle_mlir.compile(str(tmp_path / "m"), output_dir=str(art))
    env = dict(os.environ, PADDLE_MLIR_MEMORY_LIMIT_MB="8")
    p = subprocess.run([sys.executable, "-c", CHILD, str(art)], capture_output=True, text=True,
                       env=env, timeout=300)
    assert p.returncode == 0, p.stdout + p.stderr
    msg = next(l for l in p.stdout.splitlines() if l.startswith("MSG"))
    assert "out of memory: the run's buffers would pass 8 MiB (PADDLE_MLIR_MEMORY_LIMIT_MB): " \
           "6 MiB held, 12 MiB more asked" in msg, msg
    # 35 stopped runs each held 6 MiB they wrote: all freed.
    grown = float(p.stdout.split("GROWN_MIB")[1])
    assert grown < 20, p.stdout
    # Without the limit the same run succeeds.
    p = subprocess.run([sys.executable, "-c",
                        "import sys, numpy as np, paddle_mlir\n"
                        "m = paddle_mlir.load(sys.argv[1])\n"
                        "(y,) = m(np.array([1024, 1536], np.int64))\n"
                        "assert y.shape == (2048, 1536) and (y == 2.5).all()\n", str(art)],
                       capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr


def test_paddle_run_reports_out_of_memory(tmp_path):
    budget_model(tmp_path / "m")
    art = tmp_path / "a"
    paddle_mlir.compile(str(tmp_path / "m"), output_dir=str(art))
    np.save(tmp_path / "s.npy", np.array([1024, 1536], np.int64))
    env = dict(os.environ, PADDLE_MLIR_MEMORY_LIMIT_MB="8")
    p = subprocess.run([tool("paddle-run"), str(art), "--input", "shape=%s" % (tmp_path / "s.npy"),
                        "--output-dir", str(tmp_path / "out")], capture_output=True, text=True,
                       env=env, timeout=300)
    assert 0 < p.returncode < 128, (p.returncode, p.stderr)
    errors = [l for l in p.stderr.splitlines() if "error" in l]
    assert len(errors) == 1 and "out of memory" in errors[0], p.stderr
    assert not (tmp_path / "out").exists() or not os.listdir(tmp_path / "out")


def test_arena_larger_than_the_limit_is_refused(tmp_path):
    # A dynamic batch: the arena is sized at run time (pd_arena_bytes).
    b = ProgramBuilder()
    x = b.feed("x", [-1, 1024])
    b.fetch(b.relu(b.scale(b.relu(x), 2.0)))
    b.save(str(tmp_path / "m"))
    m = paddle_mlir.compile(str(tmp_path / "m"), output_dir=str(tmp_path / "a"))
    code = ("import sys, numpy as np, paddle_mlir\n"
            "m = paddle_mlir.load(sys.argv[1])\n"
            "x = np.ones((4096, 1024), np.float32)\n"
            "try:\n    m(x)\nexcept RuntimeError as e:\n    print(e)\n"
            "print(m(x[:8])[0].sum())\n")
    env = dict(os.environ, PADDLE_MLIR_MEMORY_LIMIT_MB="4")
    p = subprocess.run([sys.executable, "-c", code, str(tmp_path / "a")], capture_output=True,
                       text=True, env=env, timeout=300)
    assert p.returncode == 0, p.stderr
    assert "out of memory: model" in p.stdout and "MiB for these input shapes, more than the 4 MiB " \
           "PADDLE_MLIR_MEMORY_LIMIT_MB allows" in p.stdout, p.stdout
    assert float(p.stdout.split()[-1]) == 8 * 1024 * 2.0
