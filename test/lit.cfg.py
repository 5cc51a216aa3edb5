# lit configuration for the paddle-mlir test suite (paths come from lit.site.cfg.py).
import os

import lit.formats
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

config.name = "PADDLE_MLIR"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".test"]
config.excludes = ["Unit", "lit.cfg.py", "lit.site.cfg.py", "CMakeLists.txt", "Inputs", "conformance.py", "expected-failures.txt"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.paddle_mlir_obj_root, "test")

config.substitutions.append(("%PATH%", config.environment["PATH"]))
config.substitutions.append(("%shlibext", ".so"))
config.substitutions.append(("%src_root", config.paddle_mlir_src_root))
config.substitutions.append(("%obj_root", config.paddle_mlir_obj_root))
config.substitutions.append(("%cc", "cc"))
# The 26 sparse id inputs of the zoo CTR DNN, for compare.py.
config.substitutions.append(("%{ctr_ids}", " ".join("--shape C%d=3x1:int64:1000" % i for i in range(1, 27))))
config.substitutions.append(("%runtime_include", os.path.join(config.paddle_mlir_src_root, "include", "PaddleMLIR", "Runtime")))
config.substitutions.append(("%runtime_lib", os.path.join(config.paddle_mlir_obj_root, "lib")))
config.substitutions.append(("%python", config.python_executable))

# Real Paddle model files shared by the team (read-only); tests that need
# them are UNSUPPORTED (listed by lit) when the folder is absent.
models = os.path.normpath(os.path.join(config.paddle_mlir_src_root, "..", "shared", "models", "paddle"))
if os.path.isdir(models):
    config.available_features.add("paddle-models")
config.substitutions.append(("%models", models))
# Real public Paddle programs (shared/corpus, test/Corpus/corpus.py).
corpus = os.path.normpath(os.path.join(config.paddle_mlir_src_root, "..", "shared", "corpus"))
if os.path.isdir(corpus):
    config.available_features.add("paddle-corpus")
config.substitutions.append(("%corpus", corpus))

# The Python package built into build/python, run with Debian's interpreter.
config.environment["PYTHONPATH"] = os.path.join(config.paddle_mlir_obj_root, "python")
config.substitutions.append(("%zoo", config.python_executable + " -m paddle_mlir.zoo"))
try:
    import subprocess
    subprocess.run([config.python_executable, "-c", "import torch, torchvision"], check=True,
                   capture_output=True, timeout=120)
    config.available_features.add("torch")
except Exception:
    pass

# ONNX backend node tests from Debian's libonnx-testdata (conformance subset).
onnx_node_tests = "/usr/share/libonnx-testdata/data/node"
if os.path.isdir(onnx_node_tests):
    config.available_features.add("onnx-testdata")
config.substitutions.append(("%onnx_node_tests", onnx_node_tests))

# The CUDA toolkit's ptxas assembles --pd-lower-to-gpu's cubins; tests
# that need it are UNSUPPORTED (listed by lit) where it is absent.
cuda_toolkit = os.environ.get("PADDLE_MLIR_CUDA_TOOLKIT", "/usr/local/cuda")
if os.access(os.path.join(cuda_toolkit, "bin", "ptxas"), os.X_OK):
    config.available_features.add("ptxas")
config.substitutions.append(("%cuda_toolkit", cuda_toolkit))

llvm_config.with_system_environment(["HOME", "INCLUDE", "LIB", "TMP", "TEMP"])
llvm_config.use_default_substitutions()

# LLVM 22's FileCheck/not/split-file come first on PATH, then our tools.
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
llvm_config.with_environment("PATH", config.paddle_mlir_tools_dir, append_path=True)
llvm_config.add_tool_substitutions(
    [ToolSubst("paddle-opt", unresolved="fatal"), ToolSubst("paddle-translate", unresolved="fatal"), ToolSubst("paddle-compile", unresolved="fatal"), ToolSubst("paddle-run", unresolved="fatal"),
     ToolSubst("paddle-calib-stats", unresolved="fatal")], [config.paddle_mlir_tools_dir])
