// Negative cases: one per verifier rule of the pd ops.
// RUN: paddle-opt %s -split-input-file -verify-diagnostics

// Tests that an operand of the wrong element type is rejected.
func.func @negative_0(%x: tensor<4xi64>) {
  // expected-error @+1 {{operand #0 must be ranked tensor of}}
  %0 = pd.relu %x : (tensor<4xi64>) -> tensor<4xi64>
  return
}

// -----

// Tests that unranked tensors are rejected.
func.func @negative_1(%x: tensor<*xf32>) {
  // expected-error @+1 {{must be ranked tensor}}
  %0 = pd.relu %x : (tensor<*xf32>) -> tensor<*xf32>
  return
}

// -----

// Tests that a required attribute must be present.
func.func @negative_2(%x: tensor<1x3x8x8xf32>) {
  // expected-error @+1 {{requires attribute 'ksize'}}
  %0 = pd.pool2d %x : (tensor<1x3x8x8xf32>) -> tensor<1x3x8x8xf32>
  return
}

// -----

// Tests that integer attributes respect their minimum (groups >= 1).
func.func @negative_3(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+1 {{whose minimum value is 1}}
  %0 = pd.conv2d %x, %w {groups = 0 : i32} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  return
}

// -----

// Tests that string attributes take one of Paddle's spellings.
func.func @negative_4(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+1 {{whose value is one of {NCHW, NHWC, AnyLayout}}}
  %0 = pd.conv2d %x, %w {data_format = "NCWH"} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  return
}

// -----

