// RUN: paddle-opt %s --convert-pd-to-linalg | FileCheck %s --check-prefix=SCATTER
// RUN: paddle-opt %s --convert-pd-to-linalg="parallel-gradients=true" | FileCheck %s --check-prefix=GATHER

// pool2d_grad's two forms. The CPU's: serial loops over the output
// positions (n, c, i, j) that insert each one's gradient into its window.
// SCATTER-LABEL: func.func @max_pool_grad
// SCATTER-NOT:   linalg.generic
// SCATTER:       scf.for
// SCATTER:         scf.for
// SCATTER:           scf.for
// SCATTER:             scf.for
// SCATTER:               tensor.insert
//
// With parallel-gradients (the GPU pipeline's): a parallel pass over the
// windows that records each one's first maximum (h * W + w, i32), then a
// parallel pass over the input cells, each summing the windows that hold
// it (rows ceil((h + p - k + 1) / s) .. floor((h + p) / s)): no insert.
// GATHER-LABEL: func.func @max_pool_grad
// GATHER:       %[[FIRST:.*]] = linalg.generic {{{.*}}iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%{{.*}} : tensor<2x3x4x4xi32>)
// GATHER:       linalg.generic {{{.*}}iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%{{.*}} : tensor<2x3x8x8xf32>)
// GATHER:         arith.ceildivsi
// GATHER:         arith.floordivsi
// GATHER:         scf.for
// GATHER:           scf.for
// GATHER:             tensor.extract %[[FIRST]]
// GATHER-NOT:   tensor.insert
func.func @max_pool_grad(%x: tensor<2x3x8x8xf32>, %y: tensor<2x3x4x4xf32>, %dy: tensor<2x3x4x4xf32>) -> tensor<2x3x8x8xf32> {
  %r = pd.pool2d_grad %x, %y, %dy {ksize = array<i32: 3, 3>, strides = array<i32: 2, 2>, paddings = array<i32: 1, 1>} : (tensor<2x3x8x8xf32>, tensor<2x3x4x4xf32>, tensor<2x3x4x4xf32>) -> tensor<2x3x8x8xf32>
  return %r : tensor<2x3x8x8xf32>
}
