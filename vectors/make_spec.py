#!/usr/bin/python3
"""Writes vectors/spec.json, the definition of the certified test-vector
suite that `chad vectors` turns into vectors/*.json (spec/vectors.md).

    vectors/make_spec.py [CHAD]      (default ./chad; run from the repository)

Each vector: a program's source, the point (args), a tangent (all ones),
a cotangent (all ones, shaped like the value), flags and a comment. The
groups: every primitive at points that hit its tails, saturation,
subnormals, near-overflow and domain edges; the kinks; every language
construct; the CHAD paper's figures; ADBench GMM, BA and LSTM; programs of the
property-test generator at a fixed seed. Deterministic."""
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CHAD = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "chad")
VERSION = "1.0.0"
GEN_SEED = 20261127
GEN_COUNT = 40

NOTES = {
    "tail": "the argument is where the function saturates; textbook derivative formulas cancel",
    "subnormal": "an argument or a result is a subnormal double",
    "near-overflow": "an argument or a result is near the largest double",
    "domain-edge": "at the edge of the function's or its derivative's domain: entries may be undefined",
    "kink": "the derivative does not exist here; result acceptable: the one-sided results' hull",
    "cancellation": "the exact value is far smaller than the terms that make it",
    "ordinary": "a point of order 1, for reference",
    "construct": "exercises one construct of the language",
    "paper": "a figure of the CHAD paper",
    "large": "an ADBench objective",
    "generated": "a program of the property-test generator",
    "integer": "the function takes or returns integers",
}

