#!/usr/bin/env bash
# The proof jobs of the gates, sourced by proofs/prove.sh (`make prove`,
# `make prove-quick`) and proofs/incremental.sh (`make prove-incremental`)
# from the repository's root. Defines:
#   timeout quick max_jobs out root rules   the settings (environment below)
#   jobs_table     one entry per job, largest first: NAME|PROVERS|TIMEOUT|
#                  SELECTION; PROVERS "script" means SELECTION is a command
#                  (proofs/prove-rev.sh PART, proofs/prove-fwd.sh PART)
#   prove_why3_config   writes the private Why3 configuration
#   run_job NAME PROVERS TIMEOUT SELECTION   runs one job
#   job_report NAME     the path of a job's JSON report
#   job_invocation NAME PROVERS TIMEOUT SELECTION   prints, without
#                  running anything, the proofs/wp-run.sh call of the job
#                  as one JSON line (wp-run.sh's WP_DRY_RUN)
# Environment:
#   PROVE_TIMEOUT        per-goal limit of the full provers, prove.sh's own
#                        jobs (20 s)
#   PROVE_CHAD_TIMEOUT   the same for prove-rev.sh's and prove-fwd.sh's jobs (30 s)
#   PROVE_QUICK_TIMEOUT  the quick provers' limit (2 s), see "Provers"
#   PROVE_JOBS           jobs at a time (3)
#   PROVE_RULES          1 (default): every job, the CHAD rules' own proofs
#                        included (jobs rev-rules and fwd-rules); 0: without
#                        those two jobs, whose contracts are then relied
#                        upon (listed `full-only` in proofs/assumed.txt)
#   PROVE_ONLY           "JOB ...": only these jobs (below)
#   PROVE_FAIL_FAST      1 (make check): stop at the first job that fails
#   PROVE_LIMITS         steps (default): each prover attempt is limited
#                        by the prover's own resource count (Z3's rlimit,
#                        cvc5's and CVC4's --rlimit-per), fixed in its
#                        command line (PROVE_STEPS_*, below), so that its
#                        answer does not depend on the machine's load; the
#                        wall-clock limits stay, 10 times longer, as a
#                        guard against a runaway prover; time: the
#                        provers' limits are wall-clock seconds (above)
root=$(pwd)
limits=${PROVE_LIMITS:-steps}
guard_div=1   # prover_guard's CPU limit: the command's limit / guard_div
case $limits in
  time) ;;
  steps)
    guard_div=5
    # exported: prove-rev.sh and prove-fwd.sh read PROVE_CHAD_TIMEOUT
    # 10 times the step limits' time on an idle core: a load of 12 on the
    # 2 cores (seen beside the other work of this machine) ran the
    # provers 4-6 times slower than their CPU time, and a guard that fires
    # before the step limit makes the answer depend on the load again
    export PROVE_TIMEOUT=${PROVE_TIMEOUT:-200} PROVE_CHAD_TIMEOUT=${PROVE_CHAD_TIMEOUT:-300}
    export PROVE_QUICK_TIMEOUT=${PROVE_QUICK_TIMEOUT:-20} PROVE_LEMMA_TIMEOUT=${PROVE_LEMMA_TIMEOUT:-600} ;;
  *) echo "prove: PROVE_LIMITS must be time or steps, not '$limits'" >&2; exit 2 ;;
esac
# 20 s: the provers' limits are wall-clock and the jobs share 2 cores; at
# 10 s goals that take 3.5 s alone (elab_case's ensures_3) failed in a full
# run with five frama-c processes.
timeout=${PROVE_TIMEOUT:-20}
max_jobs=${PROVE_JOBS:-3}
out=build/proofs
mkdir -p "$out"

