"""Checks the conv_layout record of a manifest.json: with measured times,
the choice must be the layout with the smaller total; without (dynamic
shapes), the layout the host implies (NHWC with AVX-512, else nChw8c)."""
import json
import sys

layout = json.load(open(sys.argv[1]))["kernels"]["conv_layout"]
times = {k[:-3]: v for k, v in layout.items() if k.endswith("_ms")}
if times:
    assert set(times) == {"nhwc", "nChw8c"}, times
    assert all(v > 0 for v in times.values()), times
    assert layout["choice"] == min(times, key=times.get), layout
    print("measured:", ", ".join("%s %.3f ms" % kv for kv in sorted(times.items())))
else:
    print("not measured")
print("conv_layout %s over %d convolutions" % (layout["choice"], layout["convolutions"]))
