"""Writes Paddle programs with the collective and point-to-point ops of
distributed programs (c_allreduce_*, c_broadcast, c_allgather,
c_reducescatter, send_v2, recv_v2, barrier), as Fleet writes them: the
allreduce in place (X and Out the same variable) between Fleet's stream
synchronizations, a send whose result nothing reads; once with an op on
a second ring and once all on ring 0. Also a startup program's
communicator set-up and two broken ones for the error tests.

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


def comm_program(name, other_ring):
    """The collectives in one program; `other_ring`: the ring of the
    c_allreduce_max (1: a ring no other op uses). Fleet's stream
    synchronizations surround the in-place allreduce."""
    b = ProgramBuilder()
    x = b.feed("x", [4, 8])
    h = b.relu(x)
    b.op("c_sync_calc_stream", {"X": [h]}, {"Out": [h]}, {})
    h = comm(b, "c_allreduce_sum", h, {"ring_id": 0, "use_calc_stream": True}, None, inplace=True)
    b.op("c_sync_comm_stream", {"X": [h]}, {"Out": [h]}, {"ring_id": 0})
    h = comm(b, "c_broadcast", h, {"ring_id": 0, "root": 1}, [4, 8])
    g = comm(b, "c_allgather", h, {"ring_id": 0, "nranks": 2}, [8, 8])
    r = comm(b, "c_reducescatter", g, {"ring_id": 0, "nranks": 2}, [4, 8])
    m = comm(b, "c_allreduce_max", r, {"ring_id": other_ring}, [4, 8])
    m = comm(b, "c_allreduce_min", m, {}, [4, 8])
    m = comm(b, "c_allreduce_prod", m, {}, [4, 8])
    b.op("send_v2", {"X": [m]}, {}, {"ring_id": 0, "peer": 1, "use_calc_stream": True})
    y = b.tmp("recv", [4, 8])
    b.op("recv_v2", {}, {"Out": [y]}, {"ring_id": 0, "peer": 1, "dtype": 5, "out_shape": [4, 8]})
    z = comm(b, "barrier", y, {"ring_id": 0}, [4, 8])
    b.fetch(z)
    b.fetch(m)
    b.save(os.path.join(out, name))


comm_program("comm", 1)
comm_program("comm_ring0", 0)

# a startup program's communicator set-up (not a program to run)
b = ProgramBuilder()
x = b.feed("x", [4])
b.op("c_comm_init", {"X": [x]}, {}, {"nranks": 2, "rank": 0, "ring_id": 0})
b.fetch(b.relu(x))
b.save(os.path.join(out, "startup"))

# a plain model to partition: x [-1, 8] -> relu
b = ProgramBuilder()
b.fetch(b.relu(b.feed("x", [-1, 8])))
b.save(os.path.join(out, "plain"))

# a stream sync whose Out list does not match its X list
b = ProgramBuilder()
x = b.feed("x", [4])
b.op("c_sync_comm_stream", {"X": [x]}, {"Out": []}, {"ring_id": 0})
b.fetch(b.relu(x))
b.save(os.path.join(out, "bad_sync"))

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