# Provers. A private Why3 configuration, written afresh by every run: the
# detected provers, plus cvc5, which Why3 1.5.1 does not know, through
# proofs/cvc5.drv, plus "quick" alternatives (shortcuts z3q, z3n, cvc5q,
# cvc4q; z3n: see "The order per job") whose command carries a fixed limit
# of PROVE_QUICK_TIMEOUT seconds whatever -wp-timeout says. Every job
# tries the provers one at a time (-wp-par 1), quick ones first, in the
# order set per job below: most goals fall to the first prover within a
# second, and a goal that needs more costs at most the quick limits before
# the full-timeout provers get it.
# A prover's own limit must read as a timeout, not as "Failed Unknown
# error": Z3's -T:N answers "timeout", which proofs/z3.drv adds to Why3's
# Z3 driver, and cvc5 1.0.3 aborts (SIGABRT) at --tlimit but answers
# "unknown" at --tlimit-per (one query per file: the same limit).
# Racing two provers on every goal (-wp-par 2) spends the loser's CPU time
# and a second Why3 task per goal (proofs/README.md "Provers and settings").
export WHY3CONFIG="$root/$out/why3.conf"
quick=${PROVE_QUICK_TIMEOUT:-2}
version() { "$@" 2>/dev/null | sed -n 's/^.*[Vv]ersion \([0-9][0-9.]*\).*$/\1/p' | head -n1; }
prove_why3_config() {
  rm -f "$WHY3CONFIG"
  why3 config detect >/dev/null 2>&1
  # the full-limit provers come from the detection: without them every job
  # would fail goal by goal with "Prover 'z3' not found"
  if ! grep -q '^name = "Z3"' "$WHY3CONFIG" 2>/dev/null; then
    echo "prove: 'why3 config detect' found no Z3 (is 'make deps' done?); see $WHY3CONFIG" >&2
    exit 1
  fi
  local cvc5_version z3_version cvc4_version
  cvc5_version=$(version cvc5 --version) z3_version=$(version z3 -version) cvc4_version=$(version cvc4 --version)
  if [ "$limits" = steps ]; then
    prove_why3_steps "$cvc5_version" "$z3_version" "$cvc4_version"
    return
  fi
  cat >> "$WHY3CONFIG" <<CONF

[prover]
command = "$(command -v cvc5) --stats --tlimit-per=%t000 --lang=smt2 %f"
driver = "$root/proofs/cvc5.drv"
name = "cvc5"
shortcut = "cvc5"
version = "${cvc5_version:-1.0.3}"

[prover]
alternative = "quick"
command = "$(command -v cvc5) --stats --tlimit-per=${quick}000 --lang=smt2 %f"
driver = "$root/proofs/cvc5.drv"
name = "cvc5"
shortcut = "cvc5q"
version = "${cvc5_version:-1.0.3}"

[prover]
alternative = "quick"
command = "$(command -v z3) -smt2 -T:$quick sat.random_seed=42 nlsat.randomize=false smt.random_seed=42 -st %f"
driver = "$root/proofs/z3.drv"
name = "Z3"
shortcut = "z3q"
version = "${z3_version:-4.8.12}"

[prover]
alternative = "quick-noauto"
command = "$(command -v z3) -smt2 -T:$quick auto_config=false sat.random_seed=42 nlsat.randomize=false smt.random_seed=42 -st %f"
driver = "$root/proofs/z3.drv"
name = "Z3"
shortcut = "z3n"
version = "${z3_version:-4.8.12}"

[prover]
alternative = "quick"
command = "$(command -v cvc4) --stats --tlimit-per=${quick}000 --lang=smt2 --strings-exp %f"
driver = "/usr/share/why3/drivers/cvc4_18_strings.drv"
name = "CVC4"
shortcut = "cvc4q"
version = "${cvc4_version:-1.8}"
CONF
}
# Step limits (PROVE_LIMITS=steps): the same provers and shortcuts, each
# command with a fixed resource limit and a wall-clock guard (10 times
# the time limit: see PROVE_LIMITS above). The limits are
# resource counts, calibrated per prover on the goals of a few jobs
# (proofs/README.md "Step limits"): Z3's rlimit (rlimit=N; used, reported
# by -st as :rlimit-count), cvc5's and CVC4's resource units
# (--rlimit-per=N; cvc5 reports the units used only with
# --stats-internal, read by proofs/cvc5-steps.drv). Out of steps, each
# answers "unknown": the attempt fails and WP tries the next prover.
prove_why3_steps() {
  local cvc5_version=$1 z3_version=$2 cvc4_version=$3
  local z3q=${PROVE_STEPS_Z3Q:-8000000} z3=${PROVE_STEPS_Z3:-60000000}
  local cvc5q=${PROVE_STEPS_CVC5Q:-500000} cvc5=${PROVE_STEPS_CVC5:-6000000}
  local cvc4q=${PROVE_STEPS_CVC4Q:-500000} cvc4=${PROVE_STEPS_CVC4:-6000000}
  local z3_seeds="sat.random_seed=42 nlsat.randomize=false smt.random_seed=42"
  # the detected full Z3 and CVC4: the detection writes them as partial
  # provers, which Why3 completes from its detection data when it loads
  # the file; written out completed (why3 config show), their commands get
  # the step limit, the wall-clock limit %t (WP's -wp-timeout) staying as
  # the guard; Z3 through proofs/z3.drv, so that the guard's -T answer
  # reads as a timeout (with Why3's z3_471 driver, as the detection sets
  # it, it reads "Failed Unknown error")
  why3 config show > "$WHY3CONFIG.tmp" 2>/dev/null && mv -f "$WHY3CONFIG.tmp" "$WHY3CONFIG"
  python3 - "$WHY3CONFIG" "$z3" "$cvc4" "$z3_seeds" "$root/proofs/z3.drv" <<'PY'
import re, sys
path, z3, cvc4, seeds, drv = sys.argv[1:6]
text = open(path).read()
def exe(m):
    return m.group(0).split('"')[1].split()[0]
def fix(sec):
    if re.search(r'^name = "Z3"$', sec, re.M) and "alternative" not in sec:
        sec = re.sub(r'^driver = .*$', f'driver = "{drv}"', sec, flags=re.M)
        return re.sub(r'^command = .*$', lambda m: f'command = "{exe(m)} -smt2 -T:%t {seeds} rlimit={z3} -st %f"', sec, flags=re.M)
    if re.search(r'^name = "CVC4"$', sec, re.M) and "alternative" not in sec:
        return re.sub(r'^command = .*$', lambda m: f'command = "{exe(m)} --stats --tlimit-per=%t000 --rlimit-per={cvc4} --lang=smt2 %f"', sec, flags=re.M)
    return sec
parts = re.split(r'(?m)^(?=\[)', text)
open(path, "w").write("".join(fix(p) for p in parts))
PY
  cat >> "$WHY3CONFIG" <<CONF

[prover]
command = "$(command -v cvc5) --stats --stats-internal --tlimit-per=%t000 --rlimit-per=$cvc5 --lang=smt2 %f"
driver = "$root/proofs/cvc5-steps.drv"
name = "cvc5"
shortcut = "cvc5"
version = "${cvc5_version:-1.0.3}"

[prover]
alternative = "quick"
command = "$(command -v cvc5) --stats --stats-internal --tlimit-per=${quick}000 --rlimit-per=$cvc5q --lang=smt2 %f"
driver = "$root/proofs/cvc5-steps.drv"
name = "cvc5"
shortcut = "cvc5q"
version = "${cvc5_version:-1.0.3}"

[prover]
alternative = "quick"
command = "$(command -v z3) -smt2 -T:$quick $z3_seeds rlimit=$z3q -st %f"
driver = "$root/proofs/z3.drv"
name = "Z3"
shortcut = "z3q"
version = "${z3_version:-4.8.12}"

[prover]
alternative = "quick-noauto"
command = "$(command -v z3) -smt2 -T:$quick auto_config=false $z3_seeds rlimit=$z3q -st %f"
driver = "$root/proofs/z3.drv"
name = "Z3"
shortcut = "z3n"
version = "${z3_version:-4.8.12}"

[prover]
alternative = "quick"
command = "$(command -v cvc4) --stats --tlimit-per=${quick}000 --rlimit-per=$cvc4q --lang=smt2 --strings-exp %f"
driver = "/usr/share/why3/drivers/cvc4_18_strings.drv"
name = "CVC4"
shortcut = "cvc4q"
version = "${cvc4_version:-1.8}"
CONF
}
# The order per job, measured (cold, the two orders run side by side, CPU-s
# of frama-c and its provers): cvc5 first for the kernel, the checker, the
# CHAD builders and type translations and the type table (tm_iter, tm_llam,
# tm_map, tm_build: 72 against 128; a third of build.c/types.c: 46 against
# 126; src/kernel/types.c: 19.5 against 53), where Z3 runs to its limit on
# a goal in four; Z3 first for the one-hot cotangent (77 against 160), for
# ty_tr and tr_fun_p (161 against 241) and for prove-rev.sh's and
# prove-fwd.sh's CHAD rules (their default).
#
# z3n is the quick Z3 with auto_config=false: Z3 then keeps its default
# quantifier engine instead of the configuration it picks after looking at
# the goal, which on the CHAD goals (many quantified invariants over
# several states) ran into instantiation loops. The whole gate run once
# with it in place of z3q, CPU-s per job against z3q:
# rev-fns 252 -> 218, rev-under 59 -> 34, fwd-fns 124 -> 108, onehot
# 100 -> 84, ty-tr 152 -> 140, tr-ctx 60 -> 55, but z3-pref 17 -> 46 and
# chad-2 60 -> 86 (kernel and builder goals): so z3n leads in the CHAD
# jobs only (chad_first), and the full-limit Z3 keeps Z3's own choice.
cvc5_first=cvc5q,z3q,cvc5,z3,cvc4
z3_first=z3q,cvc5q,z3,cvc5,cvc4
chad_first=z3n,cvc5q,z3,cvc5,cvc4
export PROVE_CHAD_PROVERS=${PROVE_CHAD_PROVERS:-$chad_first}

