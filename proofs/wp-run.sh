#!/usr/bin/env bash
# One Frama-C/WP run of `make prove` (called by prove.sh, prove-rev.sh and
# prove-fwd.sh, which choose what each run proves):
#   wp-run.sh NAME REPORT FRAMA-C-ARGS...
# FRAMA-C-ARGS: the selection (-wp-fct, -wp-skip-fct, -wp-prop) and the
# files. The environment gives WP_PROVERS (in the order tried), WP_TIMEOUT
# (seconds per goal and prover) and WP_PAR (-wp-par); WP_CPP_DEFS, if set,
# more preprocessor definitions (a lemma only some runs should see).
# Writes the JSON report REPORT, the log build/proofs/wp-NAME.log and WP's
# proof-state directory build/proofs/wp-state/NAME; prints "NAME: ..." progress
# (every 100 valid goals, every goal not proved with each prover's answer)
# and "NAME: proved V/T goals in S s". Exits 1 unless the report says
# valid == total > 0.
# A job whose goals not proved lie in at most WP_RETRY_MAX functions
# (default 2) runs each of them once more alone, and a goal counts when
# either run proved it (see "The retry" below).
# Cold by default: WP's result cache, which WP 25 otherwise keeps in its
# proof-state directory, is off unless PROVE_WP_CACHE names a
# mode (update, replay, ...): a run proves every goal afresh.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
name=$1 report=$2
shift 2
: "${WP_PROVERS:?} ${WP_TIMEOUT:?} ${WP_PAR:?}"
cpp_args="-Iinclude -Isrc -D_POSIX_C_SOURCE=200809L${WP_CPP_DEFS:+ $WP_CPP_DEFS}"
# WP_DRY_RUN set: print this run's arguments and every setting that reaches
# it (the environment read here) as one JSON line, and run nothing: the
# inputs of a job's key (proofs/record.py)
if [ -n "${WP_DRY_RUN:-}" ]; then
  python3 - "$name" "$report" "$cpp_args" "$@" <<'PY'
import json, os, sys
env = ("WP_PROVERS", "WP_TIMEOUT", "WP_PAR", "WP_CPP_DEFS", "WP_RETRY_MAX", "PROVE_WP_CACHE",
       "FRAMA_C_GC_MINOR_WORDS", "FRAMA_C_GC_SPACE_OVERHEAD", "FRAMA_C_POLL_MS")
print(json.dumps({"name": sys.argv[1], "report": sys.argv[2], "cpp_args": sys.argv[3],
                  "args": sys.argv[4:], "env": {k: os.environ.get(k, "") for k in env}},
                 sort_keys=True))
PY
  exit 0
fi
out=build/proofs
mkdir -p "$out/wp-state"
# The Why3 configuration prove.sh writes (cvc5, the quick provers), also
# when prove-rev.sh or prove-fwd.sh is run alone after a first make prove.
if [ -z "${WHY3CONFIG:-}" ] && [ -s "$out/why3.conf" ]; then
  export WHY3CONFIG="$PWD/$out/why3.conf"
fi
# Only the two plugins WP needs (rtegen for -wp-rte, wp): every loaded
# plugin's globals are scanned at each minor collection. Plus
# proofs/wp_tuning.ml (a larger minor heap than the 256k words Frama-C
# sets, and a 5 ms polling period for the provers' answers instead of
# 50 ms), compiled here once against Frama-C's interfaces (OCaml's
# compiler comes with `make deps`). Without it the run is only slower
# (proofs/README.md "Provers and settings").
modules=rtegen,wp
tune_ml=proofs/wp_tuning.ml tune_mod=$out/wp_tuning.cmxs
if [ ! -s "$tune_mod" ] || [ "$tune_ml" -nt "$tune_mod" ]; then
  tmp=$(mktemp -d "$out/tune.XXXXXX")
  if cp "$tune_ml" "$tmp/" &&
     (cd "$tmp" && ocamlopt -shared -I "$(frama-c -print-lib-path)" -I +unix -o wp_tuning.cmxs wp_tuning.ml) >/dev/null 2>&1; then
    mv -f "$tmp/wp_tuning.cmxs" "$tune_mod"
  else
    echo "$name: note: ocamlopt could not build $tune_mod; WP runs with Frama-C's small minor heap and 50 ms polling (slower)" >&2
  fi
  rm -rf "$tmp"
fi
[ -s "$tune_mod" ] && modules=$modules,$(pwd)/$tune_mod
# -wp-no-ground: Qed's "ground" pass took about half of frama-c's own time
# on the CHAD goals (perf: Conditions.ground_flow); without it the whole
# run took 11% less CPU, and two goals that then timed out (b_ext's
# kernel_inv, rev_pair_lin's pair_lin_codes) got an assert each
# (proofs/README.md "Provers and settings").
# One frama-c run: wp_once LOG REPORT FRAMA-C-ARGS...
wp_once() {
  local log=$1 rep=$2
  shift 2
  rm -f "$rep"
  frama-c -no-autoload-plugins -load-module "$modules" \
    -cpp-extra-args="$cpp_args" \
    -wp -wp-rte -warn-unsigned-overflow -warn-unsigned-downcast \
    -wp-prover "$WP_PROVERS" -wp-timeout "$WP_TIMEOUT" -wp-par "$WP_PAR" -wp-no-pruning -wp-no-ground \
    -wp-session "$out/wp-state/$name" -wp-cache "${PROVE_WP_CACHE:-none}" -wp-report-json "$rep" \
    "$@" 2>&1 | tee "$log" | {
      n=0 failing=0
      while IFS= read -r line; do
        case "$line" in
          *"goals scheduled"*) echo "$name: ${line#\[wp\] }" ;;
          *"[Failed]"*|*"[Unknown]"*|*"[Timeout]"*) echo "$name: ${line#\[wp\] }"; failing=1; continue ;;
          *"Goal "*": Valid"*) n=$((n + 1)); [ $((n % 100)) -eq 0 ] && echo "$name: $n goals valid so far" ;;
          *"[kernel]"*"rror"*|*"User Error"*|*"aborted"*) echo "$name: $line" ;;
          "  "*) [ $failing = 1 ] && echo "$name:   ${line#  }"; continue ;;
        esac
        failing=0
      done
    }
}

