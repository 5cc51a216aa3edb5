#!/usr/bin/env python3
"""Generates PdOpsGenerated.td from catalog.py.

Usage:
  gen_ods.py            print the generated ODS to stdout
  gen_ods.py --write    rewrite include/PaddleMLIR/Dialect/Pd/IR/PdOpsGenerated.td
  gen_ods.py --check    exit 1 if the checked-in file differs from the catalogue
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import catalog  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OUT = os.path.join(ROOT, "include", "PaddleMLIR", "Dialect", "Pd", "IR", "PdOpsGenerated.td")

TENSOR = {
    "any": "Pd_Tensor", "float": "Pd_FloatTensor", "int": "Pd_IntTensor", "index": "Pd_IndexTensor",
    "bool": "Pd_BoolTensor", "num": "Pd_NumTensor", "quant": "Pd_QuantTensor", "bits": "Pd_BitsTensor",
}
ATTR = {
    "i32": "Pd_I32Attr", "i64": "Pd_I64Attr", "f32": "F32Attr", "f64": "F64Attr", "bool": "BoolAttr",
    "str": "StrAttr", "ints": "DenseI32ArrayAttr", "longs": "DenseI64ArrayAttr",
    "floats": "DenseF32ArrayAttr", "strs": "StrArrayAttr",
}


def camel(name):
    return "".join(p[:1].upper() + p[1:] for p in name.split("_") if p)


def parse_slot(spec):
    """'Name=OdsName:kind?' -> (paddle_name, ods_name, kind, arity)."""
    name, kind = spec.split(":")
    arity = ""
    if kind[-1] in "?*":
        kind, arity = kind[:-1], kind[-1]
    paddle, _, ods = name.partition("=")
    return paddle, ods or paddle, kind, arity


def cxx_default(attr):
    d, k = attr.default, attr.kind
    if k == "bool":
        return "true" if d else "false"
    if k in ("i32", "i64"):
        return str(d)
    if k in ("f32", "f64"):
        return repr(float(d))
    if k == "str":
        return None  # handled by DefaultValuedStrAttr
    if k in ("ints", "longs"):
        return "{" + ", ".join(str(v) for v in d) + "}"
    if k == "floats":
        return "{" + ", ".join(repr(float(v)) + "f" for v in d) + "}"
    if k == "strs":
        return "{" + ", ".join('"%s"' % v for v in d) + "}"
    raise ValueError(k)


def attr_decl(attr):
    base = ATTR[attr.kind]
    cons = []
    c = attr.constraints
    if "min" in c:
        cons.append("IntMinValue<%d>" % c["min"])
    if "choices" in c:
        cons.append("Pd_StrIn<[%s]>" % ", ".join('"%s"' % v for v in c["choices"]))
    if "elem_min" in c:
        cons.append("Pd_I32ArrayMin<%d>" % c["elem_min"])
    if "sizes" in c:
        cons.append("Pd_I32ArraySizeIn<[%s]>" % ", ".join(str(v) for v in c["sizes"]))
    if "range" in c:
        cons.append('Pd_F32Range<"%s", "%s">' % c["range"])
    if "fmin" in c:
        cons.append('Pd_F32Min<"%s">' % c["fmin"])
    unknown = set(c) - {"min", "choices", "elem_min", "sizes", "range", "fmin"}
    if unknown:
        raise ValueError("unknown constraint %s on %s" % (unknown, attr.name))
    if cons:
        base = "ConfinedAttr<%s, [%s]>" % (base, ", ".join(cons))
    if attr.default is None:
        return "%s:$%s" % (base, attr.name)
    if attr.kind == "str":
        return 'DefaultValuedStrAttr<%s, "%s">:$%s' % (base, attr.default, attr.name)
    return 'DefaultValuedAttr<%s, "%s">:$%s' % (base, cxx_default(attr), attr.name)


def infer_body(op, ins):
    kind = op.infer
    if kind == "custom":
        return None
    if kind.startswith("same:"):
        slot = kind.split(":")[1]
        ods = next(o for p, o, _, _ in ins if p == slot)
        return "types.push_back(get%s().getType());\n    return ::mlir::success();" % camel(ods)
    if kind.startswith("bool:"):
        slot = kind.split(":")[1]
        ods = next(o for p, o, _, _ in ins if p == slot)
        return ("types.push_back(::llvm::cast<::mlir::ShapedType>(get%s().getType()).clone("
                "::mlir::IntegerType::get(getContext(), 1)));\n    return ::mlir::success();" % camel(ods))
    if kind in ("bcast", "cmp"):
        axis = "getAxis()" if any(a.name == "axis" for a in op.attrs) else "-1"
        return ("return ::mlir::pd::inferBroadcastTypes(getOperation(), getX().getType(), getY().getType(), "
                "%s, /*boolResult=*/%s, types, emitErrors);" % (axis, "true" if kind == "cmp" else "false"))
    raise ValueError("unknown infer kind %s for %s" % (kind, op.name))


def gen_op(op):
    ins = [parse_slot(s) for s in op.ins]
    outs = [parse_slot(s) for s in op.outs]
    getters = {}
    for what, name in ([("operand", o) for _, o, _, _ in ins] + [("result", o) for _, o, _, _ in outs]
                       + [("attribute", a.name) for a in op.attrs]):
        g = camel(name)
        if g in getters:
            raise SystemExit("%s: %s '%s' clashes with %s; rename the slot with Name=OdsName"
                             % (op.name, what, name, getters[g]))
        getters[g] = "%s '%s'" % (what, name)

    traits = []
    if sum(1 for _, _, _, a in ins if a) > 1:
        traits.append("AttrSizedOperandSegments")
    if sum(1 for _, _, _, a in outs if a) > 1:
        traits.append("AttrSizedResultSegments")

    def typed(slot):
        _, ods, kind, arity = slot
        t = TENSOR[kind]
        if arity == "?":
            t = "Optional<%s>" % t
        elif arity == "*":
            t = "Variadic<%s>" % t
        return "%s:$%s" % (t, ods)

    args = [typed(s) for s in ins] + [attr_decl(a) for a in op.attrs]
    results = [typed(s) for s in outs]

    # Required slots first, comma-separated; a list slot in first position is
    # written in brackets. Optional and other list slots follow as keyword
    # groups named after the Paddle slot, so any subset parses unambiguously.
    fmt = []
    required = []
    for i, (paddle, ods, _, arity) in enumerate(ins):
        if arity == "":
            required.append("$%s" % ods)
        elif arity == "*" and i == 0:
            required.append("` ` `[` $%s `]`" % ods)
    fmt.append(" `,` ".join(required))
    for i, (paddle, ods, _, arity) in enumerate(ins):
        if arity == "?":
            fmt.append("(`%s` `(` $%s^ `)`)?" % (paddle, ods))
        elif arity == "*" and i != 0:
            fmt.append("(`%s` `[` $%s^ `]`)?" % (paddle, ods))
    fmt.append("attr-dict `:` functional-type(operands, results)")
    fmt = " ".join(f for f in fmt if f)

    slots_in = ", ".join(("%s%s" % (p, {"?": " (optional)", "*": " (list)"}.get(a, "")))
                         for p, _, _, a in ins) or "none"
    slots_out = ", ".join(("%s%s" % (p, " (list)" if a == "*" else "")) for p, _, _, a in outs) or "none"

    lines = []
    base = "Pd_CommOp" if op.name in catalog.COMM_OPS else "Pd_Op"
    lines.append("def Pd_%sOp : %s<\"%s\"%s> {" % (
        camel(op.name), base, op.name, ", [%s]" % ", ".join(traits) if traits else ""))
    lines.append("  let summary = \"%s\";" % op.summary.replace('"', '\\"'))
    lines.append("  let description = [{")
    lines.append("    Paddle operator `%s`: %s." % (op.name, op.summary))
    lines.append("")
    lines.append("    Input slots: %s. Output slots: %s." % (slots_in, slots_out))
    lines.append("")
    lines.append("    Example:")
    lines.append("")
    lines.append("    ```mlir")
    lines.append("    " + op.example)
    lines.append("    ```")
    lines.append("  }];")
    lines.append("  let arguments = (ins")
    lines.append(",\n".join("    " + a for a in args))
    lines.append("  );")
    lines.append("  let results = (outs %s);" % ", ".join(results))
    lines.append("  let assemblyFormat = \"%s\";" % fmt.replace('"', '\\"'))
    if op.name in catalog.FOLDERS:
        lines.append("  let hasFolder = 1;")
    if op.name in catalog.CANONICALIZERS:
        lines.append("  let hasCanonicalizer = 1;")
    body = infer_body(op, ins)
    if body:
        lines.append("  let extraClassDefinition = [{")
        lines.append("  ::llvm::LogicalResult $cppClass::inferResultTypes(")
        lines.append("      ::llvm::SmallVectorImpl<::mlir::Type> &types, bool emitErrors) {")
        lines.append("    " + body)
        lines.append("  }")
        lines.append("  }];")
    lines.append("}")
    return "\n".join(lines)


def generate():
    names = [op.name for op in catalog.OPS]
    dup = {n for n in names if names.count(n) > 1}
    if dup:
        raise SystemExit("duplicate ops in catalogue: %s" % sorted(dup))
    head = [
        "//===- PdOpsGenerated.td - pd ops from the op catalogue ---------*- tablegen -*-===//",
        "//",
        "// DO NOT EDIT: generated from utils/pd_ops/catalog.py by utils/pd_ops/gen_ods.py.",
        "// Edit the catalogue and run `utils/pd_ops/gen_ods.py --write`.",
        "//",
        "//===----------------------------------------------------------------------===//",
        "",
        "#ifndef PADDLEMLIR_DIALECT_PD_IR_PDOPSGENERATED_TD",
        "#define PADDLEMLIR_DIALECT_PD_IR_PDOPSGENERATED_TD",
        "",
        'include "PaddleMLIR/Dialect/Pd/IR/PdBase.td"',
        "",
    ]
    for op in catalog.OPS:
        for slot in op.ins:
            name = slot.split(":")[0].split("=")[0]
            if name in catalog.LOD_SLOTS and not slot.endswith("?"):
                raise SystemExit("%s: LoD slot %s must be optional (Paddle programs lack it)"
                                 % (op.name, name))
        for i, slot in enumerate(op.outs):
            name = slot.split(":")[0].split("=")[0]
            if name in catalog.LOD_RESULT_SLOTS and (i != len(op.outs) - 1 or slot[-1] in "?*"):
                raise SystemExit("%s: LoD result slot %s must be the last output, required"
                                 % (op.name, name))
    unknown = (catalog.FOLDERS | catalog.CANONICALIZERS | catalog.COMM_OPS) - set(names)
    if unknown:
        raise SystemExit("FOLDERS/CANONICALIZERS/COMM_OPS name ops not in the catalogue: %s" % sorted(unknown))
    body = [gen_op(op) + "\n" for op in catalog.OPS]
    tail = ["#endif // PADDLEMLIR_DIALECT_PD_IR_PDOPSGENERATED_TD", ""]
    return "\n".join(head + body + tail)


def main(argv):
    text = generate()
    if "--write" in argv:
        with open(OUT, "w") as f:
            f.write(text)
    elif "--check" in argv:
        path = argv[argv.index("--check") + 1] if len(argv) > argv.index("--check") + 1 else OUT
        with open(path) as f:
            if f.read() != text:
                print("error: %s is stale; run utils/pd_ops/gen_ods.py --write" % path, file=sys.stderr)
                return 1
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