# What each job proves. The CHAD macros: logic in
# src/chad/chad_spec.h, contracts in build.c, types.c (here), reverse.c,
# simplify.c (job simplify below; its guarantee chad_simplify in
# prove-rev.sh), forward.c (prove-fwd.sh).
chad_files="src/chad/build.c src/chad/types.c"
# chunks SKIP K FILE...: the functions of FILE... minus SKIP, in K lists of
# about equal source length (longest first, each to the shortest list), one
# per line: a job's -wp-fct.
chunks() {
  python3 - "$@" <<'PY'
import re, sys
skip = set(filter(None, sys.argv[1].split(",")))
k = int(sys.argv[2])
fns = []
for path in sys.argv[3:]:
    lines = open(path).read().split("\n")
    starts = []
    for i, line in enumerate(lines):
        m = re.match(r'(?:static\s+)?(?:inline\s+)?[A-Za-z_][A-Za-z0-9_]*\s+\**([A-Za-z_][A-Za-z0-9_]*)\s*\(', line)
        if m and m.group(1) not in [s[0] for s in starts]:
            starts.append((m.group(1), i))
    for j, (name, start) in enumerate(starts):
        end = starts[j + 1][1] if j + 1 < len(starts) else len(lines)
        if name not in skip:
            fns.append((end - start, name))
bins = [[0, []] for _ in range(k)]
for size, name in sorted(fns, reverse=True):
    b = min(bins, key=lambda b: b[0])
    b[0] += size
    b[1].append(name)
for _, names in bins:
    print(",".join(names))
PY
}
# R(var)'s one-hot cotangent (types.c, 167 goals) and P, T, C on types
# (ty_tr, 310 goals; its helper tr_fun_p, cvc5 first, is dealt to the chad
# jobs): jobs of their own, with Z3 first (see "The order per job")
onehot_fns=chad_onehot_tuple,cot_memo_ctx,cot_memo_ty
ty_tr_fns=ty_tr
# C and P on contexts (tr_ctx and its node builder tr_mk, 134 goals): Z3
# first too (61 against 80 CPU-s, the two orders side by side: cvc5 ran
# to its quick limit on 7 of tr_ctx's loop invariants)
tr_ctx_fns=tr_ctx,tr_mk
# Per function, where the file's order does not suit it: the whole gate
# was run once with every job's order swapped, and
# these functions cost less with the other prover first (prover seconds,
# 2 s counted for each quick attempt run out; proofs/README.md
# "Provers and settings"). Z3 first, in a job of their own: ctx_extend 14.0 -> 1.6,
# tm_push 13.6 -> 1.3, chk_extend 8.4 -> 0.3, ty_make 4.7 -> 0.5, ty_init
# 4.3 -> 0.1, chk_arr_real 4.4 -> 0.3, tm_mkty 4.4 -> 0.6. cvc5 first:
# tr_fun_p 10.0 -> 3.4 (dealt to the chad jobs below), and the parts
# "cvc5" of prove-rev.sh and prove-fwd.sh.
z3_pref_fns=ctx_extend,tm_push,tm_mkty,chk_extend,chk_arr_real,chk_sum_twice,ty_make,ty_init
# The simplifier's engine (simplify.c): rounds of rewriting that only call
# the proved constructors; proved: kernel_inv kept, appends only, bounds,
# termination (chad_simplify itself, the final check, is in prove-rev.sh)
simplify_fns=ec_new,ec_lookup,is_zero,trivial,is_value,child_binders,leafy
simplify_fns=$simplify_fns,count_child,count_rec,pre_push,precount_child,precount,count_uses
simplify_fns=$simplify_fns,zero_like,s_proj,s_pair,s_plus,weaken,bind_simplified,bind,wrap
simplify_fns=$simplify_fns,simp_let,beta,simp_branch,small_term,plus_float
simplify_fns=$simplify_fns,simplify_round,simplify_engine
# simp itself, the switch on the kind (879 goals with simp_loop, 317 s
# alone at -wp-par 2, mostly WP's own goal building): a job of its own
simp_fns=simp,simp_loop
mapfile -t checker_jobs < <(chunks "$z3_pref_fns" 2 src/kernel/checker.c)
mapfile -t types_jobs < <(chunks "$z3_pref_fns" 1 src/kernel/types.c)
# shellcheck disable=SC2086
mapfile -t chad_jobs < <(chunks "$onehot_fns,$ty_tr_fns,$tr_ctx_fns" 3 $chad_files)
mapfile -t kernel_jobs < <(chunks "$z3_pref_fns" 3 src/kernel/terms.c src/kernel/contexts.c src/kernel/ops.c src/kernel/raw.c)
# The last kernel job takes every function no other job names
# (-wp-skip-fct), so that a function the name pattern above misses is
# proved there rather than nowhere.
named=$onehot_fns,$ty_tr_fns,$tr_ctx_fns,$z3_pref_fns
for list in "${checker_jobs[@]}" "${types_jobs[@]}" "${chad_jobs[@]}" "${kernel_jobs[@]:0:2}"; do
  named=$named,$list
