"""Checks the conv_layout record of a manifest.json: with measured times,
the choice must be a layout with the smallest total (a tie is exact when
the layouts leave every convolution the same: identical work is timed
once and the times are shared); without (dynamic
shapes), the layout the host implies (NHWC with AVX-512, else nChw8c).
Where Winograd convolutions were considered, the number switched must be
the number of pdk_conv2d_winograd[4] calls (and of them F(4x4) the number of
pdk_conv2d_winograd4 calls), and the timed total with them
must not exceed the direct total (nor, when the layouts were timed with
them, the chosen layout's total)."""
import json
import sys

kernels = json.load(open(sys.argv[1]))["kernels"]
layout = kernels["conv_layout"]
times = {k[:-3]: v for k, v in layout.items() if k.endswith("_ms") and "winograd" not in k}
if times:
    assert set(times) == {"nhwc", "nChw8c"}, times
    assert all(v > 0 for v in times.values()), times
    assert times[layout["choice"]] == min(times.values()), layout
    print("measured:", ", ".join("%s %.3f ms" % kv for kv in sorted(times.items())))
else:
    print("not measured")
print("conv_layout %s over %d convolutions" % (layout["choice"], layout["convolutions"]))
if "winograd" in layout:
    calls = {kind: sum(n for k, n in kernels["calls"].items() if k.endswith("-> " + kind))
             for kind in ("pdk_conv2d_winograd", "pdk_conv2d_winograd4")}
    assert sum(calls.values()) == layout["winograd"], (calls, layout)
    assert calls["pdk_conv2d_winograd4"] == layout["winograd4"], (calls, layout)
    assert layout["winograd"] <= layout["winograd_eligible"], layout
    if "winograd_ms" in layout:
        assert 0 < layout["winograd_ms"] <= layout["winograd_direct_ms"], layout
        if times:  # timed with the layouts: part of the chosen one's total
            assert layout["winograd_ms"] <= times[layout["choice"]], layout
        print("winograd timed: %.3f ms, direct %.3f ms" % (layout["winograd_ms"],
                                                           layout["winograd_direct_ms"]))
    print("winograd %d of %d eligible (%d F(4x4))" % (layout["winograd"],
                                                     layout["winograd_eligible"],
                                                     layout["winograd4"]))
