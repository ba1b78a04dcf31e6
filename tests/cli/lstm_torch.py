# ADBench's LSTM objective in PyTorch, float64, written from ADBench's
# definition (its lstm.h / lstm_objective.py) independently of
# examples/lstm.chad: prints the value and gradient (main_params,
# extra_params; null for state and sequence, which the candidate leaves
# ungraded by giving them as the reference's shape) in the shape
# `chad check --candidate` reads.
#   /usr/bin/python3 tests/cli/lstm_torch.py ARGS.json > CANDIDATE.json
import json
import sys

import torch

args = json.load(open(sys.argv[1]))
f64 = torch.float64
main = torch.tensor(args["main_params"], dtype=f64, requires_grad=True)
extra = torch.tensor(args["extra_params"], dtype=f64, requires_grad=True)
state = torch.tensor(args["state"], dtype=f64, requires_grad=True)
seq = torch.tensor(args["sequence"], dtype=f64, requires_grad=True)
layers = main.shape[0] // 2
c, b = seq.shape

hidden = [state[2 * j] for j in range(layers)]
cell = [state[2 * j + 1] for j in range(layers)]
total = torch.zeros((), dtype=f64)
for t in range(c - 1):
    x = seq[t] * extra[0]
    for j in range(layers):
        w, bias = main[2 * j], main[2 * j + 1]
        gate = lambda k, v: v * w[k * b:(k + 1) * b] + bias[k * b:(k + 1) * b]
        forget = torch.sigmoid(gate(0, x))
        ingate = torch.sigmoid(gate(1, hidden[j]))
        outgate = torch.sigmoid(gate(2, x))
        change = torch.tanh(gate(3, hidden[j]))
        cell[j] = cell[j] * forget + ingate * change
        hidden[j] = outgate * torch.tanh(cell[j])
        x = hidden[j]
    y = x * extra[1] + extra[2]
    ynorm = y - torch.log(torch.exp(y).sum() + 2.0)
    total = total + (seq[t + 1] * ynorm).sum()
loss = -total / ((c - 1) * b)
loss.backward()
print(json.dumps({"value": loss.item(),
                  "gradient": [main.grad.tolist(), extra.grad.tolist(), state.grad.tolist(), seq.grad.tolist()]}))