done

# The job table, largest first, so that the small jobs fill the end
# (the comments: CPU-s of each job in one cold run of the quick gate,
# as printed at each job's end): NAME|PROVERS|TIMEOUT|
# SELECTION. Jobs "rev-*" and "fwd-*" call prove-rev.sh and prove-fwd.sh
# (their own files, reports in proofs/ and provers).
jobs_table=(
  "rev-fns|script|-|proofs/prove-rev.sh fns"                      # 252
  "simp|$cvc5_first|$timeout|-wp-fct $simp_fns src/chad/simplify.c"  # 324 (alone)
  "checker-2|$cvc5_first|$timeout|-wp-fct ${checker_jobs[1]}"     # 181
  "checker-1|$cvc5_first|$timeout|-wp-fct ${checker_jobs[0]}"     # 181
  "ty-tr|$chad_first|$timeout|-wp-fct $ty_tr_fns"                   # 158
  "kernel-2|$cvc5_first|$timeout|-wp-fct ${kernel_jobs[1]}"       # 137
  "fwd-fns|script|-|proofs/prove-fwd.sh fns"                      # 132
  "kernel-1|$cvc5_first|$timeout|-wp-fct ${kernel_jobs[0]}"       # 116
  "kernel-3|$cvc5_first|$timeout|-wp-skip-fct $named"             # 112
  "simplify|$cvc5_first|$timeout|-wp-fct $simplify_fns src/chad/simplify.c"
  "onehot|$chad_first|$timeout|-wp-fct $onehot_fns"                 # 93
  "rev-under|script|-|proofs/prove-rev.sh under"                  # 59
  "fwd-under|script|-|proofs/prove-fwd.sh under"                  # 36 (alone)
  "tr-ctx|$chad_first|$timeout|-wp-fct $tr_ctx_fns"                 # 61
  "chad-2|$cvc5_first|$timeout|-wp-fct ${chad_jobs[1]}"           # 60
  "chad-3|$cvc5_first|$timeout|-wp-fct ${chad_jobs[2]}"           # 43
  "rev-dispatch|script|-|proofs/prove-rev.sh dispatch"            # 43 (alone)
  "fwd-dispatch|script|-|proofs/prove-fwd.sh dispatch"            # 60 (alone)
  "rev-lemmas|script|-|proofs/prove-rev.sh lemmas"                # 37
  "chad-1|$cvc5_first|$timeout|-wp-fct ${chad_jobs[0]}"           # 35
  "z3-pref|$z3_first|$timeout|-wp-fct $z3_pref_fns"               # 17
  "types|$cvc5_first|$timeout|-wp-fct ${types_jobs[0]}"           # 17
  "rev-cvc5|script|-|proofs/prove-rev.sh cvc5"                    # 13
  "fwd-cvc5|script|-|proofs/prove-fwd.sh cvc5"                    # 10
)
# The CHAD rules' own proofs (jobs rev-rules and fwd-rules: 10946 goals,
# about 6700 CPU-s, 0.6 CPU-s a goal) are the full gate's, `make prove`;
# `make prove-quick` (PROVE_RULES=0) leaves them out and fits a
# 15-minute budget, which the two jobs alone exceed on 2 cores
# (proofs/README.md "Gates").
rules=${PROVE_RULES:-1}
case $rules in 0|1) ;; *) echo "prove: PROVE_RULES must be 0 or 1, not '$rules'" >&2; exit 2 ;; esac
if [ "$rules" = 1 ]; then
  jobs_table=("${jobs_table[0]}" "rev-rules|script|-|proofs/prove-rev.sh rules"
              "fwd-rules|script|-|proofs/prove-fwd.sh rules" "${jobs_table[@]:1}")
