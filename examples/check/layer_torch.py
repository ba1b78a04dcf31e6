# The function of layer.chad in PyTorch: prints its value and gradient in the
# shape `chad check --candidate` reads. layer_candidate.json is its float64
# output (PyTorch 1.13, Debian's python3-torch):
#   python3 layer_torch.py layer_args.json > layer_candidate.json
#   python3 layer_torch.py layer_args.json f32    # the same in float32
import json
import sys

import torch

args = json.load(open(sys.argv[1] if len(sys.argv) > 1 else "layer_args.json"))
dtype = torch.float32 if sys.argv[2:] == ["f32"] else torch.float64
w = torch.tensor(args["w"], dtype=dtype, requires_grad=True)
x = torch.tensor(args["x"], dtype=dtype, requires_grad=True)
y = torch.sigmoid(w[2] * torch.tanh(w[0] * x) + w[3] * torch.tanh(w[1] * x))
y.backward()
print(json.dumps({"value": y.item(), "gradient": [w.grad.tolist(), x.grad.item()]}))
