// C interface of package ops/cuda/nccl (NCCL collectives on ops tensors), called from cgo.
//
// libnccl.so.2 is loaded with dlopen on first use, never linked, so that programs importing the
// package start on machines without NCCL (or without a GPU). Every function returns an
// ncclResult_t value (0 = ncclSuccess, 7 = ncclInProgress) or one of the OPSNCCL_ERROR_* codes.
// Communicators are opaque handles that also remember their device: every call makes that
// device current (cudaSetDevice) on the calling thread first.
#ifndef RULES_CUDA_GO_OPS_CUDA_NCCL_OPSNCCL_H_
#define RULES_CUDA_GO_OPS_CUDA_NCCL_OPSNCCL_H_

#ifdef __cplusplus
extern "C" {
#endif

// The library could not be loaded (opsnccl_load_error says why).
#define OPSNCCL_ERROR_MISSING 1000
// A CUDA runtime call failed: OPSNCCL_ERROR_CUDA_BASE + cudaError_t.
#define OPSNCCL_ERROR_CUDA_BASE 2000

// The bytes of an ncclUniqueId.
#define OPSNCCL_ID_BYTES 128

typedef unsigned long long opsnccl_comm;

// Operations of opsnccl_call.kind.
#define OPSNCCL_ALL_REDUCE 1
#define OPSNCCL_BROADCAST 2
#define OPSNCCL_REDUCE 3
#define OPSNCCL_ALL_GATHER 4
#define OPSNCCL_REDUCE_SCATTER 5
#define OPSNCCL_SEND 6
#define OPSNCCL_RECV 7

// Element types (ops.DType's codes, as in ops/cuda/csrc/opscuda.h) and reductions.
#define OPSNCCL_FLOAT32 1
#define OPSNCCL_FLOAT64 2
#define OPSNCCL_FLOAT16 3
#define OPSNCCL_BFLOAT16 4
#define OPSNCCL_SUM 0
#define OPSNCCL_PROD 1
#define OPSNCCL_MAX 2
#define OPSNCCL_MIN 3
#define OPSNCCL_AVG 4

// One collective or point-to-point call: count elements (per rank; AllGather's and
// ReduceScatter's count is the smaller buffer's), root (Broadcast, Reduce) or peer (Send, Recv)
// in `peer`, on stream (a cudaStream_t; 0 is the legacy default stream).
typedef struct {
  int kind;
  int dtype;
  int op;
  int peer;
  opsnccl_comm comm;
  unsigned long long send;
  unsigned long long recv;
  unsigned long long count;
  unsigned long long stream;
} opsnccl_call;

// Loads the library if need be; its version code (ncclGetVersion, e.g. 22707) and file.
int opsnccl_info(int* version, char* path, int len);
// Why the library could not be loaded (empty when it was).
const char* opsnccl_load_error(void);
// ncclGetUniqueId into id (OPSNCCL_ID_BYTES bytes).
int opsnccl_unique_id(char* id);
// Creates n ranks (ranks[i] of nranks on devices[i], all from the unique id) in one group, as
// non-blocking communicators (config.blocking = 0), so that initialization can be aborted:
// comms[i] are valid handles even when the result is ncclInProgress; poll opsnccl_status until
// each is ready, then call opsnccl_split.
int opsnccl_init(int n, const int* devices, const int* ranks, int nranks, const char* id,
                 opsnccl_comm* comms);
// Splits each of the n ready ranks (in one group) into the blocking communicator (config.blocking
// = 1) that every later call uses: NCCL launches a blocking communicator's calls on the calling
// thread. The split itself runs as the parent's non-blocking operation: poll opsnccl_status
// until each is ready (an abort meanwhile stops it).
int opsnccl_split(int n, const opsnccl_comm* comms);
// ncclCommGetAsyncError of the rank's communicator (the parent until the split has completed):
// *state is ncclSuccess, ncclInProgress or the error.
int opsnccl_status(opsnccl_comm comm, int* state);
// ncclCommFinalize (blocking after the split: returns when the rank's work has completed, so
// wait for that with a deadline first), then opsnccl_destroy.
int opsnccl_finalize(opsnccl_comm comm);
// ncclCommDestroy, aborts the idle parent, and frees the handle.
int opsnccl_destroy(opsnccl_comm comm);
// ncclCommAbort of the communicator and its parent (stops their kernels on the device) and
// frees the handle. No other call on the handle may be in progress.
int opsnccl_abort(opsnccl_comm comm);
// Issues n calls, between ncclGroupStart and ncclGroupEnd when grouped (always ended, also after
// an error); the first failure's result.
int opsnccl_run(const opsnccl_call* calls, int n, int grouped);
// cudaMemcpyAsync of bytes from src to dst, and cudaMemsetAsync of dst to 0, device addresses of
// device, on stream (for the gradient buckets); OPSNCCL_ERROR_CUDA_BASE + cudaError_t on failure.
int opsnccl_copy(int device, unsigned long long dst, unsigned long long src,
                 unsigned long long bytes, unsigned long long stream);
int opsnccl_zero(int device, unsigned long long dst, unsigned long long bytes,
                 unsigned long long stream);
// ncclGetErrorString, and ncclGetLastError of comm (0: of the last call on this thread).
const char* opsnccl_error_string(int code);
const char* opsnccl_last_error(opsnccl_comm comm);

#ifdef __cplusplus
}
#endif

#endif  // RULES_CUDA_GO_OPS_CUDA_NCCL_OPSNCCL_H_
