#!/usr/bin/env bash
# `make demo`: shows the command line on the shipped examples, printing each
# command before its output. The main job: ADBench's GMM objective and its
# gradient by reverse-mode CHAD.
set -euo pipefail
cd "$(dirname "$0")/.."
CHAD=${CHAD:-./chad}
step() {
  echo
  echo "\$ $*"
  "$@"
}

echo "== CHAD-C demo: a first-order program (CHAD paper, Fig. 1 (b))"
step "$CHAD" check examples/fig1b.chad
step "$CHAD" eval examples/fig1b.chad --args @examples/fig1b.json
step "$CHAD" grad examples/fig1b.chad --args @examples/fig1b.json
step "$CHAD" rev examples/fig1b.chad

echo
echo "== a higher-order program (CHAD paper, Fig. 2 (b)): map of a closure"
step "$CHAD" eval examples/fig2b.chad --args @examples/fig2b.json
step "$CHAD" grad examples/fig2b.chad --args @examples/fig2b.json
step "$CHAD" jacobian examples/fig2a.chad --args @examples/fig2a.json --mode rev

echo
echo "== ADBench GMM objective on gmm/test.txt (d=2, k=3, n=1); ADBench's value: 8.07380408004975791"
step "$CHAD" check examples/gmm.chad
step "$CHAD" eval examples/gmm.chad --args @examples/gmm_test.json
step "$CHAD" grad examples/gmm.chad --args @examples/gmm_test.json

echo
echo "== the oracle (--eval ball): correctly rounded, and a verdict where no derivative exists"
step "$CHAD" grad examples/oracle.chad --fn tanh_tail --args '[20.0]'
step "$CHAD" grad examples/oracle.chad --fn tanh_tail --args '[20.0]' --eval ball
step "$CHAD" grad examples/oracle.chad --fn relu --args '[0.0]' --eval ball || echo "(exit $?: not differentiable here)"
step "$CHAD" grad examples/oracle.chad --fn norm --args '[[0.0, 0.0]]' --eval ball || echo "(exit $?: a domain edge)"
