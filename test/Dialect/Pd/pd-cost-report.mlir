// RUN: paddle-opt %s --pd-cost-report | FileCheck %s

// Hand-computed costs (f32: 4 bytes per element):
// conv2d: output 1x4x8x8 = 256 elements, each 3 (C_in) x 3 x 3 multiply-adds:
//   2 * 256 * 27 = 13824 flops; bytes (192 + 108 + 256) * 4 = 2224.
// relu: 256 flops; (256 + 256) * 4 = 2048 bytes.
// reshape2: data movement, 0 flops; (256 + 256) * 4 = 2048 bytes.
// matmul_v2: [1, 256] x [256, 10]: 2 * 10 * 256 = 5120 flops;
//   (256 + 2560 + 10) * 4 = 11304 bytes.
// softmax: 5 per element: 50 flops; (10 + 10) * 4 = 80 bytes.
// pool2d 2x2 max: 1x4x4x4 = 64 outputs x 4 = 256 flops; (256 + 64) * 4 bytes.
// A dynamic batch counts as 1.
// lookup_table_v2 of 2x3 ids in a 1000x8 table: data movement, 0 flops; it
//   reads the 6 rows it gathers, not the table: (48 + 6 * 2 + 48) * 4 = 432
//   bytes (the ids are i64, two floats' worth each).
// CHECK: module attributes {pd.cost = {bytes = 19416 : i64, flops = 19506 : i64}}
// CHECK: pd.conv2d {{.*}}pd.cost = {bytes = 2224 : i64, flops = 13824 : i64}
// CHECK: pd.relu {{.*}}pd.cost = {bytes = 2048 : i64, flops = 256 : i64}
// CHECK: pd.pool2d {{.*}}pd.cost = {bytes = 1280 : i64, flops = 256 : i64}
// CHECK: pd.reshape2 {{.*}}pd.cost = {bytes = 2048 : i64, flops = 0 : i64}
// CHECK: pd.matmul_v2 {{.*}}pd.cost = {bytes = 11304 : i64, flops = 5120 : i64}
// CHECK: pd.softmax {{.*}}pd.cost = {bytes = 80 : i64, flops = 50 : i64}
// CHECK: pd.lookup_table_v2 {{.*}}pd.cost = {bytes = 432 : i64, flops = 0 : i64}
func.func @main(%x: tensor<?x3x8x8xf32>, %w: tensor<4x3x3x3xf32>, %f: tensor<256x10xf32>) -> tensor<?x10xf32> {
  %c = pd.conv2d %x, %w {paddings = array<i32: 1, 1>} : (tensor<?x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<?x4x8x8xf32>
  %r = pd.relu %c : (tensor<?x4x8x8xf32>) -> tensor<?x4x8x8xf32>
  %p = pd.pool2d %r {ksize = array<i32: 2, 2>, strides = array<i32: 2, 2>} : (tensor<?x4x8x8xf32>) -> tensor<?x4x4x4xf32>
  %s = pd.reshape2 %r {shape = array<i32: 0, 256>} : (tensor<?x4x8x8xf32>) -> tensor<?x256xf32>
  %m = pd.matmul_v2 %s, %f : (tensor<?x256xf32>, tensor<256x10xf32>) -> tensor<?x10xf32>
  %y = pd.softmax %m : (tensor<?x10xf32>) -> tensor<?x10xf32>
  return %y : tensor<?x10xf32>
}

func.func @lookup(%w: tensor<1000x8xf32>, %ids: tensor<2x3xi64>) -> tensor<2x3x8xf32> {
  %e = pd.lookup_table_v2 %w, %ids : (tensor<1000x8xf32>, tensor<2x3xi64>) -> tensor<2x3x8xf32>
  return %e : tensor<2x3x8xf32>
}
