#!/usr/bin/env bash
# make install into a temporary PREFIX, then: the files are there, the
# shared library's soname is libchad.so.0 and it exports only the public
# API, and a C program built with `pkg-config --cflags --libs chad` (shared)
# and `pkg-config --static` runs, prints the right result and grades it with
# chad_check_candidate.
set -u
cd "$(dirname "$0")/../.."
pass=0; fail=0
ok() { pass=$((pass+1)); echo "ok   $1"; }
bad() { fail=$((fail+1)); echo "FAIL $1"; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
prefix=$tmp/prefix
if make -s install PREFIX="$prefix" >"$tmp/install.log" 2>&1; then ok "make install PREFIX=$prefix"
else bad "make install"; cat "$tmp/install.log"; fi
for f in bin/chad include/chad.h include/chad/diag.h lib/libchad.a lib/libchad.so lib/libchad.so.0 \
         lib/pkgconfig/chad.pc share/doc/chad/chad-help.txt share/doc/chad/README.md \
         share/man/man1/chad.1; do
  if [ -e "$prefix/$f" ]; then ok "installed $f"; else bad "missing $f"; fi
done
soname=$(readelf -d "$prefix/lib/libchad.so" 2>/dev/null | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
if [ "$soname" = libchad.so.0 ]; then ok "soname libchad.so.0"; else bad "soname is '$soname'"; fi
# Exported (defined, global) symbols: chad_* and diag_* only.
others=$(nm -D --defined-only "$prefix/lib/libchad.so" | awk '$2 ~ /[TDBR]/ {sub(/@.*/, "", $3); print $3}' | grep -v '^chad_' | grep -v '^diag_set$' | grep -v '^diag_print$' | grep -v '^CHAD_0$' || true)
if [ -z "$others" ] && nm -D --defined-only "$prefix/lib/libchad.so" | grep -q ' T chad_grad@'; then
  ok "exports the public API only"
else bad "exports more than the public API: $(echo $others | head -c 300)"; fi
# Every function chad.h declares is exported (src/libchad.map is kept in step).
missing=""
for f in $(grep -E '^(int|void|char|chad_prog|chad_json) ' include/chad.h | grep -oE 'chad_[a-z_]+\(' | tr -d '('); do
  nm -D --defined-only "$prefix/lib/libchad.so" | grep -q " T $f@" || missing="$missing $f"
done
if [ -z "$missing" ]; then ok "exports every function of chad.h"; else bad "not exported:$missing"; fi
cat > "$tmp/use.c" <<'C'
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <chad.h>
int main(void) {
  static const char src[] = "def f (x : real, y : real) : real = x * sin y\n";
  chad_diag d;
  chad_prog *p = chad_load_string(src, strlen(src), "f.chad", &d);
  if (!p) { diag_print(&d); return d.exit_code; }
  chad_json args = chad_json_text("[2, 0]", "<args>");
  char *out;
  int rc = chad_grad(p, NULL, &args, &out, &d);
  if (rc) { diag_print(&d); chad_free(p); return rc; }
  fputs(out, stdout);
  /* its own gradient graded by chad_check_candidate: every entry correct */
  chad_json cand = chad_json_text(out, "<candidate>");
  chad_check_opts o = {NULL, &args, &cand, NULL, NULL, CHAD_CHECK_DEFAULT_ULPS, 0, 0, 1};
  char *report;
  rc = chad_check_candidate(p, &o, &report, &d);
  if (rc) { diag_print(&d); free(out); chad_free(p); return rc; }
  if (!strstr(report, "\"verdict\": \"correct\"")) { fputs(report, stderr); rc = 6; }
  free(report);
  free(out);
  chad_free(p);
  return rc;
}
C
want='{"value": 0, "gradient": [0, 2]}'
export PKG_CONFIG_PATH="$prefix/lib/pkgconfig"
if cc -std=c11 -Wall -Wextra -Werror $(pkg-config --cflags chad) -o "$tmp/use" "$tmp/use.c" $(pkg-config --libs chad) 2>"$tmp/cc.log" &&
   got=$(LD_LIBRARY_PATH="$prefix/lib" "$tmp/use") && [ "$got" = "$want" ]; then
  ok "shared: pkg-config --libs chad, runs: $want"
else bad "shared build or run: ${got:-}"; cat "$tmp/cc.log"; fi
if LD_LIBRARY_PATH="$prefix/lib" ldd "$tmp/use" 2>/dev/null | grep -q "libchad.so.0 => $prefix/lib/libchad.so.0"; then ok "linked against libchad.so.0"
else bad "not linked against $prefix/lib/libchad.so.0"; fi
if cc -std=c11 -Wall -Wextra -Werror $(pkg-config --cflags chad) -o "$tmp/use_static" "$tmp/use.c" \
     "$prefix/lib/libchad.a" $(pkg-config --static --libs chad | sed 's/-lchad //') 2>"$tmp/cc2.log" &&
   got=$("$tmp/use_static") && [ "$got" = "$want" ]; then
  ok "static: libchad.a with pkg-config --static's libraries, runs"
else bad "static build or run: ${got:-}"; cat "$tmp/cc2.log"; fi
if [ -x "$tmp/use_static" ] && ! LD_LIBRARY_PATH="$prefix/lib" ldd "$tmp/use_static" | grep -q libchad; then
  ok "the static build does not need libchad.so"
else bad "the static build needs libchad.so"; fi
if head -1 "$prefix/share/man/man1/chad.1" | grep -q '^\.TH CHAD 1 ' &&
   grep -q 'usage: chad COMMAND FILE' "$prefix/share/man/man1/chad.1"; then ok "man page chad(1) holds the --help text"
else bad "man page"; fi
if command -v groff >/dev/null; then
  if [ -z "$(groff -man -Tutf8 -ww -z "$prefix/share/man/man1/chad.1" 2>&1)" ]; then ok "chad(1) formats without warnings"
  else bad "groff warns on chad(1)"; fi
fi
if "$prefix/bin/chad" --help | grep -q "usage: chad"; then ok "installed chad runs"; else bad "installed chad"; fi
# The Python package over the installed library, found by the loader (a
# copy of the package outside the tree, so the tree's build/pic is not seen).
py=${PYTHON:-/usr/bin/python3}
if "$py" -c "import numpy" 2>/dev/null; then
  cp -r python/chad "$tmp/chad"
  got=$(cd "$tmp" && env -u CHAD_LIBRARY PYTHONDONTWRITEBYTECODE=1 PYTHONPATH="$tmp" LD_LIBRARY_PATH="$prefix/lib" "$py" -c '
import chad
p = chad.loads("def f (x : real, y : real) : real = x * sin y")
print(chad.library_path, p.f.grad(2.0, 0.0))' 2>&1)
  if [ "$got" = "libchad.so.0 (0.0, 2.0)" ]; then ok "python: the package over the installed libchad.so.0"
  else bad "python over the installed library: $got"; fi
else
  echo "skip python over the installed library (no numpy for $py)"
fi
echo "install: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