UNARY = {
    "tanh": [(20.0, "tail"), (-30.0, "tail"), (300.0, "tail"), (1e-300, "subnormal"), (0.5, "ordinary")],
    "sigmoid": [(40.0, "tail"), (-40.0, "tail"), (-745.0, "tail"), (0.1, "ordinary")],
    "exp": [(709.7, "near-overflow"), (-740.0, "subnormal"), (1e-300, "ordinary")],
    "log": [(1e-300, "ordinary"), (5e-324, "subnormal"), (1.0000000000000002, "cancellation"), (0.0, "domain-edge"), (-1.0, "domain-edge")],
    "sqrt": [(5e-324, "subnormal"), (1e300, "near-overflow"), (0.0, "domain-edge")],
    "sin": [(1e22, "ordinary"), (3.141592653589793, "cancellation")],
    "cos": [(1.5707963267948966, "cancellation"), (1e22, "ordinary")],
    "tan": [(1.5707963267948966, "near-overflow"), (0.5, "ordinary")],
    "log1p": [(1e-300, "subnormal"), (1e-17, "cancellation"), (30.0, "ordinary"), (800.0, "ordinary"), (-1.0, "domain-edge")],
    "expm1": [(1e-300, "subnormal"), (1e-17, "cancellation"), (30.0, "ordinary"), (-40.0, "tail")],
    "softplus": [(1e-300, "ordinary"), (30.0, "tail"), (800.0, "tail"), (-800.0, "tail")],
    "atan": [(1e300, "tail"), (1e-300, "subnormal")],
    "erf": [(5.0, "tail"), (27.0, "tail"), (1e-300, "subnormal")],
    "erfc": [(27.0, "tail"), (-5.0, "tail")],
    "lgamma": [(1e-300, "ordinary"), (-2.5, "ordinary"), (171.6, "near-overflow"), (1.4616321449683622, "cancellation"), (0.0, "domain-edge")],
    "sinh": [(710.0, "near-overflow"), (1e-300, "subnormal")],
    "cosh": [(710.0, "near-overflow"), (0.0, "ordinary")],
    "asinh": [(1e300, "tail"), (1e-300, "subnormal")],
    "acosh": [(1.0000000000000002, "domain-edge"), (1e300, "tail"), (1.0, "domain-edge")],
    "atanh": [(0.9999999999999999, "domain-edge"), (1e-300, "subnormal"), (1.0, "domain-edge")],
    "exp2": [(1023.9, "near-overflow"), (-1074.0, "subnormal")],
    "log2": [(5e-324, "subnormal"), (1.0000000000000002, "cancellation")],
    "abs": [(-2.0, "ordinary"), (5e-324, "subnormal")],
}
BINARY = {
    "pow": [((2.0, 1000.5), "near-overflow"), ((0.5, 1070.0), "subnormal"), ((5e-324, 1e-300), "subnormal"),
            ((-2.0, 3.0), "domain-edge"), ((0.0, 2.0), "domain-edge"), ((3.0, -3.0), "ordinary")],
    "div": [((1e300, 1e160), "near-overflow"), ((1e-300, 1e-170), "subnormal")],
    "atan2": [((1e-300, 1e300), "tail"), ((1.0, 1.0), "ordinary")],
    "hypot": [((1e300, 1e300), "near-overflow"), ((1e-300, 1e-300), "subnormal")],
}
INFIX = {"div": "/"}
KINKS = [
    ("abs at 0", "def f (x : real) : real = abs x", [0.0]),
    ("relu at 0: max x 0", "def f (x : real) : real = max x 0.0", [0.0]),
    ("a tie of max", "def f (x : real, y : real) : real = max x y", [1.5, 1.5]),
    ("a tie of min", "def f (x : real, y : real) : real = min x y", [-2.0, -2.0]),
    ("if x > 0 at 0", "def f (x : real) : real = if x > 0.0 then x * x + x else 0.0", [0.0]),
    ("floor at an integer", "def f (x : real) : real = toreal (floor x) * x", [2.0]),
    ("sign at 0", "def f (x : real) : real = toreal (sign x) * x", [0.0]),
    ("atan2 on its branch cut", "def f (y : real, x : real) : real = atan2 y x", [0.0, -1.0]),
    ("hypot at the origin", "def f (x : real, y : real) : real = hypot x y", [0.0, 0.0]),
    ("sides that agree: differentiable", "def f (x : real) : real = if x > 0.0 then 2.0 * x else x + x", [0.0]),
]
CONSTRUCTS = [
    ("let", "def f (x : real) : real = let y = x * x in y * y + y", [1.5]),
    ("a local function applied", "def f (x : real) : real = (fun (a : real) -> a * x) (x + 1.0)", [0.5]),
    ("a higher-order argument", "def f (x : real) : real = let tw = fun (g : real -> real) (y : real) -> g (g y) in tw (fun (z : real) -> sin z * x) x", [0.7]),
    ("pairs, fst, snd", "def f (p : real * real) : real * real = (snd p * fst p, fst p - snd p)", [[2.0, -3.0]]),
    ("sums and case", "def f (x : real) : real = case (if x < 1.0 then (inl x : real + real) else inr (x * x)) of inl a -> a * 3.0 | inr b -> b", [0.25]),
    ("iter", "def f (x : real, n : int) : real = iter n (fun (a : real) -> a * x + 1.0) 1.0", [0.9, 7]),
    ("build and index", "def f (v : [real]) : real = sum (build (length v) (fun i -> v[i] * v[(i + 1) % length v]))", [[1.0, 2.0, 3.0, -0.5]]),
    ("map", "def f (v : [real]) : [real] = map (fun (a : real) -> exp a * a) v", [[0.5, -1.0, 2.0]]),
    ("dot and vscale", "def f (v : [real], s : real) : real = dot v (vscale s v)", [[1.0, 2.0], 3.0]),
    ("matvec", "def f (m : [[real]], v : [real]) : [real] = matvec m v", [[[1.0, 2.0], [3.0, 4.0]], [0.5, -0.5]]),
    ("logsumexp", "def f (v : [real]) : real = logsumexp v", [[1e308, 1e308]]),
    ("logsumexp near 0", "def f (v : [real]) : real = logsumexp v", [[-0.6931471805599453, -0.6931471805599453]]),
    ("toreal of an int", "def f (x : real, n : int) : real = toreal n * x", [2.5, 9007199254740993]),
    ("vadd and vmul", "def f (a : [real], b : [real]) : [real] = vmul (vadd a b) a", [[1.0, 2.0], [3.0, 4.0]]),
    ("nested patterns in let, fun and case",
     "def f (p : real * (real * real)) : real =\n"
     "  let (a, (b, c)) = p in\n"
     "  let g = fun ((x : real, y : real), z : real) -> x * y - z in\n"
     "  let s = if a < 1.0 then (inl (b, c) : (real * real) + real) else inr a in\n"
     "  g ((a, b), c) * (case s of inl (u, v) -> u * v | inr w -> w)", [[0.5, [1.5, -0.7]]]),
    ("inl as a function", "def f (v : [real]) : real =\n"
     "  sum (map (fun (s : real + real) -> case s of inl a -> a * a | inr b -> b) (map inl v))", [[1.5, -2.0]]),
    ("concat, reverse, update, slice",
     "def f (a : [real], b : [real], x : real) : [real] = slice (concat (reverse a) (update b 0 (x * x))) 1 3",
     [[1.0, 2.0, 3.0], [4.0, 5.0], 0.5]),
    ("zip, unzip, range", "def f (a : [real], b : [real]) : real =\n"
     "  let (u, v) = unzip (zip a b) in\n"
     "  sum (map (fun (s, t) -> s * sin t) (zip (vmul u v) (map toreal (range (length u)))))",
     [[1.0, 2.0, 3.0], [0.5, -0.5]]),
    ("fold", "def f (a : [real], x : real) : real =\n"
     "  let (s, t) = fold (length a) (fun i (s, t) -> (s + a[i] * x, t * cos (a[i] + toreal i))) (0.0, 1.0) in\n"
     "  s * t", [[1.0, 2.0, 0.25], 0.5]),
]
PAPER = ["fig1a", "fig1b", "fig2a", "fig2b"]