// Tests that array attribute elements respect their minimum (strides >= 1).
func.func @negative_5(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+1 {{whose elements are all >= 1}}
  %0 = pd.conv2d %x, %w {strides = array<i32: 0, 1>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  return
}

// -----

// Tests that array attributes have the allowed lengths (paddings 2 or 4).
func.func @negative_6(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+1 {{with 2 or 4 elements}}
  %0 = pd.conv2d %x, %w {paddings = array<i32: 1, 1, 1>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  return
}

// -----

// Tests that float attributes respect their range (dropout_prob in [0, 1]).
func.func @negative_7(%x: tensor<4xf32>) {
  // expected-error @+1 {{whose value is in [0.0, 1.0]}}
  %0 = pd.dropout %x {dropout_prob = 1.5 : f32} : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

// Tests that the pooling type is max or avg.
func.func @negative_8(%x: tensor<1x3x8x8xf32>) {
  // expected-error @+1 {{whose value is one of {max, avg}}}
  %0 = pd.pool2d %x {ksize = array<i32: 2, 2>, pooling_type = "sum"} : (tensor<1x3x8x8xf32>) -> tensor<1x3x7x7xf32>
  return
}

// -----

// Tests that fused activations are from the known list.
func.func @negative_9(%x: tensor<2x4xf32>, %w: tensor<4x8xf32>) {
  // expected-error @+1 {{whose value is one of}}
  %0 = pd.fc %x, %w {activation_type = "mish"} : (tensor<2x4xf32>, tensor<4x8xf32>) -> tensor<2x8xf32>
  return
}

// -----

// Tests that a result type with a different static size is rejected.
func.func @negative_10(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{result #0 has type 'tensor<2x4xf32>' but the inferred type is 'tensor<2x3xf32>'}}
  %0 = pd.relu %x : (tensor<2x3xf32>) -> tensor<2x4xf32>
  return
}

// -----

// Tests that a result type with a different rank is rejected.
func.func @negative_11(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{but the inferred type is}}
  %0 = pd.relu %x : (tensor<2x3xf32>) -> tensor<6xf32>
  return
}

// -----

// Tests that a result type with a different element type is rejected.
func.func @negative_12(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{but the inferred type is 'tensor<2x3xi64>'}}
  %0 = pd.cast %x {in_dtype = 5 : i32, out_dtype = 3 : i32} : (tensor<2x3xf32>) -> tensor<2x3xi32>
  return
}

// -----

// Tests that elementwise operands must share the element type.
func.func @negative_13(%x: tensor<2x3xf32>, %y: tensor<2x3xf64>) {
  // expected-error @+1 {{operands must have the same element type}}
  %0 = pd.elementwise_add %x, %y : (tensor<2x3xf32>, tensor<2x3xf64>) -> tensor<2x3xf32>
  return
}

// -----

// Tests that the axis must align the smaller operand inside the larger.
func.func @negative_14(%x: tensor<2x3x4xf32>, %y: tensor<3x4xf32>) {
  // expected-error @+1 {{axis 2 cannot align a rank-2 operand with a rank-3 operand}}
  %0 = pd.elementwise_mul %x, %y {axis = 2 : i32} : (tensor<2x3x4xf32>, tensor<3x4xf32>) -> tensor<2x3x4xf32>
  return
}

// -----

// Tests that elementwise shapes must broadcast.
func.func @negative_15(%x: tensor<2x3xf32>, %y: tensor<2x4xf32>) {
  // expected-error @+1 {{operand shapes are not broadcastable: dim 1 is 3 vs 4}}
  %0 = pd.elementwise_sub %x, %y : (tensor<2x3xf32>, tensor<2x4xf32>) -> tensor<2x3xf32>
  return
}

// -----

// Tests that comparison results are i1.
func.func @negative_16(%x: tensor<2xf32>, %y: tensor<2xf32>) {
  // expected-error @+1 {{result #0 must be ranked tensor of 1-bit signless integer values}}
  %0 = pd.less_than %x, %y : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  return
}

// -----

// Tests that conv2d needs 4-D input.
func.func @negative_17(%x: tensor<3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+1 {{Input must have rank 4, got 3}}
  %0 = pd.conv2d %x, %w : (tensor<3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  return
}

// -----

// Tests that conv2d needs a 4-D filter.
func.func @negative_18(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3xf32>) {
  // expected-error @+1 {{Filter must have rank 4, got 3}}
  %0 = pd.conv2d %x, %w : (tensor<1x3x8x8xf32>, tensor<4x3x3xf32>) -> tensor<1x4x6x6xf32>
  return
}

// -----

// Tests that input channels equal filter channels times groups.
func.func @negative_19(%x: tensor<1x3x8x8xf32>, %w: tensor<4x2x3x3xf32>) {
  // expected-error @+1 {{input channels (3) must equal Filter dim 1 (2) times groups (1)}}
  %0 = pd.conv2d %x, %w : (tensor<1x3x8x8xf32>, tensor<4x2x3x3xf32>) -> tensor<1x4x6x6xf32>
  return
}

// -----

// Tests that output channels are divisible by groups.
func.func @negative_20(%x: tensor<1x4x8x8xf32>, %w: tensor<6x1x3x3xf32>) {
  // expected-error @+1 {{output channels (6) must be divisible by groups (4)}}
  %0 = pd.depthwise_conv2d %x, %w {groups = 4 : i32} : (tensor<1x4x8x8xf32>, tensor<6x1x3x3xf32>) -> tensor<1x6x6x6xf32>
  return
}

// -----

// Tests that the filter must fit in the padded input.
func.func @negative_21(%x: tensor<1x3x2x2xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+1 {{output spatial size [0, 0] is not positive}}
  %0 = pd.conv2d %x, %w : (tensor<1x3x2x2xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x1x1xf32>
  return
}

// -----

// Tests that fused_conv2d bias has one entry per output channel.
func.func @negative_22(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<5xf32>) {
  // expected-error @+1 {{Bias must have 4 elements, got shape [5]}}
  %0 = pd.fused_conv2d %x, %w Bias(%b) : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>, tensor<5xf32>) -> tensor<1x4x6x6xf32>
  return
}

// -----

// Tests that fused_conv2d residual matches the output.
func.func @negative_23(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>, %r: tensor<1x4x8x8xf32>) {
  // expected-error @+1 {{ResidualData shape [1, 4, 8, 8] differs from the output shape [1, 4, 6, 6]}}
  %0 = pd.fused_conv2d %x, %w ResidualData(%r) : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>, tensor<1x4x8x8xf32>) -> tensor<1x4x6x6xf32>
  return
}

// -----

// Tests that conv2d_transpose input channels equal filter dim 0.
func.func @negative_24(%x: tensor<1x16x8x8xf32>, %w: tensor<8x8x2x2xf32>) {
  // expected-error @+1 {{input channels (16) must equal Filter dim 0 (8)}}
  %0 = pd.conv2d_transpose %x, %w : (tensor<1x16x8x8xf32>, tensor<8x8x2x2xf32>) -> tensor<1x8x9x9xf32>
  return
}

// -----

// Tests that conv2d_transpose output_padding has two entries.
func.func @negative_25(%x: tensor<1x16x8x8xf32>, %w: tensor<16x8x2x2xf32>) {
  // expected-error @+1 {{output_padding must have 2 elements}}
  %0 = pd.conv2d_transpose %x, %w {output_padding = array<i32: 1>} : (tensor<1x16x8x8xf32>, tensor<16x8x2x2xf32>) -> tensor<1x8x9x9xf32>
  return
}

// -----

// Tests that conv2d_transpose output_size has two entries.
func.func @negative_26(%x: tensor<1x16x8x8xf32>, %w: tensor<16x8x2x2xf32>) {
  // expected-error @+1 {{output_size must have 2 elements}}
  %0 = pd.conv2d_transpose %x, %w {output_size = array<i32: 9>} : (tensor<1x16x8x8xf32>, tensor<16x8x2x2xf32>) -> tensor<1x8x9x9xf32>
  return
}

// -----

// Tests that conv2d_transpose output_size is reachable with the strides.
func.func @negative_27(%x: tensor<1x16x8x8xf32>, %w: tensor<16x8x2x2xf32>) {
  // expected-error @+1 {{output_size 20 must be in [16, 18)}}
  %0 = pd.conv2d_transpose %x, %w {strides = array<i32: 2, 2>, output_size = array<i32: 20, 20>} : (tensor<1x16x8x8xf32>, tensor<16x8x2x2xf32>) -> tensor<1x8x20x20xf32>
  return
}

// -----

// Tests that conv2d_transpose output must be positive.
func.func @negative_28(%x: tensor<1x16x1x1xf32>, %w: tensor<16x8x1x1xf32>) {
  // expected-error @+1 {{output spatial size is not positive}}
  %0 = pd.conv2d_transpose %x, %w {paddings = array<i32: 1, 1>} : (tensor<1x16x1x1xf32>, tensor<16x8x1x1xf32>) -> tensor<1x8x1x1xf32>
  return
}

// -----

// Tests that batch_norm statistics have one entry per channel.
func.func @negative_29(%x: tensor<1x4x8x8xf32>, %s: tensor<4xf32>, %m: tensor<3xf32>) {
  // expected-error @+1 {{Mean must have 4 elements, got shape [3]}}
  %0 = pd.batch_norm %x, %s, %s, %m, %s : (tensor<1x4x8x8xf32>, tensor<4xf32>, tensor<4xf32>, tensor<3xf32>, tensor<4xf32>) -> tensor<1x4x8x8xf32>
  return
}

// -----

// Tests that batch_norm in NHWC takes channels from the last dim.
func.func @negative_30(%x: tensor<1x8x8x4xf32>, %s: tensor<8xf32>) {
  // expected-error @+1 {{Scale must have 4 elements, got shape [8]}}
  %0 = pd.batch_norm %x, %s, %s, %s, %s {data_layout = "NHWC"} : (tensor<1x8x8x4xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<1x8x8x4xf32>
  return
}

// -----

// Tests that batch_norm input has rank 2 to 5.
func.func @negative_31(%x: tensor<4xf32>, %s: tensor<4xf32>) {
  // expected-error @+1 {{X must have rank 2 to 5, got 1}}
  %0 = pd.batch_norm %x, %s, %s, %s, %s : (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

// Tests that layer_norm begin_norm_axis is inside the rank.
func.func @negative_32(%x: tensor<2x8xf32>) {
  // expected-error @+1 {{begin_norm_axis 2 must be less than the rank 2}}
  %0 = pd.layer_norm %x {begin_norm_axis = 2 : i32} : (tensor<2x8xf32>) -> tensor<2x8xf32>
  return
}

// -----

// Tests that layer_norm scale covers the normalized dims.
func.func @negative_33(%x: tensor<2x3x8xf32>, %g: tensor<8xf32>) {
  // expected-error @+1 {{Scale must have 24 elements, got shape [8]}}
  %0 = pd.layer_norm %x Scale(%g) : (tensor<2x3x8xf32>, tensor<8xf32>) -> tensor<2x3x8xf32>
  return
}

// -----

// Tests that group_norm channels are divisible by groups.
func.func @negative_34(%x: tensor<1x6x4x4xf32>) {
  // expected-error @+1 {{channels (6) must be divisible by groups (4)}}
  %0 = pd.group_norm %x {groups = 4 : i32} : (tensor<1x6x4x4xf32>) -> tensor<1x6x4x4xf32>
  return
}

// -----

// Tests that skip_layernorm adds same-shaped tensors.
func.func @negative_35(%x: tensor<2x8xf32>, %y: tensor<1x8xf32>, %g: tensor<8xf32>) {
  // expected-error @+1 {{X and Y must have the same shape}}
  %0 = pd.skip_layernorm %x, %y, %g, %g : (tensor<2x8xf32>, tensor<1x8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<2x8xf32>
  return
}

// -----

// Tests that pool2d takes float or 8-bit integer tensors only.
func.func @negative_pool2d_i32(%x: tensor<1x3x8x8xi32>) {
  // expected-error @+1 {{operand #0 must be ranked tensor of}}
  %0 = pd.pool2d %x {ksize = array<i32: 2, 2>} : (tensor<1x3x8x8xi32>) -> tensor<1x3x7x7xi32>
  return
}

// -----

// Tests that pool2d needs 4-D input.
func.func @negative_36(%x: tensor<3x8x8xf32>) {
  // expected-error @+1 {{X must have rank 4, got 3}}
  %0 = pd.pool2d %x {ksize = array<i32: 2, 2>} : (tensor<3x8x8xf32>) -> tensor<3x7x7xf32>
  return
}

// -----

// Tests that pool2d ksize is positive unless pooling is global.
func.func @negative_37(%x: tensor<1x3x8x8xf32>) {
  // expected-error @+1 {{ksize must be positive unless global_pooling is set}}
  %0 = pd.pool2d %x {ksize = array<i32: 0, 0>} : (tensor<1x3x8x8xf32>) -> tensor<1x3x8x8xf32>
  return
}

// -----

// Tests that pool2d window must fit.
func.func @negative_38(%x: tensor<1x3x2x2xf32>) {
  // expected-error @+1 {{output spatial size is not positive}}
  %0 = pd.pool2d %x {ksize = array<i32: 3, 3>} : (tensor<1x3x2x2xf32>) -> tensor<1x3x1x1xf32>
  return
}

// -----

// Tests that interpolation needs a target size.
func.func @negative_39(%x: tensor<1x3x8x8xf32>) {
  // expected-error @+1 {{needs out_h and out_w, a scale, or a size input}}
  %0 = pd.bilinear_interp_v2 %x : (tensor<1x3x8x8xf32>) -> tensor<1x3x8x8xf32>
  return
}

// -----

// Tests that interpolation scales are positive.
func.func @negative_40(%x: tensor<1x3x8x8xf32>) {
  // expected-error @+1 {{scale must be positive}}
  %0 = pd.nearest_interp_v2 %x {scale = array<f32: -2.0, 2.0>} : (tensor<1x3x8x8xf32>) -> tensor<1x3x8x8xf32>
  return
}

// -----

// Tests that pad3d needs 5-D input.
func.func @negative_41(%x: tensor<1x3x8x8xf32>) {
  // expected-error @+1 {{X must have rank 5, got 4}}
  %0 = pd.pad3d %x : (tensor<1x3x8x8xf32>) -> tensor<1x3x8x8xf32>
  return
}

// -----

// Tests that affine_channel scale has one entry per channel.
func.func @negative_42(%x: tensor<1x4x2x2xf32>, %s: tensor<3xf32>) {
  // expected-error @+1 {{Scale must have 4 elements}}
  %0 = pd.affine_channel %x, %s, %s : (tensor<1x4x2x2xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<1x4x2x2xf32>
  return
}

// -----

// Tests that prelu channel mode has one slope per channel.
func.func @negative_43(%x: tensor<1x4x2x2xf32>, %a: tensor<3xf32>) {
  // expected-error @+1 {{Alpha has 3 elements but mode 'channel' needs 4}}
  %0 = pd.prelu %x, %a {mode = "channel"} : (tensor<1x4x2x2xf32>, tensor<3xf32>) -> tensor<1x4x2x2xf32>
  return
}

// -----

// Tests that prelu channel mode needs rank >= 2.
func.func @negative_44(%x: tensor<4xf32>, %a: tensor<1xf32>) {
  // expected-error @+1 {{channel mode needs X of rank >= 2}}
  %0 = pd.prelu %x, %a {mode = "channel"} : (tensor<4xf32>, tensor<1xf32>) -> tensor<4xf32>
  return
}

// -----

// Tests that softmax axis is inside the rank.
func.func @negative_45(%x: tensor<2x8xf32>) {
  // expected-error @+1 {{axis 2 is out of range for rank 2}}
  %0 = pd.softmax %x {axis = 2 : i32} : (tensor<2x8xf32>) -> tensor<2x8xf32>
  return
}

// -----

// Tests that log_softmax axis is inside the rank.
func.func @negative_46(%x: tensor<2x8xf32>) {
  // expected-error @+1 {{axis -3 is out of range for rank 2}}
  %0 = pd.log_softmax %x {axis = -3 : i32} : (tensor<2x8xf32>) -> tensor<2x8xf32>
  return
}

// -----

// Tests that clip min does not exceed max.
func.func @negative_47(%x: tensor<4xf32>) {
  // expected-error @+1 {{min must not exceed max}}
  %0 = pd.clip %x {min = 2.0 : f32, max = 1.0 : f32} : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

// Tests that cast out_dtype is a tensor dtype.
func.func @negative_48(%x: tensor<4xf32>) {
  // expected-error @+1 {{out_dtype 7 is not a tensor dtype}}
  %0 = pd.cast %x {in_dtype = 5 : i32, out_dtype = 7 : i32} : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

// Tests that cast in_dtype matches X.
func.func @negative_49(%x: tensor<4xf32>) {
  // expected-error @+1 {{in_dtype 3 does not match the element type of X}}
  %0 = pd.cast %x {in_dtype = 3 : i32, out_dtype = 5 : i32} : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

// Tests that mul x_num_col_dims is below the rank of X.
func.func @negative_50(%x: tensor<2x4xf32>, %y: tensor<4x3xf32>) {
  // expected-error @+1 {{x_num_col_dims 2 must be less than the rank of X (2)}}
  %0 = pd.mul %x, %y {x_num_col_dims = 2 : i32} : (tensor<2x4xf32>, tensor<4x3xf32>) -> tensor<2x3xf32>
  return
}

// -----

// Tests that mul y_num_col_dims is below the rank of Y.
func.func @negative_51(%x: tensor<2x4xf32>, %y: tensor<4x3xf32>) {
  // expected-error @+1 {{y_num_col_dims 2 must be less than the rank of Y (2)}}
  %0 = pd.mul %x, %y {y_num_col_dims = 2 : i32} : (tensor<2x4xf32>, tensor<4x3xf32>) -> tensor<2x3xf32>
  return
}

// -----

// Tests that mul contraction sizes agree.
func.func @negative_52(%x: tensor<2x4xf32>, %y: tensor<5x3xf32>) {
  // expected-error @+1 {{contraction sizes differ: X gives 4, Y gives 5}}
  %0 = pd.mul %x, %y : (tensor<2x4xf32>, tensor<5x3xf32>) -> tensor<2x3xf32>
  return
}

// -----

// Tests that matmul_v2 contraction dims agree.
func.func @negative_53(%x: tensor<2x4xf32>, %y: tensor<5x3xf32>) {
  // expected-error @+1 {{contraction dims differ: X has 4, Y has 5}}
  %0 = pd.matmul_v2 %x, %y : (tensor<2x4xf32>, tensor<5x3xf32>) -> tensor<2x3xf32>
  return
}

// -----

// Tests that matmul batch dims broadcast.
func.func @negative_54(%x: tensor<2x3x4xf32>, %y: tensor<5x4x6xf32>) {
  // expected-error @+1 {{batch dims are not broadcastable: 2 vs 5}}
  %0 = pd.matmul %x, %y : (tensor<2x3x4xf32>, tensor<5x4x6xf32>) -> tensor<2x3x6xf32>
  return
}

// -----

// Tests that matmul_v2 operands are not scalars.
func.func @negative_55(%x: tensor<f32>, %y: tensor<4xf32>) {
  // expected-error @+1 {{X and Y must have rank >= 1}}
  %0 = pd.matmul_v2 %x, %y : (tensor<f32>, tensor<4xf32>) -> tensor<f32>
  return
}

// -----

// Tests that fc weight is 2-D.
func.func @negative_56(%x: tensor<2x4xf32>, %w: tensor<4x3x1xf32>) {
  // expected-error @+1 {{W must have rank 2, got 3}}
  %0 = pd.fc %x, %w : (tensor<2x4xf32>, tensor<4x3x1xf32>) -> tensor<2x3xf32>
  return
}

// -----

// Tests that fc in_num_col_dims is below the rank.
func.func @negative_57(%x: tensor<2x4xf32>, %w: tensor<4x3xf32>) {
  // expected-error @+1 {{in_num_col_dims 2 must be less than the rank of Input (2)}}
  %0 = pd.fc %x, %w {in_num_col_dims = 2 : i32} : (tensor<2x4xf32>, tensor<4x3xf32>) -> tensor<2x4x3xf32>
  return
}

// -----

// Tests that fc input flattens to the weight rows.
func.func @negative_58(%x: tensor<2x4xf32>, %w: tensor<5x3xf32>) {
  // expected-error @+1 {{Input flattens to K = 4 but W has 5 rows}}
  %0 = pd.fc %x, %w : (tensor<2x4xf32>, tensor<5x3xf32>) -> tensor<2x3xf32>
  return
}

// -----

// Tests that fc bias has one entry per output.
func.func @negative_59(%x: tensor<2x4xf32>, %w: tensor<4x3xf32>, %b: tensor<4xf32>) {
  // expected-error @+1 {{Bias must have 3 elements, got shape [4]}}
  %0 = pd.fc %x, %w Bias(%b) : (tensor<2x4xf32>, tensor<4x3xf32>, tensor<4xf32>) -> tensor<2x3xf32>
  return
}

// -----

// Tests that multihead_matmul input is [B, S, H].
func.func @negative_60(%x: tensor<2x8xf32>, %w: tensor<8x3x8xf32>, %b: tensor<3x8xf32>) {
  // expected-error @+1 {{Input must have rank 3, got 2}}
  %0 = pd.multihead_matmul %x, %w, %b : (tensor<2x8xf32>, tensor<8x3x8xf32>, tensor<3x8xf32>) -> tensor<2x8xf32>
  return
}

// -----

// Tests that multihead_matmul weight is [H, 3, H].
func.func @negative_61(%x: tensor<1x4x8xf32>, %w: tensor<8x2x8xf32>, %b: tensor<3x8xf32>) {
  // expected-error @+1 {{W must be [H, 3, H] with H = 8, got [8, 2, 8]}}
  %0 = pd.multihead_matmul %x, %w, %b : (tensor<1x4x8xf32>, tensor<8x2x8xf32>, tensor<3x8xf32>) -> tensor<1x4x8xf32>
  return
}

// -----

// Tests that multihead_matmul bias is [3, H].
func.func @negative_62(%x: tensor<1x4x8xf32>, %w: tensor<8x3x8xf32>, %b: tensor<3x4xf32>) {
  // expected-error @+1 {{Bias must be [3, H] with H = 8, got [3, 4]}}
  %0 = pd.multihead_matmul %x, %w, %b : (tensor<1x4x8xf32>, tensor<8x3x8xf32>, tensor<3x4xf32>) -> tensor<1x4x8xf32>
  return
}

// -----

// Tests that multihead_matmul heads divide the hidden size.
func.func @negative_63(%x: tensor<1x4x8xf32>, %w: tensor<8x3x8xf32>, %b: tensor<3x8xf32>) {
  // expected-error @+1 {{hidden size 8 must be divisible by head_number 3}}
  %0 = pd.multihead_matmul %x, %w, %b {head_number = 3 : i32} : (tensor<1x4x8xf32>, tensor<8x3x8xf32>, tensor<3x8xf32>) -> tensor<1x4x8xf32>
  return
}

// -----

// Tests that multihead_matmul mask has rank 2 or 4.
func.func @negative_64(%x: tensor<1x4x8xf32>, %w: tensor<8x3x8xf32>, %b: tensor<3x8xf32>, %m: tensor<4xf32>) {
  // expected-error @+1 {{BiasQK must have rank 2 or 4}}
  %0 = pd.multihead_matmul %x, %w, %b BiasQK(%m) : (tensor<1x4x8xf32>, tensor<8x3x8xf32>, tensor<3x8xf32>, tensor<4xf32>) -> tensor<1x4x8xf32>
  return
}

// -----

// Tests that reshape2 needs a shape.
func.func @negative_65(%x: tensor<2x4xf32>) {
  // expected-error @+1 {{needs a shape attribute or a Shape/ShapeTensor input}}
  %0 = pd.reshape2 %x : (tensor<2x4xf32>) -> tensor<8xf32>
  return
}

// -----

// Tests that reshape2 allows one -1.
func.func @negative_66(%x: tensor<2x4xf32>) {
  // expected-error @+1 {{shape has more than one -1}}
  %0 = pd.reshape2 %x {shape = array<i32: -1, -1>} : (tensor<2x4xf32>) -> tensor<2x4xf32>
  return
}

// -----

// Tests that reshape2 0 copies an existing dim.
func.func @negative_67(%x: tensor<8xf32>) {
  // expected-error @+1 {{shape[1] = 0 copies a dim the input does not have}}
  %0 = pd.reshape2 %x {shape = array<i32: 4, 0>} : (tensor<8xf32>) -> tensor<4x2xf32>
  return
}

// -----

// Tests that reshape2 rejects dims below -1.
func.func @negative_68(%x: tensor<8xf32>) {
  // expected-error @+1 {{shape[0] = -2 is invalid}}
  %0 = pd.reshape2 %x {shape = array<i32: -2, 4>} : (tensor<8xf32>) -> tensor<2x4xf32>
  return
}

// -----

// Tests that reshape2 -1 must divide the element count.
func.func @negative_69(%x: tensor<2x5xf32>) {
  // expected-error @+1 {{cannot infer the -1 dim: 10 elements are not divisible by 3}}
  %0 = pd.reshape2 %x {shape = array<i32: -1, 3>} : (tensor<2x5xf32>) -> tensor<3x3xf32>
  return
}

// -----

// Tests that reshape2 keeps the element count.
func.func @negative_70(%x: tensor<2x5xf32>) {
  // expected-error @+1 {{cannot reshape [2, 5] (10 elements) to [3, 3] (9 elements)}}
  %0 = pd.reshape2 %x {shape = array<i32: 3, 3>} : (tensor<2x5xf32>) -> tensor<3x3xf32>
  return
}

// -----

// Tests that reshape2 with a dynamic-length Shape has no known rank.
func.func @negative_71(%x: tensor<2x5xf32>, %s: tensor<?xi32>) {
  // expected-error @+1 {{the rank of the result is unknown (Shape has a dynamic length)}}
  %0 = pd.reshape2 %x Shape(%s) : (tensor<2x5xf32>, tensor<?xi32>) -> tensor<10xf32>
  return
}

// -----

// Tests that transpose2 axis covers every dim.
func.func @negative_72(%x: tensor<2x3x4xf32>) {
  // expected-error @+1 {{axis has 2 entries but X has rank 3}}
  %0 = pd.transpose2 %x {axis = array<i32: 1, 0>} : (tensor<2x3x4xf32>) -> tensor<3x2x4xf32>
  return
}

// -----

// Tests that transpose2 axis is a permutation.
func.func @negative_73(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{axis is not a permutation of [0, 2)}}
  %0 = pd.transpose2 %x {axis = array<i32: 1, 1>} : (tensor<2x3xf32>) -> tensor<3x3xf32>
  return
}

// -----

// Tests that flatten_contiguous_range axes are in range.
func.func @negative_74(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{stop_axis 2 is out of range for rank 2}}
  %0 = pd.flatten_contiguous_range %x {start_axis = 0 : i32, stop_axis = 2 : i32} : (tensor<2x3xf32>) -> tensor<6xf32>
  return
}

// -----

// Tests that flatten_contiguous_range start_axis is out of range.
func.func @negative_75(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{start_axis 5 is out of range for rank 2}}
  %0 = pd.flatten_contiguous_range %x {start_axis = 5 : i32} : (tensor<2x3xf32>) -> tensor<6xf32>
  return
}

// -----

// Tests that flatten_contiguous_range start does not pass stop.
func.func @negative_76(%x: tensor<2x3x4xf32>) {
  // expected-error @+1 {{start_axis must not be after stop_axis}}
  %0 = pd.flatten_contiguous_range %x {start_axis = 2 : i32, stop_axis = 1 : i32} : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  return
}

// -----

// Tests that flatten2 axis is at most the rank.
func.func @negative_77(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{axis 3 exceeds the rank 2}}
  %0 = pd.flatten2 %x {axis = 3 : i32} : (tensor<2x3xf32>) -> tensor<6x1xf32>
  return
}

// -----

// Tests that squeeze2 axes are in range.
func.func @negative_78(%x: tensor<2x1xf32>) {
  // expected-error @+1 {{axes entry 2 is out of range for rank 2}}
  %0 = pd.squeeze2 %x {axes = array<i32: 2>} : (tensor<2x1xf32>) -> tensor<2xf32>
  return
}

// -----

// Tests that unsqueeze2 needs axes.
func.func @negative_79(%x: tensor<2xf32>) {
  // expected-error @+1 {{needs axes}}
  %0 = pd.unsqueeze2 %x : (tensor<2xf32>) -> tensor<2xf32>
  return
}

// -----

// Tests that unsqueeze2 axes are in range.
func.func @negative_80(%x: tensor<2xf32>) {
  // expected-error @+1 {{axes entry 3 is out of range for rank 1}}
  %0 = pd.unsqueeze2 %x {axes = array<i32: 3>} : (tensor<2xf32>) -> tensor<2x1xf32>
  return
}

// -----

// Tests that unsqueeze2 with a dynamic-length AxesTensor has no known rank.
func.func @negative_81(%x: tensor<2xf32>, %a: tensor<?xi32>) {
  // expected-error @+1 {{the rank of the result is unknown (AxesTensor has a dynamic length)}}
  %0 = pd.unsqueeze2 %x AxesTensor(%a) : (tensor<2xf32>, tensor<?xi32>) -> tensor<2x1xf32>
  return
}

// -----

// Tests that concat needs inputs.
func.func @negative_82() {
  // expected-error @+1 {{needs at least one input}}
  %0 = pd.concat [] : () -> tensor<2xf32>
  return
}

// -----

// Tests that concat inputs share the rank.
func.func @negative_83(%a: tensor<2x3xf32>, %b: tensor<2xf32>) {
  // expected-error @+1 {{all inputs must have the same rank}}
  %0 = pd.concat [%a, %b] : (tensor<2x3xf32>, tensor<2xf32>) -> tensor<4x3xf32>
  return
}

// -----

// Tests that concat inputs share the element type.
func.func @negative_84(%a: tensor<2xf32>, %b: tensor<2xi64>) {
  // expected-error @+1 {{all inputs must have the same element type}}
  %0 = pd.concat [%a, %b] : (tensor<2xf32>, tensor<2xi64>) -> tensor<4xf32>
  return
}

// -----

// Tests that concat inputs agree off the axis.
func.func @negative_85(%a: tensor<2x3xf32>, %b: tensor<2x4xf32>) {
  // expected-error @+1 {{inputs differ in dim 1 (3 vs 4)}}
  %0 = pd.concat [%a, %b] : (tensor<2x3xf32>, tensor<2x4xf32>) -> tensor<4x3xf32>
  return
}

// -----

// Tests that concat axis is in range.
func.func @negative_86(%a: tensor<2xf32>) {
  // expected-error @+1 {{axis 1 is out of range for rank 1}}
  %0 = pd.concat [%a] {axis = 1 : i32} : (tensor<2xf32>) -> tensor<2xf32>
  return
}

// -----

// Tests that split num divides the dim.
func.func @negative_87(%x: tensor<2x5xf32>) {
  // expected-error @+1 {{dim 5 is not divisible by num 2}}
  %0:2 = pd.split %x {num = 2 : i32, axis = 1 : i32} : (tensor<2x5xf32>) -> (tensor<2x2xf32>, tensor<2x3xf32>)
  return
}

// -----

// Tests that split takes num or sections, not both.
func.func @negative_88(%x: tensor<2x4xf32>) {
  // expected-error @+1 {{num and sections must not both be set}}
  %0:2 = pd.split %x {num = 2 : i32, sections = array<i32: 2, 2>, axis = 1 : i32} : (tensor<2x4xf32>) -> (tensor<2x2xf32>, tensor<2x2xf32>)
  return
}

// -----

// Tests that split needs num or sections.
func.func @negative_89(%x: tensor<2x4xf32>) {
  // expected-error @+1 {{needs num or sections}}
  %0:1 = pd.split %x : (tensor<2x4xf32>) -> (tensor<2x4xf32>)
  return
}

// -----

// Tests that split sections allow one -1.
func.func @negative_90(%x: tensor<2x4xf32>) {
  // expected-error @+1 {{sections has more than one -1}}
  %0:2 = pd.split %x {sections = array<i32: -1, -1>, axis = 1 : i32} : (tensor<2x4xf32>) -> (tensor<2x2xf32>, tensor<2x2xf32>)
  return
}

// -----

// Tests that split sections are not negative.
func.func @negative_91(%x: tensor<2x4xf32>) {
  // expected-error @+1 {{sections entries must be >= 0 or -1}}
  %0:2 = pd.split %x {sections = array<i32: -2, 6>, axis = 1 : i32} : (tensor<2x4xf32>) -> (tensor<2x2xf32>, tensor<2x2xf32>)
  return
}

// -----

// Tests that split sections sum to the dim.
func.func @negative_92(%x: tensor<2x4xf32>) {
  // expected-error @+1 {{sections sum to 3 but the dim is 4}}
  %0:2 = pd.split %x {sections = array<i32: 1, 2>, axis = 1 : i32} : (tensor<2x4xf32>) -> (tensor<2x1xf32>, tensor<2x2xf32>)
  return
}

// -----

// Tests that split has one result per part.
func.func @negative_93(%x: tensor<2x4xf32>) {
  // expected-error @+1 {{produces 2 parts but has 1 results}}
  %0:1 = pd.split %x {num = 2 : i32, axis = 1 : i32} : (tensor<2x4xf32>) -> (tensor<2x2xf32>)
  return
}

// -----

// Tests that slice axes, starts and ends have one length.
func.func @negative_94(%x: tensor<2x4xf32>) {
  // expected-error @+1 {{axes, starts and ends must have the same length}}
  %0 = pd.slice %x {axes = array<i32: 1>, starts = array<i32: 0, 1>, ends = array<i32: 2>} : (tensor<2x4xf32>) -> tensor<2x2xf32>
  return
}

// -----

// Tests that slice axes are in range.
func.func @negative_95(%x: tensor<2x4xf32>) {
  // expected-error @+1 {{axes entry 2 is out of range for rank 2}}
  %0 = pd.slice %x {axes = array<i32: 2>, starts = array<i32: 0>, ends = array<i32: 1>} : (tensor<2x4xf32>) -> tensor<2x4xf32>
  return
}

// -----

// Tests that slice decrease_axis removes size-1 dims only.
func.func @negative_96(%x: tensor<2x4xf32>) {
  // expected-error @+1 {{decrease_axis 1 has size 2, not 1}}
  %0 = pd.slice %x {axes = array<i32: 1>, starts = array<i32: 0>, ends = array<i32: 2>, decrease_axis = array<i32: 1>} : (tensor<2x4xf32>) -> tensor<2xf32>
  return
}

// -----

// Tests that strided_slice strides are not 0.
func.func @negative_97(%x: tensor<2x4xf32>) {
  // expected-error @+1 {{strides must not be 0}}
  %0 = pd.strided_slice %x {axes = array<i32: 1>, starts = array<i32: 0>, ends = array<i32: 2>, strides = array<i32: 0>} : (tensor<2x4xf32>) -> tensor<2x2xf32>
  return
}

// -----

// Tests that strided_slice has one stride per axis.
func.func @negative_98(%x: tensor<2x4xf32>) {
  // expected-error @+1 {{strides must have one entry per axis}}
  %0 = pd.strided_slice %x {axes = array<i32: 1>, starts = array<i32: 0>, ends = array<i32: 2>, strides = array<i32: 1, 1>} : (tensor<2x4xf32>) -> tensor<2x2xf32>
  return
}

// -----

// Tests that stack needs inputs.
func.func @negative_99() {
  // expected-error @+1 {{needs at least one input}}
  %0 = pd.stack [] : () -> tensor<1xf32>
  return
}

// -----

// Tests that stack inputs share rank and element type.
func.func @negative_100(%a: tensor<2xf32>, %b: tensor<2x1xf32>) {
  // expected-error @+1 {{all inputs must have the same rank and element type}}
  %0 = pd.stack [%a, %b] : (tensor<2xf32>, tensor<2x1xf32>) -> tensor<2x2xf32>
  return
}

// -----

// Tests that stack inputs share the shape.
func.func @negative_101(%a: tensor<2xf32>, %b: tensor<3xf32>) {
  // expected-error @+1 {{all inputs must have the same shape}}
  %0 = pd.stack [%a, %b] : (tensor<2xf32>, tensor<3xf32>) -> tensor<2x2xf32>
  return
}

// -----

// Tests that unstack has one result per slice.
func.func @negative_102(%x: tensor<3x4xf32>) {
  // expected-error @+1 {{dim 0 has size 3 but there are 2 results}}
  %0:2 = pd.unstack %x : (tensor<3x4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
  return
}

// -----

// Tests that unstack num matches the results.
func.func @negative_103(%x: tensor<2x4xf32>) {
  // expected-error @+1 {{num 3 differs from the 2 results}}
  %0:2 = pd.unstack %x {num = 3 : i32} : (tensor<2x4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
  return
}

// -----

// Tests that unstack axis is in range.
func.func @negative_104(%x: tensor<2x4xf32>) {
  // expected-error @+1 {{axis 2 is out of range for rank 2}}
  %0:2 = pd.unstack %x {axis = 2 : i32} : (tensor<2x4xf32>) -> (tensor<2xf32>, tensor<2xf32>)
  return
}

// -----

// Tests that expand_v2 shape covers the rank.
func.func @negative_105(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{shape has 1 entries, fewer than the rank 2}}
  %0 = pd.expand_v2 %x {shape = array<i32: 3>} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return
}

// -----

// Tests that expand_v2 -1 keeps an existing dim.
func.func @negative_106(%x: tensor<3xf32>) {
  // expected-error @+1 {{shape[0] = -1 has no input dim to keep}}
  %0 = pd.expand_v2 %x {shape = array<i32: -1, 3>} : (tensor<3xf32>) -> tensor<1x3xf32>
  return
}

// -----

// Tests that expand_v2 rejects non-positive sizes.
func.func @negative_107(%x: tensor<3xf32>) {
  // expected-error @+1 {{shape[0] = 0 is invalid}}
  %0 = pd.expand_v2 %x {shape = array<i32: 0>} : (tensor<3xf32>) -> tensor<3xf32>
  return
}

// -----

// Tests that expand_v2 only expands size-1 dims.
func.func @negative_108(%x: tensor<3xf32>) {
  // expected-error @+1 {{cannot expand dim of size 3 to 6}}
  %0 = pd.expand_v2 %x {shape = array<i32: 6>} : (tensor<3xf32>) -> tensor<6xf32>
  return
}

// -----

// Tests that expand_v2 with a dynamic-length Shape has no known rank.
func.func @negative_109(%x: tensor<3xf32>, %s: tensor<?xi32>) {
  // expected-error @+1 {{the rank of the result is unknown (Shape has a dynamic length)}}
  %0 = pd.expand_v2 %x Shape(%s) : (tensor<3xf32>, tensor<?xi32>) -> tensor<3xf32>
  return
}

// -----

// Tests that tile repeats are at least 1.
func.func @negative_110(%x: tensor<3xf32>) {
  // expected-error @+1 {{whose elements are all >= 1}}
  %0 = pd.tile %x {repeat_times = array<i32: 0>} : (tensor<3xf32>) -> tensor<3xf32>
  return
}

// -----

// Tests that tile with a dynamic-length RepeatTimes has no known rank.
func.func @negative_111(%x: tensor<3xf32>, %r: tensor<?xi32>) {
  // expected-error @+1 {{the rank of the result is unknown (RepeatTimes has a dynamic length)}}
  %0 = pd.tile %x RepeatTimes(%r) : (tensor<3xf32>, tensor<?xi32>) -> tensor<3xf32>
  return
}

// -----

// Tests that gather index is 1-D.
func.func @negative_112(%x: tensor<4x3xf32>, %i: tensor<2x2xi64>) {
  // expected-error @+1 {{Index must be 1-D, got shape [2, 2]}}
  %0 = pd.gather %x, %i : (tensor<4x3xf32>, tensor<2x2xi64>) -> tensor<2x3xf32>
  return
}

// -----

// Tests that gather axis is in range.
func.func @negative_113(%x: tensor<4x3xf32>, %i: tensor<2xi64>) {
  // expected-error @+1 {{axis 2 is out of range for rank 2}}
  %0 = pd.gather %x, %i {axis = 2 : i32} : (tensor<4x3xf32>, tensor<2xi64>) -> tensor<2x3xf32>
  return
}

// -----

// Tests that gather indices are integers.
func.func @negative_114(%x: tensor<4x3xf32>, %i: tensor<2xf32>) {
  // expected-error @+1 {{operand #1 must be ranked tensor of}}
  %0 = pd.gather %x, %i : (tensor<4x3xf32>, tensor<2xf32>) -> tensor<2x3xf32>
  return
}

// -----

// Tests that gather_nd index has rank >= 1.
func.func @negative_115(%x: tensor<4x3xf32>, %i: tensor<i64>) {
  // expected-error @+1 {{Index must have rank >= 1}}
  %0 = pd.gather_nd %x, %i : (tensor<4x3xf32>, tensor<i64>) -> tensor<3xf32>
  return
}

// -----

// Tests that gather_nd index depth is static.
func.func @negative_116(%x: tensor<4x3xf32>, %i: tensor<2x?xi64>) {
  // expected-error @+1 {{the last dim of Index must be static}}
  %0 = pd.gather_nd %x, %i : (tensor<4x3xf32>, tensor<2x?xi64>) -> tensor<2xf32>
  return
}

// -----

// Tests that gather_nd index depth is at most the rank.
func.func @negative_117(%x: tensor<4x3xf32>, %i: tensor<2x3xi64>) {
  // expected-error @+1 {{the last dim of Index (3) exceeds the rank of X (2)}}
  %0 = pd.gather_nd %x, %i : (tensor<4x3xf32>, tensor<2x3xi64>) -> tensor<2xf32>
  return
}

// -----

// Tests that lookup_table ids end in a dim of 1.
func.func @negative_118(%w: tensor<10x4xf32>, %i: tensor<2x3xi64>) {
  // expected-error @+1 {{the last dim of Ids must be 1, got shape [2, 3]}}
  %0 = pd.lookup_table %w, %i : (tensor<10x4xf32>, tensor<2x3xi64>) -> tensor<2x4xf32>
  return
}

// -----

// Tests that lookup_table_v2 table is 2-D.
func.func @negative_119(%w: tensor<10xf32>, %i: tensor<2xi64>) {
  // expected-error @+1 {{W must have rank 2, got 1}}
  %0 = pd.lookup_table_v2 %w, %i : (tensor<10xf32>, tensor<2xi64>) -> tensor<2x1xf32>
  return
}

// -----

// Tests that fused embedding has one table per ids.
func.func @negative_120(%i: tensor<1x4xi64>, %e: tensor<10x8xf32>, %g: tensor<8xf32>) {
  // expected-error @+1 {{needs one or more Ids with one Embs table each}}
  %0 = pd.fused_embedding_eltwise_layernorm [%i, %i] [%e], %g, %g : (tensor<1x4xi64>, tensor<1x4xi64>, tensor<10x8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<1x4x8xf32>
  return
}

// -----

// Tests that fused embedding ids share the shape.
func.func @negative_121(%i: tensor<1x4xi64>, %j: tensor<1x5xi64>, %e: tensor<10x8xf32>, %g: tensor<8xf32>) {
  // expected-error @+1 {{all Ids must have the same shape}}
  %0 = pd.fused_embedding_eltwise_layernorm [%i, %j] [%e, %e], %g, %g : (tensor<1x4xi64>, tensor<1x5xi64>, tensor<10x8xf32>, tensor<10x8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<1x4x8xf32>
  return
}

// -----

// Tests that fused embedding tables share the width.
func.func @negative_122(%i: tensor<1x4xi64>, %e: tensor<10x8xf32>, %f: tensor<10x6xf32>, %g: tensor<8xf32>) {
  // expected-error @+1 {{all Embs must have the same width}}
  %0 = pd.fused_embedding_eltwise_layernorm [%i, %i] [%e, %f], %g, %g : (tensor<1x4xi64>, tensor<1x4xi64>, tensor<10x8xf32>, tensor<10x6xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<1x4x8xf32>
  return
}

// -----

// Tests that fused embedding tables are 2-D.
func.func @negative_123(%i: tensor<1x4xi64>, %e: tensor<10xf32>, %g: tensor<8xf32>) {
  // expected-error @+1 {{Embs must have rank 2, got 1}}
  %0 = pd.fused_embedding_eltwise_layernorm [%i] [%e], %g, %g : (tensor<1x4xi64>, tensor<10xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<1x4x8xf32>
  return
}

// -----

// Tests that one_hot_v2 depth is positive.
func.func @negative_124(%x: tensor<4xi64>) {
  // expected-error @+1 {{depth must be positive (or given by depth_tensor)}}
  %0 = pd.one_hot_v2 %x : (tensor<4xi64>) -> tensor<4x1xf32>
  return
}

// -----

// Tests that one_hot_v2 dtype is a tensor dtype.
func.func @negative_125(%x: tensor<4xi64>) {
  // expected-error @+1 {{dtype 9 is not a tensor dtype}}
  %0 = pd.one_hot_v2 %x {depth = 3 : i32, dtype = 9 : i32} : (tensor<4xi64>) -> tensor<4x3xf32>
  return
}

// -----

// Tests that fill_constant dtype is a tensor dtype.
func.func @negative_126() {
  // expected-error @+1 {{dtype 8 is not a tensor dtype}}
  %0 = pd.fill_constant {dtype = 8 : i32} : () -> tensor<f32>
  return
}

// -----

// Tests that fill_constant shape entries are >= -1.
func.func @negative_127() {
  // expected-error @+1 {{shape entries must be >= -1}}
  %0 = pd.fill_constant {shape = array<i64: -2>} : () -> tensor<?xf32>
  return
}

// -----

// Tests that fill_constant with a dynamic-length ShapeTensor has no known rank.
func.func @negative_128(%s: tensor<?xi64>) {
  // expected-error @+1 {{the rank of the result is unknown (ShapeTensor has a dynamic length)}}
  %0 = pd.fill_constant ShapeTensor(%s) : (tensor<?xi64>) -> tensor<?xf32>
  return
}

// -----

// Tests that fill_any_like dtype is a tensor dtype.
func.func @negative_129(%x: tensor<4xf32>) {
  // expected-error @+1 {{dtype 10 is not a tensor dtype}}
  %0 = pd.fill_any_like %x {dtype = 10 : i32} : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

// Tests that range bounds hold one element.
func.func @negative_130(%s: tensor<2xi64>, %e: tensor<1xi64>) {
  // expected-error @+1 {{Start must hold one element}}
  %0 = pd.range %s, %e, %e : (tensor<2xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<?xi64>
  return
}

// -----

// Tests that range bounds share the element type.
func.func @negative_131(%s: tensor<1xi64>, %e: tensor<1xi32>) {
  // expected-error @+1 {{Start, End and Step must have the same element type}}
  %0 = pd.range %s, %e, %s : (tensor<1xi64>, tensor<1xi32>, tensor<1xi64>) -> tensor<?xi64>
  return
}

// -----

// Tests that reduce dims are in range.
func.func @negative_132(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{dim 2 is out of range for rank 2}}
  %0 = pd.reduce_sum %x {dim = array<i32: 2>} : (tensor<2x3xf32>) -> tensor<2xf32>
  return
}

// -----

// Tests that reduce dims are listed once.
func.func @negative_133(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{dim -1 is listed twice}}
  %0 = pd.reduce_max %x {dim = array<i32: 1, -1>} : (tensor<2x3xf32>) -> tensor<2xf32>
  return
}

// -----

// Tests that reduce out_dtype is a tensor dtype.
func.func @negative_134(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{out_dtype 11 is not a tensor dtype}}
  %0 = pd.reduce_mean %x {out_dtype = 11 : i32} : (tensor<2x3xf32>) -> tensor<3xf32>
  return
}

// -----

// Tests that sum needs inputs.
func.func @negative_135() {
  // expected-error @+1 {{needs at least one input}}
  %0 = pd.sum [] : () -> tensor<2xf32>
  return
}

// -----

// Tests that sum inputs share the shape.
func.func @negative_136(%a: tensor<2xf32>, %b: tensor<3xf32>) {
  // expected-error @+1 {{all inputs must have the same shape and element type}}
  %0 = pd.sum [%a, %b] : (tensor<2xf32>, tensor<3xf32>) -> tensor<2xf32>
  return
}

// -----

// Tests that arg_max dtype is int32 or int64.
func.func @negative_137(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{dtype must be 2 (int32) or 3 (int64), got 5}}
  %0 = pd.arg_max %x {dtype = 5 : i32} : (tensor<2x3xf32>) -> tensor<3xi64>
  return
}

// -----

// Tests that arg_min axis is in range.
func.func @negative_138(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{axis 2 is out of range for rank 2}}
  %0 = pd.arg_min %x {axis = 2 : i64} : (tensor<2x3xf32>) -> tensor<2xi64>
  return
}

// -----

// Tests that top_k_v2 k fits the axis.
func.func @negative_139(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{k (4) exceeds the size of the axis (3)}}
  %0:2 = pd.top_k_v2 %x {k = 4 : i32} : (tensor<2x3xf32>) -> (tensor<2x4xf32>, tensor<2x4xi64>)
  return
}

// -----

// Tests that top_k_v2 axis is in range.
func.func @negative_140(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{axis 3 is out of range for rank 2}}
  %0:2 = pd.top_k_v2 %x {axis = 3 : i32} : (tensor<2x3xf32>) -> (tensor<2x1xf32>, tensor<2x1xi64>)
  return
}

// -----

// Tests that cumsum axis is in range.
func.func @negative_141(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{axis 2 is out of range for rank 2}}
  %0 = pd.cumsum %x {axis = 2 : i32} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return
}

// -----

// Tests that where condition is boolean.
func.func @negative_142(%c: tensor<2xf32>, %x: tensor<2xf32>) {
  // expected-error @+1 {{operand #0 must be ranked tensor of 1-bit signless integer values}}
  %0 = pd.where %c, %x, %x : (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  return
}

// -----

// Tests that where operands broadcast.
func.func @negative_143(%c: tensor<3xi1>, %x: tensor<2xf32>) {
  // expected-error @+1 {{operand shapes are not broadcastable: dim 0 is 2 vs 3}}
  %0 = pd.where %c, %x, %x : (tensor<3xi1>, tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  return
}

// -----

// Tests that moving-average fake quant scale holds one element.
func.func @negative_144(%x: tensor<4xf32>, %s: tensor<2xf32>) {
  // expected-error @+1 {{InScale must hold one element, got shape [2]}}
  %0:2 = pd.fake_quantize_moving_average_abs_max %x, %s : (tensor<4xf32>, tensor<2xf32>) -> (tensor<4xf32>, tensor<2xf32>)
  return
}

// -----

// Tests that fake quant-dequant scale holds one element.
func.func @negative_145(%x: tensor<4xf32>, %s: tensor<2xf32>) {
  // expected-error @+1 {{InScale must hold one element, got shape [2]}}
  %0:2 = pd.fake_quantize_dequantize_moving_average_abs_max %x, %s : (tensor<4xf32>, tensor<2xf32>) -> (tensor<4xf32>, tensor<2xf32>)
  return
}

// -----

// Tests that channel-wise fake quant axis is 0 or 1.
func.func @negative_146(%x: tensor<4x3xf32>) {
  // expected-error @+1 {{quant_axis must be 0 or 1 and less than the rank}}
  %0:2 = pd.fake_channel_wise_quantize_dequantize_abs_max %x {quant_axis = 2 : i32} : (tensor<4x3xf32>) -> (tensor<4x3xf32>, tensor<4xf32>)
  return
}

// -----

// Tests that fake dequant scale holds one element.
func.func @negative_147(%x: tensor<4xf32>, %s: tensor<2xf32>) {
  // expected-error @+1 {{Scale must hold one element, got shape [2]}}
  %0 = pd.fake_dequantize_max_abs %x, %s {max_range = 127.0 : f32} : (tensor<4xf32>, tensor<2xf32>) -> tensor<4xf32>
  return
}

// -----

// Tests that fake dequant needs max_range.
func.func @negative_148(%x: tensor<4xf32>, %s: tensor<1xf32>) {
  // expected-error @+1 {{requires attribute 'max_range'}}
  %0 = pd.fake_dequantize_max_abs %x, %s : (tensor<4xf32>, tensor<1xf32>) -> tensor<4xf32>
  return
}

// -----

// Tests that channel-wise dequant takes one or two scales.
func.func @negative_149(%x: tensor<4x3xf32>) {
  // expected-error @+1 {{needs one or two Scales}}
  %0 = pd.fake_channel_wise_dequantize_max_abs %x : (tensor<4x3xf32>) -> tensor<4x3xf32>
  return
}

// -----

// Tests that channel-wise dequant has one bit width per scale.
func.func @negative_150(%x: tensor<4x3xf32>, %s: tensor<4xf32>) {
  // expected-error @+1 {{quant_bits must have one entry per Scales input}}
  %0 = pd.fake_channel_wise_dequantize_max_abs %x Scales [%s] {quant_bits = array<i32: 8, 8>} : (tensor<4x3xf32>, tensor<4xf32>) -> tensor<4x3xf32>
  return
}

// -----

// Tests that channel-wise dequant axis is in range.
func.func @negative_151(%x: tensor<4x3xf32>, %s: tensor<4xf32>) {
  // expected-error @+1 {{quant_axis 2 is out of range for rank 2}}
  %0 = pd.fake_channel_wise_dequantize_max_abs %x Scales [%s] {quant_axis = 2 : i32} : (tensor<4x3xf32>, tensor<4xf32>) -> tensor<4x3xf32>
  return
}

// -----

// Tests that channel-wise dequant has one scale per channel.
func.func @negative_152(%x: tensor<4x3xf32>, %s: tensor<3xf32>) {
  // expected-error @+1 {{Scales[0] must have 4 elements, got shape [3]}}
  %0 = pd.fake_channel_wise_dequantize_max_abs %x Scales [%s] : (tensor<4x3xf32>, tensor<3xf32>) -> tensor<4x3xf32>
  return
}

// -----

// Tests that channel-wise dequant second scale holds one element.
func.func @negative_153(%x: tensor<3x4xf32>, %s: tensor<4xf32>) {
  // expected-error @+1 {{Scales[1] must hold one element, got shape [4]}}
  %0 = pd.fake_channel_wise_dequantize_max_abs %x Scales [%s, %s] {quant_bits = array<i32: 8, 8>} : (tensor<3x4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<3x4xf32>
  return
}

// -----

// Tests that per-tensor quantize_linear scale holds one element.
func.func @negative_154(%x: tensor<4x3xf32>, %s: tensor<4xf32>, %z: tensor<4xi32>) {
  // expected-error @+1 {{Scale must hold one element, got shape [4]}}
  %0 = pd.quantize_linear %x, %s, %z : (tensor<4x3xf32>, tensor<4xf32>, tensor<4xi32>) -> tensor<4x3xf32>
  return
}

// -----

// Tests that per-axis quantize_linear axis is in range.
func.func @negative_155(%x: tensor<4x3xf32>, %s: tensor<4xf32>, %z: tensor<4xi32>) {
  // expected-error @+1 {{quant_axis 2 is out of range for rank 2}}
  %0 = pd.quantize_linear %x, %s, %z {quant_axis = 2 : i32} : (tensor<4x3xf32>, tensor<4xf32>, tensor<4xi32>) -> tensor<4x3xf32>
  return
}

// -----

// Tests that per-axis dequantize_linear has one scale per channel.
func.func @negative_156(%x: tensor<4x3xi8>, %s: tensor<4xf32>, %z: tensor<4xi32>) {
  // expected-error @+1 {{Scale must have 3 elements, got shape [4]}}
  %0 = pd.dequantize_linear %x, %s, %z {quant_axis = 1 : i32} : (tensor<4x3xi8>, tensor<4xf32>, tensor<4xi32>) -> tensor<4x3xf32>
  return
}

// -----

func.func @kernel_call_slot_out_of_range(%a: tensor<4xf32>, %o: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{slot index 1 is out of range for 1 inputs}}
  %0 = pd.kernel_call "pdk_x"(%a) init(%o) {slots = array<i64: 0, 1>, ints = array<i64>, floats = array<f32>} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @kernel_call_no_result_on_tensors(%a: tensor<4xf32>, %o: tensor<4xf32>) {
  // expected-error @+1 {{has a result exactly when its destination is a tensor}}
  pd.kernel_call "pdk_x"(%a) init(%o) {slots = array<i64: 0>, ints = array<i64>, floats = array<f32>} : (tensor<4xf32>, tensor<4xf32>) -> ()
  return
}

// -----

func.func @kernel_call_mixed(%a: memref<4xf32>, %o: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{mixes tensor and memref operands}}
  %0 = pd.kernel_call "pdk_x"(%a) init(%o) {slots = array<i64: 0>, ints = array<i64>, floats = array<f32>} : (memref<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// Tests that einsum checks its equation against the operands.
func.func @negative_einsum_rank(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{term 'ijk' does not match operand 0 of rank 2}}
  %0 = pd.einsum [%x] {equation = "ijk->i"} : (tensor<2x3xf32>) -> tensor<2xf32>
  return
}

// -----

// Tests that einsum's summed letters agree in size.
func.func @negative_einsum_sizes(%x: tensor<2x3xf32>, %y: tensor<4x5xf32>) {
  // expected-error @+1 {{operand 1 dim 0 has size 4 where another operand has 3}}
  %0 = pd.einsum [%x, %y] {equation = "ij,jk->ik"} : (tensor<2x3xf32>, tensor<4x5xf32>) -> tensor<2x5xf32>
  return
}

// -----

// Tests that a result letter must come from an operand.
func.func @negative_einsum_result(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{result letter 'k' appears in no operand}}
  %0 = pd.einsum [%x] {equation = "ij->k"} : (tensor<2x3xf32>) -> tensor<2xf32>
  return
}

// -----

// Tests that prior_box needs one max size per min size.
func.func @negative_prior_box_max_sizes(%f: tensor<1x8x2x2xf32>, %img: tensor<1x3x8x8xf32>) {
  // expected-error @+1 {{max_sizes must be empty or have one entry per min_sizes entry}}
  %b, %v = pd.prior_box %f, %img {min_sizes = array<f32: 4.0, 5.0>, max_sizes = array<f32: 6.0>} : (tensor<1x8x2x2xf32>, tensor<1x3x8x8xf32>) -> (tensor<2x2x3x4xf32>, tensor<2x2x3x4xf32>)
  return
}

// -----

// Tests that box_coder's decode needs one target box per prior.
func.func @negative_box_coder_priors(%p: tensor<16x4xf32>, %t: tensor<1x8x4xf32>) {
  // expected-error @+1 {{does not have one box per prior (16) along its dim 1}}
  %o = pd.box_coder %p, %t {code_type = "decode_center_size"} : (tensor<16x4xf32>, tensor<1x8x4xf32>) -> tensor<1x8x4xf32>
  return
}

// -----

// Tests that yolo_box checks the channel count against anchors and classes.
func.func @negative_yolo_box_channels(%x: tensor<1x15x4x4xf32>, %s: tensor<1x2xi32>) {
  // expected-error @+1 {{X has 15 channels; 2 anchors and 3 classes need 16}}
  %b, %c = pd.yolo_box %x, %s {anchors = array<i32: 10, 13, 16, 30>, class_num = 3 : i32} : (tensor<1x15x4x4xf32>, tensor<1x2xi32>) -> (tensor<1x32x4xf32>, tensor<1x32x3xf32>)
  return
}

// -----

// Tests that masked_select needs a mask of X's shape.
func.func @negative_masked_select_shape(%x: tensor<2x8xf32>, %m: tensor<2x4xi1>) {
  // expected-error @+1 {{Mask [2, 4] must have the shape of X [2, 8] (broadcasting is not supported)}}
  %y = pd.masked_select %x, %m : (tensor<2x8xf32>, tensor<2x4xi1>) -> tensor<?xf32>
  return
}

// -----

// Tests that multiclass_nms refuses the LoD form (2-D Scores) by name.
func.func @negative_multiclass_nms_lod(%b: tensor<8x3x4xf32>, %s: tensor<8x3xf32>) {
  // expected-error @+1 {{2-D Scores need RoisNum (multiclass_nms3) to group the boxes per image; boxes grouped by LoD are not supported yet}}
  %o = pd.multiclass_nms %b, %s {score_threshold = 0.01 : f32, nms_top_k = 100 : i32, keep_top_k = 10 : i32} : (tensor<8x3x4xf32>, tensor<8x3xf32>) -> tensor<?x?xf32>
  return
}

// -----

// Tests that multiclass_nms3 checks BBoxes against Scores.
func.func @negative_multiclass_nms3_boxes(%b: tensor<2x40x4xf32>, %s: tensor<2x3x50xf32>) {
  // expected-error @+1 {{BBoxes [2, 40, 4] and Scores [2, 3, 50] must be [N, M, 4] and [N, C, M]}}
  %o, %i, %n = pd.multiclass_nms3 %b, %s {score_threshold = 0.01 : f32, nms_top_k = 100 : i32, keep_top_k = 10 : i32} : (tensor<2x40x4xf32>, tensor<2x3x50xf32>) -> (tensor<?x6xf32>, tensor<?x1xi32>, tensor<2xi32>)
  return
}

// -----

// Tests that multiclass_nms2 needs 4-coordinate boxes.
func.func @negative_multiclass_nms2_polygons(%b: tensor<2x50x8xf32>, %s: tensor<2x3x50xf32>) {
  // expected-error @+1 {{BBoxes must hold 4 coordinates per box (xmin, ymin, xmax, ymax), got [2, 50, 8]}}
  %o, %i = pd.multiclass_nms2 %b, %s {score_threshold = 0.01 : f32, nms_top_k = 100 : i32, keep_top_k = 10 : i32} : (tensor<2x50x8xf32>, tensor<2x3x50xf32>) -> (tensor<?x6xf32>, tensor<?x1xi32>)
  return
}

// -----

// Tests that interpolation needs a 4-D X.
func.func @negative_interp_rank(%x: tensor<3x8x8xf32>) {
  // expected-error @+1 {{'pd.bilinear_interp_v2' op X must have rank 4, got 3}}
  %0 = pd.bilinear_interp_v2 %x {out_h = 4 : i32, out_w = 4 : i32} : (tensor<3x8x8xf32>) -> tensor<3x4x4xf32>
  return
}

// -----

// Tests that the interp_method attribute must name the op's own method.
func.func @negative_interp_method(%x: tensor<1x3x8x8xf32>) {
  // expected-error @+1 {{'pd.nearest_interp_v2' op interp_method must be 'nearest', got 'bilinear'}}
  %0 = pd.nearest_interp_v2 %x {interp_method = "bilinear", out_h = 4 : i32, out_w = 4 : i32} : (tensor<1x3x8x8xf32>) -> tensor<1x3x4x4xf32>
  return
}

// -----

// Tests that align_mode is 0 or 1.
func.func @negative_interp_align_mode(%x: tensor<1x3x8x8xf32>) {
  // expected-error @+1 {{'pd.bilinear_interp' op align_mode must be 0 or 1, got 2}}
  %0 = pd.bilinear_interp %x {align_mode = 2 : i32, out_h = 4 : i32, out_w = 4 : i32} : (tensor<1x3x8x8xf32>) -> tensor<1x3x4x4xf32>
  return
}

// -----

// Tests that OutSize holds exactly (out_h, out_w).
func.func @negative_interp_outsize(%x: tensor<1x3x8x8xf32>, %s: tensor<3xi32>) {
  // expected-error @+1 {{'pd.nearest_interp' op OutSize must be a 1-D tensor of 2 elements (out_h, out_w)}}
  %0 = pd.nearest_interp %x OutSize(%s) : (tensor<1x3x8x8xf32>, tensor<3xi32>) -> tensor<1x3x?x?xf32>
  return
}

// -----

// Tests that a 5-D layout is refused for a 4-D X.
func.func @negative_interp_layout(%x: tensor<1x3x8x8xf32>) {
  // expected-error @+1 {{'pd.nearest_interp_v2' op data_layout must be NCHW or NHWC for a 4-D X, got 'NCDHW'}}
  %0 = pd.nearest_interp_v2 %x {data_layout = "NCDHW", out_h = 4 : i32, out_w = 4 : i32} : (tensor<1x3x8x8xf32>) -> tensor<1x3x4x4xf32>
  return
}

// -----

// Tests that a Fluid interpolation without a positive scale needs out_h and out_w.
func.func @negative_interp_v1_size(%x: tensor<1x3x8x8xf32>) {
  // expected-error @+1 {{'pd.bilinear_interp' op needs out_h and out_w, a scale, or a size input}}
  %0 = pd.bilinear_interp %x {scale = -1.0 : f32} : (tensor<1x3x8x8xf32>) -> tensor<1x3x8x8xf32>
  return
}

// -----

// Tests that a scale that shrinks a dim to nothing is refused.
func.func @negative_interp_empty(%x: tensor<1x3x1x8xf32>) {
  // expected-error @+1 {{'pd.nearest_interp_v2' op output size 0x4 is not positive}}
  %0 = pd.nearest_interp_v2 %x {scale = array<f32: 0.5, 0.5>} : (tensor<1x3x1x8xf32>) -> tensor<1x3x0x4xf32>
  return
}

// -----

// Tests that batch_norm keeps a lower bound on epsilon (any epsilon >= 0 is accepted).
func.func @negative_batch_norm_epsilon(%x: tensor<1x4x8x8xf32>, %s: tensor<4xf32>) {
  // expected-error @+1 {{whose value is at least 0.0}}
  %0 = pd.batch_norm %x, %s, %s, %s, %s {epsilon = -1.0e-3 : f32} : (tensor<1x4x8x8xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<1x4x8x8xf32>
  return
}

// -----

// Tests that silu takes a float input.
func.func @negative_silu(%x: tensor<4xi32>) {
  // expected-error @+1 {{'pd.silu' op operand #0 must be}}
  %0 = pd.silu %x : (tensor<4xi32>) -> tensor<4xi32>
  return
}

// -----

// Tests that conv3d channels agree with the filter and groups.
func.func @negative_conv3d(%x: tensor<1x4x4x8x8xf32>, %w: tensor<8x3x3x3x3xf32>) {
  // expected-error @+1 {{'pd.conv3d' op input channels (4) must equal Filter dim 1 (3) times groups (1)}}
  %0 = pd.conv3d %x, %w : (tensor<1x4x4x8x8xf32>, tensor<8x3x3x3x3xf32>) -> tensor<1x8x2x6x6xf32>
  return
}

// -----

// Tests that grid_sampler grids hold (x, y) pairs.
func.func @negative_grid_sampler(%x: tensor<1x8x16x16xf32>, %g: tensor<1x4x4x3xf32>) {
  // expected-error @+1 {{'pd.grid_sampler' op Grid must have a last dim of 2 (x, y), got shape [1, 4, 4, 3]}}
  %0 = pd.grid_sampler %x, %g : (tensor<1x8x16x16xf32>, tensor<1x4x4x3xf32>) -> tensor<1x8x4x4xf32>
  return
}

// -----

// Tests that assign_value holds one value per element of its shape.
func.func @negative_assign_value() {
  // expected-error @+1 {{'pd.assign_value' op holds 1 values for shape [2] (2 elements)}}
  %0 = pd.assign_value {shape = array<i32: 2>, dtype = 2 : i32, int32_values = array<i32: 4>} : () -> tensor<2xi32>
  return
}

// -----

// Tests that fill_constant_batch_size_like reads an input dim that exists.
func.func @negative_fill_constant_batch_size_like(%x: tensor<?x16xf32>) {
  // expected-error @+1 {{'pd.fill_constant_batch_size_like' op input_dim_idx 2 is out of range for Input of rank 2}}
  %0 = pd.fill_constant_batch_size_like %x {shape = array<i32: -1, 2>, input_dim_idx = 2 : i32} : (tensor<?x16xf32>) -> tensor<?x2xf32>
  return
}

// -----

// Tests that cross_entropy2 takes hard labels (last dim 1).
func.func @negative_cross_entropy2(%x: tensor<4x10xf32>, %l: tensor<4x10xi64>) {
  // expected-error @+1 {{'pd.cross_entropy2' op Label must have X's shape with a last dim of 1 (hard labels), got [4, 10] for X [4, 10]}}
  %0, %1 = pd.cross_entropy2 %x, %l : (tensor<4x10xf32>, tensor<4x10xi64>) -> (tensor<4x1xf32>, tensor<4x1xf32>)
  return
}

// -----

// Tests that top_k does not take more than the last dim holds.
func.func @negative_top_k(%x: tensor<4x3xf32>) {
  // expected-error @+1 {{'pd.top_k' op k (5) exceeds the size of the last dim (3)}}
  %0, %1 = pd.top_k %x {k = 5 : i32} : (tensor<4x3xf32>) -> (tensor<4x5xf32>, tensor<4x5xi64>)
  return
}

// -----

// Tests that accuracy takes one label per row.
func.func @negative_accuracy(%v: tensor<4x5xf32>, %i: tensor<4x5xi64>, %l: tensor<3x1xi64>) {
  // expected-error @+1 {{'pd.accuracy' op Label must have shape [N, 1] for Indices [4, 5], got [3, 1]}}
  %0, %1, %2 = pd.accuracy %v, %i, %l : (tensor<4x5xf32>, tensor<4x5xi64>, tensor<3x1xi64>) -> (tensor<1xf32>, tensor<1xi32>, tensor<1xi32>)
  return
}

// -----

// Tests that a quantized conv has one filter scale per output channel.
func.func @negative_qconv_scales(%x: tensor<1x3x8x8xi8>, %w: tensor<2x3x3x3xi8>) {
  // expected-error @+1 {{'pd.quantized_conv2d' op filter_scales has 1 values for 2 channels}}
  %0 = pd.quantized_conv2d %x, %w {input_scale = 0.02 : f32, filter_scales = array<f32: 0.01>} : (tensor<1x3x8x8xi8>, tensor<2x3x3x3xi8>) -> tensor<1x2x6x6xf32>
  return
}

// -----

// Tests that quantization scales are positive.
func.func @negative_qconv_zero_scale(%x: tensor<1x3x8x8xi8>, %w: tensor<2x3x3x3xi8>) {
  // expected-error @+1 {{'pd.quantized_conv2d' op filter_scales must be positive and finite, got 0.000000}}
  %0 = pd.quantized_conv2d %x, %w {input_scale = 0.02 : f32, filter_scales = array<f32: 0.01, 0.0>} : (tensor<1x3x8x8xi8>, tensor<2x3x3x3xi8>) -> tensor<1x2x6x6xf32>
  return
}

// -----

// Tests that an int8 residual needs a positive scale.
func.func @negative_qconv_residual_scale(%x: tensor<1x3x8x8xi8>, %w: tensor<2x3x3x3xi8>, %r: tensor<1x2x6x6xi8>) {
  // expected-error @+1 {{'pd.quantized_conv2d' op an int8 residual needs a positive finite residual_scale, got 0.000000}}
  %0 = pd.quantized_conv2d %x, %w ResidualData(%r) {input_scale = 0.02 : f32, filter_scales = array<f32: 0.01, 0.01>, out_dtype = "int8", output_scale = 0.1 : f32, residual_scale = 0.0 : f32} : (tensor<1x3x8x8xi8>, tensor<2x3x3x3xi8>, tensor<1x2x6x6xi8>) -> tensor<1x2x6x6xi8>
  return
}

// -----

// Tests that a float32 residual needs a float result.
func.func @negative_qconv_residual(%x: tensor<1x3x8x8xi8>, %w: tensor<2x3x3x3xi8>, %r: tensor<1x2x6x6xf32>) {
  // expected-error @+1 {{'pd.quantized_conv2d' op a float32 residual needs out_dtype float32, got int8}}
  %0 = pd.quantized_conv2d %x, %w ResidualData(%r) {input_scale = 0.02 : f32, filter_scales = array<f32: 0.01, 0.01>, out_dtype = "int8", output_scale = 0.1 : f32} : (tensor<1x3x8x8xi8>, tensor<2x3x3x3xi8>, tensor<1x2x6x6xf32>) -> tensor<1x2x6x6xi8>
  return
}

// -----

// Tests that the result element type follows out_dtype.
func.func @negative_qfc_dtype(%x: tensor<4x64xi8>, %w: tensor<64x3xi8>) {
  // expected-error @+1 {{'pd.quantized_fc' op result #0 has type 'tensor<4x3xf32>' but the inferred type is 'tensor<4x3xui8>'}}
  %0 = pd.quantized_fc %x, %w {input_scale = 0.02 : f32, weight_scales = array<f32: 0.01, 0.01, 0.01>, out_dtype = "uint8", output_scale = 0.1 : f32} : (tensor<4x64xi8>, tensor<64x3xi8>) -> tensor<4x3xf32>
  return
}

// -----

// Tests that an int8 result needs an output scale.
func.func @negative_qfc_output_scale(%x: tensor<4x64xi8>, %w: tensor<64x3xi8>) {
  // expected-error @+1 {{'pd.quantized_fc' op output_scale must be positive and finite for out_dtype int8, got 0.000000}}
  %0 = pd.quantized_fc %x, %w {input_scale = 0.02 : f32, weight_scales = array<f32: 0.01, 0.01, 0.01>, out_dtype = "int8", output_scale = 0.0 : f32} : (tensor<4x64xi8>, tensor<64x3xi8>) -> tensor<4x3xi8>
  return
}

// -----

// Tests that the int8 product of two activations checks its contraction
// dims and takes no uint8 right-hand side.
func.func @negative_qmatmul_k(%x: tensor<2x6x8xi8>, %y: tensor<2x7x5xi8>) {
  // expected-error @+1 {{'pd.quantized_matmul' op contraction dims differ: X has 8, Y has 7}}
  %0 = pd.quantized_matmul %x, %y {x_scale = 0.02 : f32, y_scale = 0.03 : f32} : (tensor<2x6x8xi8>, tensor<2x7x5xi8>) -> tensor<2x6x5xf32>
  return
}

// -----

func.func @negative_qmatmul_u8_y(%x: tensor<2x6x8xi8>, %y: tensor<2x8x5xui8>) {
  // expected-error @+1 {{'pd.quantized_matmul' op operand #1 must be ranked tensor of 8-bit signless integer values}}
  %0 = pd.quantized_matmul %x, %y {x_scale = 0.02 : f32, y_scale = 0.03 : f32} : (tensor<2x6x8xi8>, tensor<2x8x5xui8>) -> tensor<2x6x5xf32>
  return
}

// -----

func.func @negative_qmatmul_alpha(%x: tensor<2x6x8xi8>, %y: tensor<2x8x5xi8>) {
  // expected-error @+1 {{'pd.quantized_matmul' op alpha must be finite and nonzero, got 0.000000}}
  %0 = pd.quantized_matmul %x, %y {alpha = 0.0 : f32, x_scale = 0.02 : f32, y_scale = 0.03 : f32} : (tensor<2x6x8xi8>, tensor<2x8x5xi8>) -> tensor<2x6x5xf32>
  return
}

// -----

// Tests that quantize produces the dtype it names.
func.func @negative_quantize_dtype(%x: tensor<4xf32>) {
  // expected-error @+1 {{'pd.quantize' op result #0 has type 'tensor<4xi8>' but the inferred type is 'tensor<4xui8>'}}
  %0 = pd.quantize %x {scale = 0.1 : f32, dtype = "uint8"} : (tensor<4xf32>) -> tensor<4xi8>
  return
}

// -----

// Tests that index_select takes a 1-D Index.
func.func @negative_index_select_2d_index(%x: tensor<4x3xf32>, %i: tensor<2x2xi64>) {
  // expected-error @+1 {{'pd.index_select' op Index must be 1-D, got shape [2, 2]}}
  %0 = pd.index_select %x, %i : (tensor<4x3xf32>, tensor<2x2xi64>) -> tensor<2x3xf32>
  return
}

// -----

// Tests that index_select dim is in range.
func.func @negative_index_select_dim(%x: tensor<4x3xf32>, %i: tensor<2xi64>) {
  // expected-error @+1 {{'pd.index_select' op dim -3 is out of range for rank 2}}
  %0 = pd.index_select %x, %i {dim = -3 : i32} : (tensor<4x3xf32>, tensor<2xi64>) -> tensor<4x2xf32>
  return
}

// -----

// Tests that index_select's dim takes the Index's length.
func.func @negative_index_select_result(%x: tensor<4x3xf32>, %i: tensor<2xi64>) {
  // expected-error @+1 {{'pd.index_select' op result #0 has type 'tensor<4x3xf32>' but the inferred type is 'tensor<4x2xf32>'}}
  %0 = pd.index_select %x, %i {dim = 1 : i32} : (tensor<4x3xf32>, tensor<2xi64>) -> tensor<4x3xf32>
  return
}

// -----

// Tests that index_select indices are integers.
func.func @negative_index_select_float_index(%x: tensor<4x3xf32>, %i: tensor<2xf32>) {
  // expected-error @+1 {{operand #1 must be ranked tensor of}}
  %0 = pd.index_select %x, %i : (tensor<4x3xf32>, tensor<2xf32>) -> tensor<2x3xf32>
  return
}

// -----

// Tests that argsort axis is in range.
func.func @negative_argsort_axis(%x: tensor<4x3xf32>) {
  // expected-error @+1 {{'pd.argsort' op axis 2 is out of range for rank 2}}
  %0:2 = pd.argsort %x {axis = 2 : i32} : (tensor<4x3xf32>) -> (tensor<4x3xf32>, tensor<4x3xi64>)
  return
}

// -----

// Tests that argsort Indices are int64.
func.func @negative_argsort_indices_type(%x: tensor<4x3xf32>) {
  // expected-error @+1 {{'pd.argsort' op result #1 has type 'tensor<4x3xi32>' but the inferred type is 'tensor<4x3xi64>'}}
  %0:2 = pd.argsort %x : (tensor<4x3xf32>) -> (tensor<4x3xf32>, tensor<4x3xi32>)
  return
}

// -----

// Tests that argsort rejects bools.
func.func @negative_argsort_bool(%x: tensor<4xi1>) {
  // expected-error @+1 {{operand #0 must be ranked tensor of}}
  %0:2 = pd.argsort %x : (tensor<4xi1>) -> (tensor<4xi1>, tensor<4xi64>)
  return
}

// -----

// Tests that less_equal produces bools.
func.func @negative_less_equal_result(%x: tensor<2x3xf32>, %y: tensor<2x3xf32>) {
  // expected-error @+1 {{'pd.less_equal' op result #0 must be ranked tensor of 1-bit signless integer values}}
  %0 = pd.less_equal %x, %y : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return
}

// -----

// Tests that less_equal's result takes the broadcast shape.
func.func @negative_less_equal_shape(%x: tensor<2x3xf32>, %y: tensor<3xf32>) {
  // expected-error @+1 {{'pd.less_equal' op result #0 has type 'tensor<3xi1>' but the inferred type is 'tensor<2x3xi1>'}}
  %0 = pd.less_equal %x, %y : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<3xi1>
  return
}

// -----

// Tests that greater_equal shapes must broadcast.
func.func @negative_greater_equal_broadcast(%x: tensor<2x3xi32>, %y: tensor<2x4xi32>) {
  // expected-error @+1 {{operand shapes are not broadcastable: dim 1 is 3 vs 4}}
  %0 = pd.greater_equal %x, %y : (tensor<2x3xi32>, tensor<2x4xi32>) -> tensor<2x3xi1>
  return
}

// -----

// Tests that the bitwise ops reject floats.
func.func @negative_bitwise_float(%x: tensor<4xf32>, %y: tensor<4xf32>) {
  // expected-error @+1 {{operand #0 must be ranked tensor of}}
  %0 = pd.bitwise_and %x, %y : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

// Tests that the bitwise operands share the element type.
func.func @negative_bitwise_mixed(%x: tensor<4xi32>, %y: tensor<4xi1>) {
  // expected-error @+1 {{operands must have the same element type}}
  %0 = pd.bitwise_or %x, %y : (tensor<4xi32>, tensor<4xi1>) -> tensor<4xi32>
  return
}

// -----

// Tests that bitwise_xor shapes must broadcast.
func.func @negative_bitwise_broadcast(%x: tensor<2x3xi64>, %y: tensor<2xi64>) {
  // expected-error @+1 {{operand shapes are not broadcastable: dim 1 is 3 vs 2}}
  %0 = pd.bitwise_xor %x, %y : (tensor<2x3xi64>, tensor<2xi64>) -> tensor<2x3xi64>
  return
}

// -----

// Tests that bitwise_not keeps its operand's type.
func.func @negative_bitwise_not_result(%x: tensor<4xi32>) {
  // expected-error @+1 {{'pd.bitwise_not' op result #0 has type 'tensor<4xi1>' but the inferred type is 'tensor<4xi32>'}}
  %0 = pd.bitwise_not %x : (tensor<4xi32>) -> tensor<4xi1>
  return
}

// -----

// Tests that index_put keeps x's type.
func.func @negative_index_put_result(%x: tensor<4x3xf32>, %m: tensor<4x3xi1>, %v: tensor<1xf32>) {
  // expected-error @+1 {{'pd.index_put' op result #0 has type 'tensor<4x3xf64>' but the inferred type is 'tensor<4x3xf32>'}}
  %0 = pd.index_put %x, %v indices[%m] : (tensor<4x3xf32>, tensor<4x3xi1>, tensor<1xf32>) -> tensor<4x3xf64>
  return
}

// -----

// Tests that set_value keeps Input's type.
func.func @negative_set_value_result(%x: tensor<4x3xf32>, %v: tensor<3xf32>) {
  // expected-error @+1 {{'pd.set_value' op result #0 has type 'tensor<1x3xf32>' but the inferred type is 'tensor<4x3xf32>'}}
  %0 = pd.set_value %x ValueTensor(%v) {axes = array<i64: 0>, starts = array<i64: 1>, ends = array<i64: 2>, steps = array<i64: 1>} : (tensor<4x3xf32>, tensor<3xf32>) -> tensor<1x3xf32>
  return
}

// -----

// Tests that momentum's velocity must have the parameter's shape.
func.func @negative_momentum_velocity(%p: tensor<4x3xf32>, %g: tensor<4x3xf32>, %v: tensor<3x4xf32>, %lr: tensor<1xf32>) {
  // expected-error @+1 {{'pd.momentum' op Velocity must have Param's type [4, 3], got [3, 4]}}
  %0:2 = pd.momentum %p, %g, %v, %lr {mu = 0.9 : f32} : (tensor<4x3xf32>, tensor<4x3xf32>, tensor<3x4xf32>, tensor<1xf32>) -> (tensor<4x3xf32>, tensor<4x3xf32>)
  return
}

// -----

// Tests that adam's learning rate must be one element.
func.func @negative_adam_lr(%p: tensor<4xf32>, %lr: tensor<2xf32>, %b: tensor<1xf32>) {
  // expected-error @+1 {{'pd.adam' op LearningRate must be one element of Param's element type, got shape [2]}}
  %0:5 = pd.adam %p, %p, %lr, %p, %p, %b, %b : (tensor<4xf32>, tensor<4xf32>, tensor<2xf32>, tensor<4xf32>, tensor<4xf32>, tensor<1xf32>, tensor<1xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<1xf32>, tensor<1xf32>)
  return
}

// -----

// Tests that adamw's beta1 must lie in [0, 1].
func.func @negative_adamw_beta(%p: tensor<4xf32>, %b: tensor<1xf32>) {
  // expected-error @+1 {{'pd.adamw' op attribute 'beta1' failed to satisfy constraint}}
  %0:5 = pd.adamw %p, %p, %b, %p, %p, %b, %b {beta1 = 1.5 : f32} : (tensor<4xf32>, tensor<4xf32>, tensor<1xf32>, tensor<4xf32>, tensor<4xf32>, tensor<1xf32>, tensor<1xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<1xf32>, tensor<1xf32>)
  return
}

// -----

// Tests that lookup_table_v2_grad's Out@GRAD must have Ids' shape then W's row size.
func.func @negative_lookup_table_v2_grad_shape(%w: tensor<10x4xf32>, %i: tensor<2x3xi64>, %dy: tensor<2x3x5xf32>) {
  // expected-error @+1 {{Out@GRAD must have shape [2, 3, 4] (Ids' shape, then W's row size) and W's element type, got shape [2, 3, 5]}}
  %0 = pd.lookup_table_v2_grad %w, %i, %dy : (tensor<10x4xf32>, tensor<2x3xi64>, tensor<2x3x5xf32>) -> tensor<10x4xf32>
  return
}

// -----

// Tests that batch_norm_train_grad's Y@GRAD must have X's shape.
func.func @negative_batch_norm_train_grad_shape(%x: tensor<2x3x4x4xf32>, %s: tensor<3xf32>, %dy: tensor<2x3x4x5xf32>) {
  // expected-error @+1 {{Y@GRAD must have X's shape [2, 3, 4, 4] and element type, got [2, 3, 4, 5]}}
  %0:3 = pd.batch_norm_train_grad %x, %s, %s, %s, %dy : (tensor<2x3x4x4xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<2x3x4x5xf32>) -> (tensor<2x3x4x4xf32>, tensor<3xf32>, tensor<3xf32>)
  return
}

// -----

// Tests that batch_norm_train's Scale must have one value per channel.
func.func @negative_batch_norm_train_scale(%x: tensor<2x3x4x4xf32>, %s: tensor<4xf32>, %b: tensor<3xf32>) {
  // expected-error @+1 {{Scale must have 3 elements, got shape [4]}}
  %0:3 = pd.batch_norm_train %x, %s, %b : (tensor<2x3x4x4xf32>, tensor<4xf32>, tensor<3xf32>) -> (tensor<2x3x4x4xf32>, tensor<4xf32>, tensor<4xf32>)
  return
}

// -----

// Tests that generate_proposals checks the deltas against the scores.
func.func @negative_generate_proposals_deltas(%s: tensor<2x3x8x8xf32>, %d: tensor<2x8x8x8xf32>, %i: tensor<2x3xf32>, %a: tensor<8x8x3x4xf32>) {
  // expected-error @+1 {{BboxDeltas [2, 8, 8, 8] must be [N, 4A, H, W] for Scores [2, 3, 8, 8] [N, A, H, W]}}
  %r, %p, %n = pd.generate_proposals %s, %d, %i, %a, %a : (tensor<2x3x8x8xf32>, tensor<2x8x8x8xf32>, tensor<2x3xf32>, tensor<8x8x3x4xf32>, tensor<8x8x3x4xf32>) -> (tensor<?x4xf32>, tensor<?x1xf32>, tensor<2xi32>)
  return
}

// -----

// Tests that generate_proposals_v2 needs one anchor per score.
func.func @negative_generate_proposals_v2_anchors(%s: tensor<2x3x8x8xf32>, %d: tensor<2x12x8x8xf32>, %i: tensor<2x2xf32>, %a: tensor<8x8x2x4xf32>) {
  // expected-error @+1 {{Anchors [8, 8, 2, 4] must hold H * W * A = 192 boxes}}
  %r, %p, %n = pd.generate_proposals_v2 %s, %d, %i, %a, %a : (tensor<2x3x8x8xf32>, tensor<2x12x8x8xf32>, tensor<2x2xf32>, tensor<8x8x2x4xf32>, tensor<8x8x2x4xf32>) -> (tensor<?x4xf32>, tensor<?x1xf32>, tensor<2xi32>)
  return
}

// -----

// Tests that roi_align without RoisNum (boxes assigned by LoD) is refused
// for a batch above 1.
func.func @negative_roi_align_lod(%x: tensor<2x16x32x32xf32>, %r: tensor<?x4xf32>) {
  // expected-error @+1 {{ROIs without RoisNum (boxes assigned to images by LoD) are supported for a batch of 1 only, got X [2, 16, 32, 32]}}
  %y = pd.roi_align %x, %r : (tensor<2x16x32x32xf32>, tensor<?x4xf32>) -> tensor<?x16x1x1xf32>
  return
}

// -----

// Tests that multiclass_nms3's stacked form checks the per-class boxes
// against the scores.
func.func @negative_multiclass_nms3_stacked(%b: tensor<8x2x4xf32>, %s: tensor<8x3xf32>, %n: tensor<2xi32>) {
  // expected-error @+1 {{BBoxes [8, 2, 4] and Scores [8, 3] must be [M, C, 4] and [M, C]}}
  %o, %i, %c = pd.multiclass_nms3 %b, %s RoisNum(%n) {score_threshold = 0.01 : f32, nms_top_k = 100 : i32, keep_top_k = 10 : i32} : (tensor<8x2x4xf32>, tensor<8x3xf32>, tensor<2xi32>) -> (tensor<?x6xf32>, tensor<?x1xi32>, tensor<2xi32>)
  return
}

// -----

// Tests that distribute_fpn_proposals needs one RoI list per level.
func.func @negative_distribute_fpn_levels(%rois: tensor<?x4xf32>, %num: tensor<?xi32>) {
  // expected-error @+1 {{levels 2 to 4 need 3 MultiFpnRois (and 0 or 3 MultiLevelRoIsNum) results, got 2 and 0}}
  %r:2, %i = pd.distribute_fpn_proposals %rois RoisNum(%num) {min_level = 2 : i32, max_level = 4 : i32, refer_level = 4 : i32, refer_scale = 224 : i32, resultSegmentSizes = array<i32: 2, 1, 0>} : (tensor<?x4xf32>, tensor<?xi32>) -> (tensor<?x4xf32>, tensor<?x4xf32>, tensor<?x1xi32>)
  return
}

// -----

// Tests that distribute_fpn_proposals without RoisNum (LoD) is refused by name.
func.func @negative_distribute_fpn_lod(%rois: tensor<?x4xf32>) {
  // expected-error @+1 {{FpnRois without RoisNum (RoIs grouped per image by LoD) are not supported yet}}
  %r:2, %i = pd.distribute_fpn_proposals %rois {min_level = 2 : i32, max_level = 3 : i32, refer_level = 4 : i32, refer_scale = 224 : i32, resultSegmentSizes = array<i32: 2, 1, 0>} : (tensor<?x4xf32>) -> (tensor<?x4xf32>, tensor<?x4xf32>, tensor<?x1xi32>)
  return
}

// -----

// Tests that softshrink refuses a negative lambda (Paddle requires >= 0).
func.func @negative_softshrink_lambda(%x: tensor<4xf32>) {
  // expected-error @+1 {{whose value is at least 0.0}}
  %0 = pd.softshrink %x {lambda = -5.0e-1 : f32} : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

// Tests that isfinite_v2 yields booleans of its input's shape.
func.func @negative_isfinite_shape(%x: tensor<4xf32>) {
  // expected-error @+1 {{result #0 has type 'tensor<5xi1>' but the inferred type is 'tensor<4xi1>'}}
  %0 = pd.isfinite_v2 %x : (tensor<4xf32>) -> tensor<5xi1>
  return
}

// -----

// Tests that mv checks the vector against the matrix's columns.
func.func @negative_mv(%x: tensor<4x8xf32>, %v: tensor<7xf32>) {
  // expected-error @+1 {{X has 8 columns but Vec has 7 elements}}
  %0 = pd.mv %x, %v : (tensor<4x8xf32>, tensor<7xf32>) -> tensor<4xf32>
  return
}

// -----

// Tests that bmm checks the batch sizes and the inner dims.
func.func @negative_bmm(%x: tensor<2x4x8xf32>, %y: tensor<3x8x3xf32>, %z: tensor<2x5x3xf32>) {
  // expected-error @+1 {{batch sizes differ: 2 and 3}}
  %0 = pd.bmm %x, %y : (tensor<2x4x8xf32>, tensor<3x8x3xf32>) -> tensor<2x4x3xf32>
  return
}

// -----

func.func @negative_bmm_k(%x: tensor<2x4x8xf32>, %z: tensor<2x5x3xf32>) {
  // expected-error @+1 {{X has K = 8 but Y has 5 rows}}
  %0 = pd.bmm %x, %z : (tensor<2x4x8xf32>, tensor<2x5x3xf32>) -> tensor<2x4x3xf32>
  return
}

// -----

// Tests that p_norm checks its axis.
func.func @negative_p_norm_axis(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{axis 2 is out of range}}
  %0 = pd.p_norm %x {axis = 2 : i32} : (tensor<4x8xf32>) -> tensor<4xf32>
  return
}

// -----

// Tests that pixel_shuffle needs channels divisible by upscale_factor^2.
func.func @negative_pixel_shuffle(%x: tensor<1x10x4x4xf32>) {
  // expected-error @+1 {{channels (10) must be a multiple of upscale_factor^2 (4)}}
  %0 = pd.pixel_shuffle %x {upscale_factor = 2 : i32} : (tensor<1x10x4x4xf32>) -> tensor<1x2x8x8xf32>
  return
}

// -----

// Tests that dot needs operands of one shape.
func.func @negative_dot(%x: tensor<4x8xf32>, %y: tensor<4x7xf32>) {
  // expected-error @+1 {{X has shape [4, 8] but Y has [4, 7]}}
  %0 = pd.dot %x, %y : (tensor<4x8xf32>, tensor<4x7xf32>) -> tensor<4x1xf32>
  return
}

// -----

// Tests that norm checks its axis.
func.func @negative_norm_axis(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{axis 2 is out of range for rank 2}}
  %0:2 = pd.norm %x {axis = 2 : i32} : (tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x1xf32>)
  return
}

// -----

// Tests that Fluid's expand needs one count per dim.
func.func @negative_expand(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{expand_times has 3 entries for rank 2}}
  %0 = pd.expand %x {expand_times = array<i32: 1, 2, 3>} : (tensor<4x8xf32>) -> tensor<4x16xf32>
  return
}

// -----

// Tests that Fluid's expand_as tiles by whole multiples of X's dims.
func.func @negative_expand_as_v1(%x: tensor<3x8xf32>, %t: tensor<5x16xf32>) {
  // expected-error @+1 {{target_tensor's dim 0 (5) is not a multiple of X's (3)}}
  %0 = pd.expand_as %x, %t : (tensor<3x8xf32>, tensor<5x16xf32>) -> tensor<5x16xf32>
  return
}

// -----

// Tests that Fluid's expand_as needs a target of X's rank.
func.func @negative_expand_as_v1_rank(%x: tensor<3x8xf32>, %t: tensor<2x3x8xf32>) {
  // expected-error @+1 {{target_tensor has rank 3 but X has rank 2}}
  %0 = pd.expand_as %x, %t : (tensor<3x8xf32>, tensor<2x3x8xf32>) -> tensor<2x3x8xf32>
  return
}

// -----

// Tests that expand_as_v2 cannot shrink a dim.
func.func @negative_expand_as(%x: tensor<3x8xf32>, %y: tensor<5x8xf32>) {
  // expected-error @+1 {{cannot expand dim of size 3 to 5}}
  %0 = pd.expand_as_v2 %x Y(%y) : (tensor<3x8xf32>, tensor<5x8xf32>) -> tensor<5x8xf32>
  return
}

// -----

// Tests that pad needs two paddings per dim.
func.func @negative_pad(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{paddings has 2 entries, rank 2 needs 4}}
  %0 = pd.pad %x {paddings = array<i32: 1, 1>} : (tensor<4x8xf32>) -> tensor<6x8xf32>
  return
}

// -----

// Tests that scatter's updates have X's row shape.
func.func @negative_scatter(%x: tensor<8x4xf32>, %i: tensor<2xi64>, %u: tensor<2x5xf32>) {
  // expected-error @+1 {{Updates has shape [2, 5] but X has [8, 4]}}
  %0 = pd.scatter %x, %i, %u : (tensor<8x4xf32>, tensor<2xi64>, tensor<2x5xf32>) -> tensor<8x4xf32>
  return
}

// -----

// Tests that meshgrid takes 1-D inputs.
func.func @negative_meshgrid(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{X must have rank 0 to 1, got 2}}
  %0 = pd.meshgrid [%x] : (tensor<2x3xf32>) -> (tensor<2xf32>)
  return
}

// -----

// Tests that trilinear interpolation takes a 5-D X.
func.func @negative_trilinear_rank(%x: tensor<1x3x8x8xf32>) {
  // expected-error @+1 {{X must have rank 5, got 4}}
  %0 = pd.trilinear_interp_v2 %x {interp_method = "trilinear", out_d = 2 : i32, out_h = 4 : i32, out_w = 4 : i32} : (tensor<1x3x8x8xf32>) -> tensor<1x3x2x4x4xf32>
  return
}

// -----

// Tests that a 3-D interpolation needs all three output sizes.
func.func @negative_trilinear_sizes(%x: tensor<1x3x2x8x8xf32>) {
  // expected-error @+1 {{needs out_d, out_h and out_w, a scale, or a size input}}
  %0 = pd.trilinear_interp_v2 %x {interp_method = "trilinear", out_h = 4 : i32, out_w = 4 : i32} : (tensor<1x3x2x8x8xf32>) -> tensor<1x3x2x4x4xf32>
  return
}

// -----

// Tests that pool3d takes a 5-D X.
func.func @negative_pool3d_rank(%x: tensor<1x3x8x8xf32>) {
  // expected-error @+1 {{X must have rank 5, got 4}}
  %0 = pd.pool3d %x {ksize = array<i32: 2, 2, 2>} : (tensor<1x3x8x8xf32>) -> tensor<1x3x4x4xf32>
  return
}

// -----

// Tests that anchor_generator needs four variances.
func.func @negative_anchor_variances(%x: tensor<1x3x8x8xf32>) {
  // expected-error @+1 {{variances must have 4 elements, got 2}}
  %0:2 = pd.anchor_generator %x {variances = array<f32: 0.1, 0.2>} : (tensor<1x3x8x8xf32>) -> (tensor<8x8x12x4xf32>, tensor<8x8x12x4xf32>)
  return
}

// -----

// Tests that dist needs operands that broadcast.
func.func @negative_dist(%x: tensor<4x8xf32>, %y: tensor<4x7xf32>) {
  // expected-error @+1 {{operand shapes are not broadcastable: dim 1 is 8 vs 7}}
  %0 = pd.dist %x, %y : (tensor<4x8xf32>, tensor<4x7xf32>) -> tensor<1xf32>
  return
}

// -----

// Tests that pad2d's run-time Paddings hold four values.
func.func @negative_pad2d_paddings(%x: tensor<?x3x8x8xf32>, %p: tensor<3xi32>) {
  // expected-error @+1 {{Paddings must hold 4 values}}
  %0 = pd.pad2d %x Paddings(%p) : (tensor<?x3x8x8xf32>, tensor<3xi32>) -> tensor<?x3x?x?xf32>
  return
}

// -----

// Tests that uniform_random makes floating-point tensors only.
func.func @negative_uniform_random_dtype() {
  // expected-error @+1 {{dtype 3 must be a floating-point type}}
  %0 = pd.uniform_random {shape = array<i64: 2>, dtype = 3 : i32} : () -> tensor<2xf32>
  return
}

// -----

// Tests that uniform_random_batch_size_like needs min <= max.
func.func @negative_uniform_random_range(%x: tensor<?x4xf32>) {
  // expected-error @+1 {{min (2.00) must not exceed max (1.00)}}
  %0 = pd.uniform_random_batch_size_like %x {shape = array<i32: -1, 3>, min = 2.0 : f32, max = 1.0 : f32} : (tensor<?x4xf32>) -> tensor<?x3xf32>
  return
}

// -----

// Tests that unique takes at most one axis.
func.func @negative_unique_axes(%x: tensor<4x4xi64>) {
  // expected-error @+1 {{takes at most one axis, got 2}}
  %0 = pd.unique %x {axis = array<i32: 0, 1>, resultSegmentSizes = array<i32: 1, 0, 0, 0>} : (tensor<4x4xi64>) -> tensor<?x?xi64>
  return
}

// -----

// Tests that unique's index dtype is int32 or int64.
func.func @negative_unique_dtype(%x: tensor<4xi64>) {
  // expected-error @+1 {{dtype 5 must be int32 (2) or int64 (3)}}
  %0 = pd.unique %x {dtype = 5 : i32, resultSegmentSizes = array<i32: 1, 0, 0, 0>} : (tensor<4xi64>) -> tensor<?xi64>
  return
}

// -----

// Tests that collect_fpn_proposals needs one score list per RoI list.
func.func @negative_collect_fpn_levels(%r: tensor<?x4xf32>, %s: tensor<?x1xf32>, %n: tensor<?xi32>) {
  // expected-error @+1 {{needs one MultiLevelScores per MultiLevelRois (and at least one level), got 2 and 1}}
  %0 = pd.collect_fpn_proposals [%r, %r] MultiLevelScores [%s] MultiLevelRoIsNum [%n, %n] {post_nms_topN = 10 : i32} : (tensor<?x4xf32>, tensor<?x4xf32>, tensor<?x1xf32>, tensor<?xi32>, tensor<?xi32>) -> tensor<?x4xf32>
  return
}

// -----

// Tests that collect_fpn_proposals refuses RoIs grouped by LoD.
func.func @negative_collect_fpn_lod(%r: tensor<?x4xf32>, %s: tensor<?x1xf32>) {
  // expected-error @+1 {{needs MultiLevelRoIsNum for each of the 1 levels (RoIs grouped per image by LoD are not supported yet), got 0}}
  %0 = pd.collect_fpn_proposals [%r] MultiLevelScores [%s] {post_nms_topN = 10 : i32} : (tensor<?x4xf32>, tensor<?x1xf32>) -> tensor<?x4xf32>
  return
}

// -----

// Tests that deformable_conv's Offset holds two channels per kernel tap
// and deformable group.
func.func @negative_deformable_offset(%x: tensor<1x8x16x16xf32>, %o: tensor<1x9x16x16xf32>, %w: tensor<16x8x3x3xf32>) {
  // expected-error @+1 {{Offset [1, 9, 16, 16] must be [1, 18, 16, 16] for deformable_groups 1 and a [3, 3] kernel}}
  %0 = pd.deformable_conv_v1 %x, %o, %w {paddings = array<i32: 1, 1>} : (tensor<1x8x16x16xf32>, tensor<1x9x16x16xf32>, tensor<16x8x3x3xf32>) -> tensor<1x16x16x16xf32>
  return
}

// -----

// Tests that deformable_conv's input channels divide into deformable groups.
func.func @negative_deformable_groups(%x: tensor<1x8x16x16xf32>, %o: tensor<1x54x16x16xf32>, %w: tensor<16x8x3x3xf32>) {
  // expected-error @+1 {{input channels (8) must be divisible by deformable_groups (3)}}
  %0 = pd.deformable_conv_v1 %x, %o, %w {paddings = array<i32: 1, 1>, deformable_groups = 3 : i32} : (tensor<1x8x16x16xf32>, tensor<1x54x16x16xf32>, tensor<16x8x3x3xf32>) -> tensor<1x16x16x16xf32>
  return
}

// -----

// Tests that sequence_pool needs the sequence lengths of a LoD input.
func.func @negative_sequence_pool_lod(%x: tensor<?x9xf32>) {
  // expected-error @+1 {{needs the sequence lengths of a LoD input; X carries no LoD}}
  %0 = pd.sequence_pool %x {pooltype = "SUM"} : (tensor<?x9xf32>) -> tensor<?x9xf32>
  return
}

// -----

// Tests that sequence_pool's lengths are one list.
func.func @negative_sequence_pool_lengths(%x: tensor<?x9xf32>, %n: tensor<2x2xi64>) {
  // expected-error @+1 {{Lengths must have rank 1, got 2}}
  %0 = pd.sequence_pool %x Lengths(%n) {pooltype = "SUM"} : (tensor<?x9xf32>, tensor<2x2xi64>) -> tensor<2x9xf32>
  return
}

// -----

// Tests that sequence_conv refuses learned padding rows and a stride.
func.func @negative_sequence_conv_trainable(%x: tensor<?x8xf32>, %w: tensor<24x5xf32>, %p: tensor<2x8xf32>, %n: tensor<?xi64>) {
  // expected-error @+1 {{paddingTrainable = true (padding rows learned in PaddingData) is not supported; only zero padding is}}
  %0 = pd.sequence_conv %x, %w PaddingData(%p) Lengths(%n) {contextLength = 3 : i32, contextStart = -1 : i32, paddingTrainable = true} : (tensor<?x8xf32>, tensor<24x5xf32>, tensor<2x8xf32>, tensor<?xi64>) -> tensor<?x5xf32>
  return
}

// -----

func.func @negative_sequence_conv_filter(%x: tensor<?x8xf32>, %w: tensor<16x5xf32>, %n: tensor<?xi64>) {
  // expected-error @+1 {{Filter must have contextLength * D = 24 rows, got 16}}
  %0 = pd.sequence_conv %x, %w Lengths(%n) {contextLength = 3 : i32} : (tensor<?x8xf32>, tensor<16x5xf32>, tensor<?xi64>) -> tensor<?x5xf32>
  return
}

// -----

// Tests that rnn checks its state and weight shapes against the mode,
// layers and directions.
func.func @negative_rnn_weights(%x: tensor<5x?x3xf32>, %h0: tensor<1x?x4xf32>, %wi: tensor<12x3xf32>, %wh: tensor<12x4xf32>, %b: tensor<12xf32>) {
  // expected-error @+1 {{WeightList must hold 4 tensors per layer and direction (4), got 3}}
  %0:2 = pd.rnn %x PreState[%h0] WeightList[%wi, %wh, %b] {hidden_size = 4 : i32, mode = "GRU", resultSegmentSizes = array<i32: 1, 1, 0, 0>} : (tensor<5x?x3xf32>, tensor<1x?x4xf32>, tensor<12x3xf32>, tensor<12x4xf32>, tensor<12xf32>) -> (tensor<5x?x4xf32>, tensor<1x?x4xf32>)
  return
}

// -----

func.func @negative_rnn_lstm_states(%x: tensor<5x?x3xf32>, %h0: tensor<1x?x4xf32>, %wi: tensor<16x3xf32>, %wh: tensor<16x4xf32>, %b: tensor<16xf32>) {
  // expected-error @+1 {{mode LSTM needs 2 PreState tensors, got 1}}
  %0:2 = pd.rnn %x PreState[%h0] WeightList[%wi, %wh, %b, %b] {hidden_size = 4 : i32, mode = "LSTM", resultSegmentSizes = array<i32: 1, 1, 0, 0>} : (tensor<5x?x3xf32>, tensor<1x?x4xf32>, tensor<16x3xf32>, tensor<16x4xf32>, tensor<16xf32>, tensor<16xf32>) -> (tensor<5x?x4xf32>, tensor<1x?x4xf32>)
  return
}

// -----

func.func @negative_rnn_weight_shape(%x: tensor<5x?x3xf32>, %h0: tensor<1x?x4xf32>, %wi: tensor<12x5xf32>, %wh: tensor<12x4xf32>, %b: tensor<12xf32>) {
  // expected-error @+1 {{WeightList entry of layer 0, direction 0 must be [12, 3], got [12, 5]}}
  %0:2 = pd.rnn %x PreState[%h0] WeightList[%wi, %wh, %b, %b] {hidden_size = 4 : i32, mode = "GRU", resultSegmentSizes = array<i32: 1, 1, 0, 0>} : (tensor<5x?x3xf32>, tensor<1x?x4xf32>, tensor<12x5xf32>, tensor<12x4xf32>, tensor<12xf32>, tensor<12xf32>) -> (tensor<5x?x4xf32>, tensor<1x?x4xf32>)
  return
}

// -----

// Tests that Fluid's lstmp checks Weight [P, 4D] against ProjWeight [D, P].
func.func @negative_lstmp_weights(%x: tensor<?x16xf32>, %w: tensor<4x16xf32>, %pw: tensor<4x3xf32>, %b: tensor<1x28xf32>, %n: tensor<?xi64>) {
  // expected-error @+1 {{Input must be [T, 4D], Weight [P, 4D] and ProjWeight [D, P], got [?, 16], [4, 16] and [4, 3]}}
  %0:2 = pd.lstmp %x, %w, %pw, %b Lengths(%n) {resultSegmentSizes = array<i32: 1, 1, 0, 0, 0, 0>} : (tensor<?x16xf32>, tensor<4x16xf32>, tensor<4x3xf32>, tensor<1x28xf32>, tensor<?xi64>) -> (tensor<?x3xf32>, tensor<?x4xf32>)
  return
}

// -----

// Tests that Fluid's lstmp refuses a negative clip.
func.func @negative_lstmp_clip(%x: tensor<?x16xf32>, %w: tensor<3x16xf32>, %pw: tensor<4x3xf32>, %b: tensor<1x28xf32>, %n: tensor<?xi64>) {
  // expected-error @+1 {{cell_clip and proj_clip must not be negative (0: no clipping)}}
  %0:2 = pd.lstmp %x, %w, %pw, %b Lengths(%n) {cell_clip = -1.0 : f32, resultSegmentSizes = array<i32: 1, 1, 0, 0, 0, 0>} : (tensor<?x16xf32>, tensor<3x16xf32>, tensor<4x3xf32>, tensor<1x28xf32>, tensor<?xi64>) -> (tensor<?x3xf32>, tensor<?x4xf32>)
  return
}

// -----

// Tests that Fluid's lstm checks its Bias width against use_peepholes.
func.func @negative_lstm_peephole_bias(%x: tensor<?x16xf32>, %w: tensor<4x16xf32>, %b: tensor<1x16xf32>, %n: tensor<?xi64>) {
  // expected-error @+1 {{Bias must be [1, 28] (4H gate biases, then 3H peephole weights: use_peepholes), got [1, 16]}}
  %0:2 = pd.lstm %x, %w, %b Lengths(%n) {resultSegmentSizes = array<i32: 1, 1, 0, 0>} : (tensor<?x16xf32>, tensor<4x16xf32>, tensor<1x16xf32>, tensor<?xi64>) -> (tensor<?x4xf32>, tensor<?x4xf32>)
  return
}

// -----

// Tests that Fluid's gru needs a LoD input and Input [T, 3H].
func.func @negative_gru_no_lod(%x: tensor<?x12xf32>, %w: tensor<4x12xf32>) {
  // expected-error @+1 {{needs the sequence lengths of a LoD input; Input carries no LoD (its rows are not sequences of a LoD feed)}}
  %0 = pd.gru %x, %w {resultSegmentSizes = array<i32: 1, 0, 0, 0>} : (tensor<?x12xf32>, tensor<4x12xf32>) -> tensor<?x4xf32>
  return
}

// -----

func.func @negative_gru_width(%x: tensor<?x9xf32>, %w: tensor<4x12xf32>, %n: tensor<?xi64>) {
  // expected-error @+1 {{Input must be [T, 3 * H] and Weight [H, 3 * H], got [?, 9] and [4, 12]}}
  %0 = pd.gru %x, %w Lengths(%n) {resultSegmentSizes = array<i32: 1, 0, 0, 0>} : (tensor<?x9xf32>, tensor<4x12xf32>, tensor<?xi64>) -> tensor<?x4xf32>
  return
}

// -----

// Tests that crf_decoding checks Transition against the tag count and
// refuses the padded and Label forms by name.
func.func @negative_crf_transition(%e: tensor<?x5xf32>, %t: tensor<5x5xf32>, %n: tensor<?xi64>) {
  // expected-error @+1 {{Transition must be [D + 2, D] for D = 5 tags, got [5, 5]}}
  %0 = pd.crf_decoding %e, %t Lengths(%n) : (tensor<?x5xf32>, tensor<5x5xf32>, tensor<?xi64>) -> tensor<?x1xi64>
  return
}

// -----

func.func @negative_crf_padded(%e: tensor<2x4x5xf32>, %t: tensor<7x5xf32>, %len: tensor<2xi64>) {
  // expected-error @+1 {{the padded form (Emission [N, T, D] with Length) is not supported; only LoD Emission is}}
  %0 = pd.crf_decoding %e, %t Length(%len) : (tensor<2x4x5xf32>, tensor<7x5xf32>, tensor<2xi64>) -> tensor<?x1xi64>
  return
}

// -----

// Tests that viterbi_decode checks Transition against the tag count.
func.func @negative_viterbi_transition(%x: tensor<2x4x5xf32>, %t: tensor<6x6xf32>, %n: tensor<2xi64>) {
  // expected-error @+1 {{Transition must be [D, D] for D = 5 tags, got [6, 6]}}
  %0:2 = pd.viterbi_decode %x, %t, %n : (tensor<2x4x5xf32>, tensor<6x6xf32>, tensor<2xi64>) -> (tensor<2xf32>, tensor<2x?xi64>)
  return
}

// -----

// Tests that pd.while's condition (the first carried value) is one boolean.
func.func @negative_while_condition(%c: tensor<2xi1>) {
  // expected-error @+1 {{condition (the first carried value) must be a boolean tensor of one element, got 'tensor<2xi1>'}}
  %r = pd.while (%c) : (tensor<2xi1>) -> (tensor<2xi1>) {
  ^bb0(%c0: tensor<2xi1>):
    pd.yield %c0 : tensor<2xi1>
  }
  return
}

// -----

// Tests that a pd.while init must fit its carried (result) type.
func.func @negative_while_init(%c: tensor<1xi1>, %x: tensor<3xf32>) {
  // expected-error @+1 {{carried value #1 of type 'tensor<3xf32>' does not fit its result type 'tensor<4xf32>'}}
  %r:2 = pd.while (%c, %x) : (tensor<1xi1>, tensor<3xf32>) -> (tensor<1xi1>, tensor<4xf32>) {
  ^bb0(%c0: tensor<1xi1>, %x0: tensor<4xf32>):
    pd.yield %c0, %x0 : tensor<1xi1>, tensor<4xf32>
  }
  return
}

// -----

// Tests that the body's block arguments have the carried types.
func.func @negative_while_args(%c: tensor<1xi1>, %x: tensor<4xf32>) {
  // expected-error @+1 {{body arguments must have the result types}}
  %r:2 = pd.while (%c, %x) : (tensor<1xi1>, tensor<4xf32>) -> (tensor<1xi1>, tensor<?xf32>) {
  ^bb0(%c0: tensor<1xi1>, %x0: tensor<4xf32>):
    pd.yield %c0, %x0 : tensor<1xi1>, tensor<4xf32>
  }
  return
}

// -----

// Tests that pd.yield gives one value per carried value, each fitting.
func.func @negative_while_yield(%c: tensor<1xi1>, %x: tensor<?xf32>, %z: tensor<3xi64>) {
  %r:2 = pd.while (%c, %x) : (tensor<1xi1>, tensor<?xf32>) -> (tensor<1xi1>, tensor<?xf32>) {
  ^bb0(%c0: tensor<1xi1>, %x0: tensor<?xf32>):
    // expected-error @+1 {{value #1 of type 'tensor<3xi64>' does not fit the carried type 'tensor<?xf32>'}}
    pd.yield %c0, %z : tensor<1xi1>, tensor<3xi64>
  }
  return
}

// -----

// Tests that pd.yield appears only as the terminator of a pd.while or a
// pd.conditional_block.
func.func @negative_yield_outside(%x: tensor<4xf32>) {
  // expected-error @+1 {{expects parent op to be one of 'pd.while, pd.conditional_block'}}
  pd.yield %x : tensor<4xf32>
}

// -----

// Tests that a scalar conditional_block takes one boolean of one element.
func.func @negative_conditional_scalar(%c: tensor<2xi1>) {
  // expected-error @+1 {{with is_scalar_condition needs one boolean tensor of one element as its condition, got 1 of type 'tensor<2xi1>'}}
  pd.conditional_block [%c] () : (tensor<2xi1>) -> () {
    pd.yield
  }
  return
}

// -----

// Tests that a conditional_block's default fits its result.
func.func @negative_conditional_default(%c: tensor<1xi1>, %d: tensor<3xf32>) {
  // expected-error @+1 {{default #0 of type 'tensor<3xf32>' does not fit its result type 'tensor<4xf32>'}}
  %r = pd.conditional_block [%c] (%d) : (tensor<1xi1>, tensor<3xf32>) -> tensor<4xf32> {
    %z = pd.fill_constant {shape = array<i64: 4>} : () -> tensor<4xf32>
    pd.yield %z : tensor<4xf32>
  }
  return
}

// -----

// Tests that a conditional_block yields one value per result.
func.func @negative_conditional_yield(%c: tensor<1xi1>, %d: tensor<4xf32>) {
  %r = pd.conditional_block [%c] (%d) : (tensor<1xi1>, tensor<4xf32>) -> tensor<4xf32> {
    // expected-error @+1 {{must yield one value per result (1), got 0}}
    pd.yield
  }
  return
}

// -----

// Tests that select_input's inputs share rank and element type.
func.func @negative_select_input_rank(%a: tensor<2x3xf32>, %b: tensor<6xf32>, %m: tensor<1xi32>) {
  // expected-error @+1 {{inputs must share rank and element type}}
  %y = pd.select_input [%a, %b], %m : (tensor<2x3xf32>, tensor<6xf32>, tensor<1xi32>) -> tensor<?x3xf32>
  return
}

// -----

// Tests that select_input's mask holds one element.
func.func @negative_select_input_mask(%a: tensor<2x3xf32>, %m: tensor<2xi32>) {
  // expected-error @+1 {{Mask must hold one element, got [2]}}
  %y = pd.select_input [%a, %a], %m : (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2xi32>) -> tensor<2x3xf32>
  return
}

// -----

// Tests that write_to_array's X is an element of the array it updates.
func.func @negative_write_to_array_rank(%x: tensor<2x3xf32>, %i: tensor<1xi64>, %a: tensor<?x6xf32>) {
  // expected-error @+1 {{X must be an element of Array (rank 1, the same element type)}}
  %b = pd.write_to_array %x, %i Array(%a) : (tensor<2x3xf32>, tensor<1xi64>, tensor<?x6xf32>) -> tensor<?x2x3xf32>
  return
}

// -----

// Tests that an array index holds one value.
func.func @negative_read_from_array_index(%a: tensor<?x3xf32>, %i: tensor<2xi64>) {
  // expected-error @+1 {{I must hold one index, got [2]}}
  %e = pd.read_from_array %a, %i : (tensor<?x3xf32>, tensor<2xi64>) -> tensor<3xf32>
  return
}

// -----

// Tests that tensor_array_to_tensor checks its axis against the elements.
func.func @negative_tensor_array_to_tensor_axis(%a: tensor<?x2x3xf32>) {
  // expected-error @+1 {{axis 2 is out of range for rank 2}}
  %t, %idx = pd.tensor_array_to_tensor %a {axis = 2 : i32} : (tensor<?x2x3xf32>) -> (tensor<2x?xf32>, tensor<?xi32>)
  return
}

// -----

// Tests that sequence_expand needs Y's sequence lengths.
func.func @negative_sequence_expand_no_lod(%x: tensor<2x8xf32>, %y: tensor<5x4xf32>) {
  // expected-error @+1 {{needs the sequence lengths of a LoD input; Y carries no LoD}}
  %e = pd.sequence_expand %x, %y : (tensor<2x8xf32>, tensor<5x4xf32>) -> tensor<5x8xf32>
  return
}

// -----

// Tests that X has one row per sequence of Y.
func.func @negative_sequence_expand_as_rows(%x: tensor<3x8xf32>, %y: tensor<5x4xf32>, %n: tensor<2xi64>) {
  // expected-error @+1 {{X has 3 rows but Y has 2 sequences}}
  %e = pd.sequence_expand_as %x, %y Lengths(%n) : (tensor<3x8xf32>, tensor<5x4xf32>, tensor<2xi64>) -> tensor<5x8xf32>
  return
}

// -----

// Tests that only Y's one LoD level can be referenced.
func.func @negative_sequence_expand_ref_level(%x: tensor<2x8xf32>, %y: tensor<5x4xf32>, %n: tensor<2xi64>) {
  // expected-error @+1 {{ref_level 1 is not supported (Y has one LoD level: -1 or 0)}}
  %e = pd.sequence_expand %x, %y Lengths(%n) {ref_level = 1 : i32} : (tensor<2x8xf32>, tensor<5x4xf32>, tensor<2xi64>) -> tensor<5x8xf32>
  return
}

// -----

// Tests that im2sequence refuses Y (per-image real sizes).
func.func @negative_im2sequence_y(%x: tensor<2x3x4x4xf32>, %y: tensor<2x2xi32>) {
  // expected-error @+1 {{Y (each image's real size) is not supported}}
  %s, %n = pd.im2sequence %x Y(%y) {kernels = array<i32: 2, 2>} : (tensor<2x3x4x4xf32>, tensor<2x2xi32>) -> (tensor<18x12xf32>, tensor<2xi64>)
  return
}

// -----

// Tests that the kernel must fit the padded image.
func.func @negative_im2sequence_kernel(%x: tensor<2x3x4x4xf32>) {
  // expected-error @+1 {{the 5x1 kernel does not fit the padded [4, 4] image}}
  %s, %n = pd.im2sequence %x {kernels = array<i32: 5, 1>} : (tensor<2x3x4x4xf32>) -> (tensor<?x3xf32>, tensor<2xi64>)
  return
}

// -----

// Tests that lod_reset needs new boundaries from somewhere.
func.func @negative_lod_reset_nothing(%x: tensor<5x3xf32>) {
  // expected-error @+1 {{needs Y or a target_lod of at least 2 offsets}}
  %o, %n = pd.lod_reset %x : (tensor<5x3xf32>) -> (tensor<5x3xf32>, tensor<?xi64>)
  return
}

// -----

// Tests that target_lod must end at X's rows.
func.func @negative_lod_reset_target_end(%x: tensor<5x3xf32>) {
  // expected-error @+1 {{target_lod ends at 4 but X has 5 rows}}
  %o, %n = pd.lod_reset %x {target_lod = array<i32: 0, 4>} : (tensor<5x3xf32>) -> (tensor<5x3xf32>, tensor<1xi64>)
  return
}

// -----

// Tests that target_lod must not decrease.
func.func @negative_lod_reset_target_order(%x: tensor<5x3xf32>) {
  // expected-error @+1 {{target_lod must not decrease (3 then 2)}}
  %o, %n = pd.lod_reset %x {target_lod = array<i32: 0, 3, 2, 5>} : (tensor<5x3xf32>) -> (tensor<5x3xf32>, tensor<3xi64>)
  return
}

// -----

// Tests that offsets in Y must be integers.
func.func @negative_lod_reset_float_offsets(%x: tensor<5x3xf32>, %y: tensor<3xf32>) {
  // expected-error @+1 {{Y without LoD holds the new offsets and must be int32 or int64, got float32}}
  %o, %n = pd.lod_reset %x Y(%y) : (tensor<5x3xf32>, tensor<3xf32>) -> (tensor<5x3xf32>, tensor<2xi64>)
  return
}

// -----

// Tests that gru_unit's Weight is [D, 3D].
func.func @negative_gru_unit_weight(%x: tensor<2x12xf32>, %h: tensor<2x4xf32>, %w: tensor<4x8xf32>) {
  // expected-error @+1 {{Weight must be [D, 3D] for D = 4, got [4, 8]}}
  %g, %r, %o = pd.gru_unit %x, %h, %w : (tensor<2x12xf32>, tensor<2x4xf32>, tensor<4x8xf32>) -> (tensor<2x12xf32>, tensor<2x4xf32>, tensor<2x4xf32>)
  return
}

// -----

// Tests that gru_unit's activations are Paddle's four.
func.func @negative_gru_unit_activation(%x: tensor<2x12xf32>, %h: tensor<2x4xf32>, %w: tensor<4x12xf32>) {
  // expected-error @+1 {{activation 4 is not one of Paddle's 0 identity, 1 sigmoid, 2 tanh, 3 relu}}
  %g, %r, %o = pd.gru_unit %x, %h, %w {activation = 4 : i32} : (tensor<2x12xf32>, tensor<2x4xf32>, tensor<4x12xf32>) -> (tensor<2x12xf32>, tensor<2x4xf32>, tensor<2x4xf32>)
  return
}

// -----

// Tests that sequence_reshape's rows must be whole.
func.func @negative_sequence_reshape_uneven(%x: tensor<3x2xf32>, %n: tensor<2xi64>) {
  // expected-error @+1 {{X's 6 values do not fill rows of new_dim 4}}
  %y, %l = pd.sequence_reshape %x Lengths(%n) {new_dim = 4 : i32} : (tensor<3x2xf32>, tensor<2xi64>) -> (tensor<?x4xf32>, tensor<2xi64>)
  return
}

// -----

// Tests that box_clip holds whole boxes.
func.func @negative_box_clip_width(%b: tensor<5x6xf32>, %info: tensor<2x3xf32>, %n: tensor<2xi64>) {
  // expected-error @+1 {{Input's last dim must hold whole boxes (a multiple of 4), got 6}}
  %c = pd.box_clip %b, %info Lengths(%n) : (tensor<5x6xf32>, tensor<2x3xf32>, tensor<2xi64>) -> tensor<5x6xf32>
  return
}

// -----

// Tests that box_clip has an ImInfo row per image.
func.func @negative_box_clip_info(%b: tensor<5x4xf32>, %info: tensor<3x3xf32>, %n: tensor<2xi64>) {
  // expected-error @+1 {{ImInfo has 3 rows but Input has 2 images (sequences)}}
  %c = pd.box_clip %b, %info Lengths(%n) : (tensor<5x4xf32>, tensor<3x3xf32>, tensor<2xi64>) -> tensor<5x4xf32>
  return
}

// -----

// Tests that lstm_unit's X holds the four gates of C_prev's width.
func.func @negative_lstm_unit_width(%x: tensor<2x12xf32>, %c0: tensor<2x4xf32>) {
  // expected-error @+1 {{X must be [N, 4D] for C_prev [N, D], got [2, 12] and [2, 4]}}
  %c, %h = pd.lstm_unit %x, %c0 : (tensor<2x12xf32>, tensor<2x4xf32>) -> (tensor<2x4xf32>, tensor<2x4xf32>)
  return
}

// -----

// Tests that a reducescatter's dim 0 must split evenly among the ranks.
func.func @collective_scatter(%x: tensor<5x8xf32>) {
  // expected-error @+1 {{dim 0 of X (5) must be divisible by nranks (2)}}
  %0 = pd.c_reducescatter %x {nranks = 2 : i32} : (tensor<5x8xf32>) -> tensor<2x8xf32>
  return
}

// -----

// Tests that an allgather's result stacks nranks copies of X.
func.func @collective_gather(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{result #0 has type 'tensor<4x8xf32>' but the inferred type is 'tensor<8x8xf32>'}}
  %0 = pd.c_allgather %x {nranks = 2 : i32} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return
}

// -----

// Tests that recv_v2 needs a static out_shape (a shape sent at run time is
// not supported).
func.func @collective_recv() {
  // expected-error @+1 {{dynamic_shape (the shape sent before the data) is not supported}}
  %0 = pd.recv_v2 {dynamic_shape = true, out_shape = array<i32: 4>} : () -> tensor<4xf32>
  return
}

// -----

func.func @is_stage_out_of_range() -> tensor<1xi1> {
  // expected-error @+1 {{'pd.is_stage' op stage 2 is not one of the 2 stages}}
  %f = pd.is_stage {stage = 2 : i32, stages = 2 : i32} : () -> tensor<1xi1>
  return %f : tensor<1xi1>
}

// -----

// Tests that a rank table ranks a LoD batch: X needs its lengths.
func.func @negative_rank_table_no_lod(%x: tensor<?x3xf32>) {
  // expected-error @+1 {{X must be a LoD batch (its sequence lengths in Lengths)}}
  %t = pd.lod_rank_table %x : (tensor<?x3xf32>) -> tensor<?x2xi64>
  return
}

// -----

// Tests that only level 0 of a one-level LoD is ranked.
func.func @negative_rank_table_level(%x: tensor<?x3xf32>, %l: tensor<?xi64>) {
  // expected-error @+1 {{level 1 is not supported; only level 0 of a batch with one LoD level is}}
  %t = pd.lod_rank_table %x Lengths(%l) {level = 1 : i32} : (tensor<?x3xf32>, tensor<?xi64>) -> tensor<?x2xi64>
  return
}

// -----

// Tests that the array ops take a rank table, int64 [N, 2].
func.func @negative_rank_table_shape(%x: tensor<?x3xf32>, %t: tensor<?x3xi64>) {
  // expected-error @+1 {{RankTable must be a rank table (int64 [N, 2]), got [?, 3]}}
  %a = pd.lod_tensor_to_array %x, %t : (tensor<?x3xf32>, tensor<?x3xi64>) -> tensor<?x?x3xf32>
  return
}

// -----

// Tests that array_to_lod_tensor's elements have one row per sequence.
func.func @negative_array_to_lod_rows(%a: tensor<?x5x3xf32>, %t: tensor<4x2xi64>) {
  // expected-error @+1 {{X's elements must have one row per sequence of RankTable (4), got 5}}
  %y, %l = pd.array_to_lod_tensor %a, %t : (tensor<?x5x3xf32>, tensor<4x2xi64>) -> (tensor<?x3xf32>, tensor<4xi64>)
  return
}
