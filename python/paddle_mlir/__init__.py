"""paddle_mlir: the Python side of the paddle-mlir compiler.

- paddle_mlir.builder: write Paddle inference programs (ProgramDesc + params)
  from Python, op by op, as Paddle 2.x exports them.
- paddle_mlir.zoo: real architectures (ResNet-50, MobileNetV2, BERT-base, a
  PP-OCR-like recognizer, a CTR DNN) built with the builder.
"""
