"""Round-trips zoo models through paddle-translate and reports per model.

Usage: roundtrip.py DIR NAME...   (DIR/NAME holds model.pdmodel/.pdiparams)
"""
import filecmp
import os
import subprocess
import sys


def run(*args):
    subprocess.run(["paddle-translate", *args], check=True)


def text(model, out):
    run("--import-paddle", model, "-mlir-elide-resource-strings-if-larger=1", "-o", out)
    with open(out) as f:
        return f.read()


root = sys.argv[1]
for name in sys.argv[2:]:
    d = os.path.join(root, name)
    bc = os.path.join(d, "import.mlirbc")
    run("--import-paddle", os.path.join(d, "model.pdmodel"), "--emit-bytecode", "-o", bc)
    run("--export-paddle", bc, "-o", os.path.join(d, "exported"))
    first = text(os.path.join(d, "model.pdmodel"), os.path.join(d, "a.mlir"))
    second = text(os.path.join(d, "exported", "model.pdmodel"), os.path.join(d, "b.mlir"))
    ir = "identical IR" if first == second else "DIFFERENT IR"
    same = filecmp.cmp(os.path.join(d, "model.pdiparams"), os.path.join(d, "exported", "model.pdiparams"),
                       shallow=False)
    print("%s: %s, %s" % (name, ir, "identical params" if same else "DIFFERENT params"))