fi
# PROVE_ONLY="JOB ...": only these jobs (development: a gate run of a few
# jobs then fails its call check, the other jobs' functions being absent)
if [ -n "${PROVE_ONLY:-}" ]; then
  only=()
  for job in "${jobs_table[@]}"; do
    case " $PROVE_ONLY " in *" ${job%%|*} "*) only+=("$job") ;; esac
  done
  jobs_table=("${only[@]}")
fi

# job_report NAME: where a job writes its JSON report (committed after a
# run: proofs/record.tsv holds each report's hash)
job_report() { echo "proofs/wp-report-$1.json"; }

# job_exec NAME PROVERS TIMEOUT SELECTION: the job's proofs/wp-run.sh call
# (through prove-rev.sh or prove-fwd.sh for the "script" jobs)
job_exec() {
  local name=$1 provers=$2 tmo=$3 sel=$4
  if [ "$provers" = script ]; then
    # shellcheck disable=SC2086
    $sel
  else
    # shellcheck disable=SC2086
    WP_PROVERS=$provers WP_TIMEOUT=$tmo WP_PAR=1 \
      proofs/wp-run.sh "$name" "$(job_report "$name")" $sel src/kernel/*.c $chad_files
  fi
}

# job_invocation NAME PROVERS TIMEOUT SELECTION: the same call, not run:
# wp-run.sh prints its arguments and settings as one JSON line
job_invocation() { WP_DRY_RUN=1 job_exec "$@"; }

# run_job NAME PROVERS TIMEOUT SELECTION: one frama-c run; its progress
# lines prefixed by prove[NAME], then its wall and CPU time (the job's
# processes: frama-c and its provers), also written to
# $out/time-NAME as "WALL CPU".
run_job() {
  local name=$1 t0
  t0=$(date +%s)
  (
    job_exec "$@" 2>&1 | sed -u "s/^$name: /prove[$name]: /"
    st=${PIPESTATUS[0]}
    # `times` here, not in $(...): a command substitution is a new process
    # with no children of its own
    times > "$out/times-$name"
    cpu=$(tail -n1 "$out/times-$name" | awk '{ gsub(/[ms]/, " "); split($0, a, " "); printf "%.0f", a[1] * 60 + a[2] + a[3] * 60 + a[4] }')
    wall=$(( $(date +%s) - t0 ))
    echo "$wall $cpu" > "$out/time-$name"
    # shellcheck disable=SC2154  # start: the caller's, set before run_queue
    echo "prove[$name]: job done at $(( $(date +%s) - start )) s: $wall s wall, $cpu CPU-s"
    exit "$st"
  )
}

# stop_job_tree PID: a queued job and every process under it (wp-run.sh,
# frama-c, its provers), stopped top-down first so that none starts a new
# prover while the tree is walked, then killed
stop_job_tree() {
  local pids=() queue=("$1") p c
  while [ ${#queue[@]} -gt 0 ]; do
    p=${queue[0]}; queue=("${queue[@]:1}")
    kill -STOP "$p" 2>/dev/null || continue
    pids+=("$p")
    for c in $(pgrep -P "$p"); do queue+=("$c"); done
  done
  [ ${#pids[@]} -gt 0 ] && kill -KILL "${pids[@]}" 2>/dev/null
  return 0
}

# prover_guard ROOT DIV: while ROOT runs, every prover process under it
# (cvc5, z3, cvc4) gets a CPU-time limit (RLIMIT_CPU, kernel-enforced):
# the wall-clock limit written in its own command line (Z3's -T:N, cvc5's
# and CVC4's --tlimit-per=N000) divided by DIV. Under step limits (DIV 5)
# that is twice the time limit of PROVE_LIMITS=time, more than a prover
# takes to reach its step limit (Z3's 8 M steps about 2.6 s of CPU, 60 M
# about 27 s), so it stops only a prover that does not stop at its own
# limits: cvc5, on some goals of the rules jobs, ran a quick attempt
# (500,000 units, --tlimit-per 20 s) for minutes, until Why3 killed it at
# the job's 300 s. Under time limits (DIV 1) it is the limit itself.
# Stopped, the attempt fails and WP goes on to the next prover, as at a
# limit; CPU time, unlike wall time, does not grow with the machine's
# load. Polled every second, long before a prover can use its seconds.
prover_guard() {
  local root=$1 div=$2 seen=" " p st a args lim
  while kill -0 "$root" 2>/dev/null; do
    for p in $(pgrep -x 'cvc5|z3|cvc4'); do
      st=$(cut -d' ' -f22 "/proc/$p/stat" 2>/dev/null) || continue
      case "$seen" in *" $p:$st "*) continue ;; esac
      seen="$seen$p:$st "
      a=$p
      while [ -n "$a" ] && [ "$a" -gt 1 ] && [ "$a" != "$root" ]; do
        a=$(ps -o ppid= -p "$a" | tr -d ' ')
      done
      [ "$a" = "$root" ] || continue
      args=$(tr '\0' ' ' 2>/dev/null < "/proc/$p/cmdline") || continue
      lim=$(sed -n -e 's/.*--tlimit-per=\([0-9]*\)000 .*/\1/p' -e 's/.* -T[: ]\([0-9]*\) .*/\1/p' <<<"$args" | head -n1)
      [ -n "$lim" ] || continue
      lim=$((lim / div))
      [ "$lim" -gt 0 ] || lim=1
      prlimit --pid "$p" --cpu="$lim:$lim" 2>/dev/null
    done
    sleep 1
  done
}

