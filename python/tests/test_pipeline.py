"""Pipeline inference (paddle-compile --partition pipeline --devices N):
the program cut into N stages balanced by the cost model, rank k running
stage k, activations passed by send_v2 / recv_v2 and micro-batches in a
GPipe order. Each partitioned artifact runs under mpirun and rank 0's
outputs are checked against the same model compiled for one process
(ResNet-50 in 2 and 3 stages within 1e-5); the other ranks return zeros.
Also: the manifest's stages, a job of the wrong size, and the compile-time
refusals."""
import json
import os
import subprocess
import sys

import numpy as np
import pytest

import paddle_mlir
from paddle_mlir.builder import ProgramBuilder
from test_collectives import HERE, mpirun, needs_mpi


def run_pipeline(tmp_path, model_dir, feeds, n, input_shapes=None, **kw):
    """Compiles `model_dir` alone and with --partition pipeline --devices n,
    runs the pipeline under mpirun on `feeds` and returns (alone's outputs,
    each rank's outputs, the pipeline's manifest)."""
    common = {k: v for k, v in kw.items() if k not in ("micro_batches", "stage_memory_mb")}
    alone = paddle_mlir.compile(model_dir, input_shapes=input_shapes, **common)
    out_dir = tmp_path / ("pp%d" % n)
    part = paddle_mlir.compile(model_dir, partition="pipeline", devices=n,
                               input_shapes=input_shapes, output_dir=str(out_dir), **kw)
    with open(os.path.join(part.artifact_dir, "manifest.json")) as f:
        manifest = json.load(f)
    np.savez(tmp_path / "in.npz", **feeds)
    out = tmp_path / ("out%d" % n)
    out.mkdir()
    res = mpirun(n, sys.executable, os.path.join(HERE, "mpi", "comm_worker.py"),
                 str(out_dir), str(out), "run", str(tmp_path / "in.npz"), timeout=300)
    assert res.returncode == 0, res.stdout + res.stderr
    ranks = [np.load(out / ("rank%d.npz" % r)) for r in range(n)]
    got = [[z["out%d" % i] for i in range(len(z.files) - 1)] for z in ranks]
    return alone(**feeds), got, manifest


def small_cnn(path, batch):
    rng = np.random.default_rng(1)
    b = ProgramBuilder()
    x = b.feed("image", [batch, 3, 8, 8])
    w = b.param("w", rng.standard_normal((4, 3, 3, 3)).astype(np.float32) * 0.3)
    y = b.relu(b.batch_norm(b.conv2d(x, w, padding=1), b.param("g", np.ones(4, np.float32) * 1.5),
                            b.param("beta", np.full(4, 0.1, np.float32)),
                            b.param("mean", rng.standard_normal(4).astype(np.float32) * 0.1),
                            b.param("var", np.full(4, 2.0, np.float32))))
    w2 = b.param("w2", rng.standard_normal((4, 4, 3, 3)).astype(np.float32) * 0.3)
    y = b.relu(b.elementwise("elementwise_add", b.conv2d(y, w2, padding=1), y))
    y = b.pool2d(y, "avg", 2, stride=2)
    feat = b.flatten(y, 1, 3)
    y = b.linear(feat, b.param("fc_w", rng.standard_normal((64, 5)).astype(np.float32) * 0.1),
                 b.param("fc_b", np.arange(5, dtype=np.float32)))
    b.fetch(b.softmax(y))
    b.fetch(feat)  # an output an earlier stage computes
    b.save(str(path))
    return {"image": rng.standard_normal((batch, 3, 8, 8)).astype(np.float32)}


def check_ranks(want, got):
    for g, w in zip(got[0], want):
        assert g.shape == w.shape
        np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-6)
    for outs in got[1:]:
        for g in outs:
            assert not g.any(), "ranks other than 0 return zeros"


@needs_mpi
@pytest.mark.parametrize("n,micro", [(2, 1), (2, 0), (3, 3)])
def test_pipeline_cnn(tmp_path, n, micro):
    """A small CNN with a residual add and two outputs, in 2 and 3 stages,
    with one micro-batch and with several."""
    feeds = small_cnn(tmp_path / "cnn", 6)
    want, got, manifest = run_pipeline(tmp_path, str(tmp_path / "cnn"), feeds, n,
                                       micro_batches=micro)
    check_ranks(want, got)
    partition = manifest["partition"]
    assert partition["mode"] == "pipeline" and partition["devices"] == n
    assert partition["micro_batches"] == (micro or min(n, 6))
    stages = partition["stages"]
    assert [s["stage"] for s in stages] == list(range(n))
    assert all(s["ops"] >= 1 for s in stages)
    # Each stage names its ops (once each, though every micro-batch runs
    # them), as the cost model's records do, which say the stage of each
    # op; no op is in two stages, and the convolutions and the softmax are
    # among them.
    named = {}
    for s in stages:
        assert s["op_names"] and len(set(s["op_names"])) == len(s["op_names"]), s
        for op in s["op_names"]:
            assert op not in named, op
            named[op] = s["stage"]
    recorded = {o["name"]: o["stage"] for o in manifest["cost"]["ops"] if "stage" in o}
    assert named == recorded, (named, recorded)
    types = {o["type"] for o in manifest["cost"]["ops"] if "stage" in o}
    assert "softmax" in types and any("conv2d" in t for t in types), types
    assert partition["sends_bytes_per_run"] == sum(s["sends_bytes"] for s in stages) > 0
    # The stages read every weight of the artifact (batch_norm folded into
    # the first convolution's); the last stage sends the softmax (6 x 5
    # floats) to rank 0.
    used = set(w for s in stages for w in s["weights"])
    assert used == set(w["name"] for w in manifest["weights"]), used
    assert {"w2", "fc_w", "fc_b"} <= used, used
    assert stages[-1]["sends_bytes"] >= 6 * 5 * 4