def chad_json(*args):
    p = subprocess.run([CHAD, *args], capture_output=True, text=True)
    if p.returncode not in (0, 4):
        raise SystemExit(f"make_spec: chad {' '.join(args)}: exit {p.returncode}: {p.stderr.strip()}")
    return json.loads(p.stdout)


def ones(v):
    if isinstance(v, list):
        return [ones(x) for x in v]
    if isinstance(v, dict):
        return {k: ones(x) for k, x in v.items()}
    if isinstance(v, bool) or v is None:
        return None
    if isinstance(v, int):
        return None   # the tangent of an int is unit
    return 1.0


def ones_value(v):
    """The all-ones cotangent of a value: every number in these groups'
    results is a real (an integral real prints without a point)."""
    if isinstance(v, list):
        return [ones_value(x) for x in v]
    if isinstance(v, dict):
        return {k: ones_value(x) for k, x in v.items()}
    if isinstance(v, bool) or v is None:
        return None
    return 1.0


def vector(comment, flags, source, args, fn=None):
    with tempfile.NamedTemporaryFile("w", suffix=".chad", delete=False) as f:
        f.write(source + "\n")
        path = f.name
    try:
        value = chad_json("eval", path, "--args", json.dumps(args), "--eval", "ball")
    finally:
        os.unlink(path)
    return {"comment": comment, "flags": flags, "source": source + "\n", "args": args,
            "tangent": ones(args), "cotangent": ones_value(value)}


