# The same function in PyTorch (float64): writes its value and gradient in
# the shape chad check --candidate reads (examples/check/layer_candidate.json).
import json
import sys

import torch

args = json.load(open(sys.argv[1] if len(sys.argv) > 1 else "layer_args.json"))
w = torch.tensor(args["w"], dtype=torch.float64, requires_grad=True)
x = torch.tensor(args["x"], dtype=torch.float64, requires_grad=True)
y = torch.sigmoid(w[2] * torch.tanh(w[0] * x) + w[3] * torch.tanh(w[1] * x))
y.backward()
print(json.dumps({"value": y.item(), "gradient": [w.grad.tolist(), x.grad.item()]}))