@needs_mpi
@pytest.mark.parametrize("n", [2, 3])
def test_pipeline_resnet50(tmp_path, n):
    """ResNet-50 (torchvision's, seeded) in 2 and 3 stages, a batch of 2 in
    2 micro-batches: rank 0's logits equal the single-process artifact's
    within 1e-5. Both fix the convolution's algorithm and layout: by
    default each compile times them on its own, and the two may pick
    differently (about 1e-6 of the logits' norm apart)."""
    from paddle_mlir import zoo
    b, _ = zoo.resnet50(seed=1)
    b.save(str(tmp_path / "r50"))
    x = np.random.RandomState(0).rand(2, 3, 224, 224).astype(np.float32)
    want, got, manifest = run_pipeline(tmp_path, str(tmp_path / "r50"), {"image": x}, n,
                                       input_shapes={"image": [2, 3, 224, 224]}, micro_batches=2,
                                       conv_algorithm="direct", conv_layout="nchw8c")
    partition = manifest["partition"]
    (g,), (w,) = got[0], want
    np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-5)
    # Balanced: no stage holds more than twice its share of the FLOPs.
    flops = [s["flops"] for s in partition["stages"]]
    assert max(flops) < 2 * sum(flops) / n, flops


def heavy_conv_then_big_fcs(path):
    """A convolution that costs most (few weights), then two fully
    connected layers of 1 MiB of weights each."""
    rng = np.random.default_rng(5)
    b = ProgramBuilder()
    x = b.feed("image", [1, 32, 64, 64])
    y = b.relu(b.conv2d(x, b.param("w", rng.standard_normal((32, 32, 3, 3)).astype(np.float32) * 0.1),
                        padding=1))
    feat = b.flatten(b.pool2d(y, "avg", 64, stride=64), 1, 3)
    h = b.linear(feat, b.param("fc2_w", rng.standard_normal((32, 8192)).astype(np.float32) * 0.2),
                 b.param("fc2_b", np.zeros(8192, np.float32)), act="relu")
    b.fetch(b.linear(h, b.param("fc3_w", rng.standard_normal((8192, 32)).astype(np.float32) * 0.02),
                     b.param("fc3_b", np.zeros(32, np.float32))))
    b.save(str(path))
    return {"image": rng.standard_normal((1, 32, 64, 64)).astype(np.float32)}


@needs_mpi
def test_pipeline_stage_memory_limit(tmp_path):
    """Cut by time alone, the second stage holds both 1 MiB layers; with
    stage_memory_mb=1.5 the fastest cut within it moves fc2 to stage 0, and
    rank 0's output still equals one process's. Below 1 MiB no cut fits:
    the error names the smallest limit that does."""
    feeds = heavy_conv_then_big_fcs(tmp_path / "m")
    nbytes = lambda manifest, stage: sum(  # noqa: E731
        w["nbytes"] for w in manifest["weights"] if w["name"] in stage["weights"])
    (tmp_path / "t").mkdir()
    _, _, by_time = run_pipeline(tmp_path / "t", str(tmp_path / "m"), feeds, 2, micro_batches=1)
    stages = by_time["partition"]["stages"]
    assert {"fc2_w", "fc3_w"} <= set(stages[1]["weights"]), stages
    assert nbytes(by_time, stages[1]) > 2 * 2 ** 20
    want, got, capped = run_pipeline(tmp_path, str(tmp_path / "m"), feeds, 2, micro_batches=1,
                                     stage_memory_mb=1.5)
    check_ranks(want, got)
    stages = capped["partition"]["stages"]
    assert "fc2_w" in stages[0]["weights"] and "fc2_w" not in stages[1]["weights"], stages
    assert all(nbytes(capped, s) <= 1.5 * 2 ** 20 for s in stages), stages
    with pytest.raises(RuntimeError, match=r"no cut into 2 pipeline stages keeps every stage's "
                                           r"weights within 0\.50 MiB \(stage-memory-mb\); the "
                                           r"smallest limit that does is 1\.0\d MiB"):
        paddle_mlir.compile(str(tmp_path / "m"), partition="pipeline", devices=2, stage_memory_mb=0.5)
    with pytest.raises(RuntimeError, match="--stage-memory-mb applies to --partition pipeline only"):
        paddle_mlir.compile(str(tmp_path / "m"), stage_memory_mb=1)
    with pytest.raises(RuntimeError, match="--stage-memory-mb must be a number >= 0"):
        paddle_mlir.compile(str(tmp_path / "m"), partition="pipeline", devices=2, stage_memory_mb=-1)


