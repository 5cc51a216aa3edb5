//===- compiler_module.cpp - paddle_mlir._compiler: the compiler for Python -===//
//
// Import, pipelines, export and ahead-of-time compilation, on MLIR text.
// Errors raise RuntimeError carrying the compiler's one-line diagnostics.
//
//===----------------------------------------------------------------------===//

#include "ModelLoader.h"
#include "PaddleMLIR/Driver/Driver.h"
#include "PaddleMLIR/CodeGen/Passes.h"
#include "PaddleMLIR/Dialect/Pd/Transforms/Passes.h"
#include "PaddleMLIR/Frontend/ONNX/OnnxImport.h"
#include "PaddleMLIR/Frontend/Paddle/PaddleExport.h"
#include "PaddleMLIR/Frontend/Paddle/PaddleImport.h"
#include "PaddleMLIR/Support/Diagnostics.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <map>
#include <string>
#include <vector>

namespace py = pybind11;
using namespace mlir;

namespace {
/// A compile option with a value that does not parse (CompileOptionError).
struct OptionError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// A context whose diagnostics are collected for the Python exception.
struct Session {
  Session() : ctx(pd::tool::compilerRegistry()), os(messages), handler(&ctx, os) {}
  [[noreturn]] void fail(const std::string &what) {
    os.flush();
    std::string msg = messages.empty() ? what : what + ":\n" + messages;
    while (!msg.empty() && msg.back() == '\n')
      msg.pop_back();
    throw std::runtime_error(msg);
  }
  OwningOpRef<ModuleOp> parse(const std::string &text) {
    OwningOpRef<ModuleOp> m = parseSourceString<ModuleOp>(text, &ctx);
    if (!m)
      fail("cannot parse the MLIR text");
    return m;
  }
  std::string print(ModuleOp m, bool elideWeights) {
    std::string out;
    llvm::raw_string_ostream ros(out);
    OpPrintingFlags flags;
    if (elideWeights)
      flags.elideLargeResourceString(16);
    m.print(ros, flags);
    return out;
  }
  MLIRContext ctx;
  std::string messages;
  llvm::raw_string_ostream os;
  pd::ToolDiagnosticHandler handler;
};

void registerOnce() {
  static bool done = [] {
    pd::registerCodeGenPassesAndPipelines();
    pd::registerPdPassesAndPipelines();
    return true;
  }();
  (void)done;
}
} // namespace

PYBIND11_MODULE(_compiler, m) {
  m.doc() = "paddle-mlir compiler: import, pipelines, export, ahead-of-time compilation";
  registerOnce();

  m.def(
      "import_paddle",
      [](const std::string &path, const std::string &params, bool elideWeights) {
        Session s;
        OwningOpRef<ModuleOp> mod = pd::importPaddleModel(&s.ctx, path, params);
        if (!mod)
          s.fail("cannot import '" + path + "'");
        return s.print(*mod, elideWeights);
      },
      py::arg("path"), py::arg("params") = "", py::arg("elide_weights") = false);

  m.def(
      "import_onnx",
      [](const std::string &path, bool elideWeights) {
        Session s;
        OwningOpRef<ModuleOp> mod = pd::importOnnxModel(&s.ctx, path);
        if (!mod)
          s.fail("cannot import '" + path + "'");
        return s.print(*mod, elideWeights);
      },
      py::arg("path"), py::arg("elide_weights") = false);

  m.def(
      "run_pipeline",
      [](const std::string &text, const std::string &pipeline) {
        Session s;
        OwningOpRef<ModuleOp> mod = s.parse(text);
        PassManager pm(&s.ctx);
        std::string errors;
        llvm::raw_string_ostream es(errors);
        if (failed(parsePassPipeline(pipeline, pm, es)))
          throw py::value_error("invalid pipeline '" + pipeline + "': " + errors);
        if (failed(pm.run(*mod)))
          s.fail("pipeline '" + pipeline + "' failed");
        return s.print(*mod, false);
      },
      py::arg("mlir_text"), py::arg("pipeline"));

  m.def(
      "export_paddle",
      [](const std::string &text, const std::string &dir) {
        Session s;
        OwningOpRef<ModuleOp> mod = s.parse(text);
        if (failed(pd::exportPaddleModel(*mod, dir)))
          s.fail("cannot export to '" + dir + "'");
      },
      py::arg("mlir_text"), py::arg("directory"));

  // A bad option value: a ValueError, and a RuntimeError as well, which is
  // what compile raised for most of them before they were parsed up front.
  py::register_local_exception<OptionError>(
      m, "CompileOptionError",
      py::make_tuple(py::handle(PyExc_ValueError), py::handle(PyExc_RuntimeError)));

  m.def(
      "compile",
      [](const std::string &source, bool isText, const std::string &params,
         const std::map<std::string, std::string> &typedOptions,
         const std::map<std::string, std::vector<int64_t>> &inputShapes, bool optimize,
         const std::string &name, const std::string &outDir, bool memoryPlan,
         const std::string &cpu, bool parallel) {
        pd::CompileOptions opts;
        // Before loading, so a bad value fails fast, with paddle-compile's message.
        for (const auto &[flag, value] : typedOptions)
          if (llvm::Error e = pd::setCompileOption(opts, flag, value))
            throw OptionError(llvm::toString(std::move(e)));
        opts.name = name;
        opts.inputShapes = inputShapes;
        opts.optimize = optimize;
        opts.memoryPlan = memoryPlan;
        opts.cpu = cpu;
        opts.parallel = parallel;
        Session s;
        OwningOpRef<ModuleOp> mod =
            isText ? s.parse(source) : pd::tool::loadModel(&s.ctx, source, params);
        if (!mod)
          s.fail("cannot load '" + source + "'");
        LogicalResult ok = success();
        {
          py::gil_scoped_release release;
          ok = pd::compileToArtifact(*mod, opts, outDir);
        }
        if (failed(ok))
          s.fail("compilation failed");
      },
      py::arg("source"), py::arg("is_text"), py::arg("params"), py::arg("options"),
      py::arg("input_shapes"), py::arg("optimize"), py::arg("name"), py::arg("output_dir"),
      py::arg("memory_plan"), py::arg("cpu"), py::arg("parallel"));
}
