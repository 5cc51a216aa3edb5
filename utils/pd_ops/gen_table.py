#!/usr/bin/env python3
"""Generates the C++ slot/attribute table of all pd ops (PdOpCatalog.inc) from
catalog.py. Run by the build; the output goes to the build tree.

Usage: gen_table.py OUTPUT
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import catalog  # noqa: E402
from gen_ods import parse_slot  # noqa: E402

KIND = {"i32": "Int", "i64": "Long", "f32": "Float", "f64": "Float64", "bool": "Bool", "str": "String",
        "ints": "Ints", "longs": "Longs", "floats": "Floats", "strs": "Strings"}
ARITY = {"": "Required", "?": "Optional", "*": "List"}


def default_text(attr):
    """The default as text the exporter parses: comma-separated for arrays."""
    d = attr.default
    if d is None:
        return "nullptr"
    if attr.kind == "bool":
        v = "1" if d else "0"
    elif attr.kind in ("ints", "longs", "floats", "strs"):
        v = ",".join(repr(float(x)) if attr.kind == "floats" else str(x) for x in d)
    elif attr.kind in ("f32", "f64"):
        v = repr(float(d))
    else:
        v = str(d)
    return '"%s"' % v


def slots(specs):
    out = []
    for s in specs:
        paddle, _, _, arity = parse_slot(s)
        out.append('{"%s", PdSlotArity::%s}' % (paddle, ARITY[arity]))
    return "{" + ", ".join(out) + "}"


def main(path):
    lines = ["// Generated from utils/pd_ops/catalog.py by utils/pd_ops/gen_table.py. Do not edit.", ""]
    for op in catalog.OPS + catalog.FUSED_OPS:
        attrs = ", ".join('{"%s", PdAttrKind::%s, %s}' % (a.name, KIND[a.kind], default_text(a))
                          for a in op.attrs)
        lines.append('PdOpSpec{"%s", %s, %s, {%s}},' % (op.name, slots(op.ins), slots(op.outs), attrs))
    text = "\n".join(lines) + "\n"
    old = open(path).read() if os.path.exists(path) else None
    if old != text:
        with open(path, "w") as f:
            f.write(text)


if __name__ == "__main__":
    main(sys.argv[1])
