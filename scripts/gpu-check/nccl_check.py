"""One process on one GPU through the NCCL backend (libpdrt_nccl.so, which
needs no MPI for a single rank): each collective of the backend's table on
host buffers (staged on the GPU by the backend) and, where PyTorch sees the
GPU, on device buffers (PyTorch's), against what one rank must get (its
own data), then the time of a 64 MiB allreduce on the device. Run by
check.py as a process of its own (NCCL's state is per process); needs
NumPy, and NCCL and the CUDA runtime where the backend can load them
($PADDLE_MLIR_NCCL_LIBRARY, $PADDLE_MLIR_CUDART_LIBRARY). Prints one line
per check; exits 1 on any failure.

Usage: python3 nccl_check.py DIR"""
import ctypes
import os
import sys
import time

import numpy as np

# pdk::comm's values (include/PaddleMLIR/Runtime/KernelABI.h).
ALLREDUCE, BROADCAST, ALLGATHER, REDUCESCATTER, BARRIER = 0, 1, 2, 3, 6
F32, I64 = 0, 3
SUM, MAX, MIN, PROD = 0, 1, 2, 3


class Op(ctypes.Structure):  # pdcomm_op (CommBackend.h)
    _fields_ = [("kind", ctypes.c_int64), ("dtype", ctypes.c_int64), ("reduce", ctypes.c_int64),
                ("peer", ctypes.c_int64), ("in_", ctypes.c_void_p), ("out", ctypes.c_void_p),
                ("count", ctypes.c_int64)]


INIT = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.POINTER(ctypes.c_int64), ctypes.POINTER(ctypes.c_int64),
                        ctypes.c_char_p, ctypes.c_size_t)
RUN = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.POINTER(Op), ctypes.c_double, ctypes.c_char_p,
                       ctypes.c_size_t)


class Backend(ctypes.Structure):  # pdcomm_backend (CommBackend.h)
    _fields_ = [("abi", ctypes.c_int64), ("name", ctypes.c_char_p), ("init", INIT), ("run", RUN),
                ("start", ctypes.c_void_p), ("wait", ctypes.c_void_p)]


def main():
    root = os.path.abspath(sys.argv[1])
    lib = ctypes.CDLL(os.path.join(root, "libpdrt_nccl.so"))
    lib.pdcomm_nccl_backend.restype = ctypes.POINTER(Backend)
    b = lib.pdcomm_nccl_backend().contents
    err = ctypes.create_string_buffer(512)
    rank, size = ctypes.c_int64(-1), ctypes.c_int64(0)
    if b.init(ctypes.byref(rank), ctypes.byref(size), err, len(err)) != 0:
        print("nccl: ERROR starting: %s" % err.value.decode())
        return 1
    print("nccl: started, rank %d of %d" % (rank.value, size.value))
    try:
        import torch
        device_buffers = torch.cuda.is_available()
        why = "" if device_buffers else "PyTorch sees no CUDA device"
    except ImportError as e:
        device_buffers, why = False, "no PyTorch (%s)" % e
    if not device_buffers:
        print("nccl: device buffers not checked: %s" % why)
    failed = 0
    cases = [("allreduce_sum", ALLREDUCE, SUM), ("allreduce_max", ALLREDUCE, MAX),
             ("allreduce_min", ALLREDUCE, MIN), ("allreduce_prod", ALLREDUCE, PROD),
             ("broadcast", BROADCAST, SUM), ("allgather", ALLGATHER, SUM),
             ("reducescatter", REDUCESCATTER, SUM), ("barrier", BARRIER, SUM)]
    for dtype, np_type in ((F32, np.float32), (I64, np.int64)):
        x = (np.arange(1000) % 7 - 3).astype(np_type)
        for name, kind, reduce in cases:
            for where in ("host", "device") if device_buffers else ("host",):
                if where == "host":
                    src, dst = x.copy(), np.zeros_like(x)
                    pin, pout = src.ctypes.data, dst.ctypes.data
                else:
                    src = torch.from_numpy(x.copy()).cuda()
                    dst = torch.zeros_like(src)
                    torch.cuda.synchronize()
                    pin, pout = src.data_ptr(), dst.data_ptr()
                if kind in (BROADCAST, BARRIER):  # in place, as pdk_collective calls them
                    pout = pin
                op = Op(kind, dtype, reduce, 0, pin, pout, x.size)
                rc = b.run(ctypes.byref(op), 60.0, err, len(err))
                got = (src if pout == pin else dst)
                got = got.cpu().numpy() if where == "device" else got
                label = "%s %s %s" % (name, np_type.__name__, where)
                if rc != 0:
                    failed += 1
                    print("nccl: %-32s ERROR %s" % (label, err.value.decode()))
                elif not np.array_equal(got, x):  # one rank: each op gives its own data
                    failed += 1
                    print("nccl: %-32s MISMATCH (max diff %g)" % (
                        label, float(np.max(np.abs(got.astype(np.float64) - x)))))
                else:
                    print("nccl: %-32s ok" % label)
    if device_buffers and not failed:
        n = 16 << 20  # 64 MiB of float32
        buf = torch.ones(n, device="cuda")
        op = Op(ALLREDUCE, F32, SUM, 0, buf.data_ptr(), buf.data_ptr(), n)
        times = []
        for _ in range(10):
            torch.cuda.synchronize()
            start = time.perf_counter()
            if b.run(ctypes.byref(op), 60.0, err, len(err)) != 0:
                failed += 1
                print("nccl: allreduce 64 MiB ERROR %s" % err.value.decode())
                break
            times.append(time.perf_counter() - start)
        if times:
            t = float(np.median(times))
            print("nccl: allreduce of 64 MiB on the device in place: %.3f ms (%.1f GB/s algbw; "
                  "one rank)" % (t * 1e3, 4 * n / t / 1e9))
    print("nccl: %d checks failed" % failed)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
