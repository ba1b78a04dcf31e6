#!/usr/bin/env bash
# One Frama-C/WP run of `make prove` (called by prove.sh, prove-rev.sh and
# prove-fwd.sh, which choose what each run proves):
#   wp-run.sh NAME REPORT FRAMA-C-ARGS...
# FRAMA-C-ARGS: the selection (-wp-fct, -wp-skip-fct, -wp-prop) and the
# files. The environment gives WP_PROVERS (in the order tried), WP_TIMEOUT
# (seconds per goal and prover) and WP_PAR (-wp-par); WP_CPP_DEFS, if set,
# more preprocessor definitions (a lemma only some runs should see).
# Writes the JSON report REPORT, the log build/proofs/wp-NAME.log and the
# session proofs/wp-session-NAME (git-ignored); prints "NAME: ..." progress
# (every 100 valid goals, every goal not proved with each prover's answer)
# and "NAME: proved V/T goals in S s". Exits 1 unless the report says
# valid == total > 0.
# Cold by default: WP's result cache, which WP 25 otherwise keeps in the
# session directory (-wp-session), is off unless PROVE_WP_CACHE names a
# mode (update, replay, ...): a run proves every goal afresh.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
name=$1 report=$2
shift 2
: "${WP_PROVERS:?} ${WP_TIMEOUT:?} ${WP_PAR:?}"
out=build/proofs
mkdir -p "$out"
# The Why3 configuration prove.sh writes (cvc5, the quick provers), also
# when prove-rev.sh or prove-fwd.sh is run alone after a first make prove.
if [ -z "${WHY3CONFIG:-}" ] && [ -s "$out/why3.conf" ]; then
  export WHY3CONFIG="$PWD/$out/why3.conf"
fi
rm -f "$report"
# Only the two plugins WP needs (rtegen for -wp-rte, wp): every loaded
# plugin's globals are scanned at each minor collection. Plus
# proofs/wp_tuning.ml (a larger minor heap than the 256k words Frama-C
# sets, and a 5 ms polling period for the provers' answers instead of
# 50 ms), compiled here once against Frama-C's interfaces (OCaml's
# compiler comes with `make deps`). Without it the run is only slower
# (proofs/README.md "Time").
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
# (proofs/README.md "Time").
start=$(date +%s)
echo "$name: frama-c -wp ($WP_PROVERS, ${WP_TIMEOUT} s, -wp-par $WP_PAR); log in $out/wp-$name.log"
frama-c -no-autoload-plugins -load-module "$modules" \
  -cpp-extra-args="-Iinclude -Isrc -D_POSIX_C_SOURCE=200809L${WP_CPP_DEFS:+ $WP_CPP_DEFS}" \
  -wp -wp-rte -warn-unsigned-overflow -warn-unsigned-downcast \
  -wp-prover "$WP_PROVERS" -wp-timeout "$WP_TIMEOUT" -wp-par "$WP_PAR" -wp-no-pruning -wp-no-ground \
  -wp-session "proofs/wp-session-$name" -wp-cache "${PROVE_WP_CACHE:-none}" -wp-report-json "$report" \
  "$@" 2>&1 | tee "$out/wp-$name.log" | {
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
end=$(date +%s)
if [ ! -s "$report" ]; then
  echo "$name: frama-c stopped without a report; see $out/wp-$name.log" >&2
  exit 1
fi
python3 - "$report" "$((end - start))" "$name" <<'PY'
import json, sys
main = json.load(open(sys.argv[1]))["wp:global"]["wp:main"]
valid, total = int(main.get("valid", 0)), int(main.get("total", 0))
print(f"{sys.argv[3]}: proved {valid}/{total} goals in {sys.argv[2]} s")
sys.exit(0 if total > 0 and valid == total else 1)
PY
