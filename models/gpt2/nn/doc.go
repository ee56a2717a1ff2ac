// Package nn holds the ops of a GPT-2 that package ops does not have, each registered with ops
// (an ops.Op, or an ops.MultiOp where an input is an int32 index tensor or there are several
// outputs) with a CPU kernel in Go (the reference and the fallback), a CUDA kernel in the
// cu_library of this directory and a backward, so that autograd differentiates a model built
// from them; and the optimizer's in-place updates, which are not ops.
//
// Every function takes the call's context first and runs on its inputs' device (with
// ops/cuda, on the stream the context chooses). The ops record themselves for autograd.
// Floating-point tensors must share one dtype: float32, float64 or bfloat16 (float16 is an
// ops.ErrDType error); bfloat16 is loaded as float32, computed in float32 (statistics, sums and
// softmax in float32) and rounded to nearest even once when stored. Shapes, dtypes and devices
// are checked, and a bad one is an *ops.OpError naming the op and the argument.
//
// The API:
//
//	func Embedding(ctx context.Context, tokens, wte, wpe *ops.Tensor) (*ops.Tensor, error)
//	    tokens [B, T] ops.Int32, wte [V, C], wpe [maxT, C] -> [B, T, C]:
//	    out[b, t] = wte[tokens[b, t]] + wpe[t]. T <= maxT. A token outside [0, V) is an
//	    ops.ErrArg error on the CPU; on a GPU it cannot be reported without a wait, so its
//	    row of the output is NaN (the loss becomes NaN) and it adds nothing to wte's gradient.
//	func LayerNorm(ctx context.Context, x, weight, bias *ops.Tensor, eps float64) (*ops.Tensor, error)
//	    x [..., C], weight [C], bias [C]: torch.nn.functional.layer_norm over the last dimension
//	    (biased variance, eps inside the square root).
//	func Linear(ctx context.Context, x, weight, bias *ops.Tensor) (*ops.Tensor, error)
//	    x [..., In], weight [Out, In] (torch.nn.Linear's layout), bias [Out] or nil -> [..., Out]:
//	    x·weightᵀ + bias. The product is ops.MatMul (cuBLASLt on a GPU: float32 IEEE unless
//	    cuda.SetAllowTF32, bfloat16 accumulating in float32) on weight's transpose read in place,
//	    the bias an op of this package (BiasAdd); the gradients are dx, dweight and dbias.
//	func GELU(ctx context.Context, x *ops.Tensor) (*ops.Tensor, error)
//	    0.5·x·(1 + tanh(√(2/π)·(x + 0.044715·x³))), the tanh approximation GPT-2 uses
//	    (Hugging Face's "gelu_new", torch's approximate="tanh").
//	func BiasAdd(ctx context.Context, x, bias *ops.Tensor) (*ops.Tensor, error)
//	    x [..., N] + bias [N], broadcast over the leading dimensions.
//	func CausalSelfAttention(ctx context.Context, qkv *ops.Tensor, nHead int) (*ops.Tensor, error)
//	    qkv [B, T, 3C] (q, k and v concatenated along the last dimension, as GPT-2's c_attn
//	    writes them; head h of q is qkv[..., h·C/nHead : (h+1)·C/nHead]) -> [B, T, C]: per head,
//	    softmax(q·kᵀ/√(C/nHead) with keys after the query masked)·v, heads concatenated. The CUDA
//	    kernels take head sizes up to 256.
//	func CrossEntropy(ctx context.Context, logits, targets *ops.Tensor) (*ops.Tensor, error)
//	    logits [..., V], targets [...] ops.Int32 -> a 0-d tensor: the mean over the targets that
//	    are not -1 of logsumexp(logits) - logits[target], like torch's cross_entropy with
//	    ignore_index=-1 (NaN when every target is -1, as torch). It is float32 for float32 and
//	    bfloat16 logits (computed in float32) and float64 for float64 logits. A target outside
//	    [-1, V) is an ops.ErrArg error on the CPU and makes the loss NaN on a GPU.
//
// Residual connections are ops.Axpby(ctx, 1, x, 1, y); the tied LM head is Linear with wte and
// no bias.
//
// The optimizer (no autograd; params, grads and moments are updated in place, on their device):
//
//	type AdamW struct{ LR, Beta1, Beta2, Eps, WeightDecay float64 }
//	func (o AdamW) Step(ctx context.Context, params, grads, m, v []*ops.Tensor, step int) error
//	    one step of torch.optim.AdamW (decoupled weight decay, bias correction, step counted
//	    from 1) on float32 or float64 params, each with its grad, m and v of its shape, dtype
//	    and device (m and v start at zero: ZerosLike).
//	func GradNorm(ctx context.Context, grads []*ops.Tensor) (float64, error)
//	    the L2 norm of all the gradients together (as torch.nn.utils.clip_grad_norm_ computes it).
//	func ClipGradNorm(ctx context.Context, grads []*ops.Tensor, maxNorm float64) (float64, error)
//	    torch.nn.utils.clip_grad_norm_: scales the gradients in place by
//	    min(1, maxNorm/(norm + 1e-6)) and returns the norm before clipping.
//	func ScaleInPlace(ctx context.Context, t *ops.Tensor, s float64) error
//	    t *= s in place (t contiguous, float32, float64 or bfloat16).
//	func ZerosLike(ctx context.Context, t *ops.Tensor) (*ops.Tensor, error)
//	    zeros of t's shape, dtype and device.
//
// Importing the package registers the CUDA kernels (it imports ops/cuda); a binary still starts
// and runs on the CPU without a GPU or NVIDIA driver.
package nn
