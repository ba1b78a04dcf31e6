#!/usr/bin/env bash
# Forward-mode CHAD (src/chad/forward.c): the proved part of issue #5's F,
# run by prove.sh in a lane of its own, in separate Frama-C runs so that the
# frame lemmas of src/chad/reverse_spec.h (and forward.c's own lemma
# env_ok_keep) are not axioms of the other files' goals; env_ok_keep is
# proved in the second run, reverse_spec.h's lemmas in prove-rev.sh's.
# Gate: valid == total in each JSON report. See
# proofs/README.md for what is proved and what is only stated.
#   PROVE_CHAD_TIMEOUT per-goal timeout (default 30); PROVE_JOBS as in
#   prove.sh; WHY3CONFIG set by prove.sh
#   (or, when run alone, build/proofs/why3.conf if it exists);
#   PROVE_LEMMA_TIMEOUT as in prove-rev.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
# The CHAD rule goals are the slowest of the gate and run while four other
# lanes compete for the 2 cores; cvc5's and Z3's limits are wall-clock, so
# at 10 s two goals (r_llam's assert_5, f_const_prim's assert_8: 3 s alone)
# failed in a full run. 30 s here; the kernel lanes keep prove.sh's 10 s.
timeout=${PROVE_CHAD_TIMEOUT:-30}
jobs=${PROVE_JOBS:-2}
export OCAMLRUNPARAM=${OCAMLRUNPARAM:-s=8M,o=200}   # see prove.sh
if [ -z "${WHY3CONFIG:-}" ] && [ -s build/proofs/why3.conf ]; then
  export WHY3CONFIG="$PWD/build/proofs/why3.conf"
fi
out=build/proofs
mkdir -p "$out"
session=${PROVE_FWD_SESSION:-proofs/wp-session-fwd}
files="src/kernel/terms.c src/kernel/contexts.c src/kernel/types.c src/kernel/ops.c
  src/chad/build.c src/chad/types.c src/chad/forward.c"
# functions proved: the pass wrappers of forward.c, the ghost lemma function
# tan_lin_lemma, the rules below (their callees' contracts are proved here or
# in the main run, or listed as assumed in proofs/README.md)
fwd_fns=tyof,tr_step,tan_lin_lemma
fwd_fns=$fwd_fns,f_ext,f_var,f_proj,f_llam,f_pair,f_zero,f_rconst,f_const_prim
fwd_fns=$fwd_fns,fwd_var,fwd_const
# the lemma forward.c adds; reverse_spec.h's lemmas, loaded here too, are
# proved in prove-rev.sh's lemma run (the same header text), not twice
fwd_lemmas=env_ok_keep
status=0
for part in fns lemmas; do
  report=proofs/wp-report-fwd-$part.json
  rm -f "$report"
  if [ $part = fns ]; then sel=(-wp-fct "$fwd_fns"); else sel=(-wp-prop "$fwd_lemmas"); fi
  start=$(date +%s)
  # the provers race on the lemma, as in prove-rev.sh
  t=$timeout par=$jobs
  if [ $part = lemmas ]; then t=${PROVE_LEMMA_TIMEOUT:-20}; par=3; fi
  echo "prove-fwd: frama-c -wp ${sel[*]}; log in $out/wp-fwd-$part.log"
  # shellcheck disable=SC2086
  frama-c -cpp-extra-args="-Iinclude -Isrc -D_POSIX_C_SOURCE=200809L" \
    -wp -wp-rte -warn-unsigned-overflow -warn-unsigned-downcast \
    -wp-prover cvc5,z3,cvc4 -wp-timeout "$t" -wp-par "$par" -wp-no-pruning \
    "${sel[@]}" -wp-session "$session" -wp-report-json "$report" \
    $files 2>&1 | tee "$out/wp-fwd-$part.log" | while IFS= read -r line; do
      case "$line" in
        *"goals scheduled"*) echo "prove-fwd ($part): ${line#\[wp\] }" ;;
        *"[Failed]"*|*"[Unknown]"*|*"[Timeout]"*) echo "prove-fwd ($part): ${line#\[wp\] }" ;;
        *"Goal "*": Valid"*) n=$((${n:-0}+1)); [ $((n % 50)) -eq 0 ] && echo "prove-fwd ($part): $n goals valid so far" ;;
        *"User Error"*|*"aborted"*) echo "prove-fwd ($part): $line" ;;
      esac
    done || true
  end=$(date +%s)
  if [ ! -s "$report" ]; then
    echo "prove-fwd: frama-c failed without a report; see $out/wp-fwd-$part.log" >&2
    status=1
    continue
  fi
  python3 - "$report" "$((end - start))" "$part" <<'PY' || status=1
import json, sys
main = json.load(open(sys.argv[1]))["wp:global"]["wp:main"]
valid, total = int(main.get("valid", 0)), int(main.get("total", 0))
print(f"prove-fwd ({sys.argv[3]}): proved {valid}/{total} goals in {sys.argv[2]} s")
sys.exit(0 if total > 0 and valid == total else 1)
PY
done
exit $status