def main():
    groups = []
    prims = []
    for op, pts in UNARY.items():
        for x, flag in pts:
            prims.append(vector(f"{op} x at x = {x!r}", [flag], f"def f (x : real) : real = {op} x", [x]))
    for op, pts in BINARY.items():
        body = f"x {INFIX[op]} y" if op in INFIX else f"{op} x y"
        for (x, y), flag in pts:
            prims.append(vector(f"{body} at ({x!r}, {y!r})", [flag],
                                f"def f (x : real, y : real) : real = {body}", [x, y]))
    groups.append({"name": "primitives", "comment": "every real primitive at points chosen to hit its tails, "
                   "saturation, subnormals, near-overflow and domain edges", "vectors": prims})
    groups.append({"name": "kinks", "comment": "points where the derivative does not exist (and one where "
                   "the sides agree)",
                   "vectors": [vector(c, ["kink"], s, a) for c, s, a in KINKS]})
    groups.append({"name": "constructs", "comment": "one vector per construct of the language",
                   "vectors": [vector(c, ["construct"] + (["integer"] if "int" in s else []), s, a)
                               for c, s, a in CONSTRUCTS]})
    paper = []
    for name in PAPER:
        with open(os.path.join(ROOT, "examples", name + ".chad")) as f:
            src = f.read().rstrip("\n")
        with open(os.path.join(ROOT, "examples", name + ".json")) as f:
            args = json.load(f)
        paper.append(vector(f"examples/{name}.chad", ["paper"], src, args))
    groups.append({"name": "paper", "comment": "the CHAD paper's figures (examples/)", "vectors": paper})
    with open(os.path.join(ROOT, "examples", "gmm.chad")) as f:
        gsrc = f.read().rstrip("\n")
    with open(os.path.join(ROOT, "examples", "gmm_test.json")) as f:
        gargs = json.load(f)
    with open(os.path.join(ROOT, "examples", "ba.chad")) as f:
        bsrc = f.read().rstrip("\n")
    # three observations of ADBench's BA test instance, perturbed so that they differ
    bargs = json.loads(subprocess.run(
        [sys.executable, os.path.join(ROOT, "scripts", "adbench_ba_to_json.py"),
         os.path.join(ROOT, "data", "adbench", "ba", "test.txt"), "--obs", "3", "--perturb", "1"],
        capture_output=True, text=True, check=True).stdout)
    with open(os.path.join(ROOT, "examples", "lstm.chad")) as f:
        lsrc = f.read().rstrip("\n")
    # ADBench's lstm_l2_c1024.txt cut down: its 2 layers, the first 3
    # characters, the first 4 of the 14 entries of every gate, row and state
    full = json.loads(subprocess.run(
        [sys.executable, os.path.join(ROOT, "scripts", "adbench_lstm_to_json.py"),
         os.path.join(ROOT, "data", "adbench", "lstm", "lstm_l2_c1024.txt"), "--chars", "3"],
        capture_output=True, text=True, check=True).stdout)
    b0, b = 14, 4
    largs = {"main_params": [[r[g * b0 + i] for g in range(4) for i in range(b)] for r in full["main_params"]],
             "extra_params": [r[:b] for r in full["extra_params"]],
             "state": [r[:b] for r in full["state"]],
             "sequence": [r[:b] for r in full["sequence"]]}
    groups.append({"name": "adbench", "comment": "ADBench objectives: GMM on examples/gmm_test.json, "
                   "BA on three observations of data/adbench/ba/test.txt (perturbed, seed 1), "
                   "LSTM on data/adbench/lstm/lstm_l2_c1024.txt cut to 2 layers, 3 characters of 4 bits",
                   "vectors": [vector("ADBench GMM, examples/gmm.chad", ["large"], gsrc, gargs),
                               vector("ADBench BA, examples/ba.chad", ["large"], bsrc, bargs),
                               vector("ADBench LSTM, examples/lstm.chad", ["large"], lsrc, largs)]})
    with tempfile.TemporaryDirectory() as d:
        env = dict(os.environ, PROPTEST_EMIT=d, PROPTEST_N=str(GEN_COUNT), PROPTEST_SEED=str(GEN_SEED))
        subprocess.run([os.path.join(ROOT, "proptests", "run.sh")], env=env, check=True,
                       stdout=subprocess.DEVNULL)
        gen = []
        for i in range(GEN_COUNT):
            with open(os.path.join(d, f"prog-{i}.chad")) as f:
                src = f.read().rstrip("\n")
            with open(os.path.join(d, f"prog-{i}.json")) as f:
                j = json.load(f)
            v = vector(f"generated program {i} (seed {GEN_SEED})", ["generated"], src, j["args"])
            v["tangent"], v["cotangent"] = j["tangent"], j["cotangent"]
            gen.append(v)
    groups.append({"name": "generated", "comment": f"programs of the property-test generator, seed {GEN_SEED}",
                   "vectors": gen})
    spec = {"suite": "CHAD-C certified derivative test vectors", "version": VERSION, "notes": NOTES,
            "groups": groups}
    with open(os.path.join(ROOT, "vectors", "spec.json"), "w") as f:
        json.dump(spec, f, indent=1)
        f.write("\n")
    print(f"vectors/spec.json: {sum(len(g['vectors']) for g in groups)} vectors in {len(groups)} groups")


if __name__ == "__main__":
    main()
