// RUN: paddle-opt %s -pd-auto-mixed-precision -split-input-file | FileCheck %s
// RUN: paddle-opt %s -pd-auto-mixed-precision="deny=conv2d_0.tmp_0 allow=softmax" -split-input-file | FileCheck %s --check-prefix=NAME
// RUN: paddle-opt %s -pd-auto-mixed-precision="deny=matmul_v2,relu keep-io-types=false" -split-input-file | FileCheck %s --check-prefix=TYPE
// RUN: paddle-opt %s -pd-auto-mixed-precision="dtype=fp16" -split-input-file | FileCheck %s --check-prefix=FP16
// RUN: not paddle-opt %s -pd-auto-mixed-precision="dtype=int4" -split-input-file 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: error: pd-auto-mixed-precision: dtype must be bf16 or fp16, not 'int4'

// Tests white, gray and black ops in one chain: the conv and the matmul run
// in bf16 with bf16 weights (the conv's bias stays f32), relu and flatten
// follow the conv, softmax stays f32; casts only at the two boundaries.
// CHECK-DAG: ml_program.global private @w2.bf16(dense_resource<w2.bf16> : tensor<4x3xbf16>)
// CHECK-DAG: ml_program.global private @w1.bf16(dense_resource<w1.bf16> : tensor<1x2x1x1xbf16>)
// CHECK-DAG: ml_program.global private @b1(dense<2.500000e-01> : tensor<1xf32>)
// CHECK-NOT: @w1(
// CHECK-LABEL: func.func @chain
// CHECK-SAME: (%[[X:.*]]: tensor<1x2x2x2xf32>) -> tensor<1x3xf32>
// CHECK: %[[XB:.*]] = pd.cast %[[X]] {in_dtype = 5 : i32, out_dtype = 22 : i32} : (tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xbf16>
// CHECK: %[[B:.*]] = ml_program.global_load_const @b1 : tensor<1xf32>
// CHECK: %[[W1:.*]] = ml_program.global_load_const @w1.bf16
// CHECK: %[[C:.*]] = pd.fused_conv2d %[[XB]], %[[W1]] Bias(%[[B]]) {{.*}}pd.precision_reason = "white list"{{.*}} : (tensor<1x2x2x2xbf16>, tensor<1x2x1x1xbf16>, tensor<1xf32>) -> tensor<1x1x2x2xbf16>
// CHECK: %[[R:.*]] = pd.relu %[[C]] {pd.precision_reason = "gray: follows inputs"} : (tensor<1x1x2x2xbf16>) -> tensor<1x1x2x2xbf16>
// CHECK: %[[F:.*]] = pd.flatten_contiguous_range %[[R]] {{.*}}"gray: follows inputs"{{.*}} -> tensor<1x4xbf16>
// CHECK: %[[M:.*]] = pd.matmul_v2 %[[F]], %{{.*}} {pd.precision_reason = "white list"} : (tensor<1x4xbf16>, tensor<4x3xbf16>) -> tensor<1x3xbf16>
// CHECK: %[[MF:.*]] = pd.cast %[[M]] {in_dtype = 22 : i32, out_dtype = 5 : i32} : (tensor<1x3xbf16>) -> tensor<1x3xf32>
// CHECK: %[[S:.*]] = pd.softmax %[[MF]] {pd.precision_reason = "black list"} : (tensor<1x3xf32>) -> tensor<1x3xf32>
// CHECK: return %[[S]] : tensor<1x3xf32>
// The weights, rounded once: 1.0 = 0x3F80, -0.5 = 0xBF00, 1.5 = 0x3FC0.
// CHECK-DAG: w2.bf16: "0x40000000C03FC03FC03FC03FC03FC03FC03FC03FC03FC03FC03FC03F"
// CHECK-DAG: w1.bf16: "0x40000000803F00BF"

// Overrides by Paddle variable name: the conv (conv2d_0.tmp_0) stays f32,
// so relu and flatten follow it in f32; softmax is allowed into bf16, so
// the only casts are the matmul's input and the result.
// NAME-LABEL: func.func @chain
// NAME: pd.fused_conv2d {{.*}}"user deny"{{.*}} -> tensor<1x1x2x2xf32>
// NAME: pd.relu {{.*}}"gray: float32 input"{{.*}} -> tensor<1x1x2x2xf32>
// NAME: %[[F:.*]] = pd.flatten_contiguous_range
// NAME: %[[FB:.*]] = pd.cast %[[F]] {in_dtype = 5 : i32, out_dtype = 22 : i32}
// NAME: %[[M:.*]] = pd.matmul_v2 %[[FB]]
// NAME: %[[S:.*]] = pd.softmax %[[M]] {pd.precision_reason = "user allow"} : (tensor<1x3xbf16>) -> tensor<1x3xbf16>
// NAME: %[[SF:.*]] = pd.cast %[[S]] {in_dtype = 22 : i32, out_dtype = 5 : i32}
// NAME: return %[[SF]] : tensor<1x3xf32>

