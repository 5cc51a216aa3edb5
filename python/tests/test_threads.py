"""The runtime's team size: follows taskset, cgroups (unit test), OMP_NUM_THREADS,
PDRT_NUM_THREADS and the per-model setting; results do not depend on it.
Nothing here is timed."""
import json
import os
import shutil
import subprocess
import sys

import numpy as np
import pytest

import paddle_mlir
from paddle_mlir import reference
from paddle_mlir.builder import ProgramBuilder

BUILD = os.environ.get("PADDLE_MLIR_BUILD_DIR",
                       os.path.join(os.path.dirname(__file__), "..", "..", "build"))
PYPATH = os.path.join(BUILD, "python")
CPUS = sorted(os.sched_getaffinity(0))


@pytest.fixture(scope="module")
def artifact(tmp_path_factory):
    """A conv model (oneDNN kernel + threaded generated loops) compiled once."""
    d = str(tmp_path_factory.mktemp("conv"))
    rng = np.random.RandomState(1)
    b = ProgramBuilder()
    x = b.feed("image", [-1, 3, 16, 16])
    y = b.conv2d(x, b.param("w", (rng.standard_normal((8, 3, 3, 3)) * 0.3).astype(np.float32)),
                 padding=1)
    b.fetch(b.relu(y))
    b.save(os.path.join(d, "model"))
    out = os.path.join(d, "artifact")
    paddle_mlir.compile(os.path.join(d, "model"), output_dir=out)
    return d


SCRIPT = r"""
import json, sys, numpy as np, paddle_mlir
n, source = paddle_mlir.default_num_threads()
res = {"default": n, "source": source}
if len(sys.argv) > 1:
    m = paddle_mlir.load(sys.argv[1])
    x = np.random.RandomState(0).rand(2, 3, 16, 16).astype(np.float32)
    m(x)
    res["team"] = m.last_num_threads
    m.threads = 1
    m(x)
    res["team_capped"] = m.last_num_threads
print(json.dumps(res))
"""


def probe(env_extra=(), prefix=(), artifact_dir=None, unset=("OMP_NUM_THREADS", "PDRT_NUM_THREADS",
                                                             "PDRT_ADAPTIVE_THREADS")):
    env = {k: v for k, v in os.environ.items() if k not in unset}
    env["PYTHONPATH"] = PYPATH
    env.update(dict(env_extra))
    cmd = list(prefix) + [sys.executable, "-c", SCRIPT] + ([artifact_dir] if artifact_dir else [])
    p = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    return json.loads(p.stdout.strip().splitlines()[-1]), p.stderr


def test_default_is_the_cpus_we_may_use():
    res, _ = probe()
    if res["source"] == "cgroup":  # a container with a CPU quota below the affinity mask
        assert 1 <= res["default"] < len(CPUS)
    else:
        assert res == {"default": len(CPUS), "source": "affinity"}


@pytest.mark.skipif(shutil.which("taskset") is None, reason="taskset (util-linux) not installed")
def test_default_follows_taskset():
    res, _ = probe(prefix=("taskset", "-c", str(CPUS[0])))
    assert res == {"default": 1, "source": "affinity"}


def test_default_follows_environment():
    assert probe({"OMP_NUM_THREADS": "1"})[0] == {"default": 1, "source": "OMP_NUM_THREADS"}
    assert probe({"OMP_NUM_THREADS": "3,2"})[0] == {"default": 3, "source": "OMP_NUM_THREADS"}
    res, _ = probe({"OMP_NUM_THREADS": "2", "PDRT_NUM_THREADS": "1"})
    assert res == {"default": 1, "source": "PDRT_NUM_THREADS"}
    res, err = probe({"PDRT_NUM_THREADS": "lots"})
    assert res["source"] in ("affinity", "cgroup")
    assert "pdrt: ignoring PDRT_NUM_THREADS='lots' (not a positive thread count)" in err


def test_team_is_the_cap_without_adaptation(artifact):
    art = os.path.join(artifact, "artifact")
    res, _ = probe({"PDRT_ADAPTIVE_THREADS": "0"}, artifact_dir=art)
    assert res["team"] == res["default"]
    assert res["team_capped"] == 1
    res, _ = probe({"PDRT_ADAPTIVE_THREADS": "0", "OMP_NUM_THREADS": "1"}, artifact_dir=art)
    assert (res["team"], res["team_capped"]) == (1, 1)
    if shutil.which("taskset"):
        res, _ = probe({"PDRT_ADAPTIVE_THREADS": "0"}, prefix=("taskset", "-c", str(CPUS[0])),
                       artifact_dir=art)
        assert (res["default"], res["team"]) == (1, 1)


def test_adaptive_team_never_exceeds_the_cap(artifact):
    art = os.path.join(artifact, "artifact")
    res, _ = probe(artifact_dir=art)
    assert 1 <= res["team"] <= res["default"]
    assert res["team_capped"] == 1


def test_results_do_not_depend_on_the_team(artifact):
    m = paddle_mlir.load(os.path.join(artifact, "artifact"))
    x = np.random.RandomState(3).rand(3, 3, 16, 16).astype(np.float32)
    want = list(reference.load(os.path.join(artifact, "model")).run({"image": x}).values())[0]
    outs = []
    for threads in (1, None, 1):
        m.threads = threads
        outs.append(m(x)[0])
        assert 1 <= m.last_num_threads <= (threads or len(CPUS))
    for got in outs:
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)


def test_threads_option_errors(artifact):
    m = paddle_mlir.load(os.path.join(artifact, "artifact"))
    assert m.last_num_threads == 0
    for bad in (0, -1, 1.5, True, "2"):
        with pytest.raises(ValueError, match="threads must be a positive int or None"):
            m.threads = bad
    with pytest.raises(ValueError, match="threads must be a positive int or None"):
        paddle_mlir.load(os.path.join(artifact, "artifact"), threads=0)


def test_paddle_run_threads(artifact, tmp_path):
    art = os.path.join(artifact, "artifact")
    x = tmp_path / "x.npy"
    np.save(x, np.random.RandomState(0).rand(1, 3, 16, 16).astype(np.float32))
    run = os.path.join(BUILD, "bin", "paddle-run")
    env = {k: v for k, v in os.environ.items() if k not in ("OMP_NUM_THREADS", "PDRT_NUM_THREADS")}
    env["PDRT_ADAPTIVE_THREADS"] = "0"
    p = subprocess.run([run, art, "--input", "image=%s" % x, "--threads", "1"], env=env,
                       capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    assert "threads: 1 of 1 (--threads)" in p.stdout
    p = subprocess.run([run, art, "--input", "image=%s" % x, "--iterations", "2"],
                       env=dict(env, OMP_NUM_THREADS="1"), capture_output=True, text=True)
    assert "threads: 1 of 1 (OMP_NUM_THREADS)" in p.stdout, p.stdout + p.stderr
    p = subprocess.run([run, art, "--input", "image=%s" % x, "--threads=-2"], env=env,
                       capture_output=True, text=True)
    assert p.returncode == 1
    assert "paddle-run: error: --threads must be >= 1 (or 0 for the runtime's default)" in p.stderr
