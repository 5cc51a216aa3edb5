// A MobileNetV1-style block as the Paddle importer produces it: dynamic batch,
// conv + batch_norm + relu, depthwise conv, pooling, classifier, softmax, with
// the inference identities (dropout, scale 1) that Paddle exports leave in.
// Run it through the graph pipeline with:
//   paddle-opt --pd-optimize examples/mobilenet_block.mlir
func.func @main(%image: tensor<?x3x32x32xf32>, %w1: tensor<16x3x3x3xf32>, %bn: tensor<16xf32>,
                %dw: tensor<16x1x3x3xf32>, %fc_w: tensor<16x10xf32>, %fc_b: tensor<10xf32>)
    -> tensor<?x?xf32> {
  %0 = pd.conv2d %image, %w1 {strides = array<i32: 2, 2>, paddings = array<i32: 1, 1>}
      : (tensor<?x3x32x32xf32>, tensor<16x3x3x3xf32>) -> tensor<?x?x?x?xf32>
  %1 = pd.batch_norm %0, %bn, %bn, %bn, %bn {is_test = true}
      : (tensor<?x?x?x?xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>) -> tensor<?x?x?x?xf32>
  %2 = pd.relu %1 : (tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xf32>
  %3 = pd.depthwise_conv2d %2, %dw {groups = 16 : i32, paddings = array<i32: 1, 1>}
      : (tensor<?x?x?x?xf32>, tensor<16x1x3x3xf32>) -> tensor<?x?x?x?xf32>
  %4 = pd.relu6 %3 : (tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xf32>
  %5 = pd.pool2d %4 {pooling_type = "avg", ksize = array<i32: 16, 16>, global_pooling = true}
      : (tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xf32>
  %6 = pd.flatten_contiguous_range %5 {start_axis = 1 : i32, stop_axis = 3 : i32}
      : (tensor<?x?x?x?xf32>) -> tensor<?x?xf32>
  %7 = pd.dropout %6 {is_test = true, dropout_implementation = "upscale_in_train"}
      : (tensor<?x?xf32>) -> tensor<?x?xf32>
  %8 = pd.matmul_v2 %7, %fc_w : (tensor<?x?xf32>, tensor<16x10xf32>) -> tensor<?x?xf32>
  %9 = pd.elementwise_add %8, %fc_b {axis = 1 : i32} : (tensor<?x?xf32>, tensor<10xf32>) -> tensor<?x?xf32>
  %10 = pd.scale %9 {scale = 1.0 : f32} : (tensor<?x?xf32>) -> tensor<?x?xf32>
  %11 = pd.softmax %10 : (tensor<?x?xf32>) -> tensor<?x?xf32>
  return %11 : tensor<?x?xf32>
}
