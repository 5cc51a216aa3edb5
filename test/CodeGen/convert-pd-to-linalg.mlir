// RUN: paddle-opt %s -convert-pd-to-linalg -split-input-file -verify-diagnostics | FileCheck %s

// Tests that conv2d pads explicitly and becomes a named NCHW convolution
// whose output sizes follow from the padded input.
// CHECK-LABEL: func.func @conv
// CHECK: %[[P:.*]] = tensor.pad %arg0 low[0, 0, 1, 1] high[0, 0, 1, 1]
// CHECK: %[[F:.*]] = linalg.fill
// CHECK: linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%[[P]], %arg1 : tensor<?x3x10x10xf32>, tensor<4x3x3x3xf32>) outs(%[[F]] : tensor<?x4x4x4xf32>)
func.func @conv(%x: tensor<?x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<?x4x4x4xf32> {
  %0 = pd.conv2d %x, %w {strides = array<i32: 2, 2>, paddings = array<i32: 1, 1>} : (tensor<?x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<?x4x4x4xf32>
  return %0 : tensor<?x4x4x4xf32>
}

// -----

// Tests that a depthwise conv collapses its [C, 1, kh, kw] filter.
// CHECK-LABEL: func.func @depthwise
// CHECK: %[[F:.*]] = tensor.collapse_shape %arg1 {{\[\[}}0, 1], [2], [3]] : tensor<8x1x3x3xf32> into tensor<8x3x3xf32>
// CHECK: linalg.depthwise_conv_2d_nchw_chw {{.*}} ins(%{{.*}}, %[[F]]
func.func @depthwise(%x: tensor<1x8x6x6xf32>, %w: tensor<8x1x3x3xf32>) -> tensor<1x8x4x4xf32> {
  %0 = pd.depthwise_conv2d %x, %w {groups = 8 : i32} : (tensor<1x8x6x6xf32>, tensor<8x1x3x3xf32>) -> tensor<1x8x4x4xf32>
  return %0 : tensor<1x8x4x4xf32>
}

// -----

// Tests Paddle's axis broadcasting: the bias is read at the channel dim.
// CHECK: #[[ID:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK: #[[CH:.*]] = affine_map<(d0, d1, d2, d3) -> (d1)>
// CHECK-LABEL: func.func @bias_add
// CHECK: linalg.generic {indexing_maps = [#[[ID]], #[[CH]], #[[ID]]], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
// CHECK: arith.addf
func.func @bias_add(%x: tensor<?x4x2x2xf32>, %b: tensor<4xf32>) -> tensor<?x4x2x2xf32> {
  %0 = pd.elementwise_add %x, %b {axis = 1 : i32} : (tensor<?x4x2x2xf32>, tensor<4xf32>) -> tensor<?x4x2x2xf32>
  return %0 : tensor<?x4x2x2xf32>
}

// -----

// Tests that matmul_v2 broadcasts a 2-D weight over the batch and keeps the
// reduction dim before the output column (contiguous inner loop).
// CHECK: #[[X:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
// CHECK: #[[Y:.*]] = affine_map<(d0, d1, d2, d3) -> (d2, d3)>
// CHECK: #[[O:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
// CHECK-LABEL: func.func @matmul
// CHECK: linalg.generic {indexing_maps = [#[[X]], #[[Y]], #[[O]]], iterator_types = ["parallel", "parallel", "reduction", "parallel"]}
func.func @matmul(%x: tensor<?x5x8xf32>, %w: tensor<8x3xf32>) -> tensor<?x5x3xf32> {
  %0 = pd.matmul_v2 %x, %w : (tensor<?x5x8xf32>, tensor<8x3xf32>) -> tensor<?x5x3xf32>
  return %0 : tensor<?x5x3xf32>
}

// -----

// Tests max pooling: -inf padding and a named pooling op.
// CHECK-LABEL: func.func @max_pool
// CHECK: %[[NEG:.*]] = arith.constant 0xFF800000 : f32
// CHECK: tensor.pad %arg0 low[0, 0, 1, 1] high[0, 0, 1, 1]
// CHECK: linalg.pooling_nchw_max
func.func @max_pool(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x2x2xf32> {
  %0 = pd.pool2d %x {ksize = array<i32: 3, 3>, strides = array<i32: 2, 2>, paddings = array<i32: 1, 1>} : (tensor<1x2x4x4xf32>) -> tensor<1x2x2x2xf32>
  return %0 : tensor<1x2x2x2xf32>
}

// -----

// Tests that reshape2 computes the 0 and -1 dims at run time.
// CHECK-LABEL: func.func @reshape
// CHECK: tensor.from_elements
// CHECK: tensor.reshape %arg0(%{{.*}}) : (tensor<?x6xf32>, tensor<3xindex>) -> tensor<?x2x3xf32>
func.func @reshape(%x: tensor<?x6xf32>) -> tensor<?x2x3xf32> {
  %0 = pd.reshape2 %x {shape = array<i32: 0, -1, 3>} : (tensor<?x6xf32>) -> tensor<?x2x3xf32>
  return %0 : tensor<?x2x3xf32>
}

// -----

// Tests that flatten2 (Fluid) multiplies the dims before and from its axis,
// the dynamic batch at run time, and that axis 0 gives a leading 1.
// CHECK-LABEL: func.func @flatten2
// CHECK: %[[N:.*]] = tensor.dim %arg0, %c0
// CHECK: %[[M:.*]] = arith.muli %{{.*}}, %c4
// CHECK: tensor.from_elements %[[N]], %{{.*}} : tensor<2xindex>
// CHECK: tensor.reshape %arg0(%{{.*}}) : (tensor<?x3x4x5xf32>, tensor<2xindex>) -> tensor<?x60xf32>
// CHECK: tensor.from_elements %c1, %{{.*}} : tensor<2xindex>
// CHECK: tensor.reshape %arg0(%{{.*}}) : (tensor<?x3x4x5xf32>, tensor<2xindex>) -> tensor<1x?xf32>
func.func @flatten2(%x: tensor<?x3x4x5xf32>) -> (tensor<?x60xf32>, tensor<1x?xf32>) {
  %0 = pd.flatten2 %x : (tensor<?x3x4x5xf32>) -> tensor<?x60xf32>
  %1 = pd.flatten2 %x {axis = 0 : i32} : (tensor<?x3x4x5xf32>) -> tensor<1x?xf32>
  return %0, %1 : tensor<?x60xf32>, tensor<1x?xf32>
}

// -----

// Tests that an NHWC convolution is computed on an NCHW view of its input
// (the filter is OIHW in both layouts) and its result transposed back.
// CHECK-LABEL: func.func @nhwc_conv
// CHECK: %[[IN:.*]] = linalg.transpose ins(%arg0 : tensor<1x8x8x3xf32>) outs(%{{.*}} : tensor<1x3x8x8xf32>) permutation = [0, 3, 1, 2]
// CHECK: %[[C:.*]] = linalg.conv_2d_nchw_fchw {{.*}} ins(%[[IN]], %arg1 : tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>)
// CHECK: linalg.transpose ins(%[[C]] : tensor<1x4x6x6xf32>) outs(%{{.*}} : tensor<1x6x6x4xf32>) permutation = [0, 2, 3, 1]
func.func @nhwc_conv(%x: tensor<1x8x8x3xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x6x6x4xf32> {
  %0 = pd.conv2d %x, %w {data_format = "NHWC"} : (tensor<1x8x8x3xf32>, tensor<4x3x3x3xf32>) -> tensor<1x6x6x4xf32>
  return %0 : tensor<1x6x6x4xf32>
}

// -----

// Tests that a grouped (not depthwise) convolution runs on group views:
// the input [N, G, C/G, H, W], the filter [G, F/G, C/G, kh, kw].
// CHECK-LABEL: func.func @grouped
// CHECK: %[[F:.*]] = tensor.expand_shape %arg1 {{\[\[}}0, 1], [2], [3], [4]] output_shape [2, 2, 2, 3, 3]
// CHECK: %[[X:.*]] = tensor.expand_shape %arg0 {{\[\[}}0], [1, 2], [3], [4]] output_shape [1, 2, 2, 8, 8]
// CHECK: %[[Y:.*]] = linalg.conv_2d_ngchw_gfchw {{.*}} ins(%[[X]], %[[F]] : tensor<1x2x2x8x8xf32>, tensor<2x2x2x3x3xf32>)
// CHECK: tensor.collapse_shape %[[Y]] {{\[\[}}0], [1, 2], [3], [4]] : tensor<1x2x2x6x6xf32> into tensor<1x4x6x6xf32>
func.func @grouped(%x: tensor<1x4x8x8xf32>, %w: tensor<4x2x3x3xf32>) -> tensor<1x4x6x6xf32> {
  %0 = pd.conv2d %x, %w {groups = 2 : i32} : (tensor<1x4x8x8xf32>, tensor<4x2x3x3xf32>) -> tensor<1x4x6x6xf32>
  return %0 : tensor<1x4x6x6xf32>
}

// -----

// Tests that fused_conv2d is the convolution plus one epilogue applying the
// bias at the channel dim, the residual, and the activation.
// CHECK-LABEL: func.func @fused_conv
// CHECK: %[[C:.*]] = linalg.conv_2d_nchw_fchw
// CHECK: linalg.generic {{.*}} ins(%[[C]], %arg2, %arg3 : tensor<1x2x3x3xf32>, tensor<2xf32>, tensor<1x2x3x3xf32>)
// CHECK: arith.addf
// CHECK: arith.addf
// CHECK: arith.minimumf
func.func @fused_conv(%x: tensor<1x2x3x3xf32>, %w: tensor<2x2x1x1xf32>, %b: tensor<2xf32>, %r: tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32> {
  %0 = pd.fused_conv2d %x, %w Bias(%b) ResidualData(%r) {fuse_activation = "relu6", fuse_alpha = 6.0 : f32} : (tensor<1x2x3x3xf32>, tensor<2x2x1x1xf32>, tensor<2xf32>, tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32>
  return %0 : tensor<1x2x3x3xf32>
}

// -----

// Tests that fc with in_num_col_dims = rank - 1 contracts the last dim
// directly (no reshapes) and applies bias and activation in one epilogue.
// CHECK-LABEL: func.func @fc
// CHECK-NOT: tensor.collapse_shape
// CHECK: iterator_types = ["parallel", "parallel", "reduction", "parallel"]
// CHECK: arith.maximumf
// CHECK-NOT: tensor.expand_shape
func.func @fc(%x: tensor<?x5x4xf32>, %w: tensor<4x3xf32>, %b: tensor<3xf32>) -> tensor<?x5x3xf32> {
  %0 = pd.fc %x, %w Bias(%b) {in_num_col_dims = 2 : i32, activation_type = "relu"} : (tensor<?x5x4xf32>, tensor<4x3xf32>, tensor<3xf32>) -> tensor<?x5x3xf32>
  return %0 : tensor<?x5x3xf32>
}

// -----

// Tests that skip_layernorm adds the residual then normalizes the last dim.
// CHECK-LABEL: func.func @skip_ln
// CHECK: linalg.generic
// CHECK: arith.addf
// CHECK: iterator_types = ["parallel", "reduction"]
// CHECK: math.rsqrt
func.func @skip_ln(%x: tensor<2x8xf32>, %y: tensor<2x8xf32>, %g: tensor<8xf32>, %b: tensor<8xf32>) -> tensor<2x8xf32> {
  %0 = pd.skip_layernorm %x, %y, %g, %b : (tensor<2x8xf32>, tensor<2x8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<2x8xf32>
  return %0 : tensor<2x8xf32>
}

// -----

// Tests that the fused embeddings gather every table's row in one generic
// (ids clamped into each table), sum them, then layer-normalize.
// CHECK-LABEL: func.func @fused_embeddings
// CHECK: linalg.generic {{.*}} ins(%arg0, %arg1 : tensor<?x?xi64>, tensor<?x?xi64>)
// CHECK-COUNT-2: tensor.extract
// CHECK: arith.addf
// CHECK: math.rsqrt
func.func @fused_embeddings(%a: tensor<?x?xi64>, %b: tensor<?x?xi64>, %ea: tensor<10x8xf32>, %eb: tensor<4x8xf32>, %g: tensor<8xf32>, %h: tensor<8xf32>) -> tensor<?x?x8xf32> {
  %0 = pd.fused_embedding_eltwise_layernorm [%a, %b] [%ea, %eb], %h, %g : (tensor<?x?xi64>, tensor<?x?xi64>, tensor<10x8xf32>, tensor<4x8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<?x?x8xf32>
  return %0 : tensor<?x?x8xf32>
}

// -----

// Tests that multihead_matmul becomes one [H, 3H] projection (W reshaped,
// bias added), heads split by a reshape to [B, S, 3, n, d] and a transpose to
// [3, B, n, S, d], Q/K/V slices, Q K^T, alpha, the mask, softmax, P V and the
// heads merged back.
// CHECK-LABEL: func.func @attention
// CHECK: tensor.reshape %arg1({{.*}}) : (tensor<4x3x4xf32>, tensor<2xindex>) -> tensor<4x12xf32>
// CHECK: linalg.generic {{.*}} ins(%arg0, %{{.*}} : tensor<?x3x4xf32>, tensor<4x12xf32>) outs(%{{.*}} : tensor<?x3x12xf32>)
// CHECK: linalg.transpose ins(%{{.*}} : tensor<?x3x3x2x2xf32>) outs(%{{.*}} : tensor<3x?x2x3x2xf32>) permutation = [2, 0, 3, 1, 4]
// CHECK-COUNT-3: tensor.extract_slice
// CHECK: iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]
// CHECK: arith.constant 5.000000e-01 : f32
// CHECK: ins(%{{.*}}, %arg3 : tensor<?x2x3x3xf32>, tensor<?x1x1x3xf32>)
// CHECK: math.exp
// CHECK: linalg.transpose ins(%{{.*}} : tensor<?x2x3x2xf32>) outs(%{{.*}} : tensor<?x3x2x2xf32>) permutation = [0, 2, 1, 3]
// CHECK: tensor.reshape %{{.*}} : (tensor<?x3x2x2xf32>, tensor<3xindex>) -> tensor<?x3x4xf32>
func.func @attention(%x: tensor<?x3x4xf32>, %w: tensor<4x3x4xf32>, %b: tensor<3x4xf32>, %m: tensor<?x1x1x3xf32>) -> tensor<?x3x4xf32> {
  %0 = pd.multihead_matmul %x, %w, %b BiasQK(%m) {alpha = 0.5 : f32, head_number = 2 : i32} : (tensor<?x3x4xf32>, tensor<4x3x4xf32>, tensor<3x4xf32>, tensor<?x1x1x3xf32>) -> tensor<?x3x4xf32>
  return %0 : tensor<?x3x4xf32>
}

// -----

// Tests that gather reads X at the (wrapped, clamped) index along the axis.
// CHECK-LABEL: func.func @gather
// CHECK: linalg.generic {{.*}} ins(%arg1 : tensor<?xi64>) outs(%{{.*}} : tensor<3x?x5xf32>)
// CHECK: arith.select
// CHECK: tensor.extract %arg0[%{{.*}}, %{{.*}}, %{{.*}}] : tensor<3x4x5xf32>
func.func @gather(%x: tensor<3x4x5xf32>, %i: tensor<?xi64>) -> tensor<3x?x5xf32> {
  %0 = pd.gather %x, %i {axis = 1 : i32} : (tensor<3x4x5xf32>, tensor<?xi64>) -> tensor<3x?x5xf32>
  return %0 : tensor<3x?x5xf32>
}

// -----

// Tests that arg_max keeps the running maximum and its position (the first
// one: strictly greater replaces), then restores the kept dim.
// CHECK-LABEL: func.func @arg_max
// CHECK: arith.constant 0xFF800000 : f32
// CHECK: %[[R:.*]]:2 = linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]} ins(%arg0 : tensor<3x4xf32>) outs(%{{.*}}, %{{.*}} : tensor<3xf32>, tensor<3xi64>)
// CHECK: %[[GT:.*]] = arith.cmpf ogt
// CHECK: %[[POS:.*]] = linalg.index 1
// CHECK: arith.select %[[GT]]
// CHECK: tensor.expand_shape %[[R]]#1 {{\[\[}}0, 1]] output_shape [3, 1]
func.func @arg_max(%x: tensor<3x4xf32>) -> tensor<3x1xi64> {
  %0 = pd.arg_max %x {axis = 1 : i64, keepdims = true} : (tensor<3x4xf32>) -> tensor<3x1xi64>
  return %0 : tensor<3x1xi64>
}

// -----

// Tests that arg_max of a 0-d input is the index 0, with or without flatten
// (flatten used to build a rank-0 collapse_shape and crash the converter;
// found by fuzz_compile).
// CHECK-LABEL: func.func @arg_max_0d
// CHECK-NOT: tensor.collapse_shape
// CHECK: linalg.fill
// CHECK-NOT: tensor.collapse_shape
func.func @arg_max_0d(%x: tensor<f32>) -> tensor<1xi64> {
  %0 = pd.arg_max %x {flatten = true} : (tensor<f32>) -> tensor<1xi64>
  return %0 : tensor<1xi64>
}

// -----

// Tests that take_along_axis reads X at the (wrapped, clamped) index of the
// same position along the axis.
// CHECK-LABEL: func.func @take_along_axis
// CHECK: linalg.generic {{.*}} ins(%arg1 : tensor<3x2xi64>) outs(%{{.*}} : tensor<3x2xf32>)
// CHECK: %[[ID:.*]] = arith.minsi
// CHECK: %[[ROW:.*]] = linalg.index 0
// CHECK: tensor.extract %arg0[%[[ROW]], %[[ID]]] : tensor<3x4xf32>
func.func @take_along_axis(%x: tensor<3x4xf32>, %i: tensor<3x2xi64>) -> tensor<3x2xf32> {
  %0 = pd.take_along_axis %x, %i {Axis = 1 : i32} : (tensor<3x4xf32>, tensor<3x2xi64>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// -----

// Tests that flip reads the mirrored position (size - 1 - i) of a dynamic dim.
// CHECK-LABEL: func.func @flip
// CHECK: linalg.generic
// CHECK: %[[I:.*]] = linalg.index 0
// CHECK: %[[D:.*]] = tensor.dim %arg0
// CHECK: %[[LAST:.*]] = arith.subi %[[D]]
// CHECK: %[[M:.*]] = arith.subi %[[LAST]], %[[I]]
// CHECK: %[[J:.*]] = linalg.index 1
// CHECK: tensor.extract %arg0[%[[M]], %[[J]]]
func.func @flip(%x: tensor<?x8xf32>) -> tensor<?x8xf32> {
  %0 = pd.flip %x {axis = array<i32: 0>} : (tensor<?x8xf32>) -> tensor<?x8xf32>
  return %0 : tensor<?x8xf32>
}

// -----

// Tests that the upper triangle from diagonal 1 keeps j - i >= 1.
// CHECK-LABEL: func.func @tril_triu
// CHECK: %[[D:.*]] = arith.subi
// CHECK: %[[C:.*]] = arith.constant 1 : index
// CHECK: %[[K:.*]] = arith.cmpi sge, %[[D]], %[[C]]
// CHECK: arith.select %[[K]]
func.func @tril_triu(%x: tensor<4x5xf32>) -> tensor<4x5xf32> {
  %0 = pd.tril_triu %x {lower = false, diagonal = 1 : i32} : (tensor<4x5xf32>) -> tensor<4x5xf32>
  return %0 : tensor<4x5xf32>
}

// -----

// Tests that where broadcasts all three operands numpy-style.
// CHECK: #[[C:.*]] = affine_map<(d0, d1) -> (d0, 0)>
// CHECK: #[[X:.*]] = affine_map<(d0, d1) -> (d1)>
// CHECK: #[[Y:.*]] = affine_map<(d0, d1) -> ()>
// CHECK-LABEL: func.func @where
// CHECK: linalg.generic {indexing_maps = [#[[C]], #[[X]], #[[Y]], #{{.*}}]
// CHECK: arith.select
func.func @where(%c: tensor<4x1xi1>, %x: tensor<5xf32>, %y: tensor<f32>) -> tensor<4x5xf32> {
  %0 = pd.where %c, %x, %y : (tensor<4x1xi1>, tensor<5xf32>, tensor<f32>) -> tensor<4x5xf32>
  return %0 : tensor<4x5xf32>
}

// -----

// Tests that split takes consecutive slices, the -1 section the rest.
// CHECK-LABEL: func.func @split
// CHECK: %[[S0:.*]] = tensor.extract_slice %arg0[0, %{{.*}}] [%{{.*}}, %[[C2:.*]]] [1, 1]
// CHECK: %[[OFF:.*]] = arith.addi %{{.*}}, %[[C2]]
// CHECK: tensor.extract_slice %arg0[0, %[[OFF]]] [%{{.*}}, %{{.*}}] [1, 1]
func.func @split(%x: tensor<?x6xf32>) -> (tensor<?x2xf32>, tensor<?x4xf32>) {
  %0, %1 = pd.split %x {sections = array<i32: 2, -1>, axis = 1 : i32} : (tensor<?x6xf32>) -> (tensor<?x2xf32>, tensor<?x4xf32>)
  return %0, %1 : tensor<?x2xf32>, tensor<?x4xf32>
}

// -----

// Tests that elementwise_mod moves a remainder whose sign differs from the
// divisor's by one divisor (Python's rule).
// CHECK-LABEL: func.func @mod
// CHECK: %[[R:.*]] = arith.remsi %in, %in_0
// CHECK: %[[NZ:.*]] = arith.cmpi ne, %[[R]]
// CHECK: arith.xori
// CHECK: %[[FIX:.*]] = arith.andi %[[NZ]]
// CHECK: %[[SUM:.*]] = arith.addi %[[R]], %in_0
// CHECK: arith.select %[[FIX]], %[[SUM]], %[[R]]
func.func @mod(%x: tensor<6xi32>, %y: tensor<6xi32>) -> tensor<6xi32> {
  %0 = pd.elementwise_mod %x, %y : (tensor<6xi32>, tensor<6xi32>) -> tensor<6xi32>
  return %0 : tensor<6xi32>
}

// -----

// Tests the shifts' guards: a shift by the bit width or more gives 0 (left,
// logical right) or the sign fill (arithmetic right: the amount clamped to
// width - 1), since arith's shifts are poison there.
// CHECK-LABEL: func.func @shifts
// CHECK: %[[W:.*]] = arith.constant 32 : i32
// CHECK: %[[FAR:.*]] = arith.cmpi uge, %in_0, %[[W]]
// CHECK: %[[S:.*]] = arith.shli %in, %in_0
// CHECK: arith.select %[[FAR]], %{{.*}}, %[[S]]
// CHECK: %[[FAR2:.*]] = arith.cmpi uge, %in_0, %{{.*}}
// CHECK: %[[AMT:.*]] = arith.select %[[FAR2]], %{{.*}}, %in_0
// CHECK: arith.shrsi %in, %[[AMT]]
// CHECK: arith.shrui
// CHECK: ui8
func.func @shifts(%x: tensor<6xi32>, %y: tensor<6xi32>, %u: tensor<6xui8>, %v: tensor<6xui8>) -> (tensor<6xi32>, tensor<6xi32>, tensor<6xui8>) {
  %0 = pd.bitwise_left_shift %x, %y : (tensor<6xi32>, tensor<6xi32>) -> tensor<6xi32>
  %1 = pd.bitwise_right_shift %0, %y : (tensor<6xi32>, tensor<6xi32>) -> tensor<6xi32>
  %2 = pd.bitwise_right_shift %u, %v : (tensor<6xui8>, tensor<6xui8>) -> tensor<6xui8>
  return %0, %1, %2 : tensor<6xi32>, tensor<6xi32>, tensor<6xui8>
}

// -----

// Tests that an integer max reduction starts from the type's minimum.
// CHECK-LABEL: func.func @reduce_max_int
// CHECK: arith.constant -2147483648 : i32
// CHECK: arith.maxsi
func.func @reduce_max_int(%x: tensor<3x4xi32>) -> tensor<3xi32> {
  %0 = pd.reduce_max %x {dim = array<i32: 1>} : (tensor<3x4xi32>) -> tensor<3xi32>
  return %0 : tensor<3xi32>
}

// -----

// Tests that conv2d_transpose sums over input channels and taps, masking
// the taps that fall between input positions.
// CHECK-LABEL: func.func @conv_transpose
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%{{.*}} : tensor<2x3x3xf32>) outs(%{{.*}} : tensor<1x3x5x5xf32>)
// CHECK: arith.remsi
// CHECK: tensor.extract %arg0
// CHECK: tensor.extract %arg1
// CHECK: %[[P:.*]] = arith.mulf
// CHECK: arith.select %{{.*}}, %[[P]]
func.func @conv_transpose(%x: tensor<1x2x3x3xf32>, %w: tensor<2x3x3x3xf32>) -> tensor<1x3x5x5xf32> {
  %0 = pd.conv2d_transpose %x, %w : (tensor<1x2x3x3xf32>, tensor<2x3x3x3xf32>) -> tensor<1x3x5x5xf32>
  return %0 : tensor<1x3x5x5xf32>
}

// -----

// Tests that uint8 values are reinterpreted as signless around the casts.
// CHECK-LABEL: func.func @cast_u8
// CHECK: %[[S:.*]] = builtin.unrealized_conversion_cast %in : ui8 to i8
// CHECK: arith.uitofp %[[S]] : i8 to f32
// CHECK-LABEL: func.func @cast_to_u8
// CHECK: %[[Q:.*]] = arith.fptoui %in : f32 to i8
// CHECK: builtin.unrealized_conversion_cast %[[Q]] : i8 to ui8
func.func @cast_u8(%x: tensor<4xui8>) -> tensor<4xf32> {
  %0 = pd.cast %x {in_dtype = 20 : i32, out_dtype = 5 : i32} : (tensor<4xui8>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
func.func @cast_to_u8(%x: tensor<4xf32>) -> tensor<4xui8> {
  %0 = pd.cast %x {in_dtype = 5 : i32, out_dtype = 20 : i32} : (tensor<4xf32>) -> tensor<4xui8>
  return %0 : tensor<4xui8>
}

// -----

// Tests that convolution gradients in NHWC (which the gradient rule never
// emits) and with a dynamic spatial dim are reported on the op, for both
// the loop nests and the oneDNN kernels (f64: no kernel either way).
func.func @negative_conv_grads(%x: tensor<1x5x5x2xf64>, %w: tensor<3x2x3x3xf64>, %dy: tensor<1x3x3x3xf64>, %xd: tensor<1x2x?x5xf64>, %dyd: tensor<1x3x?x3xf64>) -> (tensor<1x5x5x2xf64>, tensor<3x2x3x3xf64>) {
  // expected-error @+1 {{code generation cannot compile 'pd.conv2d_grad_input' with these operand types or attributes yet}}
  %0 = pd.conv2d_grad_input %x, %w, %dy {data_format = "NHWC"} : (tensor<1x5x5x2xf64>, tensor<3x2x3x3xf64>, tensor<1x3x3x3xf64>) -> tensor<1x5x5x2xf64>
  // expected-error @+1 {{code generation cannot compile 'pd.conv2d_grad_filter' with these operand types or attributes yet}}
  %1 = pd.conv2d_grad_filter %xd, %w, %dyd : (tensor<1x2x?x5xf64>, tensor<3x2x3x3xf64>, tensor<1x3x?x3xf64>) -> tensor<3x2x3x3xf64>
  return %0, %1 : tensor<1x5x5x2xf64>, tensor<3x2x3x3xf64>
}

// -----

// Tests that a transposed convolution in NHWC is reported on the op.
func.func @negative_conv_transpose_nhwc(%x: tensor<1x3x3x2xf32>, %w: tensor<2x3x3x3xf32>) -> tensor<1x5x5x3xf32> {
  // expected-error @+1 {{code generation cannot compile 'pd.conv2d_transpose' with these operand types or attributes yet}}
  %0 = pd.conv2d_transpose %x, %w {data_format = "NHWC"} : (tensor<1x3x3x2xf32>, tensor<2x3x3x3xf32>) -> tensor<1x5x5x3xf32>
  return %0 : tensor<1x5x5x3xf32>
}

// -----

// Tests that a mean of integers (no integer division rule) is reported.
func.func @negative_reduce_mean_int(%x: tensor<3x4xi32>) -> tensor<3xi32> {
  // expected-error @+1 {{code generation cannot compile 'pd.reduce_mean' with these operand types or attributes yet}}
  %0 = pd.reduce_mean %x {dim = array<i32: 1>} : (tensor<3x4xi32>) -> tensor<3xi32>
  return %0 : tensor<3xi32>
}

// -----

// Tests that a split with a run-time axis is reported.
func.func @negative_split_runtime_axis(%x: tensor<?x6xf32>, %a: tensor<1xi32>) -> (tensor<?x?xf32>, tensor<?x?xf32>) {
  // expected-error @+1 {{code generation cannot compile 'pd.split' with these operand types or attributes yet}}
  %0, %1 = pd.split %x AxisTensor(%a) {num = 2 : i32} : (tensor<?x6xf32>, tensor<1xi32>) -> (tensor<?x?xf32>, tensor<?x?xf32>)
  return %0, %1 : tensor<?x?xf32>, tensor<?x?xf32>
}

// -----

// Tests that run-time split sections are read from their tensors and the
// pieces are consecutive.
// CHECK-LABEL: func.func @split_runtime
// CHECK: %[[S:.*]] = tensor.extract %arg1[%{{.*}}] : tensor<1xi32>
// CHECK: %[[N:.*]] = arith.index_cast %[[S]] : i32 to index
// CHECK: tensor.extract_slice %arg0[0, %[[O:.*]]] [%{{.*}}, %[[N]]] [1, 1]
// CHECK: %[[O2:.*]] = arith.addi %[[O]], %[[N]]
// CHECK: tensor.extract_slice %arg0[0, %[[O2]]]
func.func @split_runtime(%x: tensor<?x6xf32>, %s: tensor<1xi32>) -> (tensor<?x?xf32>, tensor<?x?xf32>) {
  %0, %1 = pd.split %x SectionsTensorList [%s, %s] {axis = 1 : i32} : (tensor<?x6xf32>, tensor<1xi32>, tensor<1xi32>) -> (tensor<?x?xf32>, tensor<?x?xf32>)
  return %0, %1 : tensor<?x?xf32>, tensor<?x?xf32>
}

// -----

// Tests that range has max(ceil((end - start) / step), 0) elements
// start + i * step.
// CHECK-LABEL: func.func @range
// CHECK: %[[S:.*]] = tensor.extract %arg0
// CHECK: %[[E:.*]] = tensor.extract %arg1
// CHECK: %[[ST:.*]] = tensor.extract %arg2
// CHECK: %[[D:.*]] = arith.subi %[[E]], %[[S]] : i64
// CHECK: %[[Q:.*]] = arith.ceildivsi %[[D]], %[[ST]] : i64
// CHECK: %[[QI:.*]] = arith.index_cast %[[Q]]
// CHECK: %[[N:.*]] = arith.maxsi %[[QI]], %{{.*}} : index
// CHECK: tensor.empty(%[[N]]) : tensor<?xi64>
// CHECK: %[[I:.*]] = linalg.index 0
// CHECK: %[[IV:.*]] = arith.index_cast %[[I]] : index to i64
// CHECK: %[[M:.*]] = arith.muli %[[IV]], %[[ST]]
// CHECK: arith.addi %[[S]], %[[M]]
func.func @range(%s: tensor<1xi64>, %e: tensor<1xi64>, %st: tensor<1xi64>) -> tensor<?xi64> {
  %0 = pd.range %s, %e, %st : (tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<?xi64>
  return %0 : tensor<?xi64>
}

// -----

// Tests that fill_constant takes its sizes from a run-time ShapeTensor.
// CHECK-LABEL: func.func @fill_runtime
// CHECK: %[[A:.*]] = tensor.extract %arg0[%{{.*}}] : tensor<2xi64>
// CHECK: %[[AI:.*]] = arith.index_cast %[[A]]
// CHECK: %[[B:.*]] = tensor.extract %arg0[%{{.*}}] : tensor<2xi64>
// CHECK: %[[BI:.*]] = arith.index_cast %[[B]]
// CHECK: %[[E:.*]] = tensor.empty(%[[AI]], %[[BI]]) : tensor<?x?xf32>
// CHECK: %[[V:.*]] = arith.constant 1.500000e+00 : f32
// CHECK: linalg.fill ins(%[[V]] : f32) outs(%[[E]]
func.func @fill_runtime(%s: tensor<2xi64>) -> tensor<?x?xf32> {
  %0 = pd.fill_constant ShapeTensor(%s) {value = 1.5 : f32} : (tensor<2xi64>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// -----

// Tests that expand_v2 with a run-time shape keeps the input dim where the
// target says -1 or 1, and broadcasts the static unit dim.
// CHECK: #[[IN:.*]] = affine_map<(d0, d1, d2) -> (d1, 0)>
// CHECK-LABEL: func.func @expand_runtime
// CHECK: %[[T1:.*]] = arith.index_cast
// CHECK: %[[T2:.*]] = arith.index_cast
// CHECK: %[[D0:.*]] = tensor.dim %arg0, %{{.*}} : tensor<3x1xf32>
// CHECK: %[[ONE:.*]] = arith.cmpi eq, %[[T2]], %{{.*}}
// CHECK: %[[NEG:.*]] = arith.cmpi eq, %[[T2]], %{{.*}}
// CHECK: %[[K:.*]] = arith.ori %[[NEG]], %[[ONE]]
// CHECK: arith.select %[[K]], %[[D0]], %[[T2]]
// CHECK: linalg.generic {indexing_maps = [#[[IN]], #{{.*}}]
func.func @expand_runtime(%x: tensor<3x1xf32>, %s: tensor<3xi64>) -> tensor<?x?x?xf32> {
  %0 = pd.expand_v2 %x Shape(%s) : (tensor<3x1xf32>, tensor<3xi64>) -> tensor<?x?x?xf32>
  return %0 : tensor<?x?x?xf32>
}

// -----

// Tests that tile reads x at the output index modulo x's dims.
// CHECK-LABEL: func.func @tile
// CHECK: %[[D0:.*]] = tensor.dim %arg0, %{{.*}} : tensor<2x4xf32>
// CHECK: %[[D1:.*]] = tensor.dim %arg0, %{{.*}} : tensor<2x4xf32>
// CHECK: tensor.empty() : tensor<4x12xf32>
// CHECK: %[[I:.*]] = linalg.index 0
// CHECK: %[[R:.*]] = arith.remui %[[I]], %[[D0]]
// CHECK: %[[J:.*]] = linalg.index 1
// CHECK: %[[S:.*]] = arith.remui %[[J]], %[[D1]]
// CHECK: tensor.extract %arg0[%[[R]], %[[S]]]
func.func @tile(%x: tensor<2x4xf32>) -> tensor<4x12xf32> {
  %0 = pd.tile %x {repeat_times = array<i32: 2, 3>} : (tensor<2x4xf32>) -> tensor<4x12xf32>
  return %0 : tensor<4x12xf32>
}

// -----

// Tests that a run-time reshape shape maps 0 to the input dim and -1 to
// the elements left over (24 here), then reshapes.
// CHECK-LABEL: func.func @reshape_runtime
// CHECK: %[[A:.*]] = arith.index_cast
// CHECK: %[[Z:.*]] = arith.cmpi eq, %[[A]], %{{.*}}
// CHECK: %[[A0:.*]] = arith.select %[[Z]], %{{.*}}, %[[A]]
// CHECK: %[[REST:.*]] = arith.divui
// CHECK: %[[M:.*]] = arith.cmpi eq, %[[A0]], %{{.*}}
// CHECK: %[[S0:.*]] = arith.select %[[M]], %[[REST]], %[[A0]]
// CHECK: %[[SH:.*]] = tensor.from_elements %[[S0]], %{{.*}} : tensor<2xindex>
// CHECK: tensor.reshape %arg0(%[[SH]]) : (tensor<2x3x4xf32>, tensor<2xindex>) -> tensor<?x?xf32>
func.func @reshape_runtime(%x: tensor<2x3x4xf32>, %s: tensor<2xi64>) -> tensor<?x?xf32> {
  %0 = pd.reshape2 %x Shape(%s) : (tensor<2x3x4xf32>, tensor<2xi64>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// -----

// Tests that a ShapeTensor list (single-element tensors, 0-d or [1]) takes
// precedence over the attribute: each entry is read, 0 and -1 resolved, and
// the result reshaped to them.
// CHECK-LABEL: func.func @reshape_shape_tensor_list
// CHECK: %[[N:.*]] = tensor.extract %arg1[%{{.*}}] : tensor<1xi32>
// CHECK: arith.index_cast %[[N]]
// CHECK: %[[W:.*]] = tensor.extract %arg2[] : tensor<i32>
// CHECK: arith.index_cast %[[W]]
// CHECK: arith.divui
// CHECK: %[[SH:.*]] = tensor.from_elements %{{.*}}, %{{.*}}, %{{.*}} : tensor<3xindex>
// CHECK: tensor.reshape %arg0(%[[SH]]) : (tensor<?x6x?xf32>, tensor<3xindex>) -> tensor<?x?x?xf32>
func.func @reshape_shape_tensor_list(%x: tensor<?x6x?xf32>, %n: tensor<1xi32>, %w: tensor<i32>) -> tensor<?x?x?xf32> {
  %c = arith.constant dense<-1> : tensor<1xi32>
  %0 = pd.reshape2 %x ShapeTensor [%n, %c, %w] {shape = array<i32: 0, 6, 0>} : (tensor<?x6x?xf32>, tensor<1xi32>, tensor<1xi32>, tensor<i32>) -> tensor<?x?x?xf32>
  return %0 : tensor<?x?x?xf32>
}

// -----

// A ShapeTensor entry must hold one number.
func.func @reshape_shape_tensor_not_scalar(%x: tensor<2x6xf32>, %n: tensor<2xi32>) -> tensor<?xf32> {
  // expected-error @+1 {{code generation cannot compile 'pd.reshape2'}}
  %0 = pd.reshape2 %x ShapeTensor [%n] : (tensor<2x6xf32>, tensor<2xi32>) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

// Tests that a run-time unsqueeze puts 1 at the listed positions and the
// input dims, in order, elsewhere.
// CHECK-LABEL: func.func @unsqueeze_runtime
// CHECK: %[[A:.*]] = arith.index_cast
// CHECK: %[[NEG:.*]] = arith.cmpi slt, %[[A]]
// CHECK: %[[AN:.*]] = arith.select %[[NEG]]
// CHECK: arith.cmpi eq, %[[AN]]
// CHECK: %[[SH:.*]] = tensor.from_elements %{{.*}}, %{{.*}}, %{{.*}} : tensor<3xindex>
// CHECK: tensor.reshape %arg0(%[[SH]]) : (tensor<3x4xf32>, tensor<3xindex>) -> tensor<?x?x?xf32>
func.func @unsqueeze_runtime(%x: tensor<3x4xf32>, %a: tensor<1xi64>) -> tensor<?x?x?xf32> {
  %0 = pd.unsqueeze2 %x AxesTensor(%a) : (tensor<3x4xf32>, tensor<1xi64>) -> tensor<?x?x?xf32>
  return %0 : tensor<?x?x?xf32>
}

// -----

// Tests that a negative stride reads x[start + i * stride] (start clamped
// to [0, d - 1], end to [-1, d - 1]) in a gather loop.
// CHECK-LABEL: func.func @slice_negative_stride
// CHECK: %[[N:.*]] = arith.ceildivsi %{{.*}}, %[[ST:.*]] : index
// CHECK: %[[L:.*]] = arith.maxsi %[[N]]
// CHECK: tensor.empty(%[[L]]) : tensor<?xf32>
// CHECK: %[[I:.*]] = linalg.index 0
// CHECK: %[[O:.*]] = arith.muli %[[I]], %[[ST]]
// CHECK: %[[P:.*]] = arith.addi %{{.*}}, %[[O]]
// CHECK: tensor.extract %arg0[%[[P]]]
// CHECK: tensor.cast %{{.*}} : tensor<?xf32> to tensor<5xf32>
func.func @slice_negative_stride(%x: tensor<10xf32>) -> tensor<5xf32> {
  %0 = pd.strided_slice %x {axes = array<i32: 0>, starts = array<i32: 9>, ends = array<i32: 0>, strides = array<i32: -2>} : (tensor<10xf32>) -> tensor<5xf32>
  return %0 : tensor<5xf32>
}

// -----

// Tests that shape reads the dims (the dynamic one at run time).
// CHECK-LABEL: func.func @shape
// CHECK: %[[D:.*]] = tensor.dim %arg0, %{{.*}} : tensor<?x3xf32>
// CHECK: %[[A:.*]] = arith.index_cast %[[D]] : index to i32
// CHECK: %[[B:.*]] = arith.index_cast %{{.*}} : index to i32
// CHECK: tensor.from_elements %[[A]], %[[B]] : tensor<2xi32>
func.func @shape(%x: tensor<?x3xf32>) -> tensor<2xi32> {
  %0 = pd.shape %x : (tensor<?x3xf32>) -> tensor<2xi32>
  return %0 : tensor<2xi32>
}

// -----

// Tests that uint8 division and max are unsigned on the reinterpreted
// values, and the result goes back to ui8.
// CHECK-LABEL: func.func @div_u8
// CHECK: %[[X:.*]] = builtin.unrealized_conversion_cast %in : ui8 to i8
// CHECK: %[[Y:.*]] = builtin.unrealized_conversion_cast %in_0 : ui8 to i8
// CHECK: %[[Q:.*]] = arith.divui %[[X]], %[[Y]] : i8
// CHECK: builtin.unrealized_conversion_cast %[[Q]] : i8 to ui8
// CHECK-LABEL: func.func @max_u8
// CHECK: arith.maxui
func.func @div_u8(%x: tensor<4xui8>, %y: tensor<4xui8>) -> tensor<4xui8> {
  %0 = pd.elementwise_div %x, %y : (tensor<4xui8>, tensor<4xui8>) -> tensor<4xui8>
  return %0 : tensor<4xui8>
}
func.func @max_u8(%x: tensor<4xui8>, %y: tensor<4xui8>) -> tensor<4xui8> {
  %0 = pd.elementwise_max %x, %y : (tensor<4xui8>, tensor<4xui8>) -> tensor<4xui8>
  return %0 : tensor<4xui8>
}

// -----

// Tests that einsum is one linalg.generic: result loops parallel, the
// summed letter a reduction, "..." right-aligned, a repeated letter a
// diagonal, and the implicit result (letters used once, sorted).
// CHECK-DAG: #[[A:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
// CHECK-DAG: #[[B:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>
// CHECK-DAG: #[[O:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
// CHECK-DAG: #[[D:.*]] = affine_map<(d0, d1) -> (d0, d1, d1)>
// CHECK-DAG: #[[T:.*]] = affine_map<(d0, d1) -> (d1, d0)>
// CHECK-LABEL: func.func @einsum_bmm
// CHECK: linalg.fill
// CHECK: linalg.generic {indexing_maps = [#[[A]], #[[B]], #[[O]]], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
// CHECK: %[[P:.*]] = arith.mulf
// CHECK: arith.addf %{{.*}}, %[[P]]
// CHECK-LABEL: func.func @einsum_diagonal
// CHECK: linalg.generic {indexing_maps = [#[[D]], #{{.*}}], iterator_types = ["parallel", "parallel"]}
// CHECK-LABEL: func.func @einsum_implicit
// CHECK: linalg.generic {indexing_maps = [#[[T]], #{{.*}}], iterator_types = ["parallel", "parallel"]}
func.func @einsum_bmm(%a: tensor<2x3x4xf32>, %b: tensor<2x4x5xf32>) -> tensor<2x3x5xf32> {
  %0 = pd.einsum [%a, %b] {equation = "bij, bjk -> bik"} : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
  return %0 : tensor<2x3x5xf32>
}
func.func @einsum_diagonal(%x: tensor<3x5x5xf32>) -> tensor<3x5xf32> {
  %0 = pd.einsum [%x] {equation = "...ii->...i"} : (tensor<3x5x5xf32>) -> tensor<3x5xf32>
  return %0 : tensor<3x5xf32>
}
func.func @einsum_implicit(%x: tensor<3x4xf32>) -> tensor<4x3xf32> {
  %0 = pd.einsum [%x] {equation = "ji"} : (tensor<3x4xf32>) -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}

// -----

// Tests that gather_nd reads the index tuple along Index's last dim (each
// wrapped and clamped) and copies the trailing dims of X.
// CHECK-LABEL: func.func @gather_nd
// CHECK: tensor.empty() : tensor<3x6xf32>
// CHECK: %[[B:.*]] = linalg.index 0
// CHECK: %[[I0:.*]] = tensor.extract %arg1[%[[B]], %{{.*}}] : tensor<3x2xi64>
// CHECK: %[[I1:.*]] = tensor.extract %arg1[%[[B]], %{{.*}}] : tensor<3x2xi64>
// CHECK: %[[J:.*]] = linalg.index 1
// CHECK: tensor.extract %arg0[%{{.*}}, %{{.*}}, %[[J]]] : tensor<4x5x6xf32>
func.func @gather_nd(%x: tensor<4x5x6xf32>, %i: tensor<3x2xi64>) -> tensor<3x6xf32> {
  %0 = pd.gather_nd %x, %i : (tensor<4x5x6xf32>, tensor<3x2xi64>) -> tensor<3x6xf32>
  return %0 : tensor<3x6xf32>
}

// -----

// Tests that scatter_nd_add loops over the index tuples in order, carrying
// the result, and adds each update row into the row its tuple addresses;
// the loop starts from a copy of X (bufferization.alloc_tensor copy), so
// writing in place never touches X itself (a weight, or a value read later).
// CHECK-LABEL: func.func @scatter_nd_add
// CHECK: %[[COPY:.*]] = bufferization.alloc_tensor() copy(%arg0) : tensor<4x5xf32>
// CHECK: scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %[[COPY]]) -> (tensor<4x5xf32>)
// CHECK: %[[ID:.*]] = tensor.extract %arg1[%[[I]], %{{.*}}] : tensor<3x1xi64>
// CHECK: %[[ROW:.*]] = arith.minsi
// CHECK: %[[CUR:.*]] = tensor.extract_slice %[[ACC]][%[[ROW]], 0] [1, 5] [1, 1] : tensor<4x5xf32> to tensor<5xf32>
// CHECK: %[[UPD:.*]] = tensor.extract_slice %arg2[%[[I]], 0] [1, 5] [1, 1] : tensor<3x5xf32> to tensor<5xf32>
// CHECK: linalg.generic {{.*}} ins(%[[CUR]], %[[UPD]] : tensor<5xf32>, tensor<5xf32>)
// CHECK: arith.addf
// CHECK: %[[NEW:.*]] = tensor.insert_slice %{{.*}} into %[[ACC]][%[[ROW]], 0] [1, 5] [1, 1]
// CHECK: scf.yield %[[NEW]]
func.func @scatter_nd_add(%x: tensor<4x5xf32>, %i: tensor<3x1xi64>, %u: tensor<3x5xf32>) -> tensor<4x5xf32> {
  %0 = pd.scatter_nd_add %x, %i, %u : (tensor<4x5xf32>, tensor<3x1xi64>, tensor<3x5xf32>) -> tensor<4x5xf32>
  return %0 : tensor<4x5xf32>
}

// -----

// Tests that windows over dynamic spatial dims compute their paddings at
// run time: ceil_mode's extra padding at the end, SAME's split, and an
// exclusive average's cells per position (from the output's indices).
// CHECK-LABEL: func.func @dynamic_windows
// CHECK: tensor.dim %arg0, %c2
// CHECK: %[[EXTRA_H:.*]] = arith.maxsi
// CHECK: %[[EXTRA_W:.*]] = arith.maxsi
// CHECK: tensor.pad %arg0 low[0, 0, 0, 0] high[0, 0, %{{.*}}, %{{.*}}]
// CHECK: linalg.pooling_nchw_sum
// CHECK: %[[H:.*]] = tensor.dim %arg0, %c2
// CHECK: linalg.generic
// CHECK: linalg.index 2
// CHECK: arith.minsi %{{.*}}, %[[H]]
// CHECK: linalg.index 3
// CHECK: arith.divf
// CHECK: arith.ceildivsi
// CHECK: %[[TOTAL:.*]] = arith.maxsi
// CHECK: %[[TOP:.*]] = arith.divsi %[[TOTAL]], %{{.*}}
// CHECK: %[[BOTTOM:.*]] = arith.subi %[[TOTAL]], %[[TOP]]
// CHECK: tensor.pad %arg0 low[0, 0, %[[TOP]], %{{.*}}] high[0, 0, %[[BOTTOM]], %{{.*}}]
// CHECK: linalg.conv_2d_nchw_fchw
func.func @dynamic_windows(%x: tensor<1x2x?x?xf32>, %w: tensor<3x2x3x3xf32>) -> (tensor<1x2x?x?xf32>, tensor<1x3x?x?xf32>) {
  %0 = pd.pool2d %x {ceil_mode = true, ksize = array<i32: 2, 2>, pooling_type = "avg", strides = array<i32: 2, 2>} : (tensor<1x2x?x?xf32>) -> tensor<1x2x?x?xf32>
  %1 = pd.conv2d %x, %w {padding_algorithm = "SAME", strides = array<i32: 2, 2>} : (tensor<1x2x?x?xf32>, tensor<3x2x3x3xf32>) -> tensor<1x3x?x?xf32>
  return %0, %1 : tensor<1x2x?x?xf32>, tensor<1x3x?x?xf32>
}

// -----

// Tests that a transposed convolution over dynamic spatial dims sizes its
// result (H - 1) * s - pads + d * (k - 1) + 1 at run time and bounds its
// taps by the run-time input size.
// CHECK-LABEL: func.func @dynamic_conv_transpose
// CHECK: %[[H:.*]] = tensor.dim %arg0, %c2
// CHECK: %[[M:.*]] = arith.subi %[[H]], %c1
// CHECK: %[[S:.*]] = arith.muli %[[M]], %c2
// CHECK: arith.addi %[[S]], %c1
// CHECK: linalg.generic
// CHECK: arith.cmpi slt, %{{.*}}, %[[H]]
func.func @dynamic_conv_transpose(%x: tensor<1x2x?x?xf32>, %w: tensor<2x3x3x3xf32>) -> tensor<1x3x?x?xf32> {
  %0 = pd.conv2d_transpose %x, %w {strides = array<i32: 2, 2>, paddings = array<i32: 1, 1>} : (tensor<1x2x?x?xf32>, tensor<2x3x3x3xf32>) -> tensor<1x3x?x?xf32>
  return %0 : tensor<1x3x?x?xf32>
}

// -----

// Tests that a transposed convolution with SAME padding (no lowering yet)
// is reported on the op.
func.func @negative_conv_transpose_same(%x: tensor<1x2x?x?xf32>, %w: tensor<2x3x3x3xf32>) -> tensor<1x3x?x?xf32> {
  // expected-error @+1 {{code generation cannot compile 'pd.conv2d_transpose' with these operand types or attributes yet}}
  %0 = pd.conv2d_transpose %x, %w {padding_algorithm = "SAME", strides = array<i32: 2, 2>} : (tensor<1x2x?x?xf32>, tensor<2x3x3x3xf32>) -> tensor<1x3x?x?xf32>
  return %0 : tensor<1x3x?x?xf32>
}
