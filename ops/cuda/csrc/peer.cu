// Copies between the memories of two GPUs (peer copies) for ops/cuda, on the CUDA runtime.
#include <cuda_runtime.h>

#include <mutex>

#include "ops/cuda/csrc/common.cuh"
#include "ops/cuda/csrc/opscuda.h"

using namespace opscuda;

namespace {

// Peer access state of each ordered pair (device, peer): 0 not asked yet, 1 on, 2 impossible.
constexpr int kMaxDevices = 64;
std::mutex g_peer_mu;
unsigned char g_peer[kMaxDevices][kMaxDevices];
// Per ordered pair (dst, src): the event the copy waits for on src's stream (an event of src)
// and the one src's stream waits for after the copy (an event of dst).
cudaEvent_t g_ready[kMaxDevices][kMaxDevices];
cudaEvent_t g_copied[kMaxDevices][kMaxDevices];

int done(cudaError_t err) {
  if (err != cudaSuccess) (void)cudaGetLastError();
  return (int)err;
}

// Enables access from device to peer's memory once; *direct says whether it is on. The caller
// holds g_peer_mu.
cudaError_t enable_locked(int device, int peer, int* direct) {
  *direct = 0;
  if (device == peer) {
    *direct = 1;
    return cudaSuccess;
  }
  const bool tabled = device >= 0 && device < kMaxDevices && peer >= 0 && peer < kMaxDevices;
  if (tabled && g_peer[device][peer] != 0) {
    *direct = g_peer[device][peer] == 1;
    return cudaSuccess;
  }
  int can = 0;
  cudaError_t err = cudaDeviceCanAccessPeer(&can, device, peer);
  if (err != cudaSuccess) return err;
  if (can) {
    err = enter(device);
    if (err != cudaSuccess) return err;
    err = cudaDeviceEnablePeerAccess(peer, 0);
    if (err == cudaErrorPeerAccessAlreadyEnabled) {
      (void)cudaGetLastError();
      err = cudaSuccess;
    }
    if (err != cudaSuccess) return err;
    // Peer access does not cover memory from stream-ordered pools (what ops/cuda allocates
    // from): the peer's default pool must grant device access too, or copies from it are
    // staged through the host.
    cudaMemPool_t pool;
    if (cudaDeviceGetDefaultMemPool(&pool, peer) == cudaSuccess) {
      cudaMemAccessDesc access = {};
      access.location.type = cudaMemLocationTypeDevice;
      access.location.id = device;
      access.flags = cudaMemAccessFlagsProtReadWrite;
      err = cudaMemPoolSetAccess(pool, &access, 1);
      if (err != cudaSuccess) return err;
    } else {
      (void)cudaGetLastError();
    }
  }
  if (tabled) g_peer[device][peer] = can ? 1 : 2;
  *direct = can;
  return cudaSuccess;
}

}  // namespace

extern "C" int opscuda_peer_access(int device, int peer, int* direct) {
  *direct = 0;
  std::lock_guard<std::mutex> lock(g_peer_mu);
  return done(enable_locked(device, peer, direct));
}

extern "C" int opscuda_copy_peer(int dst_device, opscuda_stream dst_stream, opscuda_dptr dst,
                                 int src_device, opscuda_stream src_stream, opscuda_dptr src,
                                 unsigned long long bytes) {
  // The events of each ordered pair are made once and used under the lock: a wait takes the
  // event's state when it is queued, so the next copy may record it again.
  std::lock_guard<std::mutex> lock(g_peer_mu);
  int direct = 0;
  cudaError_t err = enable_locked(dst_device, src_device, &direct);
  if (err == cudaSuccess) err = enable_locked(src_device, dst_device, &direct);
  if (err != cudaSuccess) return done(err);
  const bool tabled = dst_device >= 0 && dst_device < kMaxDevices && src_device >= 0 &&
                      src_device < kMaxDevices;
  cudaEvent_t local_ready = nullptr, local_copied = nullptr;
  cudaEvent_t* ready = tabled ? &g_ready[dst_device][src_device] : &local_ready;
  cudaEvent_t* copied = tabled ? &g_copied[dst_device][src_device] : &local_copied;
  // The source is ready: dst_stream waits for src_stream's work so far.
  err = enter(src_device);
  if (err == cudaSuccess && *ready == nullptr) err = cudaEventCreateWithFlags(ready, cudaEventDisableTiming);
  if (err == cudaSuccess) err = cudaEventRecord(*ready, as_stream(src_stream));
  if (err == cudaSuccess) err = enter(dst_device, dst_stream);
  if (err == cudaSuccess) err = cudaStreamWaitEvent(as_stream(dst_stream), *ready, 0);
  if (err == cudaSuccess) {
    err = cudaMemcpyPeerAsync(mptr<void>(dst), dst_device, cptr<void>(src), src_device,
                              (size_t)bytes, as_stream(dst_stream));
  }
  // The copy has read the source: src_stream waits for it before any later use (or free).
  if (err == cudaSuccess && *copied == nullptr) err = cudaEventCreateWithFlags(copied, cudaEventDisableTiming);
  if (err == cudaSuccess) err = cudaEventRecord(*copied, as_stream(dst_stream));
  if (err == cudaSuccess) err = enter(src_device);
  if (err == cudaSuccess) err = cudaStreamWaitEvent(as_stream(src_stream), *copied, 0);
  // Destroying a recorded event is allowed: its resources go once it has completed.
  if (local_ready != nullptr) (void)cudaEventDestroy(local_ready);
  if (local_copied != nullptr) (void)cudaEventDestroy(local_copied);
  return done(err);
}
