"""`python3 -m paddle_mlir` is `python3 -m paddle_mlir.zoo`."""
import sys

from .zoo import main

sys.exit(main())
