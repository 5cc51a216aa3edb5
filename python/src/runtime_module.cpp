//===- runtime_module.cpp - paddle_mlir._pdrt: the runtime for Python ----===//
//
// Wraps the C runtime (pdrt.h) only, so compiled artifacts load and run
// without the compiler. Inputs that are C-contiguous and of the model's
// dtype are passed without a copy; the GIL is released while a model runs.
//
//===----------------------------------------------------------------------===//

#include "pdrt.h"

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace py = pybind11;

namespace {
[[noreturn]] void raise(pdrt_status s) {
  std::string msg = pdrt_last_error();
  if (s == PDRT_ERR_INVALID_ARGUMENT)
    throw py::value_error(msg);
  if (s == PDRT_ERR_IO)
    throw py::value_error(msg);
  throw std::runtime_error(msg);
}

py::dtype numpyDtype(pdrt_dtype d) {
  switch (d) {
  case PDRT_FLOAT32:
    return py::dtype("float32");
  case PDRT_FLOAT64:
    return py::dtype("float64");
  case PDRT_FLOAT16:
    return py::dtype("float16");
  case PDRT_BFLOAT16:
    return py::dtype("uint16");
  case PDRT_INT8:
    return py::dtype("int8");
  case PDRT_UINT8:
    return py::dtype("uint8");
  case PDRT_INT16:
    return py::dtype("int16");
  case PDRT_INT32:
    return py::dtype("int32");
  case PDRT_INT64:
    return py::dtype("int64");
  case PDRT_BOOL:
    return py::dtype("bool");
  case PDRT_UINT32:
    return py::dtype("uint32");
  case PDRT_UINT64:
    return py::dtype("uint64");
  case PDRT_UINT16:
    return py::dtype("uint16");
  default:
    throw std::runtime_error("unknown dtype");
  }
}

struct Model {
  explicit Model(const std::string &dir) {
    pdrt_model *m = nullptr;
    pdrt_status s = pdrt_model_load(dir.c_str(), &m);
    if (s != PDRT_OK)
      raise(s);
    model.reset(m);
  }
  py::list specs(bool inputs) const {
    py::list out;
    int64_t n = inputs ? pdrt_model_num_inputs(model.get()) : pdrt_model_num_outputs(model.get());
    for (int64_t i = 0; i < n; ++i) {
      const char *name =
          inputs ? pdrt_model_input_name(model.get(), i) : pdrt_model_output_name(model.get(), i);
      pdrt_dtype d =
          inputs ? pdrt_model_input_dtype(model.get(), i) : pdrt_model_output_dtype(model.get(), i);
      int64_t r =
          inputs ? pdrt_model_input_rank(model.get(), i) : pdrt_model_output_rank(model.get(), i);
      const int64_t *s =
          inputs ? pdrt_model_input_shape(model.get(), i) : pdrt_model_output_shape(model.get(), i);
      py::list shape;
      for (int64_t k = 0; k < r; ++k)
        shape.append(s[k] < 0 ? py::object(py::none()) : py::object(py::int_(s[k])));
      out.append(py::make_tuple(name, pdrt_dtype_name(d), py::tuple(shape)));
    }
    return out;
  }
  std::unique_ptr<pdrt_model, void (*)(pdrt_model *)> model{nullptr, pdrt_model_free};
};

struct Instance {
  /// On `device` ("cpu", "cuda:N"; empty: the artifact's default).
  Instance(std::shared_ptr<Model> m, const std::string &device) : owner(std::move(m)) {
    pdrt_instance *i = nullptr;
    pdrt_status s = device.empty()
                        ? pdrt_instance_create(owner->model.get(), &i)
                        : pdrt_instance_create_on(owner->model.get(), device.c_str(), &i);
    if (s != PDRT_OK)
      raise(s);
    inst.reset(i);
  }
  /// Runs on arrays given in the model's input order; returns the outputs.
  /// Runs on `arrays` and returns a copy of each output; with `fetch`,
  /// only of the outputs it lists (the others are None), so a train step
  /// does not copy its updated weights out every step.
  py::list run(const std::vector<py::array> &arrays,
               const std::optional<std::vector<int64_t>> &fetch) {
    const pdrt_model *m = owner->model.get();
    if ((int64_t)arrays.size() != pdrt_model_num_inputs(m))
      throw py::value_error("expected " + std::to_string(pdrt_model_num_inputs(m)) +
                            " inputs, got " + std::to_string(arrays.size()));
    for (size_t i = 0; i < arrays.size(); ++i) {
      const py::array &a = arrays[i];
      pdrt_dtype want = pdrt_model_input_dtype(m, i);
      if (!a.dtype().is(numpyDtype(want)))
        throw py::type_error(std::string("input '") + pdrt_model_input_name(m, i) + "' must be " +
                             pdrt_dtype_name(want) + ", got " + std::string(py::str(a.dtype())));
      if (!(a.flags() & py::array::c_style))
        throw py::value_error(std::string("input '") + pdrt_model_input_name(m, i) +
                              "' must be C-contiguous");
      std::vector<int64_t> shape(a.shape(), a.shape() + a.ndim());
      pdrt_status s = pdrt_set_input(inst.get(), pdrt_model_input_name(m, i), want, shape.data(),
                                     (int64_t)shape.size(), a.data());
      if (s != PDRT_OK)
        raise(s);
    }
    pdrt_status s;
    {
      py::gil_scoped_release release;
      s = pdrt_run(inst.get());
    }
    if (s != PDRT_OK)
      raise(s);
    py::list out;
    for (int64_t i = 0; i < pdrt_model_num_outputs(m); ++i) {
      if (fetch && std::find(fetch->begin(), fetch->end(), i) == fetch->end()) {
        out.append(py::none());
        continue;
      }
      const void *data;
      const int64_t *shape;
      int64_t rank;
      pdrt_dtype dtype;
      if ((s = pdrt_get_output(inst.get(), i, &data, &shape, &rank, &dtype)) != PDRT_OK)
        raise(s);
      std::vector<py::ssize_t> dims(shape, shape + rank);
      py::array arr(numpyDtype(dtype), dims);
      std::memcpy(arr.mutable_data(), data, arr.nbytes());
      out.append(arr);
    }
    return out;
  }
  /// A copy of weight `name` (a train step's current value when trained).
  py::array getWeight(const std::string &name) const {
    const void *data;
    const int64_t *shape;
    int64_t rank;
    pdrt_dtype dtype;
    pdrt_status s = pdrt_get_weight(inst.get(), name.c_str(), &data, &shape, &rank, &dtype);
    if (s != PDRT_OK)
      raise(s);
    std::vector<py::ssize_t> dims(shape, shape + rank);
    py::array arr(numpyDtype(dtype), dims);
    std::memcpy(arr.mutable_data(), data, arr.nbytes());
    return arr;
  }
  void setWeight(const std::string &name, const py::array &a) {
    pdrt_dtype dtype = PDRT_DTYPE_INVALID;
    for (int d = 0; d < PDRT_DTYPE_INVALID; ++d)
      if (dtype == PDRT_DTYPE_INVALID && a.dtype().is(numpyDtype(static_cast<pdrt_dtype>(d))))
        dtype = static_cast<pdrt_dtype>(d);
    if (!(a.flags() & py::array::c_style))
      throw py::value_error("weight '" + name + "' must be C-contiguous");
    std::vector<int64_t> shape(a.shape(), a.shape() + a.ndim());
    pdrt_status s = pdrt_set_weight(inst.get(), name.c_str(), dtype, shape.data(),
                                    (int64_t)shape.size(), a.data());
    if (s != PDRT_OK)
      raise(s);
  }
  void setThreads(int64_t n) {
    if (pdrt_instance_set_num_threads(inst.get(), n) != PDRT_OK)
      raise(PDRT_ERR_INVALID_ARGUMENT);
  }
  std::shared_ptr<Model> owner;
  std::unique_ptr<pdrt_instance, void (*)(pdrt_instance *)> inst{nullptr, pdrt_instance_free};
};
} // namespace

