// C interface of the CUDA backend of github.com/rules-cuda-go/rules_cuda_go/ops (package ops/cuda),
// called from cgo. Everything runs on the CUDA runtime (never the driver API):
//
//   - Every function takes the device ordinal and calls cudaSetDevice on the calling thread first,
//     so calls from any OS thread (goroutine) address the right GPU.
//   - All work goes to the legacy default stream (cudaStreamLegacy), so work issued from different
//     threads is ordered; memory comes from the device's stream-ordered pool (cudaMallocAsync /
//     cudaFreeAsync on that stream), so a free never releases memory that queued work still uses.
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

// Element types (the values of ops.DType).
#define OPSCUDA_FLOAT32 1
#define OPSCUDA_FLOAT64 2

// An elementwise problem: out[i] = f(in[0][off0(i)], in[1][off1(i)]) for i in [0, n), out
// contiguous. in[k] points at the operand's first element (base + offset). The operands' logical
// shape, dimensions merged, is sizes[0..ndim) (outermost first) and strides[k][d] is operand k's
// stride along dimension d. Contiguous inputs have ndim == 1 and stride 1.
typedef struct {
  int device;
  int dtype;
  int nin;
  int ndim;
  long long n;
  opscuda_dptr out;
  opscuda_dptr in[2];
  long long sizes[OPSCUDA_MAX_DIMS];
  long long strides[2][OPSCUDA_MAX_DIMS];
} opscuda_ew;

// ---- Runtime: devices, memory, copies, synchronization.

// Stores the number of devices in *count (0 on error, e.g. no device or no driver).
int opscuda_device_count(int* count);
// Stores the device's name (NUL-terminated, truncated to len bytes), its compute capability and its
// number of multiprocessors.
int opscuda_device_info(int device, char* name, int len, int* major, int* minor, int* sms);
// Allocates bytes (> 0) of device memory, stream-ordered on the legacy stream when the device
// supports memory pools (cudaMalloc otherwise). The pool keeps freed memory for reuse.
int opscuda_malloc(int device, unsigned long long bytes, opscuda_dptr* ptr);
// Frees memory from opscuda_malloc after the work queued so far on the legacy stream.
int opscuda_free(int device, opscuda_dptr ptr);
// Copies bytes from host memory to device memory and from device to host; both return when the
// copy is complete (and the host buffer is no longer used).
int opscuda_copy_to_device(int device, opscuda_dptr dst, const void* src, unsigned long long bytes);
int opscuda_copy_to_host(int device, void* dst, opscuda_dptr src, unsigned long long bytes);
// Waits for all work queued on the device.
int opscuda_synchronize(int device);
// The name (e.g. "cudaErrorNoDevice") and description of a cudaError_t value.
const char* opscuda_error_name(int code);
const char* opscuda_error_string(int code);

// ---- Kernels. out is a fresh contiguous buffer; inputs are read only.

int opscuda_add_scalar(const opscuda_ew* e, double s);                         // x + s
int opscuda_scale(const opscuda_ew* e, double s);                              // s * x
int opscuda_axpby(const opscuda_ew* e, double a, double b);                    // a*x + b*y
int opscuda_polynomial(const opscuda_ew* e, double a, double b, double c, double d);
int opscuda_polynomial_backward(const opscuda_ew* e, double a, double b, double c);  // in: g, x
int opscuda_copy(const opscuda_ew* e);                                         // strided gather
// out = g*x/norm (0 where norm == 0); g and norm point at one element each (0-d tensors).
int opscuda_norm_backward(const opscuda_ew* e, opscuda_dptr g, opscuda_dptr norm);
// out[0] = sqrt(sum of x^2) over the e->n elements of in[0], summed in double (one kernel,
// deterministic for a given device); e->out holds one element.
int opscuda_norm(const opscuda_ew* e);

// NarrowBackward: out (contiguous, shape sizes[0..ndim)) is zero except along dimension dim for
// indices [start, start+len), where it holds g (strides gstrides, shape sizes with len at dim).
int opscuda_narrow_backward(int device, int dtype, opscuda_dptr out, opscuda_dptr g, int ndim,
                            const long long* sizes, const long long* gstrides, int dim,
                            long long start, long long len);

// Softmax of each row of x[B, D] (element (i, j) at x[i*s0 + j*s1]) into contiguous out.
int opscuda_row_softmax(int device, int dtype, opscuda_dptr out, opscuda_dptr x, long long B,
                        long long D, long long s0, long long s1);
// out = y * (g - rowsum(g*y)), g and y [B, D] strided.
int opscuda_row_softmax_backward(int device, int dtype, opscuda_dptr out, opscuda_dptr g,
                                 long long gs0, long long gs1, opscuda_dptr y, long long ys0,
                                 long long ys1, long long B, long long D);

// c[M, N] (contiguous) = a[M, K] (element (i, k) at a[i*sa0 + k*sa1]) x b[K, N] (b[k*sb0 + j*sb1]).
int opscuda_matmul(int device, int dtype, opscuda_dptr c, opscuda_dptr a, long long sa0,
                   long long sa1, opscuda_dptr b, long long sb0, long long sb1, long long M,
                   long long N, long long K);

#ifdef __cplusplus
}
#endif

#endif  // RULES_CUDA_GO_OPS_CUDA_OPSCUDA_H_
