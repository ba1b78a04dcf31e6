#!/usr/bin/env bash
# Every contract a proof leans on is proved or declared. WP proves a
# function against its callees' contracts, so a proved function whose
# callee is proved nowhere proves nothing about that callee's part. This
# check reads the call graph of each file set the jobs parse (Frama-C's
# callgraph plugin, ghost calls included) and the merged report of a
# `make prove` run, and fails if a function with goals in the report
# calls a function of the project that has none, unless proofs/assumed.txt
# declares it: an assumed contract, with why; or a rule of the full gate
# (`full-only`), which the full gate (PROVE_RULES=1, the default) must
# prove and the quick gate (PROVE_RULES=0, `make prove-quick`) relies on.
#   check-calls.sh REPORT        (PROVE_RULES=0 in the environment: quick gate)
set -euo pipefail
cd "$(dirname "$0")/.."
report=${1:-proofs/wp-report.json}
out=build/proofs
mkdir -p "$out"
kernel="src/kernel/terms.c src/kernel/contexts.c src/kernel/types.c src/kernel/ops.c"
# the file sets of prove.sh's own jobs, of prove-rev.sh and of prove-fwd.sh
sets=(
  "main|src/kernel/checker.c src/kernel/raw.c $kernel src/chad/build.c src/chad/types.c"
  "rev|$kernel src/chad/build.c src/chad/types.c src/chad/sharing.c src/chad/reverse.c src/chad/simplify.c"
  "fwd|$kernel src/chad/build.c src/chad/types.c src/chad/sharing.c src/chad/forward.c"
)
dots=()
for set in "${sets[@]}"; do
  name=${set%%|*} files=${set#*|}
  # shellcheck disable=SC2086
  if ! frama-c -no-autoload-plugins -load-module callgraph -cg-no-services \
       -cpp-extra-args="-Iinclude -Isrc -D_POSIX_C_SOURCE=200809L" \
       $files -cg "$out/callgraph-$name.dot" > "$out/callgraph-$name.log" 2>&1; then
    echo "check-calls: frama-c could not build the call graph of $name; see $out/callgraph-$name.log" >&2
    exit 1
  fi
  dots+=("$out/callgraph-$name.dot")
done
python3 - "$report" proofs/assumed.txt "${PROVE_RULES:-1}" "${dots[@]}" <<'PY'
import json, re, sys
report, listing, full_gate, dots = sys.argv[1], sys.argv[2], sys.argv[3] == "1", sys.argv[4:]
proved = set(json.load(open(report))["wp:functions"])
assumed, full_only = {}, set()
for n, line in enumerate(open(listing), 1):
    line = line.split("#", 1)[0].strip()
    if not line:
        continue
    kind, name, *why = line.split(None, 2)
    if kind == "assumed" and why:
        assumed[name] = why[0]
    elif kind == "full-only":
        full_only.add(name)
    else:
        sys.exit(f"{listing}:{n}: expected 'assumed NAME WHY' or 'full-only NAME'")
edge = re.compile(r'^\s*"?(\w+)"?\s*->\s*"?(\w+)"?', re.M)
calls = {}
for path in dots:
    for caller, callee in edge.findall(open(path).read()):
        calls.setdefault(caller, set()).add(callee)
bad = []
for caller in sorted(proved):
    for callee in sorted(calls.get(caller, ())):
        if callee in proved or callee in assumed:
            continue
        if callee in full_only and not full_gate:
            continue
        why = " (full-only: the full gate must prove it)" if callee in full_only else ""
        bad.append(f"  {caller} calls {callee}, which no job proves{why}")
if full_gate:
    bad += [f"  full-only {name} is not proved" for name in sorted(full_only - proved)]
stale = sorted(name for name in assumed if name in proved)
bad += [f"  {name} is listed as assumed in {listing} but proved" for name in stale]
if bad:
    print("check-calls: contracts used but not proved or declared:\n" + "\n".join(bad))
    sys.exit(1)
used = sorted({c for f in proved for c in calls.get(f, ()) if c in assumed})
relied = sorted({c for f in proved for c in calls.get(f, ()) if c in full_only and c not in proved})
print(f"check-calls: every callee of the {len(proved)} proved functions is proved"
      f" or declared ({len(used)} assumed contracts used: {', '.join(used) or 'none'})")
if relied:
    print(f"check-calls: quick gate: {len(relied)} rules' contracts relied upon, proved by"
          f" the full gate (make prove): {', '.join(relied)}")
PY
