"""Checks the pool3d.onnx outputs (see import.test) against PyTorch."""
import sys

import numpy as np
import torch
import torch.nn.functional as F

x = torch.from_numpy(np.load(sys.argv[1]))
out = sys.argv[2]

# MaxPool: kernel [2, 3, 2], strides [1, 2, 2], dilations [2, 1, 1],
# pads begin [0, 1, 0], end [0, 1, 1] (padded by hand with -inf).
xp = F.pad(x, (0, 1, 1, 1, 0, 0), value=float("-inf"))
m, idx = F.max_pool3d(xp, (2, 3, 2), stride=(1, 2, 2), dilation=(2, 1, 1), return_indices=True)
# Indices of the padded planes -> indices of the input planes, then
# flattened over N and C as ONNX does.
pd_, ph, pw = xp.shape[2:]
d, h, w = idx // (ph * pw), (idx // pw) % ph, idx % pw
D, H, W = x.shape[2:]
flat = (d * H + (h - 1)) * W + w
N, C = x.shape[:2]
flat = flat + (torch.arange(N * C).reshape(N, C, 1, 1, 1) * D * H * W)
got_m, got_i = np.load(out + "/m.npy"), np.load(out + "/mi.npy")
assert got_m.shape == tuple(m.shape) and np.allclose(got_m, m.numpy(), atol=1e-6), "max values"
assert np.array_equal(got_i, flat.numpy()), "max indices"

# AveragePool: kernel [3, 2, 3], strides 2, pads begin [1, 0, 1], end
# [1, 0, 0], ceil_mode (the last W window reaches past the input),
# count_include_pad=0: sum over the window's inputs divided by how many
# inputs (not pads) it covers.
def padded(t):
    return F.pad(t, (1, 0, 0, 0, 1, 1))

s = F.avg_pool3d(padded(x), (3, 2, 3), stride=2, ceil_mode=True, divisor_override=1)
n = F.avg_pool3d(padded(torch.ones_like(x)), (3, 2, 3), stride=2, ceil_mode=True,
                 divisor_override=1)
a = (s / n).numpy()
got_a = np.load(out + "/a.npy")
assert got_a.shape == a.shape and np.allclose(got_a, a, atol=1e-5), (got_a.shape, a.shape)
print("pool3d ok")