# run_queue ENTRY...: the given jobs_table entries, max_jobs at a time, in
# the order given; returns 1 if any job failed. PROVE_FAIL_FAST=1 (make
# check): at the first job that fails, the gate has failed, so the jobs
# still running are stopped and none other starts (a wrong rule found by
# a small job does not wait for the rules' hour-long jobs)
run_queue() {
  local st=0 job name provers tmo sel
  # not a job of this shell (the queue counts its jobs); ends with it
  ( prover_guard "$$" "$guard_div" & )
  for job in "$@"; do
    IFS='|' read -r name provers tmo sel <<<"$job"
    while [ "$(jobs -rp | wc -l)" -ge "$max_jobs" ]; do
      [ "$st" = 1 ] && [ "${PROVE_FAIL_FAST:-0}" = 1 ] && break
      wait -n || st=1
    done
    [ "$st" = 1 ] && [ "${PROVE_FAIL_FAST:-0}" = 1 ] && break
    run_job "$name" "$provers" "$tmo" "$sel" &
  done
  while [ "$(jobs -rp | wc -l)" -gt 0 ]; do
    if [ "$st" = 1 ] && [ "${PROVE_FAIL_FAST:-0}" = 1 ]; then
      echo "prove: a job failed: the $(jobs -rp | wc -l) jobs still running are stopped (PROVE_FAIL_FAST=1)" >&2
      for p in $(jobs -rp); do stop_job_tree "$p"; done
      break
    fi
    wait -n || st=1
  done
  wait || st=1
  return "$st"
}

# job_keys ENTRY...: "NAME<TAB>KEY" for each of the given entries, the key
# of its inputs as they are now (proofs/record.py); needs the Why3
# configuration (prove_why3_config)
job_keys() {
  local job name provers tmo sel calls=()
  mkdir -p "$out/calls"
  for job in "$@"; do
    IFS='|' read -r name provers tmo sel <<<"$job"
    job_invocation "$name" "$provers" "$tmo" "$sel" > "$out/calls/$name.json"
    calls+=("$out/calls/$name.json")
  done
  python3 proofs/record.py keys "${calls[@]}"
}
