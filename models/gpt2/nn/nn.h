// The C API of package nn's CUDA kernels (nn_*.cu), called from cuda.go through cgo. Each
// function launches its kernels on stream (a cudaStream_t as an integer; 0 is the legacy default
// stream) of device and returns a cudaError_t (0: success). Tensors are device addresses of
// contiguous buffers; dtype is an ops/cuda C ABI code (OPSCUDA_FLOAT32, OPSCUDA_FLOAT64,
// OPSCUDA_BFLOAT16) of the floating-point tensors; int32 tensors are tokens and targets.
// Scratch buffers are the caller's: `acc` elements of float (double for OPSCUDA_FLOAT64).
// nn_stub.cc defines the same functions for builds without CUDA.
#ifndef RULES_CUDA_GO_MODELS_GPT2_NN_NN_H_
#define RULES_CUDA_GO_MODELS_GPT2_NN_NN_H_

#ifdef __cplusplus
extern "C" {
#endif

typedef unsigned long long nn_ptr;

// out[B*T, C] = wte[tokens[r]] + wpe[r % T]; a token outside [0, V) gives a row of NaN.
int nn_embedding_forward(nn_ptr stream, int device, int dtype, nn_ptr out, nn_ptr tokens, nn_ptr wte,
                         nn_ptr wpe, long long B, long long T, long long C, long long V);
// dwte[V, C] = sum of g's rows by token (tokens outside [0, V) add nothing), dwpe[maxT, C] = sum
// of g over the batch (rows t >= T zero).
int nn_embedding_backward(nn_ptr stream, int device, int dtype, nn_ptr dwte, nn_ptr dwpe, nn_ptr g,
                          nn_ptr tokens, long long B, long long T, long long C, long long V,
                          long long maxT);
// Layer norm of the N rows of x[N, C].
int nn_layernorm_forward(nn_ptr stream, int device, int dtype, nn_ptr out, nn_ptr x, nn_ptr w,
                         nn_ptr b, long long N, long long C, double eps);
// dx[N, C], dw[C], db[C] from g and x [N, C] and w; stats: 2N acc of scratch.
int nn_layernorm_backward(nn_ptr stream, int device, int dtype, nn_ptr dx, nn_ptr dw, nn_ptr db,
                          nn_ptr g, nn_ptr x, nn_ptr w, nn_ptr stats, long long N, long long C,
                          double eps);
// out[N, C] = x + b (broadcast over rows).
int nn_bias_add(nn_ptr stream, int device, int dtype, nn_ptr out, nn_ptr x, nn_ptr b, long long N,
                long long C);
// out[C] = g[N, C] summed over rows.
int nn_bias_grad(nn_ptr stream, int device, int dtype, nn_ptr out, nn_ptr g, long long N,
                 long long C);
// out = gelu(x) (tanh approximation); nn_gelu_backward: out = g * gelu'(x). n elements.
int nn_gelu_forward(nn_ptr stream, int device, int dtype, nn_ptr out, nn_ptr x, long long n);
int nn_gelu_backward(nn_ptr stream, int device, int dtype, nn_ptr out, nn_ptr g, nn_ptr x,
                     long long n);
// Causal attention of qkv[B, T, 3*H*D] into out[B, T, H*D]; D <= 256.
int nn_attention_forward(nn_ptr stream, int device, int dtype, nn_ptr out, nn_ptr qkv, long long B,
                         long long T, long long H, long long D);
// dqkv[B, T, 3*H*D] from g and out [B, T, H*D] and qkv; stats: 2*B*H*T acc of scratch.
int nn_attention_backward(nn_ptr stream, int device, int dtype, nn_ptr dqkv, nn_ptr g, nn_ptr qkv,
                          nn_ptr out, nn_ptr stats, long long B, long long T, long long H,
                          long long D);
// loss (one element, double for OPSCUDA_FLOAT64 logits, else float) = mean over the targets
// that are not -1 of logsumexp(row) - row[target], logits[N, V]; scratch: 2N acc.
int nn_cross_entropy_forward(nn_ptr stream, int device, int dtype, nn_ptr loss, nn_ptr logits,
                             nn_ptr targets, nn_ptr scratch, long long N, long long V);
// dlogits[N, V] from g (one element of the loss's type), logits and targets; scratch: 1 acc.
int nn_cross_entropy_backward(nn_ptr stream, int device, int dtype, nn_ptr dlogits, nn_ptr g,
                              nn_ptr logits, nn_ptr targets, nn_ptr scratch, long long N,
                              long long V);
// One AdamW step in place on n elements of p, with g, m and v (float32 or float64).
int nn_adamw(nn_ptr stream, int device, int dtype, nn_ptr p, nn_ptr g, nn_ptr m, nn_ptr v,
             long long n, double decay, double beta1, double beta2, double eps, double step_size,
             double bc2_sqrt);
// t *= s in place, n elements.
int nn_scale(nn_ptr stream, int device, int dtype, nn_ptr t, long long n, double s);

#ifdef __cplusplus
}
#endif

#endif  // RULES_CUDA_GO_MODELS_GPT2_NN_NN_H_