@needs_mpi
def test_each_rank_checks_only_its_stage_weights(tmp_path):
    """A byte flipped in a weight only the last stage reads: rank 0 loads
    the artifact (it neither checks nor reads that weight), rank 1 refuses
    it naming its stage, and a process outside a 2-rank job checks the
    whole file."""
    small_cnn(tmp_path / "cnn", 2)
    art = tmp_path / "pp"
    paddle_mlir.compile(str(tmp_path / "cnn"), partition="pipeline", devices=2,
                        output_dir=str(art))
    with open(art / "manifest.json") as f:
        manifest = json.load(f)
    stages = manifest["partition"]["stages"]
    assert all(len(s["weights_checksum"]) == 16 for s in stages)
    (name,) = [w for w in stages[1]["weights"] if w not in stages[0]["weights"]][:1]
    (entry,) = [w for w in manifest["weights"] if w["name"] == name]
    with open(art / manifest["weights_file"], "r+b") as f:
        f.seek(entry["offset"])
        byte = f.read(1)
        f.seek(entry["offset"])
        f.write(bytes([byte[0] ^ 0x40]))
    out = tmp_path / "out"
    out.mkdir()
    res = mpirun(2, sys.executable, os.path.join(HERE, "mpi", "comm_worker.py"), str(art), str(out),
                 "load")
    assert res.returncode == 0, res.stdout + res.stderr
    assert (out / "rank0.txt").read_text() == "ok"
    assert "is corrupted in the weights of pipeline stage 1" in (out / "rank1.txt").read_text()
    with pytest.raises(RuntimeError, match=r"is corrupted \(checksum"):
        paddle_mlir.load(str(art))


def test_pipeline_alone_is_refused(tmp_path):
    feeds = small_cnn(tmp_path / "cnn", 2)
    model = paddle_mlir.compile(str(tmp_path / "cnn"), partition="pipeline", devices=2)
    with pytest.raises(RuntimeError, match=r"is_stage: the artifact is a pipeline of 2 stages "
                                           r"\(--partition pipeline --devices 2\), one per rank, "
                                           r"but the job has 1 rank \(run it with mpirun -np 2\)"):
        model(**feeds)


def test_pipeline_refusals(tmp_path):
    b = ProgramBuilder()
    b.fetch(b.relu(b.feed("x", [4, 3])))
    b.save(str(tmp_path / "one"))
    with pytest.raises(RuntimeError, match="the program has 1 op that computes, too few to "
                                           "cut into 2 pipeline stages of at least one op"):
        paddle_mlir.compile(str(tmp_path / "one"), partition="pipeline", devices=2)
    small_cnn(tmp_path / "cnn", 6)
    with pytest.raises(RuntimeError, match="a batch of 6 does not split into 4 micro-batches"):
        paddle_mlir.compile(str(tmp_path / "cnn"), partition="pipeline", devices=2, micro_batches=4)
    with pytest.raises(RuntimeError, match="--micro-batches applies to --partition pipeline only"):
        paddle_mlir.compile(str(tmp_path / "cnn"), micro_batches=2)
    # A dynamic batch crossing a cut.
    b = ProgramBuilder()
    x = b.feed("x", [-1, 3])
    b.fetch(b.relu(b.scale(b.relu(x), 2.0)))
    b.save(str(tmp_path / "dyn"))
    with pytest.raises(RuntimeError, match=r"passes from pipeline stage 0 to stage 1 with a "
                                           r"dynamic shape"):
        paddle_mlir.compile(str(tmp_path / "dyn"), partition="pipeline", devices=2)


@needs_mpi
def test_paddle_run_pipeline(tmp_path):
    """mpirun -np 2 paddle-run on a pipeline: rank 0 writes the outputs,
    which equal the single-process artifact's."""
    from test_reductions import tool
    feeds = small_cnn(tmp_path / "cnn", 4)
    alone = paddle_mlir.compile(str(tmp_path / "cnn"))
    want = alone(**feeds)
    p = subprocess.run([tool("paddle-compile"), str(tmp_path / "cnn"), "--partition", "pipeline",
                        "--devices", "2", "-o", str(tmp_path / "pp")], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    np.save(tmp_path / "x.npy", feeds["image"])
    res = mpirun(2, tool("paddle-run"), str(tmp_path / "pp"), "--input", "image=%s" % (tmp_path / "x.npy"),
                 "--output-dir", str(tmp_path / "out"))
    assert res.returncode == 0, res.stdout + res.stderr
    assert "ranks: 2 (outputs of rank 0)" in res.stdout, res.stdout
    got = [np.load(tmp_path / "out" / f) for f in sorted(os.listdir(tmp_path / "out"))]
    assert len(got) == len(want)
    for w in want:
        assert any(g.shape == w.shape and np.allclose(g, w, rtol=1e-5, atol=1e-6) for g in got)
