//===- PdControlFlow.td - pd loops -------------------------------*- tablegen -*-===//
//
// Paddle's `while` op: a sub-block run while a boolean variable holds. pd
// keeps it as one op with a region whose block arguments are the variables
// the loop carries, so the program stays in SSA form.
//
//===----------------------------------------------------------------------===//

#ifndef PADDLEMLIR_DIALECT_PD_IR_PDCONTROLFLOW_TD
#define PADDLEMLIR_DIALECT_PD_IR_PDCONTROLFLOW_TD

include "PaddleMLIR/Dialect/Pd/IR/PdBase.td"
include "mlir/IR/OpBase.td"

def Pd_WhileOp : Op<Pd_Dialect, "while", [RecursiveMemoryEffects, RecursivelySpeculatable,
                                         SingleBlock]> {
  let summary = "Paddle's while loop: the body runs while the first carried value is true";
  let description = [{
    `inits` are the initial values of the variables the loop carries; the
    first is the condition, a boolean tensor with one element. The body's
    block arguments are the carried values of the current iteration and its
    `pd.yield` gives those of the next, condition first. The results are
    the carried values when the condition is false (the inits when it is
    false from the start). The carried types are the results' types; an
    init or a yielded value may be more static than its carried type (a
    value whose size changes from one iteration to the next is carried with
    that dim dynamic), never different. Values defined outside the loop (weights, other
    inputs) are used in the body directly.

    Imported from a Paddle `while` op: the carried variables are its `Out`
    variables that exist before the loop, condition first; exported back to
    a sub-block whose last ops write them.

    Example:

    ```mlir
    %r:2 = pd.while (%c, %x) : (tensor<1xi1>, tensor<4xf32>) -> (tensor<1xi1>, tensor<4xf32>) {
    ^bb0(%c0: tensor<1xi1>, %x0: tensor<4xf32>):
      %y = pd.scale %x0 {scale = 2.0 : f32} : (tensor<4xf32>) -> tensor<4xf32>
      pd.yield %c0, %y : tensor<1xi1>, tensor<4xf32>
    }
    ```
  }];
  let arguments = (ins Variadic<Pd_Tensor>:$inits);
  let results = (outs Variadic<Pd_Tensor>:$results);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    `(` $inits `)` attr-dict `:` functional-type($inits, $results) $body
  }];
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
  let skipDefaultBuilders = 1;
  let builders = [OpBuilder<(ins "TypeRange":$types, "ValueRange":$inits)>];
  let extraClassDeclaration = [{
    Block &getBodyBlock() { return getBody().front(); }
  }];
}

def Pd_ConditionalBlockOp : Op<Pd_Dialect, "conditional_block",
    [RecursiveMemoryEffects, RecursivelySpeculatable, SingleBlock, AttrSizedOperandSegments]> {
  let summary = "Paddle's conditional_block: a sub-block run when its condition holds";
  let description = [{
    With `is_scalar_condition` the body runs when `conds` (one boolean
    tensor of one element) is true; without it, when every tensor of
    `conds` has at least one element. The results are the values the body
    yields when it runs and `defaults` when it does not: the variables the
    sub-block writes, with their values from before it (or an empty
    placeholder for a variable that did not exist). A default or a yielded
    value may be more static than its result type.

    Example:

    ```mlir
    %r = pd.conditional_block [%c] (%y) : (tensor<1xi1>, tensor<2x3xf32>) -> tensor<2x3xf32> {
      %t = pd.scale %x {scale = 2.0 : f32} : (tensor<2x3xf32>) -> tensor<2x3xf32>
      pd.yield %t : tensor<2x3xf32>
    }
    ```
  }];
  let arguments = (ins Variadic<Pd_Tensor>:$conds, Variadic<Pd_Tensor>:$defaults,
                   DefaultValuedAttr<BoolAttr, "true">:$is_scalar_condition);
  let results = (outs Variadic<Pd_Tensor>:$results);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    `[` $conds `]` `(` $defaults `)` attr-dict `:` functional-type(operands, results) $body
  }];
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
  let skipDefaultBuilders = 1;
  let builders = [OpBuilder<(ins "TypeRange":$types, "ValueRange":$conds, "ValueRange":$defaults,
                                 "bool":$isScalarCondition)>];
  let extraClassDeclaration = [{
    Block &getBodyBlock() { return getBody().front(); }
  }];
}

def Pd_YieldOp : Op<Pd_Dialect, "yield",
    [Pure, Terminator, ParentOneOf<["WhileOp", "ConditionalBlockOp"]>]> {
  let summary = "the values a pd.while or pd.conditional_block body gives back";
  let arguments = (ins Variadic<Pd_Tensor>:$values);
  let assemblyFormat = [{ ($values^ `:` type($values))? attr-dict }];
}

#endif // PADDLEMLIR_DIALECT_PD_IR_PDCONTROLFLOW_TD
