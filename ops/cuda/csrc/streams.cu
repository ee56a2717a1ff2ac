// Streams, events, CUDA graphs, pinned host memory and asynchronous copies for ops/cuda, on the
// CUDA runtime only. Handles cross the C interface as integers (opscuda_stream, opscuda_event,
// opscuda_graph); 0 is the legacy default stream.
#include <cuda_runtime.h>
#include <stdint.h>

#include "ops/cuda/csrc/common.cuh"
#include "ops/cuda/csrc/opscuda.h"

using namespace opscuda;

namespace {

template <typename H>
H from_handle(unsigned long long h) {
  return reinterpret_cast<H>((uintptr_t)h);
}
template <typename H>
unsigned long long to_handle(H h) {
  return (unsigned long long)(uintptr_t)h;
}

// Clears the error of a failed call from cudaGetLastError and returns it.
int done(cudaError_t err) {
  if (err != cudaSuccess) (void)cudaGetLastError();
  return (int)err;
}

}  // namespace

extern "C" int opscuda_malloc_private(int device, unsigned long long bytes, opscuda_dptr* ptr) {
  *ptr = 0;
  cudaError_t err = enter(device);
  if (err != cudaSuccess) return (int)err;
  RelaxedCapture relaxed;
  void* p = nullptr;
  err = cudaMalloc(&p, (size_t)bytes);
  if (err == cudaSuccess) *ptr = to_handle(p);
  return done(err);
}

extern "C" int opscuda_free_private(int device, opscuda_dptr ptr) {
  cudaError_t err = enter(device);
  if (err != cudaSuccess) return (int)err;
  RelaxedCapture relaxed;
  return done(cudaFree(mptr<void>(ptr)));
}

extern "C" int opscuda_copy_async(int device, opscuda_stream stream, opscuda_dptr dev, void* host,
                                  unsigned long long bytes, int to_device) {
  cudaError_t err = enter(device, stream);
  if (err != cudaSuccess) return (int)err;
  if (to_device) {
    err = cudaMemcpyAsync(mptr<void>(dev), host, (size_t)bytes, cudaMemcpyHostToDevice,
                          as_stream(stream));
  } else {
    err = cudaMemcpyAsync(host, cptr<void>(dev), (size_t)bytes, cudaMemcpyDeviceToHost,
                          as_stream(stream));
  }
  return done(err);
}

extern "C" int opscuda_host_alloc(unsigned long long bytes, void** ptr) {
  *ptr = nullptr;
  RelaxedCapture relaxed;
  return done(cudaHostAlloc(ptr, (size_t)bytes, cudaHostAllocPortable));
}

extern "C" int opscuda_host_free(void* ptr) {
  RelaxedCapture relaxed;
  return done(cudaFreeHost(ptr));
}

extern "C" int opscuda_stream_create(int device, opscuda_stream* stream) {
  *stream = 0;
  cudaError_t err = enter(device);
  if (err != cudaSuccess) return (int)err;
  cudaStream_t s = nullptr;
  err = cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  if (err == cudaSuccess) *stream = to_handle(s);
  return done(err);
}

extern "C" int opscuda_stream_destroy(int device, opscuda_stream stream) {
  if (stream == 0) return (int)cudaErrorInvalidResourceHandle;
  cudaError_t err = enter(device, stream);
  if (err != cudaSuccess) return (int)err;
  cudaStream_t s = as_stream(stream);
  err = cudaStreamSynchronize(s);
  release_stream_scratch(device, s);
  cudaError_t err2 = cudaStreamDestroy(s);
  return done(err != cudaSuccess ? err : err2);
}

extern "C" int opscuda_stream_wait_stream(int device, opscuda_stream stream, opscuda_stream other,
                                          opscuda_event event) {
  cudaError_t err = enter(device, stream);
  if (err != cudaSuccess) return (int)err;
  cudaEvent_t e = from_handle<cudaEvent_t>(event);
  err = cudaEventRecord(e, as_stream(other));
  if (err == cudaSuccess) err = cudaStreamWaitEvent(as_stream(stream), e, 0);
  return done(err);
}

extern "C" int opscuda_stream_wait_event(int device, opscuda_stream stream, opscuda_event event) {
  cudaError_t err = enter(device, stream);
  if (err != cudaSuccess) return (int)err;
  return done(cudaStreamWaitEvent(as_stream(stream), from_handle<cudaEvent_t>(event), 0));
}

