// RUN: paddle-opt %s -convert-pd-to-linalg | FileCheck %s
// RUN: paddle-opt %s --pd-lower-to-cpu | FileCheck %s --check-prefix=LLVM

// Tests that pd.while becomes scf.while: the "before" region reads the
// condition (the first carried value), the body's ops are lowered in the
// "after" region, and an init or yielded value more static than its
// carried type is cast to it.
// CHECK-LABEL: func.func @main
// CHECK-SAME: (%[[C:.*]]: tensor<1xi1>, %[[X:.*]]: tensor<2x4xf32>, %[[N:.*]]: tensor<1xi64>)
// CHECK: %[[XC:.*]] = tensor.cast %[[X]] : tensor<2x4xf32> to tensor<?x4xf32>
// CHECK: %[[W:.*]]:3 = scf.while (%[[A0:.*]] = %[[C]], %[[A1:.*]] = %[[XC]], %[[A2:.*]] = %{{.*}}) : (tensor<1xi1>, tensor<?x4xf32>, tensor<1xi64>)
// CHECK: %[[FLAG:.*]] = tensor.extract %[[A0]][%{{.*}}] : tensor<1xi1>
// CHECK: scf.condition(%[[FLAG]]) %[[A0]], %[[A1]], %[[A2]]
// CHECK: } do {
// CHECK: ^bb0(%{{.*}}: tensor<1xi1>, %[[B1:.*]]: tensor<?x4xf32>, %[[B2:.*]]: tensor<1xi64>):
// CHECK: tensor.insert_slice %[[B1]]
// CHECK: %[[I:.*]] = linalg.generic
// CHECK: arith.addi
// CHECK: %[[LT:.*]] = linalg.generic
// CHECK: arith.cmpi slt
// CHECK: scf.yield %[[LT]], %{{.*}}, %[[I]] : tensor<1xi1>, tensor<?x4xf32>, tensor<1xi64>
// CHECK: return %[[W]]#1
// LLVM-LABEL: llvm.func @main
// LLVM: llvm.cond_br
func.func @main(%c: tensor<1xi1>, %x: tensor<2x4xf32>, %n: tensor<1xi64>) -> tensor<?x4xf32> {
  %zero = pd.fill_constant {dtype = 3 : i32, shape = array<i64: 1>} : () -> tensor<1xi64>
  %r:3 = pd.while (%c, %x, %zero) : (tensor<1xi1>, tensor<2x4xf32>, tensor<1xi64>) -> (tensor<1xi1>, tensor<?x4xf32>, tensor<1xi64>) {
  ^bb0(%c0: tensor<1xi1>, %x0: tensor<?x4xf32>, %i0: tensor<1xi64>):
    %y = pd.concat [%x0, %x0] {axis = 0 : i32} : (tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>
    %i1 = pd.increment %i0 : (tensor<1xi64>) -> tensor<1xi64>
    %c1 = pd.less_than %i1, %n : (tensor<1xi64>, tensor<1xi64>) -> tensor<1xi1>
    pd.yield %c1, %y, %i1 : tensor<1xi1>, tensor<?x4xf32>, tensor<1xi64>
  }
  return %r#1 : tensor<?x4xf32>
}