start=$(date +%s)
echo "$name: frama-c -wp ($WP_PROVERS, ${WP_TIMEOUT} s, -wp-par $WP_PAR); log in $out/wp-$name.log"
wp_once "$out/wp-$name.log" "$report" "$@"
if [ ! -s "$report" ]; then
  echo "$name: frama-c stopped without a report; see $out/wp-$name.log" >&2
  exit 1
fi

# The retry. A solver's answer depends on more than the goal: the order
# in which WP declares the task's symbols (it differs between a run of
# many functions and a run of one), and, with wall-clock limits, the
# machine's load. Goals that prove in 1-2 s alone have failed in the full
# gate with every prover (proofs/README.md "Provers and settings"). So
# the functions with a goal not proved, when there are at most
# WP_RETRY_MAX of them (default 2; 0: no retry), are run once more, each
# alone (the same files, definitions, provers and limits; -wp-fct FN in
# the place of the job's -wp-fct/-wp-skip-fct). A goal counts as valid
# when one of the two runs proved it: each run is a proof of the same
# verification condition. The report lists the goals the retry proved
# under "wp:retried"; the log of each retry is $out/wp-NAME-retry-FN.log.
failed_fns=$(python3 - "$report" <<'PY'
import json, sys
rep = json.load(open(sys.argv[1]))
bad = set()
for part in ("wp:functions", "wp:axiomatics"):
    for fn, goals in rep.get(part, {}).items():
        for goal, res in goals.items():
            m = res.get("wp:main", {})
            if goal != "wp:section" and int(m.get("valid", 0)) < int(m.get("total", 0)):
                bad.add(fn if part == "wp:functions" else "!" + fn)
print(" ".join(sorted(bad)))
PY
)
retry_max=${WP_RETRY_MAX:-2}
if [ -n "$failed_fns" ] && [[ "$failed_fns" != *"!"* ]] &&
   [ "$(wc -w <<<"$failed_fns")" -le "$retry_max" ]; then
  # the job's arguments without its function selection
  keep=()
  while [ $# -gt 0 ]; do
    case $1 in
      -wp-fct|-wp-skip-fct) shift 2 ;;
      *) keep+=("$1"); shift ;;
    esac
  done
  for fn in $failed_fns; do
    echo "$name: retry: $fn alone (log in $out/wp-$name-retry-$fn.log)"
    wp_once "$out/wp-$name-retry-$fn.log" "$out/wp-$name-retry-$fn.json" -wp-fct "$fn" "${keep[@]}"
    if [ -s "$out/wp-$name-retry-$fn.json" ]; then
      python3 - "$report" "$out/wp-$name-retry-$fn.json" "$fn" "$name" <<'PY'
import json, sys
path, retry_path, fn, name = sys.argv[1:5]
rep, retry = json.load(open(path)), json.load(open(retry_path))
def ok(res):
    m = res.get("wp:main", {})
    return int(m.get("total", 0)) > 0 and int(m.get("valid", 0)) == int(m.get("total", 0))
def add(acc, res, sign):
    for prover, counts in res.items():
        a = acc.setdefault(prover, {})
        for key, val in counts.items():
            if key != "rank":
                a[key] = a.get(key, 0) + sign * int(val)
goals, again = rep["wp:functions"][fn], retry.get("wp:functions", {}).get(fn, {})
for goal, res in list(goals.items()):
    if goal == "wp:section" or ok(res):
        continue
    if goal in again and ok(again[goal]):
        for acc in (rep["wp:global"], goals.setdefault("wp:section", {})):
            add(acc, res, -1)
            add(acc, again[goal], +1)
        goals[goal] = again[goal]
        rep.setdefault("wp:retried", []).append(goal)
        print(f"{name}: retry: {goal} valid alone")
    else:
        print(f"{name}: retry: {goal} not proved alone either")
json.dump(rep, open(path, "w"), indent=1, sort_keys=True)
PY
    fi
  done
fi
end=$(date +%s)
python3 - "$report" "$((end - start))" "$name" <<'PY'
import json, sys
main = json.load(open(sys.argv[1]))["wp:global"]["wp:main"]
valid, total = int(main.get("valid", 0)), int(main.get("total", 0))
print(f"{sys.argv[3]}: proved {valid}/{total} goals in {sys.argv[2]} s")
sys.exit(0 if total > 0 and valid == total else 1)
PY
