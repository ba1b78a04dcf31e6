"""Function.check / Program.check: chad check --candidate through libchad's
chad_check_candidate. The Verdict's json is what `chad check --json`
prints; the shipped examples/check candidate has one wrong entry; chad's own
outputs on the examples are graded all correct; kinks, domain edges,
float32, tolerances and errors."""
import json
import math
import os

import numpy as np
import pytest

import chad
from conftest import EXAMPLES, run_cli
from test_cli_agreement import CASES, ones_like

CHECK = os.path.join(EXAMPLES, "check")


def test_the_shipped_candidate_has_one_wrong_entry():
    args = json.load(open(os.path.join(CHECK, "layer_args.json")))
    cand = json.load(open(os.path.join(CHECK, "layer_candidate.json")))
    with chad.load(os.path.join(CHECK, "layer.chad")) as p:
        v = p.check("layer", args, cand)
        assert v.json == p.layer.check(args, json.dumps(cand)).json   # JSON text: the same
    rc, cli, _ = run_cli("check", os.path.join(CHECK, "layer.chad"), "--args",
                         "@" + os.path.join(CHECK, "layer_args.json"), "--candidate",
                         "@" + os.path.join(CHECK, "layer_candidate.json"), "--json")
    assert rc == 6 and v.json == cli
    assert not v and v.exit_code == 6 and v.status == "wrong"
    assert v.counts == {"correct": 5, "acceptable": 0, "wrong": 1, "outside_domain": 0,
                        "undecided": 0}
    (w,) = v.wrong
    assert (w.path, w.candidate, w.reference) == ("gradient[0][0]", 0.0, 2.1329136780716629e-26)
    assert w.ulps == 4222801370666461901 and w.digits == 0.0
    assert w.enclosure[0].startswith("0.0000000000000000000000000213291367807166")
    assert [e.path for e in v.entries] == ["value", "gradient[0][0]", "gradient[0][1]",
                                           "gradient[0][2]", "gradient[0][3]", "gradient[1]"]
    assert str(v).startswith("WRONG: 1 wrong, 5 correct of 6 entries; first wrong: "
                             "gradient[0][0] (4.2e+18 ulps, 0.0 correct digits)")
    # a looser tolerance does not help a zero against 2e-26; rtol is reported
    v2 = chad.load(os.path.join(CHECK, "layer.chad")).layer.check(args, cand, rtol=0.5)
    assert v2.tolerance == {"rtol": 0.5} and [e.path for e in v2.wrong] == ["gradient[0][0]"]


@pytest.mark.parametrize("case", CASES, ids=["%s-%s" % (c[0], c[1]) for c in CASES])
def test_chads_own_outputs_are_all_correct(case):
    fname, fn, args = case
    with chad.load(os.path.join(EXAMPLES, fname)) as p:
        f = p[fn]
        real_valued = f.result_type == ("real",)
        for ev in ("ball", "fast"):
            outs = [f.eval(*args, full=True, evaluator=ev) if isinstance(args, list) else
                    f.eval(**args, full=True, evaluator=ev)]
            kw = dict(evaluator=ev, full=True)
            outs.append(f.jacobian(*args, **kw) if isinstance(args, list) else
                        f.jacobian(**args, **kw))
            if real_valued:
                outs.append(f.grad(*args, **kw) if isinstance(args, list) else
                            f.grad(**args, **kw))
            for res in outs:
                # certified: exact to the last bit; the fast evaluator's double
                # arithmetic is a few ulps off on gmm and ba (8 ulps seen)
                tol = dict(ulps=0) if ev == "ball" else dict(rtol=1e-12)
                v = f.check(args, res, **tol)
                assert v.ok and v.exit_code == 0, (ev, res.command, str(v))
                assert v.counts["correct"] == len(v.entries) > 0
        # a JVP and a VJP with their directions
        a = args if isinstance(args, dict) else {n: x for (n, _), x in zip(f.params, args)}
        tan = [ones_like(t, a[n]) for n, t in f.params]
        val, dt = f.jvp(a, tan, evaluator="ball")
        v = f.check(a, {"value": val, "jvp": {"direction": tan, "tangent": dt}}, ulps=0)
        assert v.ok and v.counts["correct"] == len(v.entries)


def test_tangent_and_cotangent_parts_and_numpy_candidates():
    with chad.loads("def g (x : real, v : [real]) : [real] = vscale x v") as p:
        args = [2.0, np.array([1.0, -3.0])]
        v = p.g.check(args, {"tangent": np.array([1.0, -3.0])}, tangent=[1.0, [0.0, 0.0]])
        assert v.ok and [e.path for e in v.entries] == ["tangent[0]", "tangent[1]"]
        v = p.g.check(args, {"cotangent": (-2.0, [2.0, 0.0])}, cotangent=[1.0, 0.0])
        assert not v.ok and [e.path for e in v.wrong] == ["cotangent[0]"]
        # NaN in a candidate is wrong, not an error
        v = p.g.check(args, {"value": [math.nan, -6.0]})
        assert [e.status for e in v.entries] == ["wrong", "correct"]


def test_kinks_domain_edges_and_float32():
    with chad.loads("def ab (x : real) : real = abs x\ndef sr (x : real) : real = sqrt x") as p:
        v = p.ab.check([0.0], {"gradient": [0.0]})
        (e,) = v.entries
        assert v.ok and e.status == "acceptable" and e.one_sided == [-1.0, 1.0]
        assert set(e.convention) == {"average", "minimal-norm"} and v.kinks[0].part == "gradient"
        v = p.ab.check([0.0], {"gradient": [1.0]})
        assert v.ok and v.entries[0].convention == ("one-sided",)
        v = p.ab.check([0.0], {"gradient": [2.0]})
        assert not v.ok and v.kinks[0].status == "wrong"
        v = p.sr.check([0.0], {"gradient": [1e300]})
        assert v.ok and v.exit_code == 4 and v.entries[0].status == "outside_domain"
        v = p.sr.check([2.0], {"value": float(np.float32(math.sqrt(2.0)))}, precision="f32",
                       ulps=0)
        assert v.ok and v.precision == "f32"
        v = p.sr.check([2.0], {"value": float(np.float32(math.sqrt(2.0)))}, ulps=0)
        assert not v.ok and v.precision == "f64"


def test_errors():
    with chad.loads("def f (x : real) : real = x * x") as p:
        with pytest.raises(chad.InputError) as e:
            p.f.check([1.0], '{"gradient": [1.0, 2.0]}')
        assert e.value.file == "<candidate>" and e.value.line == 1 and e.value.col > 1
        with pytest.raises(chad.InputError):
            p.f.check([1.0], {"bogus": 1.0})
        with pytest.raises(chad.UsageError):
            p.f.check([1.0], {"value": 1.0}, ulps=1, rtol=0.1)
        with pytest.raises(chad.UsageError):
            p.f.check([1.0], {"value": 1.0}, precision="f16")
        with pytest.raises(chad.UsageError):
            p.check(fn="f")                      # options without a candidate
        assert p.check() == {"f": "real -> real"}
