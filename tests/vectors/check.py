#!/usr/bin/python3
"""The committed test-vector suite (vectors/) against its definition:
`chad vectors` regenerates it byte for byte (deterministic), every group
file validates against vectors/derivative_vectors_schema_v1.json, and every
float64 reference lies in its enclosure (and its float32 reference is the
float32 nearest to some point of it).

    tests/vectors/check.py [CHAD]      (default ./chad)

Ends with "N passed, N failed"."""
import filecmp
import glob
import json
import math
import os
import struct
import subprocess
import sys
import tempfile
from decimal import Decimal

import jsonschema

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tests"))
from tally import check, summary  # noqa: E402
CHAD = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "chad")



def flat(v):
    if isinstance(v, list):
        for x in v:
            yield from flat(x)
    elif isinstance(v, dict):
        for x in v.values():
            yield from flat(x)
    elif v is None or isinstance(v, bool):
        return
    else:
        yield v


def f32(x):
    return struct.unpack("f", struct.pack("f", x))[0]


def main():
    os.chdir(ROOT)
    with tempfile.TemporaryDirectory() as d:
        p = subprocess.run([CHAD, "vectors", d, "--spec", "vectors/spec.json"], capture_output=True, text=True)
        check(p.returncode == 0, f"chad vectors: exit {p.returncode}: {p.stderr.strip()}")
        names = sorted(os.path.basename(f) for f in glob.glob(os.path.join(d, "*.json")))
        for n in names:
            check(filecmp.cmp(os.path.join(d, n), os.path.join("vectors", n), shallow=False),
                  f"vectors/{n} differs from what chad vectors writes now (rerun: ./chad vectors vectors)")
    with open("vectors/derivative_vectors_schema_v1.json") as f:
        schema = json.load(f)
    total = 0
    for path in sorted(glob.glob("vectors/*.json")):
        base = os.path.basename(path)
        if base in ("spec.json", "index.json", "derivative_vectors_schema_v1.json"):
            continue
        with open(path) as f:
            g = json.load(f)
        try:
            jsonschema.validate(g, schema)
            check(True, "")
        except jsonschema.ValidationError as e:
            check(False, f"{path}: schema: {e.message}")
        check(g["numberOfVectors"] == len(g["vectors"]), f"{path}: numberOfVectors")
        for v in g["vectors"]:
            total += 1
            for part in ("value", "jvp", "vjp"):
                r = v[part]
                if "enclosures" not in r:
                    continue
                refs = list(flat(r["f64"])) if not isinstance(r["f64"], (int, float, str)) else [r["f64"]]
                for i, (ref, e, r32) in enumerate(zip(refs, r["enclosures"], r["f32"])):
                    if not isinstance(ref, (int, float)) or e is None:
                        continue
                    mid, rad = Decimal(e["mid"]), Decimal(e["rad"])
                    x = Decimal(ref)
                    # the double is the nearest to a point of [mid - rad, mid + rad]:
                    # that point is within half an ulp of it
                    ulp = Decimal(math.ulp(float(ref)))
                    check(abs(x - mid) <= rad + ulp,
                          f"{path} tcId {v['tcId']} {part}[{i}]: {ref} not at {e['mid']} +- {e['rad']}")
                    if isinstance(r32, (int, float)):
                        u32 = max(2.0 ** -149, 2.0 ** (math.frexp(r32)[1] - 24)) if r32 else 2.0 ** -149
                        check(abs(Decimal(r32) - mid) <= rad + Decimal(u32),
                              f"{path} tcId {v['tcId']} {part}[{i}]: f32 {r32} not at the enclosure")
    check(total > 0, "vectors: none")
    print(f"vectors: {total} vectors checked")
    return summary()


if __name__ == "__main__":
    sys.exit(main())
