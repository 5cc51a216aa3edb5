"""Builds the stand-ins of the CUDA libraries kept in this folder (fake_*.c)
with the system C compiler, and names them the way the runtime looks them up
(one environment variable per library). The tests, the corpus runner and
`scripts/gpu-check.sh dry-run` all build them through this file, so a new
stand-in or a flag change is made in one place.

    import stand_ins; env = stand_ins.build(folder, ["driver", "cudnn"])
    python3 stand_ins.py FOLDER [NAME ...]   prints VAR=PATH lines for a shell

NAME is one of the keys of STAND_INS (default: all of them). `driver-device`
is the driver compiled with -DFAKE_CUDA_DEVICE_MEMORY: it hides that its
memory is host memory, as a real driver does, so artifacts whose kernels
run on the host refuse it; it has no variable of its own (the caller puts
it in PADDLE_MLIR_CUDA_DRIVER where it wants it)."""
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))

# name: (source, variable the runtime reads, extra compiler flags)
STAND_INS = {
    "driver": ("fake_libcuda.c", "PADDLE_MLIR_CUDA_DRIVER", []),
    "cudnn": ("fake_cudnn.c", "PADDLE_MLIR_CUDNN", ["-O2"]),
    "cublaslt": ("fake_cublaslt.c", "PADDLE_MLIR_CUBLASLT", ["-O2"]),
    "cudart": ("fake_cudart.c", "PADDLE_MLIR_CUDART_LIBRARY", []),
    "nccl": ("fake_nccl.c", "PADDLE_MLIR_NCCL_LIBRARY", []),
    "driver-device": ("fake_libcuda.c", None, ["-DFAKE_CUDA_DEVICE_MEMORY"]),
}
# The libraries an artifact's runtime loads (the default set).
RUNTIME = ["driver", "cudnn", "cublaslt", "cudart", "nccl"]


def library(folder, name):
    """Compiles stand-in NAME into FOLDER (once) and returns its path."""
    if name not in STAND_INS:
        raise ValueError("no stand-in %r (there are: %s)" % (name, ", ".join(STAND_INS)))
    source, _, flags = STAND_INS[name]
    lib = os.path.join(str(folder), "libfake_%s.so" % name.replace("-", "_"))
    if not os.path.exists(lib):
        os.makedirs(str(folder), exist_ok=True)
        # Built under a temporary name, so a concurrent reader never sees half a file.
        part = "%s.%d" % (lib, os.getpid())
        subprocess.run(["cc", "-shared", "-fPIC", "-O1", *flags, "-o", part,
                        os.path.join(HERE, source)], check=True)
        os.replace(part, lib)
    return lib


def build(folder, names=None):
    """Compiles the stand-ins NAMES (default RUNTIME) into FOLDER and returns
    {variable: path} for those that have a variable."""
    env = {}
    for name in names or RUNTIME:
        lib = library(folder, name)
        var = STAND_INS[name][1]
        if var:
            env[var] = lib
    return env


def main(argv):
    if not argv or argv[0].startswith("-"):
        sys.stderr.write(__doc__)
        return 2
    try:
        env = build(argv[0], argv[1:] or None)
    except (ValueError, subprocess.CalledProcessError) as e:
        sys.stderr.write("stand_ins.py: %s\n" % e)
        return 1
    for var, lib in env.items():
        print("%s=%s" % (var, lib))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