// Overrides by op type, and bf16 arguments and results (keep-io-types=false):
// the conv reads the argument itself, relu is denied, so everything after
// the conv is f32 until the result, which is narrowed.
// TYPE-LABEL: func.func @chain
// TYPE-SAME: (%[[X:.*]]: tensor<1x2x2x2xbf16>) -> tensor<1x3xbf16>
// TYPE-NOT: pd.cast %[[X]]
// TYPE: %[[C:.*]] = pd.fused_conv2d %[[X]]
// TYPE: %[[CF:.*]] = pd.cast %[[C]] {in_dtype = 22 : i32, out_dtype = 5 : i32}
// TYPE: pd.relu %[[CF]] {pd.precision_reason = "user deny"}
// TYPE: pd.matmul_v2 {{.*}}"user deny"{{.*}} -> tensor<1x3xf32>
// TYPE: %[[S:.*]] = pd.softmax
// TYPE: %[[SB:.*]] = pd.cast %[[S]] {in_dtype = 5 : i32, out_dtype = 22 : i32}
// TYPE: return %[[SB]] : tensor<1x3xbf16>

// fp16: the same placement with f16 weights (1.0 = 0x3C00, -0.5 = 0xB800,
// 1.5 = 0x3E00) and Paddle's FP16 code 4 in the casts.
// FP16-LABEL: func.func @chain
// FP16: pd.cast %{{.*}} {in_dtype = 5 : i32, out_dtype = 4 : i32} : (tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf16>
// FP16: pd.matmul_v2 {{.*}} : (tensor<1x4xf16>, tensor<4x3xf16>) -> tensor<1x3xf16>
// FP16-DAG: w2.fp16: "0x40000000003E003E003E003E003E003E003E003E003E003E003E003E"
// FP16-DAG: w1.fp16: "0x40000000003C00B8"
module {
  ml_program.global private @w1(dense<[[[[1.0]], [[-0.5]]]]> : tensor<1x2x1x1xf32>) : tensor<1x2x1x1xf32>
  ml_program.global private @b1(dense<0.25> : tensor<1xf32>) : tensor<1xf32>
  ml_program.global private @w2(dense<1.5> : tensor<4x3xf32>) : tensor<4x3xf32>
  func.func @chain(%x: tensor<1x2x2x2xf32>) -> tensor<1x3xf32> {
    %w1 = ml_program.global_load_const @w1 : tensor<1x2x1x1xf32>
    %b1 = ml_program.global_load_const @b1 : tensor<1xf32>
    %w2 = ml_program.global_load_const @w2 : tensor<4x3xf32>
    %c1 = pd.fused_conv2d %x, %w1 Bias(%b1) {fuse_activation = "relu"} : (tensor<1x2x2x2xf32>, tensor<1x2x1x1xf32>, tensor<1xf32>) -> tensor<1x1x2x2xf32> loc("conv2d #1 -> conv2d_0.tmp_0")
    %r = pd.relu %c1 : (tensor<1x1x2x2xf32>) -> tensor<1x1x2x2xf32> loc("relu #2 -> relu_0.tmp_0")
    %f = pd.flatten_contiguous_range %r {start_axis = 1 : i32, stop_axis = 3 : i32} : (tensor<1x1x2x2xf32>) -> tensor<1x4xf32>
    %m = pd.matmul_v2 %f, %w2 : (tensor<1x4xf32>, tensor<4x3xf32>) -> tensor<1x3xf32> loc("matmul_v2 #5 -> fc_0.tmp_0")
    %s = pd.softmax %m : (tensor<1x3xf32>) -> tensor<1x3xf32>
    return %s : tensor<1x3xf32>
  }
}

// -----

