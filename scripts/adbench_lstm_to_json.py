#!/usr/bin/env python3
"""Converts an ADBench LSTM instance (lstm/*.txt) to the JSON arguments of
examples/lstm.chad.

ADBench format (whitespace-separated lines, blank lines between the parts):
"l c b" (layers, characters, bits per character), then main_params (2 l
rows of 4 b: per layer its weights, then its biases, each the forget, input,
output and change gates' b entries), extra_params (3 rows of b: input
weight, output weight, output bias), state (2 l rows of b: per layer its
hidden state, then its cell state), sequence (c rows of b: one-hot-ish
characters).

The arguments are those rows as they are: main_params, extra_params, state,
sequence, each an array of rows.

Usage: scripts/adbench_lstm_to_json.py IN.txt [--chars N] > OUT.json
       (--chars N keeps the first N characters of the sequence: a smaller
       instance of the same model)
"""
import json
import sys

from adbench_tokens import Tokens


def main(argv):
    args = argv[1:]
    chars = None
    if len(args) == 3 and args[1] == "--chars":
        chars = int(args[2])
        args = args[:1]
    if len(args) != 1 or (chars is not None and chars < 2):
        sys.exit(__doc__)
    t = Tokens(args[0])
    l, c, b = t.take(int), t.take(int), t.take(int)
    main_params = t.rows(2 * l, 4 * b)
    extra_params = t.rows(3, b)
    state = t.rows(2 * l, b)
    sequence = t.rows(c, b)
    t.done()
    if chars is not None:
        sequence = sequence[:chars]
    out = {"main_params": main_params, "extra_params": extra_params,
           "state": state, "sequence": sequence}
    json.dump(out, sys.stdout)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main(sys.argv)
