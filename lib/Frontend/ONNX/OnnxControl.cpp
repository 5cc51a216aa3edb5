//===- OnnxControl.cpp - ONNX ops imported as other nodes -----------------===//
//
// An op without a converter whose ONNX schema defines it as a function
// (context-dependent or not) is imported as its function body, node by node,
// through the importer's own dispatch. Control flow (If, Loop, Scan) would
// import its subgraphs the same way.
//
//===----------------------------------------------------------------------===//

#include "OnnxImporter.h"

#include <onnx/defs/function.h>
#include <onnx/defs/schema.h>

using namespace mlir;
using namespace mlir::pd::onnx_import;

LogicalResult OnnxImporter::expandFunction() {
  const onnx::OpSchema *schema = onnx::OpSchemaRegistry::Schema(node->op_type(), int(opset), "");
  if (!schema || (!schema->HasFunction() && !schema->HasContextDependentFunction()))
    return nodeError("unsupported ONNX op");
  onnx::FunctionProto fn;
  if (schema->HasFunction()) {
    fn = *schema->GetFunction();
  } else {
    // Context-dependent bodies (e.g. the loss functions) depend on the
    // input types: describe each input's element type and shape.
    std::vector<onnx::TypeProto> types;
    for (int i = 0; i < node->input_size(); ++i) {
      onnx::TypeProto tp;
      if (hasInput(i)) {
        auto v = input(i);
        if (failed(v))
          return failure();
        auto vt = cast<RankedTensorType>(v->getType());
        auto *tt = tp.mutable_tensor_type();
        tt->set_elem_type(onnxDtype(vt.getElementType()));
        for (int64_t d : vt.getShape()) {
          auto *dim = tt->mutable_shape()->add_dim();
          if (!ShapedType::isDynamic(d))
            dim->set_dim_value(d);
        }
      }
      types.push_back(tp);
    }
    onnx::FunctionBodyBuildContextImpl fctx(*node, types);
    if (!schema->BuildContextDependentFunction(fctx, fn))
      return nodeError("unsupported ONNX op (its function body cannot be built for these inputs)");
  }
  // The body's nodes, with its names made unique and wired to this node's
  // inputs and outputs; imported under the body's own opset.
  onnx::GraphProto body;
  onnx::FunctionExpandHelper(*node, fn, body,
                             "__" + node->op_type() + "_" + std::to_string(expansions++) + "_");
  // An attribute that refers to one the node does not set takes the outer
  // op's declared default, or is absent from the inner node (so the inner
  // op takes its own default); the helper fills it with an empty value
  // instead (e.g. ignore_index = 0 in the softmax cross-entropy body).
  for (int i = 0; i < fn.node_size() && i < body.node_size(); ++i) {
    auto *attrs = body.mutable_node(i)->mutable_attribute();
    for (const auto &a : fn.node(i).attribute()) {
      if (a.ref_attr_name().empty() || attr(a.ref_attr_name()))
        continue;
      for (int k = attrs->size() - 1; k >= 0; --k)
        if (attrs->Get(k).name() == a.name())
          attrs->DeleteSubrange(k, 1);
      // The outer op's declared default, where it has one (e.g. MVN's axes).
      auto it = schema->attributes().find(a.ref_attr_name());
      if (it != schema->attributes().end() && it->second.default_value.type() != 0) {
        onnx::AttributeProto d = it->second.default_value;
        d.set_name(a.name());
        *attrs->Add() = d;
      }
    }
  }
  int64_t savedOpset = opset;
  for (const auto &o : fn.opset_import())
    if (o.domain().empty() || o.domain() == "ai.onnx")
      opset = o.version();
  const onnx::NodeProto *outer = node;
  LogicalResult result = success();
  for (int i = 0; i < body.node_size() && succeeded(result); ++i)
    result = importNode(body.node(i), i);
  node = outer;
  opset = savedOpset;
  if (failed(result))
    return fail(loc, "(while expanding ONNX node '" + outer->name() + "' (" + outer->op_type() +
                         ") into its function body)");
  return success();
}
