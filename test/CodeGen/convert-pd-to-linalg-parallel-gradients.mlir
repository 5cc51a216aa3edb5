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

// lookup_table_v2_grad likewise. The CPU's: a serial loop over the ids
// that inserts each one's row of the gradient into the table.
// SCATTER-LABEL: func.func @embedding_grad
// SCATTER-NOT:   linalg.generic
// SCATTER:       scf.for
// SCATTER:         scf.for
// SCATTER:           tensor.insert
//
// With parallel-gradients: one serial pass over the 6 ids (last to first)
// links each to the next id of its row (i32 lists: head per row, next per
// id), then every element of the 10x4 table sums its row's ids in parallel.
// GATHER-LABEL: func.func @embedding_grad
// GATHER:       %[[LINKS:.*]]:2 = scf.for {{.*}} iter_args({{.*}}) -> (tensor<10xi32>, tensor<6xi32>)
// GATHER:       linalg.generic {{{.*}}iterator_types = ["parallel", "parallel"]} outs(%{{.*}} : tensor<10x4xf32>)
// GATHER:         tensor.extract %[[LINKS]]#0
// GATHER:         scf.while
// GATHER:           tensor.extract %[[LINKS]]#1
func.func @embedding_grad(%w: tensor<10x4xf32>, %i: tensor<2x3xi64>, %dy: tensor<2x3x4xf32>) -> tensor<10x4xf32> {
  %0 = pd.lookup_table_v2_grad %w, %i, %dy : (tensor<10x4xf32>, tensor<2x3xi64>, tensor<2x3x4xf32>) -> tensor<10x4xf32>
  return %0 : tensor<10x4xf32>
}