PYBIND11_MODULE(_pdrt, m) {
  m.doc() = "paddle-mlir runtime: load and run compiled artifacts";
  py::class_<Model, std::shared_ptr<Model>>(m, "Model")
      .def(py::init<const std::string &>(), py::arg("artifact_dir"))
      .def_property_readonly("name",
                             [](const Model &self) { return pdrt_model_name(self.model.get()); })
      .def_property_readonly("inputs", [](const Model &self) { return self.specs(true); })
      .def_property_readonly("outputs", [](const Model &self) { return self.specs(false); })
      // (rank, size) of this process in a multi-rank job (mpirun), for a
      // model with collective ops; (0, 1) otherwise.
      .def_property_readonly("ranks", [](const Model &self) {
        int64_t rank = 0, size = 1;
        pdrt_status s = pdrt_model_ranks(self.model.get(), &rank, &size);
        if (s != PDRT_OK)
          raise(s);
        return py::make_tuple(rank, size);
      });
  py::class_<Instance>(m, "Instance")
      .def(py::init<std::shared_ptr<Model>, const std::string &>(), py::arg("model"),
           py::arg("device") = "")
      .def("run", &Instance::run, py::arg("arrays"), py::arg("fetch") = py::none())
      .def("set_num_threads", &Instance::setThreads, py::arg("threads"))
      .def("get_weight", &Instance::getWeight, py::arg("name"))
      .def("set_weight", &Instance::setWeight, py::arg("name"), py::arg("array"))
      .def(
          "save_params",
          [](const Instance &self, const std::string &dir) {
            if (pdrt_status s = pdrt_save_params(self.inst.get(), dir.c_str()); s != PDRT_OK)
              raise(s);
          },
          py::arg("dir"))
      .def("gather_stage_params",
           [](Instance &self) {
             if (pdrt_status s = pdrt_gather_stage_params(self.inst.get()); s != PDRT_OK)
               raise(s);
           })
      .def(
          "save_checkpoint",
          [](const Instance &self, const std::string &path) {
            if (pdrt_status s = pdrt_save_checkpoint(self.inst.get(), path.c_str()); s != PDRT_OK)
              raise(s);
          },
          py::arg("path"))
      .def(
          "load_checkpoint",
          [](Instance &self, const std::string &path) {
            if (pdrt_status s = pdrt_load_checkpoint(self.inst.get(), path.c_str()); s != PDRT_OK)
              raise(s);
          },
          py::arg("path"))
      .def_property_readonly(
          "steps", [](const Instance &self) { return pdrt_instance_steps(self.inst.get()); })
      .def_property_readonly("num_threads", [](const Instance &self) {
        return pdrt_instance_num_threads(self.inst.get());
      });
  m.def("default_num_threads", [] {
    const char *source = "";
    int64_t n = pdrt_default_num_threads(&source);
    return py::make_tuple(n, std::string(source));
  });
}
