#!/usr/bin/env bash
# make mutants: adequacy of the property tests. Applies each deliberate bug of
# scripts/mutants.list, one at a time, to a temporary copy of the tree (the
# working tree is never modified), rebuilds, runs the property tests with a
# reduced N and checks that they fail. Prints a table; exits 1 if any mutant
# survives, does not apply, or does not build, or if the unmutated tree fails.
#   MUTANTS_N (default 400), MUTANTS_SEED (default 1), MUTANTS_LIST
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
list=${MUTANTS_LIST:-$root/scripts/mutants.list}
N=${MUTANTS_N:-400}
SEED=${MUTANTS_SEED:-1}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/chad-mutants.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
(cd "$root" && tar --exclude=./build --exclude=./.git --exclude=./chad -cf - .) | (cd "$tmp" && tar xf -)
cd "$tmp"
mkdir -p .pristine

# Failed properties of a run: the rows of the summary table with failures.
failed_props() {
  awk '/^property /{t=1; next} /^coverage:/{t=0} t && NF>=4 && $(NF-1)+0>0 {
         sub(/ +[0-9]+ +[0-9]+ +[0-9]+$/, ""); printf "%s%s", sep, $0; sep="; " }' "$1"
}

run_props() {
  PROPTEST_N=$N PROPTEST_SEED=$SEED PROPTEST_QUIET=1 timeout 600 proptests/run.sh > "$1" 2>&1
}

echo "mutants: N=$N seed=$SEED, tree copied to $tmp"
make -s build/release/libchad.a > build.log 2>&1 || { cat build.log; echo "mutants: the unmutated tree does not build"; exit 1; }
if ! run_props base.out; then
  tail -20 base.out
  echo "mutants: the unmutated tree fails the property tests; mutants would prove nothing"
  exit 1
fi

printf '\n%-26s %-8s %s\n' mutant result "killed by"
total=0; killed=0; bad=0
while IFS= read -r line; do
  case "$line" in ''|'#'*) continue ;; esac
  name=$(printf '%s' "$line" | awk -F' [|] ' '{gsub(/ +$/, "", $1); print $1}')
  file=$(printf '%s' "$line" | awk -F' [|] ' '{gsub(/^ +| +$/, "", $2); print $2}')
  total=$((total + 1))
  mkdir -p ".pristine/$(dirname "$file")"
  [ -f ".pristine/$file" ] || cp "$file" ".pristine/$file"
  if ! MUT_LINE="$line" python3 - "$file" <<'PY'
import os, sys
parts = os.environ["MUT_LINE"].split(" | ", 3)
old, new = parts[2].strip(), parts[3].strip()
path = sys.argv[1]
src = open(path).read()
if src.count(old) != 1:
    sys.exit(1)
open(path, "w").write(src.replace(old, new))
PY
  then
    printf '%-26s %-8s %s\n' "$name" NOTAPPLIED "text not found exactly once in $file"
    bad=$((bad + 1))
    continue
  fi
  if ! make -s build/release/libchad.a > build.log 2>&1; then
    printf '%-26s %-8s %s\n' "$name" NOBUILD "$(grep -m1 error build.log || true)"
    bad=$((bad + 1))
  elif run_props mut.out; then
    printf '%-26s %-8s %s\n' "$name" SURVIVED "-"
  else
    killed=$((killed + 1))
    why=$(failed_props mut.out)
    printf '%-26s %-8s %s\n' "$name" killed "${why:-$(tail -1 mut.out)}"
  fi
  cp ".pristine/$file" "$file"   # restore (new mtime: make rebuilds it)
done < "$list"

echo
echo "$killed of $total mutants killed ($bad not applicable or not building)"
[ "$killed" -eq "$total" ]
