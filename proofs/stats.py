#!/usr/bin/env python3
"""The proof statistics of proofs/README.md, generated from the committed
reports: each job's proofs/wp-report-JOB.json where it exists, else the
merged proofs/wp-report.json (the goals of the functions the job selects).

  stats.py                 print the tables (Markdown)
  stats.py --update FILE   replace the text between the lines
                           "<!-- stats:begin -->" and "<!-- stats:end -->"
                           of FILE with them
  stats.py --check FILE    exit 1 if FILE's tables are not the current ones
  stats.py --run GATE START LOAD0 COMMIT RESULT PROVED ACCEPTED
                           write GATE's row of proofs/runs.tsv (replacing
                           its previous one) for a run started at epoch
                           START with load average LOAD0 ("1/5/15 min") at
                           commit COMMIT, ending now; PROVED and ACCEPTED
                           are comma-separated job names, the jobs run and
                           those accepted from the record (CPU-s from the
                           run jobs' build/proofs/time-JOB); then the
                           runs table of proofs/README.md
  stats.py --update-runs FILE  only the runs table of FILE

Three tables: per job (what it proves, functions, goals, how the goals were
closed, the job's time from proofs/record.tsv), per CHAD rule (the card's
rule, the file under src/chad/ of each of its functions, their goals),
and per prover; and, between "<!-- runs:begin -->" and "<!-- runs:end -->",
the latest run of each gate from proofs/runs.tsv. The jobs and their selections come from proofs/jobs.sh
(wp-run.sh's dry run), so the tables follow the gate as it is. Fails if a
rule function below is not defined in src/chad/ or has no goals in the
reports, or if a function of the rules jobs is in no rule's row.
"""
import json
import os
import re
import subprocess
import sys