// Tests a gray op with a float32 input that is not a constant: the add
// stays f32 and reads the conv's result widened, as does exp (black); the
// second conv reads the first's bf16 result itself, and the widening cast
// is made once for both readers.
// CHECK-LABEL: func.func @gray_fp32
// CHECK-SAME: (%[[X:.*]]: tensor<1x2x2x2xf32>, %[[Y:.*]]: tensor<1x2x2x2xf32>)
// CHECK: %[[C:.*]] = pd.conv2d {{.*}} -> tensor<1x2x2x2xbf16>
// CHECK-NEXT: %[[CF:.*]] = pd.cast %[[C]] {in_dtype = 22 : i32, out_dtype = 5 : i32}
// CHECK-NEXT: %[[A:.*]] = pd.elementwise_add %[[CF]], %[[Y]] {pd.precision_reason = "gray: float32 input"} : {{.*}} -> tensor<1x2x2x2xf32>
// CHECK-NEXT: %[[E:.*]] = pd.exp %[[CF]] {pd.precision_reason = "black list"}
// CHECK-NOT: pd.cast
// CHECK: %[[C2:.*]] = pd.conv2d %[[C]], %{{.*}} {pd.precision_reason = "white list"}
// CHECK-NEXT: %[[C2F:.*]] = pd.cast %[[C2]] {in_dtype = 22 : i32, out_dtype = 5 : i32}
// CHECK-NEXT: %[[S:.*]] = pd.elementwise_add %[[A]], %[[E]]
// CHECK-NEXT: return %[[S]], %[[C2F]]
module {
  ml_program.global private @w(dense<1.0> : tensor<2x2x1x1xf32>) : tensor<2x2x1x1xf32>
  func.func @gray_fp32(%x: tensor<1x2x2x2xf32>, %y: tensor<1x2x2x2xf32>) -> (tensor<1x2x2x2xf32>, tensor<1x2x2x2xf32>) {
    %w = ml_program.global_load_const @w : tensor<2x2x1x1xf32>
    %c = pd.conv2d %x, %w : (tensor<1x2x2x2xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x2x2xf32>
    %a = pd.elementwise_add %c, %y : (tensor<1x2x2x2xf32>, tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
    %e = pd.exp %c : (tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
    %c2 = pd.conv2d %c, %w : (tensor<1x2x2x2xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x2x2xf32>
    %s = pd.elementwise_add %a, %e : (tensor<1x2x2x2xf32>, tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
    return %s, %c2 : tensor<1x2x2x2xf32>, tensor<1x2x2x2xf32>
  }
}

// -----

// Tests cast folding on casts the program already has: bf16 -> f32 -> bf16
// is exact and folds, a cast to the same type folds, f32 -> bf16 -> f32
// rounds and stays; the bf16 result keeps its type.
// CHECK-LABEL: func.func @fold
// CHECK-SAME: (%[[X:.*]]: tensor<4xbf16>, %[[Y:.*]]: tensor<4xf32>) -> (tensor<4xbf16>, tensor<4xf32>, tensor<4xf32>)
// CHECK-NEXT: %[[D:.*]] = pd.cast %[[Y]] {in_dtype = 5 : i32, out_dtype = 22 : i32}
// CHECK-NEXT: %[[E:.*]] = pd.cast %[[D]] {in_dtype = 22 : i32, out_dtype = 5 : i32}
// CHECK-NEXT: return %[[X]], %[[Y]], %[[E]]
module {
  func.func @fold(%x: tensor<4xbf16>, %y: tensor<4xf32>) -> (tensor<4xbf16>, tensor<4xf32>, tensor<4xf32>) {
    %a = pd.cast %x {in_dtype = 22 : i32, out_dtype = 5 : i32} : (tensor<4xbf16>) -> tensor<4xf32>
    %b = pd.cast %a {in_dtype = 5 : i32, out_dtype = 22 : i32} : (tensor<4xf32>) -> tensor<4xbf16>
    %c = pd.cast %y {in_dtype = 5 : i32, out_dtype = 5 : i32} : (tensor<4xf32>) -> tensor<4xf32>
    %d = pd.cast %y {in_dtype = 5 : i32, out_dtype = 22 : i32} : (tensor<4xf32>) -> tensor<4xbf16>
    %e = pd.cast %d {in_dtype = 22 : i32, out_dtype = 5 : i32} : (tensor<4xbf16>) -> tensor<4xf32>
    return %b, %c, %e : tensor<4xbf16>, tensor<4xf32>, tensor<4xf32>
  }
}

// -----

// Tests a program with nothing in the white list: no casts, only the
// reasons.
// CHECK-LABEL: func.func @negative_no_white
// CHECK-NOT: pd.cast
// CHECK: pd.relu %{{.*}} {pd.precision_reason = "gray: float32 input"}
// CHECK-NOT: pd.cast
// CHECK: pd.softmax %{{.*}} {pd.precision_reason = "black list"}
module {
  func.func @negative_no_white(%x: tensor<1x8xf32>) -> tensor<1x8xf32> {
    %r = pd.relu %x : (tensor<1x8xf32>) -> tensor<1x8xf32>
    %s = pd.softmax %r : (tensor<1x8xf32>) -> tensor<1x8xf32>
    return %s : tensor<1x8xf32>
  }
}
