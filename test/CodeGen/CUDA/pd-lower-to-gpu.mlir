// PTX text (no toolkit needed); cubin.mlir assembles cubins with ptxas.
// RUN: paddle-opt %s --split-input-file --pd-lower-to-gpu="format=isa" | FileCheck %s
// RUN: paddle-opt %s --split-input-file --pd-lower-to-gpu="format=isa chip=sm_80 ptx=+ptx75" | FileCheck %s --check-prefix=SM80

// add + relu fuse into one kernel (three bare pointers, indices in 32
// bits) of 256-thread blocks, each thread on four
// consecutive elements with 16-byte vector loads and stores (4096 / 4 / 256
// = 4 blocks); the reshape is a view of its result and launches nothing;
// the intermediate lives in the arena argument.
// CHECK-LABEL: func.func @main(
// CHECK-SAME:      %[[X:[^:]*]]: memref<8x16x32xf32>, %[[Y:[^:]*]]: memref<8x16x32xf32>, %[[ARENA:[^:]*]]: memref<?xi8> {pd.arena}) -> memref<8x512xf32>
// CHECK:         %[[T:.*]] = memref.view %[[ARENA]]
// CHECK:         gpu.launch_func @main_kernel::@main_kernel blocks in (%c4, %c1, %c1) threads in (%c256, %c1, %c1) args(%[[X]] : memref<8x16x32xf32>, %[[Y]] : memref<8x16x32xf32>, %[[T]] : memref<8x16x32xf32>)
// CHECK-NOT:     gpu.launch_func
// CHECK:         %[[R:.*]] = memref.reshape %[[T]]
// CHECK:         return %[[R]]
// CHECK:       gpu.binary @main_kernel [#gpu.object<#nvvm.target<O = 3, chip = "sm_90", features = "+ptx80">
// CHECK-SAME:    .version 8.0
// CHECK-SAME:    .target sm_90
// CHECK-SAME:    .entry main_kernel(
// CHECK-SAME:    main_kernel_param_2\0A)
// CHECK-SAME:    %ctaid.x
// CHECK-SAME:    %tid.x
// CHECK-SAME:    add.s32
// CHECK-SAME:    ld.global.v4.b32
// CHECK-SAME:    ld.global.v4.b32
// CHECK-SAME:    add.rn.f32
// CHECK-SAME:    max.NaN.f32
// CHECK-SAME:    st.global.v4.b32
// SM80:        .version 7.5
// SM80-SAME:   .target sm_80
func.func @main(%x: tensor<8x16x32xf32>, %y: tensor<8x16x32xf32>) -> tensor<8x512xf32> {
  %s = pd.elementwise_add %x, %y {axis = -1 : i32} : (tensor<8x16x32xf32>, tensor<8x16x32xf32>) -> tensor<8x16x32xf32>
  %r = pd.relu %s : (tensor<8x16x32xf32>) -> tensor<8x16x32xf32>
  %f = pd.reshape2 %r {shape = array<i32: 8, 512>} : (tensor<8x16x32xf32>) -> tensor<8x512xf32>
  return %f : tensor<8x512xf32>
}

// -----

// A row sum: a kernel zeroes the 64 sums (four per thread), then one
// block per row (100 elements: 128 threads) adds its elements: a strided
// loop per thread, then warp shuffles, one shared slot per warp and
// barriers (gpu.all_reduce's lowering).
// CHECK-LABEL: func.func @main(
// CHECK:         gpu.launch_func @main_kernel::@main_kernel blocks in (%c1, %c1, %c1) threads in (%c256, %c1, %c1) args(%[[S:[^ ]*]] : memref<64xf32>)
// CHECK:         gpu.launch_func @main_kernel_0::@main_kernel blocks in (%c64, %c1, %c1) threads in (%c128, %c1, %c1) args(%arg0 : memref<64x100xf32>, %[[S]] : memref<64xf32>)
// CHECK:       gpu.binary @main_kernel
// CHECK-SAME:    st.global.v4.b32
// CHECK:       gpu.binary @main_kernel_0
// CHECK-SAME:    .entry main_kernel(
// CHECK-SAME:    .shared
// CHECK-SAME:    add.rn.f32
// CHECK-SAME:    shfl.sync.bfly.b32
// CHECK-SAME:    bar.sync
func.func @main(%x: tensor<64x100xf32>) -> tensor<64xf32> {
  %s = pd.reduce_sum %x {dim = array<i32: 1>, keep_dim = false, reduce_all = false} : (tensor<64x100xf32>) -> tensor<64xf32>
  return %s : tensor<64xf32>
}

// -----

// A constant tensor travels with its kernel: the global is in the kernel's
// module (its 16 bytes in the PTX as a .global array), and the launch
// passes only the input and the output.
// CHECK-LABEL: func.func @main(
// CHECK:         gpu.launch_func @main_kernel::@main_kernel blocks in (%c1, %c1, %c1) threads in (%c256, %c1, %c1) args(%arg0 : memref<8x4xf32>, %{{.*}} : memref<8x4xf32>)
// CHECK-NEXT:    return
// CHECK:       gpu.binary @main_kernel
// CHECK-SAME:    .global .align 64 .b8 __constant_4xf32[16] = {0, 0, 128, 63, 0, 0, 0, 64, 0, 0, 64, 64, 0, 0, 128, 64}
func.func @main(%x: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %c = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %y = pd.elementwise_add %x, %c {axis = -1 : i32} : (tensor<8x4xf32>, tensor<4xf32>) -> tensor<8x4xf32>
  return %y : tensor<8x4xf32>
}
