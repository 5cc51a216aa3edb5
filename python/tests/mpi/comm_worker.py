"""Runs under mpirun: each rank loads an artifact, feeds it rank-dependent
inputs and saves its outputs as OUT/rank<r>.npz, for test_collectives.py.

Usage: comm_worker.py ARTIFACT OUT MODE [INPUTS.npz]
MODE: "run" (each rank runs ARTIFACT once, on INPUTS if given, else on
inputs of its own), "p2p" (rank r runs ARTIFACT_r<r>), "stall" (rank 1
joins the job, then stops answering), "die_after_first" (every rank runs
ARTIFACT once; when rank 0's run is done too, which it says by writing
OUT/rank0.first, rank 1 is killed while rank 0 runs it a second time),
"short" (rank 1 runs ARTIFACT_r1, which has fewer collectives than rank
0's), "load" (each rank
only loads ARTIFACT and writes OUT/rank<r>.txt: "ok" or the load error),
"train" (ARTIFACT is a train step: each rank runs one step per batch of
INPUTS, whose arrays hold the batches stacked along a leading dim, and
saves its losses and parameters, rank 0 after gathering a pipeline's),
"train_stall" (the same, but rank 1
joins the job, then stops answering), "instance_rss" (ARTIFACT is a train
step: each rank loads it, then writes OUT/rank<r>.txt: by how many kB a
second instance grew its resident memory).
"""
import os
import signal
import sys
import time

import numpy as np

import paddle_mlir

artifact, out, mode = sys.argv[1:4]
rank = int(os.environ.get("OMPI_COMM_WORLD_RANK", "0"))
if mode in ("p2p", "short") and (mode == "p2p" or rank == 1):
    artifact = "%s_r%d" % (artifact, rank)
if mode == "load":
    try:
        paddle_mlir.load(artifact)
        result = "ok"
    except RuntimeError as e:
        result = str(e)
    with open(os.path.join(out, "rank%d.txt" % rank), "w") as f:
        f.write(result)
    sys.exit(0)
if mode == "instance_rss":
    from paddle_mlir import _pdrt
    from paddle_mlir.train import TrainStep

    def rss_kb():
        with open("/proc/self/status") as f:
            return next(int(line.split()[1]) for line in f if line.startswith("VmRSS:"))

    trainer = TrainStep(artifact)
    trainer._inst  # its instance (made at first use) joins the job
    before = rss_kb()
    second = _pdrt.Instance(trainer._compiled._model, trainer._compiled._device)
    with open(os.path.join(out, "rank%d.txt" % rank), "w") as f:
        f.write(str(rss_kb() - before))
    sys.exit(0)
if mode in ("train", "train_stall"):
    from paddle_mlir.train import TrainStep
    trainer = TrainStep(artifact)
    if mode == "train_stall" and rank == 1:
        trainer._compiled.ranks  # joins the job (MPI_Init waits for every rank)
        time.sleep(600)
    data = np.load(sys.argv[4])
    names = [spec.name for spec in trainer.inputs]
    losses = [trainer.step(**{n: data[n][i] for n in names}) for i in range(len(data[names[0]]))]
    # A pipeline's stages hand their parameters to rank 0 (nothing for
    # data parallelism, where every rank has them all).
    trainer.gather_stage_parameters()
    np.savez(os.path.join(out, "rank%d.npz" % rank), losses=np.array(losses), **trainer.parameters())
    sys.exit(0)
model = paddle_mlir.load(artifact)
got_rank, size = model.ranks
assert got_rank == rank, (got_rank, rank)
if mode == "stall" and rank == 1:
    time.sleep(600)
inputs = {}
given = np.load(sys.argv[4]) if len(sys.argv) > 4 else None
for spec in model.inputs:
    if given is not None:
        inputs[spec.name] = given[spec.name]
        continue
    shape = [d if d is not None else 2 for d in spec.shape]
    # Values that differ per rank and per element; small integers so that
    # sums and products are exact in float32.
    base = np.arange(int(np.prod(shape)), dtype=np.float64).reshape(shape) % 5 + 1
    inputs[spec.name] = (base + rank).astype(spec.dtype)
if mode == "die_after_first":
    model(**inputs)  # the first run's collectives complete on every rank
    first = os.path.join(out, "rank0.first")
    if rank == 0:
        with open(first, "w") as f:
            f.write("done")
    else:
        while not os.path.exists(first):
            time.sleep(0.01)
        os.kill(os.getpid(), signal.SIGKILL)
outs = model(**inputs)
np.savez(os.path.join(out, "rank%d.npz" % rank), size=size,
         **{"out%d" % i: v for i, v in enumerate(outs)})
