// C interface of the CUDA backend of github.com/rules-cuda-go/rules_cuda_go/ops (package ops/cuda),
// called from cgo. Everything runs on the CUDA runtime (never the driver API):
//
//   - Every function takes the device ordinal and calls cudaSetDevice on the calling thread first,
//     so calls from any OS thread (goroutine) address the right GPU.
//   - Every function that queues work takes the stream it goes to (0: the legacy default stream,
//     which orders the work of all threads); memory comes from the device's stream-ordered pool
//     (cudaMallocAsync / cudaFreeAsync on the caller's stream), so a free never releases memory
//     that work queued on that stream still uses. Ordering across streams is the caller's (ops/cuda
//     records events).
//   - Every function returns a cudaError_t (0 = cudaSuccess). Kernel launches are checked with
//     cudaGetLastError; errors of the kernels themselves surface at the next synchronizing call.
//
// Device pointers are passed as opscuda_dptr (an integer, like the driver API's CUdeviceptr), so
// Go never holds them as pointers. Sizes, offsets and strides are in elements unless named bytes.
#ifndef RULES_CUDA_GO_OPS_CUDA_OPSCUDA_H_
#define RULES_CUDA_GO_OPS_CUDA_OPSCUDA_H_

#ifdef __cplusplus
extern "C" {
#endif

typedef unsigned long long opscuda_dptr;

// The most dimensions a strided operand may have after merging dimensions that are contiguous with
// each other in every operand.
#define OPSCUDA_MAX_DIMS 8

// Element types (the values of ops.DType). The 16-bit types are __half (cuda_fp16.h) and
// __nv_bfloat16 (cuda_bf16.h); kernels compute on them in float32 (or wider) and round the
// results to nearest even.
#define OPSCUDA_FLOAT32 1
#define OPSCUDA_FLOAT64 2
#define OPSCUDA_FLOAT16 3
#define OPSCUDA_BFLOAT16 4
// 32-bit signed integers (int32_t): indices, which only copies and the ops that read indices take.
#define OPSCUDA_INT32 5

// ---- Every entry point, declared once: X(name, (parameters)). Each returns a cudaError_t.
// csrc/stub.cc defines the same list for builds without CUDA from this one declaration.
//
// Streams are opscuda_stream values: 0 is the device's legacy default stream (cudaStreamLegacy),
// anything else a stream from opscuda_stream_create. Events and graphs are opaque handles too.
// Every function that queues work takes its stream explicitly.
typedef unsigned long long opscuda_stream;
typedef unsigned long long opscuda_event;
typedef unsigned long long opscuda_graph;

// The parameters of an elementwise kernel, first in its parameter list: out[i] = f(in[0][off0(i)],
// in[1][off1(i)], ...) for i in [0, n) on stream st of device, out contiguous, dtype the operands'
// element type (OPSCUDA_FLOAT32, ...). out and in[0..nin) are device addresses (an operand's
// first element: base + offset). The operands' logical shape, dimensions merged, is
// sizes[0..ndim) (outermost first, ndim <= OPSCUDA_MAX_DIMS) and strides[k*ndim + d] is operand
// k's stride along dimension d; sizes and strides NULL mean contiguous operands of n elements.
#define OPSCUDA_EW                                                                           \
  opscuda_stream st, int device, int dtype, opscuda_dptr out, const opscuda_dptr *in, int nin, \
      long long n, int ndim, const long long *sizes, const long long *strides

// Error codes beyond cudaError_t's range. OPSCUDA_ERROR_CUBLAS_BASE + s: cuBLAS returned the
// cublasStatus_t s. OPSCUDA_ERROR_CUBLAS_MISSING: libcublasLt could not be loaded (the error
// string says what was missing and where it was looked for).
#define OPSCUDA_ERROR_CUBLAS_MISSING 99999
#define OPSCUDA_ERROR_CUBLAS_BASE 100000

// MatMul flags: float32 products may use TF32 tensor cores (10-bit mantissa inputs).
#define OPSCUDA_MATMUL_TF32 1

// Stream-capture status of a stream (opscuda_stream_capturing).
#define OPSCUDA_CAPTURE_NONE 0
#define OPSCUDA_CAPTURE_ACTIVE 1
#define OPSCUDA_CAPTURE_INVALIDATED 2

#define OPSCUDA_API(X)                                                                         \
  /* Devices. Stores the number of devices in *count. */                                      \
  X(device_count, (int* count))                                                               \
  /* The CUDA version the driver supports (0: no driver) and the runtime's, e.g. 13020. */     \
  X(versions, (int* driver, int* runtime))                                                    \
  /* Name (NUL-terminated, truncated to len bytes), compute capability and SM count. */       \
  X(device_info, (int device, char* name, int len, int* major, int* minor, int* sms))         \
  /* Allocates bytes (> 0) from the device's stream-ordered pool on stream (cudaMalloc when */ \
  /* the device has no pools); opscuda_free returns it after the work queued on stream. */     \
  X(malloc, (int device, opscuda_stream stream, unsigned long long bytes, opscuda_dptr* ptr))   \
  X(free, (int device, opscuda_stream stream, opscuda_dptr ptr))                              \
  /* Plain cudaMalloc / cudaFree, allowed while a stream is being captured (graph pools). */   \
  X(malloc_private, (int device, unsigned long long bytes, opscuda_dptr* ptr))                \
  X(free_private, (int device, opscuda_dptr ptr))                                             \
  /* Copies between pageable host memory and the device on stream and waits for the copy. */  \
  X(copy_to_device, (int device, opscuda_stream stream, opscuda_dptr dst, const void* src,    \
                     unsigned long long bytes))                                               \
  X(copy_to_host, (int device, opscuda_stream stream, void* dst, opscuda_dptr src,            \
                   unsigned long long bytes))                                                 \
  /* Queues a copy between pinned host memory (opscuda_host_alloc) and the device on stream; */ \
  /* returns at once. */                                                                      \
  X(copy_async, (int device, opscuda_stream stream, opscuda_dptr dev, void* host,            \
                 unsigned long long bytes, int to_device))                                    \
  /* Peer access from device to peer's memory: enables it (once per ordered pair, when the */ \
  /* hardware allows it) and stores 1 in *direct if it is on, else 0. */                      \
  X(peer_access, (int device, int peer, int* direct))                                         \
  /* Queues a copy of bytes from src on src_device to dst on dst_device on dst_stream (a */     \
  /* stream of dst_device) with cudaMemcpyPeerAsync: dst_stream first waits for the work */    \
  /* queued on src_stream (of src_device) so far, and src_stream then waits for the copy, so */ \
  /* the source is not reused before it is read. Peer access is enabled both ways where it */  \
  /* can be; otherwise CUDA stages the copy through host memory. */                          \
  X(copy_peer, (int dst_device, opscuda_stream dst_stream, opscuda_dptr dst, int src_device,   \
                opscuda_stream src_stream, opscuda_dptr src, unsigned long long bytes))        \
  /* Pinned (page-locked) host memory. */                                                     \
  X(host_alloc, (unsigned long long bytes, void** ptr))                                       \
  X(host_free, (void* ptr))                                                                   \
  /* Waits for all work queued on the device. */                                              \
  X(synchronize, (int device))                                                                \
  /* Streams: non-blocking (they do not synchronize with the legacy stream), like PyTorch's. */ \
  X(stream_create, (int device, opscuda_stream* stream))                                      \
  /* Waits for the stream's work, then destroys it and its scratch memory. */                 \
  X(stream_destroy, (int device, opscuda_stream stream))                                      \
  /* Makes stream wait (on the device) for the work queued so far on other, through event. */ \
  X(stream_wait_stream, (int device, opscuda_stream stream, opscuda_stream other,             \
                         opscuda_event event))                                                \
  X(stream_wait_event, (int device, opscuda_stream stream, opscuda_event event))              \
  /* *status: OPSCUDA_CAPTURE_NONE, _ACTIVE or _INVALIDATED. */                               \
  X(stream_capturing, (int device, opscuda_stream stream, int* status))                       \
  /* Events; timing events can measure elapsed time, the others are cheaper. */               \
  X(event_create, (int device, int timing, opscuda_event* event))                             \
  X(event_destroy, (int device, opscuda_event event))                                         \
  X(event_record, (int device, opscuda_event event, opscuda_stream stream))                   \
  /* *done: 1 when the work before the event's last record has completed, else 0. */          \
  X(event_query, (int device, opscuda_event event, int* done))                                \
  X(event_elapsed, (int device, opscuda_event start, opscuda_event end, float* ms))           \
  /* Graphs: capture the work queued on stream (relaxed mode) into an executable graph. */    \
  X(graph_begin, (int device, opscuda_stream stream))                                         \
  /* Ends the capture; *graph is 0 when it failed (the error says why). */                    \
  X(graph_end, (int device, opscuda_stream stream, opscuda_graph* graph))                     \
  X(graph_launch, (int device, opscuda_graph graph, opscuda_stream stream))                   \
  X(graph_destroy, (int device, opscuda_graph graph))                                         \
  /* Kernels. out is a fresh contiguous buffer; inputs are read only. Elementwise ones */    \
  /* (OPSCUDA_EW) over nin = 1 input x, or 2 for axpby (x, y) and polynomial_backward (g, x). */ \
  X(add_scalar, (OPSCUDA_EW, double s))                                                       \
  X(scale, (OPSCUDA_EW, double s))                                                            \
  X(axpby, (OPSCUDA_EW, double a, double b))                                                  \
  X(polynomial, (OPSCUDA_EW, double a, double b, double c, double d))                         \
  X(polynomial_backward, (OPSCUDA_EW, double a, double b, double c))                          \
  /* Strided gather. */                                                                       \
  X(copy, (OPSCUDA_EW))                                                                       \
  /* AsType: out (contiguous, dtype out_dtype) = x (dtype, strided) converted: widening */     \
  /* exact, narrowing to nearest even (through float32 from float64). */                      \
  X(convert, (OPSCUDA_EW, int out_dtype))                                                     \
  /* out = g*x/norm (0 where norm == 0); g and norm point at one element each (0-d). */       \
  X(norm_backward, (OPSCUDA_EW, opscuda_dptr g, opscuda_dptr norm))                           \
  /* out[0] = sqrt(sum of x^2) over x, summed in double (one kernel, deterministic). */       \
  X(norm, (OPSCUDA_EW))                                                                       \
  /* NarrowBackward: out (contiguous, shape sizes[0..ndim)) is zero except along dim for */    \
  /* indices [start, start+len), where it holds g (strides gstrides, len at dim). */           \
  X(narrow_backward, (opscuda_stream stream, int device, int dtype, opscuda_dptr out,         \
                      opscuda_dptr g, int ndim, const long long* sizes,                       \
                      const long long* gstrides, int dim, long long start, long long len))    \
  /* Softmax of each row of x[B, D] (element (i, j) at x[i*s0 + j*s1]) into contiguous out. */ \
  X(row_softmax, (opscuda_stream stream, int device, int dtype, opscuda_dptr out,             \
                  opscuda_dptr x, long long B, long long D, long long s0, long long s1))      \
  /* out = y * (g - rowsum(g*y)), g and y [B, D] strided. */                                  \
  X(row_softmax_backward, (opscuda_stream stream, int device, int dtype, opscuda_dptr out,    \
                           opscuda_dptr g, long long gs0, long long gs1, opscuda_dptr y,      \
                           long long ys0, long long ys1, long long B, long long D))           \
  /* c[M, N] (contiguous) = a[M, K] x b[K, N] through cuBLASLt (loaded on first use). a is */   \
  /* row-major (a_rows: element (i, k) at a[i*lda + k]) or column-major (a[i + k*lda]), b */    \
  /* likewise; flags: OPSCUDA_MATMUL_*. workspace: workspace_bytes of device memory that */   \
  /* cuBLASLt may use, not touched by other work until this call's work has run. */          \
  X(matmul, (opscuda_stream stream, int device, int dtype, int flags, opscuda_dptr c,        \
             opscuda_dptr a, int a_rows, long long lda, opscuda_dptr b, int b_rows,          \
             long long ldb, long long M, long long N, long long K, opscuda_dptr workspace,    \
             unsigned long long workspace_bytes))                                             \
  /* Loads cuBLASLt if need be; its version (cublasLtGetVersion) and the file it came from. */ \
  X(cublas_info, (int* version, char* path, int len))

#define OPSCUDA_DECLARE(name, params) int opscuda_##name params;
OPSCUDA_API(OPSCUDA_DECLARE)
#undef OPSCUDA_DECLARE

// The name (e.g. "cudaErrorNoDevice") and description of a cudaError_t value.
const char* opscuda_error_name(int code);
const char* opscuda_error_string(int code);

#ifdef __cplusplus
}
#endif

#endif  // RULES_CUDA_GO_OPS_CUDA_OPSCUDA_H_
