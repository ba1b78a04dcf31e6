#!/usr/bin/env bash
# `make python-setup`: makes `import chad` work from this checkout without
# PYTHONPATH and without root. It writes chad-checkout.pth, one line naming
# this checkout's python/ directory, into the user site-packages
# (`python3 -m site --user-site`; PYTHONUSERBASE moves it) of Debian's
# /usr/bin/python3 and of the python3 first in PATH when that is another
# one; in a virtual environment, into its own site-packages. PYTHONS="..."
# replaces that list. The package then loads the checkout's
# build/pic/libchad.so.0 (python/chad/_lib.py). Another checkout's setup
# replaces the file; removing it undoes the setup.
# Each interpreter is then tried in a fresh process (from /, without
# PYTHONPATH or CHAD_LIBRARY); it fails when none can import chad.
set -uo pipefail
cd "$(dirname "$0")/.."
root=$PWD
pys=${PYTHONS:-"/usr/bin/python3 $(command -v python3 || true)"}
done_dirs=" "; done_pys=" "; good=0
for py in $pys; do
  command -v "$py" >/dev/null || continue
  real=$(readlink -f "$(command -v "$py")")
  case "$done_pys" in *" $real "*) continue ;; esac
  done_pys="$done_pys$real "
  if ! dir=$("$py" - <<'PY'
import site, sys, sysconfig
if sys.prefix != sys.base_prefix:       # a virtual environment
    print(sysconfig.get_paths()["purelib"])
elif site.ENABLE_USER_SITE:
    print(site.getusersitepackages())
else:
    sys.exit("its user site-packages is disabled (python -s, or PYTHONNOUSERSITE)")
PY
  ); then echo "python-setup: $py: skipped" >&2; continue; fi
  case "$done_dirs" in *" $dir "*) ;; *)
    mkdir -p "$dir" && printf '%s\n' "$root/python" > "$dir/chad-checkout.pth" || exit 1
    done_dirs="$done_dirs$dir "
    echo "python-setup: wrote $dir/chad-checkout.pth" ;;
  esac
  if msg=$(cd / && env -u PYTHONPATH -u CHAD_LIBRARY "$py" -c \
             'import chad; print(chad.library_path)' 2>&1); then
    good=$((good+1)); echo "python-setup: $py: import chad works (libchad: $msg)"
  else
    echo "python-setup: $py: import chad fails: $(printf '%s\n' "$msg" | tail -1)" >&2
  fi
done
[ "$good" -gt 0 ] || { echo "python-setup: no python3 of ($pys) can import chad" >&2; exit 1; }
