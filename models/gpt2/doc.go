// Package gpt2 is GPT-2 written on the ops library: the model (GPT-2 small,
// 124M parameters, and smaller configurations), its training (mixed
// precision, AdamW, warmup and cosine learning rate, gradient clipping and
// accumulation), checkpoints that Hugging Face transformers reads and
// writes, and sampling with a key/value cache.
//
// The network is built from package models/gpt2/nn's ops (embedding, layer
// norm, linear, GELU, causal self-attention, cross-entropy; each with its
// backward) and ops.Axpby for the residuals, called like any user's code
// calls ops: with a context first, recording autograd, on the device of the
// parameters. Parameters are float32 master weights (Param); the compute
// dtype of a pass (Float32 or BFloat16) is chosen per call, the weights cast
// to it differentiably, so gradients land on the float32 masters.
//
//	m, _ := gpt2.New(ctx, gpt2.Small(), seed, ops.CUDA(0))
//	tr, _ := gpt2.NewTrainer(m, gpt2.DefaultHyper(steps), ops.BFloat16)
//	res, _ := tr.TrainStep(ctx, loader.Next, b, t, accum)
//	_ = tr.Save("ckpt", gpt2.RunState{...})  // config.json + model.safetensors (+ train_state.safetensors)
//
// A checkpoint folder is what GPT2LMHeadModel.from_pretrained reads
// (config.json, model.safetensors with "transformer.*" names, Conv1D
// weights [In, Out], the LM head tied to wte), plus train_state.safetensors
// for resuming. docs/gpt2.md describes the command (models/gpt2/cmd/gpt2),
// the data and the checkpoint format.
package gpt2