os.chdir(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

# What each job proves (the property column); the numbers are computed.
WHAT = {
    "types": "the type table: hash-consed types, structural equality, first-order, linear, tangent checks",
    "z3-pref": "table appends (types, contexts, terms) and two checker helpers, Z3 first",
    "kernel-1": "term constructors (typing rule of each kind), contexts",
    "kernel-2": "term constructors, ops table, raw terms",
    "kernel-3": "every kernel function no other job names",
    "checker-1": "the type checker: elaboration per raw kind, errors",
    "checker-2": "the type checker: elaboration per raw kind, the entry chk_elab",
    "chad-1": "CHAD builders (b_*), environment, memo tables, entry-point sync",
    "chad-2": "CHAD builders, P(a->b)'s nodes, memo tables",
    "chad-3": "CHAD builders, context translation step, memo init",
    "ty-tr": "P, T, C on types",
    "tr-ctx": "P, T, C on contexts",
    "onehot": "R(var)'s one-hot cotangent of the context",
    "simp": "the simplifier's switch on the kind: kernel invariant kept, appends only, termination",
    "simplify": "the simplifier's engine: rounds, counts, rewrites",
    "rev-fns": "R's leaf rules (var, unit, constants), R(pair)'s cotangent map, passes",
    "rev-cvc5": "the simplifier's guarantee chad_simplify, R of a constant primitive",
    "rev-under": "R under a binder (rev_under)",
    "rev-dispatch": "R itself (rev, rev_rule), the entry points, R(op)'s builder",
    "rev-lemmas": "the 26 lemmas of reverse_spec.h",
    "rev-rules": "R's rules with subterms (pair, let, index, app, one-child, case, iter, loop, build, map, lam)",
    "fwd-fns": "F's leaf rules (var, unit, constants), passes",
    "fwd-cvc5": "F of a constant, the type-translation steps",
    "fwd-under": "F under a binder (fwd_under)",
    "fwd-dispatch": "F itself (fwd, fwd_rule), the entry points, F(op)'s builder",
    "fwd-rules": "F's rules with subterms (pair, let, index, app, one-child, case, iter, loop, build, map, lam)",
}

# The card's rules (../shared/chad-rules.md §4, §5) and the functions that
# build them, "FILE: functions; FILE: ..." (FILE under src/chad/): reverse
# mode, forward mode, shared tails.
RULES = [
    ("var k", "reverse/var.c: rev_var r_var r_onehot rev_onehot_lin",
     "forward/var.c: fwd_var; forward.c: f_var f_proj", ""),
    ("unit, constants", "reverse/const.c: rev_const rev_zero_lin rev_rconst rev_const_prim",
     "forward/const.c: fwd_const; forward.c: f_zero f_rconst f_const_prim const_copy", ""),
    ("let t (x.s)", "reverse/let.c: rev_let rev_let_body; reverse/let_lin.c: rev_let_lin",
     "forward/let.c: fwd_let fwd_let_body fwd_let_lin", "sharing.c: let_let_tail"),
    ("pair t s", "reverse/pair.c: rev_pair rev_pair_body; reverse/pair_lin.c: rev_pair_lin",
     "forward/pair.c: fwd_pair fwd_pair_body fwd_pair_lin", "sharing.c: let_pair_tail"),
    ("fst t, snd t", "reverse/unary.c: rev_unary rev_proj_build", "forward/unary.c: fwd_unary fwd_proj_build",
     "sharing.c: let_unary_tail"),
    ("inl t, inr t", "reverse/unary.c: rev_inj_build", "forward/unary.c: fwd_inj_build", ""),
    ("sum a", "reverse/unary.c: rev_sum_build", "forward/unary.c: fwd_sum_build", ""),
    ("length a", "reverse/unary.c: rev_length_build", "forward/unary.c: fwd_length_build", ""),
    ("op o ts", "reverse/unary.c: rev_op_build", "forward/unary.c: fwd_op_build", ""),
    ("lam (x.t)", "reverse/lam.c: rev_lam rev_lam_prim rev_lam_pbody rev_lam_inner rev_lam_lin rev_lam_back",
     "forward/lam.c: fwd_lam fwd_lam_prim fwd_lam_pbody fwd_lam_inner fwd_lam_tan fwd_lam_dv; "
     "forward.c: tan_lin_ctx_lemma",
     "sharing.c: lam_apply lam_pair_let"),
    ("app t s", "reverse/app.c: rev_app rev_app_body rev_app_lin", "forward/app.c: fwd_app fwd_app_body fwd_app_lin",
     "sharing.c: app_primal let_app_tail"),
    ("case t (a.s1) (b.s2)", "reverse/case.c: rev_case rev_case_body rev_case_last rev_case_branch rev_case_lin",
     "forward/case.c: fwd_case fwd_case_body fwd_case_last fwd_case_branch fwd_case_lin", "sharing.c: case_tail"),
    ("iter n (x.b) s", "reverse/iter.c: rev_iter rev_iter_body rev_iter_last",
     "forward/iter.c: fwd_iter fwd_iter_body fwd_iter_last", "sharing.c: iter_tail"),
    ("loop n (x.b) s", "reverse/loop.c: rev_loop rev_loop_body rev_loop_last rev_loop_case rev_loop_branch",
     "forward/loop.c: fwd_loop fwd_loop_body fwd_loop_last fwd_loop_case fwd_loop_branch", "sharing.c: loop_tail"),
    ("build n (i.b)", "reverse/build.c: rev_build rev_build_body rev_build_lin",
     "forward/build.c: fwd_build fwd_build_body fwd_build_lin", "sharing.c: build_primal let_build_tail"),
    ("index a i", "reverse/index.c: rev_index rev_index_body; reverse/index_lin.c: rev_index_lin",
     "forward/index.c: fwd_index fwd_index_body fwd_index_lin", "sharing.c: let_index_tail"),
    ("map (x.b) a", "reverse/map.c: rev_map rev_map_body rev_map_lin rev_map_cs rev_map_sum rev_map_back rev_map_plus",
     "forward/map.c: fwd_map fwd_map_body fwd_map_lin fwd_map_el", "sharing.c: map_primal"),
]


def rule_cell(cell):
    """[(file under src/chad/, [functions])] of a RULES cell."""
    out = []
    for part in filter(None, (p.strip() for p in cell.split(";"))):
        where, fns = part.split(":", 1)
        out.append((where.strip(), fns.split()))
    return out
RULE_JOBS = ("rev-rules", "fwd-rules")


def calls():
    """Each job's wp-run.sh call (jobs.sh's job_invocation), in queue order."""
    script = ('set -euo pipefail; export PROVE_RULES=1; . proofs/jobs.sh; '
              'for j in "${jobs_table[@]}"; do IFS="|" read -r n p t s <<<"$j"; '
              'job_invocation "$n" "$p" "$t" "$s"; done')
    out = subprocess.run(["bash", "-c", script], capture_output=True, text=True, check=True).stdout
    return [json.loads(line) for line in out.split("\n") if line.startswith("{")]


def selection(args):
    for opt in ("-wp-fct", "-wp-skip-fct", "-wp-prop"):
        if opt in args:
            return opt, args[args.index(opt) + 1].split(",")
    return None, []


def goals_of(entry):
    """(valid, total, qed, per prover totals) of a function's or lemma's goals."""
    sec = entry.get("wp:section", {})
    main = sec.get("wp:main", {})
    prov = {k: int(v.get("valid", 0)) for k, v in sec.items() if k != "wp:main"}
    return int(main.get("valid", 0)), int(main.get("total", 0)), prov


def lemma_goals(report):
    valid = total = 0
    prov = {}
    for goals in report.get("wp:axiomatics", {}).values():
        for name, res in goals.items():
            if name == "wp:section":
                continue
            main = res.get("wp:main", {})
            valid += int(main.get("valid", 0))
            total += int(main.get("total", 0))
            for k, v in res.items():
                if k != "wp:main":
                    prov[k] = prov.get(k, 0) + int(v.get("valid", 0))
    return valid, total, prov


def collect():
    merged = json.load(open("proofs/wp-report.json"))
    jobs = calls()
    own = {}   # job -> report of its own, if committed
    for c in jobs:
        path = c["report"]
        if os.path.exists(path):
            own[c["name"]] = json.load(open(path))
    claimed = set()
    for c in jobs:
        opt, names = selection(c["args"])
        if c["name"] in own:
            claimed |= set(own[c["name"]].get("wp:functions", {}))
        elif opt == "-wp-fct":
            claimed |= set(names)
    rows = []
    fn_goals = {}
    for c in jobs:
        name = c["name"]
        opt, names = selection(c["args"])
        src = own.get(name)
        if src is not None:
            fns = sorted(src.get("wp:functions", {}))
            rep = src
            origin = "own"
        else:
            rep = merged
            origin = "merged"
            if opt == "-wp-fct":
                fns = [f for f in names if f in merged["wp:functions"]]
            elif opt == "-wp-skip-fct":
                fns = sorted(f for f in merged["wp:functions"] if f not in claimed and f not in names)
            else:
                fns = []
        valid = total = 0
        prov = {}
        for f in fns:
            v, t, p = goals_of(rep["wp:functions"][f])
            fn_goals[f] = (v, t, name)
            valid += v
            total += t
            for k, n in p.items():
                prov[k] = prov.get(k, 0) + n
        if opt == "-wp-prop":
            v, t, p = lemma_goals(rep if src is not None else merged)
            valid, total, prov = v, t, p
        rows.append({"job": name, "fns": fns, "valid": valid, "total": total, "prov": prov,
                     "origin": origin, "retried": len(rep.get("wp:retried", [])) if src is not None else None})
    return rows, fn_goals


def record_times():
    times = {}
    if os.path.exists("proofs/record.tsv"):
        for line in open("proofs/record.tsv"):
            f = line.rstrip("\n").split("\t")
            if len(f) == 7 and not line.startswith(("#", "job\t")):
                times[f[0]] = f[5]
    return times


def defined_in(fn, where):
    """Whether fn is defined in src/chad/WHERE."""
    pat = re.compile(r"^\s*[A-Za-z_][A-Za-z0-9_ ]*[ *]" + re.escape(fn) + r"\(", re.M)
    return bool(pat.search(open(os.path.join("src/chad", where)).read()))


def tables():
    rows, fn_goals = collect()
    times = record_times()
    out = []
    gv = sum(r["valid"] for r in rows)
    gt = sum(r["total"] for r in rows)
    out.append("| job | gate | proves | functions | goals valid/total | by Qed | wall s (record) |")
    out.append("|---|---|---|---|---|---|---|")
    for r in rows:
        gate = "full" if r["job"] in RULE_JOBS else "both"
        nf = len(r["fns"]) if r["fns"] else f"{r['total']} lemmas"
        qed = r["prov"].get("qed", 0)
        out.append(f"| `{r['job']}` | {gate} | {WHAT.get(r['job'], '')} | {nf} | "
                   f"{r['valid']}/{r['total']} | {qed} | {times.get(r['job'], '')} |")
    quick = [r for r in rows if r["job"] not in RULE_JOBS]
    out.append(f"| **all** | | full gate: {len(rows)} jobs; quick gate: {len(quick)} | "
               f"{sum(len(r['fns']) for r in rows)} | **{gv}/{gt}** (quick gate "
               f"{sum(r['valid'] for r in quick)}/{sum(r['total'] for r in quick)}) | "
               f"{sum(r['prov'].get('qed', 0) for r in rows)} | |")
    out.append("")
    # per rule
    errors = []
    in_rules = set(f for r in rows if r["job"] in RULE_JOBS for f in r["fns"])
    mapped = set()
    out.append("| rule (card §4, §5) | R: file under src/chad/: functions | F: file: functions | shared: file: functions | goals R / F / shared | jobs |")
    out.append("|---|---|---|---|---|---|")
    for rule, rfs, ffs, sfs in RULES:
        cells, counts, jobs = [], [], set()
        for cell in (rfs, ffs, sfs):
            v = t = 0
            parts = rule_cell(cell)
            for where, fs in parts:
                for f in fs:
                    mapped.add(f)
                    if not defined_in(f, where):
                        errors.append(f"{f} is not defined in src/chad/{where}")
                    if f not in fn_goals:
                        errors.append(f"{f} has no goals in the reports")
                        continue
                    v += fn_goals[f][0]
                    t += fn_goals[f][1]
                    jobs.add(fn_goals[f][2])
            cells.append("; ".join(f"`{where}`: " + ", ".join(f"`{f}`" for f in fs) for where, fs in parts) or "-")
            counts.append(f"{v}/{t}" if parts else "-")
        out.append(f"| {rule} | {cells[0]} | {cells[1]} | {cells[2]} | {' ; '.join(counts)} | "
                   f"{', '.join(sorted(jobs))} |")
    for f in sorted(in_rules - mapped):
        errors.append(f"{f} (a rules job's function) is in no rule's row")
    out.append("")
    # per prover
    prov = {}
    for r in rows:
        for k, n in r["prov"].items():
            prov[k] = prov.get(k, 0) + n
    out.append("| closed by | goals |")
    out.append("|---|---|")
    for k in sorted(prov, key=lambda k: -prov[k]):
        if prov[k]:
            out.append(f"| {k} | {prov[k]} |")
    out.append("")
    own = [r["job"] for r in rows if r["origin"] == "own"]
    out.append(f"Generated by `proofs/stats.py` from the committed reports: the jobs' own "
               f"reports ({', '.join(f'`{j}`' for j in own)}) and, for the other jobs, the "
               f"merged `proofs/wp-report.json`. Goals by Qed: closed by WP's simplifier, "
               f"no prover called; a goal on which racing provers (the lemma job) both "
               f"succeeded counts for each.")
    if errors:
        sys.exit("stats.py: " + "\n  ".join(errors))
    return "\n".join(out) + "\n"


# The latest run of each gate, one row per gate (the next run of a gate
# replaces its row): written by prove.sh and incremental.sh at the end of
# a run, rendered into proofs/README.md "Time of the latest runs".
RUNS = "proofs/runs.tsv"
RUN_COLS = ("gate", "date_utc", "commit", "result", "jobs_run", "jobs_accepted", "goals_valid",
            "goals_total", "wall_s", "cpu_s", "load_start", "load_end")
GATES = (("prove", "`make prove`: the full gate, cold"),
         ("prove-quick", "`make prove-quick`: without the rules jobs, cold"),
         ("prove-incremental", "`make prove-incremental`: jobs not accepted from the record, cold"))


def read_runs():
    runs = {}
    if os.path.exists(RUNS):
        for line in open(RUNS):
            f = line.rstrip("\n").split("\t")
            if len(f) == len(RUN_COLS) and f[0] != "gate":
                runs[f[0]] = dict(zip(RUN_COLS, f))
    return runs


def put_run(gate, start, load0, commit, result, proved, accepted):
    import datetime
    import time
    end = int(time.time())   # before the reports are read (calls() takes seconds)
    load1 = "/".join(open("/proc/loadavg").read().split()[:3])
    proved = [j for j in proved.split(",") if j]
    accepted = [j for j in accepted.split(",") if j]
    valid = total = 0   # the goals of this run's jobs, from their reports
    for c in calls():
        if c["name"] in proved + accepted and os.path.exists(c["report"]):
            main = json.load(open(c["report"]))["wp:global"]["wp:main"]
            valid += int(main.get("valid", 0))
            total += int(main.get("total", 0))
    cpu = 0
    for j in proved:
        tf = f"build/proofs/time-{j}"
        if os.path.exists(tf):
            cpu += int(open(tf).read().split()[1])
    row = {"gate": gate,
           "date_utc": datetime.datetime.fromtimestamp(int(start), datetime.timezone.utc).strftime("%Y-%m-%d %H:%M"),
           "commit": commit, "result": result, "jobs_run": str(len(proved)),
           "jobs_accepted": str(len(accepted)), "goals_valid": str(valid), "goals_total": str(total),
           "wall_s": str(end - int(start)), "cpu_s": str(cpu),
           "load_start": load0, "load_end": load1}
    runs = read_runs()
    runs[gate] = row
    order = [g for g, _ in GATES] + sorted(set(runs) - {g for g, _ in GATES})
    with open(RUNS, "w") as fh:
        fh.write("\t".join(RUN_COLS) + "\n")
        for g in order:
            if g in runs:
                fh.write("\t".join(runs[g][c] for c in RUN_COLS) + "\n")


def runs_table():
    runs = read_runs()
    out = ["| gate | date (UTC), commit | result | jobs run / accepted from the record | goals valid/total | wall s | CPU-s "
           "(jobs run) | load average at start ; end (1/5/15 min) |",
           "|---|---|---|---|---|---|---|---|"]
    for gate, what in GATES:
        r = runs.get(gate)
        if r is None:
            out.append(f"| {what} | no run recorded yet | | | | | | |")
            continue
        out.append(f"| {what} | {r['date_utc']}, `{r['commit']}` | {r['result']} | "
                   f"{r['jobs_run']} / {r['jobs_accepted']} | {r['goals_valid']}/{r['goals_total']} | "
                   f"{r['wall_s']} | {r['cpu_s']} | {r['load_start']} ; {r['load_end']} |")
    out.append("")
    out.append("Generated by `proofs/stats.py` from `proofs/runs.tsv`, which each run of a gate "
               "rewrites (its own row). The load average counts every process on the machine, "
               "the gate's own jobs included.")
    return "\n".join(out) + "\n"


def replace_block(doc, name, text, path):
    begin, end = f"<!-- {name}:begin -->\n", f"<!-- {name}:end -->"
    if begin not in doc or end not in doc:
        sys.exit(f"stats.py: no {name} markers in {path}")
    head, rest = doc.split(begin, 1)
    _, tail = rest.split(end, 1)
    return head + begin + text + end + tail


def main(argv):
    if len(argv) == 9 and argv[1] == "--run":
        put_run(*argv[2:])
        argv = [argv[0], "--update-runs", "proofs/README.md"]
    if len(argv) == 3 and argv[1] == "--update-runs":
        doc = open(argv[2]).read()
        open(argv[2], "w").write(replace_block(doc, "runs", runs_table(), argv[2]))
        return 0
    text = tables()
    if len(argv) == 1:
        sys.stdout.write(text)
        sys.stdout.write("\n" + runs_table())
        return 0
    if len(argv) != 3:
        sys.exit(__doc__)
    mode, path = argv[1], argv[2]
    doc = open(path).read()
    new = replace_block(replace_block(doc, "stats", text, path), "runs", runs_table(), path)
    if mode == "--check":
        if new != doc:
            print(f"stats.py: {path}'s tables are not the current ones (run proofs/stats.py --update {path})")
            return 1
        return 0
    if mode == "--update":
        open(path, "w").write(new)
        return 0
    sys.exit(__doc__)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
