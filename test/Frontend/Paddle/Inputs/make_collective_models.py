"""Writes Paddle programs with the collective and point-to-point ops of
distributed programs (c_allreduce_*, c_broadcast, c_allgather,
c_reducescatter, send_v2, recv_v2, barrier), as Fleet writes them: the
allreduce in place (X and Out the same variable), a send whose result
nothing reads. Also two broken ones for the error tests.

Usage: make_collective_models.py OUTDIR
"""
import os
import sys

from paddle_mlir.builder import ProgramBuilder

out = sys.argv[1]


def comm(b, type, x, attrs, shape, dtype="float32", inplace=False):
    y = x if inplace else b.tmp(type, shape, dtype)
    b.op(type, {"X": [x]}, {"Out": [y]}, attrs)
    return y


b = ProgramBuilder()
x = b.feed("x", [4, 8])
h = b.relu(x)
h = comm(b, "c_allreduce_sum", h, {"ring_id": 0, "use_calc_stream": True}, None, inplace=True)
h = comm(b, "c_broadcast", h, {"ring_id": 0, "root": 1}, [4, 8])
g = comm(b, "c_allgather", h, {"ring_id": 0, "nranks": 2}, [8, 8])
r = comm(b, "c_reducescatter", g, {"ring_id": 0, "nranks": 2}, [4, 8])
m = comm(b, "c_allreduce_max", r, {"ring_id": 1}, [4, 8])
m = comm(b, "c_allreduce_min", m, {}, [4, 8])
m = comm(b, "c_allreduce_prod", m, {}, [4, 8])
b.op("send_v2", {"X": [m]}, {}, {"ring_id": 0, "peer": 1, "use_calc_stream": True})
y = b.tmp("recv", [4, 8])
b.op("recv_v2", {}, {"Out": [y]}, {"ring_id": 0, "peer": 1, "dtype": 5, "out_shape": [4, 8]})
z = comm(b, "barrier", y, {"ring_id": 0}, [4, 8])
b.fetch(z)
b.fetch(m)
b.save(os.path.join(out, "comm"))

# a plain model to partition: x [-1, 8] -> relu
b = ProgramBuilder()
b.fetch(b.relu(b.feed("x", [-1, 8])))
b.save(os.path.join(out, "plain"))

# dim 0 (5) does not split among 2 ranks
b = ProgramBuilder()
x = b.feed("x", [5, 8])
b.fetch(comm(b, "c_reducescatter", x, {"nranks": 2}, [2, 8]))
b.save(os.path.join(out, "bad_scatter"))

# a recv_v2 without out_shape
b = ProgramBuilder()
x = b.feed("x", [4])
y = b.tmp("recv", [4])
b.op("recv_v2", {}, {"Out": [y]}, {"peer": 0, "dtype": 5})
b.fetch(b.relu(y))
b.fetch(x)
b.save(os.path.join(out, "bad_recv"))
