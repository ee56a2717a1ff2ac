"""Writes testdata/hf_micro: a 2-layer GPT-2 (2 heads, 8 wide, context 8, vocabulary 11) saved by
transformers' save_pretrained, and hf_micro_ref.json: PyTorch's float32 logits, loss and gradients
on a fixed batch, which gpt2_test.go's TestHFMicro compares with the Go model.

    python3 models/gpt2/testdata/make_hf_micro.py models/gpt2/testdata
"""
import json, os, sys
import torch
import torch.nn.functional as F
from transformers import GPT2Config, GPT2LMHeadModel

out = sys.argv[1]
torch.manual_seed(0)
cfg = GPT2Config(n_layer=2, n_head=2, n_embd=8, n_positions=8, vocab_size=11, resid_pdrop=0.0, embd_pdrop=0.0,
                 attn_pdrop=0.0, bos_token_id=10, eos_token_id=10)
m = GPT2LMHeadModel(cfg).float()
with torch.no_grad():  # draw the biases and layer norms too, so that their gradients are not special
    for n, p in m.named_parameters():
        if p.dim() == 1:
            p.add_(0.3 * torch.randn_like(p))
m.save_pretrained(os.path.join(out, "hf_micro"))
inputs = torch.tensor([[1, 5, 2, 9, 0, 3], [10, 4, 4, 7, 8, 6]])
targets = torch.tensor([[5, 2, 9, 0, 3, 1], [4, -1, 7, 8, 6, 2]])
m.eval()
logits = m(input_ids=inputs).logits
loss = F.cross_entropy(logits.reshape(-1, 11), targets.reshape(-1), ignore_index=-1)
loss.backward()
ref = {"inputs": inputs.flatten().tolist(), "targets": targets.flatten().tolist(), "batch": 2, "seq": 6,
       "logits": logits.detach().flatten().tolist(), "loss": loss.item(),
       "grads": {n: p.grad.flatten().tolist() for n, p in m.named_parameters()}}
with open(os.path.join(out, "hf_micro_ref.json"), "w") as f:
    json.dump(ref, f)