extern "C" int opscuda_stream_capturing(int device, opscuda_stream stream, int* status) {
  *status = OPSCUDA_CAPTURE_NONE;
  cudaError_t err = enter(device, stream);
  if (err != cudaSuccess) return (int)err;
  cudaStreamCaptureStatus st = cudaStreamCaptureStatusNone;
  err = cudaStreamIsCapturing(as_stream(stream), &st);
  if (st == cudaStreamCaptureStatusActive) *status = OPSCUDA_CAPTURE_ACTIVE;
  if (st == cudaStreamCaptureStatusInvalidated) *status = OPSCUDA_CAPTURE_INVALIDATED;
  return done(err);
}

extern "C" int opscuda_event_create(int device, int timing, opscuda_event* event) {
  *event = 0;
  cudaError_t err = enter(device);
  if (err != cudaSuccess) return (int)err;
  cudaEvent_t e = nullptr;
  err = cudaEventCreateWithFlags(&e, timing ? cudaEventDefault : cudaEventDisableTiming);
  if (err == cudaSuccess) *event = to_handle(e);
  return done(err);
}

extern "C" int opscuda_event_destroy(int device, opscuda_event event) {
  cudaError_t err = enter(device);
  if (err != cudaSuccess) return (int)err;
  return done(cudaEventDestroy(from_handle<cudaEvent_t>(event)));
}

extern "C" int opscuda_event_record(int device, opscuda_event event, opscuda_stream stream) {
  cudaError_t err = enter(device, stream);
  if (err != cudaSuccess) return (int)err;
  return done(cudaEventRecord(from_handle<cudaEvent_t>(event), as_stream(stream)));
}

extern "C" int opscuda_event_query(int device, opscuda_event event, int* finished) {
  *finished = 0;
  cudaError_t err = enter(device);
  if (err != cudaSuccess) return (int)err;
  err = cudaEventQuery(from_handle<cudaEvent_t>(event));
  if (err == cudaErrorNotReady) {
    (void)cudaGetLastError();
    return 0;
  }
  if (err == cudaSuccess) *finished = 1;
  return done(err);
}

extern "C" int opscuda_event_elapsed(int device, opscuda_event start, opscuda_event end,
                                     float* ms) {
  *ms = 0;
  cudaError_t err = enter(device);
  if (err != cudaSuccess) return (int)err;
  return done(
      cudaEventElapsedTime(ms, from_handle<cudaEvent_t>(start), from_handle<cudaEvent_t>(end)));
}

// Relaxed mode: Go moves goroutines between OS threads, so a thread-local or global mode would
// turn unrelated calls of other goroutines into capture errors. ops/cuda refuses the operations
// that cannot be captured (host copies, synchronization) itself, with an error that names them.
extern "C" int opscuda_graph_begin(int device, opscuda_stream stream) {
  if (stream == 0) return (int)cudaErrorStreamCaptureImplicit;
  cudaError_t err = enter(device, stream);
  if (err != cudaSuccess) return (int)err;
  return done(cudaStreamBeginCapture(as_stream(stream), cudaStreamCaptureModeRelaxed));
}

extern "C" int opscuda_graph_end(int device, opscuda_stream stream, opscuda_graph* graph) {
  *graph = 0;
  cudaError_t err = enter(device, stream);
  if (err != cudaSuccess) return (int)err;
  cudaGraph_t g = nullptr;
  err = cudaStreamEndCapture(as_stream(stream), &g);
  if (err != cudaSuccess) {
    if (g != nullptr) (void)cudaGraphDestroy(g);
    return done(err);
  }
  cudaGraphExec_t exec = nullptr;
  err = cudaGraphInstantiateWithFlags(&exec, g, 0);
  (void)cudaGraphDestroy(g);
  if (err == cudaSuccess) *graph = to_handle(exec);
  return done(err);
}

extern "C" int opscuda_graph_launch(int device, opscuda_graph graph, opscuda_stream stream) {
  cudaError_t err = enter(device, stream);
  if (err != cudaSuccess) return (int)err;
  return done(cudaGraphLaunch(from_handle<cudaGraphExec_t>(graph), as_stream(stream)));
}

extern "C" int opscuda_graph_destroy(int device, opscuda_graph graph) {
  cudaError_t err = enter(device);
  if (err != cudaSuccess) return (int)err;
  return done(cudaGraphExecDestroy(from_handle<cudaGraphExec_t>(graph)));
}
